// Python exceptions inside the sandbox, and the one error a script cannot catch.
//
// Exceptions are thrown as PyException objects, which are not JS Errors: capturing a JS stack
// trace for every KeyError a script raises and catches would be slow, and a script never sees
// JS stacks anyway. Anything thrown that is not a PyException (ResourceLimitError, a bug) passes
// through `try/except` untouched.
import { EXCEPTION, storedSize, TRACE_ENTRY } from "./sizes.js";
import { PyObject, PyTuple, type Value } from "./values.js";

/** An exception class: `ValueError`, `KeyError`... Calling it makes a PyException. */
export class PyExcType extends PyObject {
  constructor(
    readonly name: string,
    readonly base: PyExcType | null,
    /** The module that defines it, for one a module defines (statistics.StatisticsError). */
    readonly module: string | null = null,
  ) {
    super();
  }

  get typeName(): string {
    return "type";
  }

  pyRepr(): string {
    return `<class '${this.module === null ? "" : `${this.module}.`}${this.name}'>`;
  }

  /** Made once, shared by every execution: a reference to it costs the slot only. */
  heapBytes(): number {
    return 0;
  }

  isSubclassOf(other: PyExcType): boolean {
    for (let t: PyExcType | null = this; t; t = t.base) if (t === other) return true;
    return false;
  }
}

const BaseException = new PyExcType("BaseException", null);
const Exception = new PyExcType("Exception", BaseException);
const ArithmeticError = new PyExcType("ArithmeticError", Exception);
const LookupError = new PyExcType("LookupError", Exception);
const RuntimeError = new PyExcType("RuntimeError", Exception);
const OSError = new PyExcType("OSError", Exception);
const ValueError = new PyExcType("ValueError", Exception);
const NameError = new PyExcType("NameError", Exception);
const ImportError = new PyExcType("ImportError", Exception);
const UnicodeError = new PyExcType("UnicodeError", ValueError);

/** Every exception class a script can name, by name. */
export const EXC = {
  BaseException,
  Exception,
  ArithmeticError,
  ZeroDivisionError: new PyExcType("ZeroDivisionError", ArithmeticError),
  OverflowError: new PyExcType("OverflowError", ArithmeticError),
  LookupError,
  KeyError: new PyExcType("KeyError", LookupError),
  IndexError: new PyExcType("IndexError", LookupError),
  ValueError,
  UnicodeError,
  UnicodeEncodeError: new PyExcType("UnicodeEncodeError", UnicodeError),
  UnicodeDecodeError: new PyExcType("UnicodeDecodeError", UnicodeError),
  TypeError: new PyExcType("TypeError", Exception),
  AttributeError: new PyExcType("AttributeError", Exception),
  NameError,
  UnboundLocalError: new PyExcType("UnboundLocalError", NameError),
  RuntimeError,
  RecursionError: new PyExcType("RecursionError", RuntimeError),
  NotImplementedError: new PyExcType("NotImplementedError", RuntimeError),
  AssertionError: new PyExcType("AssertionError", Exception),
  StopIteration: new PyExcType("StopIteration", Exception),
  OSError,
  TimeoutError: new PyExcType("TimeoutError", OSError),
  PermissionError: new PyExcType("PermissionError", OSError),
  FileNotFoundError: new PyExcType("FileNotFoundError", OSError),
  ImportError,
  ModuleNotFoundError: new PyExcType("ModuleNotFoundError", ImportError),
  ToolError: new PyExcType("ToolError", Exception),
  // Never raised (running out of memory is a ResourceLimitError), but scripts may name it.
  MemoryError: new PyExcType("MemoryError", Exception),
  JSONDecodeError: new PyExcType("JSONDecodeError", ValueError),
  // Never raised by the sandbox; scripts may raise them, and `except Exception` lets them pass.
  KeyboardInterrupt: new PyExcType("KeyboardInterrupt", BaseException),
  SystemExit: new PyExcType("SystemExit", BaseException),
  GeneratorExit: new PyExcType("GeneratorExit", BaseException),
} as const;

export type ExcName = keyof typeof EXC;

/** One frame of a traceback: where the exception passed. */
export interface TraceEntry {
  line: number;
  column: number;
  /** `<module>` or the function's name. */
  scope: string;
}

/** A raised (or constructed) Python exception. */
export class PyException extends PyObject {
  /** Extra attributes: `ToolError` has `server`, `tool`, `message`. */
  readonly attrs = new Map<string, Value>();
  traceback: TraceEntry[] = [];
  /** Advice for the reader (usually a model): what to write instead. */
  hints: string[] = [];
  cause: PyException | null = null;
  context: PyException | null = null;
  suppressContext = false;

  constructor(
    readonly type: PyExcType,
    readonly args: readonly Value[],
  ) {
    super();
  }

  get typeName(): string {
    return this.type.name;
  }

  /** Its cause and context are charged apart, as they are linked (linkedException). */
  heapBytes(): number {
    let bytes = EXCEPTION + TRACE_ENTRY * this.traceback.length;
    for (const a of this.args) bytes += storedSize(a);
    for (const v of this.attrs.values()) bytes += storedSize(v);
    return bytes;
  }

  pyRepr(repr: (v: Value) => string): string {
    return `${this.type.name}(${this.args.map(repr).join(", ")})`;
  }

  pyStr(str: (v: Value) => string, repr: (v: Value) => string): string {
    return this.message(str, repr);
  }

  /** `str(exc)`, given the interpreter's repr/str. */
  message(str: (v: Value) => string, repr: (v: Value) => string): string {
    if (this.args.length === 0) return "";
    if (this.args.length === 1) {
      // KeyError shows its key as a repr: KeyError: 'name'.
      return this.type === EXC.KeyError ? repr(this.args[0]!) : str(this.args[0]!);
    }
    return repr(new PyTuple(this.args));
  }
}

/** Makes a PyException of a built-in type with a message. */
export function pyError(type: ExcName, message?: string): PyException {
  return new PyException(EXC[type], message === undefined ? [] : [message]);
}

/** The limit fields of SPEC §2. */
export type LimitField =
  | "max_source_bytes"
  | "max_steps"
  | "max_memory_bytes"
  | "max_log_bytes"
  | "max_tool_calls"
  | "max_value_bytes"
  | "max_nesting_depth"
  | "tool_execution_timeout"
  /** Not SPEC §2 limits: the bytes one execution may write to its workspace folder, and the files and folders it may create there. */
  | "workspace_max_write_bytes"
  | "workspace_max_created";

/**
 * A budget ran out. Not a PyException: `try/except` cannot catch it, so a script cannot ignore
 * its limits. The execution ends with this as its error.
 */
export class ResourceLimitError {
  readonly type = "ResourceLimitError";
  readonly message: string;

  constructor(
    readonly field: LimitField,
    readonly limit: number,
    detail?: string,
  ) {
    this.message = `${field} exceeded (limit ${limit})${detail ? `: ${detail}` : ""}`;
  }
}

/** The execution was cancelled from outside (an AbortSignal). Not catchable either. */
export class CancelledError {
  readonly type = "CancelledError";
  constructor(readonly message = "execution cancelled") {}
}
