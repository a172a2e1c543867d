// The bridge between the sandbox and the upstream servers: each visible code-mode server becomes
// a host object whose methods call its tools. Arguments bind to the tool's parameters as its
// stub's signature says (binding.ts) and are checked against its inputSchema before anything is
// sent; every call asks the authorization policy first; results
// come back normalized to Python values (SPEC §3).
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { EXC, type HostCallContext, type HostMethod, HostMethodTable, type Hosts, type Limits, pyError, PyException, type Value } from "../interpreter/index.js";
import { type UpstreamConnection, UpstreamError } from "../upstream/connection.js";
import type { TraceContext } from "../upstream/trace-context.js";
import { type MediaPlan, mediaFields } from "./media.js";
import type { MediaCodecs } from "./media-codecs.js";
import { ToolSignature } from "./binding.js";
import { boundTools, canonicalName } from "./names.js";
import { normalizeResult } from "./normalize.js";

/** A tool call a script is about to make, as a pre-call hook sees (and may rewrite) it. */
export interface OutgoingCall {
  server: string;
  tool: string;
  arguments: Record<string, unknown>;
}

/** Returns the call to make (the same, or rewritten to another tool of that server), or why it is refused. */
export type BeforeCall = (call: OutgoingCall) => Promise<OutgoingCall | { deny: string }>;

export interface BridgeOptions {
  /** The servers to bind (code-mode clients the caller may see). */
  connections: readonly UpstreamConnection[];
  /** Whether the caller may see (and so bind) a tool. */
  visible(server: string, tool: string): boolean;
  /** Asked at every call; a string is the reason the call is refused (PermissionError). */
  authorize(server: string, tool: string): string | null;
  limits: Limits;
  codecs: MediaCodecs;
  /** Servers whose inputSchemas are not to be trusted: arguments go unchecked. */
  skipValidation?: ReadonlySet<string>;
  /** Runs before authorization at every call (plugins); the tool it names is the one authorized. */
  beforeCall?: BeforeCall;
  /**
   * Told of every successful result of a tool without an outputSchema (the tool actually called,
   * after any rewrite), to learn its shape. It must be quick; whatever it throws is ignored, so
   * recording never fails a call.
   */
  observe?(server: string, tool: string, value: Value): void;
  /** The trace context of the request the script runs for: every upstream call carries it on. */
  trace?: TraceContext;
}

/** What the bridge derives once per tool (per catalog version): a signature, a validator and a media plan. */
interface Compiled {
  /** The parameters as the stubs show them: their order and Python-safe names. */
  signature: ToolSignature;
  validate: ValidateFunction | null;
  plan: MediaPlan | null;
}

const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false });
const compiledTools = new WeakMap<Tool, Compiled>();

function compile(tool: Tool, codecs: MediaCodecs): Compiled {
  let compiled = compiledTools.get(tool);
  if (!compiled) {
    let validate: ValidateFunction | null = null;
    try {
      validate = ajv.compile(tool.inputSchema);
    } catch {
      // A schema ajv cannot compile is not the script's fault: the call goes unchecked.
      validate = null;
    }
    const signature = new ToolSignature({ inputSchema: tool.inputSchema as Record<string, unknown>, outputSchema: tool.outputSchema as Record<string, unknown> | undefined });
    compiled = { signature, validate, plan: tool.outputSchema ? mediaFields(tool.outputSchema, codecs) : null };
    compiledTools.set(tool, compiled);
  }
  return compiled;
}

const PYTHON_TYPES: Record<string, string> = {
  string: "str",
  integer: "int",
  number: "float",
  boolean: "bool",
  array: "list",
  object: "dict",
  null: "None",
};

function pythonTypeOf(v: unknown): string {
  if (v === null || v === undefined) return "None";
  if (typeof v === "string") return "str";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "bigint") return "int";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  if (Array.isArray(v)) return "list";
  return "dict";
}

function argumentName(error: ErrorObject): string {
  const path = error.instancePath.split("/").filter(Boolean);
  return path.length ? path.join(".") : "";
}

/** ajv's first error, as the TypeError a Python programmer expects. */
function describeValidationError(fn: string, error: ErrorObject, args: Record<string, unknown>): string {
  const at = argumentName(error);
  const value = at ? at.split(".").reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], args) : args;
  switch (error.keyword) {
    case "required":
      return `${fn}() missing required argument: '${(error.params as { missingProperty: string }).missingProperty}'`;
    case "additionalProperties":
      return `${fn}() got an unexpected keyword argument '${(error.params as { additionalProperty: string }).additionalProperty}'`;
    case "type": {
      const expected = String((error.params as { type: string | string[] }).type)
        .split(",")
        .map((t) => PYTHON_TYPES[t] ?? t)
        .join(" or ");
      return `${fn}() argument '${at}' must be ${expected}, not ${pythonTypeOf(value)}`;
    }
    case "enum":
      return `${fn}() argument '${at}' must be one of ${JSON.stringify((error.params as { allowedValues: unknown[] }).allowedValues)}`;
    default:
      return `${fn}() argument '${at || "(arguments)"}' ${error.message ?? "is invalid"}`;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function containsBigInt(v: unknown): boolean {
  if (typeof v === "bigint") return true;
  if (Array.isArray(v)) return v.some(containsBigInt);
  if (isRecord(v)) return Object.values(v).some(containsBigInt);
  return false;
}

function toolError(server: string, tool: string, message: string): PyException {
  const error = new PyException(EXC.ToolError, [message]);
  error.attrs.set("server", server);
  error.attrs.set("tool", tool);
  error.attrs.set("message", message);
  return error;
}

/**
 * The host objects for one execution: one per visible server, one method per visible tool, each
 * made when the script first reaches it (a server of 500 tools made 500 closures per execution).
 */
export function buildHosts(options: BridgeOptions): Hosts {
  const hosts: Hosts = {};
  for (const connection of options.connections) {
    const server = connection.name;
    const bound = boundTools(connection.tools.filter((t) => options.visible(server, t.name)));
    hosts[server] = new HostMethodTable(bound, (python): HostMethod => {
      const tool = bound.get(python)!;
      return (args, kwargs, context) => callTool(options, connection, tool, python, args, kwargs, context);
    });
  }
  return hosts;
}

async function callTool(
  options: BridgeOptions,
  connection: UpstreamConnection,
  tool: Tool,
  python: string,
  args: unknown[],
  kwargs: Record<string, unknown>,
  /** Its signal aborts when the execution ends, and the upstream request is cancelled then. */
  context: HostCallContext,
): Promise<unknown> {
  const { budget, signal } = context;
  const server = connection.name;
  const upstreamName = tool.name;
  // Authorization is asked at the moment of every call, however the call was reached. A pre-call
  // hook must see the arguments first, so with one, authorization waits for the name it chose.
  const authorize = (name: string) => {
    const denied = options.authorize(server, name);
    if (denied !== null) throw new PyException(EXC.PermissionError, [denied]);
  };
  if (!options.beforeCall) authorize(tool.name);

  let compiled = compile(tool, options.codecs);
  const fn = `${server}.${python}`;
  // By the server's parameter names (scripts write the stubs' Python-safe spellings).
  let callArgs = compiled.signature.bind(fn, python, args, kwargs);
  context.bound(callArgs);
  if (options.beforeCall) {
    const decision = await options.beforeCall({ server, tool: tool.name, arguments: callArgs });
    if ("deny" in decision) throw new PyException(EXC.PermissionError, [`${server}.${python}() was refused by a plugin: ${decision.deny}`]);
    if (decision.tool !== tool.name) {
      const target = connection.tools.find((t) => t.name === decision.tool && options.visible(server, t.name));
      if (!target) throw new PyException(EXC.PermissionError, [`a plugin rewrote ${server}.${python}() to '${decision.tool}', which is not a tool of '${server}'`]);
      tool = target;
      compiled = compile(tool, options.codecs);
    }
    callArgs = decision.arguments;
    authorize(tool.name);
  }
  if (containsBigInt(callArgs)) {
    throw pyError("TypeError", `${fn}(): an integer beyond 2**53 cannot be sent exactly over MCP; pass it as a str`);
  }
  if (compiled.validate && !options.skipValidation?.has(server) && !compiled.validate(callArgs)) {
    const message = describeValidationError(fn, compiled.validate.errors![0]!, callArgs);
    throw compiled.signature.error(fn, tool.name === upstreamName ? python : canonicalName(tool.name), message);
  }

  let result;
  try {
    result = await connection.callTool(tool.name, callArgs, options.limits.tool_execution_timeout * 1000, signal, options.trace);
  } catch (e) {
    if (e instanceof UpstreamError && e.kind === "timeout") throw new PyException(EXC.TimeoutError, [e.message]);
    throw toolError(server, tool.name, e instanceof Error ? e.message : String(e));
  }
  const normalized = await normalizeResult(result, {
    outputSchema: tool.outputSchema,
    plan: compiled.plan,
    codecs: options.codecs,
    budget,
  });
  if (normalized.isError) throw toolError(server, tool.name, normalized.errorMessage ?? "the tool reported an error");
  if (options.observe && !tool.outputSchema) {
    try {
      options.observe(server, tool.name, normalized.value);
    } catch {
      // A shape not learned costs nothing but a less helpful stub; the call has its result.
    }
  }
  return normalized.value;
}
