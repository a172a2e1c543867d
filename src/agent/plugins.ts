// Plugins (SPEC §7): modules named in config.json's `plugins` that export a pre-tool-call hook.
// The hook sees every tool call before it is authorized: direct calls (`<client>-<tool>`, from
// /v1/mcp/tool/execute, /mcp or the agent loop) and each call a script makes. It may let the call
// through, rewrite the tool (to another tool of the same server) or its arguments, or refuse it.
// The gateway then authorizes the name the hooks chose.
//
//   export function preToolCall(ctx) {
//     // ctx: {server, name, arguments, caller, via: "direct" | "script", unattended}
//     if (ctx.name === "delete_repo") return { deny: "deleting repositories is disabled" };
//     if (ctx.name === "search") return { arguments: { ...ctx.arguments, max_results: 5 } };
//     return undefined; // unchanged
//   }
//
// Hooks run in the order listed, each seeing the call as the one before left it; the first
// refusal ends the chain. A hook that throws or answers something else refuses the call (a
// broken policy fails closed).
import { pathToFileURL } from "node:url";
import { isAbsolute } from "node:path";
import type { OutgoingCall } from "../codemode/bridge.js";
import type { PreToolCallHook, ToolCallContext } from "../gateway/gateway.js";

/** What a plugin's preToolCall receives. */
export interface PreToolCallInput {
  server: string;
  /** The upstream tool name (without the `<client>-` prefix of a direct tool). */
  name: string;
  arguments: Record<string, unknown>;
  /** The virtual key's name ("-" without one). */
  caller: string;
  via: "direct" | "script";
  /** True inside an agent loop's unattended run (only tools_to_auto_execute may be called). */
  unattended: boolean;
}

/** What it may answer (or a promise of it): nothing (go ahead), a rewrite, or a refusal. */
export type PreToolCallResult = undefined | null | { name?: string; arguments?: Record<string, unknown> } | { deny: string };

export interface Plugin {
  /** Where it was loaded from, for messages. */
  source: string;
  preToolCall(input: PreToolCallInput): PreToolCallResult | Promise<PreToolCallResult>;
}

/** A plugin that cannot be loaded, naming which one and why. */
export class PluginError extends Error {
  override name = "PluginError";
}

/** Imports each module and checks that it exports a preToolCall function. */
export async function loadPlugins(specifiers: readonly string[]): Promise<Plugin[]> {
  const plugins: Plugin[] = [];
  for (const [i, specifier] of specifiers.entries()) {
    const at = `plugins[${i}] (${specifier})`;
    let module: Record<string, unknown>;
    try {
      module = (await import(isAbsolute(specifier) ? pathToFileURL(specifier).href : specifier)) as Record<string, unknown>;
    } catch (e) {
      throw new PluginError(`${at} cannot be loaded: ${(e as Error).message}`);
    }
    const hook = module.preToolCall ?? (module.default as Record<string, unknown> | undefined)?.preToolCall;
    if (typeof hook !== "function") throw new PluginError(`${at} does not export a preToolCall function`);
    plugins.push({ source: specifier, preToolCall: hook as Plugin["preToolCall"] });
  }
  return plugins;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Why an answer is not one of the shapes a hook may give, or null when it is. */
function invalidAnswer(answer: unknown): string | null {
  if (answer === undefined || answer === null) return null;
  if (!isRecord(answer)) return `answered ${typeof answer}, not an object`;
  if ("deny" in answer) return typeof answer.deny === "string" && answer.deny !== "" ? null : "answered a deny that is not a non-empty string";
  for (const key of Object.keys(answer)) if (key !== "name" && key !== "arguments") return `answered an unknown field '${key}'`;
  if (answer.name !== undefined && (typeof answer.name !== "string" || answer.name === "")) return "answered a name that is not a non-empty string";
  if (answer.arguments !== undefined && !isRecord(answer.arguments)) return "answered arguments that are not an object";
  return null;
}

/** The gateway's hook: the plugins chained, in order. Null when there are none. */
export function chainPlugins(plugins: readonly Plugin[]): PreToolCallHook | null {
  if (plugins.length === 0) return null;
  return async (context: ToolCallContext) => {
    let call: OutgoingCall = { server: context.server, tool: context.tool, arguments: context.arguments };
    for (const plugin of plugins) {
      let answer: unknown;
      try {
        answer = await plugin.preToolCall({
          server: call.server,
          name: call.tool,
          arguments: structuredClone(call.arguments),
          caller: context.caller,
          via: context.via,
          unattended: context.unattended,
        });
      } catch (e) {
        return { deny: `plugin ${plugin.source} failed: ${(e as Error)?.message ?? String(e)}` };
      }
      const invalid = invalidAnswer(answer);
      if (invalid) return { deny: `plugin ${plugin.source} ${invalid}` };
      if (answer === undefined || answer === null) continue;
      const decision = answer as { name?: string; arguments?: Record<string, unknown> } | { deny: string };
      if ("deny" in decision) return { deny: decision.deny };
      call = { server: call.server, tool: decision.name ?? call.tool, arguments: decision.arguments ?? call.arguments };
    }
    return call;
  };
}
