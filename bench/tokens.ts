// Token footprint of whole tasks on the real catalogs (real-16: 16 public MCP servers), classic
// MCP against code mode, counted with o200k_base (gpt-tokenizer). Rounds of the first 6, 11 and
// 16 servers; the tasks of bench/tasks.ts whose servers the round covers.
//
// Classic: every turn sends the full tools array and the conversation so far; one turn per tool
// call, then the final answer. Code mode: every turn sends the meta-tool definitions and the
// conversation; the model discovers the tools (listToolFiles then readToolFile of each server
// the task needs, or one searchTools per tool), makes one executeToolCode whose script calls the
// tools, then answers. list + read is measured twice: with the stubs as they are (return types
// from outputSchema, issue 20) and with `-> dict` in their place, as before. The meta-tool outputs are the real ones (src/codemode/meta-tools.ts) for
// the round's catalog; the script runs in the real interpreter, its tool calls answered with
// the task's recorded results, and the executeToolCode text is what the gateway would return.
//
//   npx tsc -p tsconfig.json && node dist/bench/tokens.js [--quick] [--write]
import { isDeepStrictEqual } from "node:util";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { buildCatalog, type Catalog } from "../src/codemode/catalog.js";
import { defaultCodecs } from "../src/codemode/media.js";
import { DEFAULT_META_TOOL_OPTIONS, executeToolCode, listToolFiles, metaToolDefinitions, readToolFile, searchTools } from "../src/codemode/meta-tools.js";
import { serverStub } from "../src/codemode/stubs.js";
import { DEFAULT_LIMITS } from "../src/interpreter/budget.js";
import type { UpstreamConnection } from "../src/upstream/connection.js";
import { loadRealCatalog, type RawServer } from "./catalog.js";
import { median, writeSection } from "./results.js";
import { TASKS, type Task, type ToolCall } from "./tasks.js";

const ROUNDS = [6, 11, 16] as const;
/** Published reference reductions (classic -> code mode) at 96, 251 and 508 tools. */
const REFERENCE: Record<(typeof ROUNDS)[number], { tools: number; reduction: number }> = {
  6: { tools: 96, reduction: 58.2 },
  11: { tools: 251, reduction: 84.5 },
  16: { tools: 508, reduction: 92.8 },
};
const SYSTEM = "You are a helpful assistant. Use the tools to complete the user's task, then answer briefly.";

const tokens = (text: string) => encode(text).length;

// ------------------------------------------------------------------ conversations

/**
 * A chat request's input, counted as OpenAI documents it for chat models: 3 tokens of framing per
 * message plus its role and content, a tool call's name and JSON arguments, and 3 tokens that
 * prime the reply; the tool definitions are counted as the JSON of the `tools` array.
 */
class Conversation {
  private readonly messages: number[] = [];
  readonly turns: number[] = [];
  output = 0;

  constructor(private readonly toolsTokens: number) {
    this.add("system", SYSTEM);
  }

  add(role: string, content: string, extra = 0): number {
    const n = 3 + tokens(role) + tokens(content) + extra;
    this.messages.push(n);
    return n;
  }

  /** One model turn: its input is counted; it answers with a tool call. */
  callTool(name: string, args: Record<string, unknown>, result: string): void {
    this.turn();
    this.output += this.add("assistant", "", tokens(name) + tokens(JSON.stringify(args)));
    this.add("tool", result);
  }

  /** The last turn: its input is counted; it answers in text. */
  answer(text: string): void {
    this.turn();
    this.output += tokens(text);
  }

  private turn(): void {
    this.turns.push(this.toolsTokens + this.messages.reduce((a, b) => a + b, 0) + 3);
  }

  get input(): number {
    return this.turns.reduce((a, b) => a + b, 0);
  }
}

/** A tool's answer as MCP sends it: the recorded CallToolResult, or the JSON as one text block. */
function asCallToolResult(result: unknown): CallToolResult {
  if (typeof result === "object" && result !== null && Array.isArray((result as { content?: unknown }).content)) return result as CallToolResult;
  return { content: [{ type: "text", text: JSON.stringify(result) }] };
}

/** What a classic client puts in the tool message (the text blocks, as the gateway does). */
function classicText(result: unknown): string {
  return asCallToolResult(result)
    .content.filter((c) => c.type === "text")
    .map((c) => (c as { text: string }).text)
    .join("\n");
}

const serversOf = (task: Task) => [...new Set(task.calls.map((c) => c.server))];

// ------------------------------------------------------------------ replay

/**
 * Connections that answer a task's calls with its recorded results, and refuse any call that is
 * not the next one the task lists (same tool, same arguments).
 */
function replay(task: Task, raw: readonly RawServer[]): { connections: UpstreamConnection[]; remaining(): number } {
  const queue: ToolCall[] = [...task.calls];
  for (const c of queue) checkDeclared(task, c, raw);
  const connections = raw
    .filter((s) => serversOf(task).includes(s.name))
    .map((s) => ({
      name: s.name,
      state: "connected",
      instructions: s.instructions,
      tools: s.tools as Tool[],
      async callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
        const next = queue.shift();
        if (!next || next.server !== s.name || next.tool !== name || !isDeepStrictEqual(JSON.parse(JSON.stringify(args)), next.args)) {
          throw new Error(
            `${task.id}: the script called ${s.name}.${name}(${JSON.stringify(args)}), the task expects ` +
              (next ? `${next.server}.${next.tool}(${JSON.stringify(next.args)})` : "no more calls"),
          );
        }
        return asCallToolResult(next.result);
      },
    }));
  return { connections: connections as unknown as UpstreamConnection[], remaining: () => queue.length };
}

/**
 * A recorded answer of a tool that declares an outputSchema carries structuredContent with the
 * schema's required keys, as MCP requires and the real servers send: the script then reads what
 * the stub's return type says.
 */
function checkDeclared(task: Task, c: ToolCall, raw: readonly RawServer[]): void {
  const tool = raw.find((s) => s.name === c.server)?.tools.find((t) => t.name === c.tool) as Tool | undefined;
  const required = tool?.outputSchema?.required ?? [];
  if (!tool?.outputSchema) return;
  const structured = (asCallToolResult(c.result) as { structuredContent?: Record<string, unknown> }).structuredContent;
  const missing = structured === undefined ? ["structuredContent"] : required.filter((k) => !Object.hasOwn(structured, k));
  if (missing.length > 0) throw new Error(`${task.id}: the recorded answer of ${c.server}.${c.tool} lacks ${missing.join(", ")} (its outputSchema declares them)`);
}

// ------------------------------------------------------------------ one task

interface Measured {
  task: Task;
  classic: number;
  classicOutput: number;
  read: number;
  /** list + read with `-> dict` for every declared return (the stubs before issue 20). */
  readUntyped: number;
  search: number;
  codeOutput: number;
  /** How many of the task's tools were among the results of their searchTools query. */
  found: number;
  tools: number;
}

async function measure(task: Task, round: number, raw: readonly RawServer[], catalog: Catalog, classicTools: number, metaTools: number): Promise<Measured> {
  // Classic.
  const classic = new Conversation(classicTools);
  classic.add("user", task.prompt);
  for (const c of task.calls) classic.callTool(c.tool, c.args, classicText(c.result));
  classic.answer(task.answer);

  // The script, run for real against the recorded results.
  const { connections, remaining } = replay(task, raw.slice(0, round));
  const { text: executed, result } = await executeToolCode(task.script, {
    catalog,
    connections,
    authorize: () => null,
    limits: { ...DEFAULT_LIMITS },
    codecs: defaultCodecs(),
  });
  if (result.error) throw new Error(`${task.id}: the script failed:\n${executed}`);
  if (remaining() !== 0) throw new Error(`${task.id}: the script made ${task.calls.length - remaining()} of the task's ${task.calls.length} calls`);

  // Code mode, discovering the tools with listToolFiles + readToolFile.
  const read = new Conversation(metaTools);
  read.add("user", task.prompt);
  read.callTool("listToolFiles", {}, listToolFiles(catalog));
  for (const server of serversOf(task)) {
    const args = { fileName: `servers/${server}.pyi` };
    read.callTool("readToolFile", args, readToolFile(catalog, args));
  }
  read.callTool("executeToolCode", { code: task.script }, executed);
  read.answer(task.answer);

  // The same, the stubs without return types.
  const untyped = new Conversation(metaTools);
  untyped.add("user", task.prompt);
  untyped.callTool("listToolFiles", {}, listToolFiles(catalog));
  for (const server of serversOf(task)) {
    const stub = serverStub(catalog.servers.find((s) => s.name === server)!, { instructionsLimit: DEFAULT_META_TOOL_OPTIONS.instructionsLimit, returnTypes: false });
    untyped.callTool("readToolFile", { fileName: `servers/${server}.pyi` }, stub);
  }
  untyped.callTool("executeToolCode", { code: task.script }, executed);
  untyped.answer(task.answer);

  // Code mode, discovering the tools with searchTools (one query per tool the task uses).
  const distinct = [...new Map(task.calls.map((c) => [`${c.server}.${c.tool}`, c])).values()];
  if (distinct.length !== task.searches.length) throw new Error(`${task.id}: ${distinct.length} tools but ${task.searches.length} searches`);
  const search = new Conversation(metaTools);
  search.add("user", task.prompt);
  let found = 0;
  distinct.forEach((c, i) => {
    const hits = searchTools(catalog, { query: task.searches[i]! });
    const python = catalog.servers.find((s) => s.name === c.server)!.tools.find((t) => t.name === c.tool)!.python;
    if (hits.split("\n").includes(`${c.server}.${python}`)) found++;
    search.callTool("searchTools", { query: task.searches[i]! }, hits);
  });
  search.callTool("executeToolCode", { code: task.script }, executed);
  search.answer(task.answer);

  return {
    task,
    classic: classic.input,
    classicOutput: classic.output,
    read: read.input,
    readUntyped: untyped.input,
    search: search.input,
    codeOutput: read.output,
    found,
    tools: distinct.length,
  };
}

// ------------------------------------------------------------------ report

const pct = (code: number, classic: number) => `−${(100 * (1 - code / classic)).toFixed(1)} %`;
const k = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 0 });
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

async function main(): Promise<void> {
  const raw = loadRealCatalog();
  const metaTools = tokens(
    JSON.stringify(metaToolDefinitions().map((d) => ({ type: "function", function: { name: d.name, description: d.description, parameters: d.inputSchema } }))),
  );

  const byRound = new Map<number, Measured[]>();
  const classicToolsByRound = new Map<number, number>();
  const toolCount = new Map<number, number>();
  for (const round of ROUNDS) {
    const servers = raw.slice(0, round);
    const catalog = buildCatalog(servers as unknown as Parameters<typeof buildCatalog>[0]);
    const classicTools = tokens(
      JSON.stringify(servers.flatMap((s) => s.tools).map((t) => ({ type: "function", function: { name: t.name, description: t.description ?? "", parameters: t.inputSchema } }))),
    );
    classicToolsByRound.set(round, classicTools);
    toolCount.set(round, servers.reduce((n, s) => n + s.tools.length, 0));
    const tasks = TASKS.filter((t) => t.round <= round);
    const rows: Measured[] = [];
    for (const task of tasks) rows.push(await measure(task, round, raw, catalog, classicTools, metaTools));
    byRound.set(round, rows);
  }

  const firstTasks = TASKS.filter((t) => t.round === 6).map((t) => t.id);
  const roundTable = [
    "| servers | tools | tasks | classic: tools array per turn | classic: input per task (median) | code mode, list + read: input per task (median) | list + read, return shapes shown (median) | code mode, search: input per task (median) | reduction, list + read | reduction, list + read with return shapes | reduction, search | reference |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...ROUNDS.map((round) => {
      const rows = byRound.get(round)!;
      const c = sum(rows.map((r) => r.classic));
      return (
        `| ${round} | ${toolCount.get(round)} | ${rows.length} | ${k(classicToolsByRound.get(round)!)} | ${k(median(rows.map((r) => r.classic)))} | ` +
        `${k(median(rows.map((r) => r.readUntyped)))} | ${k(median(rows.map((r) => r.read)))} | ${k(median(rows.map((r) => r.search)))} | ` +
        `**${pct(sum(rows.map((r) => r.readUntyped)), c)}** | **${pct(sum(rows.map((r) => r.read)), c)}** | ` +
        `**${pct(sum(rows.map((r) => r.search)), c)}** | −${REFERENCE[round].reduction} % at ${REFERENCE[round].tools} tools |`
      );
    }),
  ].join("\n");

  // The same tasks (the 10 of the first round) as servers are added.
  const flatTable = [
    `| servers | classic: input per task (median) | code mode, list + read (median) | code mode, search (median) |`,
    "|---:|---:|---:|---:|",
    ...ROUNDS.map((round) => {
      const rows = byRound.get(round)!.filter((r) => firstTasks.includes(r.task.id));
      return `| ${round} | ${k(median(rows.map((r) => r.classic)))} | ${k(median(rows.map((r) => r.read)))} | ${k(median(rows.map((r) => r.search)))} |`;
    }),
  ].join("\n");

  const all = byRound.get(16)!;
  const taskTable = [
    "| task (first round) | tool calls | servers | classic | list + read | list + read, return shapes | search | search found the tool | output tokens, classic / code mode |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...all.map(
      (r) =>
        `| ${r.task.id} (${r.task.round}) | ${r.task.calls.length} | ${serversOf(r.task).length} | ${k(r.classic)} | ${k(r.readUntyped)} | ${k(r.read)} | ${k(r.search)} | ` +
        `${r.found}/${r.tools} | ${k(r.classicOutput)} / ${k(r.codeOutput)} |`,
    ),
  ].join("\n");
  const found = sum(all.map((r) => r.found));
  const wanted = sum(all.map((r) => r.tools));

  const reductions = ROUNDS.map((round) => {
    const rows = byRound.get(round)!;
    const c = sum(rows.map((r) => r.classic));
    return { round, read: 100 * (1 - sum(rows.map((r) => r.read)) / c), search: 100 * (1 - sum(rows.map((r) => r.search)) / c) };
  });
  const beats = reductions.every((r) => Math.min(r.read, r.search) > REFERENCE[r.round as (typeof ROUNDS)[number]].reduction);
  const flat = (pick: (r: Measured) => number) => {
    const at = (round: number) => median(byRound.get(round)!.filter((r) => firstTasks.includes(r.task.id)).map(pick));
    return at(16) / at(6);
  };
  const verdict =
    `Targets: a larger reduction than the reference at every round, **${beats ? "met" : "missed"}** (both ways of ` +
    `discovering the tools); code-mode tokens per task flat as servers are added: for the same 10 tasks, 6 → 16 servers ` +
    `multiplies the median by ${flat((r) => r.read).toFixed(2)} (list + read) and ${flat((r) => r.search).toFixed(2)} (search), ` +
    `against ${flat((r) => r.classic).toFixed(2)} for classic. The code-mode growth is listToolFiles listing more servers ` +
    "(list + read) and other, longer signatures among the 10 results (search).";
  const body = [
    "Input tokens per task (o200k_base, gpt-tokenizer), summed over the model turns of the task. Reduction = 1 − (code-mode " +
      "tokens of the round's tasks) ÷ (classic tokens of the same tasks).",
    "",
    roundTable,
    "",
    "The 10 tasks of the first round, measured again as servers are added (code mode should stay flat):",
    "",
    flatTable,
    "",
    verdict,
    "",
    "Every task at 16 servers (input tokens):",
    "",
    taskTable,
    "",
    `searchTools ranked the task's tool in its default 10 results for ${found} of ${wanted} queries (at 16 servers); ` +
      "a miss would cost another search turn, which is not counted.",
    "",
    "Method. The rounds are the first 6, 11 and 16 servers of `../shared/catalogs/real-16.json` in its order; the reference " +
      "figures are the published ones, at 96, 251 and 508 tools (our rounds have " +
      `${ROUNDS.map((r) => toolCount.get(r)).join(", ")}). Each task (bench/tasks.ts: 10 per round, over the round's new servers) names ` +
      "the tools a model would call with their arguments and a small representative result (a few records of the JSON the " +
      "real server answers with), the code-mode script, one searchTools query per tool, and the final answer. " +
      "**Classic**: every turn carries the round's whole `tools` array (compact JSON of `{type, function: {name, " +
      "description, parameters}}`, upstream schemas unedited, names unprefixed: as in bench:stubs) and the conversation so far; one " +
      "turn per tool call, each result sent back as its text, then the answer turn. **Code mode**: every turn carries the " +
      `five meta-tool definitions (${metaTools} tokens) and the conversation; **list + read**: listToolFiles, one readToolFile ` +
      "per server the task uses (the whole `servers/<server>.pyi`), one executeToolCode, the answer turn, measured with `-> dict` " +
      "for every declared return (the stubs before issue 20) and with the return shapes shown (the TypedDicts the stubs declare " +
      "from outputSchema: the stubs as they are, and what the other figures use); **search**: one " +
      "searchTools per tool (default limit 10), one executeToolCode, the answer turn. The meta-tool outputs are the real ones " +
      "for the round's catalog. Each script ran in the real interpreter against connections that answer with the task's " +
      "recorded results and refuse any call the task does not list, in order and with the same arguments, so both modes " +
      "make exactly the same calls with the same results; a tool that declares an outputSchema answers with structuredContent " +
      "holding its required keys, as MCP requires, so the scripts read the keys its return type names; the executeToolCode text counted is the gateway's real answer " +
      "(the script's RESULT, not the intermediate results). Messages are counted as OpenAI documents for chat models " +
      "(3 tokens of framing per message, 3 to prime the reply); a provider's own rendering of tool definitions differs " +
      "somewhat, the same way for both modes. The system prompt and the user's request are the same in both modes. " +
      "Not modelled: a script that fails and is rewritten, or a classic call that is retried; the model writing the script " +
      "(its output tokens are in the last column). These are tokens in the context, not cost: a provider that caches a " +
      "repeated prompt prefix bills it at a discount after the first turn, but the tools array still fills the context " +
      "window at every turn. Token counts do not depend on the machine.",
  ].join("\n");
  console.log(body);
  if (process.argv.includes("--write")) {
    writeSection("bench:tokens", "Token footprint: classic MCP vs code mode, whole tasks on real-16", "node dist/bench/tokens.js --write", body);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
