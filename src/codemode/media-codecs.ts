// What a media codec is, the registry of them, and the two primitives every codec of a
// base64-of-zstd payload needs: strict base64, and the size a zstd stream declares before it is
// decompressed (media.ts decodes fields with codecs; tensor/codec.ts is one).
import { type Budget, pyError, type PyException, type Value } from "../interpreter/index.js";

export interface MediaCodec {
  /** The media type it decodes, e.g. `application/zstd+json`. */
  mediaType: string;
  /**
   * Decodes a field's text. `maxBytes` (default `budget.limits.max_value_bytes`) is how large the
   * decoded payload may be; a codec refuses more before allocating it.
   */
  decode(text: string, budget: Budget, maxBytes?: number): Promise<Value>;
}

/** `Application/ZSTD+JSON; charset=utf-8` and `application/zstd+json` are one media type. */
function mediaKey(mediaType: string): string {
  return mediaType.split(";")[0]!.trim().toLowerCase();
}

/** The codecs available to a gateway, by media type. */
export class MediaCodecs {
  private readonly byType = new Map<string, MediaCodec>();

  /** Adds a codec; one registered later for the same media type replaces it. */
  register(codec: MediaCodec): this {
    this.byType.set(mediaKey(codec.mediaType), codec);
    return this;
  }

  get(mediaType: string): MediaCodec | undefined {
    return this.byType.get(mediaKey(mediaType));
  }

  /** The registered media types, in registration order. */
  types(): string[] {
    return [...this.byType.values()].map((c) => c.mediaType);
  }
}

// ------------------------------------------------------------------ zstd and base64

const ZSTD_MAGIC = 0xfd2fb528;
/** The largest block a zstd frame can hold: a compressed block decodes to at most this. */
export const BLOCK_MAX = 128 * 1024;

/** What the frame headers of a zstd stream say about the size of its content. */
export interface ZstdSize {
  /** An upper bound on the decompressed size. */
  bound: number;
  /** Whether every frame declares its content size (then `bound` is exact). */
  declared: boolean;
}

/** The ValueError of a zstd stream that cannot be read. */
export function corruptZstd(detail: string): PyException {
  return pyError("ValueError", `corrupt zstd data: ${detail}`);
}

/**
 * Walks the frames and block headers of a zstd stream (RFC 8878) without decompressing: each
 * frame's Frame_Content_Size where declared, else raw and RLE blocks at their size and compressed
 * blocks at their largest possible output. Skippable frames add nothing.
 */
export function zstdContentSize(b: Uint8Array): ZstdSize {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const need = (pos: number, n: number) => {
    if (pos + n > b.length) throw corruptZstd("the data ends inside a frame (truncated?)");
  };
  let bound = 0;
  let declared = true;
  let pos = 0;
  if (b.length === 0) throw corruptZstd("the data is empty");
  while (pos < b.length) {
    need(pos, 4);
    const magic = view.getUint32(pos, true);
    if (magic >>> 4 === 0x184d2a5) {
      need(pos, 8);
      const size = view.getUint32(pos + 4, true);
      need(pos + 8, size);
      pos += 8 + size;
      continue;
    }
    if (magic !== ZSTD_MAGIC) throw corruptZstd(`no zstd frame at byte ${pos} (magic number 0x${magic.toString(16).padStart(8, "0")})`);
    need(pos, 5);
    const descriptor = b[pos + 4]!;
    if (descriptor & 0x08) throw corruptZstd("a frame header sets a reserved bit");
    const fcsFlag = descriptor >> 6;
    const singleSegment = (descriptor & 0x20) !== 0;
    const hasChecksum = (descriptor & 0x04) !== 0;
    const dictIdBytes = [0, 1, 2, 4][descriptor & 0x03]!;
    const fcsBytes = [singleSegment ? 1 : 0, 2, 4, 8][fcsFlag]!;
    pos += 5;
    let window = Infinity;
    if (!singleSegment) {
      need(pos, 1);
      const wd = b[pos++]!;
      const base = 2 ** (10 + (wd >> 3));
      window = base + (base / 8) * (wd & 0x07);
    }
    need(pos, dictIdBytes + fcsBytes);
    pos += dictIdBytes;
    let contentSize: number | null = null;
    if (fcsBytes === 1) contentSize = b[pos]!;
    else if (fcsBytes === 2) contentSize = view.getUint16(pos, true) + 256;
    else if (fcsBytes === 4) contentSize = view.getUint32(pos, true);
    else if (fcsBytes === 8) contentSize = view.getUint32(pos, true) + view.getUint32(pos + 4, true) * 2 ** 32;
    pos += fcsBytes;
    if (singleSegment && contentSize !== null) window = contentSize;
    const blockMax = Math.min(window, BLOCK_MAX);
    let frameBound = 0;
    for (let last = false; !last; ) {
      need(pos, 3);
      const header = b[pos]! | (b[pos + 1]! << 8) | (b[pos + 2]! << 16);
      pos += 3;
      last = (header & 1) === 1;
      const type = (header >> 1) & 0x03;
      const size = header >>> 3;
      if (type === 3) throw corruptZstd("a block has the reserved block type");
      if (type === 1) {
        need(pos, 1);
        pos += 1;
        frameBound += size;
      } else {
        need(pos, size);
        pos += size;
        frameBound += type === 0 ? size : blockMax;
      }
    }
    if (hasChecksum) {
      need(pos, 4);
      pos += 4;
    }
    if (contentSize === null) declared = false;
    bound += contentSize ?? frameBound;
  }
  return { bound, declared };
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** Strict base64 (standard or URL-safe alphabet, padding optional, whitespace ignored). */
export function decodeBase64(text: string): Buffer {
  const compact = text.replace(/[\t\n\r ]+/g, "");
  const bad = compact.search(/[^A-Za-z0-9+/_=-]/);
  if (bad >= 0) {
    throw pyError("ValueError", `invalid base64: unexpected character ${JSON.stringify(compact[bad])} at position ${bad}`);
  }
  if (!BASE64.test(compact)) throw pyError("ValueError", "invalid base64: '=' padding before the end of the text");
  const bodyLength = compact.replace(/=+$/, "").length;
  if (bodyLength % 4 === 1 || (compact.endsWith("=") && compact.length % 4 !== 0)) {
    throw pyError("ValueError", `invalid base64: ${compact.length} characters cannot be base64 (truncated?)`);
  }
  return Buffer.from(compact, "base64");
}
