// A gateway whose port is taken exits non-zero at once with a message naming the port, after
// closing the upstream servers it had started (before, it printed "fatal: EADDRINUSE" and its
// stdio children kept it running).
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { processesMarked } from "../fixtures/marked-processes.js";
import { listeningUrl } from "./listening.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const GATEWAY = join(ROOT, "dist/src/cli/gateway.js");
const EDGE = join(ROOT, "dist/test/fixtures/edge-server.js");

it("exits non-zero with a clear message, leaving no child process, when its port is in use", async () => {
  const dir = mkdtempSync(join(tmpdir(), "cmg-port-"));
  const mark = randomUUID();
  const config = join(dir, "config.json");
  writeFileSync(config, JSON.stringify({ mcpServers: { edge: { command: process.execPath, args: [EDGE], env: { EDGE_MARK: mark } } } }));
  const first = spawn(process.execPath, [GATEWAY, "--config", config, "--data", join(dir, "one"), "--port", "0"], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
  try {
    const port = new URL(await listeningUrl(first, 20_000)).port;
    const firstChildren = await until(() => processesMarked(mark), (p) => p.length === 1);
    const started = Date.now();
    const second = spawn(process.execPath, [GATEWAY, "--config", config, "--data", join(dir, "two"), "--port", port], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    second.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => second.once("exit", resolve));
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(stderr).toContain(`code-mode-gateway: port ${port} on 127.0.0.1 is in use; pick another with --port\n`);
    expect(stderr).not.toContain("fatal");
    // The second gateway's edge server is gone; the first one's is untouched.
    expect(await until(() => processesMarked(mark), (p) => p.length === 1)).toEqual(firstChildren);
  } finally {
    first.kill("SIGTERM");
    await new Promise((resolve) => first.once("exit", resolve));
  }
}, 30_000);

async function until<T>(probe: () => T, done: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (done(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}
