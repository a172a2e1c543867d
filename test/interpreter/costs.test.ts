// The cost table (src/interpreter/costs.ts) covers exactly the registries, and every entry that
// claims to grow with its input does: run at n and 4n, it charges at least twice the steps.
import { describe, expect, it } from "vitest";
import { makeBuiltins } from "../../src/interpreter/builtins.js";
import { BUILTIN_COSTS, METHOD_COSTS, MODULE_COSTS } from "../../src/interpreter/costs.js";
import { ASYNCIO_MODULE } from "../../src/interpreter/modules/asyncio.js";
import { JSON_MODULE } from "../../src/interpreter/modules/json.js";
import { MATH_MODULE } from "../../src/interpreter/modules/math.js";
import { execute } from "../../src/interpreter/execute.js";
import { METHOD_TABLES } from "../../src/interpreter/methods/index.js";
import { PyExcType } from "../../src/interpreter/errors.js";

describe("the cost table", () => {
  it("lists every builtin, and nothing else", () => {
    const registry = [...makeBuiltins({ getAttr: () => null }).entries()].filter(([, v]) => !(v instanceof PyExcType)).map(([k]) => k);
    expect(Object.keys(BUILTIN_COSTS).sort()).toEqual(registry.sort());
  });

  it("lists every method of every built-in type, and nothing else", () => {
    const registry = Object.entries(METHOD_TABLES).flatMap(([type, table]) => Object.keys(table).map((m) => `${type}.${m}`));
    expect(Object.keys(METHOD_COSTS).sort()).toEqual(registry.sort());
  });

  it("lists every function of every module, and nothing else", () => {
    const modules = { json: JSON_MODULE, math: MATH_MODULE, asyncio: ASYNCIO_MODULE };
    const registry = Object.entries(modules).flatMap(([name, attrs]) =>
      Object.entries(attrs)
        .filter(([, v]) => typeof v === "function")
        .map(([k]) => `${name}.${k}`),
    );
    expect(Object.keys(MODULE_COSTS).sort()).toEqual(registry.sort());
  });

  const probed = [...Object.entries(BUILTIN_COSTS), ...Object.entries(METHOD_COSTS), ...Object.entries(MODULE_COSTS)].filter(([, c]) => c.probe);

  async function stepsOf(setup: string, call: string): Promise<number> {
    const limits = { max_steps: 50_000_000, max_log_bytes: 10_000_000, max_memory_bytes: 500_000_000, max_value_bytes: 0 };
    const base = await execute(setup, { limits });
    const full = await execute(`${setup}\n_ = ${call}`, { limits });
    expect(base.error).toBeNull();
    expect(full.error).toBeNull();
    return full.stats.steps - base.stats.steps;
  }

  it.each(probed)("%s charges in proportion to its work", async (_name, cost) => {
    const [setupN, call] = cost.probe!(2000);
    const [setup4N] = cost.probe!(8000);
    const small = await stepsOf(setupN, call);
    const large = await stepsOf(setup4N, call);
    expect(large).toBeGreaterThanOrEqual(2 * small);
    expect(large).toBeGreaterThan(10);
  });
});
