// The interpreter's entry point: source text in, SandboxResult out (SPEC §8). It knows nothing
// of MCP: the host gives it objects whose methods return promises, and it calls them.
import type * as A from "../../grammar/ast.js";
import { PySyntaxError } from "../../grammar/errors.js";
import { parse } from "../../grammar/parse.js";
import { PieceParse } from "../../grammar/pieces.js";
import { toPlain, type Plain } from "./boundary.js";
import { Budget, DEFAULT_LIMITS, type Limits, resolveLimits } from "./budget.js";
import { makeBuiltins } from "./builtins.js";
import { type CompiledModule, compiledModule } from "./compile.js";
import { analyse, type ScopeInfo } from "./scope.js";
import { noteRun } from "./tiering.js";
import { Frame, Globals, RETURN, unboundSlots } from "./frame.js";
import { CancelledError, PyException, ResourceLimitError } from "./errors.js";
import { describeThrown, exceptionMessage, tracebackText } from "./error-text.js";
import { moduleFrom, STANDARD_MODULES } from "./modules/index.js";
import { scriptEnv, sysModule } from "./modules/sys.js";
import { workspaceModule, type WorkspaceOptions } from "./modules/workspace.js";
import { HostMethodTable, HostObject, type HostMethod, Pending } from "./objects.js";
import { setLongTimeout } from "./ownership.js";
import { waitForSlice } from "./scheduler.js";
import { getAttribute, Runtime, type ToolCallRecord } from "./runtime.js";
import type { Value } from "./values.js";

export interface SandboxError {
  type: string;
  message: string;
  line: number | null;
  column: number | null;
  traceback: string;
  hints: string[];
}

export interface SandboxResult {
  stdout: string;
  stderr: string;
  result: Plain;
  returncode: 0 | 1;
  duration_seconds: number;
  tool_calls: ToolCallRecord[];
  error: SandboxError | null;
  /** What the execution used of its budgets (not in SPEC §8's shape; extra, for operators). */
  stats: { steps: number; memory_bytes: number; log_bytes: number };
  /**
   * Hints about the run whatever its outcome (json.loads of an already parsed value...); only
   * when there are some. An error's own hints are in `error.hints`.
   */
  hints?: string[];
}

/**
 * Host objects: a global name -> its methods (each returns a promise of a JSON-like value), as a
 * record or as a HostMethodTable that makes each method when the script first reaches it.
 */
export type Hosts = Record<string, Record<string, HostMethod> | HostMethodTable>;

export interface ExecuteOptions {
  limits?: Partial<Limits>;
  hosts?: Hosts;
  signal?: AbortSignal;
  /** The name shown in tracebacks. */
  filename?: string;
  /** `sys.argv` (`import sys`): the script's name, then its arguments (default: [filename]). */
  argv?: readonly string[];
  /** The global `env`: a dict of strings from the caller (`code-mode-exec --env K=V`); empty by default. */
  env?: Readonly<Record<string, string>>;
  /** The `workspace` module, confined to one folder; without it `import workspace` fails. */
  workspace?: WorkspaceOptions;
  /** Applied to the final RESULT before it is serialized (the code-mode layer encodes Tensors here). */
  finalizeResult?: (value: Value, budget: Budget) => Promise<Value>;
}

/**
 * The built-in functions and types, made once: they hold no state of an execution (everything
 * they need comes in through the NativeContext they are called with), and nothing writes to the map.
 */
const BUILTINS = makeBuiltins({ getAttr: getAttribute });

/** A parsed script and, once it has run, its compiled module (compile.ts compiledModule). */
interface Script {
  module: A.Module;
  compiled: CompiledModule | null;
}

/**
 * Parsed scripts by source text, each with its compiled module. Scripts are often run again
 * unchanged, and parsing is a pure function of the text whose AST nothing modifies afterwards:
 * a kept script is neither parsed, analysed nor compiled again. A script is kept from its second
 * run on: most scripts run once, and keeping each one's AST and compiled code for a while would
 * only give the garbage collector more to do (holding the first run's only weakly, through a
 * WeakRef or a WeakMap from the AST, took the collector from 7% to 19-38% of a trivial new
 * script's time). Both tables are bounded (in entries, and the ASTs in total source size too);
 * the oldest entries go first, and a hit costs one lookup.
 */
const PARSED = new Map<string, Script>();
const PARSED_MAX_ENTRIES = 128;
const PARSED_MAX_BYTES = 1 << 20;
let parsedBytes = 0;
/** Sources parsed once and not kept (yet), bounded as PARSED is. */
const SEEN = new Set<string>();
let seenBytes = 0;

/** Sources of this many units or more are parsed in pieces, with the event loop turning between them. */
const PIECES_FROM = 8192;
/** How long one run of pieces may hold the event loop. */
const PIECE_MS = 4;

async function parseCached(source: string): Promise<Script> {
  const hit = PARSED.get(source);
  if (hit) return hit;
  const script: Script = { module: source.length < PIECES_FROM ? parse(source) : await parseInPieces(source), compiled: null };
  if (source.length > PARSED_MAX_BYTES / 8) return script;
  if (!SEEN.has(source)) {
    SEEN.add(source);
    seenBytes += source.length;
    for (const old of SEEN) {
      if (seenBytes <= PARSED_MAX_BYTES && SEEN.size <= 2 * PARSED_MAX_ENTRIES) break;
      SEEN.delete(old);
      seenBytes -= old.length;
    }
    return script;
  }
  SEEN.delete(source);
  seenBytes -= source.length;
  PARSED.set(source, script);
  parsedBytes += source.length;
  for (const [old] of PARSED) {
    if (parsedBytes <= PARSED_MAX_BYTES && PARSED.size <= PARSED_MAX_ENTRIES) break;
    PARSED.delete(old);
    parsedBytes -= old.length;
  }
  return script;
}

/**
 * A long script's parse (15-40 ms for 64 KB) in runs of PIECE_MS, each waiting for a turn of the
 * scheduler as a running script does (grammar/pieces.ts): the Module, or parse()'s error.
 */
async function parseInPieces(source: string): Promise<A.Module> {
  const pieces = new PieceParse(source);
  for (;;) {
    const module = pieces.step(PIECE_MS);
    if (module) return module;
    await new Promise<number>((resolve) => waitForSlice(resolve));
  }
}

/**
 * The whole execution is bounded by tool_execution_timeout too, with a short grace period so
 * that a script can still handle the TimeoutError of a call that used up the full timeout.
 */
function executionMs(limits: Limits): number {
  return limits.tool_execution_timeout * 1000 + Math.min(1000, 250 + limits.tool_execution_timeout * 10);
}

/** Runs a script to its result. Never throws for anything the script does. */
export async function execute(source: string, options: ExecuteOptions = {}): Promise<SandboxResult> {
  const started = performance.now();
  // The defaults need no validation (and nothing writes to a Limits). Bad limits are the
  // caller's error, thrown before anything runs.
  const limits = options.limits === undefined ? (DEFAULT_LIMITS as Limits) : resolveLimits(options.limits);
  const state: RunState = { budget: null, rt: null };
  try {
    return await run(source, options, limits, started, state);
  } catch (e) {
    // The last resort: a bug anywhere above (formatting an error, a hook given by the host)
    // still gives the caller a result, with what is known of the run.
    return internalErrorResult(e, { started, stdout: state.rt?.stdout.join(""), tool_calls: state.rt?.toolCalls, budget: state.budget });
  }
}

const INTERNAL_HINT = "This is a bug in the sandbox, not in the script.";

/**
 * The SandboxResult of a run that failed outside the script (a bug, a hook of the host): an
 * InternalError saying what was thrown, with what is known of the run.
 */
export function internalErrorResult(
  e: unknown,
  known: { started?: number; stdout?: string; tool_calls?: ToolCallRecord[]; budget?: Budget | null } = {},
): SandboxResult {
  const message = describeThrown(e);
  const budget = known.budget;
  return {
    stdout: known.stdout ?? "",
    stderr: `InternalError: ${message}\n`,
    result: null,
    returncode: 1,
    duration_seconds: known.started === undefined ? 0 : (performance.now() - known.started) / 1000,
    tool_calls: known.tool_calls ?? [],
    error: { type: "InternalError", message, line: null, column: null, traceback: `InternalError: ${message}`, hints: [INTERNAL_HINT] },
    stats: { steps: budget?.steps ?? 0, memory_bytes: budget?.memory ?? 0, log_bytes: budget?.logBytes ?? 0 },
  };
}

/** What execute()'s last resort can report of a run that failed in an unexpected way. */
interface RunState {
  budget: Budget | null;
  rt: Runtime | null;
}

async function run(source: string, options: ExecuteOptions, limits: Limits, started: number, state: RunState): Promise<SandboxResult> {
  const filename = options.filename ?? "<script>";
  let budget: Budget | null = null;
  const done = (partial: Partial<SandboxResult> & { error: SandboxError | null }): SandboxResult => ({
    stdout: partial.stdout ?? "",
    stderr: partial.stderr ?? "",
    result: partial.result ?? null,
    returncode: partial.error ? 1 : 0,
    duration_seconds: (performance.now() - started) / 1000,
    tool_calls: partial.tool_calls ?? [],
    error: partial.error,
    stats: { steps: budget?.steps ?? 0, memory_bytes: budget?.memory ?? 0, log_bytes: budget?.logBytes ?? 0 },
    ...(state.rt?.notes.length ? { hints: [...state.rt.notes] } : {}),
  });

  const size = Buffer.byteLength(source);
  if (size > limits.max_source_bytes) {
    const e = new ResourceLimitError("max_source_bytes", limits.max_source_bytes, `the script has ${size} bytes`);
    return done({ error: { type: e.type, message: e.message, line: null, column: null, traceback: "", hints: ["Split the work into smaller scripts."] } });
  }

  let script;
  try {
    script = await parseCached(source);
  } catch (e) {
    if (e instanceof PySyntaxError) {
      return done({
        error: { type: e.type, message: e.message, line: e.line, column: e.column, traceback: e.format(filename), hints: [] },
        stderr: e.format(filename) + "\n",
      });
    }
    throw e;
  }

  // A long script's analysis and compilation (each up to ~15 ms at 64 KB) run in two turns, not one.
  let analysed: ScopeInfo | undefined;
  if (script.compiled === null && source.length >= PIECES_FROM) {
    analysed = analyse(script.module);
    await new Promise<number>((resolve) => waitForSlice(resolve));
  }

  budget = state.budget = new Budget(limits);
  const meter = budget;
  const modules = new Map(STANDARD_MODULES);
  modules.set("sys", () => moduleFrom("sys", sysModule(options.argv ?? [filename])));
  const workspace = options.workspace;
  if (workspace) modules.set("workspace", () => moduleFrom("workspace", workspaceModule(workspace)));
  const hosts = new Map<string, HostObject>();
  for (const [name, methods] of Object.entries(options.hosts ?? {})) {
    hosts.set(name, new HostObject(name, methods instanceof HostMethodTable ? methods : new Map(Object.entries(methods))));
  }
  // Counted as sharing the CPU from here until rt.finish() in the finally below.
  const rt = (state.rt = new Runtime({
    budget,
    builtins: BUILTINS,
    modules,
    hosts,
    signal: options.signal,
    deadline: started + executionMs(limits),
    started,
  }));
  const globals = new Globals(rt);
  for (const [name, host] of hosts) globals.set(name, host);
  if (!globals.has("env")) globals.set("env", scriptEnv(options.env ?? {}));
  // The script runs as the main module: `if __name__ == "__main__":` holds.
  if (!globals.has("__name__")) globals.set("__name__", "__main__");

  let frame: Frame | null = null;
  let cancelTimeout: (() => void) | undefined;
  // Removed when the execution ends: a long-lived signal must not keep finished executions alive.
  let onAbort: (() => void) | undefined;
  try {
    const compiled = (script.compiled = compiledModule(script.module, script.compiled, analysed));
    const body = compiled.body;
    frame = new Frame(unboundSlots(body.slotCount), [], globals, "<module>", 0);
    let completion: unknown = body(frame);
    if (completion instanceof Pending) {
      const timeout = new Promise<never>((_, reject) => {
        cancelTimeout = setLongTimeout(
          () => reject(meter.trip(new ResourceLimitError("tool_execution_timeout", limits.tool_execution_timeout, "the execution ran too long"))),
          started + executionMs(limits) - performance.now(),
        );
      });
      const aborted = new Promise<never>((_, reject) => {
        if (options.signal?.aborted) reject(meter.trip(new CancelledError()));
        onAbort = () => reject(meter.trip(new CancelledError()));
        options.signal?.addEventListener("abort", onAbort, { once: true });
      });
      completion = await Promise.race([completion.promise, timeout, aborted]);
    }
    let value = answer(globals, completion === RETURN ? frame.ret : null);
    if (options.finalizeResult) value = await options.finalizeResult(value, meter);
    const result = toPlain(value, limits, "the result", false);
    return done({ stdout: rt.stdout.join(""), tool_calls: rt.toolCalls, result, error: null });
  } catch (e) {
    // A call still in flight when the execution ended (cancelled, out of time) never settled.
    for (const call of rt.toolCalls) if (!call.ok && call.error === null) call.error = "unfinished: the execution ended first";
    const error = describeError(e, frame, source, filename);
    return done({ stdout: rt.stdout.join(""), stderr: error.traceback + "\n", tool_calls: rt.toolCalls, error });
  } finally {
    cancelTimeout?.();
    if (onAbort) options.signal?.removeEventListener("abort", onAbort);
    // Whatever it was waiting on is released, and none of its code runs again.
    rt.finish();
    noteRun(script.module, meter.steps);
    // The script's globals are unbound as it ends. Its cells can outlive it in V8's old
    // generation (dead, but not yet collected), and a young-generation collection takes what they
    // point at as alive: the script's last values, and all they hold, were copied and promoted
    // until the next full collection. Running the eight interpreter benches for ~12 s, scavenges
    // promoted 772 MB and paused 1.4 s; with the cells cleared, 126 MB and 0.64 s.
    globals.clear();
  }
}

/**
 * The script's answer: the last value bound to `RESULT`, else to `result`, else `ended`, what the
 * module body ended with (the value of a top-level `return`, or of its final expression statement).
 */
function answer(globals: Globals, ended: Value): Value {
  if (globals.has("RESULT")) return globals.get("RESULT")!;
  if (globals.has("result")) return globals.get("result")!;
  return ended;
}

/** The SandboxError of anything an execution can end with; bounded in size and work (error-text.ts). */
function describeError(e: unknown, frame: Frame | null, source: string, filename: string): SandboxError {
  if (e instanceof PyException) {
    if (frame) e.traceback.push({ line: frame.line, column: frame.col, scope: "<module>" });
    const innermost = e.traceback[0];
    const message = exceptionMessage(e);
    const hints = [...e.hints];
    if (e.type.name === "KeyError") hints.push("Use .get(key) (or .get(key, default)) when a key may be missing.");
    return { type: e.type.name, message, line: innermost?.line ?? null, column: innermost?.column ?? null, traceback: tracebackText(e, message, source, filename), hints };
  }
  const at = frame ? { line: frame.line, column: frame.col } : { line: null, column: null };
  if (e instanceof ResourceLimitError || e instanceof CancelledError) {
    return { type: e.type, message: e.message, ...at, traceback: `${e.type}: ${e.message}`, hints: [] };
  }
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    return { type: "RecursionError", message: "maximum recursion depth exceeded", ...at, traceback: "RecursionError: maximum recursion depth exceeded", hints: [] };
  }
  // A bug in the interpreter: reported, never thrown at the host.
  const message = describeThrown(e);
  return { type: "InternalError", message, ...at, traceback: `InternalError: ${message}`, hints: [INTERNAL_HINT] };
}
