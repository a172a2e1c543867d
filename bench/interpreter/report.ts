// The tables of bench:interpreter: one per scenario, each engine's median per workload, ours
// divided by CPython and by Monty, and the geometric means.
import { median } from "../results.js";
import type { Workload } from "./workloads.js";

/** Each engine's samples per workload (samples[engine][workload] = the runs' figures). */
export type Samples = Map<string, number[][]>;

export const fmt = (t: number) => (t >= 100 ? t.toFixed(0) : t >= 10 ? t.toFixed(1) : t.toFixed(2));
export const geomean = (xs: number[]) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
export const met = (ok: boolean) => (ok ? "**met**" : "**missed**");

/** The median of an engine's samples for workload `i`. */
export function figure(samples: Samples, engine: string, i: number): number {
  const runs = samples.get(engine)?.[i];
  if (!runs?.length) throw new Error(`no figure for ${engine}, workload ${i}`);
  return median(runs);
}

/** Geometric mean of `engine ÷ peer` over the workloads `which` picks (all by default). */
export function ratio(samples: Samples, workloads: Workload[], engine: string, peer: string, which: (w: Workload) => boolean = () => true): number {
  const picked = workloads.flatMap((w, i) => (which(w) ? [figure(samples, engine, i) / figure(samples, peer, i)] : []));
  return geomean(picked);
}

export interface Column {
  engine: string;
  title: string;
}

/**
 * A markdown table: a row per workload (unseen ones marked *), the columns' medians, ours ÷
 * CPython and ours ÷ Monty, then the geometric means (over all the workloads, and over the
 * unseen ones when there are some among others).
 */
export function scenarioTable(heading: string, workloads: Workload[], samples: Samples, columns: Column[]): string {
  const cell = (engine: string, i: number) => fmt(figure(samples, engine, i));
  const rows = workloads.map((w, i) => {
    const ours = figure(samples, "ours", i);
    const ratios = ["cpython", "monty"].map((peer) => (ours / figure(samples, peer, i)).toFixed(2));
    return `| ${w.name}${w.unseen ? " *" : ""} | ${columns.map((c) => cell(c.engine, i)).join(" | ")} | ${ratios.join(" | ")} |`;
  });
  const means = (label: string, which: (w: Workload) => boolean) => {
    const blanks = columns.map(() => "").join(" | ");
    const r = ["cpython", "monty"].map((peer) => `**${ratio(samples, workloads, "ours", peer, which).toFixed(2)}**`);
    return `| **${label}** | ${blanks} | ${r.join(" | ")} |`;
  };
  rows.push(means(`geometric mean, ${workloads.length} workloads`, () => true));
  const unseen = workloads.filter((w) => w.unseen).length;
  if (unseen > 0 && unseen < workloads.length) {
    rows.push(means(`geometric mean, the ${workloads.length - unseen} tuned`, (w) => !w.unseen));
    rows.push(means(`geometric mean, the ${unseen} unseen *`, (w) => w.unseen));
  }
  return [
    `| ${heading} | ${columns.map((c) => c.title).join(" | ")} | ours ÷ CPython | ours ÷ Monty |`,
    `|---|${columns.map(() => "---:").join("|")}|---:|---:|`,
    ...rows,
  ].join("\n");
}

/** The results that differ from the reference, one line each. */
export function mismatches(workloads: Workload[], expected: string[], found: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [engine, results] of found) {
    workloads.forEach((w, i) => {
      if (results[i] !== expected[i]) out.push(`${w.file}: ${engine} gave ${results[i]}, CPython ${expected[i]}`);
    });
  }
  return out;
}
