// Client configs: Bifrost's shape, validated completely, with the path of every problem.
import { describe, expect, it } from "vitest";
import { clientConfigsOf, ConfigError, listAllows, parseClientConfig, parseClientConfigs } from "../../src/upstream/config.js";

const http = { name: "github", connection_type: "http", connection_string: "http://127.0.0.1:3001/mcp" };

function problem(raw: unknown): string {
  try {
    parseClientConfigs(raw);
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  return "no problem";
}

describe("client configs", () => {
  it("accepts Bifrost's shapes and fills defaults", () => {
    const c = parseClientConfig({ ...http, tools_to_execute: ["*"], is_code_mode_client: true });
    expect(c).toMatchObject({ name: "github", tools_to_auto_execute: [], headers: {}, disabled: false, is_code_mode_client: true });
    const s = parseClientConfig({ name: "fs", connection_type: "stdio", stdio_config: { command: "node", args: ["server.js"] } });
    expect(s.stdio_config).toEqual({ command: "node", args: ["server.js"], env: {} });
  });

  it.each([
    [[{ ...http, name: "my-server" }], "mcp.client_configs[0].name: 'my-server' is not a valid client name: it becomes a Python global, so use letters, digits and underscores, not starting with a digit (use 'my_server': hyphens are not allowed)"],
    [[{ ...http, name: "class" }], "mcp.client_configs[0].name: 'class' is a Python keyword and cannot name a client"],
    [[{ ...http, name: "nonlocal" }], "mcp.client_configs[0].name: 'nonlocal' is a Python keyword and cannot name a client"],
    [[http, { ...http }], "mcp.client_configs[1].name: 'github' is already the name of mcp.client_configs[0]"],
    [[{ ...http, tools_to_execute: ["*", "search"] }], "mcp.client_configs[0].tools_to_execute: '*' must be the only entry when present"],
    [[{ ...http, tools_to_execute: ["a"], tools_to_auto_execute: ["a", "b"] }], "mcp.client_configs[0].tools_to_auto_execute: must be a subset of tools_to_execute; not in it: b"],
    [[{ ...http, tools_to_execute: ["a"], tools_to_auto_execute: ["*"] }], "mcp.client_configs[0].tools_to_auto_execute: '*' is only allowed when tools_to_execute is also '*'"],
    [[{ ...http, connection_type: "ftp" }], "mcp.client_configs[0].connection_type"],
    [[{ name: "x", connection_type: "stdio" }], "mcp.client_configs[0].stdio_config: a stdio client needs stdio_config with a command"],
    [[{ name: "x", connection_type: "http" }], "mcp.client_configs[0].connection_string: an http client needs connection_string"],
    [[{ ...http, surprise: 1 }], "mcp.client_configs[0]"],
    [{ not: "a list" }, "mcp.client_configs: must be a list of client configs"],
  ])("reports %j", (raw, message) => {
    expect(problem(raw)).toContain(message);
  });

  it("lets soft keywords (match, case, type, _) name a client, as Python lets them name a global", () => {
    for (const name of ["match", "case", "type", "_"]) expect(parseClientConfig({ ...http, name }).name).toBe(name);
  });

  it("reads the desktop-client shape too", () => {
    const configs = clientConfigsOf({
      mcpServers: { fs: { command: "node", args: ["a.js"], env: { K: "v" } }, remote: { url: "http://127.0.0.1:1/mcp", headers: { A: "b" } } },
    });
    expect(configs.map((c) => [c.name, c.connection_type, c.is_code_mode_client, c.tools_to_execute])).toEqual([
      ["fs", "stdio", true, ["*"]],
      ["remote", "http", true, ["*"]],
    ]);
    expect(() => clientConfigsOf({ mcpServers: { bad: {} } })).toThrow("mcpServers.bad: needs either a command (stdio) or a url (http)");
  });

  it("reads tools_to_execute lists", () => {
    expect(listAllows(["*"], "any")).toBe(true);
    expect(listAllows(["a"], "a")).toBe(true);
    expect(listAllows(["a"], "b")).toBe(false);
    expect(listAllows([], "a")).toBe(false);
  });
});
