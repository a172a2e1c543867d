// Python stubs of upstream tools (SPEC §4): JSON Schema -> annotations, safe parameter names,
// one-line signatures, the server and tool files, getToolDocs; all valid Python per CPython.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { buildCatalog, type CatalogServer, type CatalogTool } from "../../src/codemode/catalog.js";
import { canonicalName, isIdentifier } from "../../src/codemode/names.js";
import { paramNames, parameters, safeParamName } from "../../src/codemode/parameters.js";
import type { Shape } from "../../src/codemode/shape.js";
import {
  annotation,
  firstSentence,
  pyLiteral,
  pyString,
  serverStub,
  signatureLine,
  toolDocs,
  toolStub,
} from "../../src/codemode/stubs.js";
import { hasPython, pythonErrors } from "./cpython-parse.js";

function tool(name: string, inputSchema: Record<string, unknown>, extra: Partial<CatalogTool> = {}): CatalogTool {
  return { server: "demo", name, python: canonicalName(name), inputSchema, ...extra };
}

function server(tools: CatalogTool[], instructions: string | null = null): CatalogServer {
  return { name: "demo", instructions, tools };
}

describe("JSON Schema -> Python annotation", () => {
  it.each([
    [{ type: "string" }, "str"],
    [{ type: "integer" }, "int"],
    [{ type: "number" }, "float"],
    [{ type: "boolean" }, "bool"],
    [{ type: "null" }, "None"],
    [{ type: "object", properties: { a: { type: "string" } } }, "dict"],
    [{ properties: { a: {} } }, "dict"],
    [{ type: "array", items: { type: "string" } }, "list[str]"],
    [{ type: "array" }, "list"],
    [{ type: "array", items: {} }, "list"],
    [{ type: "array", items: [{ type: "string" }] }, "list"],
    [{ type: "array", items: { type: "array", items: { type: "integer" } } }, "list[list[int]]"],
    [{}, "Any"],
    [true, "Any"],
    [undefined, "Any"],
    [{ description: "no type at all" }, "Any"],
    [{ type: "weird" }, "Any"],
  ])("%j -> %s", (schema, expected) => {
    expect(annotation(schema, {})).toBe(expected);
  });

  it("renders enums and const as Literal with Python literals of every scalar type", () => {
    expect(annotation({ type: "string", enum: ["asc", "desc"] }, {})).toBe("Literal['asc', 'desc']");
    expect(annotation({ enum: ["a", 1, 2.5, true, false] }, {})).toBe("Literal['a', 1, 2.5, True, False]");
    expect(annotation({ const: "workspace" }, {})).toBe("Literal['workspace']");
    expect(annotation({ const: 0 }, {})).toBe("Literal[0]");
    expect(annotation({ enum: ["it's", 'say "hi"', "both ' \"", "back\\slash", "new\nline"] }, {})).toBe(
      `Literal["it's", 'say "hi"', 'both \\' "', 'back\\\\slash', 'new\\nline']`,
    );
  });

  it("keeps null out of the Literal, dedupes values, and types object/array enum values", () => {
    expect(annotation({ enum: ["a", null, "a", "b"] }, {})).toBe("Literal['a', 'b'] | None");
    expect(annotation({ enum: [1, "1", true] }, {})).toBe("Literal[1, '1', True]");
    expect(annotation({ enum: [null] }, {})).toBe("None");
    expect(annotation({ enum: [{ a: 1 }, [1]] }, {})).toBe("dict | list");
  });

  it("merges the Literals of a union into one", () => {
    expect(annotation({ anyOf: [{ const: "off" }, { const: "on" }, { type: "integer" }] }, {})).toBe("Literal['off', 'on'] | int");
    expect(annotation({ oneOf: [{ enum: ["a", "b"] }, { enum: ["b", "c"] }] }, {})).toBe("Literal['a', 'b', 'c']");
  });

  it("shortens a long Literal to its base type only in compact mode", () => {
    const countries = { enum: ["AR", "AU", "AT", "BE", "BR", "CA", "CL", "DK", "FI", "FR", "DE", "HK", "IN"] };
    expect(annotation(countries, {}, { compact: true })).toBe("str");
    expect(annotation(countries, {})).toMatch(/^Literal\['AR', .*'IN'\]$/);
    expect(annotation({ enum: [1, 2.5, ...Array.from({ length: 30 }, (_, i) => i)] }, {}, { compact: true })).toBe("float");
    expect(annotation({ type: "array", items: countries }, {}, { compact: true })).toBe("list[str]");
  });

  it("renders nullable forms as X | None", () => {
    expect(annotation({ type: ["string", "null"] }, {})).toBe("str | None");
    expect(annotation({ type: "string", nullable: true }, {})).toBe("str | None");
    expect(annotation({ anyOf: [{ type: "integer" }, { type: "null" }] }, {})).toBe("int | None");
    expect(annotation({ type: ["null", "array"], items: { type: "string" } }, {})).toBe("list[str] | None");
    expect(annotation({ type: ["string", "null"], enum: ["a", "b"] }, {})).toBe("Literal['a', 'b'] | None");
    expect(annotation({ type: ["string", "integer"] }, {})).toBe("str | int");
  });

  it("renders short unions, deduped, and anything wider as Any", () => {
    expect(annotation({ anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] }, {})).toBe("str | list[str]");
    expect(annotation({ oneOf: [{ type: "string" }, { type: "string", format: "uri" }] }, {})).toBe("str");
    expect(annotation({ anyOf: [{ type: "string" }, { type: "integer" }, { type: "boolean" }, { type: "null" }] }, {})).toBe("str | int | bool | None");
    expect(annotation({ anyOf: [{ type: "string" }, { type: "integer" }, { type: "boolean" }, { type: "object" }] }, {})).toBe("Any");
    expect(annotation({ anyOf: [{ type: "string" }, {}] }, {})).toBe("Any");
    expect(annotation({ anyOf: [{ type: "integer" }, { type: "number" }] }, {})).toBe("float");
  });

  it("reads the type next to constraint-only variants", () => {
    expect(annotation({ type: "string", anyOf: [{ format: "date" }, { pattern: "^x" }] }, {})).toBe("str");
  });

  it("resolves $ref to $defs, definitions and any local pointer", () => {
    const root = {
      $defs: { id: { type: "string" }, "a/b": { type: "integer" }, ids: { type: "array", items: { $ref: "#/$defs/id" } } },
      definitions: { flag: { type: "boolean" } },
    };
    expect(annotation({ $ref: "#/$defs/id" }, root)).toBe("str");
    expect(annotation({ $ref: "#/definitions/flag" }, root)).toBe("bool");
    expect(annotation({ $ref: "#/$defs/ids" }, root)).toBe("list[str]");
    expect(annotation({ $ref: "#/$defs/a~1b" }, root)).toBe("int");
    expect(annotation({ $ref: "#/$defs/id", nullable: true }, root)).toBe("str | None");
    expect(annotation({ $ref: "#/$defs/missing" }, root)).toBe("Any");
    expect(annotation({ $ref: "https://example.com/schema" }, root)).toBe("Any");
    expect(annotation({ $ref: "#/$defs/__proto__" }, root)).toBe("Any");
  });

  it("ends recursive $refs at their second visit, as the shape they have", () => {
    const root = {
      $defs: {
        node: { anyOf: [{ type: "string" }, { type: "array", items: { $ref: "#/$defs/node" } }] },
        self: { $ref: "#/$defs/self" },
        a: { $ref: "#/$defs/b" },
        b: { type: "array", items: { $ref: "#/$defs/a" } },
        tree: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/tree" } } } },
      },
    };
    expect(annotation({ $ref: "#/$defs/node" }, root)).toBe("str | list");
    expect(annotation({ $ref: "#/$defs/self" }, root)).toBe("Any");
    expect(annotation({ $ref: "#/$defs/a" }, root)).toBe("list[list]");
    expect(annotation({ $ref: "#/$defs/tree" }, root)).toBe("dict");
    expect(annotation({ $ref: "#" }, { type: "array", items: { $ref: "#" } })).toBe("list[list]");
  });

  it("reads allOf with one member as that member", () => {
    expect(annotation({ allOf: [{ type: "integer" }] }, {})).toBe("int");
    expect(annotation({ allOf: [{ type: "object" }, { properties: { a: {} } }] }, {})).toBe("dict");
  });
});

describe("Python literals", () => {
  it("renders defaults of every JSON type", () => {
    expect(pyLiteral("x")).toBe("'x'");
    expect(pyLiteral(10)).toBe("10");
    expect(pyLiteral(-2.5)).toBe("-2.5");
    expect(pyLiteral(1e21)).toBe("1e+21");
    expect(pyLiteral(true)).toBe("True");
    expect(pyLiteral(false)).toBe("False");
    expect(pyLiteral(null)).toBe("None");
    expect(pyLiteral(["web", 1, null])).toBe("['web', 1, None]");
    expect(pyLiteral({ a: [true], "b'": {} })).toBe(`{'a': [True], "b'": {}}`);
    expect(pyLiteral([])).toBe("[]");
  });

  it("quotes strings as repr does", () => {
    expect(pyString("plain")).toBe("'plain'");
    expect(pyString("tab\there\r")).toBe("'tab\\there\\r'");
    expect(pyString("\u0000\u001f\u007f")).toBe("'\\x00\\x1f\\x7f'");
    expect(pyString("é 日本 😀")).toBe("'é 日本 😀'");
    expect(pyString("\u200b\u2028\ud800")).toBe("'\\u200b\\u2028\\ud800'");
  });
});

describe("parameter names", () => {
  it.each([
    ["query", "query"],
    ["from", "from_"],
    ["None", "None_"],
    ["user-id", "user_id"],
    ["$top", "top"],
    ["If-Match", "If_Match"],
    ["@odata.type", "odata_type"],
    ["x-loc-lat", "x_loc_lat"],
    ["3d", "_3d"],
    ["", "_"],
    ["---", "_"],
    ["__proto__", "__proto__"],
  ])("%j -> %s", (name, safe) => {
    expect(safeParamName(name)).toBe(safe);
    expect(isIdentifier(safeParamName(name))).toBe(true);
  });

  it("keeps names unique and reversible, identifiers keeping their own spelling", () => {
    const t = tool("t", {
      type: "object",
      properties: { "user-id": {}, user_id: {}, "user id": {}, from: {}, from_: {}, $top: {}, top: {} },
      required: ["missing-one"],
    });
    const names = paramNames(t);
    expect([...names.entries()]).toEqual([
      ["missing_one", "missing-one"],
      ["user_id_2", "user-id"],
      ["user_id", "user_id"],
      ["user_id_3", "user id"],
      ["from__2", "from"],
      ["from_", "from_"],
      ["top_2", "$top"],
      ["top", "top"],
    ]);
  });
});

describe("signature lines", () => {
  it("puts required parameters first, then optional ones with their defaults", () => {
    const t = tool("search", {
      type: "object",
      properties: {
        max_results: { type: "integer", default: 10 },
        query: { type: "string" },
        order: { type: "string", enum: ["asc", "desc"] },
        lang: { type: "string", default: "en" },
        page: { type: "integer" },
      },
      required: ["query", "order"],
    }, { description: "Search for videos. Returns up to 50." });
    expect(signatureLine(t)).toBe(
      "def search(query: str, order: Literal['asc', 'desc'], max_results: int=10, lang: str='en', page: int=None) -> Any: ... # Search for videos",
    );
  });

  it("shows defaults of every JSON type, and long ones as ...", () => {
    const t = tool("d", {
      type: "object",
      properties: {
        s: { type: "string", default: "it's" },
        i: { type: "integer", default: -3 },
        f: { type: "number", default: 0.5 },
        b: { type: "boolean", default: false },
        n: { type: ["string", "null"], default: null },
        a: { type: "array", items: { type: "string" }, default: ["web", "query"] },
        o: { type: "object", default: { k: 1 } },
        long: { type: "array", default: ["a very long default value", "that does not fit"] },
      },
    });
    expect(signatureLine(t)).toBe(
      `def d(s: str="it's", i: int=-3, f: float=0.5, b: bool=False, n: str | None=None, a: list[str]=['web', 'query'], o: dict={'k': 1}, long: list=...) -> Any: ...`,
    );
  });

  it("uses safe parameter names", () => {
    const t = tool("range", { type: "object", properties: { from: { type: "string" }, "If-Match": { type: "string" } }, required: ["from"] });
    expect(signatureLine(t)).toBe("def range(from_: str, If_Match: str=None) -> Any: ...");
  });

  it("annotates the return from outputSchema: a named type for objects, the unwrapped result, else Any", () => {
    const none = tool("a", {});
    const object = tool("b", {}, { outputSchema: { type: "object", properties: { x: { type: "string" } } } });
    const wrapped = tool("c", {}, { outputSchema: { type: "object", properties: { result: { type: "array", items: { type: "integer" } } }, required: ["result"] } });
    const bare = tool("d", {}, { outputSchema: { type: "object" } });
    expect(signatureLine(none)).toBe("def a() -> Any: ...");
    expect(signatureLine(object)).toBe("def b() -> BResult: ...");
    expect(signatureLine(wrapped)).toBe("def c() -> list[int]: ...");
    expect(signatureLine(bare)).toBe("def d() -> dict: ...");
    expect(signatureLine(object)).toBe(signatureLine(object, undefined));
  });

  it("comments with the first sentence, on one line, bounded", () => {
    expect(firstSentence("\n  Scrape a URL, e.g. a blog. Then more.\nSecond line.")).toBe("Scrape a URL, e.g. a blog");
    expect(firstSentence("Notion | Retrieve a user\nError Responses:\n400: 400")).toBe("Notion | Retrieve a user");
    expect(firstSentence("**Best for:** version 1.5 of things! Yes")).toBe("Best for: version 1.5 of things!");
    const long = firstSentence("word ".repeat(60));
    expect(long.length).toBeLessThanOrEqual(120);
    expect(long.endsWith("…")).toBe(true);
    const t = tool("x", {}, { description: "Line one\r\nline two\u2028three\u0000" });
    expect(signatureLine(t)).toBe("def x() -> Any: ... # Line one");
    expect(signatureLine(tool("y", {}, { title: "Only a title" }))).toBe("def y() -> Any: ... # Only a title");
  });
});

describe("stub files", () => {
  const github = server(
    [
      tool("search_repos", { type: "object", properties: { query: { type: "string", description: "What to find" } }, required: ["query"] }, {
        description: "Search repositories.\n\nUses the search API.",
      }),
      tool("create-issue", { type: "object", properties: { title: { type: "string" } }, required: ["title"] }, { description: "Open an issue" }),
    ],
    "Prefer search_repos for discovery.\nCall create_issue only after a search.",
  );

  it("writes a server stub: line count, usage, instructions between markers, tools sorted", () => {
    const text = serverStub(github);
    const lines = text.split("\n");
    expect(lines[0]).toBe(`# Total lines: ${lines.length}`);
    expect(text).toContain("demo.<tool>(param=value)");
    expect(text).toContain("_async(");
    expect(text).toContain("await asyncio.gather(");
    expect(text).toContain("from typing import Any, Literal");
    const start = lines.indexOf("# ---- server instructions ----");
    expect(lines.slice(start, start + 4)).toEqual([
      "# ---- server instructions ----",
      "# Prefer search_repos for discovery.",
      "# Call create_issue only after a search.",
      "# ---- end server instructions ----",
    ]);
    const defs = lines.filter((l) => l.startsWith("def "));
    expect(defs).toEqual([
      "def create_issue(title: str) -> Any: ... # Open an issue",
      "def search_repos(query: str) -> Any: ... # Search repositories",
    ]);
  });

  it("leaves the instructions block out when the server sent none", () => {
    expect(serverStub(server(github.tools, null))).not.toContain("server instructions");
    expect(serverStub(server(github.tools, "   "))).not.toContain("server instructions");
  });

  it("trims instructions to the limit in bytes, with a note", () => {
    const text = serverStub(server([], "é".repeat(3000)), { instructionsLimit: 100 });
    const kept = text.split("\n").find((l) => l.startsWith("# é"))!;
    expect(Buffer.byteLength(kept.slice(2))).toBeLessThanOrEqual(100);
    expect(text).toContain("# … (trimmed to 100 of 6000 bytes)");
    expect(serverStub(server([], "x".repeat(5000)))).toContain("trimmed to 4096 of 5000 bytes");
  });

  it("writes a tool stub with its docstring", () => {
    const text = toolStub(github, github.tools[0]!);
    const lines = text.split("\n");
    expect(lines[0]).toBe(`# Total lines: ${lines.length}`);
    expect(text).toContain("demo.search_repos(param=value)");
    expect(text).toContain("# ---- server instructions ----");
    expect(text).toContain('def search_repos(query: str) -> Any:\n    """Search repositories.\n\n    Uses the search API.\n\n    Args:\n        query: What to find\n    """\n    ...');
  });

  it("documents a tool: types, required, defaults, descriptions, returns, instructions, example", () => {
    const t = tool(
      "list-items",
      {
        type: "object",
        properties: {
          from: { type: "string", description: "Start date", format: "date" },
          count: { type: "integer", default: 10, minimum: 1, maximum: 50, description: "How many" },
          filter: {
            type: "object",
            description: "Filter fields",
            properties: { state: { enum: ["open", "closed"] }, label: { type: "string", description: "A label" } },
            required: ["state"],
          },
        },
        required: ["from"],
      },
      {
        description: "List items.\nSecond paragraph with a \\d regex.",
        outputSchema: { type: "object", properties: { items: { type: "array", items: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] } }, next: { type: "string" } }, required: ["items"] },
      },
    );
    const docs = toolDocs(server([t], "Be gentle."), t);
    expect(docs).toContain("# demo.list_items (upstream tool 'list-items')");
    expect(docs).toContain('r"""List items.\n    Second paragraph with a \\d regex.');
    expect(docs).toContain("from_ (str, required, format date, sent as 'from'): Start date");
    expect(docs).toContain("count (int, optional, default 10, 1..50): How many");
    expect(docs).toContain("filter (dict, optional): Filter fields\n            state (Literal['open', 'closed'], required)\n            label (str): A label");
    expect(docs).toContain("Item = TypedDict('Item', {'id': int})\nListItemsResult = TypedDict('ListItemsResult', {'items': list[Item], 'next': NotRequired[str]})");
    expect(docs).toContain("def list_items(from_: str, count: int = 10, filter: dict = None) -> ListItemsResult:");
    expect(docs).toContain("Returns: ListItemsResult\n        items (list[Item])\n            id (int)\n        next (str, optional)");
    expect(docs).toContain("# ---- server instructions ----\n# Be gentle.\n# ---- end server instructions ----");
    expect(docs.split("\n").slice(-3)).toEqual(["# Example:", "# result = demo.list_items(from_='...')", "# print(result)"]);
  });

  it("fills the example call from examples, defaults, enums, then placeholders", () => {
    const t = tool("ex", {
      type: "object",
      properties: {
        a: { type: "string", examples: ["octocat"] },
        b: { type: "integer", default: 5 },
        c: { enum: ["x, y", "z"] },
        d: { type: "array", items: { type: "string" } },
        e: { type: "boolean" },
        f: { type: "string", default: "a default far too long to show in an example call" },
      },
      required: ["a", "b", "c", "d", "e", "f"],
    });
    expect(toolDocs(server([t]), t)).toContain("# result = demo.ex(a='octocat', b=5, c='x, y', d=[], e=True, f='...')");
  });

  it("says when a tool declares no return shape", () => {
    expect(toolDocs(github, github.tools[1]!)).toContain("Returns: Any (no declared schema");
  });

  it.skipIf(!hasPython)("stays valid Python whatever the upstream texts contain", () => {
    const nasty = 'Quotes """ and \'\'\' and \\ and \\N{x} \u0000 \r\n\u2028 \ud800 😀 "';
    const odd = tool("3d-render!", {
      type: "object",
      properties: {
        "": { type: "string", description: nasty },
        class: { enum: ['"""', "\\", "\n", null, 1.5, true, "\u0000"], default: '"""' },
        "a b": { type: "array", items: { $ref: "#/$defs/loop" }, default: [{ '"k': "\\" }] },
        big: { type: "number", default: 1e300 },
        ends: { type: "string", description: 'ends with a quote"' },
        slash: { type: "string", description: "ends with a backslash \\" },
      },
      required: ["", "class"],
      $defs: { loop: { anyOf: [{ $ref: "#/$defs/loop" }, { type: "object", properties: { x: { $ref: "#/$defs/loop" } } }] } },
    }, { description: nasty, outputSchema: { type: "object", properties: { '"""': { type: "string", description: nasty } } } });
    const raw = tool("raw", {}, { description: "C:\\path\\ and \\x escapes and a trailing quote\"" });
    const plain = tool("plain", {}, { description: 'ends with quotes ""' });
    const s = server([odd, raw, plain], nasty + "\n\n\n# not a heading\n" + nasty);
    const texts = [serverStub(s), serverStub(s, { instructionsLimit: 7 }), ...s.tools.flatMap((t) => [toolStub(s, t), toolDocs(s, t)])];
    expect(pythonErrors(texts)).toEqual(texts.map(() => null));
  });
});

const CATALOG = fileURLToPath(new URL("../../../shared/catalogs/real-16.json", import.meta.url));

describe.skipIf(!existsSync(CATALOG) || !hasPython)("the 16 real catalogs", () => {
  it("give valid Python for every server stub, tool stub and toolDocs text, and reversible parameter names", () => {
    const raw = JSON.parse(readFileSync(CATALOG, "utf8")) as { servers: Parameters<typeof buildCatalog>[0] };
    const catalog = buildCatalog(raw.servers);
    const texts: { what: string; text: string }[] = [];
    let tools = 0;
    for (const s of catalog.servers) {
      const stub = serverStub(s);
      const lines = stub.split("\n");
      expect(lines[0]).toBe(`# Total lines: ${lines.length}`);
      expect(lines.filter((l) => l.startsWith("def ")).length).toBe(s.tools.length);
      texts.push({ what: `servers/${s.name}.pyi`, text: stub });
      for (const t of s.tools) {
        tools++;
        texts.push({ what: `servers/${s.name}/${t.python}.pyi`, text: toolStub(s, t) });
        texts.push({ what: `getToolDocs ${s.name}.${t.python}`, text: toolDocs(s, t) });
        expect(signatureLine(t)).not.toMatch(/\n/);

        const properties = Object.keys((t.inputSchema.properties as object | undefined) ?? {});
        const required = ((t.inputSchema.required as string[] | undefined) ?? []).filter((r) => !properties.includes(r));
        const names = paramNames(t);
        expect(names.size).toBe(properties.length + required.length);
        expect([...names.values()].sort()).toEqual([...properties, ...required].sort());
        for (const python of names.keys()) expect(isIdentifier(python), python).toBe(true);
        expect(parameters(t).map((p) => p.python)).toEqual([...names.keys()]);
      }
    }
    expect(tools).toBe(487);
    const errors = pythonErrors(texts.map((t) => t.text));
    const failures = texts.flatMap((t, i) => (errors[i] ? [`${t.what}: ${errors[i]}`] : []));
    expect(failures).toEqual([]);
  });
});

describe("behaviour hints", () => {
  const hinted = (annotations: Record<string, unknown> | undefined) => tool("t", {}, { description: "Do it.", annotations });

  it.each([
    [{ readOnlyHint: true }, "(read-only) Do it"],
    [{ readOnlyHint: true, destructiveHint: true, idempotentHint: true }, "(read-only) Do it"],
    [{ destructiveHint: true }, "(destructive) Do it"],
    [{ readOnlyHint: false, destructiveHint: false }, "(additive) Do it"],
    [{ readOnlyHint: false, destructiveHint: true, idempotentHint: true }, "(destructive, idempotent) Do it"],
    [{ idempotentHint: true }, "(idempotent) Do it"],
    [{ readOnlyHint: false }, "(writes) Do it"],
    [{ readOnlyHint: false, idempotentHint: false }, "(writes) Do it"],
    [{ openWorldHint: true }, "Do it"],
    [{ readOnlyHint: "yes" }, "Do it"],
    [undefined, "Do it"],
  ])("%j reads %j", (annotations, comment) => {
    expect(signatureLine(hinted(annotations))).toBe(`def t() -> Any: ... # ${comment}`);
  });

  it("show without a description too, and in the tool file and getToolDocs", () => {
    expect(signatureLine(tool("t", {}, { annotations: { readOnlyHint: true } }))).toBe("def t() -> Any: ... # (read-only)");
    const t = hinted({ destructiveHint: true });
    const s = server([t]);
    expect(toolStub(s, t)).toContain('"""Do it.\n\n    Hints: destructive (declared by the server).\n    """');
    expect(toolDocs(s, t)).toContain("    Hints: destructive (declared by the server).");
  });
});

describe("observed shapes", () => {
  const shape: Shape = {
    types: ["dict"],
    dicts: 2,
    keys: [
      { name: "items", count: 2, shape: { types: ["list"], items: { types: ["dict"], dicts: 3, keys: [{ name: "id", count: 3, shape: { types: ["int"] } }] } } },
      { name: "next", count: 1, shape: { types: ["None", "str"] } },
    ],
  };
  const text = '{"items": list[{"id": int}], "next"?: str | None}';

  it("annotate the return with the outer type and put the shape in the comment, marked observed", () => {
    const t = tool("search", { type: "object", properties: { q: { type: "string" } }, required: ["q"] }, { description: "Search for videos.", observed: shape });
    expect(signatureLine(t)).toBe(`def search(q: str) -> dict: ... # Search for videos. Observed: ${text}`);
    expect(signatureLine(tool("a", {}, { observed: shape, annotations: { readOnlyHint: true } }))).toBe(`def a() -> dict: ... # (read-only) Observed: ${text}`);
    expect(signatureLine(tool("b", {}, { observed: { types: ["list"], items: { types: ["str"] } } }))).toBe("def b() -> list[str]: ... # Observed: list[str]");
    expect(signatureLine(tool("c", {}, { description: "Is it up?", observed: { types: ["bool"] } }))).toBe("def c() -> bool: ... # Is it up? Observed: bool");
  });

  it("say in the tool file and getToolDocs that the shape was observed, not declared", () => {
    const t = tool("search", {}, { description: "Search.", observed: shape });
    const s = server([t]);
    const returns = `    Returns: dict, observed in earlier results (no declared schema):\n        ${text}`;
    expect(toolStub(s, t)).toContain(returns);
    expect(toolDocs(s, t)).toContain(returns);
    expect(toolDocs(s, t)).not.toContain("Returns: Any");
  });

  it("are ignored for a tool that declares an outputSchema", () => {
    const t = tool("get", {}, { outputSchema: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] }, observed: shape });
    expect(signatureLine(t)).toBe("def get() -> GetResult: ...");
    expect(toolDocs(server([t]), t)).not.toContain("observed");
  });

  it.skipIf(!hasPython)("keep every text valid Python whatever the keys are", () => {
    const nasty: Shape = { types: ["dict"], dicts: 1, keys: ['"""', "back\\", "new\nline", "\u0000", "\u2028", "'''"].map((name) => ({ name, count: 1, shape: { types: ["str"] } })) };
    const t = tool("n", {}, { description: "N.", observed: nasty });
    const s = server([t]);
    const texts = [serverStub(s), toolStub(s, t), toolDocs(s, t)];
    expect(pythonErrors(texts)).toEqual(texts.map(() => null));
  });
});
