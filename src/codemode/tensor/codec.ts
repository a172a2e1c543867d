// The media type `application/vnd.nomad.tensor` (SPEC §3): on the wire, base64 (RFC 4648) of a
// zstd frame of a torch.save file holding one tensor. Decoding gives the sandbox a Tensor; a
// Tensor in the script's RESULT is encoded back the same way, so a tensor passes through a script
// unchanged (one decoded from the wire goes out as the very string it came in as).
//
// Memory: the decompressed file and the storage are charged to max_memory_bytes before they are
// allocated, from the sizes the zstd frame and the archive declare; what declares more than the
// budget has left is refused without being decompressed or extracted.
import { compress, decompress } from "@mongodb-js/zstd";
import { type Budget, DTYPES, PyDict, pyError, PyList, PyTuple, ResourceLimitError, Tensor, type Value } from "../../interpreter/index.js";
import { decodeBase64, type MediaCodec, zstdContentSize } from "../media-codecs.js";
import { readTorchFile, TensorFileError, TensorTooLarge, writeTorchFile } from "./torch-file.js";

export const TENSOR_MEDIA_TYPE = "application/vnd.nomad.tensor";

/** The most a compressed block can grow past a frame's bound (see media.ts). */
const BLOCK_MAX = 128 * 1024;

function memoryLeft(budget: Budget): number {
  return budget.limits.max_memory_bytes - budget.memory;
}

function tooMuchMemory(budget: Budget, detail: string): ResourceLimitError {
  return new ResourceLimitError("max_memory_bytes", budget.limits.max_memory_bytes, detail);
}

/** A wire payload as a Tensor, charging its memory to `budget` first. */
export async function decodeTensor(text: string, budget: Budget): Promise<Tensor> {
  if (text.length > budget.limits.max_value_bytes) {
    throw new ResourceLimitError("max_value_bytes", budget.limits.max_value_bytes, `the base64 text is ${text.length} characters`);
  }
  const compressed = decodeBase64(text);
  const size = zstdContentSize(compressed);
  if (size.bound > memoryLeft(budget) + (size.declared ? 0 : BLOCK_MAX)) {
    throw tooMuchMemory(budget, `the tensor file ${size.declared ? "declares" : "could expand to"} ${size.bound} bytes (${memoryLeft(budget)} left)`);
  }
  let file: Buffer;
  try {
    file = await decompress(compressed);
  } catch (e) {
    throw pyError("ValueError", `corrupt zstd data: ${e instanceof Error ? e.message.replace(/^zstd: /, "") : String(e)}`);
  }
  budget.alloc(file.length);
  let decoded;
  try {
    decoded = readTorchFile(file, memoryLeft(budget));
  } catch (e) {
    if (e instanceof TensorTooLarge) throw tooMuchMemory(budget, `${e.message} (${memoryLeft(budget)} bytes left)`);
    if (e instanceof TensorFileError) throw pyError("ValueError", e.message);
    throw e;
  }
  budget.alloc(decoded.storage.length);
  // The decompressed file is garbage now: only the storage stays.
  budget.memory -= file.length;
  const { spec, storage } = decoded;
  return new Tensor(spec.storage.dtype, spec.shape, spec.strides, spec.offset, storage, text);
}

/** A Tensor as its wire payload: the one it came with, or a fresh torch.save file. */
export async function encodeTensor(t: Tensor, budget: Budget): Promise<string> {
  if (t.wire !== null) return t.wire;
  const bytes = t.numel * DTYPES[t.dtype].size;
  budget.alloc(2 * bytes + 4096);
  const file = writeTorchFile(t);
  const compressed = await compress(Buffer.from(file.buffer, file.byteOffset, file.byteLength), 3);
  return compressed.toString("base64");
}

export const TENSOR_CODEC: MediaCodec = {
  mediaType: TENSOR_MEDIA_TYPE,
  decode: (text, budget) => decodeTensor(text, budget),
};

/**
 * `value` with every Tensor inside (lists, tuples, dict values) replaced by its wire payload, for
 * the script's RESULT. Containers without a tensor are returned as they are; a container that
 * contains itself is left for the result's own cycle check to report.
 */
export async function encodeTensors(value: Value, budget: Budget): Promise<Value> {
  const active = new Set<object>();
  const maxDepth = budget.limits.max_nesting_depth;
  const visit = async (v: Value, depth: number): Promise<Value> => {
    if (v instanceof Tensor) return encodeTensor(v, budget);
    if (!(v instanceof PyList || v instanceof PyTuple || v instanceof PyDict) || active.has(v) || depth > maxDepth) return v;
    active.add(v);
    try {
      if (v instanceof PyDict) {
        let copy: PyDict | null = null;
        for (const [k, item] of v.entries()) {
          budget.step(1);
          const encoded = await visit(item, depth + 1);
          if (encoded !== item && copy === null) {
            copy = new PyDict();
            for (const [k2, item2] of v.entries()) copy.set(k2, item2);
          }
          copy?.set(k, encoded);
        }
        return copy ?? v;
      }
      let items: Value[] | null = null;
      for (let i = 0; i < v.items.length; i++) {
        budget.step(1);
        const item = v.items[i]!;
        const encoded = await visit(item, depth + 1);
        if (encoded !== item) (items ??= [...v.items])[i] = encoded;
      }
      if (items === null) return v;
      return v instanceof PyList ? new PyList(items) : new PyTuple(items);
    } finally {
      active.delete(v);
    }
  };
  return visit(value, 0);
}
