// The tensor media codec against real torch.save files (../shared/fixtures/tensors, whose values
// were decoded independently), its encoder against CPython's own zipfile and pickle, and
// malformed payloads.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compress, decompress } from "@mongodb-js/zstd";
import { unzipSync, zipSync } from "fflate";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeTensor, encodeTensor, TENSOR_MEDIA_TYPE } from "../../src/codemode/tensor/codec.js";
import { PickleError, readTensorPickle, writeTensorPickle } from "../../src/codemode/tensor/pickle.js";
import { Budget, resolveLimits } from "../../src/interpreter/budget.js";
import { PyException, ResourceLimitError } from "../../src/interpreter/errors.js";
import { Tensor, tensorGetItem } from "../../src/interpreter/tensor.js";
import { PyFloat, PyList, type Value } from "../../src/interpreter/values.js";
import { defaultCodecs } from "../../src/codemode/media.js";
import { hasTensorFixtures, TENSOR_FIXTURES as FIXTURES, wireOf } from "./fixtures.js";

const READ_PT = fileURLToPath(new URL("./read_pt.py", import.meta.url));
const NAMES = (hasTensorFixtures ? readdirSync(FIXTURES) : [])
  .filter((f) => f.endsWith(".pt"))
  .map((f) => f.slice(0, -3))
  .sort();

interface Expected {
  dtype: string;
  shape: number[];
  stride: number[];
  storage_offset: number;
  values: unknown;
}

const expectedOf = (name: string) => JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), "utf8")) as Expected;
const budget = (limits: Record<string, number> = {}) => new Budget(resolveLimits(limits));

/** A sandbox value as plain JS, floats as numbers. */
function plain(v: Value): unknown {
  if (v instanceof PyList) return v.items.map(plain);
  if (v instanceof PyFloat) return v.v;
  if (typeof v === "bigint") return v;
  return v;
}

async function wire(pt: Uint8Array): Promise<string> {
  return (await compress(Buffer.from(pt), 3)).toString("base64");
}

/** A torch-shaped archive from entries (name -> bytes), stored uncompressed. */
function archive(entries: Record<string, Uint8Array>): Uint8Array {
  return zipSync(entries, { level: 0 });
}

const ascii = (s: string) => new TextEncoder().encode(s);

function pickleFor(spec: { dtype?: string; numel: number; offset?: number; shape: number[]; strides: number[] }): Uint8Array {
  return writeTensorPickle({
    kind: "tensor",
    storage: { kind: "storage", dtype: (spec.dtype ?? "float32") as "float32", key: "0", location: "cpu", numel: spec.numel },
    offset: spec.offset ?? 0,
    shape: spec.shape,
    strides: spec.strides,
  });
}

async function failure(promise: Promise<unknown>): Promise<PyException | ResourceLimitError> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof PyException || e instanceof ResourceLimitError) return e;
    throw e;
  }
  throw new Error("expected a failure");
}

const messageOf = (e: PyException | ResourceLimitError) => (e instanceof PyException ? `${e.type.name}: ${String(e.args[0])}` : e.message);

describe.skipIf(!hasTensorFixtures)("decoding the real fixtures", () => {
  it("finds all eleven fixtures", () => {
    expect(NAMES).toHaveLength(11);
  });

  for (const name of NAMES) {
    it(`${name} decodes to exactly its recorded values`, async () => {
      const expected = expectedOf(name);
      const t = await decodeTensor(wireOf(name), budget());
      expect(t.dtype).toBe(expected.dtype);
      expect(t.shape).toEqual(expected.shape);
      expect(t.strides).toEqual(expected.stride);
      expect(t.offset).toBe(expected.storage_offset);
      expect(plain(t.toList())).toStrictEqual(expected.values);
    });

    it(`${name} goes back out as the very payload it came in as`, async () => {
      const text = wireOf(name);
      const t = await decodeTensor(text, budget());
      expect(await encodeTensor(t, budget())).toBe(text);
    });
  }

  it("is registered for its media type, case and parameters aside", () => {
    expect(defaultCodecs().get("Application/Vnd.Nomad.Tensor; v=1")?.mediaType).toBe(TENSOR_MEDIA_TYPE);
  });

  it("charges the storage to max_memory_bytes", async () => {
    const b = budget();
    await decodeTensor(wireOf("float32_1x28x28_mnist"), b);
    expect(b.memory).toBeGreaterThanOrEqual(784 * 4);
    expect(b.memory).toBeLessThan(784 * 4 * 2);
  });
});

describe.skipIf(!hasTensorFixtures)("encoding tensors made in the script", () => {
  it("encodes a non-contiguous view as a fresh contiguous file that decodes to the same values", async () => {
    const t = await decodeTensor(wireOf("int64_2x2x3_permuted"), budget());
    const again = await decodeTensor(await encodeTensor(new Tensor(t.dtype, t.shape, t.strides, t.offset, t.storage), budget()), budget());
    expect(again.strides).toEqual([6, 3, 1]);
    expect(plain(again.toList())).toStrictEqual(expectedOf("int64_2x2x3_permuted").values);
  });

  it("encodes a sub-tensor (with a storage offset) that decodes to its values", async () => {
    const t = await decodeTensor(wireOf("int64_2x3"), budget());
    const row = tensorGetItem(t, 1) as Tensor;
    expect(row.offset).toBe(3);
    const again = await decodeTensor(await encodeTensor(row, budget()), budget());
    expect(plain(again.toList())).toStrictEqual([4, 5, 6]);
  });

  it("decodes an offset view of a storage (which no fixture has)", async () => {
    const storage = new Uint8Array(new Float32Array([1, 2, 3, 4, 5, 6]).buffer);
    const pt = archive({
      "x/data.pkl": pickleFor({ numel: 6, offset: 2, shape: [2, 2], strides: [1, 2] }),
      "x/data/0": storage,
      "x/version": ascii("3\n"),
    });
    const t = await decodeTensor(await wire(pt), budget());
    expect(plain(t.toList())).toStrictEqual([
      [3, 5],
      [4, 6],
    ]);
  });

  it("decodes a 0-d tensor to one number", async () => {
    const pt = archive({ "s/data.pkl": pickleFor({ dtype: "float64", numel: 1, shape: [], strides: [] }), "s/data/0": new Uint8Array(new Float64Array([2.5]).buffer), "s/version": ascii("3\n") });
    const t = await decodeTensor(await wire(pt), budget());
    expect(t.shape).toEqual([]);
    expect(plain(t.toList())).toBe(2.5);
  });

  const python = spawnSync("python3", ["-c", "import zipfile, pickle"]).status === 0;
  it.skipIf(!python)("writes archives that CPython's zipfile and pickle read back (torch itself is not installed here)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tensor-"));
    for (const name of ["int64_2x2x3_permuted", "bfloat16_4", "float16_4", "bool_4", "float32_1x28x28_mnist"]) {
      const t = await decodeTensor(wireOf(name), budget());
      const fresh = new Tensor(t.dtype, t.shape, t.strides, t.offset, t.storage);
      const pt = await decompress(Buffer.from(await encodeTensor(fresh, budget()), "base64"));
      const file = join(dir, `${name}.pt`);
      writeFileSync(file, pt);
      const r = spawnSync("python3", [READ_PT, file], { encoding: "utf8" });
      expect(r.stderr).toBe("");
      const read = JSON.parse(r.stdout);
      expect(read.names).toEqual(["archive/data.pkl", "archive/byteorder", "archive/data/0", "archive/version"]);
      // The storage starts 64-byte aligned, as torch writes it.
      expect(read.data_offsets["archive/data/0"] % 64).toBe(0);
      expect(read.dtype).toBe(t.dtype);
      expect(read.shape).toEqual(t.shape);
      expect(read.values).toStrictEqual(expectedOf(name).values);
    }
  });
});

describe.skipIf(!hasTensorFixtures)("malformed payloads", () => {
  const pt = () => new Uint8Array(readFileSync(join(FIXTURES, "float32_1x28x28_mnist.pt")));

  it("refuses text that is not base64", async () => {
    expect(messageOf(await failure(decodeTensor("not base64!", budget())))).toMatch(/^ValueError: invalid base64/);
  });

  it("refuses bytes that are not zstd", async () => {
    const e = await failure(decodeTensor(Buffer.from("PK\x03\x04 plain zip, not zstd").toString("base64"), budget()));
    expect(messageOf(e)).toMatch(/^ValueError: corrupt zstd data: no zstd frame/);
  });

  it("refuses a truncated zstd frame", async () => {
    const whole = Buffer.from(wireOf("int32_4"), "base64");
    const e = await failure(decodeTensor(whole.subarray(0, whole.length - 9).toString("base64"), budget()));
    expect(messageOf(e)).toMatch(/^ValueError: corrupt zstd data/);
  });

  it("refuses a truncated zip archive", async () => {
    const e = await failure(decodeTensor(await wire(pt().subarray(0, 2000)), budget()));
    expect(messageOf(e)).toMatch(/^ValueError: not a readable zip archive \(truncated\?\)/);
  });

  it("refuses an archive without data.pkl", async () => {
    const e = await failure(decodeTensor(await wire(archive({ "a/version": ascii("3\n") })), budget()));
    expect(messageOf(e)).toBe("ValueError: the archive has no data.pkl: it is not a torch.save file");
  });

  it("refuses a pickle that names any other global, naming it", async () => {
    // os.system('echo pwned'), the classic pickle payload.
    const evil = new Uint8Array([0x80, 0x02, ...ascii("cos\nsystem\n"), 0x58, 10, 0, 0, 0, ...ascii("echo pwned"), 0x85, 0x52, 0x2e]);
    const e = await failure(decodeTensor(await wire(archive({ "a/data.pkl": evil, "a/version": ascii("3\n") })), budget()));
    expect(messageOf(e)).toBe("ValueError: the pickle refers to the global os.system, which a tensor file does not use (refused)");
  });

  it("refuses a pickle opcode a tensor file does not use", async () => {
    const e = await failure(decodeTensor(await wire(archive({ "a/data.pkl": new Uint8Array([0x80, 0x02, 0x62, 0x2e]) })), budget()));
    expect(messageOf(e)).toMatch(/opcode 0x62 at byte 2/);
  });

  it("refuses a pickle that loops past its operation cap", async () => {
    // MARK + POP_MARK would be a no-op loop; here, endless BINGET of one memo entry grows the stack.
    const ops = [0x80, 0x02, 0x4e, 0x71, 0x00];
    for (let i = 0; i < 100_001; i++) ops.push(0x68, 0x00);
    const e = await failure(decodeTensor(await wire(archive({ "a/data.pkl": Uint8Array.from(ops) })), budget()));
    expect(messageOf(e)).toMatch(/more than 100000 operations/);
  });

  it("refuses a shape that reaches past the storage", async () => {
    const bad = archive({ "a/data.pkl": pickleFor({ numel: 4, shape: [10], strides: [1] }), "a/data/0": new Uint8Array(16) });
    const e = await failure(decodeTensor(await wire(bad), budget()));
    expect(messageOf(e)).toBe("ValueError: the shape [10] with strides [1] and offset 0 reaches element 9, beyond the storage's 4");
  });

  it("refuses a storage whose bytes do not match its declared size", async () => {
    const bad = archive({ "a/data.pkl": pickleFor({ numel: 4, shape: [4], strides: [1] }), "a/data/0": new Uint8Array(12) });
    const e = await failure(decodeTensor(await wire(bad), budget()));
    expect(messageOf(e)).toBe("ValueError: the storage a/data/0 has 12 bytes, but the pickle declares 16");
  });

  it("refuses a huge declared storage before extracting anything", async () => {
    const bad = archive({ "a/data.pkl": pickleFor({ numel: 2 ** 40, shape: [2 ** 40], strides: [1] }), "a/data/0": new Uint8Array(16) });
    const b = budget();
    const e = await failure(decodeTensor(await wire(bad), b));
    expect(e).toBeInstanceOf(ResourceLimitError);
    expect(messageOf(e)).toMatch(/^max_memory_bytes exceeded \(limit 67108864\): the tensor's storage declares 1099511627776 float32 elements/);
    expect(b.memory).toBeLessThan(4096);
  });

  it("refuses a zstd frame that declares more content than the memory budget has left, without decompressing it", async () => {
    // A frame header declaring 2**40 bytes of content (single segment, 8-byte Frame_Content_Size), then one empty raw block.
    const frame = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0xe0, 0, 0, 0, 0, 0, 1, 0, 0, 0x01, 0, 0]);
    const e = await failure(decodeTensor(frame.toString("base64"), budget()));
    expect(messageOf(e)).toMatch(/^max_memory_bytes exceeded \(limit 67108864\): the tensor file declares 1099511627776 bytes/);
  });

  it("refuses a tensor larger than what is left of max_memory_bytes", async () => {
    const b = budget({ max_memory_bytes: 2048 });
    const e = await failure(decodeTensor(wireOf("float32_1x28x28_mnist"), b));
    expect(messageOf(e)).toMatch(/^max_memory_bytes exceeded \(limit 2048\)/);
  });

  it("refuses compressed (deflated) entries, which torch never writes", async () => {
    const entries = unzipSync(pt());
    const deflated = zipSync(entries, { level: 6 });
    const e = await failure(decodeTensor(await wire(deflated), budget()));
    expect(messageOf(e)).toMatch(/data\.pkl is compressed \(method 8\)/);
  });

  it("refuses a big-endian file", async () => {
    const entries = unzipSync(pt());
    entries["archive/byteorder"] = ascii("big");
    const e = await failure(decodeTensor(await wire(archive(entries)), budget()));
    expect(messageOf(e)).toBe("ValueError: the tensor was saved big-endian, which is not supported");
  });

  it("refuses a huge empty shape's tolist() by its budget, not by building it", async () => {
    const pt = archive({ "e/data.pkl": pickleFor({ numel: 0, shape: [2 ** 40, 0], strides: [0, 1] }), "e/data/0": new Uint8Array(0) });
    const t = await decodeTensor(await wire(pt), budget());
    expect(t.numel).toBe(0);
    expect(t.listCount).toBe(2 ** 40 + 1);
    expect(t.pyRepr(String)).toBe("tensor(<1099511627776x0 values>, dtype=torch.float32)");
  });

  it("refuses a zip64 record that claims billions of entries, at once", async () => {
    const bytes = pt();
    const zip64 = Buffer.from(bytes).indexOf(Buffer.from([0x50, 0x4b, 0x06, 0x06]));
    expect(zip64).toBeGreaterThan(0);
    bytes[zip64 + 32 + 3] = 91; // the entry count's high byte
    const started = performance.now();
    const e = await failure(decodeTensor(await wire(bytes), budget()));
    expect(messageOf(e)).toBe("ValueError: the zip archive claims 1526726659 entries; a tensor file has a handful");
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("survives random corruption of a real file: it decodes or fails with a ValueError or a limit", async () => {
    const original = pt();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.nat(original.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }), async (edits) => {
        const bytes = original.slice();
        for (const [at, value] of edits) bytes[at] = value;
        try {
          await decodeTensor(await wire(bytes), budget());
        } catch (e) {
          if (e instanceof ResourceLimitError) return;
          if (e instanceof PyException && e.type.name === "ValueError") return;
          throw e;
        }
      }),
      { numRuns: 150 },
    );
  });

  it("reads random bytes as a pickle without anything but a PickleError", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        try {
          readTensorPickle(Uint8Array.from([0x80, 0x02, ...bytes]));
        } catch (e) {
          if (!(e instanceof PickleError)) throw e;
        }
      }),
      { numRuns: 2000 },
    );
  });
});
