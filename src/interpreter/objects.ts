// The runtime's own objects: functions, built-in functions, bound methods, modules, iterators,
// coroutines and host objects (the servers a script calls).
import type { Budget } from "./budget.js";
import { pyError } from "./errors.js";
import type { Kwargs, NativeContext, NativeFn } from "./native.js";
import { BOUND_METHOD, CLOSURE, COROUTINE, ITERATOR } from "./sizes.js";
import { type PyDict, PyObject, PyTuple, type Value } from "./values.js";

/** A suspended evaluation: the promise settles with what the evaluation would have produced. */
export class Pending {
  constructor(readonly promise: Promise<unknown>) {}

  /** Continues with `next` once settled; `next` may itself suspend. */
  then(next: (value: any) => unknown): Pending {
    return new Pending(
      this.promise.then((v) => {
        const r = next(v);
        return r instanceof Pending ? r.promise : r;
      }),
    );
  }
}

/** Runs `next` on `value` now, or once it settles if it is Pending. */
export function after<T>(value: T | Pending, next: (v: T) => unknown): any {
  return value instanceof Pending ? value.then(next) : next(value);
}

export class PyBuiltin extends PyObject {
  constructor(
    readonly name: string,
    readonly fn: NativeFn,
  ) {
    super();
  }

  get typeName(): string {
    return "builtin_function_or_method";
  }

  /** Made once, shared by every execution: a reference to it costs the slot only. */
  heapBytes(): number {
    return 0;
  }

  pyRepr(): string {
    return `<built-in function ${this.name}>`;
  }
}

/** `obj.method` taken as a value (not called at once). */
export class PyBoundMethod extends PyObject {
  constructor(
    readonly self: Value,
    readonly name: string,
    readonly call: (ctx: NativeContext, args: Value[], kwargs: Kwargs | null) => Value,
  ) {
    super();
  }

  get typeName(): string {
    return "builtin_function_or_method";
  }

  heapBytes(): number {
    return BOUND_METHOD;
  }

  pyRepr(repr: (v: Value) => string): string {
    return `<built-in method ${this.name} of ${typeNameOf(this.self)} object>`;
    void repr;
  }
}

function typeNameOf(v: Value): string {
  return v instanceof PyObject ? v.typeName : typeof v === "string" ? "str" : "object";
}

export class PyModule extends PyObject {
  constructor(
    readonly name: string,
    readonly attrs: Map<string, Value>,
  ) {
    super();
  }

  get typeName(): string {
    return "module";
  }

  pyRepr(): string {
    return `<module '${this.name}' (built-in)>`;
  }
}

/** A built-in type used as a value: `int`, `str`, `list`... callable, usable with isinstance. */
export class PyType extends PyObject {
  constructor(
    readonly name: string,
    readonly construct: NativeFn,
    /** The isinstance test for this type. */
    readonly test: (v: Value) => boolean,
  ) {
    super();
  }

  get typeName(): string {
    return "type";
  }

  /** Made once, shared by every execution: a reference to it costs the slot only. */
  heapBytes(): number {
    return 0;
  }

  pyRepr(): string {
    return `<class '${this.name}'>`;
  }
}

/**
 * The next item of an iterator that may have to wait for it: the item, DONE, or a Pending that
 * settles with one of them.
 */
export type Step = () => Value | typeof DONE | Pending;

/**
 * A Python iterator: iter(), enumerate(), zip(), map(), reversed(), generator expressions.
 *
 * `next` is synchronous, and every iterator has it. An iterator whose items may have to wait (a
 * generator expression's element may make a tool call; an enumerate() or zip() over one) also has
 * `step`, which may return a Pending: a consumer that can wait uses it (stepping.ts), and `next`
 * refuses, with a RuntimeError, an item that would have to wait.
 */
export class PyIterator extends PyObject {
  constructor(
    /** Returns the next item, or DONE. */
    readonly next: () => Value | typeof DONE,
    readonly kind = "iterator",
    /** What it holds in the heap (sizes.ts): itself, `next`, and the closures `next` reaches. */
    private readonly bytes = ITERATOR + CLOSURE,
    /**
     * Its items exist already and were paid for where they are (a container's): collecting them
     * costs a slot each, not their size again.
     */
    readonly paid = false,
    /** The same cursor as `next`, able to wait for an item; null when no item ever waits. */
    readonly step: Step | null = null,
  ) {
    super();
  }

  get typeName(): string {
    return this.kind;
  }

  heapBytes(): number {
    return this.bytes;
  }

  pyRepr(): string {
    return `<${this.kind} object>`;
  }
}

export const DONE: unique symbol = Symbol("done");

/** A call to an async function, not yet awaited. */
export class PyCoroutine extends PyObject {
  /** Set once started: the evaluation's result or its pending form. */
  started: { result: Value | Pending } | null = null;

  constructor(
    readonly name: string,
    readonly start: () => Value | Pending,
  ) {
    super();
  }

  get typeName(): string {
    return "coroutine";
  }

  heapBytes(): number {
    return COROUTINE;
  }

  pyRepr(): string {
    return `<coroutine object ${this.name}>`;
  }

  /** Starts it (once) and returns its outcome. */
  run(): Value | Pending {
    this.started ??= { result: this.start() };
    return this.started.result;
  }
}

/** An awaitable that is not a coroutine: `srv.tool_async(...)`, `asyncio.gather(...)`, `sleep(0)`. */
export class PyFuture extends PyObject {
  private outcome: { result: Value | Pending } | null = null;

  constructor(
    readonly label: string,
    private readonly start: () => Value | Pending,
  ) {
    super();
  }

  get typeName(): string {
    return "Future";
  }

  heapBytes(): number {
    return COROUTINE;
  }

  pyRepr(): string {
    return `<${this.label}>`;
  }

  run(): Value | Pending {
    this.outcome ??= { result: this.start() };
    return this.outcome.result;
  }
}

/** What a host method is given besides its arguments. */
export interface HostCallContext {
  /** The execution's budget: what the host does to bring a result in counts against it. */
  budget: Budget;
  /** Aborted when the execution ends (the call's result is no longer wanted). */
  signal: AbortSignal;
  /** The arguments by name, as the host bound them: the call's record shows these instead. */
  bound(args: Record<string, unknown>): void;
}

/** A method the host provides: called with Python-side arguments converted to plain JS values. */
export type HostMethod = (args: unknown[], kwargs: Record<string, unknown>, context: HostCallContext) => Promise<unknown>;

/** A server's methods by Python name, as a HostObject reads them: a Map, or a HostMethodTable. */
export interface HostMethods {
  has(name: string): boolean;
  get(name: string): HostMethod | undefined;
  keys(): Iterable<string>;
}

/**
 * A server's methods for one execution, each made when the script first reaches it: a server may
 * have hundreds of tools and a script calls a few. `bound` holds the Python names (what each
 * calls, for `make`), and may be shared by many executions; `make` makes one execution's method.
 */
export class HostMethodTable implements HostMethods {
  private readonly made = new Map<string, HostMethod>();

  constructor(
    private readonly bound: ReadonlyMap<string, unknown>,
    private readonly make: (name: string) => HostMethod,
  ) {}

  has(name: string): boolean {
    return this.bound.has(name);
  }

  get(name: string): HostMethod | undefined {
    let method = this.made.get(name);
    if (method === undefined && this.bound.has(name)) this.made.set(name, (method = this.make(name)));
    return method;
  }

  keys(): Iterable<string> {
    return this.bound.keys();
  }
}

/** An upstream server as a global: `srv.tool(...)`, `srv.tool_async(...)`. */
export class HostObject extends PyObject {
  constructor(
    readonly name: string,
    readonly methods: HostMethods,
  ) {
    super();
  }

  get typeName(): string {
    return "server";
  }

  pyRepr(): string {
    return `<server ${this.name}: ${[...this.methods.keys()].sort().join(", ")}>`;
  }
}

/** `srv.tool` as a value; calling it makes the host call (or, for `_async`, an awaitable). */
export class HostCallable extends PyObject {
  constructor(
    readonly host: HostObject,
    readonly method: string,
    readonly async: boolean,
  ) {
    super();
  }

  get typeName(): string {
    return "function";
  }

  pyRepr(): string {
    return `<tool ${this.host.name}.${this.method}${this.async ? "_async" : ""}>`;
  }
}

/** dict.keys(), .values(), .items(): live views of a dict. */
export class PyDictView extends PyObject {
  constructor(
    readonly dict: PyDict,
    readonly kind: "keys" | "values" | "items",
  ) {
    super();
  }

  get typeName(): string {
    return `dict_${this.kind}`;
  }

  items(): Value[] {
    const d = this.dict;
    if (this.kind === "keys") return [...d.keys()];
    if (this.kind === "values") return [...d.map.values()];
    return [...d.entries()].map(([k, v]) => new PyTuple([k, v]));
  }

  /** A cursor that fails, as Python does, if the dict changes size meanwhile. */
  cursor(): () => Value | typeof DONE {
    const d = this.dict;
    const size = d.size;
    const it = d.map.entries();
    const kind = this.kind;
    return () => {
      if (d.size !== size) throw pyError("RuntimeError", "dictionary changed size during iteration");
      const r = it.next();
      if (r.done) return DONE;
      const [k, v] = r.value;
      return kind === "keys" ? d.keyOf(k) : kind === "values" ? v : new PyTuple([d.keyOf(k), v]);
    };
  }

  pyRepr(reprOf: (v: Value) => string): string {
    return `dict_${this.kind}([${this.items().map(reprOf).join(", ")}])`;
  }
}

