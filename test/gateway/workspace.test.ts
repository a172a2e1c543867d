// workspace_root in config.json, and the executeToolScript meta-tool it enables, on a Gateway
// with a real upstream server (test/fixtures/tensor-server.ts, built to dist/).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseGatewayConfig } from "../../src/gateway/config-file.js";
import { UNRESTRICTED } from "../../src/gateway/caller.js";
import { DEFAULT_SETTINGS, Gateway } from "../../src/gateway/gateway.js";
import { hasTensorFixtures, tensorClient, wireOf } from "../tensor/fixtures.js";

describe("workspace_root in config.json", () => {
  it("is off by default", () => {
    expect(parseGatewayConfig({}).settings.workspace).toBeUndefined();
  });

  it("names an existing folder, with an optional write cap", () => {
    const dir = mkdtempSync(join(tmpdir(), "gw-ws-"));
    expect(parseGatewayConfig({ workspace_root: dir, workspace_max_write_bytes: 4096 }).settings.workspace).toEqual({ root: dir, maxWriteBytes: 4096 });
    expect(parseGatewayConfig({ workspace_root: dir, workspace_max_created: 50 }).settings.workspace).toEqual({ root: dir, maxCreated: 50 });
  });

  it("reports what is wrong, naming the field", () => {
    const file = join(mkdtempSync(join(tmpdir(), "gw-ws-")), "f.txt");
    writeFileSync(file, "");
    expect(() => parseGatewayConfig({ workspace_root: "/no/such/folder" })).toThrow("workspace_root: the folder /no/such/folder does not exist");
    expect(() => parseGatewayConfig({ workspace_root: file })).toThrow(`workspace_root: ${file} is not a folder`);
    expect(() => parseGatewayConfig({ workspace_root: 3 })).toThrow("workspace_root: must be the path of a folder");
    expect(() => parseGatewayConfig({ workspace_max_write_bytes: 10 })).toThrow("workspace_max_write_bytes: is set but workspace_root is not");
    expect(() => parseGatewayConfig({ workspace_root: tmpdir(), workspace_max_write_bytes: 1.5 })).toThrow("workspace_max_write_bytes: must be a positive integer");
    expect(() => parseGatewayConfig({ workspace_max_created: 10 })).toThrow("workspace_max_created: is set but workspace_root is not");
    expect(() => parseGatewayConfig({ workspace_root: tmpdir(), workspace_max_created: 0 })).toThrow("workspace_max_created: must be a positive integer (files and folders)");
  });
});

describe("executeToolScript", () => {
  const root = mkdtempSync(join(tmpdir(), "gw-ws-"));
  const gateway = new Gateway({ ...DEFAULT_SETTINGS, workspace: { root } });
  const plain = new Gateway();

  beforeAll(async () => {
    for (const g of [gateway, plain]) {
      g.addClient(tensorClient());
      await g.manager.settled(20_000);
    }
    mkdirSync(join(root, "jobs"));
    writeFileSync(
      join(root, "jobs", "stats.py"),
      "import sys, workspace\nt = tensors.load(name=sys.argv[1])\nworkspace.write_json('out.json', t.tolist())\nprint('argv', sys.argv)\nRESULT = {'sum': t.sum(), 'tensor': t}\n",
    );
    writeFileSync(join(root, "jobs", "boom.py"), "x = 1\nraise ValueError('bad input')\n");
  }, 30_000);

  afterAll(async () => {
    await gateway.close();
    await plain.close();
  });

  it("is offered only when a workspace is configured", () => {
    expect(gateway.listTools(UNRESTRICTED).map((t) => t.name)).toContain("executeToolScript");
    expect(plain.listTools(UNRESTRICTED).map((t) => t.name)).not.toContain("executeToolScript");
  });

  it.skipIf(!hasTensorFixtures)("runs a .py file of the workspace with its arguments, answering like executeToolCode", async () => {
    const events: unknown[] = [];
    gateway.on("execution", (e) => events.push(e));
    const out = await gateway.callTool("executeToolScript", { path: "jobs/stats.py", args: ["int32_4"] }, UNRESTRICTED);
    expect(out.isError).toBe(false);
    const wire = wireOf("int32_4");
    expect(out.text).toContain("argv ['jobs/stats.py', 'int32_4']\nExecution completed successfully.\nReturn value:\n{\n  \"sum\": -2,\n  \"tensor\": \"" + wire + '"\n}');
    expect(out.text).toContain("tensors.load ok");
    expect(JSON.parse(readFileSync(join(root, "out.json"), "utf8"))).toEqual([1, -2, 3, -4]);
    expect(events).toHaveLength(1);
  });

  it("reports a script's error with its file name and line", async () => {
    const out = await gateway.callTool("executeToolScript", { path: "jobs/boom.py" }, UNRESTRICTED);
    expect(out.isError).toBe(true);
    expect(out.text).toContain("Execution runtime error:\nValueError: bad input\n  at line 2");
  });

  it("refuses paths outside the workspace, files that are not .py, and bad args", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ path: "../etc/x.py" }, "Cannot run the script: ValueError: '..' is not allowed in workspace paths"],
      [{ path: "/etc/x.py" }, "Cannot run the script: ValueError: workspace paths are relative"],
      [{ path: "jobs/missing.py" }, 'Cannot run the script: FileNotFoundError: no such file in the workspace: "jobs/missing.py"'],
      [{ path: "out.json" }, 'Cannot run the script: "out.json" is not a .py file'],
      [{ path: "jobs/stats.py", args: [1] }, "Cannot run the script: 'args' must be a list of strings"],
      [{}, "Cannot run the script: 'path' must be the script's path"],
    ];
    for (const [args, text] of cases) {
      const out = await gateway.callTool("executeToolScript", args, UNRESTRICTED);
      expect(out.isError, JSON.stringify(args)).toBe(true);
      expect(out.text, JSON.stringify(args)).toContain(text);
    }
  });

  it("is an unknown tool without a workspace", async () => {
    await expect(plain.callTool("executeToolScript", { path: "jobs/stats.py" }, UNRESTRICTED)).rejects.toThrow("unknown tool 'executeToolScript'");
  });

  it("gives executeToolCode the workspace too", async () => {
    const out = await gateway.callTool("executeToolCode", { code: "import workspace\nRESULT = workspace.exists('jobs/stats.py')" }, UNRESTRICTED);
    expect(out.text).toContain("Return value:\ntrue");
  });
});
