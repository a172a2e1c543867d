// json.loads of a value already parsed (a deliberate difference from CPython): a dict or a list
// comes back as it is, with one hint per execution, because models bring `json.loads(result)`
// from classic MCP where results are text. Every other non-text value keeps CPython's TypeError,
// checked against python3.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogOf } from "../../src/codemode/catalog.js";
import { defaultCodecs } from "../../src/codemode/media.js";
import { executeToolCode, formatExecution } from "../../src/codemode/meta-tools.js";
import { DEFAULT_LIMITS } from "../../src/interpreter/budget.js";
import { execute, type Hosts } from "../../src/interpreter/execute.js";
import { ALREADY_PARSED_NOTE } from "../../src/interpreter/modules/json.js";
import { parseClientConfig } from "../../src/upstream/config.js";
import { UpstreamManager } from "../../src/upstream/manager.js";
import { cpython } from "./cpython.js";

const hosts: Hosts = {
  srv: {
    async items() {
      return { items: [{ id: 1, title: "a" }, { id: 2, title: "b" }], total: 2 };
    },
    async rows() {
      return [[1, 2], [3, 4]];
    },
  },
};

describe("json.loads of a dict or a list", () => {
  it("returns the very value, for a dict and for a list", async () => {
    const r = await execute("import json\nd = {'a': [1, 2]}\nl = [d, None]\nRESULT = [json.loads(d) is d, json.loads(l) is l, json.loads(s=d) is d]");
    expect(r.error).toBeNull();
    expect(r.result).toEqual([true, true, true]);
  });

  it("makes the idiom of classic MCP work on tool results", async () => {
    const source = [
      "import json",
      "data = json.loads(srv.items())",
      "grid = json.loads(srv.rows())",
      "RESULT = [[i['title'] for i in data['items']], data['total'], grid[1][0]]",
    ].join("\n");
    const r = await execute(source, { hosts });
    expect(r.error).toBeNull();
    expect(r.result).toEqual([["a", "b"], 2, 3]);
  });

  it("notes it once per execution, however many calls, and only when it happened", async () => {
    const many = await execute("import json\nfor _ in range(50):\n    json.loads({'a': 1})\n    json.loads([1])", {});
    expect(many.error).toBeNull();
    expect(many.hints).toEqual([ALREADY_PARSED_NOTE]);
    const text = await execute("import json\nRESULT = json.loads('{\"a\": [1]}')");
    expect(text.result).toEqual({ a: [1] });
    expect(text.hints).toBeUndefined();
    const none = await execute("RESULT = 1");
    expect(none.hints).toBeUndefined();
  });

  it("keeps the note when the script fails afterwards", async () => {
    const r = await execute("import json\nd = json.loads({'a': 1})\nd['b']");
    expect(r.error?.type).toBe("KeyError");
    expect(r.hints).toEqual([ALREADY_PARSED_NOTE]);
    const text = formatExecution(r, []);
    expect(text).toContain("Execution runtime error:\nKeyError: 'b'");
    expect(text).toContain(`  - ${ALREADY_PARSED_NOTE}`);
  });

  it("still refuses unknown keywords and cls=, as for text", async () => {
    expect((await execute("import json\njson.loads({}, foo=1)")).error?.message).toBe("JSONDecoder.__init__() got an unexpected keyword argument 'foo'");
    expect((await execute("import json\njson.loads([], cls=dict)")).error?.type).toBe("TypeError");
  });

  it("leaves the hooks unapplied: the value is returned as it is", async () => {
    const r = await execute("import json\nRESULT = json.loads({'a': 1}, object_hook=lambda d: 'hooked')");
    expect(r.result).toEqual({ a: 1 });
  });
});

describe("json.loads of other values than text, against CPython", () => {
  const values = ["5", "None", "1.5", "True", "(1, 2)", "()", "{1, 2}", "frozenset()", "range(3)", "len", "{}.keys()", "iter([1])"];
  const sources = values.map((v) => `import json\ntry:\n    json.loads(${v})\nexcept TypeError as e:\n    print("TypeError:", e)`);
  const theirs = cpython(sources);

  it.each(values.map((v, i) => [v, i] as const))("json.loads(%s) raises CPython's TypeError", async (_v, i) => {
    const ours = await execute(sources[i]!);
    expect(theirs[i]!.error).toBeNull();
    expect(theirs[i]!.stdout).toMatch(/^TypeError: the JSON object must be str, bytes or bytearray, not /);
    expect(ours.error).toBeNull();
    expect(ours.stdout).toBe(theirs[i]!.stdout);
    expect(ours.hints).toBeUndefined();
  });

  it("and bytes still decode as in CPython", async () => {
    const source = "import json\nRESULT = [json.loads(b'[1, 2]'), json.loads(b'\\xef\\xbb\\xbf{\"a\": 1}')]";
    const [theirsBytes] = cpython([source]);
    const ours = await execute(source);
    expect(ours.error).toBeNull();
    expect(ours.result).toEqual(JSON.parse(theirsBytes!.result));
  });
});

describe("the hint in executeToolCode's answer, on a real server", () => {
  const modules = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol", import.meta.url));
  const manager = new UpstreamManager();

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "cmg-json-parsed-"));
    manager.add(
      parseClientConfig({
        name: "memory",
        connection_type: "stdio",
        stdio_config: { command: process.execPath, args: [join(modules, "server-memory/dist/index.js")], env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl") } },
        tools_to_execute: ["*"],
        is_code_mode_client: true,
      }),
    );
    await manager.settled(20_000);
  }, 30_000);
  afterAll(() => manager.closeAll());

  it("answers the result and says json.loads was not needed, after the value", async () => {
    const code = [
      "import json",
      "memory.create_entities(entities=[{'name': 'Ada', 'entityType': 'person', 'observations': []}])",
      "graph = json.loads(memory.read_graph())",
      "again = json.loads(memory.read_graph())",
      "RESULT = [e['name'] for e in graph['entities']]",
    ].join("\n");
    const { text, result } = await executeToolCode(code, {
      catalog: catalogOf(manager.list()),
      connections: manager.list(),
      authorize: () => null,
      limits: DEFAULT_LIMITS,
      codecs: defaultCodecs(),
    });
    expect(result.error, text).toBeNull();
    expect(result.result).toEqual(["Ada"]);
    expect(result.hints).toEqual([ALREADY_PARSED_NOTE]);
    expect(text).toContain(`Execution completed successfully.\nReturn value:\n[\n  "Ada"\n]\nHints:\n  - ${ALREADY_PARSED_NOTE}\nTool calls (3):`);
  });
});
