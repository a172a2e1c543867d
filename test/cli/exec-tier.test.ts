// code-mode-exec runs its one script on the JavaScript tier from the start (exec-run.ts
// processTier): a fresh process answers exactly as on closures, in results, output, errors,
// tracebacks and step counts, and PY_CODEGEN chooses the tier at run time, even from the start-up
// snapshot. Real processes from the build in dist/ (npm test builds first).
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { processTier } from "../../src/cli/exec-run.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SNAPSHOT = ["--max-semi-space-size=32", "--snapshot-blob", join(ROOT, "dist/snapshot/code-mode-exec.blob"), "--"];
const BUNDLED = ["--max-semi-space-size=32", join(ROOT, "dist/bin/code-mode-exec.js")];

function exec(node: string[], args: string[], tier: string | undefined) {
  const env = { ...process.env };
  delete env.PY_CODEGEN;
  if (tier !== undefined) env.PY_CODEGEN = tier;
  const r = spawnSync(process.execPath, [...node, ...args], { cwd: ROOT, encoding: "utf8", timeout: 30_000, env });
  return { code: r.status, stderr: r.stderr, json: r.stdout.trim() ? { ...JSON.parse(r.stdout), duration_seconds: 0 } : null };
}

// Loops long and short, calls, comprehensions, str and dict work, printing, and runs that end in
// an error or a limit at a step deep inside a hot loop.
const SCRIPTS = [
  "t = 0\nfor i in range(50000):\n    t += i % 7\nRESULT = t",
  "def f(n):\n    return n if n < 2 else f(n - 1) + f(n - 2)\nRESULT = [f(18), [x * x for x in range(10) if x % 2]]",
  "d = {}\nfor w in ('a b c ' * 2000).split():\n    d[w] = d.get(w, 0) + 1\nprint(sorted(d.items()))\nRESULT = f'{len(d)}:{d[\"a\"]:>6}'",
  "def g(x):\n    return 10 // (x - 4321)\nt = 0\nfor i in range(40000):\n    t += g(i)",
  "xs = []\nwhile True:\n    xs.append('ab' * 500)",
  "i = 0\nwhile True:\n    i += 1",
];

describe("code-mode-exec's tier", () => {
  it("is the JavaScript tier for every unit unless PY_CODEGEN says never or auto", () => {
    expect(processTier({})).toBe("always");
    expect(processTier({ PY_CODEGEN: "always" })).toBe("always");
    expect(processTier({ PY_CODEGEN: "never" })).toBe("never");
    expect(processTier({ PY_CODEGEN: "auto" })).toBe("auto");
  });

  it("answers as the closures do, from the snapshot and the bundled binary", () => {
    for (const source of SCRIPTS) {
      const args = ["-c", source, "--max-steps", "300000", "--max-memory-bytes", "4000000"];
      const closures = exec(SNAPSHOT, args, "never");
      expect(closures.json).not.toBeNull();
      expect(exec(SNAPSHOT, args, undefined)).toEqual(closures);
      expect(exec(SNAPSHOT, args, "auto")).toEqual(closures);
      expect(exec(BUNDLED, args, undefined)).toEqual(closures);
    }
  });

  it("ends the scripts above as intended: a result, an error with its traceback, each limit", () => {
    const codes = SCRIPTS.map((source) => exec(SNAPSHOT, ["-c", source, "--max-steps", "300000", "--max-memory-bytes", "4000000"], undefined).json);
    expect(codes[0]).toMatchObject({ result: 149997, error: null });
    expect(codes[3]!.error).toMatchObject({ type: "ZeroDivisionError", line: 2 });
    expect(codes[3]!.error.traceback).toContain("in g");
    expect(codes[4]!.error.message).toContain("max_memory_bytes");
    expect(codes[5]!.error.message).toContain("max_steps");
    expect(codes[5]!.stats.steps).toBe(300001);
  });
});
