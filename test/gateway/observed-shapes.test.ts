// Shapes learned from real results (issue 20) through the Gateway: the official servers over
// stdio as config.json starts them (memory and filesystem on temp paths) and the edge-case
// server, each tool called once from executeToolCode, then what catalogFor shows to whom.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { shapeText } from "../../src/codemode/shape.js";
import { type Caller, UNRESTRICTED } from "../../src/gateway/caller.js";
import { DEFAULT_SETTINGS, Gateway } from "../../src/gateway/gateway.js";
import type { ShapeChange } from "../../src/gateway/shapes.js";
import { parseClientConfig } from "../../src/upstream/config.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const EDGE = join(ROOT, "dist/test/fixtures/edge-server.js");
const dir = mkdtempSync(join(tmpdir(), "cmg-observed-"));

function official(name: string, [module, ...args]: string[], env: Record<string, string> = {}) {
  return parseClientConfig({
    name,
    connection_type: "stdio",
    stdio_config: { command: process.execPath, args: [join(ROOT, "node_modules/@modelcontextprotocol", module!), ...args], env },
    tools_to_execute: ["*"],
    is_code_mode_client: true,
  });
}

const EVERYTHING = official("everything", ["server-everything/dist/index.js"]);
const MEMORY = official("memory", ["server-memory/dist/index.js"], { MEMORY_FILE_PATH: join(dir, "memory.jsonl") });
const FILESYSTEM = official("filesystem", ["server-filesystem/dist/index.js", mkdtempSync(join(tmpdir(), "cmg-observed-root-"))]);
const EDGE_CLIENT = parseClientConfig({ name: "edge", connection_type: "stdio", stdio_config: { command: process.execPath, args: [EDGE] }, tools_to_execute: ["*"], is_code_mode_client: true });

let gateway: Gateway;

beforeAll(async () => {
  gateway = new Gateway();
  for (const c of [EVERYTHING, MEMORY, FILESYSTEM, EDGE_CLIENT]) gateway.addClient(c);
  await gateway.manager.settled(20_000);
}, 40_000);

afterAll(() => gateway?.close());

afterEach(() => {
  gateway.settings = DEFAULT_SETTINGS;
});

async function run(code: string, caller: Caller = UNRESTRICTED) {
  const outcome = await gateway.callTool("executeToolCode", { code }, caller);
  expect(outcome.isError, outcome.text).toBe(false);
  return outcome.text;
}

/** The observed shape of a tool as `caller`'s catalog shows it, as text; null when it shows none. */
function observed(server: string, tool: string, caller: Caller = UNRESTRICTED): string | null {
  const t = gateway.catalogFor(caller).servers.find((s) => s.name === server)?.tools.find((x) => x.name === tool);
  if (!t) throw new Error(`${server}.${tool} is not in the catalog`);
  return t.observed ? shapeText(t.observed) : null;
}

function changes(): ShapeChange[] {
  const seen: ShapeChange[] = [];
  gateway.shapes.on("change", (c: ShapeChange) => seen.push(c));
  return seen;
}

describe("shapes learned from real servers", () => {
  it("every server connected, and the tools without outputSchema are the ones expected", () => {
    for (const name of ["everything", "memory", "filesystem", "edge"]) expect(gateway.manager.get(name)?.state, `${name}: ${gateway.manager.get(name)?.lastError}`).toBe("connected");
    const withoutSchema = (name: string) => gateway.manager.get(name)!.tools.filter((t) => !t.outputSchema).map((t) => t.name);
    expect(withoutSchema("everything")).toEqual(expect.arrayContaining(["echo", "get-sum", "get-env", "get-tiny-image"]));
    // Every memory and filesystem tool declares an outputSchema: nothing of theirs is observed.
    expect(withoutSchema("memory")).toEqual([]);
    expect(withoutSchema("filesystem")).toEqual([]);
  });

  it("learns each tool's shape from one call: names and types, never values", async () => {
    await run(
      "a = everything.echo(message='secret-value')\n" +
        "b = everything.get_sum(a=1, b=2)\n" +
        "c = everything.get_env()\n" +
        "d = everything.get_tiny_image()\n" +
        "e = memory.read_graph()\n" +
        "f = filesystem.list_allowed_directories()\n" +
        "RESULT = [type(x).__name__ for x in [a, b, c, d, e, f]]",
    );
    expect(observed("everything", "echo")).toBe("str");
    expect(observed("everything", "get-sum")).toBe("str");
    // get-env answers with the JSON text of its environment: described as the dict the script
    // receives (the few variables a stdio child inherits), not as a str.
    expect(observed("everything", "get-env")).toMatch(/^\{.*"PATH": str.*\}$/);
    expect(observed("everything", "get-tiny-image")).toMatch(/^list\[.*"mimeType": str.*\]$/);
    expect(observed("memory", "read_graph")).toBeNull();
    expect(observed("filesystem", "list_allowed_directories")).toBeNull();
    expect(gateway.shapes.get("memory", "read_graph")).toBeUndefined();
    expect(JSON.stringify(gateway.shapes.entries())).not.toContain("secret-value");
  });

  it("merges a second, differing result: a key it lacked becomes optional", async () => {
    await run(`edge.echo(text='{"id": 1, "email": "a@example.com", "tags": ["x"]}')`);
    expect(observed("edge", "echo")).toBe('{"id": int, "email": str, "tags": list[str]}');
    await run(`edge.echo(text='{"id": 2, "tags": []}')`);
    expect(observed("edge", "echo")).toBe('{"id": int, "email"?: str, "tags": list[str]}');
  });

  it("writes nothing once results keep saying the same", async () => {
    await run("everything.get_sum(a=3, b=4)");
    const seen = changes();
    await run("[everything.get_sum(a=i, b=1) for i in range(5)]");
    expect(seen).toEqual([]);
  });

  it("records nothing for a failed call (isError)", async () => {
    await run("try:\n    edge.fail(message='no')\nexcept ToolError:\n    pass");
    expect(gateway.shapes.get("edge", "fail")).toBeUndefined();
    expect(observed("edge", "fail")).toBeNull();
  });

  it("shows a shape only to callers that may see the tool", async () => {
    await run("everything.get_annotated_message(messageType='success')");
    const echoOnly: Caller = { grants: new Map([["everything", ["echo"]]]), label: "echo-only", keyId: "k1" };
    const catalog = gateway.catalogFor(echoOnly);
    expect(catalog.servers.map((s) => s.name)).toEqual(["everything"]);
    expect(catalog.servers[0]!.tools.map((t) => [t.name, t.observed ? shapeText(t.observed) : null])).toEqual([["echo", "str"]]);
    expect(observed("everything", "get-annotated-message")).not.toBeNull();
  });

  it("a script run under a key records the shapes of the calls it may make", async () => {
    const narrow: Caller = { grants: new Map([["everything", ["get-resource-links"]]]), label: "narrow", keyId: "k2" };
    await run("everything.get_resource_links(count=2)", narrow);
    expect(observed("everything", "get-resource-links", narrow)).toMatch(/^list\[/);
  });

  it("with code_mode_observed_shapes off records nothing and shows nothing, stored shapes included", async () => {
    gateway.settings = { ...gateway.settings, observedShapes: false };
    const seen = changes();
    await run("everything.get_resource_reference(resourceType='Text', resourceId=1)\neverything.echo(message='x')");
    expect(seen).toEqual([]);
    expect(gateway.shapes.get("everything", "get-resource-reference")).toBeUndefined();
    expect(gateway.catalogFor(UNRESTRICTED).servers.flatMap((s) => s.tools).filter((t) => t.observed)).toEqual([]);
    gateway.settings = { ...gateway.settings, observedShapes: true };
    expect(observed("everything", "echo")).toBe("str");
  });

  it("moves a renamed client's shapes and drops a deleted one's", async () => {
    const before = gateway.shapes.get("edge", "echo");
    expect(before).toBeDefined();
    const seen = changes();
    await gateway.renameClient("edge", "edge2");
    expect(gateway.shapes.get("edge", "echo")).toBeUndefined();
    expect(gateway.shapes.get("edge2", "echo")).toEqual(before);
    await gateway.deleteClient("edge2");
    expect(gateway.shapes.entries().filter((e) => e.server.startsWith("edge"))).toEqual([]);
    expect(seen).toEqual([{ type: "move", from: "edge", to: "edge2" }, { type: "drop", server: "edge2" }]);
  });
});
