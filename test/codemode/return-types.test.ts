// Named return types from outputSchema (return-types.ts, issue 20): TypedDicts declared once per
// file, named after the tool or the field, `$ref`s resolved, the {"result": x} wrapper unwrapped
// as the bridge unwraps it; the stubs that carry them stay valid Python (CPython) and run in the
// sandbox.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { buildCatalog, type CatalogServer, type CatalogTool } from "../../src/codemode/catalog.js";
import { canonicalName } from "../../src/codemode/names.js";
import { camel, COMPACT_RETURN_TYPES, FULL_RETURN_TYPES, ReturnTypes, singular } from "../../src/codemode/return-types.js";
import { serverStub, signatureLine, toolDocs, toolStub } from "../../src/codemode/stubs.js";
import { execute } from "../../src/interpreter/execute.js";
import { hasPython, pythonErrors } from "./cpython-parse.js";
import { loadSlack } from "../interpreter/stall.js";

function tool(name: string, outputSchema: Record<string, unknown> | undefined, extra: Partial<CatalogTool> = {}): CatalogTool {
  return { server: "demo", name, python: canonicalName(name), inputSchema: { type: "object" }, outputSchema, ...extra };
}

function types(tools: CatalogTool[], options = FULL_RETURN_TYPES): { decls: string[]; returns: string[] } {
  const t = new ReturnTypes(options);
  for (const x of tools) t.add(x);
  return { decls: t.declarations(), returns: tools.map((x) => t.annotation(x) ?? "(none)") };
}

const object = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({ type: "object", properties, required });

describe("return types", () => {
  it("declare a tool's result as <Tool>Result, optional keys NotRequired, enums Literal, arrays list", () => {
    const t = tool("get-order", object({ id: { type: "integer" }, state: { enum: ["open", "paid"] }, tags: { type: "array", items: { type: "string" } }, note: { type: ["string", "null"] } }, ["id", "state"]));
    expect(types([t])).toEqual({
      decls: ["GetOrderResult = TypedDict('GetOrderResult', {'id': int, 'state': Literal['open', 'paid'], 'tags': NotRequired[list[str]], 'note': NotRequired[str | None]})"],
      returns: ["GetOrderResult"],
    });
  });

  it("name nested types after their field, list items in the singular, children declared first", () => {
    const t = tool("read_graph", object({
      entities: { type: "array", items: object({ name: { type: "string" } }) },
      owner: object({ login: { type: "string" } }),
      data: { type: "array", items: object({ x: { type: "number" } }) },
    }));
    expect(types([t]).decls).toEqual([
      "Entity = TypedDict('Entity', {'name': str})",
      "Owner = TypedDict('Owner', {'login': str})",
      "DataItem = TypedDict('DataItem', {'x': float})",
      "ReadGraphResult = TypedDict('ReadGraphResult', {'entities': list[Entity], 'owner': Owner, 'data': list[DataItem]})",
    ]);
  });

  it.each([
    ["entities", "entity"],
    ["results", "result"],
    ["indexes", "index"],
    ["statuses", "status"],
    ["aliases", "alias"],
    ["responses", "response"],
    ["databases", "database"],
    ["matches", "match"],
    ["days", "day"],
    ["status", "status"],
    ["content", "content"],
  ])("read %s as the plural of %s", (plural, one) => {
    expect(singular(plural)).toBe(one);
  });

  it("spell names as identifiers whatever the field is called", () => {
    expect(camel("read_graph")).toBe("ReadGraph");
    expect(camel("entityType")).toBe("EntityType");
    expect(camel("@odata.type")).toBe("OdataType");
    expect(camel("3d")).toBe("T3d");
    expect(camel("日本")).toBe("");
    const t = tool("t", object({ "": object({ a: { type: "string" } }), none: object({ b: { type: "string" } }), "a key": object({ c: { type: "string" } }) }));
    expect(types([t]).decls.map((d) => d.split(" = ")[0])).toEqual(["Item", "TResultNone", "AKey", "TResult"]);
    expect(types([t]).decls[3]).toBe("TResult = TypedDict('TResult', {'': Item, 'none': TResultNone, 'a key': AKey})");
  });

  it("declare identical structures once: shared by tools, named by the words the tools share, else their keys", () => {
    const content = object({ content: { type: "string" } });
    const status = object({ success: { type: "boolean" }, message: { type: "string" } });
    const { decls, returns } = types([tool("read_file", content), tool("write_file", content), tool("delete_a", status), tool("delete_b", status), tool("other", object({ x: { type: "string" } }))]);
    expect(decls).toEqual([
      "ContentResult = TypedDict('ContentResult', {'content': str})",
      "DeleteResult = TypedDict('DeleteResult', {'success': bool, 'message': str})",
      "OtherResult = TypedDict('OtherResult', {'x': str})",
    ]);
    expect(returns).toEqual(["ContentResult", "ContentResult", "DeleteResult", "DeleteResult", "OtherResult"]);
  });

  it("share a nested structure met under two tools, and resolve different ones of one name by their parent", () => {
    const user = object({ login: { type: "string" } });
    const a = tool("get_issue", object({ user, assignee: user }));
    const b = tool("get_team", object({ user: object({ id: { type: "integer" } }) }));
    expect(types([a, b]).decls).toEqual([
      "User = TypedDict('User', {'login': str})",
      "GetIssueResult = TypedDict('GetIssueResult', {'user': User, 'assignee': User})",
      "GetTeamResultUser = TypedDict('GetTeamResultUser', {'id': int})",
      "GetTeamResult = TypedDict('GetTeamResult', {'user': GetTeamResultUser})",
    ]);
    // The same tools give the same names, in any run.
    expect(types([a, b])).toEqual(types([a, b]));
  });

  it("resolve $refs, and end a recursive one as dict", () => {
    const schema = {
      type: "object",
      properties: { root: { $ref: "#/$defs/node" }, owner: { $ref: "#/$defs/person" } },
      required: ["root", "owner"],
      $defs: {
        person: object({ name: { type: "string" } }),
        node: object({ label: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/node" } } }),
      },
    };
    expect(types([tool("tree", schema)]).decls).toEqual([
      "Root = TypedDict('Root', {'label': str, 'children': list[dict]})",
      "Owner = TypedDict('Owner', {'name': str})",
      "TreeResult = TypedDict('TreeResult', {'root': Root, 'owner': Owner})",
    ]);
    // The root is not reached through a $ref: its first visit by one is expanded, the second ends.
    expect(types([tool("self", object({ me: { $ref: "#" } }))]).decls).toEqual(["Me = TypedDict('Me', {'me': dict})", "SelfResult = TypedDict('SelfResult', {'me': Me})"]);
  });

  it("unwrap {result: x} as the bridge does: x, or x | dict when result may be missing", () => {
    const list = { type: "array", items: object({ id: { type: "integer" } }) };
    expect(types([tool("ids", { type: "object", properties: { result: list }, required: ["result"] })])).toEqual({
      decls: ["IdsItem = TypedDict('IdsItem', {'id': int})"],
      returns: ["list[IdsItem]"],
    });
    expect(types([tool("n", { type: "object", properties: { result: { type: "integer" } }, required: ["result"] })]).returns).toEqual(["int"]);
    expect(types([tool("m", { type: "object", properties: { result: { type: "integer" } } })]).returns).toEqual(["int | dict"]);
    expect(types([tool("o", { type: "object", properties: { result: object({ a: { type: "string" } }) }, required: ["result"] })]).returns).toEqual(["OResult"]);
  });

  it("name union variants after their const discriminator", () => {
    const item = { anyOf: [object({ type: { const: "image" }, data: { type: "string" } }), object({ type: { const: "text" }, text: { type: "string" } }), { type: "null" }] };
    expect(types([tool("read", object({ content: { type: "array", items: item } }))]).decls).toEqual([
      "ImageContentItem = TypedDict('ImageContentItem', {'type': Literal['image'], 'data': str})",
      "TextContentItem = TypedDict('TextContentItem', {'type': Literal['text'], 'text': str})",
      "ReadResult = TypedDict('ReadResult', {'content': list[ImageContentItem | TextContentItem | None]})",
    ]);
  });

  it("stop at the depth asked: one-line stubs show two levels of TypedDicts, deeper objects are dict", () => {
    const deep = tool("deep", object({ a: object({ b: object({ c: { type: "string" } }) }) }));
    expect(types([deep], COMPACT_RETURN_TYPES).decls).toEqual(["A = TypedDict('A', {'b': dict})", "DeepResult = TypedDict('DeepResult', {'a': A})"]);
    expect(types([deep]).decls).toHaveLength(3);
  });

  it("read schemas that are not objects with properties as annotation.ts does", () => {
    expect(types([tool("a", { type: "object" }), tool("b", { type: "object", additionalProperties: { type: "string" } }), tool("c", undefined)])).toEqual({
      decls: [],
      returns: ["dict", "dict", "(none)"],
    });
  });

  it("bound the work a $ref bomb makes: every file renders in a few milliseconds, and stays small", () => {
    // Eight levels of 50 properties, each referring to the next level: 50^8 paths.
    const defs: Record<string, unknown> = { l8: { type: "string" } };
    for (let i = 0; i < 8; i++) defs[`l${i}`] = object(Object.fromEntries(Array.from({ length: 50 }, (_, k) => [`p${k}`, { $ref: `#/$defs/l${i + 1}` }])));
    const bomb = tool("bomb", { ...object({ root: { $ref: "#/$defs/l0" } }), $defs: defs });
    const s: CatalogServer = { name: "demo", instructions: null, tools: [bomb] };
    const render = [() => serverStub(s), () => toolStub(s, bomb), () => toolDocs(s, bomb)];
    for (const f of render) f(); // compiled once, as in a running gateway
    for (const f of render) {
      // The best of three: any one run on a loaded machine can be descheduled.
      let ms = Infinity;
      let text = "";
      for (let run = 0; run < 3 && ms >= 50 * loadSlack(); run++) {
        const start = performance.now();
        text = f();
        ms = Math.min(ms, performance.now() - start);
      }
      expect(ms).toBeLessThan(50 * loadSlack());
      expect(text.length).toBeLessThan(20_000);
    }
  });

  it("appear in the stubs: declarations above the defs, TypedDict and NotRequired imported only when used", () => {
    const s: CatalogServer = {
      name: "demo",
      instructions: null,
      tools: [tool("get", object({ id: { type: "integer" }, next: { type: "string" } }, ["id"])), tool("ping", undefined)],
    };
    const stub = serverStub(s);
    expect(stub).toContain("from typing import Any, Literal, NotRequired, TypedDict\n\nGetResult = TypedDict('GetResult', {'id': int, 'next': NotRequired[str]})\n\ndef get() -> GetResult: ...\ndef ping() -> Any: ...");
    expect(serverStub(s, { returnTypes: false })).toContain("from typing import Any, Literal\n\ndef get() -> dict: ...");
    expect(toolStub(s, s.tools[1]!)).toContain("from typing import Any, Literal\n");
    expect(toolDocs(s, s.tools[0]!)).toContain("GetResult = TypedDict('GetResult', {'id': int, 'next': NotRequired[str]})\n\ndef get() -> GetResult:");
  });
});

const CATALOG = fileURLToPath(new URL("../../../shared/catalogs/real-16.json", import.meta.url));
const catalog = existsSync(CATALOG) ? buildCatalog((JSON.parse(readFileSync(CATALOG, "utf8")) as { servers: Parameters<typeof buildCatalog>[0] }).servers) : null;

/** bench:stubs' total for every real-16 server stub before issue 20 (commit 005e661), o200k tokens. */
const TOKENS_BEFORE = 26266;

describe.skipIf(catalog === null)("return types of the 16 real catalogs", () => {
  const servers = catalog?.servers ?? [];
  const find = (name: string) => servers.find((s) => s.name === name)!;

  it("give every tool with an outputSchema a named type, and the 14 filesystem tools one shared ContentResult", () => {
    const typed = servers.flatMap((s) => s.tools.filter((t) => t.outputSchema !== undefined));
    expect(typed).toHaveLength(51);
    for (const t of typed) expect(signatureLine(t), t.name).toMatch(/ -> [A-Z]\w+Result: \.\.\./);
    const stub = serverStub(find("filesystem"));
    expect(stub.match(/TypedDict\('ContentResult'/g)).toHaveLength(1);
    expect(stub.match(/-> ContentResult:/g)).toHaveLength(13);
    expect(stub).toContain("def read_media_file(path: str) -> ReadMediaFileResult: ...");
  });

  it("keep the server stubs within 25 % more tokens than before, hints included", () => {
    const total = servers.reduce((n, s) => n + encode(serverStub(s)).length, 0);
    expect(total).toBeLessThanOrEqual(TOKENS_BEFORE * 1.25);
    expect(total).toBeGreaterThan(TOKENS_BEFORE);
  });

  it("run as scripts in the sandbox: every name is declared before it is used", async () => {
    for (const s of servers.filter((x) => x.tools.some((t) => t.outputSchema !== undefined))) {
      for (const text of [serverStub(s), ...s.tools.filter((t) => t.outputSchema).flatMap((t) => [toolStub(s, t), toolDocs(s, t)])]) {
        const r = await execute(text);
        expect(r.error, `${s.name}: ${r.error?.message}`).toBeNull();
      }
    }
  });

  it.skipIf(!hasPython)("are valid Python for CPython in every file that declares them", () => {
    const texts = servers.flatMap((s) => [serverStub(s), ...s.tools.filter((t) => t.outputSchema).flatMap((t) => [toolStub(s, t), toolDocs(s, t)])]);
    expect(pythonErrors(texts)).toEqual(texts.map(() => null));
  });
});
