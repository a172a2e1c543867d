// Schema-guided media decoding: real zstd payloads (compressed by @mongodb-js/zstd, or frames
// built byte by byte where a test needs a frame shape the compressor does not produce).
import { compress } from "@mongodb-js/zstd";
import { describe, expect, it } from "vitest";
import { decodeMedia, defaultCodecs, mediaFields, valueExtent } from "../../src/codemode/media.js";
import type { MediaCodec } from "../../src/codemode/media-codecs.js";
import { Budget, DEFAULT_LIMITS, type Limits } from "../../src/interpreter/budget.js";
import { EXC, PyException, ResourceLimitError } from "../../src/interpreter/errors.js";
import { PyDict, PyFloat, PyList, type Value } from "../../src/interpreter/values.js";
import { failure } from "./failure.js";

const ZSTD = "application/zstd+json";

function budget(limits: Partial<Limits> = {}): Budget {
  return new Budget({ ...DEFAULT_LIMITS, ...limits });
}

/** base64 of zstd-compressed text, as a server would send it. */
async function packText(text: string): Promise<string> {
  return (await compress(Buffer.from(text, "utf8"))).toString("base64");
}

async function pack(json: unknown): Promise<string> {
  return packText(JSON.stringify(json));
}

/** Plain JS -> Python values (what normalize hands to decodeMedia). */
function py(x: unknown): Value {
  if (Array.isArray(x)) return new PyList(x.map(py));
  if (typeof x === "number" && !Number.isInteger(x)) return new PyFloat(x);
  if (x !== null && typeof x === "object" && !(x instanceof PyList) && !(x instanceof PyDict)) {
    const d = new PyDict();
    for (const [k, v] of Object.entries(x)) d.set(k, py(v));
    return d;
  }
  return x as Value;
}

/** Python values -> plain JS, with bigints kept, for comparisons. */
function plain(v: Value): unknown {
  if (v instanceof PyList) return v.items.map(plain);
  if (v instanceof PyDict) return Object.fromEntries([...v.entries()].map(([k, x]) => [k, plain(x)]));
  if (v instanceof PyFloat) return v.v;
  return v;
}

function valueError(e: unknown): string {
  expect(e).toBeInstanceOf(PyException);
  expect((e as PyException).type).toBe(EXC.ValueError);
  return String((e as PyException).args[0]);
}

function limitError(e: unknown, field = "max_value_bytes"): string {
  expect(e).toBeInstanceOf(ResourceLimitError);
  expect((e as ResourceLimitError).field).toBe(field);
  return (e as ResourceLimitError).message;
}

async function decode(schema: object, value: unknown, limits: Partial<Limits> = {}, codecs = defaultCodecs()): Promise<unknown> {
  const plan = mediaFields(schema, codecs);
  expect(plan).not.toBeNull();
  return plain(await decodeMedia(py(value), plan!, codecs, budget(limits)));
}

// A zstd frame built by hand: blocks are raw bytes, RLE runs, or (bogus) compressed blocks.
// `contentSize` sets a 4-byte Frame_Content_Size (single segment); otherwise the frame declares
// no size and has a 2 MiB window, as @mongodb-js/zstd's own frames do.
type Block = { raw: Uint8Array } | { rle: number; size: number } | { compressedBytes: number };
function frame(blocks: Block[], contentSize?: number): Buffer {
  const header =
    contentSize === undefined
      ? [0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58]
      : [0x28, 0xb5, 0x2f, 0xfd, 0xa0, contentSize & 0xff, (contentSize >> 8) & 0xff, (contentSize >> 16) & 0xff, contentSize >>> 24];
  const parts: Buffer[] = [Buffer.from(header)];
  blocks.forEach((b, i) => {
    const last = i === blocks.length - 1 ? 1 : 0;
    const [type, size, body] =
      "raw" in b
        ? [0, b.raw.length, Buffer.from(b.raw)]
        : "rle" in b
          ? [1, b.size, Buffer.from([b.rle])]
          : [2, b.compressedBytes, Buffer.alloc(b.compressedBytes)];
    const h = last | (type << 1) | (size << 3);
    parts.push(Buffer.from([h & 0xff, (h >> 8) & 0xff, (h >> 16) & 0xff]), body);
  });
  return Buffer.concat(parts);
}

const PACKED = { type: "string", contentMediaType: ZSTD };

describe("codec registry", () => {
  it("holds the zstd+json and tensor codecs by default, matched case-insensitively and without parameters", () => {
    const codecs = defaultCodecs();
    expect(codecs.get(ZSTD)?.mediaType).toBe(ZSTD);
    expect(codecs.get("Application/ZSTD+JSON; charset=utf-8")?.mediaType).toBe(ZSTD);
    expect(codecs.get("image/png")).toBeUndefined();
    expect(codecs.types()).toEqual([ZSTD, "application/vnd.nomad.tensor"]);
  });

  it("registers more codecs, and a later one replaces an earlier one for the same type", async () => {
    const csv: MediaCodec = {
      mediaType: "text/csv",
      decode: async (text) => new PyList(text.split("\n").map((line) => new PyList(line.split(",")))),
    };
    const codecs = defaultCodecs().register(csv);
    expect(codecs.get("text/csv")).toBe(csv);
    const schema = { properties: { table: { type: "string", contentMediaType: "text/csv" } } };
    expect(await decode(schema, { table: "a,b\n1,2" }, {}, codecs)).toEqual({ table: [["a", "b"], ["1", "2"]] });
    const upper: MediaCodec = { mediaType: "TEXT/CSV", decode: async (t) => t.toUpperCase() };
    codecs.register(upper);
    expect(codecs.get("text/csv")).toBe(upper);
  });

  it("decodes base64 zstd JSON with big integers exact", async () => {
    const text = await packText('{"id": 123456789012345678901234567890, "ratio": 0.5, "tags": ["a", null, true]}');
    const value = await defaultCodecs().get(ZSTD)!.decode(text, budget());
    expect(plain(value)).toEqual({ id: 123456789012345678901234567890n, ratio: 0.5, tags: ["a", null, true] });
  });
});

describe("mediaFields: compiling a plan", () => {
  it("is null when nothing in the schema has a codec", () => {
    expect(mediaFields({ type: "object", properties: { a: { type: "string" } } })).toBeNull();
    expect(mediaFields({ properties: { img: { type: "string", contentMediaType: "image/png" } } })).toBeNull();
    expect(mediaFields(true)).toBeNull();
    expect(mediaFields(null)).toBeNull();
  });

  it("names the media types it decodes", () => {
    expect(mediaFields({ properties: { a: PACKED } })?.mediaTypes).toEqual([ZSTD]);
  });

  it("terminates on recursive $refs that lead to no media", () => {
    const schema = {
      $defs: {
        A: { type: "object", properties: { b: { $ref: "#/$defs/B" } } },
        B: { type: "object", properties: { a: { $ref: "#/$defs/A" }, self: { $ref: "#/$defs/B" } } },
      },
      $ref: "#/$defs/A",
    };
    expect(mediaFields(schema)).toBeNull();
  });

  it("ignores refs it cannot resolve", () => {
    expect(mediaFields({ properties: { a: { $ref: "https://example.com/schema.json" }, b: { $ref: "#/$defs/Missing" } } })).toBeNull();
  });
});

describe("decodeMedia: where the plan leads", () => {
  it("round-trips real JSON through $ref to $defs", async () => {
    const report = { rows: [{ id: 1, name: "alpha" }, { id: 2, name: "beta" }], total: 2 };
    const schema = {
      type: "object",
      properties: { report: { $ref: "#/$defs/Packed" }, note: { type: "string" } },
      $defs: { Packed: PACKED },
    };
    expect(await decode(schema, { report: await pack(report), note: "kept" })).toEqual({ report, note: "kept" });
  });

  it("follows draft-07 definitions and escaped JSON pointers", async () => {
    const schema = {
      properties: { x: { $ref: "#/definitions/a~1b" }, y: { $ref: "#/definitions/with%20space" } },
      definitions: { "a/b": PACKED, "with space": PACKED },
    };
    expect(await decode(schema, { x: await pack([1]), y: await pack({ z: 2 }) })).toEqual({ x: [1], y: { z: 2 } });
  });

  it("decodes every item of an array of media fields", async () => {
    const schema = { type: "object", properties: { chunks: { type: "array", items: { $ref: "#/$defs/P" } } }, $defs: { P: PACKED } };
    const out = await decode(schema, { chunks: [await pack({ n: 1 }), await pack({ n: 2 }), await pack("three")] });
    expect(out).toEqual({ chunks: [{ n: 1 }, { n: 2 }, "three"] });
  });

  it("decodes only the tuple positions prefixItems marks", async () => {
    const schema = { type: "array", prefixItems: [{ type: "string" }, PACKED], items: { type: "string" } };
    const packed = await pack({ ok: true });
    expect(await decode(schema, [packed, packed, packed])).toEqual([packed, { ok: true }, packed]);
  });

  it("decodes additionalProperties but not the declared properties they exclude", async () => {
    const schema = {
      type: "object",
      properties: { id: { type: "string" } },
      patternProperties: { "^raw_": { type: "string" } },
      additionalProperties: PACKED,
    };
    const packed = await pack({ v: 1 });
    const out = await decode(schema, { id: packed, raw_x: packed, one: packed, two: await pack([2]) });
    expect(out).toEqual({ id: packed, raw_x: packed, one: { v: 1 }, two: [2] });
  });

  it("decodes patternProperties that match", async () => {
    const schema = { type: "object", patternProperties: { "^blob_\\d+$": PACKED } };
    const packed = await pack([1, 2]);
    expect(await decode(schema, { blob_1: packed, blob_x: packed })).toEqual({ blob_1: [1, 2], blob_x: packed });
  });

  it("decodes an anyOf string branch (Optional[...]) and leaves null alone", async () => {
    const schema = {
      type: "object",
      properties: { data: { anyOf: [{ $ref: "#/$defs/P" }, { type: "null" }] } },
      $defs: { P: PACKED },
    };
    expect(await decode(schema, { data: await pack({ a: 1 }) })).toEqual({ data: { a: 1 } });
    expect(await decode(schema, { data: null })).toEqual({ data: null });
  });

  it("follows the oneOf variant whose const discriminator matches", async () => {
    const schema = {
      type: "object",
      properties: {
        item: {
          oneOf: [
            { type: "object", properties: { kind: { const: "packed" }, body: PACKED } },
            { type: "object", properties: { kind: { const: "plain" }, body: { type: "string" } } },
          ],
        },
      },
    };
    const packed = await pack({ deep: [1] });
    expect(await decode(schema, { item: { kind: "packed", body: packed } })).toEqual({ item: { kind: "packed", body: { deep: [1] } } });
    expect(await decode(schema, { item: { kind: "plain", body: packed } })).toEqual({ item: { kind: "plain", body: packed } });
  });

  it("skips an anyOf branch whose type does not admit the value", async () => {
    const schema = { properties: { d: { anyOf: [{ type: "array", items: PACKED }, { type: "object", properties: { x: PACKED } }] } } };
    const packed = await pack(5);
    expect(await decode(schema, { d: [packed] })).toEqual({ d: [5] });
    expect(await decode(schema, { d: { x: packed } })).toEqual({ d: { x: 5 } });
  });

  it("applies allOf members together", async () => {
    const schema = { allOf: [{ properties: { a: PACKED } }, { properties: { b: PACKED } }] };
    expect(await decode(schema, { a: await pack(1), b: await pack(2), c: "x" })).toEqual({ a: 1, b: 2, c: "x" });
  });

  it("decodes at every level of a recursive $ref schema", async () => {
    const schema = {
      $ref: "#/$defs/Node",
      $defs: { Node: { type: "object", properties: { payload: PACKED, children: { type: "array", items: { $ref: "#/$defs/Node" } } } } },
    };
    const tree = {
      payload: await pack({ level: 0 }),
      children: [{ payload: await pack({ level: 1 }), children: [{ payload: await pack({ level: 2 }), children: [] }] }],
    };
    expect(await decode(schema, tree)).toEqual({
      payload: { level: 0 },
      children: [{ payload: { level: 1 }, children: [{ payload: { level: 2 }, children: [] }] }],
    });
  });

  it("decodes a root that is itself a media string", async () => {
    const codecs = defaultCodecs();
    const plan = mediaFields(PACKED, codecs)!;
    expect(plain(await decodeMedia(await pack({ r: 1 }), plan, codecs, budget()))).toEqual({ r: 1 });
  });

  it("leaves values that do not match the plan untouched", async () => {
    const schema = { type: "object", properties: { data: PACKED, list: { type: "array", items: PACKED } } };
    expect(await decode(schema, { data: 42, list: { not: "a list" } })).toEqual({ data: 42, list: { not: "a list" } });
  });

  it("reuses one plan for many values", async () => {
    const codecs = defaultCodecs();
    const plan = mediaFields({ properties: { d: PACKED } }, codecs)!;
    for (const n of [1, 2, 3]) {
      expect(plain(await decodeMedia(py({ d: await pack({ n }) }), plan, codecs, budget()))).toEqual({ d: { n } });
    }
  });
});

describe("decodeMedia: failures name the field", () => {
  const schema = { type: "object", properties: { items: { type: "array", items: { type: "object", properties: { payload: PACKED } } } } };

  it("refuses corrupt base64", async () => {
    const e = await failure(decode(schema, { items: [{ payload: await pack(1) }, { payload: "not base64!" }] }));
    expect(valueError(e)).toBe(`cannot decode $.items[1].payload (${ZSTD}): invalid base64: unexpected character "!" at position 9`);
  });

  it("refuses base64 of an impossible length", async () => {
    const e = await failure(decode(schema, { items: [{ payload: "QUJDRA=" }] }));
    expect(valueError(e)).toMatch(/\$\.items\[0\]\.payload .*invalid base64: 7 characters cannot be base64/);
  });

  it("refuses data that is not zstd", async () => {
    const e = await failure(decode(schema, { items: [{ payload: Buffer.from("hello, world").toString("base64") }] }));
    expect(valueError(e)).toMatch(/^cannot decode \$\.items\[0\]\.payload \(application\/zstd\+json\): corrupt zstd data: no zstd frame at byte 0/);
  });

  it("refuses a truncated zstd frame", async () => {
    const whole = await compress(Buffer.from(JSON.stringify({ a: "b".repeat(100) })));
    const e = await failure(decode(schema, { items: [{ payload: whole.subarray(0, whole.length - 4).toString("base64") }] }));
    expect(valueError(e)).toMatch(/\$\.items\[0\]\.payload .*corrupt zstd data/);
  });

  it("refuses a compressed block the decompressor rejects", async () => {
    const bad = frame([{ compressedBytes: 8 }]);
    const e = await failure(decode(schema, { items: [{ payload: bad.toString("base64") }] }));
    expect(valueError(e)).toMatch(/\$\.items\[0\]\.payload .*corrupt zstd data: /);
  });

  it("refuses a payload that is not JSON, with the JSON error", async () => {
    const e = await failure(decode(schema, { items: [{ payload: await packText("{'single': 1}") }] }));
    expect(valueError(e)).toMatch(
      /\$\.items\[0\]\.payload .*not valid JSON: Expecting property name enclosed in double quotes: line 1 column 2 \(char 1\)/,
    );
  });

  it("refuses a payload that is not UTF-8", async () => {
    const latin1 = (await compress(Buffer.from([0x22, 0xe9, 0x22]))).toString("base64");
    const e = await failure(decode(schema, { items: [{ payload: latin1 }] }));
    expect(valueError(e)).toMatch(/not valid UTF-8/);
  });
});

describe("decodeMedia: sizes", () => {
  const schema = { type: "object", properties: { data: PACKED, more: { type: "array", items: PACKED } } };
  const limits = { max_value_bytes: 64 * 1024 };

  it("decodes a payload up to the limit", async () => {
    const big = { text: "y".repeat(60 * 1024) };
    expect(await decode(schema, { data: await pack(big) }, limits)).toEqual({ data: big });
  });

  it("refuses a base64 text longer than max_value_bytes", async () => {
    const e = await failure(decode(schema, { data: "A".repeat(64 * 1024 + 4) }, limits));
    expect(limitError(e)).toBe(
      `max_value_bytes exceeded (limit 65536): decoding $.data (${ZSTD}): the base64 text is 65540 characters`,
    );
  });

  it("refuses by the declared content size, before decompressing", async () => {
    // The frame claims 10 MB; its one raw block is far too short for that, so a decompressor
    // would fail: the size refusal shows nothing was decompressed.
    const liar = frame([{ raw: Buffer.from("[1]") }], 10_000_000);
    const e = await failure(decode(schema, { data: liar.toString("base64") }, limits));
    expect(limitError(e)).toMatch(/the zstd payload declares 10000000 bytes of content/);
  });

  it("refuses a zip bomb of RLE blocks by its block headers, before decompressing", async () => {
    // 200 blocks of 4 bytes each, each expanding to 128 KiB: 25 MiB from under 1 KiB.
    const bomb = frame(Array.from({ length: 200 }, () => ({ rle: 0x20, size: 128 * 1024 })));
    expect(bomb.length).toBeLessThan(1024);
    const started = performance.now();
    const e = await failure(decode(schema, { data: bomb.toString("base64") }, limits));
    expect(limitError(e)).toMatch(/could expand to 26214400 bytes/);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("refuses a real compressed payload far over the limit before decompressing it", async () => {
    const e = await failure(decode(schema, { data: await packText(JSON.stringify("z".repeat(2_000_000))) }, limits));
    expect(limitError(e)).toMatch(/decoding \$\.data \(application\/zstd\+json\).*could expand to \d+ bytes \(\d+ allowed here\)/);
  });

  it("checks the actual size after decompressing a frame that declares none", async () => {
    // 70 KB in one compressed block: within the block bound (128 KiB), over the limit once expanded.
    const e = await failure(decode(schema, { data: await packText(JSON.stringify("q".repeat(70_000))) }, limits));
    expect(limitError(e)).toMatch(/decoding \$\.data .*the zstd payload expanded to 70002 bytes/);
  });

  it("measures hand-built frames without a declared size exactly for raw and RLE blocks", async () => {
    const f = frame([{ raw: Buffer.from('{"s": "') }, { rle: 0x61, size: 1000 }, { raw: Buffer.from('"}') }]);
    expect(await decode(schema, { data: f.toString("base64") })).toEqual({ data: { s: "a".repeat(1000) } });
  });

  it("decodes several frames and skips skippable frames", async () => {
    const first = await compress(Buffer.from("[1,"));
    const second = await compress(Buffer.from("2]"));
    const skippable = Buffer.from([0x50, 0x2a, 0x4d, 0x18, 0x02, 0x00, 0x00, 0x00, 0x09, 0x09]);
    const joined = Buffer.concat([skippable, first, second]).toString("base64");
    expect(await decode(schema, { data: joined })).toEqual({ data: [1, 2] });
  });

  it("counts all decoded fields of one value against max_value_bytes together", async () => {
    // Each field alone fits (40 KiB < 64 KiB); three of them do not.
    const piece = await pack("w".repeat(40 * 1024));
    expect(await decode(schema, { more: [piece] }, limits)).toEqual({ more: ["w".repeat(40 * 1024)] });
    const e = await failure(decode(schema, { more: [piece, piece, piece] }, limits));
    expect(limitError(e)).toMatch(/decoding \$\.more\[1\]/);
  });

  it("refuses a decoded value that nests deeper than max_nesting_depth", async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10; i++) deep = [deep];
    const e = await failure(decode(schema, { data: await pack(deep) }, { max_nesting_depth: 10 }));
    expect(limitError(e, "max_nesting_depth")).toMatch(/decoding \$\.data/);
    expect(await decode(schema, { data: await pack(deep) }, { max_nesting_depth: 11 })).toEqual({ data: deep });
  });
});

describe("valueExtent", () => {
  it("measures JSON-ish size and nesting depth", () => {
    // {"a": [1, "xy"]}: braces 2, key "a" 3 + 2, brackets 2, 1 and "xy" 1 + 4, one per item 2.
    expect(valueExtent(py({ a: [1, "xy"] }))).toEqual({ bytes: 16, depth: 2 });
    expect(valueExtent("abc")).toEqual({ bytes: 5, depth: 0 });
  });

  it("terminates on a cycle", () => {
    const l = new PyList([]);
    l.items.push(l);
    expect(valueExtent(l).depth).toBe(1);
  });
});
