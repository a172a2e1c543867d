// torch.save files (the zip format PyTorch has written since 1.6) holding one tensor:
//
//   <prefix>/data.pkl      the pickle (see pickle.ts) naming the storage by key
//   <prefix>/data/<key>    the storage's raw bytes, little-endian unless <prefix>/byteorder says
//   <prefix>/version       the format version ("3\n")
//
// The prefix differs between writers (`archive/`, `tensor/`...), so data.pkl is found by its
// suffix. Entries are only extracted once their declared sizes have been checked against the
// caller's allowance, so a file that declares a huge storage allocates nothing large.
import { type Unzipped, unzipSync, zipSync } from "fflate";
import { DTYPES, MAX_DIMS, shapeSize, type Tensor } from "../../interpreter/index.js";
import { PickleError, readTensorPickle, type TensorSpec, writeTensorPickle } from "./pickle.js";

/** What is wrong with a tensor file, in words for the user. */
export class TensorFileError extends Error {}

/** A tensor file's content is larger than the caller allows: `bytes` is what it would take. */
export class TensorTooLarge extends Error {
  constructor(
    readonly bytes: number,
    detail: string,
  ) {
    super(detail);
  }
}

export interface DecodedTensorFile {
  spec: TensorSpec;
  /** The storage's bytes, little-endian. */
  storage: Uint8Array;
}

/** The largest data.pkl accepted: one tensor's pickle takes a few hundred bytes. */
const MAX_PICKLE_BYTES = 1 << 20;

/** More entries than a one-tensor archive could need (it has three to five). */
const MAX_ENTRIES = 1024;

/**
 * Checks the end-of-central-directory record the way fflate reads it, so that a corrupt entry
 * count (up to 2**32 with zip64) cannot send its loop over the entries off for minutes.
 */
function checkDirectory(data: Uint8Array): void {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const u32 = (at: number) => (at >= 0 && at + 4 <= data.length ? view.getUint32(at, true) : -1);
  let end = data.length - 22;
  while (end > 0 && u32(end) !== 0x06054b50 && data.length - end <= 65558) end--;
  if (end <= 0 || u32(end) !== 0x06054b50) throw new TensorFileError("not a readable zip archive (truncated?): no end of central directory");
  let count = view.getUint16(end + 8, true);
  let directory = u32(end + 16);
  if (u32(end - 20) === 0x07064b50) {
    // A zip64 locator: fflate takes the count and the offset from the zip64 record.
    const zip64 = u32(end - 12);
    if (u32(zip64) === 0x06064b50) {
      count = u32(zip64 + 32);
      directory = u32(zip64 + 48);
    }
  }
  if (count > MAX_ENTRIES) throw new TensorFileError(`the zip archive claims ${count} entries; a tensor file has a handful`);
  if (directory < 0 || directory > end) throw new TensorFileError("not a readable zip archive: its central directory lies outside the file");
}

/**
 * The entries `want` picks. Only stored (uncompressed) entries are extracted, as torch writes
 * them: a stored entry cannot expand beyond the archive's own bytes.
 */
function unzip(data: Uint8Array, want: (name: string, size: number) => boolean): Unzipped {
  checkDirectory(data);
  try {
    return unzipSync(data, {
      filter: (file) => {
        if (!want(file.name, file.originalSize)) return false;
        if (file.compression !== 0) throw new TensorFileError(`${file.name} is compressed (method ${file.compression}); torch stores its entries uncompressed`);
        return true;
      },
    });
  } catch (e) {
    if (e instanceof TensorFileError || e instanceof TensorTooLarge) throw e;
    throw new TensorFileError(`not a readable zip archive (truncated?): ${(e as Error).message}`);
  }
}

/**
 * Reads a torch.save file. `allowance` is how many bytes the storage may take; more is refused
 * (TensorTooLarge) before it is extracted.
 */
export function readTorchFile(data: Uint8Array, allowance: number): DecodedTensorFile {
  if (data.length < 4 || data[0] !== 0x50 || data[1] !== 0x4b) {
    throw new TensorFileError("not a torch.save zip archive (it does not start with a zip header)");
  }
  let prefix: string | null = null;
  const meta = unzip(data, (name, size) => {
    const pkl = name.endsWith("/data.pkl") || name === "data.pkl";
    if (pkl && prefix === null) prefix = name.slice(0, -"data.pkl".length);
    if (!(pkl || name.endsWith("/byteorder"))) return false;
    if (size > MAX_PICKLE_BYTES) throw new TensorFileError(`${name} declares ${size} bytes, far more than a tensor's pickle takes`);
    return true;
  });
  if (prefix === null) throw new TensorFileError("the archive has no data.pkl: it is not a torch.save file");
  const pkl = meta[`${prefix}data.pkl`]!;
  const byteorder = meta[`${prefix}byteorder`];
  if (byteorder && new TextDecoder().decode(byteorder).trim() !== "little") {
    throw new TensorFileError("the tensor was saved big-endian, which is not supported");
  }
  let spec: TensorSpec;
  try {
    spec = readTensorPickle(pkl);
  } catch (e) {
    if (e instanceof PickleError) throw new TensorFileError(e.message);
    throw e;
  }
  const size = DTYPES[spec.storage.dtype].size;
  const declared = spec.storage.numel * size;
  if (!Number.isSafeInteger(declared) || declared > allowance) {
    throw new TensorTooLarge(declared, `the tensor's storage declares ${spec.storage.numel} ${spec.storage.dtype} elements (${declared} bytes)`);
  }
  checkView(spec);
  const storageName = `${prefix}data/${spec.storage.key}`;
  let found = false;
  const entries = unzip(data, (name, entrySize) => {
    if (name !== storageName) return false;
    found = true;
    if (entrySize !== declared) {
      throw new TensorFileError(`the storage ${storageName} has ${entrySize} bytes, but the pickle declares ${declared}`);
    }
    return true;
  });
  if (!found) throw new TensorFileError(`the archive lacks the storage ${storageName}`);
  const storage = entries[storageName]!;
  if (storage.length !== declared) throw new TensorFileError(`the storage ${storageName} has ${storage.length} bytes, but the pickle declares ${declared}`);
  return { spec, storage };
}

/** The view must stay inside its storage. */
function checkView(spec: TensorSpec): void {
  if (spec.shape.length > MAX_DIMS) throw new TensorFileError(`the tensor has ${spec.shape.length} dimensions (at most ${MAX_DIMS})`);
  const numel = shapeSize(spec.shape);
  if (!Number.isSafeInteger(numel)) throw new TensorFileError(`the shape ${JSON.stringify(spec.shape)} is impossibly large`);
  if (numel === 0) return;
  let last = spec.offset;
  for (let d = 0; d < spec.shape.length; d++) last += (spec.shape[d]! - 1) * spec.strides[d]!;
  if (!Number.isSafeInteger(last) || last >= spec.storage.numel) {
    throw new TensorFileError(
      `the shape ${JSON.stringify(spec.shape)} with strides ${JSON.stringify(spec.strides)} and offset ${spec.offset} reaches element ${last}, beyond the storage's ${spec.storage.numel}`,
    );
  }
}

const ALIGNMENT = 64;
/** The extra field id torch pads with (the bytes "FB"). */
const FB_PADDING = 0x4246;

/** A fixed time, so that the same tensor always gives the same archive. */
const MTIME = new Date(1980, 0, 1, 0, 0, 0);

/**
 * A torch.save file of `t`'s elements, contiguous, over a storage of exactly those elements. The
 * entries are stored uncompressed, as torch writes them.
 */
export function writeTorchFile(t: Tensor): Uint8Array {
  const shape = [...t.shape];
  const strides: number[] = new Array(shape.length);
  let step = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    strides[d] = step;
    step *= shape[d]!;
  }
  const spec: TensorSpec = {
    kind: "tensor",
    storage: { kind: "storage", dtype: t.dtype, key: "0", location: "cpu", numel: t.numel },
    offset: 0,
    shape,
    strides,
  };
  const encoder = new TextEncoder();
  const before: [string, Uint8Array][] = [
    ["archive/data.pkl", writeTensorPickle(spec)],
    ["archive/byteorder", encoder.encode("little")],
  ];
  // Like torch, start the storage's bytes at a multiple of 64 (so torch.load(mmap=True) can map
  // them), with an "FB" extra field as padding. A stored entry takes 30 bytes of local header,
  // its name, its extra field and its data.
  const storageName = "archive/data/0";
  let offset = 0;
  for (const [name, data] of before) offset += 30 + name.length + data.length;
  const unpadded = offset + 30 + storageName.length + 4;
  const padding = new Uint8Array((ALIGNMENT - (unpadded % ALIGNMENT)) % ALIGNMENT);
  return zipSync(
    {
      ...Object.fromEntries(before),
      [storageName]: [t.contiguousBytes(), { extra: { [FB_PADDING]: padding } }],
      "archive/version": encoder.encode("3\n"),
    },
    { level: 0, mtime: MTIME },
  );
}
