// code-mode-exec, run as a real process from the build in dist/ (npm test builds first).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { run } from "./run-exec.js";

const dir = mkdtempSync(join(tmpdir(), "cme-"));


describe("code-mode-exec", () => {
  it("runs a script file and prints one SandboxResult with exit code 0", () => {
    const file = join(dir, "ok.py");
    writeFileSync(file, "print('hi')\nRESULT = {'n': 2 ** 70, 'xs': [1.5, None]}\n");
    const r = run([file]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split("\n")).toHaveLength(1);
    expect(r.json).toMatchObject({ stdout: "hi\n", stderr: "", returncode: 0, tool_calls: [], error: null });
    expect(r.stdout).toContain('"n":1180591620717411303424');
    expect(r.json.result.xs).toEqual([1.5, null]);
    expect(typeof r.json.duration_seconds).toBe("number");
  });

  it("runs -c CODE and a script on standard input", () => {
    expect(run(["-c", "result = 6 * 7"]).json.result).toBe(42);
    expect(run(["-"], "result = 'from stdin'").json.result).toBe("from stdin");
  });

  it("exits 1 with the error when the script raises", () => {
    const r = run(["-c", "x = 1\n{}['k']"]);
    expect(r.code).toBe(1);
    expect(r.json.error).toMatchObject({ type: "KeyError", message: "'k'", line: 2 });
    expect(r.json.returncode).toBe(1);
  });

  it("exits 1 when a limit set by a flag is hit", () => {
    const r = run(["-c", "while True: pass", "--max-steps", "1000"]);
    expect(r.code).toBe(1);
    expect(r.json.error.message).toBe("max_steps exceeded (limit 1000)");
  });

  it("reads limits from a config file", () => {
    const config = join(dir, "config.json");
    writeFileSync(config, JSON.stringify({ mcp: { tool_manager_config: { code_mode_limits: { max_log_bytes: 2048 } } } }));
    const r = run(["-c", "for i in range(100): print('x' * 100)", "--config", config]);
    expect(r.json.error.message).toContain("max_log_bytes exceeded (limit 2048)");
  });

  it("exits 2 for usage errors, naming the problem", () => {
    expect(run([]).code).toBe(2);
    const bad = run(["-c", "1", "--max-nesting-depth", "5000"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("max_nesting_depth must be at most 1000");
    const unknown = run(["-c", "1", "--max-bananas", "3"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option --max-bananas");
    expect(run([join(dir, "missing.py")]).stderr).toContain("ENOENT");
  });

  it("binds the code-mode servers of --config as globals, limited to tools_to_execute", () => {
    const edge = fileURLToPath(new URL("../../dist/test/fixtures/edge-server.js", import.meta.url));
    const config = join(dir, "gateway.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcp: {
          client_configs: [
            { name: "edge", connection_type: "stdio", stdio_config: { command: process.execPath, args: [edge] }, tools_to_execute: ["echo", "add"], is_code_mode_client: true },
            { name: "direct", connection_type: "stdio", stdio_config: { command: process.execPath, args: [edge] }, tools_to_execute: ["*"] },
          ],
        },
      }),
    );
    const ok = run(["-c", "RESULT = [edge.echo(text='via config'), edge.add(a=1, b=2)]", "--config", config]);
    expect(ok.json.error).toBeNull();
    expect(ok.json.result).toEqual(["via config", 3]);
    expect(ok.json.tool_calls).toHaveLength(2);
    const hidden = run(["-c", "edge.big(bytes=1)", "--config", config]);
    expect(hidden.json.error.type).toBe("AttributeError");
    const notBound = run(["-c", "direct.echo(text='x')", "--config", config]);
    expect(notBound.json.error.type).toBe("NameError");
    expect(run(["-c", "1", "--config", join(dir, "config.json")]).code).toBe(0);
    writeFileSync(join(dir, "bad.json"), JSON.stringify({ mcp: { client_configs: [{ name: "bad-name", connection_type: "http", connection_string: "http://127.0.0.1:1/mcp" }] } }));
    const bad = run(["-c", "1", "--config", join(dir, "bad.json")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("mcp.client_configs[0].name");
  });

  it("reports a syntax error as the result's error, exit 1", () => {
    const r = run(["-c", "if x\n  pass"]);
    expect(r.code).toBe(1);
    expect(r.json.error).toMatchObject({ type: "SyntaxError", message: "expected ':'", line: 1, column: 5 });
  });
});
