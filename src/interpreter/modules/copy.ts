// copy of CPython 3.11: copy and deepcopy. Immutable values are their own copies (numbers, str,
// bytes, None, ranges, functions, types, modules; a tuple or frozenset for copy); lists, dicts,
// sets and named tuples are copied as CPython copies them; deepcopy keeps shared references
// shared and cycles cyclic with a memo of what it has copied, as CPython's does. A type a module
// defines copies through its pyCopy / pyDeepCopy hooks (instance.ts), and is itself otherwise.
import { EXC, PyExcType, pyError } from "../errors.js";
import { dictHooks, PyInstance } from "../instance.js";
import { NamedTuple } from "../named-tuple.js";
import { bindPython } from "../py-bind.js";
import type { NativeContext, NativeFn } from "../native.js";
import { HostCallable, HostObject, PyBoundMethod, PyBuiltin, PyCoroutine, PyDictView, PyFuture, PyIterator, PyModule, PyType } from "../objects.js";
import { DICT, LIST, MAP_ENTRY, SLOT, TUPLE } from "../sizes.js";
import { PyBytes, PyDict, PyFloat, PyList, PyRange, PySet, PyTuple, typeName, type Value } from "../values.js";

/** copy.Error: what copying an uncopyable value raises in CPython (it is never raised here). */
const COPY_ERROR = new PyExcType("Error", EXC.Exception);

/** Values that are their own copy, shallow or deep. */
function isAtomic(v: Value): boolean {
  if (v === null || typeof v !== "object") return true;
  if (v instanceof PyFloat || v instanceof PyBytes || v instanceof PyRange) return true;
  return v instanceof PyType || v instanceof PyExcType || v instanceof PyBuiltin || v instanceof PyModule || typeName(v) === "function" || typeName(v) === "ellipsis";
}

/** What pickling (CPython's route for other objects) refuses: `cannot pickle 'dict_keys' object`. */
function uncopyable(v: Value): never {
  throw pyError("TypeError", `cannot pickle '${typeName(v)}' object`);
}

function refused(v: Value): boolean {
  return v instanceof PyDictView || v instanceof PyIterator || v instanceof PyCoroutine || v instanceof PyFuture || v instanceof HostObject || v instanceof HostCallable || v instanceof PyBoundMethod;
}

/** A dict subclass's copy: its hook, else its class called with it (Counter(d), OrderedDict(d)). */
function dictSubclassCopy(ctx: NativeContext, d: PyDict): PyDict {
  const hooks = dictHooks(d);
  const own = hooks?.pyCopy;
  if (own !== undefined) return own.call(d, ctx);
  const made = ctx.call(d.cls!, [d]);
  if (!(made instanceof PyDict)) throw pyError("TypeError", `cannot copy '${typeName(d)}' object`);
  return made;
}

function shallow(ctx: NativeContext, x: Value): Value {
  ctx.budget.step(1);
  if (isAtomic(x)) return x;
  if (x instanceof PyList) {
    ctx.budget.step(x.items.length);
    ctx.budget.alloc(SLOT * x.items.length);
    return new PyList([...x.items]);
  }
  if (x instanceof NamedTuple) return x.type.make(ctx, [...x.items]);
  if (x instanceof PyTuple) return x;
  if (x instanceof PyDict) {
    ctx.budget.step(x.size);
    if (x.cls !== null) return dictSubclassCopy(ctx, x);
    ctx.budget.alloc(MAP_ENTRY * x.size);
    const out = new PyDict();
    out.update(x);
    return out;
  }
  if (x instanceof PySet) {
    if (x.frozen) return x;
    ctx.budget.step(x.size);
    ctx.budget.alloc(MAP_ENTRY * x.size);
    const out = new PySet();
    for (const v of x.values()) out.add(v);
    return out;
  }
  if (x instanceof PyInstance) return x.pyCopy ? x.pyCopy(ctx) : x;
  if (refused(x)) uncopyable(x);
  return x;
}

/** The steps of a container deepcopy makes (its memo entry, its header, its slots' bookkeeping). */
const CONTAINER_STEPS = 16;

/** How deep deepcopy goes before CPython's RecursionError (CPython's own limit comes a little sooner). */
const MAX_DEPTH = 1000;

class DeepCopier {
  /** What each container copied so far became: shared parts stay shared, cycles stay cycles. */
  private readonly memo = new Map<object, Value>();
  private depth = 0;

  constructor(private readonly ctx: NativeContext) {}

  copy(x: Value): Value {
    this.ctx.budget.step(1);
    if (isAtomic(x)) return x;
    const done = this.memo.get(x as object);
    if (done !== undefined) return done;
    if (++this.depth > MAX_DEPTH) throw pyError("RecursionError", "maximum recursion depth exceeded while calling a Python object");
    try {
      return this.fresh(x as object & Value);
    } finally {
      this.depth--;
    }
  }

  private fresh(x: object & Value): Value {
    const { budget } = this.ctx;
    budget.step(CONTAINER_STEPS);
    if (x instanceof PyList) {
      budget.alloc(LIST + SLOT * x.items.length);
      const y = new PyList([]);
      this.memo.set(x, y);
      for (const item of x.items) y.items.push(this.copy(item));
      return y;
    }
    if (x instanceof PyTuple) {
      const items = x.items.map((item) => this.copy(item));
      // A cycle through the tuple made it meanwhile.
      const done = this.memo.get(x);
      if (done !== undefined) return done;
      if (!(x instanceof NamedTuple) && items.every((item, i) => item === x.items[i])) return x;
      budget.alloc(TUPLE + SLOT * items.length);
      const y = x instanceof NamedTuple ? x.type.make(null, items) : new PyTuple(items);
      this.memo.set(x, y);
      return y;
    }
    if (x instanceof PyDict) {
      budget.alloc(DICT + MAP_ENTRY * x.size);
      if (x.cls === null) {
        const y = new PyDict();
        this.memo.set(x, y);
        for (const [hk, v] of x.map) y.set(this.copy(x.keyOf(hk)), this.copy(v));
        return y;
      }
      // A subclass's own copy keeps its state (a defaultdict's factory), refilled deeply.
      const y = dictSubclassCopy(this.ctx, x);
      this.memo.set(x, y);
      const entries = [...x.entries()];
      y.clear();
      for (const [k, v] of entries) y.set(this.copy(k), this.copy(v));
      return y;
    }
    if (x instanceof PySet) {
      budget.alloc(DICT + MAP_ENTRY * x.size);
      const y = new PySet(x.frozen);
      for (const v of x.values()) y.add(this.copy(v));
      this.memo.set(x, y);
      return y;
    }
    if (x instanceof PyInstance) {
      const y = x.pyDeepCopy ? x.pyDeepCopy((v) => this.copy(v), this.ctx) : x;
      this.memo.set(x, y);
      return y;
    }
    if (refused(x)) uncopyable(x);
    return x;
  }
}

const copy: NativeFn = (ctx, args, kwargs) => {
  const [x] = bindPython("copy", ["x"], [], args, kwargs);
  return shallow(ctx, x!);
};

const deepcopy: NativeFn = (ctx, args, kwargs) => {
  const [x, memo] = bindPython("deepcopy", ["x", "memo", "_nil"], [null, null], args, kwargs);
  // CPython's memo maps id()s, which the sandbox does not have: a memo passed in is not read.
  if (memo !== null && !(memo instanceof PyDict)) throw pyError("TypeError", `'${typeName(memo!)}' object is not subscriptable`);
  return new DeepCopier(ctx).copy(x!);
};

export const COPY_MODULE: Record<string, NativeFn | Value> = { copy, deepcopy, Error: COPY_ERROR };
