// An execution owns everything it started (sleeps, tool calls, gathered tasks): all are released
// when it ends, however it ends, and a finished execution is collectable. Limits and
// cancellation cannot be caught or turned into values by any route, in either tier.
import { spawnSync } from "node:child_process";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { Budget, DEFAULT_LIMITS } from "../../src/interpreter/budget.js";
import { setCodegen } from "../../src/interpreter/tiering.js";
import { execute, type Hosts, type SandboxResult } from "../../src/interpreter/execute.js";
import { cpython } from "./cpython.js";

afterAll(() => setCodegen(process.env.PY_CODEGEN === "always" ? "always" : "auto"));

const FIXTURE = fileURLToPath(new URL("../../dist/test/fixtures/finished-executions.js", import.meta.url));

/** A server whose tools answer on a later turn, or never. */
const HOSTS: Hosts = {
  probe: {
    echo: async (args) => new Promise((resolve) => setTimeout(() => resolve(args[0] ?? null), 1)),
    big: async () => "x".repeat(2_000_000),
    never: () => new Promise(() => undefined),
  },
};

interface Outcome {
  stdout: string;
  error: string | null;
  steps: number;
}

async function runTier(source: string, tier: "never" | "always", limits?: Record<string, number>): Promise<Outcome & { result: SandboxResult }> {
  setCodegen(tier);
  const r = await execute(source, { hosts: HOSTS, limits });
  return { stdout: r.stdout, error: r.error ? `${r.error.type}: ${r.error.message}` : null, steps: r.stats.steps, result: r };
}

/** Runs `source` on closures and on the JavaScript tier: output, error and steps must agree. */
async function bothTiers(source: string, limits?: Record<string, number>): Promise<Outcome & { result: SandboxResult }> {
  const closures = await runTier(source, "never", limits);
  const js = await runTier(source, "always", limits);
  expect({ ...js, result: undefined }).toEqual({ ...closures, result: undefined });
  return js;
}

const SPIN = "async def spin():\n    while True:\n        pass\n";
const HOG = "async def hog():\n    return 'x' * 10**9\n";

describe("limits cannot be caught", () => {
  const routes: [string, string, string][] = [
    ["gather(return_exceptions=True) of a coroutine out of steps", `import asyncio\n${SPIN}async def main():\n    r = await asyncio.gather(spin(), return_exceptions=True)\n    print("caught", r)\nasyncio.run(main())`, "max_steps"],
    ["gather(return_exceptions=True) of a coroutine out of memory", `import asyncio\n${HOG}async def main():\n    r = await asyncio.gather(hog(), probe.echo_async(1), return_exceptions=True)\n    print("caught", r)\nasyncio.run(main())`, "max_memory_bytes"],
    ["gather(return_exceptions=True) of a tool result too large", `import asyncio\nasync def main():\n    r = await asyncio.gather(probe.big_async(), return_exceptions=True)\n    print("caught", r)\nasyncio.run(main())`, "max_value_bytes"],
    ["gather(return_exceptions=True) past max_tool_calls", `import asyncio\nasync def main():\n    r = await asyncio.gather(probe.echo_async(1), probe.echo_async(2), probe.echo_async(3), return_exceptions=True)\n    print("caught", r)\nasyncio.run(main())`, "max_tool_calls"],
    ["finally with a return", "def f():\n    try:\n        while True:\n            pass\n    finally:\n        print('finally ran')\n        return 1\nprint(f())", "max_steps"],
    ["except BaseException", "try:\n    x = 'x' * 10**9\nexcept BaseException as e:\n    print('caught', type(e))", "max_memory_bytes"],
    ["a bare except", "try:\n    while True:\n        pass\nexcept:\n    print('caught')", "max_steps"],
    ["a coroutine awaited again after gather returned its limit", `import asyncio\n${HOG}async def main():\n    c = hog()\n    await asyncio.gather(c, return_exceptions=True)\n    print("after")\n    await c\nasyncio.run(main())`, "max_memory_bytes"],
    ["a tool_async future awaited after a failed gather", `import asyncio\nasync def main():\n    f = probe.big_async()\n    try:\n        await asyncio.gather(f, return_exceptions=True)\n    except BaseException:\n        pass\n    print("after", await f)\nasyncio.run(main())`, "max_value_bytes"],
  ];
  for (const [route, source, field] of routes) {
    it(`through ${route}`, async () => {
      const { stdout, error } = await bothTiers(source, { max_steps: 20_000, max_tool_calls: 2 });
      expect(error).toMatch(new RegExp(`^ResourceLimitError: ${field} exceeded`));
      expect(stdout).toBe("");
    });
  }

  it("gather(return_exceptions=True) still returns Python exceptions as values, as CPython does", async () => {
    const source = "import asyncio\nasync def bad():\n    raise ValueError('v')\nasync def main():\n    return await asyncio.gather(bad(), asyncio.sleep(0, 5), return_exceptions=True)\nprint(asyncio.run(main()))";
    const { stdout, error } = await bothTiers(source);
    expect(error).toBeNull();
    expect(stdout).toBe(cpython([source])[0]!.stdout);
  });

  it("a budget that tripped fails every later charge with the same error", () => {
    const budget = new Budget({ ...DEFAULT_LIMITS, max_memory_bytes: 1000 });
    let first: unknown;
    try {
      budget.alloc(2000);
    } catch (e) {
      first = e;
    }
    expect(first).toMatchObject({ type: "ResourceLimitError", field: "max_memory_bytes" });
    for (const charge of [() => budget.step(0), () => budget.alloc(0), () => budget.checkSize(0), () => budget.log(0), () => budget.toolCall()]) {
      expect(charge).toThrow();
      try {
        charge();
      } catch (e) {
        expect(e).toBe(first);
      }
    }
  });

  it("a loop around gather(return_exceptions=True) stops at its timeout, without starving the event loop", async () => {
    const source = `import asyncio\n${SPIN}async def main():\n    while True:\n        await asyncio.gather(spin(), return_exceptions=True)\nasyncio.run(main())`;
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    const { result } = await runTier(source, process.env.PY_CODEGEN === "always" ? "always" : "never", { max_steps: 1_000_000_000, tool_execution_timeout: 0.3 });
    const wall = performance.now() - started;
    delay.disable();
    expect(result.error?.message).toMatch(/^tool_execution_timeout exceeded/);
    // Measured here: 0.56 s (0.3 s and the 0.26 s grace), the loop's worst delay ~10 ms; before,
    // it ran on to max_steps, the event loop blocked throughout.
    expect(wall).toBeLessThan(2000);
    expect(delay.max / 1e6).toBeLessThan(200);
  });
});

describe("asyncio.sleep", () => {
  it("ends the execution at its deadline when it would sleep past it", async () => {
    for (const delay of ["2000000", "2**40", "float('inf')"]) {
      const started = performance.now();
      const { error } = await bothTiers(`import asyncio\nasync def main():\n    await asyncio.sleep(${delay})\n    print("woke")\nasyncio.run(main())`, { tool_execution_timeout: 0.2 });
      const wall = (performance.now() - started) / 2;
      expect(error).toBe("ResourceLimitError: tool_execution_timeout exceeded (limit 0.2): the execution ran too long");
      // The deadline is 0.2 s and its 0.252 s grace: not at once (2**40 ms overflowed Node's
      // timers, which then fire at once), not later.
      expect(wall).toBeGreaterThan(400);
      expect(wall).toBeLessThan(1500);
    }
  });

  it("takes delay and result as CPython does; a negative or NaN delay does not wait", async () => {
    const sources = ["asyncio.sleep(0.01, result=3)", "asyncio.sleep(-1, 'r')", "asyncio.sleep(float('nan'), 4)", "asyncio.sleep(0)"].map(
      (call) => `import asyncio\nasync def main():\n    return await ${call}\nprint(asyncio.run(main()))`,
    );
    const theirs = cpython(sources);
    for (const [i, source] of sources.entries()) {
      const { stdout, error } = await bothTiers(source);
      expect(error).toBeNull();
      expect(stdout).toBe(theirs[i]!.stdout);
    }
  });
});

describe("a finished execution", () => {
  it("leaves nothing behind: sleeps, tool calls and gathered tasks are released, its memory collected", () => {
    // A child with --expose-gc, on the build in dist/ (npm test builds first).
    const child = spawnSync(process.execPath, ["--expose-gc", FIXTURE, "0.5"], { encoding: "utf8", timeout: 60_000 });
    expect(child.error).toBeUndefined();
    // It exits on its own: no timer of the finished scripts keeps it alive.
    expect(child.status, child.stderr).toBe(0);
    const report = JSON.parse(child.stdout) as { before: number; after: number; executions: number; collected: number; aborted: number; ranAfterEnd: boolean; timers: number; errors: string[] };
    expect(report.executions).toBe(4);
    expect(report.collected).toBe(4);
    expect(report.aborted).toBe(4);
    expect(report.timers).toBe(0);
    expect(report.ranAfterEnd).toBe(false);
    expect(report.errors.slice(0, 2)).toEqual(Array(2).fill("sleep: ResourceLimitError: tool_execution_timeout exceeded (limit 0.5): the execution ran too long"));
    // Each script held ~25 MB. Measured: 11.7 MB before, 12.2 MB after (before the fix: 51.9 MB,
    // and the process never exited).
    expect(report.after - report.before).toBeLessThan(10 * 2 ** 20);
  });

  it("cancelled while it sleeps and waits on tools, ends at once with CancelledError", async () => {
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 50);
    const r = await execute("import asyncio\nasync def main():\n    await asyncio.gather(asyncio.sleep(100), probe.never_async())\nasyncio.run(main())", { hosts: HOSTS, signal: controller.signal });
    expect(r.error?.type).toBe("CancelledError");
    expect(performance.now() - started).toBeLessThan(1000);
    expect(r.tool_calls[0]?.error).toBe("unfinished: the execution ended first");
  });
});
