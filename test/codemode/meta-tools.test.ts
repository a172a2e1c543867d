// The meta-tools over a real catalog (real-16) and, for executeToolCode, a real server.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCatalog, catalogOf, type Catalog } from "../../src/codemode/catalog.js";
import { defaultCodecs } from "../../src/codemode/media.js";
import {
  DEFAULT_META_TOOL_OPTIONS,
  executeToolCode,
  getToolDocs,
  listToolFiles,
  type MetaToolOptions,
  metaToolDefinitions,
  readToolFile,
  searchHit,
  searchTools,
} from "../../src/codemode/meta-tools.js";
import { DEFAULT_LIMITS } from "../../src/interpreter/budget.js";
import { parseClientConfig } from "../../src/upstream/config.js";
import { UpstreamManager } from "../../src/upstream/manager.js";

const REAL16 = fileURLToPath(new URL("../../../shared/catalogs/real-16.json", import.meta.url));
const toolBinding: MetaToolOptions = { ...DEFAULT_META_TOOL_OPTIONS, binding: "tool" };

describe.skipIf(!existsSync(REAL16))("discovery on real-16", () => {
  let catalog: Catalog;
  beforeAll(() => {
    catalog = buildCatalog(JSON.parse(readFileSync(REAL16, "utf8")).servers);
  });

  it("offers five meta-tools by default, each with an input schema", () => {
    const defs = metaToolDefinitions();
    expect(defs.map((d) => d.name)).toEqual(["listToolFiles", "readToolFile", "getToolDocs", "searchTools", "executeToolCode"]);
    const fewer = metaToolDefinitions({ ...DEFAULT_META_TOOL_OPTIONS, enabled: new Set(["listToolFiles", "readToolFile", "getToolDocs", "executeToolCode"]) });
    expect(fewer.map((d) => d.name)).not.toContain("searchTools");
  });

  it("lists one file per server, sorted, marking servers with instructions", () => {
    const text = listToolFiles(catalog);
    expect(text.split("\n")[0]).toMatch(/^16 servers, 487 tools\./);
    expect(text).toContain("servers/\n");
    const withInstructions = catalog.servers.filter((s) => s.instructions).map((s) => s.name);
    for (const name of withInstructions) expect(text).toContain(`  ${name}.pyi  (has instructions)`);
    const names = text.split("\n").slice(2).map((l) => l.trim().split(".pyi")[0]);
    expect(names).toEqual([...names].sort((a, b) => a!.localeCompare(b!)));
  });

  it("lists one file per tool under tool binding", () => {
    const text = listToolFiles(catalog, toolBinding);
    expect(text).toContain("  github/");
    expect(text).toContain("    search_repositories.pyi");
  });

  it("explains an empty catalog", () => {
    expect(listToolFiles({ servers: [] })).toContain("No tool servers are available");
  });

  it("reads a server stub, and a tool path under server binding, case-insensitively", () => {
    const stub = readToolFile(catalog, { fileName: "servers/github.pyi" });
    expect(stub.split("\n")[0]).toMatch(/^# Total lines: \d+/);
    expect(stub).toContain("def search_repositories(");
    const one = readToolFile(catalog, { fileName: "SERVERS/GitHub/Search_Repositories.pyi" });
    expect(one).toContain("def search_repositories(");
    expect(one).not.toContain("def create_issue(");
    expect(readToolFile(catalog, { fileName: "servers/github.pyi" }, toolBinding)).toContain("def create_issue(");
  });

  it("reads line ranges, 1-based and clamped", () => {
    const all = readToolFile(catalog, { fileName: "servers/memory.pyi" }).split("\n");
    expect(readToolFile(catalog, { fileName: "servers/memory.pyi", startLine: 2, endLine: 3 })).toBe(all.slice(1, 3).join("\n"));
    expect(readToolFile(catalog, { fileName: "servers/memory.pyi", startLine: -5, endLine: 10_000 })).toBe(all.join("\n"));
  });

  it("answers path traversal and unknown names with what exists", () => {
    for (const fileName of ["../../etc/passwd", "servers/../secrets.pyi", "/servers/github.pyi", "servers/nope.pyi", "servers/github/nope.pyi"]) {
      const text = readToolFile(catalog, { fileName });
      expect(text, fileName).toContain("not found. Files that exist:");
      expect(text).toContain("servers/github.pyi");
    }
  });

  it("documents one tool, and says what exists when it does not", () => {
    const docs = getToolDocs(catalog, { server: "github", tool: "search_repositories" });
    expect(docs).toContain("def search_repositories(");
    expect(getToolDocs(catalog, { server: "nope", tool: "x" })).toContain("Server 'nope' not found");
    expect(getToolDocs(catalog, { server: "github", tool: "nope" })).toContain("Tool 'nope' not found on 'github'");
  });

  it("searches, brief and full", () => {
    const brief = searchTools(catalog, { query: "search repositories", server: "GitHub", limit: 3 });
    expect(brief.split("\n")[0]).toBe("github.search_repositories");
    expect(brief).not.toContain("input schema:");
    const full = searchTools(catalog, { query: "search repositories", server: "github", limit: 1, detail: "full" });
    expect(full).toContain("input schema:");
    expect(searchTools(catalog, { query: "zzzz qqqq" })).toContain("No tools match");
  });

  it("shows each hit's description once: in the signature's comment (brief), or whole below a bare signature (full)", () => {
    const brief = searchTools(catalog, { query: "read the knowledge graph", server: "memory", limit: 1 });
    expect(brief).toBe(
      "memory.read_graph\n  ReadGraphResult = TypedDict('ReadGraphResult', {'entities': list[dict], 'relations': list[dict]})\n" +
        "  def read_graph() -> ReadGraphResult: ... # (read-only) Read the entire knowledge graph",
    );
    const full = searchTools(catalog, { query: "read the knowledge graph", server: "memory", limit: 1, detail: "full" }).split("\n");
    expect(full.slice(0, 3)).toEqual(["memory.read_graph", "  def read_graph() -> ReadGraphResult: ...", "  (read-only) Read the entire knowledge graph"]);
    expect(full[3]).toMatch(/^  input schema: \{/);
    expect(full[4]).toMatch(/^  output schema: \{"type":"object"/);
    expect(full).toHaveLength(5);
  });

  it("shows an observed shape in a hit, marked observed", () => {
    const observed = { types: ["dict"], dicts: 1, keys: [{ name: "id", count: 1, shape: { types: ["int"] } }] };
    const tool = { server: "demo", name: "get", python: "get", description: "Get one. More text.", inputSchema: { type: "object" }, observed };
    expect(searchHit(tool, "brief")).toBe('demo.get\n  def get() -> dict: ... # Get one. Observed: {"id": int}');
    expect(searchHit(tool, "full")).toBe('demo.get\n  def get() -> dict: ...\n  Get one. More text.\n  observed result shape: {"id": int}\n  input schema: {"type":"object"}');
  });
});

describe("executeToolCode", () => {
  const EDGE = fileURLToPath(new URL("../../dist/test/fixtures/edge-server.js", import.meta.url));
  const manager = new UpstreamManager();

  beforeAll(async () => {
    manager.add(parseClientConfig({ name: "edge", connection_type: "stdio", stdio_config: { command: process.execPath, args: [EDGE] }, tools_to_execute: ["*"], is_code_mode_client: true }));
    await manager.settled(15_000);
  }, 20_000);
  afterAll(() => manager.closeAll());

  function run(code: string, visible: (server: string, tool: string) => boolean = () => true) {
    return executeToolCode(code, {
      catalog: catalogOf(manager.list(), visible),
      connections: manager.list(),
      authorize: () => null,
      limits: DEFAULT_LIMITS,
      codecs: defaultCodecs(),
    });
  }

  it("returns print output, the success line, the value as JSON and one line per tool call", async () => {
    const { text } = await run("print('hello')\nRESULT = {'sum': edge.add(a=2, b=3)}");
    const lines = text.split("\n");
    expect(lines[0]).toBe("hello");
    expect(lines[1]).toBe("Execution completed successfully.");
    expect(text).toContain('Return value:\n{\n  "sum": 5\n}');
    expect(text).toMatch(/Tool calls \(1\):\n {2}edge\.add ok \(\d+\.\d\d s\)/);
    expect(lines[lines.length - 1]).toBe("Available servers: edge");
  });

  it("reports runtime errors with the line and hints", async () => {
    const { text } = await run("x = 1\nr = edge.echo(text='a')\nr.key");
    expect(text).toContain("Execution runtime error:\nAttributeError: 'str' object has no attribute 'key'\n  at line 3, column 1");
    const unknown = (await run("edge.ech(text='a')")).text;
    expect(unknown).toContain("Did you mean edge.echo");
    expect(unknown).toContain("servers/edge.pyi");
    const name = (await run("github.search(q='x')")).text;
    expect(name).toContain("NameError: name 'github' is not defined");
    expect(name).toContain("fresh scope");
  });

  it("reports syntax errors as such, with what to write instead for rejected constructs", async () => {
    const { text } = await run("class A:\n    pass");
    expect(text).toContain("Execution syntax error:\nSyntaxError: class definitions are not supported in the sandbox");
  });

  it("binds only the tools the caller may see", async () => {
    const { text } = await run("edge.add(a=1, b=2)", (_s, tool) => tool === "echo");
    expect(text).toContain("AttributeError: server 'edge' has no tool 'add'");
  });
});
