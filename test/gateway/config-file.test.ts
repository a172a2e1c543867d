// config.json: Bifrost's shape and the desktop shape, env.VAR references, limit precedence, and
// errors that name the path of the bad field.
import { describe, expect, it } from "vitest";
import { parseGatewayConfig } from "../../src/gateway/config-file.js";
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
