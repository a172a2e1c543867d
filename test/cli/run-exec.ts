// Runs code-mode-exec as a real process from the build in dist/ (npm test builds first).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const EXEC_BIN = fileURLToPath(new URL("../../dist/src/cli/exec.js", import.meta.url));

/** Its exit code, its output, and the SandboxResult it printed (null when it printed nothing). */
export function run(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [EXEC_BIN, ...args], { input, encoding: "utf8", timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json: r.stdout.trim() ? JSON.parse(r.stdout) : null };
}
