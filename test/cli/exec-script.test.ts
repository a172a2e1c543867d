// code-mode-exec with script arguments, --env, a workspace, and tensors from a real MCP server
// (run as real processes from the build in dist/; npm test builds first).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hasTensorFixtures, TENSOR_FIXTURES as FIXTURES, TENSOR_SERVER, wireOf } from "../tensor/fixtures.js";
import { run } from "./run-exec.js";

const dir = mkdtempSync(join(tmpdir(), "cme-script-"));


describe("code-mode-exec with arguments, env and a workspace", () => {
  it("passes the arguments after -- as sys.argv and --env pairs as env", () => {
    const file = join(dir, "args.py");
    writeFileSync(file, "import sys\nRESULT = {'argv': sys.argv, 'mode': env['MODE'], 'eq': env['EQ']}\n");
    const r = run([file, "--env", "MODE=fast", "--env", "EQ=a=b", "--", "a", "--not-a-flag", "c d"]);
    expect(r.code).toBe(0);
    expect(r.json.result).toEqual({ argv: [file, "a", "--not-a-flag", "c d"], mode: "fast", eq: "a=b" });
    expect(run(["-c", "import sys\nRESULT = sys.argv", "--", "x"]).json.result).toEqual(["-c", "x"]);
  });

  it("gives the script a workspace folder with --workspace, capped by --workspace-max-write-bytes", () => {
    const ws = mkdtempSync(join(tmpdir(), "cme-ws-"));
    writeFileSync(join(ws, "in.json"), '{"n": 20}');
    const ok = run(["-c", "import workspace\nn = workspace.read_json('in.json')['n']\nworkspace.write_text('out/n.txt', str(n * 2))\nRESULT = workspace.list()", "--workspace", ws]);
    expect(ok.json.error).toBeNull();
    expect(ok.json.result).toEqual(["in.json", "out/"]);
    expect(readFileSync(join(ws, "out", "n.txt"), "utf8")).toBe("40");
    const capped = run(["-c", "import workspace\nworkspace.write_text('big.txt', 'x' * 100)", "--workspace", ws, "--workspace-max-write-bytes", "50"]);
    expect(capped.code).toBe(1);
    expect(capped.json.error.message).toContain("workspace_max_write_bytes exceeded (limit 50)");
    expect(run(["-c", "import workspace"]).json.error.type).toBe("ImportError");
  });

  it("takes workspace_root from --config", () => {
    const ws = mkdtempSync(join(tmpdir(), "cme-ws-"));
    writeFileSync(join(ws, "hello.txt"), "from config");
    const config = join(dir, "ws-config.json");
    writeFileSync(config, JSON.stringify({ workspace_root: ws }));
    expect(run(["-c", "import workspace\nRESULT = workspace.read_text('hello.txt')", "--config", config]).json.result).toBe("from config");
  });

  it("exits 2 for a bad --env, a missing workspace folder or a bad write cap", () => {
    const env = run(["-c", "1", "--env", "NOEQUALS"]);
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('--env needs KEY=VALUE, not "NOEQUALS"');
    const missing = run(["-c", "1", "--workspace", join(dir, "nope")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--workspace: the folder");
    expect(run(["-c", "1", "--workspace", dir, "--workspace-max-write-bytes", "-3"]).code).toBe(2);
  });

  it.skipIf(!hasTensorFixtures)("decodes tensor fields of a configured server and returns a tensor in RESULT as its wire payload", () => {
    const config = join(dir, "tensors.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcp: {
          client_configs: [
            { name: "tensors", connection_type: "stdio", stdio_config: { command: process.execPath, args: [TENSOR_SERVER, FIXTURES] }, tools_to_execute: ["*"], is_code_mode_client: true },
          ],
        },
      }),
    );
    const ws = mkdtempSync(join(tmpdir(), "cme-ws-"));
    mkdirSync(join(ws, "jobs"));
    const script = join(ws, "jobs", "mnist.py");
    writeFileSync(
      script,
      [
        "import sys, workspace",
        "t = tensors.load(name=sys.argv[1])",
        "workspace.write_json('stats.json', {'shape': list(t.shape), 'max': t.max(), 'min': t.min()})",
        "RESULT = {'tensor': t, 'first_row': t[0, 0]}",
      ].join("\n"),
    );
    const r = run([script, "--config", config, "--workspace", ws, "--", "float32_1x28x28_mnist"]);
    expect(r.json.error).toBeNull();
    expect(r.json.result.tensor).toBe(wireOf("float32_1x28x28_mnist"));
    expect(typeof r.json.result.first_row).toBe("string");
    const stats = JSON.parse(readFileSync(join(ws, "stats.json"), "utf8"));
    expect(stats.shape).toEqual([1, 28, 28]);
    expect(stats.min).toBe(-0.4242129623889923);
  });
});
