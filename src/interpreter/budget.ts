// Per-execution limits (SPEC §2) and the meter that enforces them. Every charge happens BEFORE
// the work or the allocation it pays for, so an over-budget request fails without being done.
import { CancelledError, type LimitField, ResourceLimitError } from "./errors.js";
import type { Pending } from "./objects.js";

export interface Limits {
  max_source_bytes: number;
  max_steps: number;
  max_memory_bytes: number;
  max_log_bytes: number;
  max_tool_calls: number;
  max_value_bytes: number;
  max_nesting_depth: number;
  /** Seconds, for each upstream call and for one whole execution. */
  tool_execution_timeout: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  max_source_bytes: 65536,
  max_steps: 1_000_000,
  max_memory_bytes: 67_108_864,
  max_log_bytes: 65536,
  max_tool_calls: 64,
  max_value_bytes: 1_048_576,
  max_nesting_depth: 64,
  tool_execution_timeout: 30,
});

export const LIMIT_FIELDS = Object.keys(DEFAULT_LIMITS) as (keyof Limits)[];

/** Validates partial limits: 0 or absent means the default; what is wrong is named. */
export function resolveLimits(partial: Partial<Record<keyof Limits, unknown>> = {}): Limits {
  const out: Limits = { ...DEFAULT_LIMITS };
  for (const [field, raw] of Object.entries(partial)) {
    if (!(LIMIT_FIELDS as string[]).includes(field)) throw new Error(`unknown limit '${field}'`);
    if (raw === undefined || raw === null || raw === 0) continue;
    const value = raw as number;
    if (typeof value !== "number" || !Number.isFinite(value)) throw new Error(`${field} must be a number`);
    if (value < 0) throw new Error(`${field} must not be negative (got ${value})`);
    if (field !== "tool_execution_timeout" && !Number.isInteger(value)) throw new Error(`${field} must be an integer`);
    if (field === "max_value_bytes" && value < 1024) throw new Error("max_value_bytes must be 0 or at least 1024");
    if (field === "max_nesting_depth" && value > 1000) throw new Error("max_nesting_depth must be at most 1000");
    out[field as keyof Limits] = value;
  }
  return out;
}

/** The meter of one execution. */
export class Budget {
  steps = 0;
  memory = 0;
  logBytes = 0;
  toolCalls = 0;
  /** Called once, when a limit trips (the runtime makes its next tick() fail). */
  onTrip: (() => void) | null = null;
  /**
   * The runtime that meters with this budget, for operators that walk an iterator (`x in it`):
   * they reach only the budget, and pause through it as natives do through their ctx.
   */
  pacer: { pause?(): Pending | null } | null = null;

  /**
   * The limits, read on every charge. A tripped limit sets them below anything a charge can
   * reach, so every later charge fails with no extra test on the paths that do not fail.
   */
  private maxSteps: number;
  private maxMemory: number;
  private maxLog: number;
  private maxToolCalls: number;
  /** The limit (or cancellation) that ended the execution: thrown again by every later charge. */
  private tripped: ResourceLimitError | CancelledError | null = null;

  constructor(readonly limits: Limits) {
    this.maxSteps = limits.max_steps;
    this.maxMemory = limits.max_memory_bytes;
    this.maxLog = limits.max_log_bytes;
    this.maxToolCalls = limits.max_tool_calls;
  }

  /**
   * Records that the execution is over (a limit, a timeout, a cancellation, its end) and returns
   * the error to throw: the first one recorded. Nothing a script does can get past it.
   */
  trip(error: ResourceLimitError | CancelledError): ResourceLimitError | CancelledError {
    if (this.tripped === null) {
      this.tripped = error;
      this.maxSteps = this.maxMemory = this.maxLog = this.maxToolCalls = -1;
      this.onTrip?.();
    }
    return this.tripped;
  }

  get isTripped(): boolean {
    return this.tripped !== null;
  }

  private exceeded(field: LimitField & keyof Limits, detail?: string): never {
    throw this.tripped ?? this.trip(new ResourceLimitError(field, this.limits[field], detail));
  }

  /** Charges `n` interpreter steps (work inside builtins is charged in proportion to its size). */
  step(n: number): void {
    this.steps += n;
    if (this.steps > this.maxSteps) this.exceeded("max_steps");
  }

  /**
   * Charges an allocation of about `bytes` before it happens. Values kept in containers are
   * charged as they are stored; a single huge temporary (`'x' * 10**9`) is refused outright.
   */
  alloc(bytes: number): void {
    if (bytes > this.maxMemory - this.memory) this.exceeded("max_memory_bytes");
    this.memory += bytes;
  }

  /** Refuses one temporary value larger than the whole memory budget, without keeping it. */
  checkSize(bytes: number): void {
    if (bytes > this.maxMemory) this.exceeded("max_memory_bytes");
  }

  log(bytes: number): void {
    this.logBytes += bytes;
    if (this.logBytes > this.maxLog) this.exceeded("max_log_bytes");
  }

  toolCall(): void {
    this.toolCalls++;
    if (this.toolCalls > this.maxToolCalls) this.exceeded("max_tool_calls");
  }
}
