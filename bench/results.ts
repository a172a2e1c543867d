// bench/RESULTS.md: each benchmark owns one section (between HTML comment markers) and rewrites
// only that, with the command that produced it, the date and the machine.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";

const RESULTS = fileURLToPath(new URL("../../bench/RESULTS.md", import.meta.url));

export function machine(): string {
  const cpu = cpus()[0]?.model.trim() ?? "unknown CPU";
  // Node's own flags matter: the young generation's size changes how long allocation-heavy runs take.
  const flags = process.execArgv.filter((a) => a.startsWith("--max-") || a.startsWith("--min-"));
  return `${cpus().length} cores (${cpu}), Node ${process.version}${flags.length ? ` with ${flags.join(" ")}` : ""}`;
}

/** Replaces (or appends) the section `name` of bench/RESULTS.md. */
export function writeSection(name: string, title: string, command: string, body: string): void {
  const begin = `<!-- ${name}:begin -->`;
  const end = `<!-- ${name}:end -->`;
  const date = new Date().toISOString().slice(0, 10);
  const section = [
    begin,
    `## ${title}`,
    "",
    `Command: \`${command}\` — ${date}, ${machine()}.`,
    "",
    body.trim(),
    end,
  ].join("\n");
  const current = existsSync(RESULTS) ? readFileSync(RESULTS, "utf8") : "# Benchmark results\n";
  const start = current.indexOf(begin);
  const stop = current.indexOf(end);
  const next =
    start >= 0 && stop > start
      ? current.slice(0, start) + section + current.slice(stop + end.length)
      : `${current.trimEnd()}\n\n${section}\n`;
  writeFileSync(RESULTS, next);
}

/** The median of a list of numbers. */
/** The load averages (1, 5, 15 min) as `uptime` prints them: how busy the machine was. */
export function loadText(): string {
  return loadavg().map((l) => l.toFixed(2)).join(", ");
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
