// A call made while servers are still making their first connection (just after startup, or
// just after a client was added) waits for them, a bounded time, instead of seeing them missing.
// Real servers: the edge server (test/fixtures/edge-server.ts, built to dist/), started late by sh.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { UNRESTRICTED } from "../../src/gateway/caller.js";
import { Gateway } from "../../src/gateway/gateway.js";
import type { ClientConfig } from "../../src/upstream/config.js";

const EDGE = join(fileURLToPath(new URL("../..", import.meta.url)), "dist/test/fixtures/edge-server.js");

/** The edge server, started after `delay` seconds. */
function lateEdge(name: string, delay: number, codeMode: boolean): ClientConfig {
  return {
    name,
    connection_type: "stdio",
    stdio_config: { command: "sh", args: ["-c", `sleep ${delay}; exec "${process.execPath}" "${EDGE}"`] },
    tools_to_execute: ["*"],
    is_code_mode_client: codeMode,
  } as ClientConfig;
}

describe("calls made during servers' first connection", () => {
  let gateway: Gateway;
  afterEach(async () => {
    await gateway.close();
  });

  it("a script waits for a code-mode server that is still connecting, then calls it", async () => {
    gateway = new Gateway();
    gateway.addClient(lateEdge("edge", 1, true));
    expect(gateway.manager.get("edge")!.state).toBe("connecting");
    const run = await gateway.callTool("executeToolCode", { code: "RESULT = edge.echo(text='early')" }, UNRESTRICTED);
    expect(run.isError).toBe(false);
    expect(run.text).toContain("early");
  }, 20_000);

  it("a direct tool call waits for its server's first connection", async () => {
    gateway = new Gateway();
    gateway.addClient(lateEdge("slow", 1, false));
    const run = await gateway.callTool("slow-echo", { text: "direct" }, UNRESTRICTED);
    expect(run.text).toContain("direct");
  }, 20_000);

  it("the wait is bounded: a server that takes too long is missing, the others work", async () => {
    gateway = new Gateway();
    gateway.addClient(lateEdge("edge", 0, true));
    await gateway.manager.settled(10_000);
    gateway.addClient(lateEdge("hung", 60, true));
    const started = performance.now();
    const run = await gateway.callTool("executeToolCode", { code: "a = edge.echo(text='ok')\nRESULT = [a, hung.echo(text='x')]" }, UNRESTRICTED);
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThan(4_500);
    expect(waited).toBeLessThan(9_000);
    expect(run.isError).toBe(true);
    expect(run.text).toContain("NameError");
    expect(run.text).toContain("hung");
  }, 20_000);
});
