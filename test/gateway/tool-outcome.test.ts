// Gateway.callTool answers {text, isError, execution}: every face renders the text, and a script's
// structured result rides along (the playground shows it) for executeToolCode and
// executeToolScript only. Real servers: the edge server over stdio, as a code-mode client and as
// a direct one (test/fixtures/edge-server.ts, built to dist/).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNRESTRICTED } from "../../src/gateway/caller.js";
import { entryOf, type ExecutionEvent } from "../../src/gateway/exec-log.js";
import { DEFAULT_SETTINGS, Gateway } from "../../src/gateway/gateway.js";
import { parseClientConfig } from "../../src/upstream/config.js";

const EDGE = fileURLToPath(new URL("../../dist/test/fixtures/edge-server.js", import.meta.url));

const root = mkdtempSync(join(tmpdir(), "gw-outcome-"));
let gateway: Gateway;

beforeAll(async () => {
  gateway = new Gateway({ ...DEFAULT_SETTINGS, workspace: { root } });
  const stdio = { command: process.execPath, args: [EDGE] };
  gateway.addClient(parseClientConfig({ name: "edge", connection_type: "stdio", stdio_config: stdio, tools_to_execute: ["*"], is_code_mode_client: true }));
  gateway.addClient(parseClientConfig({ name: "plain", connection_type: "stdio", stdio_config: stdio, tools_to_execute: ["*"] }));
  await gateway.manager.settled(15_000);
  writeFileSync(join(root, "job.py"), "import sys\nprint('args', sys.argv[1:])\nRESULT = edge.add(a=2, b=3)\n");
}, 30_000);

afterAll(async () => {
  await gateway?.close();
});

describe("callTool's structured result", () => {
  it("carries a script's whole result beside the text the model reads", async () => {
    const out = await gateway.callTool("executeToolCode", { code: "print('hi')\nRESULT = edge.add(a=1, b=2)" }, UNRESTRICTED);
    expect(out.isError).toBe(false);
    expect(out.text).toContain("3");
    expect(out.execution).toMatchObject({ stdout: "hi\n", result: 3, error: null, returncode: 0 });
    expect(out.execution!.tool_calls).toMatchObject([{ server: "edge", tool: "add", ok: true }]);
  });

  it("carries a failed script's error, and says it failed", async () => {
    const out = await gateway.callTool("executeToolCode", { code: "x = 1\nraise ValueError('bad')" }, UNRESTRICTED);
    expect(out.isError).toBe(true);
    expect(out.execution?.error).toMatchObject({ type: "ValueError", message: "bad", line: 2 });
  });

  it("carries the result of a workspace script run by executeToolScript, logged under that tool", async () => {
    const events: ExecutionEvent[] = [];
    gateway.on("execution", (e: ExecutionEvent) => events.push(e));
    const out = await gateway.callTool("executeToolScript", { path: "job.py", args: ["x"] }, UNRESTRICTED);
    expect(out.isError).toBe(false);
    expect(out.execution).toMatchObject({ stdout: "args ['x']\n", result: 5 });
    expect(events.map((e) => entryOf(e).tool)).toEqual(["executeToolScript"]);
  });

  it("has no execution for the catalog's meta-tools or a direct tool", async () => {
    const listed = await gateway.callTool("listToolFiles", {}, UNRESTRICTED);
    expect([listed.isError, "execution" in listed]).toEqual([false, false]);
    const direct = await gateway.callTool("plain-add", { a: 1, b: 2 }, UNRESTRICTED);
    expect([direct.isError, direct.text, "execution" in direct]).toEqual([false, expect.stringContaining("3"), false]);
  });
});
