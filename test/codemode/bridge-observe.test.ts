// The bridge's observe hook (issue 20) against the edge-case server over stdio: told of every
// successful result of a tool without an outputSchema, as the script receives it, and never able
// to fail the call.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BridgeOptions, buildHosts } from "../../src/codemode/bridge.js";
import { defaultCodecs } from "../../src/codemode/media.js";
import { DEFAULT_LIMITS } from "../../src/interpreter/budget.js";
import { execute } from "../../src/interpreter/execute.js";
import { PyDict, type Value } from "../../src/interpreter/values.js";
import { parseClientConfig } from "../../src/upstream/config.js";
import { UpstreamManager } from "../../src/upstream/manager.js";

const EDGE = fileURLToPath(new URL("../../dist/test/fixtures/edge-server.js", import.meta.url));

describe("the bridge's observe hook", () => {
  const manager = new UpstreamManager({ connectTimeoutMs: 10_000, backoffMs: { initial: 100, max: 400 } });

  beforeAll(async () => {
    manager.add(parseClientConfig({ name: "edge", connection_type: "stdio", stdio_config: { command: process.execPath, args: [EDGE] }, tools_to_execute: ["*"], is_code_mode_client: true }));
    await manager.settled(20_000);
  }, 30_000);

  afterAll(() => manager.closeAll());

  async function run(source: string, options: Partial<BridgeOptions> = {}) {
    const seen: { server: string; tool: string; value: Value }[] = [];
    const hosts = buildHosts({
      connections: manager.list(),
      visible: () => true,
      authorize: () => null,
      limits: DEFAULT_LIMITS,
      codecs: defaultCodecs(),
      observe: (server, tool, value) => void seen.push({ server, tool, value }),
      ...options,
    });
    const result = await execute(source, { hosts });
    return { result, seen };
  }

  it("is told the value the script receives, JSON text parsed as the bridge parses it", async () => {
    const { result, seen } = await run(`RESULT = edge.echo(text='{"id": 7, "tags": ["a"]}')["id"]`);
    expect(result.error).toBeNull();
    expect(result.result).toBe(7);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.server).toBe("edge");
    expect(seen[0]!.tool).toBe("echo");
    expect(seen[0]!.value).toBeInstanceOf(PyDict);
    expect([...(seen[0]!.value as PyDict).keys()]).toEqual(["id", "tags"]);
  });

  it("is not told of a tool with an outputSchema, nor of a failed call", async () => {
    const { result, seen } = await run("a = edge.add(a=1, b=2)\ntry:\n    edge.fail(message='nope')\nexcept ToolError:\n    pass\nRESULT = a");
    expect(result.error).toBeNull();
    expect(result.result).toBe(3);
    expect(seen).toEqual([]);
  });

  it("cannot fail the call: what it throws is ignored", async () => {
    const { result } = await run("RESULT = edge.echo(text='still here')", {
      observe: () => {
        throw new Error("the recorder broke");
      },
    });
    expect(result.error).toBeNull();
    expect(result.result).toBe("still here");
  });

  it("names the tool actually called when a plugin rewrote the call", async () => {
    const { seen } = await run("edge.echo(text='x')", {
      beforeCall: async (call) => ({ ...call, tool: "env", arguments: { name: "PATH" } }),
    });
    expect(seen.map((s) => s.tool)).toEqual(["env"]);
  });
});
