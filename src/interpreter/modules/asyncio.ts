// The asyncio module of the sandbox: run(), gather() and sleep(), enough to run tool calls
// concurrently. Awaitables are coroutines (async def calls) and futures (tool_async calls).
import { pyError } from "../errors.js";
import type { NativeContext, NativeFn } from "../native.js";
import { Pending, PyCoroutine, PyFuture } from "../objects.js";
import { floatArg } from "../native.js";
import { PyList, typeName, type Value } from "../values.js";

function awaitable(v: Value): PyCoroutine | PyFuture {
  if (v instanceof PyCoroutine || v instanceof PyFuture) return v;
  throw pyError("TypeError", `An asyncio.Future, a coroutine or an awaitable is required (got ${typeName(v)})`);
}

const run: NativeFn = (_ctx, args) => {
  if (args.length !== 1) throw pyError("TypeError", `run() takes exactly one argument (${args.length} given)`);
  const coroutine = args[0]!;
  if (!(coroutine instanceof PyCoroutine)) throw pyError("ValueError", `a coroutine was expected, got ${typeName(coroutine)}`);
  return coroutine.run() as Value;
};

const gather: NativeFn = (_ctx, args, kwargs) => {
  const returnExceptions = kwargs?.get("return_exceptions") === true;
  const items = args.map(awaitable);
  return new PyFuture("gather", () => {
    // Start every awaitable now: their tool calls are in flight together.
    const outcomes = items.map((a) => {
      try {
        return a.run();
      } catch (e) {
        if (returnExceptions) return e as Value;
        return new Pending(Promise.reject(e));
      }
    });
    if (!outcomes.some((o) => o instanceof Pending)) return new PyList(outcomes as Value[]);
    const settled = outcomes.map((o) => (o instanceof Pending ? o.promise : Promise.resolve(o)));
    if (returnExceptions) {
      return new Pending(
        Promise.allSettled(settled).then((rs) => new PyList(rs.map((r) => (r.status === "fulfilled" ? (r.value as Value) : (r.reason as Value))))),
      );
    }
    // Like asyncio.gather: the first failure propagates; the other calls still finish on their own.
    for (const p of settled) p.catch(() => undefined);
    return new Pending(Promise.all(settled).then((values) => new PyList(values as Value[])));
  }) as unknown as Value;
};

const sleep: NativeFn = (ctx: NativeContext, args) => {
  const seconds = args.length ? floatArg("sleep", args[0]!) : 0;
  if (seconds < 0) throw pyError("ValueError", "sleep length must be non-negative");
  ctx.budget.step(1);
  return new PyFuture("sleep", () => new Pending(new Promise((resolve) => setTimeout(() => resolve(args[1] ?? null), seconds * 1000)))) as unknown as Value;
};

export const ASYNCIO_MODULE: Record<string, NativeFn | Value> = { run, gather, sleep };
