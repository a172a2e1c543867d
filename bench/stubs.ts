// Token cost of code-mode stubs against classic MCP tool definitions, on the 16 real catalogs
// (o200k_base, the GPT-4o/4.1/5 tokenizer). Classic: what a client puts in front of the model on
// every turn, the tools as an OpenAI `tools` array of {name, description, parameters}. Code mode:
// the `servers/<server>.pyi` files the model reads on demand, and the per-tool files and docs.
// `npx tsc -p tsconfig.json && node dist/bench/stubs.js [--write]` (--write updates RESULTS.md).
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { buildCatalog, type CatalogTool } from "../src/codemode/catalog.js";
import { serverStub, signatureLine, toolDocs, toolStub } from "../src/codemode/stubs.js";
import { median, writeSection } from "./results.js";

/** Every server stub's tokens on real-16 before issue 20 (commit 005e661: no return types, no hints). */
const BEFORE_ISSUE_20 = 26266;
/** Issue 20's bound on their growth. */
const GROWTH_BUDGET = 0.25;

const CATALOG = fileURLToPath(new URL("../../../shared/catalogs/real-16.json", import.meta.url));
if (!existsSync(CATALOG)) {
  console.error(`No catalog at ${CATALOG}.`);
  process.exit(2);
}

interface RawServer {
  name: string;
  instructions: string | null;
  tools: { name: string; description?: string; inputSchema: Record<string, unknown> }[];
}
const raw = (JSON.parse(readFileSync(CATALOG, "utf8")) as { servers: RawServer[] }).servers;
// buildCatalog sorts servers by name; the table keeps the catalog's benchmark order.
const catalog = buildCatalog(raw as unknown as Parameters<typeof buildCatalog>[0]);
const servers = raw.map((r) => catalog.servers.find((s) => s.name === r.name)!);

const tokens = (text: string) => encode(text).length;
const classicTool = (tool: RawServer["tools"][number]) => ({
  type: "function",
  function: { name: tool.name, description: tool.description ?? "", parameters: tool.inputSchema },
});
/** The tokens of one tool inside a tools array: its JSON plus the separating comma. */
const classicToolTokens = (tool: RawServer["tools"][number]) => tokens(JSON.stringify(classicTool(tool))) + 1;

function p90(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(sorted.length * 0.9) - 1)]!;
}

const lineTokens: number[] = [];
const classicPerTool: number[] = [];
const toolStubTokens: number[] = [];
const docsTokens: number[] = [];
const longest: { tokens: number; tool: CatalogTool }[] = [];

const rows: string[] = [];
const cumulative: { servers: number; tools: number; stub: number; classic: number }[] = [];
let stubTotal = 0;
let untypedTotal = 0;
let classicTotal = 0;
let toolTotal = 0;
raw.forEach((r, index) => {
  const server = servers[index]!;
  const stub = tokens(serverStub(server));
  const untyped = tokens(serverStub(server, { returnTypes: false }));
  untypedTotal += untyped;
  const classic = tokens(JSON.stringify(r.tools.map(classicTool)));
  const lines = server.tools.map((t) => tokens(signatureLine(t)));
  lineTokens.push(...lines);
  classicPerTool.push(...r.tools.map(classicToolTokens));
  for (const tool of server.tools) {
    toolStubTokens.push(tokens(toolStub(server, tool)));
    docsTokens.push(tokens(toolDocs(server, tool)));
    longest.push({ tokens: tokens(signatureLine(tool)), tool });
  }
  stubTotal += stub;
  classicTotal += classic;
  toolTotal += server.tools.length;
  if (index === 5 || index === 10 || index === raw.length - 1) {
    cumulative.push({ servers: index + 1, tools: toolTotal, stub: stubTotal, classic: classicTotal });
  }
  rows.push(
    `| ${server.name} | ${server.tools.length} | ${server.instructions ? "yes" : ""} | ${stub} | ${untyped} | ${median(lines)} | ${classic} | ${(classic / stub).toFixed(1)}× |`,
  );
});

const perServer = [
  "| server | tools | instructions | `.pyi` stub tokens | without return types | median line | classic definitions | classic ÷ stub |",
  "|---|---:|:---:|---:|---:|---:|---:|---:|",
  ...rows,
  `| **all 16** | **${toolTotal}** | | **${stubTotal}** | **${untypedTotal}** | **${median(lineTokens)}** | **${classicTotal}** | **${(classicTotal / stubTotal).toFixed(1)}×** |`,
].join("\n");

const perTool = [
  "| per tool | median | p90 | max |",
  "|---|---:|---:|---:|",
  `| signature line (in \`servers/<server>.pyi\`) | ${median(lineTokens)} | ${p90(lineTokens)} | ${Math.max(...lineTokens)} |`,
  `| classic definition (one entry of the tools array) | ${median(classicPerTool)} | ${p90(classicPerTool)} | ${Math.max(...classicPerTool)} |`,
  `| tool file (\`servers/<server>/<tool>.pyi\`) | ${median(toolStubTokens)} | ${p90(toolStubTokens)} | ${Math.max(...toolStubTokens)} |`,
  `| getToolDocs text | ${median(docsTokens)} | ${p90(docsTokens)} | ${Math.max(...docsTokens)} |`,
].join("\n");

const sessions = [
  "| servers | tools | every `.pyi` stub, read once | classic definitions, every turn |",
  "|---:|---:|---:|---:|",
  ...cumulative.map((c) => `| ${c.servers} | ${c.tools} | ${c.stub} | ${c.classic} |`),
].join("\n");

longest.sort((a, b) => b.tokens - a.tokens);
const heaviest = longest
  .slice(0, 5)
  .map((l) => `${l.tool.server}.${l.tool.python} (${l.tokens})`)
  .join(", ");

const growth = stubTotal / BEFORE_ISSUE_20 - 1;
const budget = `Every server stub, read once: ${stubTotal} tokens, against ${BEFORE_ISSUE_20} before issue 20 (commit 005e661, no return types and no behaviour hints): ` +
  `${growth >= 0 ? "+" : ""}${(100 * growth).toFixed(1)} %, within the +${100 * GROWTH_BUDGET} % budget: **${growth <= GROWTH_BUDGET ? "met" : "missed"}**. ` +
  `Return types alone add ${stubTotal - untypedTotal} tokens (the "without return types" column keeps the hints and shows \`-> dict\`).`;

const body = `${perServer}

${budget}

${perTool}

${sessions}

o200k_base tokens. Classic definitions are the compact JSON of an OpenAI \`tools\` array
(\`{"type": "function", "function": {name, description, parameters}}\` per tool, the upstream
inputSchema unedited). A server stub is the whole \`servers/<server>.pyi\` file: header, usage
lines, the server's instructions (up to 4096 bytes), one line per tool. Heaviest signature lines:
${heaviest}.`;

console.log(body);
if (process.argv.includes("--write")) {
  writeSection("bench:stubs", "Stub tokens: code-mode stubs vs classic tool definitions", "npx tsc -p tsconfig.json && node dist/bench/stubs.js --write", body);
}
