// Who is asking: a virtual key's grants, or an unrestricted caller. A key value comes in as a
// string from whichever face received it (an HTTP header, a playground's choice); the answer is
// a Caller or the reason the value is refused, which the face words for its own protocol.
import type { TraceContext } from "../upstream/trace-context.js";
import type { KeyRing, VirtualKey } from "./virtual-keys.js";

/** Who is asking: a virtual key's per-client grants, or null for an unrestricted caller. */
export interface Caller {
  /** client name -> tools_to_execute-style list. */
  grants: ReadonlyMap<string, readonly string[]> | null;
  label: string;
  /** The virtual key's id (what an MCP session is bound to: a key keeps it when renamed); none without a key. */
  keyId?: string;
  /** The trace context of the request it asks in (upstream/trace-context.ts): its calls and events carry it on. */
  trace?: TraceContext;
}

export const UNRESTRICTED: Caller = { grants: null, label: "-" };

/** Why a key value is refused: none was given where one is required, no key has it, or its key is off. */
export type KeyRefusal = { refused: "missing" } | { refused: "unknown" } | { refused: "inactive"; name: string };

const NO_GRANTS: ReadonlyMap<string, readonly string[]> = new Map();

/**
 * The caller a key stands for. Its grants (and label) are read at every check, so a key that is
 * changed, deactivated or deleted takes effect at once, even for an MCP session or a script
 * already running.
 */
export function callerForKey(ring: KeyRing, key: VirtualKey): Caller {
  return {
    keyId: key.id,
    get label() {
      return ring.get(key.id)?.name ?? key.name;
    },
    get grants() {
      return ring.grantsOf(key.id) ?? NO_GRANTS;
    },
  };
}

/**
 * Who presents `value`: the caller of its key, or UNRESTRICTED for no value (unless a key is
 * required). An unknown or inactive key is refused, never taken as no key.
 */
export function callerForValue(ring: KeyRing, value: string | undefined, requireKey = false): Caller | KeyRefusal {
  if (value === undefined) return requireKey ? { refused: "missing" } : UNRESTRICTED;
  const key = ring.find(value);
  if (!key) return { refused: "unknown" };
  if (!key.is_active) return { refused: "inactive", name: key.name };
  return callerForKey(ring, key);
}

/**
 * `caller` asking in the request traced by `trace`: the same grants and label, read live through
 * the prototype (a key's getters), with the request's context added. Unchanged without one.
 */
export function withTrace(caller: Caller, trace: TraceContext | undefined): Caller {
  if (trace === undefined) return caller;
  const traced = Object.create(caller) as Caller;
  traced.trace = trace;
  return traced;
}

export function isRefusal(who: Caller | KeyRefusal): who is KeyRefusal {
  return "refused" in who;
}
