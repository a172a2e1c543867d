// Generator expressions: `(f(x) for x in xs if p(x))` is a generator object that computes each
// item when a consumer asks for it, as CPython's does.
//
// Its creator evaluates the first iterable and takes its cursor (errors there raise at creation);
// everything else runs in the generator's own frame, one item per step: advance the innermost
// `for` clause, store its target, test its `if`s, open the next clause or compute the element.
// Any of these may suspend (a tool call in the element): the step then returns a Pending, and a
// consumer that can wait (stepping.ts) waits for it. The synchronous `next` of PyIterator runs the
// step as a native's callback runs, where a suspension is refused with a RuntimeError.
//
// The code runs on either tier: closures driven by ClauseMachine, or the JavaScript tier's unit
// of the expression (codegen.ts), which returns at each item and is called again at its label
// for the next one (UnitMachine).
//
// A consumer that takes every item the same way, running no Python code on them (list(), sum(),
// "".join()...), drains the generator instead of stepping it: its per-item work is a sink the
// generator calls at each item (in the JS tier's unit, without leaving it), until the end or
// until the sink says to stop.
import type { Unit } from "./codegen.js";
import { EXC, PyException, pyError } from "./errors.js";
import type { Expr, GeneratorFrame, Store } from "./frame.js";
import { DONE, Pending, PyIterator, type Step } from "./objects.js";
import type { Runtime } from "./runtime.js";
import { storedSize } from "./sizes.js";
import { stepper } from "./stepping.js";
import { PyObject, truthy, type Value } from "./values.js";

/** A place in the source, set on the generator's frame before each part runs (for tracebacks). */
export interface Position {
  line: number;
  col: number;
}

/** One `for ... in ... if ...` clause. */
export interface Clause {
  /** The iterable, evaluated in the generator's frame; null for the first (its creator's). */
  iter: Expr | null;
  iterAt: Position;
  store: Store;
  targetAt: Position;
  ifs: { test: Expr; at: Position }[];
}

/** A generator expression as compiled, shared by every generator it makes. */
export interface GenexpCode {
  clauses: Clause[];
  elt: Expr;
  eltAt: Position;
  /** The expression's start: CPython's line for an iterable that is not iterable. */
  at: Position;
}

/** What `next` says when an item would have to wait. */
const REFUSED =
  "a tool call inside a generator expression cannot run here: what consumes it cannot wait (a sort key, a map or filter function, " +
  "a function of another module); build a list with a list comprehension first, or make the call in a for loop";

export class PyGenerator extends PyIterator {
  private readonly run: GeneratorRun;

  constructor(rt: Runtime, frame: GeneratorFrame, body: Body, bytes: number) {
    const run = new GeneratorRun(rt, frame, body);
    super(run.next, "generator", bytes, false, run.step);
    this.run = run;
  }

  override pyRepr(): string {
    return "<generator object <genexpr>>";
  }

  /**
   * Feeds the items to `each` until the end, or until `each` returns true (the generator is then
   * left after that item, as a consumer that took it with next() leaves it). `each` must run no
   * Python code: the generator may be running while it does. Its exceptions are the consumer's,
   * raised once the generator has stopped. Returns undefined, or a Pending of it.
   */
  drain(each: (item: Value) => boolean | void): undefined | Pending {
    return this.run.drain(each);
  }
}

type Outcome = Value | typeof DONE | Pending;

/** Takes an item as a generator produces it; true: stop there (the item is the resume's outcome). */
export type Sink = (item: Value) => boolean;

/** What runs a generator's code, on one tier or the other. */
export interface Body {
  /**
   * Runs to the next item (or the end, DONE), or until something must wait (a Pending of them).
   * With a sink, each item goes to it, and the run goes on past those it does not stop at.
   */
  resume(sink: Sink | null): Outcome;
  /** The generator has ended: what the body holds may go. */
  release(): void;
}

const READY = 0;
const RUNNING = 1;
const FINISHED = 2;

/** One generator's life: not re-entered while it runs, ended by an exception or its last item. */
class GeneratorRun {
  private state = READY;

  constructor(
    private readonly rt: Runtime,
    private readonly frame: GeneratorFrame,
    private readonly body: Body,
  ) {}

  /** The next item, DONE, or a Pending of one of them. */
  readonly step: Step = () => this.resume(null);

  /** The next item or DONE, for a consumer that cannot wait: an item that must wait is refused. */
  readonly next = (): Value | typeof DONE => {
    const r = this.rt.synchronously(this.step);
    if (!(r instanceof Pending)) return r;
    // Nobody will take what the suspended step makes: the generator ends here, as after an error.
    this.finish();
    r.promise.catch(() => undefined);
    throw pyError("RuntimeError", REFUSED);
  };

  /** PyGenerator.drain. */
  drain(each: (item: Value) => boolean | void): undefined | Pending {
    let failure: { error: unknown } | null = null;
    const sink: Sink = (item) => {
      try {
        return each(item) === true;
      } catch (error) {
        failure = { error };
        return true;
      }
    };
    const end = (): undefined => {
      if (failure !== null) throw failure.error;
      return undefined;
    };
    const r = this.resume(sink);
    return r instanceof Pending ? r.then(end) : end();
  }

  private resume(sink: Sink | null): Outcome {
    if (this.state === FINISHED) return DONE;
    if (this.state === RUNNING) throw pyError("ValueError", "generator already executing");
    this.state = RUNNING;
    let r: Outcome;
    try {
      r = this.body.resume(sink);
    } catch (e) {
      throw this.failed(e);
    }
    if (r instanceof Pending) {
      return new Pending(
        r.promise.then(
          (v) => this.produced(v as Value | typeof DONE),
          (e) => {
            throw this.failed(e);
          },
        ),
      );
    }
    return this.produced(r);
  }

  private produced(v: Value | typeof DONE): Value | typeof DONE {
    if (this.state === FINISHED) return DONE;
    if (v === DONE) this.finish();
    else this.state = READY;
    return v;
  }

  /** An exception leaving the generator ends it; its frame joins the traceback. */
  private failed(e: unknown): unknown {
    this.finish();
    const traced = this.rt.traced(e, this.frame, null);
    // PEP 479: a StopIteration escaping a generator would end its consumer's loop unseen.
    if (traced instanceof PyException && traced.type === EXC.StopIteration) {
      const error = pyError("RuntimeError", "generator raised StopIteration");
      this.rt.budget.alloc(storedSize(traced));
      error.cause = traced;
      error.suppressContext = true;
      return error;
    }
    return traced;
  }

  private finish(): void {
    this.state = FINISHED;
    this.body.release();
  }
}

/**
 * A generator expression that awaits: in CPython an asynchronous generator, which only `async
 * for` consumes (refused in the dialect); anything else finds it not iterable, as there.
 */
export class PyAsyncGenerator extends PyObject {
  get typeName(): string {
    return "async_generator";
  }

  pyRepr(): string {
    return "<async_generator object <genexpr>>";
  }
}

/** Returned by the parts of a step that produced no item: the step goes on with the next one. */
const AGAIN: unique symbol = Symbol("again");

/** The closure tier's run of a generator expression: the cursor of each open clause, innermost last. */
export class ClauseMachine implements Body {
  private readonly cursors: Step[];
  private finished = false;

  constructor(
    private readonly rt: Runtime,
    private readonly code: GenexpCode,
    private readonly frame: GeneratorFrame,
    first: Step,
  ) {
    this.cursors = [first];
  }

  resume(sink: Sink | null): Outcome {
    if (sink === null) return this.advance();
    const feed = (): Outcome => {
      for (;;) {
        const r = this.advance();
        if (r === DONE) return DONE;
        if (r instanceof Pending) return r.then((x: Value | typeof DONE) => (x === DONE || sink(x) ? x : feed()));
        if (sink(r)) return r;
      }
    };
    return feed();
  }

  release(): void {
    this.finished = true;
    this.cursors.length = 0;
  }

  private at(p: Position): void {
    this.frame.line = p.line;
    this.frame.col = p.col;
  }

  /** Runs until the next item or the end, or until something must wait. */
  private advance(): Outcome {
    const { rt, cursors } = this;
    for (;;) {
      const d = cursors.length - 1;
      if (d < 0) return DONE;
      if (rt.shouldYield()) return rt.yieldNow().then(() => this.proceed(AGAIN));
      rt.tick();
      this.at(this.code.at);
      const item = cursors[d]!();
      if (item === DONE) {
        cursors.pop();
        continue;
      }
      const r = item instanceof Pending ? item.then((x: Value | typeof DONE) => this.proceed(x === DONE ? this.exhausted() : this.take(d, x))) : this.take(d, item);
      if (r !== AGAIN) return r;
    }
  }

  /** Where a part that waited settled: the item it produced, or on to the next one. */
  private proceed(r: Outcome | typeof AGAIN): Outcome {
    // Ended meanwhile (its consumer could not wait): nothing more runs.
    if (this.finished) return DONE;
    return r === AGAIN ? this.advance() : r;
  }

  private exhausted(): typeof AGAIN {
    this.cursors.pop();
    return AGAIN;
  }

  /** Stores `item` into the target of clause `d`, then tests its conditions. */
  private take(d: number, item: Value): Outcome | typeof AGAIN {
    const clause = this.code.clauses[d]!;
    this.at(clause.targetAt);
    const stored = clause.store(this.frame, item);
    if (stored instanceof Pending) return stored.then(() => this.proceed(this.test(d, 0)));
    return this.test(d, 0);
  }

  /** Tests the conditions of clause `d` from the `j`th; then opens the next clause or computes the element. */
  private test(d: number, j: number): Outcome | typeof AGAIN {
    const { code, frame } = this;
    const ifs = code.clauses[d]!.ifs;
    for (; j < ifs.length; j++) {
      const c = ifs[j]!;
      this.at(c.at);
      const v = c.test(frame);
      if (v instanceof Pending) {
        const k = j;
        return v.then((x: Value) => this.proceed(truthy(x) ? this.test(d, k + 1) : AGAIN));
      }
      if (!truthy(v)) return AGAIN;
    }
    if (d + 1 < code.clauses.length) return this.open(d + 1);
    this.at(code.eltAt);
    return code.elt(frame);
  }

  /** Evaluates the iterable of clause `d` and makes it the innermost cursor. */
  private open(d: number): Outcome | typeof AGAIN {
    const clause = this.code.clauses[d]!;
    this.at(clause.iterAt);
    const src = clause.iter!(this.frame);
    if (src instanceof Pending) {
      return src.then((v: Value) => {
        this.enter(v);
        return this.proceed(AGAIN);
      });
    }
    this.enter(src);
    return AGAIN;
  }

  private enter(src: Value): void {
    this.at(this.code.at);
    this.cursors.push(stepper(src));
  }
}

/**
 * The JavaScript tier's run of a generator expression: its unit, called again at each item's
 * label. A sink goes on the frame, where the unit calls it at each item: it returns the item
 * only where the sink stops.
 */
export class UnitMachine implements Body {
  /** The first call's `rv`: the first iterable's cursor. */
  private first: Step | null;

  constructor(
    private readonly unit: Unit,
    private readonly frame: GeneratorFrame,
    first: Step,
  ) {
    this.first = first;
  }

  resume(sink: Sink | null): Outcome {
    const first = this.first;
    this.first = null;
    const frame = this.frame;
    frame.sink = sink;
    return this.outcome(this.unit.gen(frame, this.unit, frame.label, first, frame.saved, false));
  }

  release(): void {
    this.first = null;
    this.frame.sink = null;
    this.frame.saved = null;
  }

  /** What the unit returned (or a suspension of it settled with): an item, the end, or a Pending. */
  private outcome(r: unknown): Outcome {
    if (r instanceof Pending) return r.then((settled: unknown) => this.outcome(settled));
    this.frame.sink = null;
    return r === undefined ? DONE : (r as Value);
  }
}
