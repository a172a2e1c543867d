// CallToolResult -> Python value (SPEC §3), with real payloads.
import { compress } from "@mongodb-js/zstd";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { defaultCodecs, mediaFields } from "../../src/codemode/media.js";
import { normalizeResult, type NormalizedResult } from "../../src/codemode/normalize.js";
import { Budget, DEFAULT_LIMITS, type Limits } from "../../src/interpreter/budget.js";
import { ResourceLimitError } from "../../src/interpreter/errors.js";
import { PyDict, PyFloat, PyList, type Value } from "../../src/interpreter/values.js";
import { failure } from "./failure.js";

const ZSTD = "application/zstd+json";
const BIG = 123456789012345678901234567890n;

function budget(limits: Partial<Limits> = {}): Budget {
  return new Budget({ ...DEFAULT_LIMITS, ...limits });
}

function normalize(
  result: Partial<CallToolResult>,
  extra: { outputSchema?: object; limits?: Partial<Limits>; plan?: null } = {},
): Promise<NormalizedResult> {
  return normalizeResult({ content: [], ...result } as CallToolResult, {
    outputSchema: extra.outputSchema,
    ...(extra.plan === null ? { plan: null } : {}),
    codecs: defaultCodecs(),
    budget: budget(extra.limits),
  });
}

async function valueOf(result: Partial<CallToolResult>, extra: Parameters<typeof normalize>[1] = {}): Promise<Value> {
  const out = await normalize(result, extra);
  expect(out.isError).toBe(false);
  expect(out.errorMessage).toBeNull();
  return out.value;
}

/** Python values -> plain JS for comparisons: floats become {float: x} so 1 and 1.0 differ. */
function plain(v: Value): unknown {
  if (v instanceof PyList) return v.items.map(plain);
  if (v instanceof PyDict) return Object.fromEntries([...v.entries()].map(([k, x]) => [k, plain(x)]));
  if (v instanceof PyFloat) return { float: v.v };
  return v;
}

const text = (t: string) => ({ type: "text" as const, text: t });

function limitField(e: unknown): string {
  expect(e).toBeInstanceOf(ResourceLimitError);
  return (e as ResourceLimitError).field;
}

async function pack(json: unknown): Promise<string> {
  return (await compress(Buffer.from(JSON.stringify(json)))).toString("base64");
}

describe("structuredContent", () => {
  it("becomes dicts, lists, ints and floats", async () => {
    const v = await valueOf({ structuredContent: { n: 3, x: 1.5, ok: true, none: null, tags: ["a", 2], nested: { k: -0 } } });
    expect(v).toBeInstanceOf(PyDict);
    expect(plain(v)).toEqual({ n: 3, x: { float: 1.5 }, ok: true, none: null, tags: ["a", 2], nested: { k: 0 } });
  });

  it("is preferred over the content blocks", async () => {
    expect(plain(await valueOf({ structuredContent: { a: 1 }, content: [text("something else")] }))).toEqual({ a: 1 });
  });

  it("is unwrapped when its only key is result", async () => {
    expect(plain(await valueOf({ structuredContent: { result: [1, 2] } }))).toEqual([1, 2]);
    expect(await valueOf({ structuredContent: { result: "done" } })).toBe("done");
  });

  it("is not unwrapped when result has company", async () => {
    expect(plain(await valueOf({ structuredContent: { result: 1, more: 2 } }))).toEqual({ result: 1, more: 2 });
  });

  it("recovers exact big integers from the text block carrying the same JSON", async () => {
    const json = `{"id": ${BIG}, "n": 1.0, "items": [${BIG}0]}`;
    const v = await valueOf({ structuredContent: JSON.parse(json), content: [text(json)] });
    expect(plain(v)).toEqual({ id: BIG, n: { float: 1 }, items: [BIG * 10n] });
  });

  it("recovers exact big integers under a result wrapper whose text is the bare value", async () => {
    const v = await valueOf({ structuredContent: JSON.parse(`{"result": ${BIG}}`), content: [text(String(BIG))] });
    expect(v).toBe(BIG);
  });

  it("keeps the structured values when the text block says something else", async () => {
    const v = await valueOf({ structuredContent: JSON.parse(`{"id": ${BIG}}`), content: [text(`{"id": ${BIG + 1000000000000000n}}`)] });
    // The text differs beyond double precision: structuredContent stands, as JSON.parse left it.
    expect(plain(v)).toEqual({ id: BigInt(Number(BIG)) });
  });

  it("has its media fields decoded by the outputSchema, through the result wrapper", async () => {
    const report = { rows: [{ id: 1 }, { id: 2 }], note: "real JSON" };
    const outputSchema = {
      type: "object",
      properties: { result: { type: "object", properties: { report: { $ref: "#/$defs/Packed" }, raw: { type: "string" } } } },
      $defs: { Packed: { type: "string", contentMediaType: ZSTD } },
    };
    const structuredContent = { result: { report: await pack(report), raw: "kept" } };
    expect(plain(await valueOf({ structuredContent }, { outputSchema }))).toEqual({ report, raw: "kept" });
  });

  it("uses a precompiled plan, and none when the plan is null", async () => {
    const outputSchema = { type: "object", properties: { d: { type: "string", contentMediaType: ZSTD } } };
    const packed = await pack([1, 2, 3]);
    const codecs = defaultCodecs();
    const plan = mediaFields(outputSchema, codecs);
    const out = await normalizeResult({ content: [], structuredContent: { d: packed } }, { plan, codecs, budget: budget() });
    expect(plain(out.value)).toEqual({ d: [1, 2, 3] });
    expect(plain(await valueOf({ structuredContent: { d: packed } }, { outputSchema, plan: null }))).toEqual({ d: packed });
  });

  it("refuses more than max_value_bytes before converting", async () => {
    const e = await failure(normalize({ structuredContent: { blob: "x".repeat(5000) } }, { limits: { max_value_bytes: 4096 } }));
    expect(limitField(e)).toBe("max_value_bytes");
  });

  it("refuses nesting deeper than max_nesting_depth, not counting a result wrapper", async () => {
    let deep: unknown = 0;
    for (let i = 0; i < 5; i++) deep = [deep];
    const limits = { max_nesting_depth: 5 };
    expect(plain(await valueOf({ structuredContent: { result: deep } }, { limits }))).toEqual(deep);
    expect(limitField(await failure(normalize({ structuredContent: { other: deep } }, { limits })))).toBe("max_nesting_depth");
  });

  it("refuses a pathologically deep value without overflowing the stack", async () => {
    let deep: unknown = 0;
    for (let i = 0; i < 200_000; i++) deep = { d: deep };
    expect(limitField(await failure(normalize({ structuredContent: deep as Record<string, unknown> })))).toBe("max_nesting_depth");
  });
});

describe("text content", () => {
  it("is parsed when it is a JSON object or array", async () => {
    expect(plain(await valueOf({ content: [text('{"a": [1, 2.5, "x"], "b": null}')] }))).toEqual({ a: [1, { float: 2.5 }, "x"], b: null });
    expect(plain(await valueOf({ content: [text("  [true, false]\n")] }))).toEqual([true, false]);
  });

  it("keeps big integers exact", async () => {
    expect(await valueOf({ content: [text("123456789012345678901234567890")] })).toBe(BIG);
    expect(plain(await valueOf({ content: [text(`{"id": ${BIG}}`)] }))).toEqual({ id: BIG });
  });

  it("is parsed when it is a JSON number, bool or null", async () => {
    expect(await valueOf({ content: [text("42")] })).toBe(42);
    expect(plain(await valueOf({ content: [text("-0.25")] }))).toEqual({ float: -0.25 });
    expect(await valueOf({ content: [text("true")] })).toBe(true);
    expect(await valueOf({ content: [text("null")] })).toBeNull();
  });

  it("stays a string when it is prose, a JSON string literal, or JSON followed by more", async () => {
    expect(await valueOf({ content: [text("hello world")] })).toBe("hello world");
    expect(await valueOf({ content: [text('"quoted"')] })).toBe('"quoted"');
    expect(await valueOf({ content: [text("123 apples")] })).toBe("123 apples");
    expect(await valueOf({ content: [text("2024-01-31")] })).toBe("2024-01-31");
    expect(await valueOf({ content: [text("{not json}")] })).toBe("{not json}");
    expect(await valueOf({ content: [text("")] })).toBe("");
  });

  it("of several blocks that are each JSON comes back as a list of the parsed values", async () => {
    const v = await valueOf({ content: [text('{"a": 1}'), text(`[${BIG}]`), text("7")] });
    expect(plain(v)).toEqual([{ a: 1 }, [BIG], 7]);
  });

  it("of several blocks not all JSON is joined with newlines", async () => {
    expect(await valueOf({ content: [text("Found 2 results:"), text('[{"id": 1}, {"id": 2}]')] })).toBe(
      'Found 2 results:\n[{"id": 1}, {"id": 2}]',
    );
    expect(await valueOf({ content: [text("line one"), text("line two")] })).toBe("line one\nline two");
  });

  it("has media fields decoded by the outputSchema when there is no structuredContent", async () => {
    const outputSchema = { type: "object", properties: { d: { type: "string", contentMediaType: ZSTD } } };
    const v = await valueOf({ content: [text(JSON.stringify({ d: await pack({ x: [1] }) }))] }, { outputSchema });
    expect(plain(v)).toEqual({ d: { x: [1] } });
  });

  it("refuses text beyond max_value_bytes", async () => {
    const e = await failure(normalize({ content: [text("y".repeat(3000)), text("y".repeat(3000))] }, { limits: { max_value_bytes: 4096 } }));
    expect(limitField(e)).toBe("max_value_bytes");
  });

  it("refuses JSON text nesting deeper than max_nesting_depth", async () => {
    const limits = { max_nesting_depth: 4 };
    expect(plain(await valueOf({ content: [text("[[[[1]]]]")] }, { limits }))).toEqual([[[[1]]]]);
    expect(limitField(await failure(normalize({ content: [text("[[[[[1]]]]]")] }, { limits })))).toBe("max_nesting_depth");
    expect(limitField(await failure(normalize({ content: [text("[".repeat(2000) + "]".repeat(2000))] })))).toBe("max_nesting_depth");
  });

  it("is None when there are no blocks at all", async () => {
    expect(await valueOf({ content: [] })).toBeNull();
  });
});

describe("media content", () => {
  it("image and audio become dicts with type, mimeType and data", async () => {
    expect(plain(await valueOf({ content: [{ type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }] }))).toEqual({
      type: "image",
      mimeType: "image/png",
      data: "iVBORw0KGgo=",
    });
    expect(plain(await valueOf({ content: [{ type: "audio", mimeType: "audio/wav", data: "UklGRg==" }] }))).toEqual({
      type: "audio",
      mimeType: "audio/wav",
      data: "UklGRg==",
    });
  });

  it("an embedded resource keeps its text, or its blob as data", async () => {
    const withText = await valueOf({ content: [{ type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "hi" } }] });
    expect(plain(withText)).toEqual({ type: "resource", uri: "file:///a.txt", mimeType: "text/plain", text: "hi" });
    const withBlob = await valueOf({ content: [{ type: "resource", resource: { uri: "file:///b.bin", blob: "AAE=" } }] });
    expect(plain(withBlob)).toEqual({ type: "resource", uri: "file:///b.bin", mimeType: null, data: "AAE=" });
  });

  it("a resource_link keeps uri, name, mimeType and a description when present", async () => {
    const link = await valueOf({
      content: [{ type: "resource_link", uri: "file:///r.md", name: "r.md", mimeType: "text/markdown", description: "the readme" }],
    });
    expect(plain(link)).toEqual({ type: "resource_link", uri: "file:///r.md", name: "r.md", mimeType: "text/markdown", description: "the readme" });
    const bare = await valueOf({ content: [{ type: "resource_link", uri: "file:///s", name: "s" }] });
    expect(plain(bare)).toEqual({ type: "resource_link", uri: "file:///s", name: "s", mimeType: null });
  });

  it("text mixed with media comes back as a list of the parts, text parsed where it is JSON", async () => {
    const v = await valueOf({
      content: [text("Here is the chart"), { type: "image", mimeType: "image/png", data: "AA==" }, text('{"points": 3}')],
    });
    expect(plain(v)).toEqual(["Here is the chart", { type: "image", mimeType: "image/png", data: "AA==" }, { points: 3 }]);
  });

  it("several media blocks come back as a list", async () => {
    const img = { type: "image" as const, mimeType: "image/gif", data: "R0lG" };
    expect(plain(await valueOf({ content: [img, img] }))).toEqual([
      { type: "image", mimeType: "image/gif", data: "R0lG" },
      { type: "image", mimeType: "image/gif", data: "R0lG" },
    ]);
  });

  it("an unknown block type comes back as the block, as a dict", async () => {
    const block = { type: "chart", series: [1, 2], meta: { unit: "ms" } };
    const v = await valueOf({ content: [text("see chart"), block as unknown as CallToolResult["content"][number]] });
    expect(plain(v)).toEqual(["see chart", { type: "chart", series: [1, 2], meta: { unit: "ms" } }]);
  });

  it("refuses a large image before converting", async () => {
    const e = await failure(normalize({ content: [{ type: "image", mimeType: "image/png", data: "A".repeat(8000) }] }, { limits: { max_value_bytes: 4096 } }));
    expect(limitField(e)).toBe("max_value_bytes");
  });
});

describe("isError", () => {
  it("gives no value and the joined text as the message", async () => {
    const out = await normalize({ isError: true, content: [text("rate limited"), text("retry in 5s")] });
    expect(out).toEqual({ isError: true, value: null, errorMessage: "rate limited\nretry in 5s" });
  });

  it("uses the JSON of the content when there is no text", async () => {
    const out = await normalize({ isError: true, content: [{ type: "image", mimeType: "image/png", data: "AA==" }] });
    expect(out.errorMessage).toBe('[{"type":"image","mimeType":"image/png","data":"AA=="}]');
    const structured = await normalize({ isError: true, structuredContent: { code: 404 } });
    expect(structured.errorMessage).toBe('{"code":404}');
  });

  it("says so when the tool gave no details", async () => {
    expect((await normalize({ isError: true })).errorMessage).toBe("the tool reported an error without a message");
  });

  it("cuts a message longer than max_value_bytes instead of refusing it", async () => {
    const out = await normalize({ isError: true, content: [text("e".repeat(5000))] }, { limits: { max_value_bytes: 4096 } });
    expect(out.errorMessage).toBe("e".repeat(4096) + "... [904 more characters]");
  });
});
