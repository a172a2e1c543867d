// The state of one execution and the operations compiled code calls into: calling functions,
// attribute and method lookup, host (tool) calls, time slicing, imports, printing.
import type { Budget } from "./budget.js";
import { PyFunction } from "./function.js";
import { Cell, Frame, RETURN, UNBOUND } from "./frame.js";
import { CancelledError, EXC, PyExcType, PyException, pyError, ResourceLimitError } from "./errors.js";
import { ascii, formatValue, percentFormat } from "./format.js";
import { fromHost, toHost } from "./boundary.js";
import { dunderAttribute } from "./dunders.js";
import { ABSENT_BUILTINS, TYPE_ATTRIBUTES } from "./builtins.js";
import { lookupMethod } from "./methods/index.js";
import type { Kwargs, NativeContext } from "./native.js";
import {
  HostCallable,
  HostObject,
  Pending,
  PyBoundMethod,
  PyBuiltin,
  PyCoroutine,
  PyFuture,
  PyIterator,
  PyModule,
  PyType,
} from "./objects.js";
import { binary, type BinaryOp, hashOf, iterateToArray, SliceValue } from "./ops.js";
import { Owned, setLongTimeout, type WaitStart } from "./ownership.js";
import { type Charge, repr as reprOf, str as strOf, TEXT_SHIFT, textCharge } from "./repr.js";
import { MIN_SLICE_MS, sliceFor, waitForSlice } from "./scheduler.js";
import { PyClass, PyInstance } from "./instance.js";
import { itemsSize } from "./sizes.js";
import { PyDict, PyList, PyObject, PyTuple, typeName, type Value } from "./values.js";

/** A tool call as recorded in the SandboxResult. */
export interface ToolCallRecord {
  server: string;
  tool: string;
  arguments: Record<string, unknown>;
  ok: boolean;
  error: string | null;
  /** When the call began, in seconds from the start of the execution (parallel calls overlap). */
  started_seconds: number;
  duration_seconds: number;
}

/** Python recursion limit, as CPython's default. */
export const RECURSION_LIMIT = 1000;
/** About every this many steps the interpreter looks at the clock (deadline, cancellation, slice). */
const CLOCK_STEPS = 1024;
/** The clock checks after a move to the JS tier, every other one yielding (primeYields). */
const PRIMED_CHECKS = 16;
/** Every this many nested Python calls the JS stack is unwound (the call resumes on a fresh one). */
const STACK_SLICE = 48;
/** Executions of this process that can use the CPU: started, not finished, not waiting on a tool. */
let runnable = 0;
/** Tests: suspend at every loop head and call that may (every resumption path gets exercised). */
let yieldAlways = false;

export function setYieldAlways(on: boolean): void {
  yieldAlways = on;
}

/** When a slice starting now outside a turn of the scheduler ends, given how many executions share the CPU. */
function sliceEndFromNow(): number {
  return performance.now() + sliceFor(runnable);
}

export interface RuntimeOptions {
  budget: Budget;
  builtins: Map<string, Value>;
  modules: Map<string, () => PyModule>;
  hosts: Map<string, HostObject>;
  signal?: AbortSignal;
  /** Absolute time (performance.now()) at which the execution times out. */
  deadline: number;
  /** When the execution started (performance.now()): tool calls are timed from it. */
  started: number;
}

export class Runtime implements NativeContext {
  readonly budget: Budget;
  readonly stdout: string[] = [];
  readonly toolCalls: ToolCallRecord[] = [];
  /** NativeContext.note: hints about a run, each text once. */
  readonly notes: string[] = [];
  private readonly builtins: Map<string, Value>;
  private readonly modules: Map<string, () => PyModule>;
  private readonly loaded = new Map<string, PyModule>();
  readonly hosts: Map<string, HostObject>;
  private readonly signal: AbortSignal | undefined;
  private readonly deadline: number;
  private readonly started: number;
  private sliceEnd: number;
  /** The length of the slice the scheduler last granted (it starts when the execution runs). */
  private grantedMs = 0;
  /** budget.steps beyond which tick() next looks at the clock (never beyond max_steps). */
  private checkAt: number;
  private yieldDue = false;
  /** Clock checks left in which code that just moved to the JS tier is made to yield (primeYields). */
  private primed = 0;
  /** Python calls nested on the current JS stack (unwound every STACK_SLICE). */
  jsDepth = 0;
  /** Inside a native's synchronous callback: nothing may suspend there. */
  private syncOnly = 0;
  /** Tool calls and sleeps in flight; while there are any, this execution does not count as runnable. */
  private waiting = 0;
  private counted = false;
  private finished = false;
  /** Everything this execution waits on, released when it ends. */
  private readonly owned = new Owned();
  /** With setYieldAlways: every other check yields (the one after resuming goes on). */
  private alternate = false;
  private enterAlternate = false;

  constructor(options: RuntimeOptions) {
    this.budget = options.budget;
    this.chargeText = textCharge(this.budget, TEXT_SHIFT);
    this.builtins = options.builtins;
    this.modules = options.modules;
    this.hosts = options.hosts;
    this.signal = options.signal;
    this.deadline = options.deadline;
    this.started = options.started;
    this.setRunnable(true);
    // A short first slice: executions that start in the same turn (a burst of requests) would
    // otherwise each take a slice sized for fewer than will be running.
    this.sliceEnd = performance.now() + MIN_SLICE_MS;
    this.checkAt = Math.min(this.budget.limits.max_steps, this.budget.steps + CLOCK_STEPS);
    // Once a limit trips, the very next tick fails too (budget.step(0) throws it again), however
    // the error was caught.
    this.budget.onTrip = () => {
      this.checkAt = -1;
    };
    this.budget.pacer = this;
  }

  /**
   * The execution has ended, for whatever reason: it no longer shares the CPU, none of its code
   * runs again, and what it was waiting on (sleeps, tool calls, time slices) is released.
   */
  finish(): void {
    this.finished = true;
    this.setRunnable(false);
    this.budget.trip(new CancelledError("the execution has ended"));
    this.owned.end();
  }

  /** Open waits (tests: a finished execution holds none). */
  get openWaits(): number {
    return this.owned.size;
  }

  private setRunnable(on: boolean): void {
    if (on === this.counted) return;
    this.counted = on;
    runnable += on ? 1 : -1;
  }

  // ---------------------------------------------------------------- time

  /**
   * One interpreter step; about every CLOCK_STEPS steps (builtins charge theirs too), checks the
   * clock and cancellation. One counter and one comparison: the step limit is checked at the
   * checkpoint, which comes no later than max_steps.
   */
  tick(): void {
    if (++this.budget.steps > this.checkAt) this.checkpoint();
  }

  private checkpoint(): void {
    this.budget.step(0);
    this.checkAt = Math.min(this.budget.limits.max_steps, this.budget.steps + CLOCK_STEPS);
    this.checkClock();
  }

  private checkClock(): void {
    const now = this.checkEnd();
    if (now > this.sliceEnd) this.yieldDue = true;
    // A slice from the scheduler starts here, when the execution really runs (see yieldNow).
    else if (this.sliceEnd === Infinity) this.sliceEnd = now + this.grantedMs;
    if (this.primed > 0 && --this.primed % 2 === 0) this.yieldDue = true;
  }

  /**
   * Yields at every other one of the next PRIMED_CHECKS clock checks: called as a loop or
   * function moves to the JS tier in a first run. A new unit's ways of suspending (returning a
   * Pending, the call that yields instead of entering, resuming at a label) are taken only when
   * a slice ends. Taken first once V8 has optimized the unit, each is code with no type feedback:
   * V8 throws the optimized unit away and compiles it again (recursive fib(25) compiled its one
   * unit twice per run, 82 ms of CPU against 49 with these yields, 23 on closures only). Taken
   * here, while V8 still runs the unit unoptimized, they are part of what it optimizes. A yield
   * only gives the event loop a turn: results, output and steps are the same.
   */
  primeYields(): void {
    this.primed = PRIMED_CHECKS;
  }

  /** Throws when the execution is out of time or cancelled; returns the time. */
  private checkEnd(): number {
    const now = performance.now();
    if (now > this.deadline) throw this.timedOut();
    if (this.signal?.aborted) throw this.budget.trip(new CancelledError());
    return now;
  }

  private timedOut(): unknown {
    return this.budget.trip(new ResourceLimitError("tool_execution_timeout", this.budget.limits.tool_execution_timeout, "the execution ran too long"));
  }

  /**
   * `await asyncio.sleep(seconds)`: settles with `result` after `seconds`, or, when that is past
   * the execution's deadline, ends the execution at the deadline.
   */
  sleep(seconds: number, result: Value): Pending {
    const ms = seconds * 1000;
    const left = this.deadline - performance.now();
    return new Pending(
      this.waitOn<Value>((resolve, reject) => (ms < left ? setLongTimeout(() => resolve(result), ms) : setLongTimeout(() => reject(this.timedOut()), left))),
    );
  }

  /** A wait of this execution (a tool call, a sleep): meanwhile it does not count as runnable. */
  private waitOn<T>(start: WaitStart<T>): Promise<T> {
    if (++this.waiting === 1) this.setRunnable(false);
    return this.owned.wait(start).finally(() => {
      if (--this.waiting === 0 && !this.finished) this.setRunnable(true);
      this.sliceEnd = sliceEndFromNow();
    });
  }

  /** True when the time slice is used up and the caller can suspend here. */
  shouldYield(): boolean {
    if (yieldAlways) return (this.alternate = !this.alternate) && this.syncOnly === 0;
    return this.yieldDue && this.syncOnly === 0;
  }

  /** NativeContext.pause: looks at the clock (a native's steps count as the interpreter's). */
  pause(): Pending | null {
    if (this.syncOnly !== 0) return null;
    this.checkpoint();
    return this.shouldYield() ? this.yieldNow() : null;
  }

  /** Gives the event loop a turn; the returned Pending settles when the scheduler lets this execution go on. */
  yieldNow(): Pending {
    this.yieldDue = false;
    return new Pending(
      this.owned.wait<number>((resolve) => waitForSlice(resolve)).then((sliceMs) => {
        // The executions of one turn are all resumed here first, then each runs in turn as the
        // promises above it settle: its slice starts at its first clock check, not now (else
        // the first one to run would use up every slice of the turn).
        this.grantedMs = sliceMs;
        this.sliceEnd = Infinity;
        this.checkEnd();
      }),
    );
  }

  isCatchableByFinally(_e: unknown): boolean {
    return false;
  }

  // ---------------------------------------------------------------- values

  binary(op: BinaryOp, a: Value, b: Value): Value {
    return binary(op, a, b, this.budget, this.percent);
  }

  /** `template % args`, for binary() (made once, not per operation). */
  private readonly percent = (template: string, args: Value): string => percentFormat(this, template, args);

  /** What repr(), str() and ascii() charge for the text they build (made once, not per call). */
  private readonly chargeText: Charge;

  repr(v: Value): string {
    return reprOf(v, this.chargeText);
  }

  str(v: Value): string {
    return strOf(v, this.chargeText);
  }

  ascii(v: Value): string {
    return ascii(v, this.chargeText);
  }

  format(v: Value, spec: string): string {
    return formatValue(this, v, spec);
  }

  hash(v: Value): void {
    hashOf(v, this.budget);
  }

  toList(v: Value): Value[] {
    return iterateToArray(v, this.budget);
  }

  newList(items: Value[]): PyList {
    this.budget.alloc(itemsSize(items));
    return new PyList(items);
  }

  write(text: string): void {
    this.budget.log(Buffer.byteLength(text));
    this.stdout.push(text);
  }

  note(text: string): void {
    if (!this.notes.includes(text)) this.notes.push(text);
  }

  // ---------------------------------------------------------------- names and modules

  builtin(name: string): Value {
    const v = this.builtins.get(name);
    if (v !== undefined) return v;
    const error = new PyException(EXC.NameError, [`name '${name}' is not defined`]);
    const absent = ABSENT_BUILTINS.get(name);
    if (absent) error.hints.push(`${name}() is not available: ${absent}`);
    else {
      const servers = [...this.hosts.keys()].sort();
      error.hints.push(
        servers.length
          ? `Every execution starts with a fresh scope: nothing persists from earlier runs. Server globals: ${servers.join(", ")}.`
          : "Every execution starts with a fresh scope: nothing persists from earlier runs.",
      );
    }
    throw error;
  }

  importModule(name: string): PyModule {
    const cached = this.loaded.get(name);
    if (cached) return cached;
    const make = this.modules.get(name);
    if (!make) {
      const available = [...this.modules.keys()].sort().join(", ");
      throw pyError("ImportError", `module '${name}' is not available in the sandbox (available: ${available})`);
    }
    // A submodule (`urllib.parse`) becomes an attribute of its package once imported, as in CPython.
    const dot = name.lastIndexOf(".");
    const parent = dot > 0 ? this.importModule(name.slice(0, dot)) : null;
    const module = make();
    this.loaded.set(name, module);
    parent?.attrs.set(name.slice(dot + 1), module);
    // A package comes with its submodules, as CPython's startup has imported them already
    // (`import urllib` then `urllib.parse.quote(...)` works there).
    for (const sub of this.modules.keys()) if (sub.startsWith(name + ".") && !sub.includes(".", name.length + 1)) this.importModule(sub);
    return module;
  }

  /** Whether `name` is a module a script may import (`from urllib import parse` asks for `urllib.parse`). */
  hasModule(name: string): boolean {
    return this.modules.has(name);
  }

  // ---------------------------------------------------------------- attributes

  getAttr(obj: Value, name: string): Value {
    return getAttribute(obj, name);
  }

  callMethod(obj: Value, name: string, args: Value[], kwargs: Kwargs | null, f: Frame): Value | Pending {
    const method = lookupMethod(obj, name);
    if (method) return method(this, obj, args, kwargs);
    return this.callValue(this.getAttr(obj, name), args, kwargs, f);
  }

  // ---------------------------------------------------------------- calls

  /** Calls any callable; the result may be Pending (a tool call, a time slice, deep recursion). */
  callValue(fn: Value, args: Value[], kwargs: Kwargs | null, caller: Frame | null): Value | Pending {
    if (fn instanceof PyFunction) return this.callFunction(fn, args, kwargs, caller);
    if (fn instanceof PyBuiltin) return fn.fn(this, args, kwargs);
    if (fn instanceof PyBoundMethod) return fn.call(this, args, kwargs);
    if (fn instanceof PyType) return fn.construct(this, args, kwargs);
    if (fn instanceof PyExcType) {
      if (kwargs && kwargs.size) throw pyError("TypeError", `${fn.name}() takes no keyword arguments`);
      return new PyException(fn, args);
    }
    if (fn instanceof HostCallable) return this.callHost(fn, args, kwargs);
    if (fn instanceof PyInstance && fn.pyCall) return this.callInstance(fn, args, kwargs, caller);
    throw pyError("TypeError", `'${typeName(fn)}' object is not callable`);
  }

  /**
   * The frame that called the callable instance running now (functools.partial, a cached
   * function): what it calls through callMayWait nests under that frame, so that recursion
   * through such wrappers reaches the recursion limit as it does in CPython.
   */
  private instanceCaller: Frame | null = null;

  private callInstance(fn: PyInstance, args: Value[], kwargs: Kwargs | null, caller: Frame | null): Value | Pending {
    const outer = this.instanceCaller;
    this.instanceCaller = caller;
    try {
      return fn.pyCall!(this, args, kwargs);
    } finally {
      this.instanceCaller = outer;
    }
  }

  /** NativeContext.callMayWait: a call whose result may be Pending (a wrapper that forwards the call). */
  callMayWait(fn: Value, args: Value[], kwargs: Kwargs | null = null): Value {
    return this.callValue(fn, args, kwargs, this.instanceCaller) as Value;
  }

  /** NativeContext.call: synchronous, for natives (sort keys, json default hooks); suspending is refused. */
  call(fn: Value, args: Value[], kwargs: Kwargs | null = null): Value {
    this.syncOnly++;
    try {
      const r = kwargs === null && fn instanceof PyFunction && fn.code.unit !== null && fn.code.slotsAreArguments && fn.code.plainArity === args.length && this.jsDepth < STACK_SLICE ? this.callUnit(fn, args) : this.callValue(fn, args, kwargs, null);
      if (r instanceof Pending) {
        r.promise.catch(() => undefined);
        throw pyError("RuntimeError", "a tool call cannot run inside a callback given to a built-in (a sort key, map or filter function); call it in a loop instead");
      }
      return r;
    } finally {
      this.syncOnly--;
    }
  }

  /**
   * Runs `fn` as a native's callback runs: nothing in it gives the event loop a turn or unwinds
   * the stack, so that only a tool call can make its result Pending (the caller refuses it).
   */
  synchronously<T>(fn: () => T): T {
    this.syncOnly++;
    try {
      return fn();
    } finally {
      this.syncOnly--;
    }
  }

  /**
   * A callback (a sort key, a map function) whose body is a JS-tier unit, its arguments its slots:
   * what callPlain and run() do for it (nothing here may yield). It is a copy of run()'s few lines
   * on purpose: its call of the unit is a call site of its own, which sees the one key function
   * of a sort, where run()'s sees every unit the runtime calls. Through callPlain, comprehension +
   * sort ran about 10% slower in a process that had run other workloads first (noisy A/B runs).
   */
  private callUnit(fn: PyFunction, args: Value[]): Value | Pending {
    const frame = new Frame(args.slice(), fn.closure, fn.globals, fn.code.name, 1);
    const unit = fn.code.unit!;
    this.tick();
    this.jsDepth++;
    let r;
    try {
      r = unit.gen(frame, unit, 0, undefined, null, false);
    } catch (e) {
      this.jsDepth--;
      throw this.traced(e, frame, null);
    }
    this.jsDepth--;
    if (r instanceof Pending) return r;
    return r === RETURN ? frame.ret : null;
  }

  callFunction(fn: PyFunction, args: Value[], kwargs: Kwargs | null, caller: Frame | null): Value | Pending {
    const code = fn.code;
    if (kwargs === null && code.plainArity === args.length) {
      // A frame of only the parameters, in order, is a copy of the arguments.
      if (code.slotsAreArguments) return this.callPlain(fn, args.slice(), caller);
      const slots = code.emptySlots.slice();
      const params = code.params;
      for (let i = 0; i < args.length; i++) slots[params[i]!.slot] = args[i]!;
      return this.callPlain(fn, slots, caller);
    }
    if (code.isAsync) return new PyCoroutine(code.name, () => this.invoke(fn, args, kwargs, caller));
    return this.invoke(fn, args, kwargs, caller);
  }

  private invoke(fn: PyFunction, args: Value[], kwargs: Kwargs | null, caller: Frame | null): Value | Pending {
    const code = fn.code;
    const depth = caller === null ? 1 : caller.depth + 1;
    if (depth > RECURSION_LIMIT || (this.syncOnly > 0 && this.jsDepth > 4 * STACK_SLICE)) {
      throw pyError("RecursionError", "maximum recursion depth exceeded");
    }
    // Copying the code's template of unbound slots is cheaper than allocating and filling.
    const frame = new Frame(code.emptySlots.slice(), fn.closure, fn.globals, code.name, depth);
    bindArguments(fn, frame, args, kwargs);
    return this.enter(fn, frame, caller);
  }

  /**
   * Calls a function of plain positional parameters (FunctionCode.plainArity) with exactly as
   * many arguments, already in `slots` (a copy of code.emptySlots): no argument array to bind.
   */
  callPlain(fn: PyFunction, slots: (Value | Cell | typeof UNBOUND)[], caller: Frame | null): Value | Pending {
    const depth = caller === null ? 1 : caller.depth + 1;
    if (depth > RECURSION_LIMIT || (this.syncOnly > 0 && this.jsDepth > 4 * STACK_SLICE)) {
      throw pyError("RecursionError", "maximum recursion depth exceeded");
    }
    const frame = new Frame(slots, fn.closure, fn.globals, fn.code.name, depth);
    if (fn.code.cellSlots.length !== 0) return this.enter(fn, frame, caller);
    // enter() inline, for the commonest call: nothing to capture, nothing to wait for.
    this.tick();
    return this.mayEnter(caller === null ? 0 : caller.depth) ? this.run(fn, frame, caller) : this.resume(fn, frame, caller);
  }

  /**
   * Whether a call from a frame at `depth` may run its body now, on this JS stack; else it runs
   * from resume() (a fresh stack, or after the event loop's turn). callPlain asks, and so does
   * generated code before it enters a unit directly.
   */
  mayEnter(depth: number): boolean {
    if (depth >= RECURSION_LIMIT || this.jsDepth >= STACK_SLICE || this.yieldDue) return false;
    // With setYieldAlways, every other call goes each way (callPlain would yield before the body).
    return !yieldAlways || (this.enterAlternate = !this.enterAlternate);
  }

  /** Runs a call whose frame holds its arguments: fresh cells, one step, then the body. */
  private enter(fn: PyFunction, frame: Frame, caller: Frame | null): Value | Pending {
    const cellSlots = fn.code.cellSlots;
    for (let i = 0; i < cellSlots.length; i++) frame.slots[cellSlots[i]!] = new Cell(UNBOUND);
    this.tick();
    return this.resume(fn, frame, caller);
  }

  /** Runs a call that has taken its step: now, or from the event loop when it must wait. */
  private resume(fn: PyFunction, frame: Frame, caller: Frame | null): Value | Pending {
    // Deep recursion: the call resumes from the event loop, on a fresh JS stack, so Python
    // recursion never turns into unbounded JS recursion.
    if (this.jsDepth >= STACK_SLICE && this.syncOnly === 0) {
      return new Pending(Promise.resolve()).then(() => this.run(fn, frame, caller));
    }
    if (this.shouldYield()) return this.yieldNow().then(() => this.run(fn, frame, caller));
    return this.run(fn, frame, caller);
  }

  /** Runs `fn`'s body in `frame`, adding the frame to the traceback of an escaping exception. */
  private run(fn: PyFunction, frame: Frame, caller: Frame | null): Value | Pending {
    this.jsDepth++;
    let r;
    try {
      // A JS-tier unit is called itself, not through its Stmt wrapper (code.body), whose one call
      // site serves every unit.
      const unit = fn.code.unit;
      r = unit !== null ? unit.gen(frame, unit, 0, undefined, null, false) : fn.code.body(frame);
    } catch (e) {
      this.jsDepth--;
      throw this.traced(e, frame, caller);
    }
    this.jsDepth--;
    if (r instanceof Pending) return this.settled(r, frame, caller);
    return r === RETURN ? frame.ret : null;
  }

  /** The value of a call whose body suspended, once it settles. */
  settled(r: Pending, frame: Frame, caller: Frame | null): Pending {
    return new Pending(
      r.promise.then(
        (c) => (c === RETURN ? frame.ret : null),
        (e) => {
          throw this.traced(e, frame, caller);
        },
      ),
    );
  }

  /** Adds the frame's current line to an exception's traceback as it leaves the frame. */
  traced(e: unknown, frame: Frame, caller: Frame | null): unknown {
    if (e instanceof PyException) {
      e.traceback.push({ line: frame.line, column: frame.col, scope: frame.scopeName });
      void caller;
    } else if (e instanceof ResourceLimitError || e instanceof CancelledError) {
      // Whatever raised it (a boundary check, the workspace), the execution is over.
      this.budget.trip(e);
    }
    return e;
  }

  await(v: Value): Value | Pending {
    if (v instanceof PyCoroutine || v instanceof PyFuture) return v.run();
    throw pyError("TypeError", `object ${typeName(v)} can't be used in 'await' expression`);
  }

  // ---------------------------------------------------------------- host calls

  private callHost(callable: HostCallable, args: Value[], kwargs: Kwargs | null): Value | Pending {
    if (callable.async) {
      return new PyFuture(`${callable.host.name}.${callable.method}_async`, () => this.hostCall(callable, args, kwargs));
    }
    return this.hostCall(callable, args, kwargs);
  }

  private hostCall(callable: HostCallable, args: Value[], kwargs: Kwargs | null): Pending {
    this.budget.toolCall();
    const limits = this.budget.limits;
    const positional = args.map((a) => toHost(a, limits, "tool argument"));
    const keywords: Record<string, unknown> = {};
    // defineProperty: a keyword named `__proto__` is an argument like any other, not the object's prototype.
    if (kwargs) for (const [k, v] of kwargs) Object.defineProperty(keywords, k, { value: toHost(v, limits, "tool argument"), enumerable: true, writable: true, configurable: true });
    const record: ToolCallRecord = {
      server: callable.host.name,
      tool: callable.method,
      arguments: positional.length === 1 && Object.keys(keywords).length === 0 && isRecord(positional[0]) ? (positional[0] as Record<string, unknown>) : { ...keywords, ...(positional.length ? { "*args": positional } : {}) },
      ok: false,
      error: null,
      started_seconds: 0,
      duration_seconds: 0,
    };
    this.toolCalls.push(record);
    const started = performance.now();
    record.started_seconds = (started - this.started) / 1000;
    const method = callable.host.methods.get(callable.method)!;
    const timeoutMs = limits.tool_execution_timeout * 1000;
    const call = this.waitOn<unknown>((resolve, reject) => {
      const bound = (args: Record<string, unknown>) => {
        record.arguments = args;
      };
      Promise.resolve(method(positional, keywords, { budget: this.budget, signal: this.owned.signal, bound })).then(resolve, reject);
      return setLongTimeout(() => reject(new PyException(EXC.TimeoutError, [`${callable.host.name}.${callable.method} timed out after ${limits.tool_execution_timeout} s`])), timeoutMs);
    });
    return new Pending(
      call.then(
        (result) => {
          record.ok = true;
          record.duration_seconds = (performance.now() - started) / 1000;
          return fromHost(result, limits, this.budget);
        },
        (error: unknown) => {
          record.duration_seconds = (performance.now() - started) / 1000;
          if (error instanceof ResourceLimitError) {
            // A limit hit while bringing the result in ends the execution, as any other limit.
            record.error = error.message;
            throw this.budget.trip(error);
          }
          if (error instanceof PyException) {
            record.error = `${error.type.name}: ${String(error.args[0] ?? "")}`;
            throw error;
          }
          const message = error instanceof Error ? error.message : String(error);
          record.error = message;
          const toolError = new PyException(EXC.ToolError, [message]);
          toolError.attrs.set("server", callable.host.name);
          toolError.attrs.set("tool", callable.method);
          toolError.attrs.set("message", message);
          throw toolError;
        },
      ),
    );
  }
}

/**
 * `obj.name`. It depends on nothing of one execution (host objects carry their own methods), so
 * the built-ins made once for every execution can use it.
 */
export function getAttribute(obj: Value, name: string): Value {
  // Every way in (`x.a`, getattr, hasattr, `'{0.a}'.format(x)`) ends here, so what holds for
  // `__dunder__` names (a few readable, the rest refused) holds for names computed at run time too.
  if (name.startsWith("__") && name.endsWith("__") && name.length > 4) return dunderAttribute(obj, name);
  if (obj instanceof PyModule) {
    const v = obj.attrs.get(name);
    if (v === undefined) throw pyError("AttributeError", `module '${obj.name}' has no attribute '${name}'`);
    return v;
  }
  if (obj instanceof HostObject) return hostAttr(obj, name);
  if (obj instanceof PyClass) return classAttribute(obj, name);
  if (obj instanceof PyInstance) return instanceAttribute(obj, name);
  if ((obj instanceof PyDict || obj instanceof PyTuple) && obj.cls !== null) {
    const own = subclassAttribute(obj, obj.cls, name);
    if (own !== undefined) return own;
  }
  if (obj instanceof PyType) {
    const fn = TYPE_ATTRIBUTES.get(obj.name)?.get(name);
    if (fn) return new PyBuiltin(`${obj.name}.${name}`, fn);
    throw pyError("AttributeError", `type object '${obj.name}' has no attribute '${name}'`);
  }
  if (obj instanceof PyExcType) throw pyError("AttributeError", `type object '${obj.name}' has no attribute '${name}'`);
  if (obj instanceof SliceValue && (name === "start" || name === "stop" || name === "step")) return obj[name];
  if (obj instanceof PyException) {
    if (name === "args") return new PyTuple(obj.args);
    const v = obj.attrs.get(name);
    if (v !== undefined) return v;
  }
  const method = lookupMethod(obj, name);
  if (method) return new PyBoundMethod(obj, name, (ctx, args, kwargs) => method(ctx, obj, args, kwargs));
  if (obj instanceof PyObject && obj.pyAttr) {
    const v = obj.pyAttr(name);
    if (v !== undefined) return v;
  }
  throw noAttribute(obj, name);
}

/** `cls.name`: a class attribute (`datetime.now`, `timedelta.max`), or a method taken unbound. */
function classAttribute(cls: PyClass, name: string): Value {
  const v = cls.attr(name);
  if (v !== undefined) return v;
  const method = cls.method(name);
  if (method) {
    return new PyBuiltin(`${cls.name}.${name}`, (ctx, args, kwargs) => {
      const self = args[0];
      if (self === undefined || !cls.test(self)) {
        throw pyError("TypeError", `descriptor '${name}' for '${cls.name}' objects doesn't apply to a '${self === undefined ? "nothing" : typeName(self)}' object`);
      }
      return method(ctx, self, args.slice(1), kwargs);
    });
  }
  throw pyError("AttributeError", `type object '${cls.name}' has no attribute '${name}'`);
}

/**
 * `x.name` of a dict subclass or a named tuple: its data attribute (`default_factory`, a field),
 * its class's method, or a class attribute (`_fields`); undefined leaves the dict's or tuple's own.
 */
function subclassAttribute(obj: PyDict | PyTuple, cls: PyClass, name: string): Value | undefined {
  const v = (obj as { pyAttr?: (name: string) => Value | undefined }).pyAttr?.(name);
  if (v !== undefined) return v;
  const method = cls.method(name);
  if (method) return new PyBoundMethod(obj, name, (ctx, args, kwargs) => method(ctx, obj, args, kwargs));
  return cls.attr(name);
}

/** `x.name` of a module-defined type's instance: its data attribute, else its class's method. */
function instanceAttribute(obj: PyInstance, name: string): Value {
  const v = obj.pyAttr?.(name);
  if (v !== undefined) return v;
  const method = obj.cls.method(name);
  if (method) return new PyBoundMethod(obj, name, (ctx, args, kwargs) => method(ctx, obj, args, kwargs));
  throw noAttribute(obj, name);
}

function noAttribute(obj: Value, name: string): PyException {
  const error = pyError("AttributeError", `'${typeName(obj)}' object has no attribute '${name}'`);
  if (obj instanceof PyDict) error.hints.push(`dict keys are read with subscripts: use ["${name}"] or .get("${name}") instead of .${name}`);
  return error;
}

function hostAttr(host: HostObject, name: string): Value {
  if (host.methods.has(name)) return new HostCallable(host, name, false);
  if (name.endsWith("_async") && host.methods.has(name.slice(0, -6))) return new HostCallable(host, name.slice(0, -6), true);
  const error = pyError("AttributeError", `server '${host.name}' has no tool '${name}'`);
  const close = closestNames(name, [...host.methods.keys()]);
  if (close.length) error.hints.push(`Did you mean ${close.map((c) => `${host.name}.${c}`).join(" or ")}?`);
  error.hints.push(`Read servers/${host.name}.pyi (readToolFile) for the tools of '${host.name}' and their parameters.`);
  throw error;
}

/** Names within a small edit distance of `name`, closest first. */
export function closestNames(name: string, candidates: string[]): string[] {
  const distance = (a: string, b: string): number => {
    const row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      let diagonal = row[0]!;
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const above = row[j]!;
        row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
        diagonal = above;
      }
    }
    return row[b.length]!;
  };
  const limit = Math.max(2, Math.floor(name.length / 3));
  return candidates
    .map((c) => [c, distance(name.toLowerCase(), c.toLowerCase())] as const)
    .filter(([, d]) => d <= limit)
    .sort((a, b) => a[1] - b[1])
    .slice(0, 3)
    .map(([c]) => c);
}

function isRecord(v: unknown): boolean {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Binds call arguments to a function's parameters, with CPython's error messages. */
function bindArguments(fn: PyFunction, frame: Frame, args: Value[], kwargs: Kwargs | null): void {
  const code = fn.code;
  // The common case: exactly the positional parameters, nothing else.
  if (kwargs === null && !code.vararg && !code.kwarg && args.length === code.params.length && code.kwonlyStart === args.length) {
    const params = code.params;
    for (let i = 0; i < args.length; i++) {
      const p = params[i]!;
      frame.slots[p.slot] = p.cell ? new Cell(args[i]!) : args[i]!;
    }
    return;
  }
  const params = code.params;
  const nPositional = code.kwonlyStart;
  // `price(item)` of `def price(item, discount=0.0)`: the positional arguments, then defaults.
  if (kwargs === null && !code.vararg && !code.kwarg && nPositional === params.length && args.length < nPositional && args.length >= nPositional - fn.defaults.length) {
    const firstDefault = nPositional - fn.defaults.length;
    for (let i = 0; i < nPositional; i++) {
      const p = params[i]!;
      const v = i < args.length ? args[i]! : fn.defaults[i - firstDefault]!;
      frame.slots[p.slot] = p.cell ? new Cell(v) : v;
    }
    return;
  }
  const name = code.name;
  const set = (p: { slot: number; cell: boolean }, v: Value) => {
    frame.slots[p.slot] = p.cell ? new Cell(v) : v;
  };
  const given: (Value | undefined)[] = new Array(params.length);
  const count = Math.min(args.length, nPositional);
  for (let i = 0; i < count; i++) given[i] = args[i];
  if (code.vararg) set(code.vararg, new PyTuple(args.slice(nPositional)));
  let extra: PyDict | null = null;
  if (code.kwarg) extra = new PyDict();
  // Keywords before the positional count, as CPython checks them: an unknown keyword is the
  // error even when there are also too many positional arguments.
  if (kwargs) {
    for (const [key, value] of kwargs) {
      const index = params.findIndex((p) => p.name === key);
      if (index < 0 || index < code.posonly) {
        if (extra) {
          extra.set(key, value);
          continue;
        }
        const posonly = [...kwargs.keys()].filter((k) => params.slice(0, code.posonly).some((p) => p.name === k));
        if (posonly.length) throw pyError("TypeError", `${name}() got some positional-only arguments passed as keyword arguments: '${posonly.join(", ")}'`);
        throw pyError("TypeError", `${name}() got an unexpected keyword argument '${key}'`);
      }
      if (given[index] !== undefined) throw pyError("TypeError", `${name}() got multiple values for argument '${key}'`);
      given[index] = value;
    }
  }
  if (args.length > nPositional && !code.vararg) {
    const takes = fn.defaults.length
      ? `from ${nPositional - fn.defaults.length} to ${nPositional} positional arguments`
      : `${nPositional} positional argument${nPositional === 1 ? "" : "s"}`;
    let kwonlyGiven = 0;
    for (let i = nPositional; i < params.length; i++) if (given[i] !== undefined) kwonlyGiven++;
    const n = args.length;
    const kwonly = kwonlyGiven ? ` positional argument${n === 1 ? "" : "s"} (and ${kwonlyGiven} keyword-only argument${kwonlyGiven === 1 ? "" : "s"})` : "";
    throw pyError("TypeError", `${name}() takes ${takes} but ${n}${kwonly} ${n === 1 && !kwonlyGiven ? "was" : "were"} given`);
  }
  if (code.kwarg) set(code.kwarg, extra!);
  const firstDefault = nPositional - fn.defaults.length;
  const missing: string[] = [];
  for (let i = 0; i < nPositional; i++) {
    if (given[i] === undefined) {
      if (i >= firstDefault) given[i] = fn.defaults[i - firstDefault]!;
      else missing.push(params[i]!.name);
    }
  }
  if (missing.length) throw missingArguments(name, missing, "positional");
  const missingKw: string[] = [];
  for (let i = nPositional; i < params.length; i++) {
    if (given[i] === undefined) {
      const d = fn.kwDefaults.get(params[i]!.name);
      if (d !== undefined) given[i] = d;
      else missingKw.push(params[i]!.name);
    }
  }
  if (missingKw.length) throw missingArguments(name, missingKw, "keyword-only");
  for (let i = 0; i < params.length; i++) set(params[i]!, given[i]!);
}

function missingArguments(name: string, missing: string[], kind: string): PyException {
  const quoted = missing.map((m) => `'${m}'`);
  const list = quoted.length === 1 ? quoted[0] : quoted.length === 2 ? `${quoted[0]} and ${quoted[1]}` : `${quoted.slice(0, -1).join(", ")}, and ${quoted[quoted.length - 1]}`;
  return pyError("TypeError", `${name}() missing ${missing.length} required ${kind} argument${missing.length === 1 ? "" : "s"}: ${list}`);
}

export { PyIterator, PyObject };
