#!/usr/bin/env -S node --max-semi-space-size=32
// code-mode-gateway: the server. One process serves the MCP endpoint /mcp and the HTTP API, or,
// with --stdio, MCP over stdin/stdout for a desktop client that launches it (logs go to stderr).
// This parses the flags and reports; openGateway (src/open-gateway.ts) composes the gateway.
// `code-mode-gateway migrate` copies a SQLite store into PostgreSQL (cli/migrate.ts).
import { resolve } from "node:path";
import { PluginError } from "../agent/plugins.js";
import { loadGatewayConfig } from "../gateway/config-file.js";
import { serveStdio } from "../gateway/mcp-face.js";
import { StoreError } from "../gateway/store.js";
import { ListenError, type OpenedGateway, openGateway } from "../open-gateway.js";
import { resolveTelemetry, TelemetryConfigError, type TelemetrySettings } from "../telemetry/index.js";
import { ConfigError } from "../upstream/config.js";
import { MIGRATE_USAGE, migrateCommand } from "./migrate.js";

const USAGE = "usage: code-mode-gateway [--config config.json] [--data ./data] [--host 127.0.0.1] [--port 8080] [--stdio]";

interface Options {
  config: string;
  /** Folder of the state database (gateway.db). */
  data: string;
  host?: string;
  port?: number;
  stdio: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { config: "config.json", data: "data", stdio: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === "--config") options.config = value();
    else if (arg === "--data") options.data = value();
    else if (arg === "--host") options.host = value();
    else if (arg === "--port") {
      const port = Number(value());
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error("--port needs a port number");
      options.port = port;
    } else if (arg === "--stdio") options.stdio = true;
    else if (arg === "-h" || arg === "--help") throw new Error("");
    else throw new Error(`unknown argument ${arg}`);
  }
  return options;
}

const log = (message: string) => process.stderr.write(`code-mode-gateway: ${message}\n`);

async function main(): Promise<number> {
  if (process.argv[2] === "migrate") return migrateCommand(process.argv.slice(3), log);
  let options: Options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (e) {
    if ((e as Error).message) log((e as Error).message);
    process.stderr.write(`${USAGE}\n   or: ${MIGRATE_USAGE.slice("usage: ".length)}\n`);
    return 2;
  }
  let config;
  try {
    config = loadGatewayConfig(resolve(options.config));
  } catch (e) {
    if (e instanceof ConfigError) {
      log(`invalid config: ${e.message}`);
      return 2;
    }
    throw e;
  }
  let telemetry: TelemetrySettings | null;
  try {
    telemetry = resolveTelemetry(config.telemetry);
  } catch (e) {
    if (!(e instanceof TelemetryConfigError)) throw e;
    log(`invalid telemetry settings: ${e.message}`);
    return 2;
  }
  let opened: OpenedGateway;
  try {
    opened = await openGateway({ config, dataDir: options.data, host: options.host, port: options.port, log, telemetry });
  } catch (e) {
    if (e instanceof PluginError) {
      log(`invalid config: ${e.message}`);
      return 2;
    }
    if (e instanceof StoreError) {
      log(`cannot use the state database: ${e.message}`);
      return 1;
    }
    throw e;
  }

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    log("shutting down");
    await opened.close();
  };

  if (options.stdio) {
    process.once("SIGINT", () => void shutdown().then(() => process.exit(0)));
    process.once("SIGTERM", () => void shutdown().then(() => process.exit(0)));
    await serveStdio(opened.gateway);
    await shutdown();
    return 0;
  }

  let url: string;
  try {
    ({ url } = await opened.listen());
  } catch (e) {
    if (!(e instanceof ListenError)) throw e;
    // Closing ends the upstream children, which would otherwise keep the process alive.
    log(`${e.message}; pick another with ${e.code === "EADDRNOTAVAIL" ? "--host" : "--port"}`);
    await shutdown();
    return 1;
  }
  log(`listening on ${url} (MCP at /mcp, API at /api, health at /health)`);
  await new Promise<void>((resolveStop) => {
    const stop = () => void shutdown().then(resolveStop);
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  return 0;
}

const EXIT_GRACE_MS = 2000;

main().then(
  (code) => {
    process.exitCode = code;
    // Shutdown always exits, after a stop or a failed start. Nothing should be left holding the
    // event loop (a finished execution releases its timers and calls); if something is, it is
    // named, and cut after a grace period.
    setTimeout(() => {
      log(`exiting with handles still open: ${process.getActiveResourcesInfo().join(", ")}`);
      process.exit(code);
    }, EXIT_GRACE_MS).unref();
  },
  (e: unknown) => {
    log(`fatal: ${(e as Error).stack ?? String(e)}`);
    process.exitCode = 1;
  },
);
