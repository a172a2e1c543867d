// The agent loop (SPEC §7): the provider answers, the gateway runs the tool calls that may run
// unattended (in parallel) and sends their results back, until the model answers without tool
// calls, a call needs a person's approval, or max_agent_depth rounds of tools have run.
//
// What may run unattended: the read-only meta-tools always; a direct tool in its client's
// tools_to_auto_execute; executeToolCode when the pre-flight analysis finds only such tools. The
// gateway re-checks every call as it is made (`unattended`), which is what actually holds.
import { toolNamesOf } from "../codemode/names.js";
import { type Caller, UNRESTRICTED } from "../gateway/caller.js";
import type { TraceContext } from "../upstream/trace-context.js";
import { type Gateway, type GatewayTool, NeedsApprovalError } from "../gateway/gateway.js";
import { preflight } from "./preflight.js";
import type { ChatCompletion, ChatMessage, ChatToolCall } from "./providers.js";

/** Meta-tools that only read the catalog: always auto-executable. */
export const READ_ONLY_META_TOOLS: ReadonlySet<string> = new Set(["listToolFiles", "readToolFile", "getToolDocs", "searchTools"]);

/** How much of each executed result the approval answer's content repeats. */
const SUMMARY_CHARS = 2000;

export interface AgentRun {
  gateway: Gateway;
  caller: Caller;
  /** The caller's request body, minus `model` (the provider's model is set by `complete`). */
  body: Record<string, unknown> & { messages: ChatMessage[] };
  /** One provider round trip. */
  complete(body: Record<string, unknown>): Promise<ChatCompletion>;
  signal?: AbortSignal;
}

/** What the gateway emits as "agent-round" after each round of an agent loop. */
export interface AgentRoundEvent {
  /** 1 for the first round. */
  round: number;
  /** When the round began (performance.now()). */
  started: number;
  /** How long the provider took to answer. */
  provider_seconds: number;
  /** The whole round: the provider's answer and the tools it ran. */
  duration_seconds: number;
  /** How many tool calls the gateway ran in the round. */
  tool_calls: number;
  /** The trace context of the request the loop answers (telemetry parents the round's span there). */
  trace?: TraceContext;
}

/** A call runs now (with its arguments, or only an error to report), or goes back to the caller, saying why. */
type Decision = { run: true; args: Record<string, unknown> } | { run: false; reason: string } | { run: true; error: string };

/** A tool call of a provider's answer, whatever its wire shape. */
export interface LoopCall<Raw = unknown> {
  id: string;
  name: string;
  /** JSON text (OpenAI) or an object already (Anthropic). */
  arguments: unknown;
  /** The call as the provider wrote it. */
  raw: Raw;
}

export interface Pending<Raw = unknown> {
  call: LoopCall<Raw>;
  reason: string;
}

export interface Executed<Raw = unknown> {
  call: LoopCall<Raw>;
  content: string;
}

/** One conversation with a provider, in the provider's own wire format. */
export interface Conversation<Answer, Raw> {
  /** One provider round trip (a streaming conversation forwards what it can as it comes). */
  complete(): Promise<Answer>;
  callsOf(answer: Answer): LoopCall<Raw>[];
  /** Adds the answer and its calls' results, for the next round. */
  continueWith(answer: Answer, executed: readonly Executed<Raw>[]): void;
}

/** How a request's loop ended: an answer to give as it is, or calls that wait for approval. */
export type LoopOutcome<Answer, Raw> =
  | { kind: "answer"; answer: Answer }
  | { kind: "approval"; answer: Answer; executed: Executed<Raw>[]; pending: Pending<Raw>[] };

/** The tools offered to the provider, in OpenAI's `tools` shape. */
export function providerTools(tools: readonly GatewayTool[]): Record<string, unknown>[] {
  return tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.inputSchema } }));
}

/**
 * Runs the loop of any conversation: the provider answers, the calls that may run unattended run
 * (in parallel), and their results go back, until an answer has no calls, a call waits for
 * approval, or max_agent_depth rounds of tools have run. `offered` are the gateway's tools the
 * provider was shown; any other name is the caller's own tool.
 */
export async function runLoop<Answer, Raw>(
  gateway: Gateway,
  caller: Caller,
  offered: readonly GatewayTool[],
  conversation: Conversation<Answer, Raw>,
  signal?: AbortSignal,
): Promise<LoopOutcome<Answer, Raw>> {
  // Read once: a settings change applies to the next request, not to one halfway through.
  const maxDepth = gateway.settings.maxAgentDepth;
  const ours = new Set(offered.map((t) => t.name));
  for (let depth = 0; ; depth++) {
    const started = performance.now();
    const answer = await conversation.complete();
    const providerSeconds = (performance.now() - started) / 1000;
    const calls = conversation.callsOf(answer);
    // Told to whoever watches the gateway (telemetry): the round's provider request, then its tools.
    const round = (ran: number) => {
      const event: AgentRoundEvent = { round: depth + 1, started, provider_seconds: providerSeconds, duration_seconds: (performance.now() - started) / 1000, tool_calls: ran, trace: caller.trace };
      gateway.emit("agent-round", event);
    };
    if (calls.length === 0 || depth >= maxDepth) {
      round(0);
      return { kind: "answer", answer };
    }

    const decisions = calls.map((call) => decide(gateway, caller, ours, call));
    const pending: Pending<Raw>[] = [];
    const outcomes = await Promise.all(
      calls.map(async (call, i): Promise<Executed<Raw> | null> => {
        const decision = decisions[i]!;
        if (!decision.run) {
          pending.push({ call, reason: decision.reason });
          return null;
        }
        if ("error" in decision) return { call, content: `Error: ${decision.error}` };
        try {
          const outcome = await gateway.callTool(call.name, decision.args, caller, signal, { unattended: true });
          const direct = call.name !== "executeToolCode" && !READ_ONLY_META_TOOLS.has(call.name);
          return { call, content: outcome.isError && direct ? `Error: ${outcome.text}` : outcome.text };
        } catch (e) {
          // A plugin's rewrite can turn an auto-executable call into one that needs approval.
          if (e instanceof NeedsApprovalError) {
            pending.push({ call, reason: e.message });
            return null;
          }
          if (signal?.aborted) throw e;
          return { call, content: `Error: ${(e as Error).message}` };
        }
      }),
    );
    // A client that went away while the tools ran gets no further provider round.
    if (signal?.aborted) throw signal.reason;
    const executed = outcomes.filter((o): o is Executed<Raw> => o !== null);
    round(executed.length);
    if (pending.length > 0) {
      const order = (p: Pending<Raw>) => calls.indexOf(p.call);
      return { kind: "approval", answer, executed, pending: pending.sort((a, b) => order(a) - order(b)) };
    }
    conversation.continueWith(answer, executed);
  }
}

/** The calls of a chat completion's first choice. */
export function chatCalls(completion: ChatCompletion): LoopCall<ChatToolCall>[] {
  return (completion.choices[0]!.message.tool_calls ?? []).map((raw) => ({ id: raw.id, name: raw.function?.name, arguments: raw.function?.arguments, raw }));
}

/** A conversation in OpenAI's chat shape; `send` is one provider round (whole or streamed). */
export class ChatConversation implements Conversation<ChatCompletion, ChatToolCall> {
  readonly usage = new Usage();
  private readonly messages: ChatMessage[];

  constructor(
    private readonly body: Record<string, unknown> & { messages: ChatMessage[] },
    private readonly tools: readonly Record<string, unknown>[],
    private readonly send: (body: Record<string, unknown>) => Promise<ChatCompletion>,
  ) {
    this.messages = [...body.messages];
  }

  async complete(): Promise<ChatCompletion> {
    const completion = await this.send({ ...this.body, messages: this.messages, ...(this.tools.length ? { tools: this.tools } : {}) });
    this.usage.add(completion);
    return completion;
  }

  callsOf(completion: ChatCompletion): LoopCall<ChatToolCall>[] {
    return chatCalls(completion);
  }

  continueWith(completion: ChatCompletion, executed: readonly Executed<ChatToolCall>[]): void {
    this.messages.push(completion.choices[0]!.message, ...executed.map((e) => ({ role: "tool", tool_call_id: e.call.id, content: e.content })));
  }
}

/** The tools a chat request sends the provider: the caller's own, then the gateway's. */
export function chatTools(body: Record<string, unknown>, offered: readonly GatewayTool[]): Record<string, unknown>[] {
  const theirs = Array.isArray(body.tools) ? (body.tools as Record<string, unknown>[]) : [];
  return [...theirs, ...providerTools(offered)];
}

/** Runs the loop to the answer the caller receives (a whole chat completion). */
export async function runAgent(run: AgentRun): Promise<ChatCompletion> {
  const offered = run.gateway.listTools(run.caller);
  const conversation = new ChatConversation(run.body, chatTools(run.body, offered), (body) => run.complete(body));
  const outcome = await runLoop(run.gateway, run.caller, offered, conversation, run.signal);
  const answer = outcome.kind === "answer" ? outcome.answer : approvalAnswer(outcome.answer, outcome.executed, outcome.pending);
  return conversation.usage.onto(answer);
}

/** May this call run now, unattended? */
function decide(gateway: Gateway, caller: Caller, ours: ReadonlySet<string>, call: LoopCall): Decision {
  const name = call.name;
  // The caller's own tools (and names nobody offered) are the caller's to run.
  if (typeof name !== "string" || !ours.has(name)) return { run: false, reason: "not a gateway tool" };
  const raw = typeof call.arguments === "string" ? call.arguments : "";
  let args: unknown = typeof call.arguments === "object" && call.arguments !== null ? call.arguments : {};
  if (raw.trim() !== "") {
    try {
      args = JSON.parse(raw);
    } catch (e) {
      return { run: true, error: `the arguments of ${name} are not valid JSON (${(e as Error).message}); send a JSON object` };
    }
  }
  if (typeof args !== "object" || args === null || Array.isArray(args)) return { run: true, error: `the arguments of ${name} must be a JSON object` };
  const record = args as Record<string, unknown>;
  if (READ_ONLY_META_TOOLS.has(name)) return { run: true, args: record };
  if (name === "executeToolCode") {
    const analysis = preflight(typeof record.code === "string" ? record.code : "", preflightInput(gateway, caller));
    return analysis.autoExecutable ? { run: true, args: record } : { run: false, reason: analysis.reasons.join("; ") };
  }
  const dash = name.indexOf("-");
  return dash > 0 && gateway.autoExecutable(name.slice(0, dash), name.slice(dash + 1))
    ? { run: true, args: record }
    : { run: false, reason: `${name} is not in tools_to_auto_execute` };
}

/** The servers a script would see, bound as the sandbox binds them, and the caller's auto-executable tools. */
export function preflightInput(gateway: Gateway, caller: Caller): Parameters<typeof preflight>[1] {
  const servers = new Map<string, (python: string) => string | undefined>();
  for (const server of gateway.catalogFor(caller).servers) {
    const connection = gateway.manager.get(server.name);
    if (!connection) continue;
    const names = toolNamesOf(connection.tools.filter((t) => gateway.permitted(UNRESTRICTED, server.name, t.name)));
    servers.set(server.name, (python) => names.upstream(python));
  }
  return {
    servers,
    autoExecutable: (server, tool) => gateway.permitted(caller, server, tool) && gateway.autoExecutable(server, tool),
  };
}

/** Why each waiting call waits, for the person deciding (an extra field of the answer; SDKs ignore it). */
export function approvalRequired(pending: readonly Pending[]): { tool_call_id: string; name: string; reason: string }[] {
  return pending.map((p) => ({ tool_call_id: p.call.id, name: p.call.name, reason: p.reason }));
}

/**
 * What ran automatically in the round that stopped for approval, and what waits: the text an
 * answer carries so that the conversation the caller sends back still holds those results.
 */
export function approvalSummary(executed: readonly Executed[], pending: readonly Pending[]): string {
  const lines: string[] = [`Ran ${executed.length} tool call${executed.length === 1 ? "" : "s"} automatically:`];
  for (const e of executed) {
    const text = e.content.length > SUMMARY_CHARS ? `${e.content.slice(0, SUMMARY_CHARS)}... (${e.content.length - SUMMARY_CHARS} more characters)` : e.content;
    lines.push(`- ${e.call.name} (${e.call.id}):`, ...text.split("\n").map((l) => `    ${l}`));
  }
  lines.push("", `Waiting for approval: ${pending.map((p) => `${p.call.name} (${p.call.id})`).join(", ")}.`);
  return lines.join("\n");
}

/**
 * The answer when some calls need approval: those calls, for the caller to approve and run
 * through /v1/mcp/tool/execute; what ran automatically in this round is summarized in the content
 * (finish_reason "stop"). With nothing run, the provider's answer goes back as it was.
 */
export function approvalAnswer(completion: ChatCompletion, executed: readonly Executed<ChatToolCall>[], pending: readonly Pending<ChatToolCall>[]): ChatCompletion {
  const choice = completion.choices[0]!;
  const approval_required = approvalRequired(pending);
  const calls = pending.map((p) => p.call.raw);
  if (executed.length === 0) return { ...completion, choices: [{ ...choice, message: { ...choice.message, tool_calls: calls } }], approval_required };
  const own = typeof choice.message.content === "string" && choice.message.content.trim() !== "" ? `${choice.message.content.trim()}\n\n` : "";
  const message: ChatMessage = { role: "assistant", content: own + approvalSummary(executed, pending), tool_calls: calls };
  return { ...completion, choices: [{ ...choice, message, finish_reason: "stop" }], approval_required };
}

/** Token usage summed over every provider round of one request. */
export class Usage {
  private prompt = 0;
  private completion = 0;
  private sum = 0;
  private complete = true;

  add(c: ChatCompletion): void {
    const u = c.usage;
    if (!u || typeof u.prompt_tokens !== "number" || typeof u.completion_tokens !== "number") {
      this.complete = false;
      return;
    }
    this.prompt += u.prompt_tokens;
    this.completion += u.completion_tokens;
    this.sum += typeof u.total_tokens === "number" ? u.total_tokens : u.prompt_tokens + u.completion_tokens;
  }

  /** The summed usage, when every round reported its own. */
  total(): ChatCompletion["usage"] {
    return this.complete ? { prompt_tokens: this.prompt, completion_tokens: this.completion, total_tokens: this.sum } : undefined;
  }

  /** The answer with the summed usage, when every round reported its own. */
  onto(c: ChatCompletion): ChatCompletion {
    if (!this.complete) return c;
    return { ...c, usage: { ...c.usage, prompt_tokens: this.prompt, completion_tokens: this.completion, total_tokens: this.sum } };
  }
}
