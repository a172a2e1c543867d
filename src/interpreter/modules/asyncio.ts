// The asyncio module of the sandbox: run(), gather() and sleep(), enough to run tool calls
// concurrently. Awaitables are coroutines (async def calls) and futures (tool_async calls).
import { PyException, pyError } from "../errors.js";
import { bind, floatArg, type NativeContext, type NativeFn, type Signature } from "../native.js";
import { Pending, PyCoroutine, PyFuture } from "../objects.js";
import { PyList, typeName, type Value } from "../values.js";

function awaitable(v: Value): PyCoroutine | PyFuture {
  if (v instanceof PyCoroutine || v instanceof PyFuture) return v;
  throw pyError("TypeError", `An asyncio.Future, a coroutine or an awaitable is required (got ${typeName(v)})`);
}

const run: NativeFn = (_ctx, args) => {
  if (args.length !== 1) throw pyError("TypeError", `run() takes exactly one argument (${args.length} given)`);
  const coroutine = args[0]!;
  // asyncio.sleep() is a coroutine in CPython (a future here): run() takes it as one.
  const isSleep = coroutine instanceof PyFuture && coroutine.label === "sleep";
  if (!(coroutine instanceof PyCoroutine) && !isSleep) throw pyError("ValueError", `a coroutine was expected, got ${typeName(coroutine)}`);
  return (coroutine as PyCoroutine | PyFuture).run() as Value;
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
        // Only Python exceptions become values: a limit or a cancellation ends the execution.
        if (returnExceptions && e instanceof PyException) return e;
        return new Pending(Promise.reject(e));
      }
    });
    if (!outcomes.some((o) => o instanceof Pending)) return new PyList(outcomes as Value[]);
    const settled = outcomes.map((o) => (o instanceof Pending ? o.promise : Promise.resolve(o)));
    if (returnExceptions) {
      return new Pending(
        Promise.allSettled(settled).then((rs) =>
          new PyList(
            rs.map((r) => {
              if (r.status === "fulfilled") return r.value as Value;
              if (r.reason instanceof PyException) return r.reason;
              throw r.reason;
            }),
          ),
        ),
      );
    }
    // Like asyncio.gather: the first failure propagates; the other calls still finish on their
    // own (and end with the execution, which owns their waits).
    for (const p of settled) p.catch(() => undefined);
    return new Pending(Promise.all(settled).then((values) => new PyList(values as Value[])));
  }) as unknown as Value;
};

const SLEEP: Signature = { names: ["delay", "result"], required: 1 };

const sleep: NativeFn = (ctx: NativeContext, args, kwargs) => {
  const [delay, result] = bind("sleep", SLEEP, args, kwargs);
  const seconds = floatArg("sleep", delay!);
  ctx.budget.step(1);
  // As CPython's asyncio.sleep: a negative or NaN delay does not wait.
  return new PyFuture("sleep", () => ctx.sleep(seconds > 0 ? seconds : 0, result ?? null)) as unknown as Value;
};

export const ASYNCIO_MODULE: Record<string, NativeFn | Value> = { run, gather, sleep };
