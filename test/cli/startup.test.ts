// code-mode-exec's start-up (issue 21): without --config it loads no upstream module (no MCP
// SDK, zod or ajv), and its three forms (tsc's output, the bundled binary, the start-up snapshot)
// answer alike. Real processes from the build in dist/ (npm test builds first).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "cme-startup-"));
const SEMI = "--max-semi-space-size=32";

/** The three ways to start code-mode-exec, as Node arguments before the program's own. */
const FORMS = {
  tsc: [SEMI, join(ROOT, "dist/src/cli/exec.js")],
  bundled: [SEMI, join(ROOT, "dist/bin/code-mode-exec.js")],
  snapshot: [SEMI, "--snapshot-blob", join(ROOT, "dist/snapshot/code-mode-exec.blob"), "--"],
} as const;
type Form = keyof typeof FORMS;

// Module hooks, registered by --import, that write the URL of every module Node loads to the file
// named by LOAD_LOG (the hooks run on their own thread, so they write rather than keep a list).
const HOOKS = `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  appendFileSync(process.env.LOAD_LOG, url + "\\n");
  return next(url, context);
}`;
const REGISTER = `import { register } from "node:module";
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOKS)}`)});`;
const RECORD = `data:text/javascript,${encodeURIComponent(REGISTER)}`;

function exec(form: Form, args: string[], options: { input?: string; record?: boolean } = {}) {
  const log = join(dir, `loads-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(log, "");
  const node = options.record ? ["--import", RECORD, ...FORMS[form]] : [...FORMS[form]];
  const r = spawnSync(process.execPath, [...node, ...args], {
    cwd: ROOT,
    input: options.input,
    encoding: "utf8",
    timeout: 30_000,
    env: { ...process.env, LOAD_LOG: log },
  });
  const json = r.stdout.trim() ? JSON.parse(r.stdout) : null;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json, loaded: readFileSync(log, "utf8").split("\n").filter(Boolean) };
}

const UPSTREAM = /node_modules\/(@modelcontextprotocol\/sdk|zod|ajv|@mongodb-js\/zstd)\//;

const EVERYTHING = join(dir, "everything.json");
writeFileSync(
  EVERYTHING,
  JSON.stringify({
    mcp: {
      client_configs: [
        {
          name: "everything",
          connection_type: "stdio",
          stdio_config: { command: process.execPath, args: [join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js")] },
          tools_to_execute: ["echo"],
          is_code_mode_client: true,
        },
      ],
    },
  }),
);

describe("code-mode-exec start-up", () => {
  it("loads no MCP SDK, zod, ajv nor zstd without --config, and still answers", () => {
    for (const form of ["tsc", "bundled"] as const) {
      const r = exec(form, ["-c", "import json\nRESULT = json.dumps({'a': [1, 2]})"], { record: true });
      expect(r.json).toMatchObject({ result: '{"a": [1, 2]}', returncode: 0, error: null });
      // The recorder saw the run's own modules: an empty list would prove nothing.
      expect(r.loaded.some((url) => url.includes(form === "tsc" ? "/dist/src/interpreter/execute.js" : "/dist/bin/"))).toBe(true);
      expect(r.loaded.filter((url) => UPSTREAM.test(url))).toEqual([]);
    }
  });

  it("loads the upstream side when --config is given", () => {
    const r = exec("tsc", ["--config", EVERYTHING, "-c", "RESULT = everything.echo(message='hi')"], { record: true });
    expect(r.json).toMatchObject({ result: "Echo: hi", returncode: 0 });
    expect(r.loaded.some((url) => url.includes("node_modules/@modelcontextprotocol/sdk/"))).toBe(true);
  });

  it("gives the same result in each form: -c, a file, stdin, arguments, errors, limits", () => {
    const file = join(dir, "job.py");
    writeFileSync(file, "import sys, re, datetime\nprint(sys.argv)\nRESULT = [re.sub('a', 'b', 'aa'), str(datetime.date(2024, 2, 29))]\n");
    const cases: { args: string[]; input?: string }[] = [
      { args: ["-c", "RESULT = 1"] },
      { args: [file, "--", "x", "--config"] },
      { args: ["-"], input: "print('in')\nRESULT = b'\\x00ab'.hex()" },
      { args: ["-c", "{}['k']"] },
      { args: ["-c", "while True: pass", "--max-steps", "500"] },
      { args: ["-c", "import os"] },
    ];
    for (const c of cases) {
      const answers = (Object.keys(FORMS) as Form[]).map((form) => {
        const r = exec(form, c.args, { input: c.input });
        return { code: r.code, stderr: r.stderr, json: r.json && { ...r.json, duration_seconds: 0 } };
      });
      expect(answers[0]!.json).not.toBeNull();
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
    }
  });

  it("exits 2 naming a usage error in each form", () => {
    for (const form of Object.keys(FORMS) as Form[]) {
      const r = exec(form, ["-c", "1", "--max-bananas", "3"]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("unknown option --max-bananas");
    }
  });

  it("binds --config's servers in the bundled binary and from the snapshot (handed to the bundle)", () => {
    for (const form of ["bundled", "snapshot"] as const) {
      const r = exec(form, ["--config", EVERYTHING, "-c", "RESULT = everything.echo(message='hi')"]);
      expect(r.code).toBe(0);
      expect(r.json).toMatchObject({ result: "Echo: hi", returncode: 0, error: null });
      expect(r.json.tool_calls).toHaveLength(1);
    }
  });
});
