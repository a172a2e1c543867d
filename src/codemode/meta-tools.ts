// The meta-tools the model sees (SPEC §4): listToolFiles, readToolFile, getToolDocs, searchTools
// and executeToolCode. All but the last are pure functions of a Catalog (what the caller may see)
// and the options; executeToolCode runs a script with the visible servers bound as globals.
import { execute, internalErrorResult, type Limits, type SandboxResult, stringifyPlain, type WorkspaceOptions } from "../interpreter/index.js";
import type { UpstreamConnection } from "../upstream/connection.js";
import { type BeforeCall, type BridgeOptions, buildHosts } from "./bridge.js";
import type { Catalog, CatalogServer, CatalogTool } from "./catalog.js";
import type { MediaCodecs } from "./media-codecs.js";
import { ToolSearch } from "./search.js";
import { encodeTensors } from "./tensor/codec.js";
import { shapeText } from "./shape.js";
import { SEARCH_RETURN_TYPES } from "./return-types.js";
import { defHead, returnTypes, serverStub, signatureLine, toolDocs, toolStub } from "./stubs.js";
import { hintWords } from "./tool-hints.js";

export type BindingLevel = "server" | "tool";

export const META_TOOL_NAMES = ["listToolFiles", "readToolFile", "getToolDocs", "searchTools", "executeToolCode"] as const;
export type MetaToolName = (typeof META_TOOL_NAMES)[number];

export interface MetaToolOptions {
  binding: BindingLevel;
  /** Bytes of a server's upstream instructions shown in its stub (SPEC §4). */
  instructionsLimit: number;
  /** Which meta-tools are offered. */
  enabled: ReadonlySet<MetaToolName>;
  /** Whether executeToolScript is offered (only when a workspace is configured). */
  scripts?: boolean;
}

export const DEFAULT_META_TOOL_OPTIONS: MetaToolOptions = {
  binding: "server",
  instructionsLimit: 4096,
  enabled: new Set(META_TOOL_NAMES),
};

export interface MetaToolDefinition {
  name: MetaToolName | typeof EXECUTE_TOOL_SCRIPT;
  description: string;
  inputSchema: Record<string, unknown>;
}

const DEFINITIONS: MetaToolDefinition[] = [
  {
    name: "listToolFiles",
    description: "List the Python stub files (.pyi) of the connected tool servers. Start here.",
    inputSchema: { type: "object", properties: {} },
  },
  {
    name: "readToolFile",
    description: "Read a stub file from listToolFiles: one Python signature per tool, with the server's usage notes.",
    inputSchema: {
      type: "object",
      properties: {
        fileName: { type: "string", description: "e.g. servers/github.pyi" },
        startLine: { type: "integer", description: "1-based, optional" },
        endLine: { type: "integer", description: "1-based, inclusive, optional" },
      },
      required: ["fileName"],
    },
  },
  {
    name: "getToolDocs",
    description: "Full documentation of one tool: every parameter, the return shape, an example.",
    inputSchema: {
      type: "object",
      properties: { server: { type: "string" }, tool: { type: "string" } },
      required: ["server", "tool"],
    },
  },
  {
    name: "searchTools",
    description: "Find tools by what they do, across all servers. Returns signatures, best match first.",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string" },
        server: { type: "string", description: "only this server" },
        limit: { type: "integer", description: "default 10" },
        detail: { type: "string", enum: ["brief", "full"], description: "full adds the JSON schemas" },
      },
      required: ["query"],
    },
  },
  {
    name: "executeToolCode",
    description:
      "Run a Python script. Each server is a global: r = github.search_repos(query='x'). " +
      "Calls are synchronous (srv.tool_async + asyncio.gather for parallel). Results are dicts/lists: " +
      "use r['key']. print() is captured; the last expression (or RESULT) is returned. Fresh scope each run.",
    inputSchema: { type: "object", properties: { code: { type: "string" } }, required: ["code"] },
  },
];

/** The optional meta-tool that runs a `.py` file of the workspace (see script-tool.ts). */
export const EXECUTE_TOOL_SCRIPT = "executeToolScript";

const SCRIPT_DEFINITION: MetaToolDefinition = {
  name: EXECUTE_TOOL_SCRIPT,
  description: "Run a .py file from the workspace folder like executeToolCode; args become sys.argv[1:].",
  inputSchema: {
    type: "object",
    properties: {
      path: { type: "string", description: "relative to the workspace, e.g. jobs/report.py" },
      args: { type: "array", items: { type: "string" } },
    },
    required: ["path"],
  },
};

/** The meta-tools offered, as MCP tool definitions. */
export function metaToolDefinitions(options: MetaToolOptions = DEFAULT_META_TOOL_OPTIONS): MetaToolDefinition[] {
  const offered = DEFINITIONS.filter((d) => options.enabled.has(d.name as MetaToolName));
  return options.scripts ? [...offered, SCRIPT_DEFINITION] : offered;
}

// ------------------------------------------------------------------ virtual files

function toolCount(catalog: Catalog): number {
  return catalog.servers.reduce((n, s) => n + s.tools.length, 0);
}

/** Every virtual file, under the binding level in force. */
function files(catalog: Catalog, binding: BindingLevel): string[] {
  if (binding === "server") return catalog.servers.map((s) => `servers/${s.name}.pyi`);
  return catalog.servers.flatMap((s) => [...s.tools].sort((a, b) => a.python.localeCompare(b.python)).map((t) => `servers/${s.name}/${t.python}.pyi`));
}

export function listToolFiles(catalog: Catalog, options: MetaToolOptions = DEFAULT_META_TOOL_OPTIONS): string {
  if (catalog.servers.length === 0) {
    return "No tool servers are available: none is connected in code mode, or this key grants none of their tools.";
  }
  const lines = [
    `${catalog.servers.length} server${catalog.servers.length === 1 ? "" : "s"}, ${toolCount(catalog)} tools. ` +
      "Read a file with readToolFile, then call the tools from executeToolCode.",
    "servers/",
  ];
  for (const server of catalog.servers) {
    const mark = server.instructions ? "  (has instructions)" : "";
    if (options.binding === "server") {
      lines.push(`  ${server.name}.pyi${mark}`);
    } else {
      lines.push(`  ${server.name}/${mark}`);
      for (const tool of [...server.tools].sort((a, b) => a.python.localeCompare(b.python))) lines.push(`    ${tool.python}.pyi`);
    }
  }
  return lines.join("\n");
}

interface Resolved {
  server: CatalogServer;
  tool: CatalogTool | null;
}

/** Resolves `servers/<server>.pyi` or `servers/<server>/<tool>.pyi`, case-insensitively. */
function resolvePath(catalog: Catalog, fileName: string): Resolved | null {
  const path = fileName.trim().replace(/^\.\//, "");
  // Anything that tries to leave the virtual tree is simply not found.
  if (path.includes("..") || path.includes("\\") || path.startsWith("/") || path.includes("\0")) return null;
  const m = /^(?:servers\/)?([^/]+?)(?:\/([^/]+?))?(?:\.pyi)?$/i.exec(path);
  if (!m) return null;
  const server = catalog.servers.find((s) => s.name.toLowerCase() === m[1]!.toLowerCase());
  if (!server) return null;
  if (!m[2]) return { server, tool: null };
  const wanted = m[2].toLowerCase();
  const tool = server.tools.find((t) => t.python.toLowerCase() === wanted || t.name.toLowerCase() === wanted);
  return tool ? { server, tool } : null;
}

function notFound(what: string, catalog: Catalog, options: MetaToolOptions): string {
  const all = files(catalog, options.binding);
  const shown = all.slice(0, 40);
  return [`${what} not found. Files that exist:`, ...shown.map((f) => `  ${f}`), ...(all.length > shown.length ? [`  ... and ${all.length - shown.length} more`] : [])].join("\n");
}

export function readToolFile(
  catalog: Catalog,
  args: { fileName: string; startLine?: number; endLine?: number },
  options: MetaToolOptions = DEFAULT_META_TOOL_OPTIONS,
): string {
  if (typeof args.fileName !== "string" || args.fileName.trim() === "") return notFound("A file name is required;", catalog, options);
  const resolved = resolvePath(catalog, args.fileName);
  if (!resolved) return notFound(`'${args.fileName}'`, catalog, options);
  const stubOptions = { instructionsLimit: options.instructionsLimit };
  const text = resolved.tool ? toolStub(resolved.server, resolved.tool, stubOptions) : serverStub(resolved.server, stubOptions);
  if (args.startLine === undefined && args.endLine === undefined) return text;
  const lines = text.split("\n");
  const start = Math.min(Math.max(1, Math.floor(args.startLine ?? 1)), lines.length);
  const end = Math.min(Math.max(start, Math.floor(args.endLine ?? lines.length)), lines.length);
  return lines.slice(start - 1, end).join("\n");
}

export function getToolDocs(
  catalog: Catalog,
  args: { server: string; tool: string },
  options: MetaToolOptions = DEFAULT_META_TOOL_OPTIONS,
): string {
  const server = catalog.servers.find((s) => s.name.toLowerCase() === String(args.server ?? "").toLowerCase());
  if (!server) {
    return `Server '${args.server}' not found. Servers: ${catalog.servers.map((s) => s.name).join(", ") || "(none)"}.`;
  }
  const wanted = String(args.tool ?? "").toLowerCase();
  const tool = server.tools.find((t) => t.python.toLowerCase() === wanted || t.name.toLowerCase() === wanted);
  if (!tool) {
    return `Tool '${args.tool}' not found on '${server.name}'. Its tools: ${server.tools.map((t) => t.python).sort().join(", ")}.`;
  }
  return toolDocs(server, tool, { instructionsLimit: options.instructionsLimit });
}

// ------------------------------------------------------------------ search

const searchIndexes = new WeakMap<Catalog, ToolSearch>();
/** Indexes by catalog key, most recently used last: a gateway builds a catalog per request. */
const keyedIndexes = new Map<string, ToolSearch>();
const KEYED_INDEXES = 16;

/** The search index of a catalog: built once per set of tool objects (25-50 ms for real-16's 487). */
function searchIndex(catalog: Catalog): ToolSearch {
  const key = catalog.key;
  let index = key === undefined ? searchIndexes.get(catalog) : keyedIndexes.get(key);
  if (index === undefined) {
    index = new ToolSearch(catalog);
    if (key === undefined) searchIndexes.set(catalog, index);
  }
  if (key !== undefined) {
    keyedIndexes.delete(key);
    keyedIndexes.set(key, index);
    if (keyedIndexes.size > KEYED_INDEXES) keyedIndexes.delete(keyedIndexes.keys().next().value!);
  }
  return index;
}

export function searchTools(
  catalog: Catalog,
  args: { query: string; server?: string; limit?: number; detail?: "brief" | "full" },
): string {
  const index = searchIndex(catalog);
  // A cached index holds an earlier catalog's tools; the hits are this one's (its observed shapes).
  const tools = catalog.servers.flatMap((s) => s.tools);
  const limit = Math.min(50, Math.max(1, Math.floor(args.limit ?? 10)));
  const hits = index.search(String(args.query ?? ""), { server: args.server, limit });
  if (hits.length === 0) {
    return `No tools match '${args.query}'${args.server ? ` on '${args.server}'` : ""}. Try other words, or listToolFiles.`;
  }
  return hits.map(({ position }) => searchHit(tools[position]!, args.detail === "full" ? "full" : "brief")).join("\n");
}

/**
 * One hit of searchTools, its description said once. Brief: `server.tool`, then the one-line
 * signature, whose comment is the hints and the first sentence. Full: the signature without the
 * comment, then the hints and the whole description, the observed shape (when there is no
 * outputSchema), and the JSON schemas.
 */
export function searchHit(tool: CatalogTool, detail: "brief" | "full"): string {
  const lines = [`${tool.server}.${tool.python}`];
  if (detail === "brief") {
    // A declared return type comes with its declaration (a name alone says nothing of the keys),
    // one level deep: nested objects read as dict, getToolDocs has the rest.
    const types = returnTypes([tool], SEARCH_RETURN_TYPES);
    lines.push(...types.declarations().map((d) => `  ${d}`), `  ${signatureLine(tool, types)}`);
    return lines.join("\n");
  }
  lines.push(`  ${defHead(tool, false)}: ...`);
  const hints = hintWords(tool);
  const description = (tool.description?.trim() ? tool.description : (tool.title ?? "")).replace(/\s+/g, " ").trim();
  const about = [hints.length > 0 ? `(${hints.join(", ")})` : "", description].filter((p) => p !== "").join(" ");
  if (about) lines.push(`  ${about}`);
  if (tool.observed && !tool.outputSchema) lines.push(`  observed result shape: ${shapeText(tool.observed)}`);
  lines.push(`  input schema: ${JSON.stringify(tool.inputSchema)}`);
  if (tool.outputSchema) lines.push(`  output schema: ${JSON.stringify(tool.outputSchema)}`);
  return lines.join("\n");
}

// ------------------------------------------------------------------ executeToolCode

export interface ExecuteToolCodeContext {
  catalog: Catalog;
  connections: readonly UpstreamConnection[];
  /** Asked at every tool call (server, upstream tool); a string refuses the call. */
  authorize(server: string, tool: string): string | null;
  /**
   * Which tools of a visible server are bound (default: those in the catalog). A gateway binds
   * every tool its config allows, so that calling one a virtual key does not grant raises
   * PermissionError naming it (from `authorize`) rather than AttributeError.
   */
  bindable?(server: string, tool: string): boolean;
  limits: Limits;
  codecs: MediaCodecs;
  skipValidation?: ReadonlySet<string>;
  /** Runs before every nested call is authorized (plugins): may rewrite or refuse it. */
  beforeCall?: BeforeCall;
  /** Told of each successful result of a tool without an outputSchema (BridgeOptions.observe). */
  observe?: BridgeOptions["observe"];
  /** The trace context the upstream calls carry on (BridgeOptions.trace). */
  trace?: BridgeOptions["trace"];
  signal?: AbortSignal;
  /** The `workspace` module's folder, when one is configured. */
  workspace?: WorkspaceOptions;
  /** `sys.argv` and the traceback's file name (executeToolScript sets them). */
  argv?: readonly string[];
  filename?: string;
}

/** Runs a script with the catalog's servers bound, and the text for the model. */
export async function executeToolCode(code: string, context: ExecuteToolCodeContext): Promise<{ text: string; result: SandboxResult }> {
  const visibleTools = new Map(context.catalog.servers.map((s) => [s.name, new Set(s.tools.map((t) => t.name))]));
  const hosts = buildHosts({
    connections: context.connections.filter((c) => visibleTools.has(c.name) && c.state === "connected"),
    visible: context.bindable ?? ((server, tool) => visibleTools.get(server)?.has(tool) ?? false),
    authorize: context.authorize,
    limits: context.limits,
    codecs: context.codecs,
    skipValidation: context.skipValidation,
    beforeCall: context.beforeCall,
    observe: context.observe,
    trace: context.trace,
  });
  const result = await execute(typeof code === "string" ? code : "", {
    hosts,
    limits: context.limits,
    signal: context.signal,
    workspace: context.workspace,
    argv: context.argv,
    filename: context.filename,
    // A Tensor in RESULT goes back out as its wire payload (SPEC §3).
    finalizeResult: encodeTensors,
  });
  let text: string;
  try {
    text = formatExecution(result, context.catalog.servers.map((s) => s.name));
  } catch (e) {
    // The execution ran (its tool calls too): its caller is answered, and it is logged, anyway.
    text = formatExecution(internalErrorResult(e, { tool_calls: result.tool_calls }), []);
  }
  return { text, result };
}

/** The text the model reads after executeToolCode (SPEC §4): no raw tool payloads. */
export function formatExecution(result: SandboxResult, servers: readonly string[]): string {
  const out: string[] = [];
  if (result.stdout) out.push(result.stdout.replace(/\n$/, ""));
  if (result.error) {
    const kind = result.error.type === "SyntaxError" || result.error.type === "IndentationError" || result.error.type === "TabError" ? "syntax" : "runtime";
    out.push(`Execution ${kind} error:`);
    out.push(`${result.error.type}: ${result.error.message}`);
    if (result.error.line !== null) out.push(`  at line ${result.error.line}${result.error.column !== null ? `, column ${result.error.column}` : ""}`);
  } else {
    out.push("Execution completed successfully.");
    if (result.result !== null) out.push("Return value:", stringifyPlain(result.result, 2));
  }
  const hints = [...(result.error?.hints ?? []), ...(result.hints ?? [])];
  if (hints.length) out.push("Hints:", ...hints.map((h) => `  - ${h}`));
  if (result.tool_calls.length) {
    out.push(`Tool calls (${result.tool_calls.length}):`);
    for (const c of result.tool_calls) {
      out.push(`  ${c.server}.${c.tool} ${c.ok ? "ok" : `failed: ${c.error}`} (${c.duration_seconds.toFixed(2)} s)`);
    }
  }
  out.push(`Available servers: ${servers.length ? servers.join(", ") : "(none)"}`);
  return out.join("\n");
}
