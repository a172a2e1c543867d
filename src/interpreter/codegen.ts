// The second tier: a code unit (a module body or a function body) compiled to one JavaScript
// function, which V8 then optimizes as a whole.
//
// The closure tree of compile.ts makes every statement, expression and call a call of its own
// closure; V8 cannot inline through call sites that see many different closures, so a loop
// iteration costs tens of nanoseconds of calls. Here the same unit becomes straight-line
// JavaScript over the frame's slots, with the fast paths (fast-paths.ts) written inline.
//
// Suspension (a tool call, a time slice given back, deep recursion) stays possible anywhere a call
// is made, and at every loop head. Every expression's value goes into a temporary; every step
// that has an effect runs under `if (pc === 0)`. A step that may suspend has a label: when its
// value is Pending, the function saves the temporaries live there and returns a Pending that
// calls it again with `pc` set to the label. Re-entered, it skips every guarded step, re-takes
// the same branches (the tests of ifs and loops only read restored temporaries; a loop is entered
// only when the label is inside it), and carries on from the label with the settled value (or
// throws the settled error there, inside the right `try`).
//
// What this tier does not translate (`try`, `raise`, `def`, `import`, `await`, keyword
// unpacking, ...) it hands to the closure compiler: the closure runs on the same frame and is
// just one more step that may suspend. Units are compiled once per AST node and shared by every
// execution of the script; what belongs to one execution (the delegated closures, the global
// cells, the runtime) comes in through a Unit.
import type * as A from "../../grammar/ast.js";
import { FormatSpec } from "./format.js";
import { Pending, DONE, PyBuiltin } from "./objects.js";
import { type BinaryOp, compare, equals, getItem, setItem, SliceValue, storedSize, unary } from "./ops.js";
import { isIn, isNotIn, stepper, waits } from "./stepping.js";
import { entriesSize, entrySize } from "./sizes.js";
import type { Runtime } from "./runtime.js";
import type { Access, Scope } from "./scope.js";
import { EMPTY_TUPLE, isOwnKey, PyDict, PyFloat, PyList, PySet, PyTuple, truthy, type Value } from "./values.js";
import { PyFunction } from "./function.js";
import { BREAK, Cell, CONTINUE, type Expr, Frame, freeUnbound, type Globals, RETURN, type Stmt, type Store, UNBOUND, unboundLocal } from "./frame.js";
import { answerStatement } from "./answer.js";
import { BINARY_FAST_PATHS, COMPARE_FAST_PATHS, FAST_PATH_SCOPE, ITEM_FAST_PATH, methodFastPath, NEGATE_FAST_PATH, SET_ITEM_FAST_PATH, STR_KEY_ITEM_FAST_PATH } from "./fast-paths.js";
import { augmentedValue } from "./augmented.js";
import { constantValue } from "./constant.js";
import { MethodSite, methodKind } from "./method-site.js";
import { spliceStarred, unpackItems, unpackWaiting } from "./unpacking.js";
import { factoryOf, type Made } from "./unit-texts.js";

/** What the closure compiler offers this tier (its closures serve every execution of the script). */
export interface ClosureCompiler {
  statement(s: A.Stmt, scope: Scope): Stmt;
  expr(e: A.Expr, scope: Scope): Expr;
  store(target: A.Expr, scope: Scope): Store;
  access(node: A.Name, scope: Scope): Access;
  resolve(scope: Scope, id: string): Access;
  /** This execution's scope of a function, comprehension or module node. */
  scopeOf(node: A.Node): Scope;
  /** What makes a generator of `e` from its first iterable's value (this tier evaluates that). */
  generatorMaker(e: A.GeneratorExp, scope: Scope): (f: Frame, src: Value) => Value;
}

type Delegate =
  | { kind: "stmt"; node: A.Stmt; scope: Scope }
  | { kind: "expr"; node: A.Expr; scope: Scope }
  | { kind: "store"; node: A.Expr; scope: Scope }
  | { kind: "genexp"; node: A.GeneratorExp; scope: Scope };

type GenFn = (f: Frame, x: Unit, pc: number, rv: unknown, sv: unknown[] | null, thrown: boolean) => unknown;

interface Plan {
  gen: GenFn;
  delegates: Delegate[];
  globals: string[];
  /** Its text was new to this process (unit-texts.ts): V8 has no type feedback for it yet. */
  fresh: boolean;
}

/**
 * A compiled unit, shared by every execution of its script: the runtime comes in through the
 * frame, and the cells of its global names are looked up again when a frame of another
 * execution (another Globals) enters it.
 */
export class Unit {
  /** The Globals (its id: see Globals.id) that G's cells and B's built-ins were taken from. */
  private owner = -1;
  G: Cell[] = [];
  B: (Value | undefined)[] = [];
  /** The unit as a Stmt over a frame, run from its start. */
  readonly run: Stmt;
  constructor(
    readonly gen: GenFn,
    readonly K: unknown[],
    readonly names: string[],
    /** Its text was new to this process: the caller moving to it primes its yields (Runtime.primeYields). */
    readonly fresh: boolean,
  ) {
    this.run = (f) => gen(f, this, 0, undefined, null, false) as ReturnType<Stmt>;
  }

  /** The cells of the unit's global names in `globals` (one Globals per execution). */
  cells(globals: Globals): Cell[] {
    if (this.owner === globals.id) return this.G;
    this.owner = globals.id;
    this.G = this.names.map((n) => globals.cell(n));
    this.B = this.names.map(() => undefined);
    return this.G;
  }

  /** The built-in a global name falls back to (NameError when there is none). */
  builtin(i: number, rt: Runtime): Value {
    const v = rt.builtin(this.names[i]!);
    this.B[i] = v;
    return v;
  }

  /** Suspends at label `k`: the unit runs again from there once `p` settles. */
  suspend(p: Pending, f: Frame, k: number, sv: unknown[]): Pending {
    return new Pending(
      p.promise.then(
        (v) => settle(this.gen(f, this, k, v, sv, false)),
        (e) => settle(this.gen(f, this, k, e, sv, true)),
      ),
    );
  }
}

function settle(r: unknown): unknown {
  return r instanceof Pending ? r.promise : r;
}

/** What generated code reaches by name (made on first use), the names the fast paths' text uses among them. */
const runtimeNames = () => ({
  ...FAST_PATH_SCOPE,
  truthy,
  Pending,
  UNBOUND,
  DONE,
  BREAK,
  CONTINUE,
  RETURN,
  stepper,
  getItem,
  setItem,
  compare,
  isIn,
  isNotIn,
  waits,
  equals,
  unary,
  PyFunction,
  PyBuiltin,
  PyTuple,
  PyDict,
  PyFloat,
  PyList,
  PySet,
  Cell,
  Frame,
  storedSize,
  entrySize,
  entriesSize,
  methodKind,
  EMPTY_TUPLE,
  SliceValue,
  unpackItems,
  unpackWaiting,
  spliceStarred,
  augmentedValue,
  unboundLocal,
  freeUnbound,
});
type RuntimeNames = ReturnType<typeof runtimeNames>;
let RUNTIME: RuntimeNames | null = null;

/**
 * Compiled units by the AST node that owns the body (module, def, lambda, generator expression,
 * loop): one per node, shared by every execution of the script (its analysis is kept with it).
 */
const UNITS = new WeakMap<A.Node, Unit | null>();
/**
 * A unit whose JavaScript would be longer stays on closures: V8 compiles huge functions slowly,
 * and making one holds the event loop (a 64 KB script's body took 120-370 ms as one unit). Its
 * loops and functions still move on their own. Generating stops as soon as the text passes it.
 */
const MAX_UNIT_CHARS = 64 * 1024;

/** Thrown by the generator when a unit passes MAX_UNIT_CHARS (caught in unitFor). */
const TOO_LARGE = Symbol("too large");
/** Thrown by the generator asked for a known shape only, when the unit's text is not one (caught in unitFor). */
const NOT_KNOWN = Symbol("not a known shape");

let unitsCompiled = 0;
let unitsRejected = 0;

/** How many units V8 refused to compile (a generator bug; each ran on closures instead). */
export function rejectedUnitCount(): number {
  return unitsRejected;
}

/** How many units this process has compiled to JavaScript (for tests and operators). */
export function compiledUnitCount(): number {
  return unitsCompiled;
}

/**
 * The unit of `owner`, made by `make` on first use; null when this tier does not take it. With
 * `knownOnly` (a unit moving early, tiering.ts KNOWN_SHAPE_TIER_UP), also null when its text is
 * not a known shape (unit-texts.ts); it is then asked again later.
 */
function unitFor(owner: A.Node, cc: ClosureCompiler, knownOnly: boolean, make: (g: Generator) => Plan | null): Unit | null {
  let unit = UNITS.get(owner);
  if (unit === undefined) {
    let plan: Plan | null;
    try {
      plan = make(new Generator(cc, knownOnly));
    } catch (e) {
      if (e === NOT_KNOWN) return null;
      if (e !== TOO_LARGE) throw e;
      plan = null;
    }
    unitsCompiled++;
    unit = plan === null ? null : unitOf(plan, cc);
    UNITS.set(owner, unit);
  }
  return unit;
}

/**
 * The unit of a generator expression's body (generator.ts runs it); null when this tier does not
 * take it (the generator runs on closures).
 */
export function compileGeneratorUnit(e: A.GeneratorExp, scope: Scope, cc: ClosureCompiler, knownOnly = false): Unit | null {
  return unitFor(e, cc, knownOnly, (g) => g.generatorUnit(e, scope));
}

/**
 * The unit of a loop statement, entered at the loop's head by the closure tier once the loop has
 * turned hot (compile.ts, loopTier): a `for` loop's unit takes the loop's cursor as `rv` (the
 * closure tier made it, and may have taken items from it). Null when this tier does not take it.
 */
export function compileLoopUnit(loop: A.For | A.While, scope: Scope, cc: ClosureCompiler, knownOnly = false): Unit | null {
  return unitFor(loop, cc, knownOnly, (g) => g.loopUnit(loop, scope));
}

/** Whether the body of `owner` already has a compiled unit (a script run before). */
export function isCompiled(owner: A.Node): boolean {
  return UNITS.get(owner) != null;
}

/**
 * The unit of `owner`'s body (`run` is its Stmt); null when this tier does not take it (the
 * caller compiles closures instead).
 */
export function compileUnit(owner: A.Node, body: A.Stmt[], scope: Scope, cc: ClosureCompiler, knownOnly = false): Unit | null {
  return unitFor(owner, cc, knownOnly, (g) => g.unit(body, scope));
}

function unitOf(plan: Plan, cc: ClosureCompiler): Unit {
  const K = plan.delegates.map((d) => {
    switch (d.kind) {
      case "stmt":
        return cc.statement(d.node, d.scope);
      case "expr":
        return cc.expr(d.node, d.scope);
      case "store":
        return cc.store(d.node, d.scope);
      case "genexp":
        return cc.generatorMaker(d.node, d.scope);
    }
  });
  return new Unit(plan.gen, K, plan.globals, plan.fresh);
}

// ------------------------------------------------------------------ the generator

class Generator {
  private readonly out: string[] = [];
  private size = 0;
  /** The line of each temporary's last use, by number. */
  private readonly lastUse: number[] = [];
  /** Each label's line and the number of temporaries allocated before it. */
  private readonly saves: { line: number; temps: number; label: number }[] = [];
  /** Where each open loop starts: its first line and the temporaries allocated before it. */
  private readonly loopStarts: { line: number; temps: number; reads: string[] }[] = [];
  /** The temporary each open branch tests. */
  private readonly branches: string[] = [];
  private guardOpen = false;
  private temps = 0;
  private labels = 0;
  private readonly delegates: Delegate[] = [];
  private readonly consts: unknown[] = [];
  /** Where each source position (line:col) is in consts (see where). */
  private readonly positions = new Map<string, number>();
  private readonly globals: string[] = [];
  private readonly globalIndex = new Map<string, number>();
  /** JS labels of the enclosing Python loops, innermost last. */
  private readonly loops: string[] = [];
  private loopCount = 0;
  /** The last label inside each loop, by the loop's JS label (filled in once the loop is emitted). */
  private readonly lastLabel = new Map<string, number>();

  /** A module's final expression statement: its value is the script's answer (compile.ts). */
  private answer: A.ExprStmt | null = null;

  constructor(
    private readonly cc: ClosureCompiler,
    /** Only a unit whose text is a known shape is wanted (unitFor). */
    private readonly knownOnly: boolean,
  ) {}

  unit(body: A.Stmt[], scope: Scope): Plan | null {
    this.answer = scope.kind === "module" ? answerStatement(body) : null;
    for (const s of body) this.statement(s, scope);
    return this.plan();
  }

  /** A loop on its own (see compileLoopUnit): the statement's step and line are the closure tier's. */
  loopUnit(s: A.For | A.While, scope: Scope): Plan | null {
    if (s.kind === "While") this.whileLoop(s, scope);
    else {
      const next = this.temp();
      this.step(`${next} = rv;`);
      this.forLoopOver(s, scope, next);
    }
    return this.plan();
  }

  /**
   * A generator expression's body, run in the generator's frame (`scope` is its own): its
   * clauses are nested loops, and each element is yielded (see yieldValue). The first call gets
   * the first iterable's cursor, made by the creator, as `rv`.
   */
  generatorUnit(e: A.GeneratorExp, scope: Scope): Plan | null {
    const first = this.temp();
    this.step(`${first} = rv;`);
    const labels: string[] = [];
    e.generators.forEach((g, i) => {
      let next = first;
      if (i > 0) {
        this.step(this.where(g.iter));
        const iterable = this.expr(g.iter, scope);
        next = this.temp();
        // CPython reports an iterable that is not iterable at the expression's start.
        this.step(`${this.where(e)} ${next} = stepper(${iterable});`);
      }
      const item = this.temp();
      const label = this.openLoop();
      labels.push(label);
      this.loopHead();
      this.suspendable(item, `${next}()`, `rt.tick(); ${this.where(e)} `);
      this.readInLoop(item);
      this.structural(`if (${item} === DONE) break ${label};`);
      this.step(this.where(g.target));
      this.store(g.target, item, scope);
      for (const c of g.ifs) {
        this.step(this.where(c));
        const t = this.held(this.expr(c, scope));
        this.readInLoop(t);
        this.structural(`if (!${this.truth(t)}) continue ${label};`);
      }
    });
    this.step(this.where(e.elt));
    this.yieldValue(this.expr(e.elt, scope));
    for (const label of labels.reverse()) this.closeLoop(label);
    return this.plan();
  }

  /** The JavaScript of what was emitted, as a Plan (null when too large, or refused by V8). */
  private plan(): Plan | null {
    this.close();
    const temps = Array.from({ length: this.temps }, (_, i) => `t${i}`);
    const live = this.liveAtLabels();
    // Resuming at a label restores what it saved: its live temporaries, in order.
    const restore = this.saves
      .map((save, i) => (live[i]!.length ? `case ${save.label}: ${live[i]!.map((t, j) => `${t} = sv[${j}];`).join(" ")} break;` : ""))
      .join(" ");
    const head = [
      "return function unit(f, x, pc, rv, sv, thrown) {",
      "const rt = f.rt, S = f.slots;",
      this.delegates.length ? "const K = x.K;" : "",
      // The cells of the unit's globals, held in constants: a read or write is one field access.
      this.globals.length ? `const G = x.cells(f.globals), B = x.B, ${this.globals.map((_, i) => `g${i} = G[${i}]`).join(", ")};` : "",
      temps.length ? `let ${temps.join(", ")};` : "",
      restore ? `if (sv !== null) switch (pc) { ${restore} }` : "",
    ];
    RUNTIME ??= runtimeNames();
    const code = this.out.join("\n").replace(/\$SAVE_(\d+)\$/g, (_, i: string) => `[${live[Number(i)]!.join(", ")}]`).replace(/\$LAST_(L\d+)\$/g, (_, label: string) => String(this.lastLabel.get(label)));
    const text = `"use strict";\nconst {${Object.keys(RUNTIME).join(", ")}} = R;\n` + head.join("\n") + "\n" + code + "\nreturn undefined;\n};\n";
    let made: Made<RuntimeNames, GenFn> | null;
    try {
      made = factoryOf<RuntimeNames, GenFn>(text, this.knownOnly);
    } catch (e) {
      // A generator bug must not fail a script: the unit stays on closures. Tests forcing the
      // tier (PY_CODEGEN=always) see the error instead.
      if (process.env.PY_CODEGEN === "always") throw e;
      unitsRejected++;
      return null;
    }
    if (made === null) throw NOT_KNOWN;
    return { gen: made.make(RUNTIME, this.consts), delegates: this.delegates, globals: this.globals, fresh: made.fresh };
  }

  // ---------------------------------------------------------------- emitting

  private temp(): string {
    return `t${this.temps++}`;
  }

  private emit(line: string): void {
    this.size += line.length;
    if (this.size > MAX_UNIT_CHARS) throw TOO_LARGE;
    for (const m of line.matchAll(/\bt(\d+)\b/g)) this.lastUse[Number(m[1])] = this.out.length;
    this.out.push(line);
  }

  /**
   * A placeholder for the temporaries a label saves, filled in by unit() with the live ones:
   * allocated before the label (a temporary is assigned after its allocation in the text) and
   * read after it (in the text, or anywhere in a loop around both: closeLoop extends the use).
   */
  private saved(): string {
    this.saves.push({ line: this.out.length, temps: this.temps, label: this.labels });
    return `$SAVE_${this.saves.length - 1}$`;
  }

  /**
   * The temporaries live at each label, in one sweep down the lines (labels are in line order):
   * a temporary joins when allocated, if still used later, and leaves after its last use.
   */
  private liveAtLabels(): string[][] {
    const endingAt = new Map<number, number[]>();
    const active = new Set<number>();
    const out: string[][] = [];
    let allocated = 0;
    let swept = -1;
    for (const { line, temps } of this.saves) {
      for (; swept < line; swept++) for (const t of endingAt.get(swept + 1) ?? []) active.delete(t);
      for (; allocated < temps; allocated++) {
        const end = this.lastUse[allocated] ?? -1;
        if (end <= line) continue;
        active.add(allocated);
        const list = endingAt.get(end);
        if (list) list.push(allocated);
        else endingAt.set(end, [allocated]);
      }
      out.push([...active].map((t) => `t${t}`));
    }
    return out;
  }

  /** An effectful step: runs only when not resuming. */
  private step(code: string): void {
    if (!this.guardOpen) {
      this.emit("if (pc === 0) {");
      this.guardOpen = true;
    }
    this.emit(code);
  }

  /** Ends the current run of guarded steps. */
  private close(): void {
    if (this.guardOpen) {
      this.emit("}");
      this.guardOpen = false;
    }
  }

  /** Structural code (branches, loops): runs when resuming too, so it may only read temporaries. */
  private structural(code: string): void {
    this.close();
    this.emit(code);
  }

  /**
   * Opens a branch on `t`: `t` is then live at every label inside (resuming there re-takes the
   * branch), until closeBranch.
   */
  private openBranch(code: string, t: string): void {
    this.structural(code);
    this.branches.push(t);
  }

  private closeBranch(code: string): void {
    this.structural(code);
    this.extend(this.branches.pop()!);
  }

  /** `t`, read by structural code in the innermost loop, stays live to that loop's end. */
  private readInLoop(t: string): void {
    this.loopStarts[this.loopStarts.length - 1]!.reads.push(t);
  }

  private extend(t: string): void {
    const n = Number(t.slice(1));
    this.lastUse[n] = Math.max(this.lastUse[n] ?? -1, this.out.length);
  }

  /** A step whose value (`target = code`) may be Pending: the unit suspends there. */
  private suspendable(target: string, code: string, before = ""): void {
    this.suspendableSteps(target, `${before}${target} = ${code};`);
  }

  /** As suspendable, for statements that assign `target`. */
  private suspendableSteps(target: string, steps: string): void {
    const k = ++this.labels;
    this.close();
    this.emit(`if (pc === 0) { ${steps} if (${target} instanceof Pending) return x.suspend(${target}, f, ${k}, ${this.saved()}); }`);
    this.emit(`else if (pc === ${k}) { pc = 0; if (thrown) throw rv; ${target} = rv; }`);
  }

  /**
   * Yields `v` from a generator's unit: returns it (a value is never undefined, the unit's end,
   * nor a Pending), with the label to resume at and the live temporaries on the frame, as a
   * suspension keeps them; resumed there, the unit carries on to the next item. A consumer
   * draining the generator takes the item through the frame's sink instead, and the unit goes on
   * at once unless the sink stops it (GeneratorFrame).
   */
  private yieldValue(v: string): void {
    const k = ++this.labels;
    this.close();
    this.emit(`if (pc === 0) { if (f.sink === null || f.sink(${v})) { f.label = ${k}; f.saved = ${this.saved()}; return ${v}; } }`);
    this.emit(`else if (pc === ${k}) pc = 0;`);
  }

  /** `x` in a temporary: a literal (`5`) cannot take a property access (`5.code`) as it is. */
  private held(x: string): string {
    if (/^t\d+$/.test(x)) return x;
    const t = this.temp();
    this.step(`${t} = ${x};`);
    return t;
  }

  private constant(v: unknown): string {
    this.consts.push(v);
    return `C[${this.consts.length - 1}]`;
  }

  private delegate(d: Delegate): string {
    this.delegates.push(d);
    return `K[${this.delegates.length - 1}]`;
  }

  private globalSlot(name: string): number {
    let i = this.globalIndex.get(name);
    if (i === undefined) {
      i = this.globals.length;
      this.globals.push(name);
      this.globalIndex.set(name, i);
    }
    return i;
  }

  /**
   * Records `node`'s position in the frame (for tracebacks). Line and column are constants of
   * the unit, not literals of its text: a unit's text then does not change with the length of a
   * name before it or the line it is on (see FACTORIES).
   */
  private where(node: A.Node): string {
    const key = `${node.line}:${node.col}`;
    let at = this.positions.get(key);
    if (at === undefined) {
      at = this.consts.length;
      this.consts.push(node.line, node.col);
      this.positions.set(key, at);
    }
    return `f.line = C[${at}]; f.col = C[${at + 1}];`;
  }

  // ---------------------------------------------------------------- statements

  private block(body: A.Stmt[], scope: Scope): void {
    for (const s of body) this.statement(s, scope);
  }

  private statement(s: A.Stmt, scope: Scope): void {
    switch (s.kind) {
      case "Expr":
      case "Assign":
      case "AugAssign":
      case "AnnAssign":
      case "If":
      case "While":
      case "For":
      case "Break":
      case "Continue":
      case "Pass":
      case "Return":
      case "Global":
      case "Nonlocal":
        break;
      default:
        return this.delegatedStatement(s, scope);
    }
    if (s.kind === "AugAssign" && s.target.kind === "Attribute") return this.delegatedStatement(s, scope);
    this.step(`${this.where(s)} rt.tick();`);
    switch (s.kind) {
      case "Expr": {
        const v = this.expr(s.value, scope);
        if (s === this.answer) this.step(`f.ret = ${v}; return RETURN;`);
        return;
      }
      case "Assign": {
        const v = this.expr(s.value, scope);
        for (const t of s.targets) this.store(t, v, scope);
        return;
      }
      case "AnnAssign":
        if (s.value) this.store(s.target, this.expr(s.value, scope), scope);
        return;
      case "AugAssign":
        return this.augAssign(s, scope);
      case "If": {
        const t = this.held(this.expr(s.test, scope));
        this.openBranch(`if (${this.truth(t)}) {`, t);
        this.block(s.body, scope);
        if (s.orelse.length) {
          this.structural("} else {");
          this.block(s.orelse, scope);
        }
        this.closeBranch("}");
        return;
      }
      case "While":
        return this.whileLoop(s, scope);
      case "For":
        return this.forLoop(s, scope);
      case "Break":
        this.step(`break ${this.loops[this.loops.length - 1]};`);
        return;
      case "Continue":
        this.step(`continue ${this.loops[this.loops.length - 1]};`);
        return;
      case "Return": {
        const v = s.value ? this.expr(s.value, scope) : "null";
        this.step(`f.ret = ${v}; return RETURN;`);
        return;
      }
      case "Pass":
      case "Global":
      case "Nonlocal":
        return;
    }
  }

  /** A statement the closure compiler runs (its closure ticks and records the line itself). */
  private delegatedStatement(s: A.Stmt, scope: Scope): void {
    const k = this.delegate({ kind: "stmt", node: s, scope });
    const r = this.temp();
    this.suspendable(r, `${k}(f)`);
    const loop = this.loops[this.loops.length - 1];
    const jumps = loop ? `if (${r} === BREAK) break ${loop}; if (${r} === CONTINUE) continue ${loop}; ` : "";
    this.step(`if (${r} !== undefined) { ${jumps}return ${r}; }`);
  }

  /**
   * Python truth of a temporary. Resuming past a branch re-tests it with the temporary unsaved
   * (undefined): no branch before the label holds a step that runs then, so any answer will do.
   */
  private truth(t: string): string {
    return `(${t} === true || (${t} !== false && ${t} !== undefined && truthy(${t})))`;
  }

  /** A yield point at a loop's head: gives the event loop its turn when the slice is used up. */
  private loopHead(): void {
    const k = ++this.labels;
    this.close();
    this.emit(`if (pc === 0) { if (rt.shouldYield()) return x.suspend(rt.yieldNow(), f, ${k}, ${this.saved()}); }`);
    this.emit(`else if (pc === ${k}) { pc = 0; if (thrown) throw rv; }`);
  }

  /**
   * Opens a loop. Resuming enters it only when the label to resume at is inside: a loop left
   * earlier (its last test true, by a break) must not be re-run with every step skipped.
   */
  private openLoop(): string {
    const label = `L${this.loopCount++}`;
    this.loopStarts.push({ line: this.out.length, temps: this.temps, reads: [] });
    this.structural(`if (pc === 0 || (pc > ${this.labels} && pc <= $LAST_${label}$)) {`);
    this.structural(`${label}: for (;;) {`);
    return label;
  }

  private closeLoop(label: string): void {
    this.structural("} }");
    this.lastLabel.set(label, this.labels);
    // A temporary from before the loop that the loop reads is read again on the next iteration.
    const start = this.loopStarts.pop()!;
    for (let t = 0; t < start.temps; t++) if ((this.lastUse[t] ?? -1) >= start.line) this.lastUse[t] = this.out.length;
    for (const t of start.reads) this.extend(t);
  }

  private whileLoop(s: A.While, scope: Scope): void {
    const label = this.openLoop();
    this.loopHead();
    this.step("rt.tick();");
    const t = this.held(this.expr(s.test, scope));
    this.readInLoop(t);
    this.structural(`if (!${this.truth(t)}) {`);
    this.block(s.orelse, scope);
    this.structural(`break ${label}; }`);
    this.loops.push(label);
    this.block(s.body, scope);
    this.loops.pop();
    this.closeLoop(label);
  }

  private forLoop(s: A.For, scope: Scope): void {
    const iterable = this.expr(s.iter, scope);
    const next = this.temp();
    this.step(`${next} = stepper(${iterable});`);
    this.forLoopOver(s, scope, next);
  }

  /** A `for` loop over the cursor in temporary `next`. */
  private forLoopOver(s: A.For, scope: Scope, next: string): void {
    const item = this.temp();
    const label = this.openLoop();
    this.loopHead();
    // An item of a generator expression may have to wait; its errors are reported at the `for`.
    this.suspendable(item, `${next}()`, `rt.tick(); ${this.where(s)} `);
    this.readInLoop(item);
    this.structural(`if (${item} === DONE) {`);
    this.block(s.orelse, scope);
    this.structural(`break ${label}; }`);
    this.store(s.target, item, scope);
    this.loops.push(label);
    this.block(s.body, scope);
    this.loops.pop();
    this.closeLoop(label);
  }

  private augAssign(s: A.AugAssign, scope: Scope): void {
    const op = JSON.stringify(s.op);
    // On the operands of a fast path, `a op= b` is `a op b`.
    const fast = BINARY_FAST_PATHS[s.op as BinaryOp];
    const apply = (target: string, a: string, b: string): string => `${fast ? `${fast(target, a, b)} else ` : ""}${target} = augmentedValue(rt, ${op}, ${a}, ${b});`;
    if (s.target.kind === "Name") {
      const a = this.name(s.target, scope);
      const b = this.expr(s.value, scope);
      const r = this.temp();
      this.step(apply(r, a, b));
      this.storeName(s.target, r, scope);
      return;
    }
    // A subscript: container and key are evaluated once.
    const target = s.target as A.Subscript;
    const c = this.expr(target.value, scope);
    const k = this.subscriptKey(target.slice, scope);
    const current = this.temp();
    this.step(`${this.fastItem(current, c, k, target.slice)} else ${current} = getItem(${c}, ${k}, rt.budget);`);
    const b = this.expr(s.value, scope);
    const r = this.temp();
    this.step(apply(r, current, b));
    this.setItem(c, k, r);
  }

  // ---------------------------------------------------------------- names and stores

  private name(e: A.Name, scope: Scope): string {
    const a = this.cc.access(e, scope);
    const t = this.temp();
    switch (a.kind) {
      case "global": {
        const i = this.globalSlot(e.id);
        this.step(`${t} = g${i}.v; if (${t} === UNBOUND) ${t} = B[${i}] ?? x.builtin(${i}, rt);`);
        break;
      }
      case "local": {
        // Only an error's message names the variable: a constant, so that the text does not (see FACTORIES).
        const id = this.constant(e.id);
        if (a.variable.isCell) this.step(`${t} = S[${a.variable.slot}].v; if (${t} === UNBOUND) throw unboundLocal(${id});`);
        else this.step(`${t} = S[${a.variable.slot}]; if (${t} === UNBOUND) throw unboundLocal(${id});`);
        break;
      }
      case "free":
        this.step(`${t} = f.closure[${a.index}].v; if (${t} === UNBOUND) throw freeUnbound(${this.constant(e.id)});`);
        break;
    }
    return t;
  }

  private storeName(e: A.Name, v: string, scope: Scope): void {
    const a = this.cc.resolve(scope, e.id);
    switch (a.kind) {
      case "global":
        this.step(`g${this.globalSlot(e.id)}.v = ${v};`);
        return;
      case "local":
        this.step(a.variable.isCell ? `S[${a.variable.slot}].v = ${v};` : `S[${a.variable.slot}] = ${v};`);
        return;
      case "free":
        this.step(`f.closure[${a.index}].v = ${v};`);
        return;
    }
  }

  private store(target: A.Expr, v: string, scope: Scope): void {
    switch (target.kind) {
      case "Name":
        return this.storeName(target, v, scope);
      case "Subscript": {
        const c = this.expr(target.value, scope);
        const k = this.subscriptKey(target.slice, scope);
        this.setItem(c, k, v);
        return;
      }
      case "Tuple":
      case "List":
        if (target.elts.every((e) => e.kind === "Name" || e.kind === "Subscript" || e.kind === "Tuple" || e.kind === "List")) {
          const items = this.temp();
          const n = target.elts.length;
          // A tuple of the right length is read in place (it cannot change while the targets are
          // stored), charged as unpackItems charges it: a step per item.
          // A generator expression's items may have to wait.
          this.suspendable(items, `${v} instanceof PyTuple && (${v}).items.length === ${n} ? (rt.budget.step(${n}), (${v}).items) : waits(${v}) ? unpackWaiting(rt, ${v}, ${n}, -1) : unpackItems(rt, ${v}, ${n}, -1)`);
          target.elts.forEach((e, i) => {
            const item = this.temp();
            this.step(`${item} = ${items}[${i}];`);
            this.store(e, item, scope);
          });
          return;
        }
    }
    const k = this.delegate({ kind: "store", node: target, scope });
    this.suspendable(this.temp(), `${k}(f, ${v})`);
  }

  // ---------------------------------------------------------------- expressions

  /** Emits the steps computing `e`; returns the temporary (or literal) holding its value. */
  private expr(e: A.Expr, scope: Scope): string {
    switch (e.kind) {
      case "Constant": {
        const v = constantValue(e.value);
        if (v === null) return "null";
        if (typeof v === "boolean") return String(v);
        if (typeof v === "number") return String(v);
        if (typeof v === "string") return JSON.stringify(v);
        return this.constant(v);
      }
      case "Name":
        return this.name(e, scope);
      case "BinOp":
        return this.binOp(e, scope);
      case "UnaryOp": {
        const v = this.expr(e.operand, scope);
        const t = this.temp();
        if (e.op === "not") this.step(`${t} = !${this.truth(v)};`);
        else if (e.op === "-") this.step(`${NEGATE_FAST_PATH(t, v)} else ${t} = unary("-", ${v}, rt.budget);`);
        else this.step(`${t} = unary(${JSON.stringify(e.op)}, ${v}, rt.budget);`);
        return t;
      }
      case "BoolOp": {
        const t = this.temp();
        const isAnd = e.op === "and";
        const first = this.expr(e.values[0]!, scope);
        this.step(`${t} = ${first};`);
        for (let i = 1; i < e.values.length; i++) {
          this.openBranch(`if (${isAnd ? "" : "!"}${this.truth(t)}) {`, t);
          const v = this.expr(e.values[i]!, scope);
          this.step(`${t} = ${v};`);
        }
        for (let i = 1; i < e.values.length; i++) this.closeBranch("}");
        return t;
      }
      case "IfExp": {
        const t = this.temp();
        const test = this.held(this.expr(e.test, scope));
        this.openBranch(`if (${this.truth(test)}) {`, test);
        const body = this.expr(e.body, scope);
        this.step(`${t} = ${body};`);
        this.structural("} else {");
        const orelse = this.expr(e.orelse, scope);
        this.step(`${t} = ${orelse};`);
        this.closeBranch("}");
        return t;
      }
      case "Compare":
        if (e.ops.length === 1) return this.compare(e.ops[0]!, this.expr(e.left, scope), this.expr(e.comparators[0]!, scope));
        return this.delegatedExpr(e, scope);
      case "Call":
        return this.call(e, scope);
      case "Attribute": {
        const v = this.expr(e.value, scope);
        const t = this.temp();
        this.step(`${t} = rt.getAttr(${v}, ${JSON.stringify(e.attr)});`);
        return t;
      }
      case "Subscript": {
        const c = this.expr(e.value, scope);
        const k = this.subscriptKey(e.slice, scope);
        const t = this.temp();
        this.step(`${this.fastItem(t, c, k, e.slice)} else ${t} = getItem(${c}, ${k}, rt.budget);`);
        return t;
      }
      case "List":
      case "Tuple": {
        if (e.kind === "Tuple" && e.elts.length === 0) return "EMPTY_TUPLE";
        const items = e.elts.map((x) => this.expr(x.kind === "Starred" ? x.value : x, scope));
        const t = this.temp();
        // `[*a, b]`: the starred elements' items spliced in, as the closure tier's displays do.
        const starred = e.elts.map((x) => x.kind === "Starred");
        const array = starred.includes(true) ? `spliceStarred(rt, [${items.join(", ")}], ${this.constant(starred)}, true)` : `[${items.join(", ")}]`;
        // spliceStarred charges what it collects: a starred display's list is paid for.
        const list = starred.includes(true) ? `new PyList(${array})` : `rt.newList(${array})`;
        this.step(e.kind === "List" ? `${t} = ${list};` : `${t} = new PyTuple(${array});`);
        return t;
      }
      case "Dict":
        return this.dict(e, scope);
      case "JoinedStr":
        return this.joinedStr(e, scope);
      case "ListComp":
      case "SetComp":
      case "DictComp":
        return this.comprehension(e, scope);
      case "GeneratorExp": {
        // The first iterable is evaluated here; the rest runs in the generator's own frame
        // (its unit of this tier, or closures: compile.ts's generatorMaker decides).
        const src = this.expr(e.generators[0]!.iter, scope);
        const make = this.delegate({ kind: "genexp", node: e, scope });
        const t = this.temp();
        this.step(`${this.where(e)} ${t} = ${make}(f, ${src});`);
        return t;
      }
      default:
        return this.delegatedExpr(e, scope);
    }
  }

  /**
   * A comprehension, inline: its variables are slots of this frame (scope.ts), its clauses
   * nested loops. The first iterable is evaluated in the enclosing scope, the rest inside.
   */
  private comprehension(e: A.ListComp | A.SetComp | A.DictComp, outer: Scope): string {
    const scope = this.cc.scopeOf(e);
    const cells = [...scope.variables.values()].filter((v) => v.isCell).map((v) => `S[${v.slot}] = new Cell(UNBOUND);`);
    if (cells.length) this.step(cells.join(" "));
    const acc = this.temp();
    this.step(e.kind === "SetComp" ? `${acc} = new PySet();` : e.kind === "DictComp" ? `${acc} = new PyDict();` : `${acc} = [];`);
    const labels: string[] = [];
    e.generators.forEach((g, i) => {
      const iterable = this.expr(g.iter, i === 0 ? outer : scope);
      const next = this.temp();
      this.step(`${next} = stepper(${iterable});`);
      const item = this.temp();
      const label = this.openLoop();
      labels.push(label);
      this.loopHead();
      // An item of a generator expression may have to wait.
      this.suspendable(item, `${next}()`, "rt.tick(); ");
      this.readInLoop(item);
      this.structural(`if (${item} === DONE) break ${label};`);
      this.store(g.target, item, scope);
      for (const c of g.ifs) {
        const t = this.held(this.expr(c, scope));
        this.readInLoop(t);
        this.structural(`if (!${this.truth(t)}) continue ${label};`);
      }
    });
    if (e.kind === "DictComp") {
      const k = this.expr(e.key, scope);
      const v = this.expr(e.value, scope);
      this.step(`rt.hash(${k}); rt.budget.alloc(entrySize(${k}, ${v})); ${acc}.set(${k}, ${v});`);
    } else {
      const v = this.expr(e.elt, scope);
      if (e.kind === "SetComp") this.step(`rt.hash(${v}); rt.budget.alloc(entrySize(${v}, null)); ${acc}.add(${v});`);
      else this.step(`rt.budget.alloc(storedSize(${v})); ${acc}.push(${v});`);
    }
    for (const label of labels.reverse()) this.closeLoop(label);
    if (e.kind === "ListComp") this.step(`${acc} = new PyList(${acc});`);
    return acc;
  }

  private delegatedExpr(e: A.Expr, scope: Scope): string {
    const k = this.delegate({ kind: "expr", node: e, scope });
    const t = this.temp();
    this.suspendable(t, `${k}(f)`);
    return t;
  }

  private binOp(e: A.BinOp, scope: Scope): string {
    const a = this.expr(e.left, scope);
    const b = this.expr(e.right, scope);
    const t = this.temp();
    const fast = BINARY_FAST_PATHS[e.op as BinaryOp];
    this.step(`${fast ? `${fast(t, a, b)} else ` : ""}${t} = rt.binary(${JSON.stringify(e.op)}, ${a}, ${b});`);
    return t;
  }

  private compare(op: A.CompareOperator, a: string, b: string): string {
    const t = this.temp();
    switch (op) {
      case "<":
      case "<=":
      case ">":
      case ">=":
        this.step(`${COMPARE_FAST_PATHS[op](t, a, b)} else ${t} = compare(${JSON.stringify(op)}, ${a}, ${b}, rt.budget);`);
        break;
      case "==":
      case "!=":
        this.step(`${COMPARE_FAST_PATHS[op](t, a, b)} else ${t} = ${op === "!=" ? "!" : ""}equals(${a}, ${b});`);
        break;
      case "in":
      case "not in":
        // A generator expression's items may have to wait.
        this.suspendableSteps(t, `${COMPARE_FAST_PATHS[op](t, a, b)} else ${t} = ${op === "in" ? "isIn" : "isNotIn"}(${b}, ${a}, rt.budget);`);
        break;
      case "is":
        this.step(`${t} = ${a} === ${b};`);
        break;
      case "is not":
        this.step(`${t} = ${a} !== ${b};`);
        break;
    }
    return t;
  }

  /** The start of an `if` that reads `c[k]` into `t` (fast-paths.ts); the caller adds the general path as its `else`. */
  private fastItem(t: string, c: string, k: string, key: A.Expr): string {
    c = this.held(c);
    k = this.held(k);
    if (key.kind === "Constant" && typeof key.value === "string" && isOwnKey(key.value)) return STR_KEY_ITEM_FAST_PATH(t, c, k);
    if (key.kind === "Slice") return "if (false) {}";
    return ITEM_FAST_PATH(t, c, k);
  }

  /** `c[k] = v`: its fast path, else setItem. */
  private setItem(c: string, k: string, v: string): void {
    c = this.held(c);
    k = this.held(k);
    this.step(`${SET_ITEM_FAST_PATH(this.temp(), c, k, v)} else setItem(${c}, ${k}, ${v}, rt.budget);`);
  }

  private subscriptKey(slice: A.Expr, scope: Scope): string {
    if (slice.kind !== "Slice") return this.expr(slice, scope);
    const parts = [slice.lower, slice.upper, slice.step].map((p) => (p ? this.expr(p, scope) : "null"));
    const t = this.temp();
    this.step(`${t} = new SliceValue(${parts.join(", ")});`);
    return t;
  }

  private dict(e: A.Dict, scope: Scope): string {
    if (e.keys.some((k) => k === null)) return this.delegatedExpr(e, scope);
    const t = this.temp();
    const pairs: [string, string, boolean][] = [];
    for (let i = 0; i < e.keys.length; i++) {
      const key = e.keys[i]!;
      const constantKey = key.kind === "Constant" && typeof key.value === "string";
      const k = this.expr(key, scope);
      pairs.push([k, this.expr(e.values[i]!, scope), constantKey]);
    }
    // A str key is its own hash key (values.ts hashKey) unless it starts with NUL.
    const sets = pairs.map(([k, v, constantKey]) => (constantKey && isOwnKey(JSON.parse(k) as string) ? `${t}.map.set(${k}, ${v});` : `${constantKey ? "" : `rt.hash(${k}); `}${t}.set(${k}, ${v});`));
    this.step(`${t} = new PyDict(); ${sets.join(" ")} rt.budget.alloc(entriesSize(${t}));`);
    return t;
  }

  private joinedStr(e: A.JoinedStr, scope: Scope): string {
    const parts: string[] = [];
    for (const v of e.values) {
      if (v.kind === "Constant") {
        parts.push(JSON.stringify(v.value as string));
        continue;
      }
      if (v.formatSpec && !v.formatSpec.values.every((p) => p.kind === "Constant")) return this.delegatedExpr(e, scope);
      const spec = v.formatSpec ? v.formatSpec.values.map((p) => (p as A.Constant).value as string).join("") : "";
      const x = this.expr(v.value, scope);
      const t = this.temp();
      const converted = v.conversion === "r" ? `rt.repr(${x})` : v.conversion === "s" ? `rt.str(${x})` : v.conversion === "a" ? `rt.ascii(${x})` : x;
      // An int is a JS number here (floats are PyFloat), and its str() is the number's own text.
      // It is charged a step per character, as format() charges it.
      if (spec === "" && v.conversion === null) {
        this.step(`if (typeof ${x} === "string") ${t} = ${x}; else if (typeof ${x} === "number") { ${t} = "" + ${x}; rt.budget.step(${t}.length); } else ${t} = rt.format(${x}, "");`);
      }
      else if (spec === "") this.step(`${t} = ${converted}; rt.budget.step(${t}.length);`);
      // The spec is parsed once, here; a FormatSpec stays valid when format.ts's cache is cleared.
      else this.step(`${t} = ${this.constant(FormatSpec.of(spec))}.format(rt, ${converted});`);
      parts.push(t);
    }
    // Up to five parts concatenate with `+` (a short rope, which V8 flattens when something first
    // reads its characters; Array.prototype.join costs more to start than that). More are joined
    // into one flat string: with `+`, the f-string bench's 20,000 ten-part ropes kept in a list
    // ran at ~11 or ~16 ms from one process to the next, against a steady ~11.5 ms joined.
    const t = this.temp();
    const text = parts.length === 0 ? '""' : parts.length <= 5 ? parts.join(" + ") : `[${parts.join(", ")}].join("")`;
    this.step(`${t} = ${text}; rt.budget.checkSize(2 * ${t}.length); rt.budget.step(${t}.length >> 6);`);
    return t;
  }

  private call(e: A.Call, scope: Scope): string {
    if (e.args.some((a) => a.kind === "Starred") || e.keywords.some((k) => k.arg === null)) return this.delegatedExpr(e, scope);
    const t = this.temp();
    const where = this.where(e);
    const kwargs = (values: string[]): string =>
      e.keywords.length === 0 ? "null" : `new Map([${e.keywords.map((k, i) => `[${JSON.stringify(k.arg)}, ${values[i]}]`).join(", ")}])`;
    if (e.func.kind === "Attribute") {
      const self = this.expr(e.func.value, scope);
      const args = e.args.map((a) => this.expr(a, scope));
      const kws = e.keywords.map((k) => this.expr(k.value, scope));
      if (kws.length === 0) {
        // The method the site found last for this kind of value, called here: a call site of its
        // own, which V8 can inline (dict.get, list.append...); another kind goes through the site.
        const site = this.constant(new MethodSite(e.func.attr));
        const o = this.held(self);
        const list = `[${args.join(", ")}]`;
        this.suspendableSteps(t, `${where} ${methodFastPath(t, o, e.func.attr, args)}if (${site}.kind !== null && methodKind(${o}) === ${site}.kind) ${t} = ${site}.method(rt, ${o}, ${list}, null); else ${t} = ${site}.call(rt, ${o}, ${list}, f);`);
      } else {
        this.suspendable(t, `rt.callMethod(${self}, ${JSON.stringify(e.func.attr)}, [${args.join(", ")}], ${kwargs(kws)}, f)`, where);
      }
      return t;
    }
    const fn = this.held(this.expr(e.func, scope));
    const args = e.args.map((a) => this.expr(a, scope));
    const kws = e.keywords.map((k) => this.expr(k.value, scope));
    if (kws.length === 0) {
      // A function of plain positional parameters gets its arguments straight into its slots.
      // When its body is a unit of this tier, the call enters it here, as Runtime.callPlain
      // would (a frame, the call's step, the traceback line of an escaping exception): a call
      // site of its own for V8, which can inline the callee, and no trip through the runtime.
      const [code, slots, frame, unit, r] = [this.temp(), this.temp(), this.temp(), this.temp(), this.temp()];
      const fill = args.map((a, i) => `${slots}[${code}.params[${i}].slot] = ${a};`).join(" ");
      const direct =
        `${frame} = new Frame(${slots}, ${fn}.closure, ${fn}.globals, ${code}.name, f.depth + 1); rt.tick(); rt.jsDepth++; ${unit} = ${code}.unit; ` +
        `try { ${r} = ${unit}.gen(${frame}, ${unit}, 0, undefined, null, false); } catch ($e) { rt.jsDepth--; throw rt.traced($e, ${frame}, f); } rt.jsDepth--; ` +
        `${t} = ${r} instanceof Pending ? rt.settled(${r}, ${frame}, f) : ${r} === RETURN ? ${frame}.ret : null;`;
      this.suspendableSteps(
        t,
        `${where} if (${fn} instanceof PyFunction && (${code} = ${fn}.code).plainArity === ${args.length}) { if (${code}.slotsAreArguments) ${slots} = [${args.join(", ")}]; else { ${slots} = ${code}.emptySlots.slice(); ${fill} } ` +
          `if (${code}.unit !== null && rt.mayEnter(f.depth)) { ${direct} } else ${t} = rt.callPlain(${fn}, ${slots}, f); } ` +
          // A built-in is called here too: a call site of its own, which V8 can inline (str(), len()...).
          `else if (${fn} instanceof PyBuiltin) ${t} = ${fn}.fn(rt, [${args.join(", ")}], null); else ${t} = rt.callValue(${fn}, [${args.join(", ")}], null, f);`,
      );
      return t;
    }
    this.suspendable(t, `rt.callValue(${fn}, [${args.join(", ")}], ${kwargs(kws)}, f)`, where);
    return t;
  }
}
