#!/usr/bin/env node
// code-mode-exec: runs one script in the sandbox and prints its SandboxResult as one JSON object
// (SPEC §8). Exit code 0 when the script completed, 1 when it raised or hit a limit, 2 for usage
// or configuration errors.
import { readFileSync } from "node:fs";
import { stringifyPlain } from "../interpreter/boundary.js";
import { LIMIT_FIELDS, type Limits, resolveLimits } from "../interpreter/budget.js";
import { execute } from "../interpreter/execute.js";
import { buildHosts } from "../codemode/bridge.js";
import { defaultCodecs } from "../codemode/media.js";
import { type ClientConfig, clientConfigsOf, ConfigError, listAllows } from "../upstream/config.js";
import { DEFAULT_CONNECTION_OPTIONS } from "../upstream/connection.js";
import { UpstreamManager } from "../upstream/manager.js";

const USAGE = `usage: code-mode-exec SCRIPT.py [options] [-- ARGS...]
       code-mode-exec -c CODE [options]
       code-mode-exec - [options]            (the script on standard input)

options:
  --config FILE                 a gateway config.json: its code-mode servers become globals, its
                                limits apply (a file {"limits": {...}} works too)
  --timeout SECONDS             tool_execution_timeout: each tool call and the whole run
${LIMIT_FIELDS.filter((f) => f !== "tool_execution_timeout")
  .map((f) => `  --${f.replace(/_/g, "-")} N`)
  .join("\n")}`;

class UsageError extends Error {}

interface Invocation {
  source: string;
  filename: string;
  limits: Partial<Limits>;
  /** Upstream servers from --config, bound as globals. */
  clients: ClientConfig[];
}

function readConfig(path: string): Record<string, any> {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as Record<string, any>;
  } catch (e) {
    throw new UsageError(`cannot read config ${path}: ${(e as Error).message}`);
  }
}

function limitsFromConfig(config: Record<string, any>): Partial<Limits> {
  const limits = {
    ...(config.client_config?.mcp_code_mode_limits ?? {}),
    ...(config.mcp?.tool_manager_config?.code_mode_limits ?? {}),
    ...(config.limits ?? {}),
  } as Partial<Limits>;
  const timeout = config.mcp?.tool_manager_config?.tool_execution_timeout ?? config.client_config?.mcp_tool_execution_timeout;
  if (timeout !== undefined && limits.tool_execution_timeout === undefined) limits.tool_execution_timeout = timeout;
  return limits;
}

function parseArgs(argv: string[]): Invocation {
  let source: string | null = null;
  let filename = "<script>";
  let limits: Partial<Limits> = {};
  let clients: ClientConfig[] = [];
  const flags: Partial<Limits> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${arg} needs a value`);
      return v;
    };
    if (arg === "--") break;
    if (arg === "-h" || arg === "--help") throw new UsageError("");
    if (arg === "-c") {
      source = value();
      filename = "<string>";
    } else if (arg === "-") {
      source = readFileSync(0, "utf8");
      filename = "<stdin>";
    } else if (arg === "--config") {
      const config = readConfig(value());
      limits = limitsFromConfig(config);
      try {
        clients = clientConfigsOf(config).filter((c) => c.is_code_mode_client && !c.disabled);
      } catch (e) {
        if (e instanceof ConfigError) throw new UsageError(`invalid config: ${e.message}`);
        throw e;
      }
    } else if (arg === "--timeout") {
      flags.tool_execution_timeout = Number(value());
    } else if (arg.startsWith("--")) {
      const field = arg.slice(2).replace(/-/g, "_") as keyof Limits;
      if (!LIMIT_FIELDS.includes(field)) throw new UsageError(`unknown option ${arg}`);
      const n = Number(value());
      if (!Number.isFinite(n)) throw new UsageError(`${arg} needs a number`);
      flags[field] = n;
    } else if (source === null) {
      try {
        source = readFileSync(arg, "utf8");
      } catch (e) {
        throw new UsageError(`cannot read ${arg}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
      filename = arg;
    } else {
      throw new UsageError(`unexpected argument ${arg}`);
    }
  }
  if (source === null) throw new UsageError("no script given");
  const merged = { ...limits, ...flags };
  try {
    resolveLimits(merged);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return { source, filename, limits: merged, clients };
}

async function main(): Promise<number> {
  let invocation: Invocation;
  try {
    invocation = parseArgs(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    if (e.message) process.stderr.write(`code-mode-exec: ${e.message}\n`);
    process.stderr.write(USAGE + "\n");
    return 2;
  }
  const limits = resolveLimits(invocation.limits);
  const manager = new UpstreamManager();
  try {
    for (const c of invocation.clients) manager.add(c);
    await manager.settled(DEFAULT_CONNECTION_OPTIONS.connectTimeoutMs);
    const allowed = new Map(invocation.clients.map((c) => [c.name, c.tools_to_execute]));
    const permitted = (server: string, tool: string) => listAllows(allowed.get(server) ?? [], tool);
    const hosts = buildHosts({
      connections: manager.list().filter((c) => c.state === "connected"),
      visible: permitted,
      authorize: (server, tool) => (permitted(server, tool) ? null : `tool '${server}.${tool}' is not allowed (tools_to_execute)`),
      limits,
      codecs: defaultCodecs(),
      skipValidation: new Set(invocation.clients.filter((c) => !c.validate_arguments).map((c) => c.name)),
    });
    const result = await execute(invocation.source, { limits: invocation.limits, filename: invocation.filename, hosts });
    for (const c of manager.list()) {
      if (c.state !== "connected") process.stderr.write(`code-mode-exec: server '${c.name}' is unavailable: ${c.lastError ?? c.state}\n`);
    }
    process.stdout.write(stringifyPlain(result) + "\n");
    return result.returncode;
  } finally {
    await manager.closeAll();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`code-mode-exec: internal error: ${(e as Error).stack ?? String(e)}\n`);
    process.exitCode = 2;
  },
);
