// config.json: Bifrost's shape and the desktop shape, env.VAR references, limit precedence, and
// errors that name the path of the bad field.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadGatewayConfig, parseGatewayConfig } from "../../src/gateway/config-file.js";
import { problem } from "./config-problem.js";

const stdio = { name: "fs", connection_type: "stdio", stdio_config: { command: "node", args: ["x.js"] }, tools_to_execute: ["*"], is_code_mode_client: true };

describe("config.json", () => {
  it("reads clients, settings and the listen address, with defaults", () => {
    const c = parseGatewayConfig({ mcp: { client_configs: [stdio], tool_manager_config: { tool_execution_timeout: 12, max_agent_depth: 4, code_mode_binding_level: "tool" } } }, {});
    expect(c.clients.map((x) => x.name)).toEqual(["fs"]);
    expect(c.settings.limits.tool_execution_timeout).toBe(12);
    expect(c.settings.limits.max_steps).toBe(1_000_000);
    expect(c.settings.bindingLevel).toBe("tool");
    expect(c.settings.maxAgentDepth).toBe(4);
    expect([c.host, c.port]).toEqual(["127.0.0.1", 8080]);
  });

  it("lets tool_manager_config.code_mode_limits win over client_config.mcp_code_mode_limits", () => {
    const c = parseGatewayConfig(
      { client_config: { mcp_code_mode_limits: { max_steps: 10, max_log_bytes: 2048 } }, mcp: { tool_manager_config: { code_mode_limits: { max_steps: 20 } } } },
      {},
    );
    expect(c.settings.limits.max_steps).toBe(20);
    expect(c.settings.limits.max_log_bytes).toBe(2048);
  });

  it("reads the store section: PostgreSQL from env.DATABASE_URL, SQLite by default", () => {
    const c = parseGatewayConfig({ store: { type: "postgres", url: "env.DATABASE_URL" } }, { DATABASE_URL: "postgres://gw:pw@127.0.0.1:5432/gw" });
    expect(c.store).toEqual({ type: "postgres", url: "postgres://gw:pw@127.0.0.1:5432/gw" });
    expect(parseGatewayConfig({}).store).toBeUndefined();
    expect(parseGatewayConfig({ store: { type: "sqlite", path: "/var/gw.db" } }).store).toEqual({ type: "sqlite", path: "/var/gw.db" });
    expect(problem({ store: { type: "postgres", url: "env.DATABASE_URL" } })).toContain("store.url: refers to the environment variable DATABASE_URL, which is not set");
    expect(problem({ store: { type: "mysql" } })).toContain('store.type: must be "sqlite" or "postgres" (got "mysql")');
    expect(problem({ store: { type: "sqlite", url: "x" } })).toContain("store.url: is not a field of a sqlite store (its fields: type, path)");
    // A wrong URL is named without its password.
    const wrong = problem({ store: { type: "postgres", url: "mysql://gw:secret@db/gw" } });
    expect(wrong).toContain("store.url: must be a postgres:// URL");
    expect(wrong).not.toContain("secret");
  });

  it("reads env.VAR references, and names a missing one", () => {
    const c = parseGatewayConfig({ mcp: { client_configs: [{ ...stdio, stdio_config: { command: "node", env: { TOKEN: "env.GH_TOKEN" } } }] } }, { GH_TOKEN: "secret" });
    expect(c.clients[0]!.stdio_config!.env.TOKEN).toBe("secret");
    expect(problem({ mcp: { client_configs: [{ ...stdio, headers: { A: "env.NOPE" } }] } })).toBe(
      "$.mcp.client_configs[0].headers.A: refers to the environment variable NOPE, which is not set",
    );
  });

  it("accepts the desktop-client mcpServers shape", () => {
    const c = parseGatewayConfig({ mcpServers: { memory: { command: "node", args: ["m.js"] } } }, {});
    expect(c.clients[0]).toMatchObject({ name: "memory", connection_type: "stdio", is_code_mode_client: true });
  });

  it("reads virtual keys, require-key and the admin token (from the environment too)", () => {
    const key = { name: "ci", value: "sk-ci", mcp_configs: [{ client_name: "fs", tools_to_execute: ["read_file"] }] };
    const c = parseGatewayConfig({ server: { admin_token: "env.ADMIN" }, governance: { virtual_keys: [key], require_virtual_key: true } }, { ADMIN: "t0ken" });
    expect(c.keys).toEqual([{ ...key, id: "ci", is_active: true }]);
    expect([c.requireKey, c.adminToken]).toEqual([true, "t0ken"]);
    const plain = parseGatewayConfig({}, {});
    expect([plain.keys, plain.requireKey, plain.adminToken]).toEqual([[], false, undefined]);
    expect(parseGatewayConfig({ client_config: { enforce_governance_header: true } }, {}).requireKey).toBe(true);
  });

  it("reads the HTTP hardening fields, with defaults", () => {
    const plain = parseGatewayConfig({}, {});
    expect([plain.allowedHosts, plain.allowUnauthenticatedStdio, plain.mcpSessionIdleSeconds]).toEqual([[], false, 3600]);
    const c = parseGatewayConfig({ server: { allowed_hosts: ["gateway.lan", "192.168.1.20", "::1", "[fd00::5]"], allow_unauthenticated_stdio: true, mcp_session_idle_seconds: 1.5 } }, {});
    expect([c.allowedHosts, c.allowUnauthenticatedStdio, c.mcpSessionIdleSeconds]).toEqual([["gateway.lan", "192.168.1.20", "::1", "[fd00::5]"], true, 1.5]);
  });

  it.each([
    [{ server: { allowed_hosts: "gateway.lan" } }, 'server.allowed_hosts: must be a list of host names or addresses, e.g. ["gateway.lan", "192.168.1.20"]'],
    [{ server: { allowed_hosts: [""] } }, "server.allowed_hosts[0]: must be a host name or IP address"],
    [{ server: { allowed_hosts: ["ok", 5] } }, "server.allowed_hosts[1]: must be a host name or IP address"],
    [{ server: { allowed_hosts: ["gateway.lan:8080"] } }, 'server.allowed_hosts[0]: must be a host name or IP address alone, without scheme, port or path (any port is accepted), not "gateway.lan:8080"'],
    [{ server: { allowed_hosts: ["http://gateway.lan"] } }, "server.allowed_hosts[0]: must be a host name or IP address alone"],
    [{ server: { allowed_hosts: ["cafe.de:80"] } }, "server.allowed_hosts[0]: must be a host name or IP address alone"],
    [{ server: { allowed_hosts: ["[::1]:8080"] } }, "server.allowed_hosts[0]: must be a host name or IP address alone"],
    [{ server: { allow_unauthenticated_stdio: "yes" } }, "server.allow_unauthenticated_stdio: must be true or false"],
    [{ server: { mcp_session_idle_seconds: 0 } }, "server.mcp_session_idle_seconds: must be a positive number of seconds"],
    [{ server: { mcp_session_idle_seconds: "60" } }, "server.mcp_session_idle_seconds: must be a positive number of seconds"],
  ])("reports %j", (raw, message) => {
    expect(problem(raw)).toContain(message);
  });

  it.each([
    [{ governance: { virtual_keys: [{ name: "a", value: "v" }, { name: "b", value: "v" }] } }, "governance.virtual_keys[1].value: this value is already the value of governance.virtual_keys[0]"],
    [{ governance: { virtual_keys: [{ name: "a" }] } }, "governance.virtual_keys[0].value"],
    [{ governance: { require_virtual_key: "yes" } }, "governance.require_virtual_key: must be true or false"],
    [{ server: { admin_token: "" } }, "server.admin_token: must be a non-empty string"],
    [{ mcp: { tool_manager_config: { code_mode_limits: { max_steps: -1 } } } }, "mcp.tool_manager_config.code_mode_limits: max_steps must not be negative (got -1)"],
    [{ mcp: { tool_manager_config: { code_mode_binding_level: "file" } } }, 'mcp.tool_manager_config.code_mode_binding_level: must be "server" or "tool", not "file"'],
    [{ mcp: { tool_manager_config: { max_agent_depth: 0 } } }, "mcp.tool_manager_config.max_agent_depth: must be a positive integer"],
    [{ server: { port: 70000 } }, "server.port: must be a port number (0-65535)"],
    [{ mcp: { client_configs: [{ ...stdio, name: "my-fs" }] } }, "mcp.client_configs[0].name: 'my-fs' is not a valid client name"],
    [{ mcp: [] }, "mcp: must be an object"],
  ])("reports %j", (raw, message) => {
    expect(problem(raw)).toContain(message);
  });
});

describe("config.json's unknown fields", () => {
  it.each([
    [{ govrenance: { require_virtual_key: true } }, "govrenance: unknown field (did you mean governance?)"],
    [{ mcp_servers: {} }, "mcp_servers: unknown field (did you mean mcpServers?)"],
    [{ colour: "blue" }, "colour: unknown field (the fields here are mcp, mcpServers, client_config, server, governance, providers, plugins, workspace_root, workspace_max_write_bytes, workspace_max_created, telemetry, store)"],
    [{ mcp: { client_config: [] } }, "mcp.client_config: unknown field (did you mean client_configs?)"],
    [{ mcp: { tool_manager_config: { tool_execution_timout: 5 } } }, "mcp.tool_manager_config.tool_execution_timout: unknown field (did you mean tool_execution_timeout?)"],
    [{ mcp: { tool_manager_config: { code_mode_limits: { max_stpes: 5 } } } }, "mcp.tool_manager_config.code_mode_limits.max_stpes: unknown field (did you mean max_steps?)"],
    [{ client_config: { mcp_code_mode_limits: { steps: 5 } } }, "client_config.mcp_code_mode_limits.steps: unknown field (the fields here are max_source_bytes"],
    [{ client_config: { enforce_governance: true } }, "client_config.enforce_governance: unknown field"],
    [{ server: { prot: 9000 } }, "server.prot: unknown field (did you mean port?)"],
    [{ server: { admin_tokn: "x" } }, "server.admin_tokn: unknown field (did you mean admin_token?)"],
    [{ governance: { require_key: true } }, "governance.require_key: unknown field"],
    [{ governance: { virtual_keys: [{ name: "a", value: "v", budget: 5 }] } }, "governance.virtual_keys[0].budget: unknown field"],
    [{ mcp: { client_configs: [{ ...stdio, tools_to_exec: ["*"] }] } }, "mcp.client_configs[0].tools_to_exec: unknown field (did you mean tools_to_execute?)"],
    [{ mcp: { client_configs: [{ ...stdio, stdio_config: { command: "node", enviroment: {} } }] } }, "mcp.client_configs[0].stdio_config.enviroment: unknown field (the fields here are command, args, env, cwd)"],
    [{ mcpServers: { fs: { command: "node", argv: ["x.js"] } } }, "mcpServers.fs.argv: unknown field (did you mean args?)"],
    [{ providers: [{ name: "a", base_url: "http://x/v1", api_kye: "k" }] }, "providers[0].api_kye: unknown field (did you mean api_key?)"],
  ])("refuses %j, naming the field's path", (raw, message) => {
    expect(problem(raw)).toContain(message);
  });

  it("reads every field it knows, at every level", () => {
    const dir = mkdtempSync(join(tmpdir(), "cmg-fields-"));
    const c = parseGatewayConfig(
      {
        mcp: {
          client_configs: [{ ...stdio, stdio_config: { command: "node", args: [], env: {}, cwd: dir } }],
          tool_manager_config: { tool_execution_timeout: 5, max_agent_depth: 2, code_mode_binding_level: "tool", code_mode_limits: { max_steps: 7 }, code_mode_observed_shapes: false },
        },
        mcpServers: { mem: { command: "node", args: ["m.js"], env: { A: "b" }, cwd: dir }, web: { url: "http://127.0.0.1:1/sse", headers: {}, type: "sse" }, web2: { url: "http://127.0.0.1:1/sse", transport: "sse" } },
        client_config: {
          mcp_code_mode_limits: { max_log_bytes: 4096 },
          mcp_tool_execution_timeout: 9,
          mcp_code_mode_binding_level: "server",
          mcp_agent_depth: 3,
          mcp_code_mode_instructions_limit: 100,
          mcp_direct_instructions_limit: 200,
          mcp_code_mode_observed_shapes: true,
          enforce_governance_header: false,
        },
        server: { host: "127.0.0.1", port: 0, admin_token: "t", allowed_hosts: [], allow_unauthenticated_stdio: false, mcp_session_idle_seconds: 60 },
        governance: { virtual_keys: [], require_virtual_key: false },
        providers: [{ name: "p", base_url: "http://127.0.0.1:1/v1", api_key: "k", headers: {}, timeout_seconds: 5 }],
        plugins: [],
        workspace_root: dir,
        workspace_max_write_bytes: 1024,
        workspace_max_created: 10,
      },
      {},
    );
    expect(c.clients.map((x) => [x.name, x.stdio_config?.cwd ?? x.connection_type])).toEqual([["fs", dir], ["mem", dir], ["web", "sse"], ["web2", "sse"]]);
    expect([c.settings.instructionsLimit, c.settings.directInstructionsLimit, c.settings.limits.max_steps, c.settings.limits.max_log_bytes]).toEqual([100, 200, 7, 4096]);
    expect(problem({ client_config: { mcp_direct_instructions_limit: -1 } })).toBe("client_config.mcp_direct_instructions_limit: must be a non-negative whole number of bytes");
  });

  it("loads the default config.json and the README's config snippets", () => {
    const root = fileURLToPath(new URL("../..", import.meta.url));
    expect(loadGatewayConfig(join(root, "config.json"), {}).clients.map((x) => x.name)).toEqual(["memory", "filesystem", "everything"]);
    const readme = readFileSync(join(root, "README.md"), "utf8").replaceAll("/path/to/folder", mkdtempSync(join(tmpdir(), "cmg-readme-")));
    // Fenced JSON blocks ("[ ... ]" standing for a list), inline objects, and inline `"field": value` fragments.
    const candidates = [
      ...[...readme.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!.replaceAll("[ ... ]", "[]")),
      ...[...readme.matchAll(/`(\{"[^`]*\})`/g)].map((m) => m[1]!),
      ...[...readme.matchAll(/`("[A-Za-z_]+": [^`]*)`/g)].map((m) => `{${m[1]}}`),
    ];
    const configs = candidates.flatMap((text) => {
      try {
        const value = JSON.parse(text) as unknown;
        return value && typeof value === "object" && Object.keys(value).some((k) => ["mcp", "mcpServers", "server", "governance", "client_config", "providers", "workspace_root"].includes(k)) ? [value] : [];
      } catch {
        return []; // a shape such as {"result": x}, not JSON
      }
    });
    expect(configs.length).toBeGreaterThanOrEqual(7);
    for (const c of configs) expect(problem(c, { ADMIN_TOKEN: "x", OPENAI_API_KEY: "x", DATABASE_URL: "postgres://gw:pw@db.internal:5432/gw" }), JSON.stringify(c)).toBe("no problem");
  });
});
