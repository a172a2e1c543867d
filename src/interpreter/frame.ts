// What compiled code runs in, on either tier: a frame of slots, the cells of captured and global
// names, and the completions a statement ends with. Both tiers and the runtime share these; they
// know nothing of how code was compiled.
import { type PyException, pyError } from "./errors.js";
import type { Pending } from "./objects.js";
import type { Runtime } from "./runtime.js";
import type { Value } from "./values.js";

/** A variable captured by an inner function. */
export class Cell {
  constructor(public v: Value | typeof UNBOUND) {}
}

export const UNBOUND: unique symbol = Symbol("unbound");

/**
 * The module's global names. Each name has a Cell, made on first use and kept (unbound when the
 * name is deleted or not yet assigned), so that compiled code looks a global up once per
 * execution and then reads and writes the cell directly.
 */
export class Globals {
  private static made = 0;
  private readonly cells = new Map<string, Cell>();
  /**
   * Which Globals this is. Compiled code, kept from one execution to the next, remembers the cells
   * it looked up by this number, not by the object: holding the object would keep the last
   * execution's runtime (its output, its tool calls) alive as long as the script is kept.
   */
  readonly id = Globals.made++;

  /** The execution these names belong to: compiled code reaches its runtime through a frame's globals. */
  constructor(readonly rt: Runtime) {}

  /** The cell of `name`, made unbound if the name was never used. */
  cell(name: string): Cell {
    let c = this.cells.get(name);
    if (c === undefined) {
      c = new Cell(UNBOUND);
      this.cells.set(name, c);
    }
    return c;
  }

  get(name: string): Value | undefined {
    const v = this.cells.get(name)?.v;
    return v === UNBOUND ? undefined : v;
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  set(name: string, value: Value): void {
    this.cell(name).v = value;
  }

  /** Unbinds every name (the execution is over). */
  clear(): void {
    for (const c of this.cells.values()) c.v = UNBOUND;
  }

  /** Unbinds `name`; false when it was not bound. */
  delete(name: string): boolean {
    const c = this.cells.get(name);
    if (c === undefined || c.v === UNBOUND) return false;
    c.v = UNBOUND;
    return true;
  }
}

export class Frame {
  /** Set by `return`. */
  ret: Value = null;
  line = 0;
  col = 0;
  /** The exception being handled (for a bare `raise`). */
  handling: PyException | null = null;
  /**
   * The execution's runtime. Compiled code is shared by every execution of a script (compileModule),
   * so what belongs to one execution comes in through the frame.
   */
  readonly rt: Runtime;

  constructor(
    readonly slots: (Value | Cell | typeof UNBOUND)[],
    readonly closure: Cell[],
    readonly globals: Globals,
    readonly scopeName: string,
    readonly depth: number,
  ) {
    this.rt = globals.rt;
  }
}

/**
 * The frame of a generator expression. A consumer draining it (generator.ts) sets `sink`, which
 * its JavaScript-tier unit calls at each item instead of returning it, while it returns false.
 * Where the unit yields, it keeps the label to resume at and its live temporaries here.
 */
export class GeneratorFrame extends Frame {
  sink: ((item: Value) => boolean) | null = null;
  label = 0;
  saved: unknown[] | null = null;
}

/** `n` unbound slots, as a packed array (V8 keeps holey arrays, as `fill` makes, on slower paths). */
export function unboundSlots(n: number): (Value | Cell | typeof UNBOUND)[] {
  const slots: (Value | Cell | typeof UNBOUND)[] = [];
  for (let i = 0; i < n; i++) slots.push(UNBOUND);
  return slots;
}

/** How a statement ended, when not by falling through (undefined): the loop or function acts on it. */
export const BREAK: unique symbol = Symbol("break");
export const CONTINUE: unique symbol = Symbol("continue");
export const RETURN: unique symbol = Symbol("return");
export type Completion = undefined | typeof BREAK | typeof CONTINUE | typeof RETURN;

/** The closure tier's compiled forms: each returns a Pending where it has to wait. */
export type Expr = (f: Frame) => Value | Pending;
export type Stmt = (f: Frame) => Completion | Pending;
export type Store = (f: Frame, value: Value) => void | Pending;

/** Reading a local variable that is not bound (yet, or any more). */
export function unboundLocal(id: string): PyException {
  return pyError("UnboundLocalError", `cannot access local variable '${id}' where it is not associated with a value`);
}

/** Reading a captured variable that its defining scope has not bound. */
export function freeUnbound(id: string): PyException {
  return pyError("NameError", `cannot access free variable '${id}' where it is not associated with a value in enclosing scope`);
}
