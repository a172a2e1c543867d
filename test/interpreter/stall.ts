// How long a run held the event loop: a timer ticks every `periodMs` while it goes on, and the
// longest gap between two ticks (or the last tick and the end) is the longest stall. The hostile
// scripts and the fuzzer measure every run with it (SPEC §2: no operation may hold the loop long).
import { cpus, loadavg } from "node:os";
import { execute, type ExecuteOptions, type SandboxResult } from "../../src/interpreter/execute.js";

/**
 * How much slower than a machine with a free core this one runs now: the run queue per core
 * (1-minute load average), at least 1. Time bounds are for a free core; a CI machine running
 * other suites, or a helper's build, multiplies every wall time and stall by about this much.
 */
export function loadSlack(): number {
  return Math.max(1, loadavg()[0]! / cpus().length);
}

export interface Measured {
  result: SandboxResult;
  wallMs: number;
  stallMs: number;
}

/** Runs `source` (at default limits unless `options` says otherwise), timing it and its longest stall. */
export async function measure(source: string, options: ExecuteOptions = {}, periodMs = 2): Promise<Measured> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, periodMs);
  const start = performance.now();
  const result = await execute(source, options);
  const wallMs = performance.now() - start;
  // The tick that a stall at the very end delayed.
  await new Promise((resolve) => setTimeout(resolve, periodMs + 3));
  clearInterval(timer);
  stallMs = Math.max(stallMs, performance.now() - last);
  return { result, wallMs, stallMs };
}
