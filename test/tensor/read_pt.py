"""Reads a torch.save file holding one tensor with the standard library only (no torch), and
prints its dtype, shape, stride, offset and values as JSON. An independent check of the
project's encoder: a different reader (CPython's zipfile and pickle) must accept its output."""
import json
import pickle
import struct
import sys
import zipfile

FORMATS = {
    "DoubleStorage": ("float64", "d", 8), "FloatStorage": ("float32", "f", 4),
    "HalfStorage": ("float16", "e", 2), "BFloat16Storage": ("bfloat16", None, 2),
    "LongStorage": ("int64", "q", 8), "IntStorage": ("int32", "i", 4),
    "ShortStorage": ("int16", "h", 2), "CharStorage": ("int8", "b", 1),
    "ByteStorage": ("uint8", "B", 1), "BoolStorage": ("bool", "?", 1),
}


class StorageType:
    def __init__(self, name):
        self.name = name


def rebuild(storage, offset, size, stride, requires_grad, hooks, *rest):
    return {"storage": storage, "offset": offset, "size": list(size), "stride": list(stride)}


class Reader(pickle.Unpickler):
    def __init__(self, f, archive, prefix):
        super().__init__(f)
        self.archive, self.prefix = archive, prefix

    def find_class(self, module, name):
        if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
            return rebuild
        if (module, name) == ("collections", "OrderedDict"):
            return dict
        if module == "torch" and name in FORMATS:
            return StorageType(name)
        raise pickle.UnpicklingError(f"refused {module}.{name}")

    def persistent_load(self, pid):
        kind, storage_type, key, location, numel = pid
        dtype, fmt, size = FORMATS[storage_type.name]
        raw = self.archive.read(f"{self.prefix}data/{key}")
        assert len(raw) == numel * size, "storage size"
        if fmt is None:
            values = [struct.unpack("<f", b"\0\0" + raw[i:i + 2])[0] for i in range(0, len(raw), 2)]
        else:
            values = list(struct.unpack(f"<{numel}{fmt}", raw))
        return {"dtype": dtype, "values": values}


def main():
    archive = zipfile.ZipFile(sys.argv[1])
    pkl = next(n for n in archive.namelist() if n.endswith("data.pkl"))
    prefix = pkl[: -len("data.pkl")]
    with archive.open(pkl) as f:
        t = Reader(f, archive, prefix).load()
    flat = t["storage"]["values"]

    def walk(dim, at):
        if dim == len(t["size"]):
            return flat[at]
        return [walk(dim + 1, at + i * t["stride"][dim]) for i in range(t["size"][dim])]

    offsets = {}
    with open(sys.argv[1], "rb") as f:
        raw = f.read()
    for info in archive.infolist():
        name_len, extra_len = struct.unpack("<HH", raw[info.header_offset + 26:info.header_offset + 30])
        offsets[info.filename] = info.header_offset + 30 + name_len + extra_len

    print(json.dumps({"data_offsets": offsets, "dtype": t["storage"]["dtype"], "shape": t["size"], "stride": t["stride"],
                      "storage_offset": t["offset"], "values": walk(0, t["offset"]),
                      "names": archive.namelist()}))


main()
