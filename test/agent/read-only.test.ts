// "@read_only" in tools_to_auto_execute (issue 23, item 5): the tools whose upstream annotations
// say readOnlyHint true and destructiveHint not true run unattended; the others need approval,
// at the pre-flight and at every call a running script makes. The real memory server over stdio.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { preflight } from "../../src/agent/preflight.js";
import { preflightInput } from "../../src/agent/loop.js";
import { UNRESTRICTED } from "../../src/gateway/caller.js";
import { Gateway } from "../../src/gateway/gateway.js";
import { autoExecuteAllows } from "../../src/upstream/auto-execute.js";
import { parseClientConfig } from "../../src/upstream/config.js";

const MEMORY = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-memory/dist/index.js", import.meta.url));

let gateway: Gateway;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "cmg-readonly-"));
  gateway = new Gateway();
  gateway.addClient(
    parseClientConfig({
      name: "memory",
      connection_type: "stdio",
      stdio_config: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: join(dir, "m.jsonl") } },
      tools_to_execute: ["read_graph", "search_nodes", "create_entities", "delete_entities"],
      tools_to_auto_execute: ["@read_only"],
      is_code_mode_client: true,
    }),
  );
  await gateway.manager.settled(15000);
});

afterAll(async () => {
  await gateway?.close();
});

describe("@read_only", () => {
  it("is accepted in tools_to_auto_execute without being in tools_to_execute", () => {
    expect(gateway.clientConfigs()[0]!.tools_to_auto_execute).toEqual(["@read_only"]);
  });

  it("selects the tools the upstream annotates as read-only and not destructive", () => {
    expect(gateway.autoExecutable("memory", "read_graph")).toBe(true);
    expect(gateway.autoExecutable("memory", "search_nodes")).toBe(true);
    expect(gateway.autoExecutable("memory", "create_entities")).toBe(false);
    expect(gateway.autoExecutable("memory", "delete_entities")).toBe(false);
  });

  it.each([
    [{ readOnlyHint: true }, true],
    [{ readOnlyHint: true, destructiveHint: false }, true],
    [{ readOnlyHint: true, destructiveHint: true }, false],
    [{ readOnlyHint: "true" }, false],
    [{ readOnlyHint: false }, false],
    [undefined, false],
  ])("reads the annotations %j as auto-executable: %s", (annotations, expected) => {
    expect(autoExecuteAllows(["@read_only"], "t", annotations)).toBe(expected);
    expect(autoExecuteAllows(["t"], "t", annotations)).toBe(true);
  });

  it("lets the pre-flight approve a script of read-only calls only", () => {
    const input = preflightInput(gateway, UNRESTRICTED);
    expect(preflight("RESULT = memory.read_graph()", input).autoExecutable).toBe(true);
    expect(preflight("RESULT = memory.create_entities(entities=[])", input).reasons).toEqual([
      "line 1: memory.create_entities() calls 'create_entities', which is not in tools_to_auto_execute",
    ]);
  });

  it("refuses, while unattended, a call to a tool that is not read-only however it is reached", async () => {
    const code = "name = 'create_' + 'entities'\nRESULT = getattr(memory, name)(entities=[])";
    const outcome = await gateway.callTool("executeToolCode", { code }, UNRESTRICTED, undefined, { unattended: true });
    expect(outcome.text).toContain("PermissionError: tool 'memory.create_entities' is not in tools_to_auto_execute");
    const read = await gateway.callTool("executeToolCode", { code: "RESULT = memory.read_graph()" }, UNRESTRICTED, undefined, { unattended: true });
    expect(read.text).toContain("Execution completed successfully.");
  });
});
