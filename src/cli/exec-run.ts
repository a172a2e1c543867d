// code-mode-exec's work: reads its arguments, runs one script in the sandbox and prints its
// SandboxResult as one JSON object (SPEC §8). The binary (exec.ts) and the start-up snapshot's
// entry (exec-snapshot.ts) both call startExec.
import { readFileSync, statSync } from "node:fs";
import {
  type CodegenMode,
  describeThrown,
  execute,
  LIMIT_FIELDS,
  type Limits,
  resolveLimits,
  setCodegen,
  stringifyPlain,
  type WorkspaceOptions,
} from "../interpreter/index.js";
// Only types: the upstream side is loaded by import() when --config is given (see exec-servers.ts).
import type { ClientConfig, ConnectedServers } from "./exec-servers.js";

const USAGE = `usage: code-mode-exec SCRIPT.py [options] [-- ARGS...]
       code-mode-exec -c CODE [options] [-- ARGS...]
       code-mode-exec - [options] [-- ARGS...]   (the script on standard input)

options:
  --config FILE                 a gateway config.json: its code-mode servers become globals, its
                                limits and workspace_root apply (a file {"limits": {...}} works too)
  --workspace DIR               the folder of the script's \`workspace\` module (import workspace)
  --workspace-max-write-bytes N bytes the script may write there in all (default 16 MiB)
  --workspace-max-created N     files and folders the script may create there (default 1000)
  --env KEY=VALUE               an entry of the script's \`env\` dict (repeatable)
  -- ARGS...                    the script's sys.argv[1:]
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
  argv: string[];
  env: Record<string, string>;
  workspace?: WorkspaceOptions;
}

function workspaceDir(dir: string, from: string): string {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new UsageError(`${from}: the folder ${dir} does not exist`);
  }
  if (!isDir) throw new UsageError(`${from}: ${dir} is not a folder`);
  return dir;
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

async function parseArgs(argv: string[]): Promise<Invocation> {
  let source: string | null = null;
  let filename = "<script>";
  let limits: Partial<Limits> = {};
  let clients: ClientConfig[] = [];
  let argv0 = "";
  let scriptArgs: string[] = [];
  const env: Record<string, string> = {};
  let workspaceRoot: string | undefined;
  let configRoot: string | undefined;
  let maxWriteBytes: number | undefined;
  let maxCreated: number | undefined;
  const flags: Partial<Limits> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${arg} needs a value`);
      return v;
    };
    if (arg === "--") {
      scriptArgs = argv.slice(i + 1);
      break;
    }
    if (arg === "-h" || arg === "--help") throw new UsageError("");
    if (arg === "-c") {
      source = value();
      filename = "<string>";
      argv0 = "-c";
    } else if (arg === "-") {
      source = readFileSync(0, "utf8");
      filename = "<stdin>";
      argv0 = "-";
    } else if (arg === "--config") {
      const config = readConfig(value());
      limits = limitsFromConfig(config);
      if (config.workspace_root !== undefined) {
        if (typeof config.workspace_root !== "string") throw new UsageError("invalid config: workspace_root must be a string");
        configRoot = config.workspace_root;
      }
      const found = (await import("./exec-servers.js")).codeModeClients(config);
      if ("invalid" in found) throw new UsageError(`invalid config: ${found.invalid}`);
      clients = found.clients;
    } else if (arg === "--workspace") {
      workspaceRoot = workspaceDir(value(), "--workspace");
    } else if (arg === "--workspace-max-write-bytes") {
      const n = Number(value());
      if (!Number.isSafeInteger(n) || n <= 0) throw new UsageError(`${arg} needs a positive integer`);
      maxWriteBytes = n;
    } else if (arg === "--workspace-max-created") {
      const n = Number(value());
      if (!Number.isSafeInteger(n) || n <= 0) throw new UsageError(`${arg} needs a positive integer`);
      maxCreated = n;
    } else if (arg === "--env") {
      const pair = value();
      const eq = pair.indexOf("=");
      if (eq <= 0) throw new UsageError(`--env needs KEY=VALUE, not ${JSON.stringify(pair)}`);
      env[pair.slice(0, eq)] = pair.slice(eq + 1);
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
      argv0 = arg;
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
  const root = workspaceRoot ?? (configRoot !== undefined ? workspaceDir(configRoot, "workspace_root") : undefined);
  return {
    source,
    filename,
    limits: merged,
    clients,
    argv: [argv0, ...scriptArgs],
    env,
    ...(root !== undefined
      ? { workspace: { root, ...(maxWriteBytes !== undefined ? { maxWriteBytes } : {}), ...(maxCreated !== undefined ? { maxCreated } : {}) } }
      : {}),
  };
}

/**
 * Runs code-mode-exec with `args` (the arguments after the program's name). Returns the exit code:
 * 0 when the script completed, 1 when it raised or hit a limit, 2 for usage or configuration errors.
 */
export async function runExec(args: string[]): Promise<number> {
  let invocation: Invocation;
  try {
    invocation = await parseArgs(args);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    if (e.message) process.stderr.write(`code-mode-exec: ${e.message}\n`);
    process.stderr.write(USAGE + "\n");
    return 2;
  }
  // Without servers nothing needs the upstream side, nor tensor encoding: only a tool's result
  // can hand a script a tensor.
  const servers: ConnectedServers | null =
    invocation.clients.length > 0
      ? await (await import("./exec-servers.js")).connectServers(invocation.clients, resolveLimits(invocation.limits))
      : null;
  try {
    const result = await execute(invocation.source, {
      limits: invocation.limits,
      filename: invocation.filename,
      hosts: servers?.hosts ?? {},
      argv: invocation.argv,
      env: invocation.env,
      workspace: invocation.workspace,
      ...(servers ? { finalizeResult: servers.finalizeResult } : {}),
    });
    for (const line of servers?.unavailable() ?? []) process.stderr.write(`code-mode-exec: ${line}\n`);
    process.stdout.write(stringifyPlain(result) + "\n");
    return result.returncode;
  } finally {
    await servers?.close();
  }
}

/**
 * The tier a code-mode-exec process runs its script on: the JavaScript tier for every unit from
 * the start (tiering.ts), unless PY_CODEGEN says otherwise. The gateway moves a loop of a new
 * shape at its 300,000th head because its closures are already optimized by earlier scripts while
 * a new unit starts cold in V8; a process that runs one script and exits has no earlier
 * scripts, so its closures are as cold as any unit, and one JavaScript function per body is less
 * for V8 to warm up than the many closures that run it otherwise. Over bench:interpreter's eighteen fresh-process workloads and
 * RESULT=1, this took a run's wall time to 0.86x of the gateway's tiering (geomean of medians, 9
 * alternating rounds; CPU time 0.79x), and the trivial script was no slower.
 * Both tiers give the same results, output, errors and step counts. PY_CODEGEN=never keeps the
 * closures, =auto the gateway's tiering; it is read here, at run time, as the start-up snapshot
 * would otherwise keep the value it had when the blob was built.
 */
export function processTier(env: NodeJS.ProcessEnv): CodegenMode {
  return env.PY_CODEGEN === "never" || env.PY_CODEGEN === "auto" ? env.PY_CODEGEN : "always";
}

/** Runs code-mode-exec with `args` and sets the process's exit code from it. */
export function startExec(args: string[]): Promise<void> {
  setCodegen(processTier(process.env));
  return runExec(args).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      // Not only Errors: whatever was thrown is described (never "[object Object]").
      process.stderr.write(`code-mode-exec: internal error: ${e instanceof Error && e.stack ? e.stack : describeThrown(e)}\n`);
      process.exitCode = 2;
    },
  );
}
