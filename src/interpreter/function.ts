// A Python function: its code object (what a def or lambda compiled to, shared by every function
// object made from it) and the function object a def makes at run time (its defaults, its closure
// cells, its module's globals). Both tiers make and call these; the runtime binds their arguments.
import type { Unit } from "./codegen.js";
import type { Cell, Globals, Stmt, UNBOUND } from "./frame.js";
import { CELL, FUNCTION, SLOT } from "./sizes.js";
import { PyObject, type Value } from "./values.js";

export interface Parameter {
  name: string;
  /** Where the bound argument goes in the new frame. */
  slot: number;
  cell: boolean;
}

export interface FunctionCode {
  name: string;
  posonly: number;
  params: Parameter[];
  /** Index in `params` where keyword-only parameters start. */
  kwonlyStart: number;
  vararg: Parameter | null;
  kwarg: Parameter | null;
  slotCount: number;
  /**
   * The number of parameters when they are all plain positional ones (no *args, **kwargs,
   * keyword-only or captured parameter, not async), else -1: a call with exactly that many
   * positional arguments can then put them straight into the slots (Runtime.callPlain).
   */
  plainArity: number;
  /** A frame's slots on entry (all unbound), copied for each call. */
  emptySlots: readonly (Value | Cell | typeof UNBOUND)[];
  /** The frame holds exactly the plain parameters, in slots 0..n-1: its slots are the arguments. */
  slotsAreArguments: boolean;
  /** Slots of cell variables that are not parameters (created empty on entry). */
  cellSlots: number[];
  /** Closures at first; a function called often enough gets its JS-tier unit here. */
  body: Stmt;
  /**
   * The JS-tier unit of the body, when generated code may enter it directly: a function of plain
   * positional parameters with no cell to create (codegen's call sites check plainArity).
   */
  unit: Unit | null;
  isAsync: boolean;
  isLambda: boolean;
  /** `__doc__`: the body's docstring (a first statement that is a string literal), else None. */
  doc: string | null;
}

export class PyFunction extends PyObject {
  /**
   * `__name__` and `__doc__` when something set them (functools.wraps copies the wrapped
   * function's); null while they are the code's own.
   */
  dunders: Map<"__name__" | "__doc__", Value> | null = null;

  constructor(
    readonly code: FunctionCode,
    readonly defaults: Value[],
    readonly kwDefaults: Map<string, Value>,
    readonly closure: Cell[],
    readonly globals: Globals,
  ) {
    super();
  }

  get typeName(): string {
    return "function";
  }

  heapBytes(): number {
    return FUNCTION + CELL * this.closure.length + SLOT * this.defaults.length;
  }

  pyRepr(): string {
    // A wrapper given the wrapped function's name (functools.wraps) shows it, as CPython's does.
    const name = this.dunders?.get("__name__");
    return `<function ${typeof name === "string" ? name : this.code.name}>`;
  }
}
