// Debian's Prometheus (package `prometheus`, installed by .ci/run): `promtool check metrics` for
// the text format and its lint rules, and a real Prometheus server that scrapes the gateway, to
// read the values back through its query API, as an operator's dashboard would.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** `promtool check metrics` on `text`: its exit status and the problems it printed. */
export function promtoolCheck(text: string): { status: number | null; problems: string[] } {
  const run = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
  if (run.error) throw new Error(`promtool did not run (apt-get install prometheus): ${run.error.message}`);
  const problems = `${run.stdout}\n${run.stderr}`.split("\n").map((l) => l.trim()).filter(Boolean);
  return { status: run.status, problems };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface Sample {
  labels: Record<string, string>;
  value: number;
}

export interface PrometheusServer {
  /** The instant vector of a PromQL query. */
  query(promql: string): Promise<Sample[]>;
  close(): Promise<void>;
}

/** A Prometheus server scraping `target` (host:port) every second, with `token` as its bearer token. */
export async function startPrometheus(target: string, token: string): Promise<PrometheusServer> {
  const dir = mkdtempSync(join(tmpdir(), "cmg-prometheus-"));
  const port = await freePort();
  const config = [
    "global:",
    "  scrape_interval: 1s",
    "scrape_configs:",
    "  - job_name: gateway",
    "    metrics_path: /metrics",
    "    authorization:",
    "      type: Bearer",
    `      credentials: ${token}`,
    "    static_configs:",
    `      - targets: ["${target}"]`,
  ].join("\n");
  writeFileSync(join(dir, "prometheus.yml"), config);
  const child: ChildProcess = spawn(
    "prometheus",
    [`--config.file=${join(dir, "prometheus.yml")}`, `--storage.tsdb.path=${join(dir, "data")}`, `--web.listen-address=127.0.0.1:${port}`],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let log = "";
  child.stderr!.on("data", (c: Buffer) => (log = (log + c.toString()).slice(-8000)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const ready = await fetch(`${base}/-/ready`).then((r) => r.ok, () => false);
    if (ready) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`prometheus did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    async query(promql) {
      const response = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(promql)}`);
      const body = (await response.json()) as { status: string; error?: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
      if (body.status !== "success") throw new Error(`query ${promql}: ${body.error}`);
      return body.data.result.map((r) => ({ labels: r.metric, value: Number(r.value[1]) }));
    },
    async close() {
      child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
