// The gateway's core: upstream servers and the rules of changing them, the virtual keys, the
// settings in force (hot-reloadable), and the tools a caller sees: the meta-tools for code-mode
// servers and `<client>-<tool>` for the others. Every face (MCP, the HTTP API, the agent loop)
// calls into this; it knows nothing of HTTP.
import { EventEmitter, setMaxListeners } from "node:events";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { BeforeCall, OutgoingCall } from "../codemode/bridge.js";
import { type Catalog, catalogOf } from "../codemode/catalog.js";
import { defaultCodecs } from "../codemode/media.js";
import type { MediaCodecs } from "../codemode/media-codecs.js";
import type { ExecutionEvent } from "./exec-log.js";
import { shapeOf } from "../codemode/shape.js";
import {
  type BindingLevel,
  DEFAULT_META_TOOL_OPTIONS,
  EXECUTE_TOOL_SCRIPT,
  type ExecuteToolCodeContext,
  executeToolCode,
  getToolDocs,
  listToolFiles,
  META_TOOL_NAMES,
  type MetaToolName,
  type MetaToolOptions,
  metaToolDefinitions,
  readToolFile,
  searchTools,
} from "../codemode/meta-tools.js";
import { executeToolScript } from "../codemode/script-tool.js";
import { DEFAULT_LIMITS, internalErrorResult, type Limits, resolveLimits, type SandboxResult, type WorkspaceOptions } from "../interpreter/index.js";
import { autoExecuteAllows } from "../upstream/auto-execute.js";
import { type ClientConfig, listAllows } from "../upstream/config.js";
import { UpstreamManager } from "../upstream/manager.js";
import { type Caller, UNRESTRICTED } from "./caller.js";
import { ChangeQueue, checkUnique, findClient, parseClientInput, regrant, updatedClient } from "./client-changes.js";
import { ShapeBook } from "./shapes.js";
import { KeyRing } from "./virtual-keys.js";

export interface GatewaySettings {
  limits: Limits;
  bindingLevel: BindingLevel;
  /** Bytes of a code-mode server's instructions shown in its stub. */
  instructionsLimit: number;
  /** Bytes of all direct servers' instructions in the gateway's own initialize. */
  directInstructionsLimit: number;
  maxAgentDepth: number;
  metaTools: ReadonlySet<MetaToolName>;
  /** `workspace_root` (config.json only): scripts get the `workspace` module; executeToolScript is offered. */
  workspace?: WorkspaceOptions;
  /** `code_mode_observed_shapes`: learn the shapes of results of tools without outputSchema, and show them. */
  observedShapes: boolean;
}

export const DEFAULT_SETTINGS: GatewaySettings = {
  limits: { ...DEFAULT_LIMITS },
  bindingLevel: "server",
  instructionsLimit: 4096,
  directInstructionsLimit: 8192,
  maxAgentDepth: 10,
  metaTools: new Set(META_TOOL_NAMES),
  observedShapes: true,
};

export interface GatewayTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** A tool call's answer, for every face to render: the text the model reads and, for a script, its whole result. */
export interface ToolOutcome {
  text: string;
  isError: boolean;
  /** The script's structured result (executeToolCode, executeToolScript); absent for other tools. */
  execution?: SandboxResult;
}

export interface ClientChangeOptions {
  /**
   * Refuses the change by throwing, given the client as it will be (an addition) or as it is (an
   * update); run in turn with the other changes, after the client is found and before the rest.
   */
  admit?: (config: ClientConfig) => void;
}

/** A tool name the caller asked for that does not exist or is not visible to it. */
export class UnknownToolError extends Error {}

/** A tool the gateway serves but the caller's virtual key does not grant (403, naming the tool). */
export class ToolNotGrantedError extends Error {}

/** A direct call refused by a pre-tool-call hook (a plugin), with its reason. */
export class ToolDeniedError extends Error {}

/** An unattended direct call to a tool outside its client's tools_to_auto_execute: it needs a person's approval. */
export class NeedsApprovalError extends Error {}

export interface CallOptions {
  /**
   * Run by an agent loop with nobody watching: every tool reached, directly or from a script,
   * must be in its client's tools_to_auto_execute (SPEC §7). Otherwise tools_to_execute applies.
   */
  unattended?: boolean;
}

/** What a pre-tool-call hook is told about a call: the call, who makes it, and how. */
export interface ToolCallContext extends OutgoingCall {
  /** The virtual key's name ("-" without one). */
  caller: string;
  via: "direct" | "script";
  unattended: boolean;
}

/** Runs before every tool call is authorized (plugins, SPEC §7): the call to make, or why it is refused. */
export type PreToolCallHook = (call: ToolCallContext) => Promise<OutgoingCall | { deny: string }>;

/** The longest a call waits for servers still making their first connection. */
const FIRST_CONNECTION_WAIT_MS = 5_000;

export class Gateway extends EventEmitter {
  readonly manager = new UpstreamManager();
  private readonly configs = new Map<string, ClientConfig>();
  /** Client changes made on request, one at a time. */
  private readonly changes = new ChangeQueue();
  private current: GatewaySettings;
  readonly codecs: MediaCodecs = defaultCodecs();
  /** The shapes learned from results (shapes.ts); whoever persists them listens to its "change" events. */
  readonly shapes = new ShapeBook();
  /** Plugins' pre-tool-call hook, applied to direct calls and to every call a script makes. */
  preToolCall: PreToolCallHook | null = null;
  /**
   * Resolves once every change announced so far is stored, rejecting with the error of one that
   * could not be; a route that changes state awaits it before answering. Whoever persists the
   * changes sets it (open-gateway.ts); without a store there is nothing to wait for.
   */
  settled: () => Promise<void> = () => Promise.resolve();
  /** Aborted by close(): every call still running is cancelled, so shutdown never waits on a script. */
  private readonly stopping = new AbortController();

  /**
   * @param keys The virtual keys in force (whoever persists them listens to the ring's events).
   */
  constructor(
    settings: GatewaySettings = DEFAULT_SETTINGS,
    readonly keys: KeyRing = new KeyRing(),
  ) {
    super();
    this.current = settings;
    // Every call in flight listens to it (and stops listening when it ends): no fixed number is a leak.
    setMaxListeners(0, this.stopping.signal);
    // The set of tools a client sees changes with every catalog change and every change to a key's grants.
    this.manager.on("catalog", () => this.emit("tools-changed"));
    this.manager.on("state", () => this.emit("tools-changed"));
    this.keys.on("change", () => this.emit("tools-changed"));
  }

  get settings(): GatewaySettings {
    return this.current;
  }

  /** Applies new settings to every execution that starts from now on. */
  set settings(next: GatewaySettings) {
    this.current = { ...next, limits: resolveLimits(next.limits) };
    this.emit("settings", this.current);
  }

  // ---------------------------------------------------------------- clients

  // Each change is announced synchronously ("client-saved", "client-deleted") before anything is
  // awaited, so a store listening to the events has committed it before the caller answers.
  // Changes made on request go through createClient, updateClient, renameClient, deleteClient and
  // reconnectClient (client-changes.ts has their rules); addClient only loads.

  /** Loads a client already checked (the config file's, the store's) and starts connecting it. */
  addClient(config: ClientConfig): void {
    this.configs.set(config.name, config);
    this.emit("client-saved", config);
    this.manager.add(config);
  }

  clientConfigs(): ClientConfig[] {
    return [...this.configs.values()];
  }

  /** The client `id` names (its client_id, else its name); ClientNotFoundError otherwise. */
  findClient(id: string): ClientConfig {
    return findClient(this.clientConfigs(), id);
  }

  /**
   * Adds a client from its fields (checked as the config file's are: ClientInputError), unless
   * its name or id is taken (ClientConflictError). Connecting starts and is not waited for.
   */
  createClient(fields: unknown, options: ClientChangeOptions = {}): Promise<ClientConfig> {
    return this.changes.run(() => {
      const config = parseClientInput(fields);
      options.admit?.(config);
      checkUnique(this.clientConfigs(), config);
      this.addClient(config);
      return config;
    });
  }

  /**
   * Merges `fields` into the client `id` names (a field left out keeps its value; the connection
   * and the id stay) and reconnects it; a new name takes the keys' grants along.
   */
  updateClient(id: string, fields: Readonly<Record<string, unknown>>, options: ClientChangeOptions = {}): Promise<ClientConfig> {
    return this.changes.run(async () => {
      const current = this.findClient(id);
      options.admit?.(current);
      const next = updatedClient(current, fields);
      checkUnique(this.clientConfigs(), next, current);
      const replaced = this.replaceClient(next, current.name);
      if (next.name !== current.name) regrant(this.keys, current.name, next.name);
      await replaced;
      return next;
    });
  }

  renameClient(id: string, name: string, options: ClientChangeOptions = {}): Promise<ClientConfig> {
    return this.updateClient(id, { name }, options);
  }

  /** Removes a client, with the keys' grants on it; resolves once its connection is closed and a stdio child gone. */
  deleteClient(id: string): Promise<ClientConfig> {
    return this.changes.run(async () => {
      const config = this.findClient(id);
      const removed = this.removeClient(config.name);
      regrant(this.keys, config.name, null);
      await removed;
      return config;
    });
  }

  /** Closes a client's connection and opens it again. */
  reconnectClient(id: string): Promise<ClientConfig> {
    return this.changes.run(async () => {
      const config = this.findClient(id);
      await this.replaceClient(config);
      return config;
    });
  }

  /**
   * Makes the clients those of `configs`, as another instance left them in a shared store:
   * removes the missing ones, reconnects the changed ones and adds the new ones, in the queue of
   * changes. Announces nothing: "client-saved" and "client-deleted" are for changes made here.
   */
  syncClients(configs: readonly ClientConfig[]): Promise<void> {
    return this.changes.run(async () => {
      const next = new Map(configs.map((c) => [c.name, c]));
      const closing: Promise<unknown>[] = [];
      for (const name of [...this.configs.keys()]) {
        if (next.has(name)) continue;
        this.configs.delete(name);
        closing.push(this.manager.remove(name));
      }
      for (const config of configs) {
        const current = this.configs.get(config.name);
        if (current && JSON.stringify(current) === JSON.stringify(config)) continue;
        this.configs.set(config.name, config);
        if (current) closing.push(this.manager.replace(config));
        else this.manager.add(config);
      }
      await Promise.all(closing);
    });
  }

  private async removeClient(name: string): Promise<void> {
    if (this.configs.delete(name)) this.emit("client-deleted", name);
    this.shapes.dropServer(name);
    await this.manager.remove(name);
  }

  private async replaceClient(config: ClientConfig, previousName = config.name): Promise<void> {
    this.configs.delete(previousName);
    this.configs.set(config.name, config);
    if (previousName !== config.name) this.emit("client-deleted", previousName);
    this.emit("client-saved", config);
    // A rename keeps what was learned of the client's tools; an edit in place keeps it too.
    if (previousName !== config.name) this.shapes.moveServer(previousName, config.name);
    await this.manager.replace(config, previousName);
  }

  // ---------------------------------------------------------------- visibility

  /** May `caller` use `tool` of `client` (its config's list, then the caller's grant)? */
  permitted(caller: Caller, client: string, tool: string): boolean {
    const config = this.configs.get(client);
    if (!config || !listAllows(config.tools_to_execute, tool)) return false;
    if (!caller.grants) return true;
    const grant = caller.grants.get(client);
    return grant !== undefined && listAllows(grant, tool);
  }

  /** Is `tool` of `client` in the client's tools_to_auto_execute (may an agent loop run it unattended)? */
  autoExecutable(client: string, tool: string): boolean {
    const config = this.configs.get(client);
    if (config === undefined) return false;
    const annotations = this.manager.get(client)?.tools.find((t) => t.name === tool)?.annotations;
    return autoExecuteAllows(config.tools_to_auto_execute, tool, annotations as Record<string, unknown> | undefined);
  }

  /** The code-mode servers and tools the caller may see, with the shapes learned for them (when on). */
  catalogFor(caller: Caller): Catalog {
    const codeMode = this.manager.list().filter((c) => c.config.is_code_mode_client && c.state === "connected");
    const observed = this.current.observedShapes ? (server: string, tool: string) => this.shapes.get(server, tool) : undefined;
    const catalog = catalogOf(codeMode, (server, tool) => this.permitted(caller, server, tool), observed);
    return { servers: catalog.servers.filter((s) => s.tools.length > 0) };
  }

  private metaOptions(): MetaToolOptions {
    return {
      ...DEFAULT_META_TOOL_OPTIONS,
      binding: this.current.bindingLevel,
      instructionsLimit: this.current.instructionsLimit,
      enabled: this.current.metaTools,
      scripts: this.current.workspace !== undefined,
    };
  }

  /** What a caller sees: meta-tools (when a code-mode tool is visible) and direct tools. */
  listTools(caller: Caller): GatewayTool[] {
    const tools: GatewayTool[] = [];
    if (this.catalogFor(caller).servers.length > 0) {
      for (const d of metaToolDefinitions(this.metaOptions())) tools.push({ name: d.name, description: d.description, inputSchema: d.inputSchema });
    }
    for (const c of this.manager.list()) {
      if (c.config.is_code_mode_client || c.state !== "connected") continue;
      for (const t of c.tools) {
        if (!this.permitted(caller, c.name, t.name)) continue;
        tools.push({ name: `${c.name}-${t.name}`, description: t.description ?? "", inputSchema: t.inputSchema as Record<string, unknown> });
      }
    }
    return tools;
  }

  /** The instructions of the direct (non-code-mode) servers, for the gateway's own initialize. */
  directInstructions(): string {
    const blocks: string[] = [];
    let used = 0;
    for (const c of this.manager.list()) {
      if (c.config.is_code_mode_client || !c.instructions) continue;
      const text = c.instructions.replace(/<\/?mcp_server[^>]*>/gi, "").trim();
      const block = `<mcp_server name="${c.name}">\n${text}\n</mcp_server>`;
      if (used + block.length > this.current.directInstructionsLimit) break;
      blocks.push(block);
      used += block.length;
    }
    return blocks.join("\n");
  }

  // ---------------------------------------------------------------- calls

  /** Calls a meta-tool or a direct tool for `caller`. Throws UnknownToolError for what it cannot see. */
  async callTool(name: string, args: Record<string, unknown>, caller: Caller, requestSignal?: AbortSignal, options: CallOptions = {}): Promise<ToolOutcome> {
    if (this.stopping.signal.aborted) throw new Error("the gateway is shutting down");
    const link = linkSignals(requestSignal ? [requestSignal, this.stopping.signal] : [this.stopping.signal]);
    try {
      return await this.dispatch(name, args, caller, link.signal, options);
    } finally {
      link.dispose();
    }
  }

  /** Emits "execution", then waits for what its listeners asked (the log's write) before the answer goes. */
  private async reportExecution(event: ExecutionEvent): Promise<void> {
    const work: Promise<unknown>[] = [];
    this.emit("execution", { ...event, waitUntil: (p: Promise<unknown>) => work.push(p) });
    await Promise.all(work);
  }

  private async dispatch(name: string, args: Record<string, unknown>, caller: Caller, signal: AbortSignal, options: CallOptions): Promise<ToolOutcome> {
    await this.firstConnections(signal);
    const workspace = this.current.workspace;
    if (name === EXECUTE_TOOL_SCRIPT && workspace) {
      const context = { ...this.executionContext(caller, signal, options.unattended === true), workspace };
      const { text, result, code } = await this.running(() => executeToolScript(args, context));
      if (result && code !== null) await this.reportExecution({ caller: caller.label, code, result, tool: EXECUTE_TOOL_SCRIPT, trace: caller.trace });
      return result ? { text, isError: result.error !== null, execution: result } : { text, isError: true };
    }
    if ((META_TOOL_NAMES as readonly string[]).includes(name) && this.current.metaTools.has(name as MetaToolName)) {
      return this.callMetaTool(name as MetaToolName, args, caller, signal, options.unattended === true);
    }
    const dash = name.indexOf("-");
    const client = dash > 0 ? name.slice(0, dash) : "";
    const tool = dash > 0 ? name.slice(dash + 1) : "";
    const connection = this.manager.get(client);
    if (!connection || connection.config.is_code_mode_client || !connection.tools.some((t) => t.name === tool)) {
      throw new UnknownToolError(`unknown tool '${name}'`);
    }
    if (!this.permitted(UNRESTRICTED, client, tool)) throw new UnknownToolError(`unknown tool '${name}'`);
    let call: OutgoingCall = { server: client, tool, arguments: args };
    if (this.preToolCall) {
      const decision = await this.preToolCall({ ...call, caller: caller.label, via: "direct", unattended: options.unattended === true });
      if ("deny" in decision) throw new ToolDeniedError(`tool '${name}' was refused by a plugin: ${decision.deny}`);
      if (decision.tool !== tool && !(connection.tools.some((t) => t.name === decision.tool) && this.permitted(UNRESTRICTED, client, decision.tool))) {
        throw new ToolDeniedError(`a plugin rewrote '${name}' to '${client}-${decision.tool}', which is not a tool of '${client}'`);
      }
      call = decision;
    }
    // The name the hook chose is the one authorized.
    const target = `${client}-${call.tool}`;
    if (!this.permitted(caller, client, call.tool)) throw new ToolNotGrantedError(`tool '${target}' is not granted to this virtual key`);
    if (options.unattended && !this.autoExecutable(client, call.tool)) {
      throw new NeedsApprovalError(`tool '${target}' is not in tools_to_auto_execute: it needs approval`);
    }
    const result = await connection.callTool(call.tool, call.arguments, this.current.limits.tool_execution_timeout * 1000, signal, caller.trace);
    return { text: toolText(result), isError: result.isError === true };
  }

  /**
   * Waits, at most FIRST_CONNECTION_WAIT_MS, for the servers still making their first connection
   * (just after startup, or just after one was added): a call made then would otherwise see them
   * missing (a script's NameError, an unknown tool) a moment before they appear. A server whose
   * first attempt failed is "reconnecting", not waited for: a down server never blocks the rest.
   */
  private async firstConnections(signal: AbortSignal): Promise<void> {
    if (this.manager.list().some((c) => c.state === "connecting")) await this.manager.settled(FIRST_CONNECTION_WAIT_MS, signal);
  }

  /** The hook for a script's nested calls, when there is one. */
  private scriptHook(caller: Caller, unattended: boolean): BeforeCall | undefined {
    const hook = this.preToolCall;
    if (!hook) return undefined;
    return (call) => hook({ ...call, caller: caller.label, via: "script", unattended });
  }

  private async callMetaTool(name: MetaToolName, args: Record<string, unknown>, caller: Caller, signal: AbortSignal, unattended: boolean): Promise<ToolOutcome> {
    const catalog = this.catalogFor(caller);
    const options = this.metaOptions();
    switch (name) {
      case "listToolFiles":
        return { text: listToolFiles(catalog, options), isError: false };
      case "readToolFile":
        return { text: readToolFile(catalog, args as { fileName: string; startLine?: number; endLine?: number }, options), isError: false };
      case "getToolDocs":
        return { text: getToolDocs(catalog, args as { server: string; tool: string }, options), isError: false };
      case "searchTools":
        return { text: searchTools(catalog, args as { query: string; server?: string; limit?: number; detail?: "brief" | "full" }), isError: false };
      case "executeToolCode": {
        const code = String(args.code ?? "");
        // Logged whatever happens: an execution that failed in an unexpected way is logged as one.
        let result: SandboxResult | undefined;
        try {
          const outcome = await this.running(() => executeToolCode(code, this.executionContext(caller, signal, unattended, catalog)));
          result = outcome.result;
          return { text: outcome.text, isError: result.error !== null, execution: result };
        } catch (e) {
          result = internalErrorResult(e);
          throw e;
        } finally {
          await this.reportExecution({ caller: caller.label, code, result: result!, tool: "executeToolCode", trace: caller.trace });
        }
      }
    }
  }

  /** Runs one execution between "execution-start" and "execution-end" (what counts the running ones listens). */
  private async running<T>(run: () => Promise<T>): Promise<T> {
    this.emit("execution-start");
    try {
      return await run();
    } finally {
      this.emit("execution-end");
    }
  }

  /** What a script run for `caller` is given: the servers it may see, the limits, the workspace. */
  private executionContext(caller: Caller, signal: AbortSignal | undefined, unattended: boolean, catalog = this.catalogFor(caller)): ExecuteToolCodeContext {
    return {
      catalog,
      connections: this.manager.list(),
      authorize: (server, tool) => {
        if (!this.permitted(caller, server, tool)) return `tool '${server}.${tool}' is not granted to this virtual key`;
        if (unattended && !this.autoExecutable(server, tool)) {
          return `tool '${server}.${tool}' is not in tools_to_auto_execute, so it cannot run unattended; it needs approval (run the script through /v1/mcp/tool/execute)`;
        }
        return null;
      },
      beforeCall: this.scriptHook(caller, unattended),
      // shapeOf is bounded (shape.ts: at most MAX_VISITS values), so this stays well under a millisecond.
      observe: this.current.observedShapes ? (server, tool, value) => void this.shapes.record(server, tool, shapeOf(value)) : undefined,
      bindable: (server, tool) => this.permitted(UNRESTRICTED, server, tool),
      limits: this.current.limits,
      codecs: this.codecs,
      skipValidation: new Set(this.clientConfigs().filter((c) => !c.validate_arguments).map((c) => c.name)),
      signal,
      workspace: this.current.workspace,
      trace: caller.trace,
    };
  }

  /** Cancels every call in flight (scripts end with an error naming the shutdown) and refuses new ones. */
  cancelAll(): void {
    if (!this.stopping.signal.aborted) this.stopping.abort(new Error("the gateway is shutting down"));
  }

  async close(): Promise<void> {
    this.cancelAll();
    await this.manager.closeAll();
  }
}

/** A direct tool's result as text for the caller (JSON for structured results). */
function toolText(result: CallToolResult): string {
  const texts = (result.content ?? []).filter((c) => c.type === "text").map((c) => (c as { text: string }).text);
  if (texts.length) return texts.join("\n");
  if (result.structuredContent) return JSON.stringify(result.structuredContent);
  return JSON.stringify(result.content ?? []);
}

/**
 * One call's signal, aborted when any of `sources` is. Unlike AbortSignal.any, the link is undone
 * when the call ends: listeners left on the gateway's long-lived signal would keep every finished
 * call (and the script it ran) alive until shutdown.
 */
function linkSignals(sources: readonly AbortSignal[]): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const aborted = sources.find((s) => s.aborted);
  if (aborted) {
    controller.abort(aborted.reason);
    return { signal: controller.signal, dispose() {} };
  }
  const onAbort = (event: Event) => controller.abort((event.target as AbortSignal).reason);
  for (const source of sources) source.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      for (const source of sources) source.removeEventListener("abort", onAbort);
    },
  };
}
