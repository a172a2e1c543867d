// The agent loop (SPEC §7): the provider answers, the gateway runs the tool calls that may run
// unattended (in parallel) and sends their results back, until the model answers without tool
// calls, a call needs a person's approval, or max_agent_depth rounds of tools have run.
//
// What may run unattended: the read-only meta-tools always; a direct tool in its client's
// tools_to_auto_execute; executeToolCode when the pre-flight analysis finds only such tools. The
// gateway re-checks every call as it is made (`unattended`), which is what actually holds.
import { ToolNames } from "../codemode/names.js";
import { type Caller, UNRESTRICTED } from "../gateway/caller.js";
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

/** A call runs now (with its arguments, or only an error to report), or goes back to the caller, saying why. */
type Decision = { run: true; args: Record<string, unknown> } | { run: false; reason: string } | { run: true; error: string };

interface Pending {
  call: ChatToolCall;
  reason: string;
}

interface Executed {
  call: ChatToolCall;
  content: string;
}

/** The tools offered to the provider, in OpenAI's `tools` shape. */
export function providerTools(tools: readonly GatewayTool[]): Record<string, unknown>[] {
  return tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.inputSchema } }));
}

/** Runs the loop to the answer the caller receives. */
export async function runAgent(run: AgentRun): Promise<ChatCompletion> {
  const { gateway, caller } = run;
  // Read once: a settings change applies to the next request, not to one halfway through.
  const maxDepth = gateway.settings.maxAgentDepth;
  const offered = gateway.listTools(caller);
  const ours = new Set(offered.map((t) => t.name));
  const theirs = Array.isArray(run.body.tools) ? (run.body.tools as Record<string, unknown>[]) : [];
  const tools = [...theirs, ...providerTools(offered)];
  const messages = [...run.body.messages];
  const usage = new Usage();

  for (let depth = 0; ; depth++) {
    const completion = await run.complete({ ...run.body, messages, ...(tools.length ? { tools } : {}) });
    usage.add(completion);
    const choice = completion.choices[0]!;
    const calls = choice.message.tool_calls ?? [];
    if (calls.length === 0 || depth >= maxDepth) return usage.onto(completion);

    const decisions = calls.map((call) => decide(gateway, caller, ours, call));
    const pending: Pending[] = [];
    const outcomes = await Promise.all(
      calls.map(async (call, i): Promise<Executed | null> => {
        const decision = decisions[i]!;
        if (!decision.run) {
          pending.push({ call, reason: decision.reason });
          return null;
        }
        if ("error" in decision) return { call, content: `Error: ${decision.error}` };
        try {
          const outcome = await gateway.callTool(call.function.name, decision.args, caller, run.signal, { unattended: true });
          const direct = call.function.name !== "executeToolCode" && !READ_ONLY_META_TOOLS.has(call.function.name);
          return { call, content: outcome.isError && direct ? `Error: ${outcome.text}` : outcome.text };
        } catch (e) {
          // A plugin's rewrite can turn an auto-executable call into one that needs approval.
          if (e instanceof NeedsApprovalError) {
            pending.push({ call, reason: e.message });
            return null;
          }
          if (run.signal?.aborted) throw e;
          return { call, content: `Error: ${(e as Error).message}` };
        }
      }),
    );
    const executed = outcomes.filter((o): o is Executed => o !== null);
    if (pending.length > 0) {
      const order = (p: Pending) => calls.indexOf(p.call);
      return usage.onto(approvalAnswer(completion, executed, pending.sort((a, b) => order(a) - order(b))));
    }
    messages.push(choice.message, ...executed.map((e) => ({ role: "tool", tool_call_id: e.call.id, content: e.content })));
  }
}

/** May this call run now, unattended? */
function decide(gateway: Gateway, caller: Caller, ours: ReadonlySet<string>, call: ChatToolCall): Decision {
  const name = call.function?.name;
  // The caller's own tools (and names nobody offered) are the caller's to run.
  if (typeof name !== "string" || !ours.has(name)) return { run: false, reason: "not a gateway tool" };
  const raw = typeof call.function.arguments === "string" ? call.function.arguments : "";
  let args: unknown = {};
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
    const names = new ToolNames(connection.tools.filter((t) => gateway.permitted(UNRESTRICTED, server.name, t.name)).map((t) => t.name));
    servers.set(server.name, (python) => names.upstream(python));
  }
  return {
    servers,
    autoExecutable: (server, tool) => gateway.permitted(caller, server, tool) && gateway.autoExecutable(server, tool),
  };
}

/**
 * The answer when some calls need approval: those calls, for the caller to approve and run
 * through /v1/mcp/tool/execute; what ran automatically in this round is summarized in the content
 * (finish_reason "stop"). With nothing run, the provider's answer goes back as it was.
 */
function approvalAnswer(completion: ChatCompletion, executed: readonly Executed[], pending: readonly Pending[]): ChatCompletion {
  const choice = completion.choices[0]!;
  // Why each call waits, for the person deciding (an extra field; OpenAI clients ignore it).
  const approval_required = pending.map((p) => ({ tool_call_id: p.call.id, name: p.call.function?.name, reason: p.reason }));
  const calls = pending.map((p) => p.call);
  if (executed.length === 0) return { ...completion, choices: [{ ...choice, message: { ...choice.message, tool_calls: calls } }], approval_required };
  const lines: string[] = [];
  if (typeof choice.message.content === "string" && choice.message.content.trim() !== "") lines.push(choice.message.content.trim(), "");
  lines.push(`Ran ${executed.length} tool call${executed.length === 1 ? "" : "s"} automatically:`);
  for (const e of executed) {
    const text = e.content.length > SUMMARY_CHARS ? `${e.content.slice(0, SUMMARY_CHARS)}... (${e.content.length - SUMMARY_CHARS} more characters)` : e.content;
    lines.push(`- ${e.call.function.name} (${e.call.id}):`, ...text.split("\n").map((l) => `    ${l}`));
  }
  lines.push("", `Waiting for approval: ${calls.map((c) => `${c.function.name} (${c.id})`).join(", ")}.`);
  const message: ChatMessage = { role: "assistant", content: lines.join("\n"), tool_calls: calls };
  return { ...completion, choices: [{ ...choice, message, finish_reason: "stop" }], approval_required };
}

/** Token usage summed over every provider round of one request. */
class Usage {
  private prompt = 0;
  private completion = 0;
  private total = 0;
  private complete = true;

  add(c: ChatCompletion): void {
    const u = c.usage;
    if (!u || typeof u.prompt_tokens !== "number" || typeof u.completion_tokens !== "number") {
      this.complete = false;
      return;
    }
    this.prompt += u.prompt_tokens;
    this.completion += u.completion_tokens;
    this.total += typeof u.total_tokens === "number" ? u.total_tokens : u.prompt_tokens + u.completion_tokens;
  }

  /** The answer with the summed usage, when every round reported its own. */
  onto(c: ChatCompletion): ChatCompletion {
    if (!this.complete) return c;
    return { ...c, usage: { ...c.usage, prompt_tokens: this.prompt, completion_tokens: this.completion, total_tokens: this.total } };
  }
}
