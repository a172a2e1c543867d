// Gateway instances as their own processes (the built CLI), for the scale-out tests and bench:
// each gets its own data folder and the same config.json, and is stopped with SIGTERM (or killed).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { listeningUrl } from "./listening.js";

/** The repository: two folders up from the source, three from its build (dist/test/gateway, for the benches). */
const HERE = fileURLToPath(new URL(".", import.meta.url));
const ROOT = existsSync(join(HERE, "../../package.json")) ? join(HERE, "../..") : join(HERE, "../../..");
const GATEWAY = join(ROOT, "dist/src/cli/gateway.js");

export interface Instance {
  child: ChildProcess;
  url: string;
  /** What the process printed on stderr so far. */
  stderr(): string;
  /** SIGTERM, and the exit awaited; nothing when it has exited already. */
  stop(): Promise<void>;
}

/** Starts the built gateway on `config` with a data folder of its own, on a free port. */
export async function startInstance(config: string, env: NodeJS.ProcessEnv = {}): Promise<Instance> {
  const data = mkdtempSync(join(tmpdir(), "cmg-instance-"));
  const child = spawn(process.execPath, [GATEWAY, "--config", config, "--data", data, "--port", "0"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, ...env },
  });
  let printed = "";
  child.stderr!.on("data", (d: Buffer) => (printed += d.toString()));
  const url = await listeningUrl(child, 30_000);
  return {
    child,
    url,
    stderr: () => printed,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Polls `check` until it answers true; answers the milliseconds that took, or throws after `timeoutMs` naming `what`. */
export async function within(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`${what}: not seen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
