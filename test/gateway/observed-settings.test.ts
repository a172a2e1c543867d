// code_mode_observed_shapes from config.json and the API, and shapes learned by agent mode's
// script runs: a real gateway (the edge-case server over stdio) behind the real HTTP API on
// 127.0.0.1, in front of a scripted OpenAI-compatible provider.
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "../../src/api/server.js";
import { shapeText } from "../../src/codemode/shape.js";
import { parseGatewayConfig } from "../../src/gateway/config-file.js";
import { DEFAULT_SETTINGS, Gateway } from "../../src/gateway/gateway.js";
import { parseClientConfig } from "../../src/upstream/config.js";
import { type ScriptedProvider, startScriptedProvider, textReply, toolCall, toolCallsReply } from "../fixtures/scripted-provider.js";
import { problem } from "./config-problem.js";

const EDGE = fileURLToPath(new URL("../../dist/test/fixtures/edge-server.js", import.meta.url));

describe("code_mode_observed_shapes in config.json", () => {
  it("is on by default, and read from tool_manager_config", () => {
    expect(parseGatewayConfig({}, {}).settings.observedShapes).toBe(true);
    expect(parseGatewayConfig({ mcp: { tool_manager_config: { code_mode_observed_shapes: false } } }, {}).settings.observedShapes).toBe(false);
    expect(parseGatewayConfig({ client_config: { mcp_code_mode_observed_shapes: false } }, {}).settings.observedShapes).toBe(false);
  });

  it("must be a boolean, and the error names the field", () => {
    expect(problem({ mcp: { tool_manager_config: { code_mode_observed_shapes: "no" } } })).toBe("mcp.tool_manager_config.code_mode_observed_shapes: must be true or false");
    expect(problem({ client_config: { mcp_code_mode_observed_shapes: 0 } })).toBe("client_config.mcp_code_mode_observed_shapes: must be true or false");
  });
});

describe("over HTTP", () => {
  let provider: ScriptedProvider;
  let gateway: Gateway;
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    provider = await startScriptedProvider();
    gateway = new Gateway();
    gateway.addClient(
      parseClientConfig({
        name: "edge",
        connection_type: "stdio",
        stdio_config: { command: process.execPath, args: [EDGE] },
        tools_to_execute: ["*"],
        tools_to_auto_execute: ["echo", "env"],
        is_code_mode_client: true,
      }),
    );
    await gateway.manager.settled(15_000);
    app = buildServer(gateway, { providers: [{ name: "scripted", base_url: provider.url, headers: {}, timeout_seconds: 10 }] });
    await app.listen({ host: "127.0.0.1", port: 0 });
    const address = app.server.address();
    base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  }, 30_000);

  afterAll(async () => {
    await app?.close();
    await gateway?.close();
    await provider?.close();
  });

  afterEach(() => {
    gateway.settings = DEFAULT_SETTINGS;
  });

  async function send(method: string, path: string, body?: unknown) {
    const response = await fetch(`${base}${path}`, { method, headers: body ? { "content-type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined });
    return { status: response.status, body: (await response.json()) as any };
  }

  const observedEcho = () => {
    const tool = gateway.catalogFor({ grants: null, label: "-" }).servers[0]!.tools.find((t) => t.name === "echo")!;
    return tool.observed ? shapeText(tool.observed) : null;
  };

  it("records the shapes of calls an agent-mode script run makes", async () => {
    provider.reset([toolCallsReply([toolCall("executeToolCode", { code: `RESULT = edge.echo(text='{"city": "Oslo", "temp": 3.5}')["city"]` })]), textReply("done")]);
    const { status, body } = await send("POST", "/v1/chat/completions", { model: "scripted/m", messages: [{ role: "user", content: "weather?" }] });
    expect(status).toBe(200);
    expect(body.choices[0].message.content).toBe("done");
    expect(provider.requests[1]!.body.messages.at(-1)!.content).toContain('"Oslo"');
    expect(observedEcho()).toBe('{"city": str, "temp": float}');
  });

  it("shows the setting in GET /api/config and turns it off and on with PUT", async () => {
    expect((await send("GET", "/api/config")).body.client_config.mcp_code_mode_observed_shapes).toBe(true);
    const off = await send("PUT", "/api/config", { client_config: { mcp_code_mode_observed_shapes: false } });
    expect(off.status).toBe(200);
    expect(off.body.client_config.mcp_code_mode_observed_shapes).toBe(false);
    expect(gateway.settings.observedShapes).toBe(false);
    // Off: the shape learned above is hidden, and a new call teaches nothing.
    expect(observedEcho()).toBeNull();
    const run = await send("POST", "/v1/mcp/tool/execute", toolCall("executeToolCode", { code: "edge.env(name='HOME')" }));
    expect(run.status).toBe(200);
    expect(gateway.shapes.get("edge", "env")).toBeUndefined();
    // Omitted, it stays as it is; turned on again, what was learned shows again.
    expect((await send("PUT", "/api/config", { client_config: { mcp_agent_depth: 4 } })).body.client_config.mcp_code_mode_observed_shapes).toBe(false);
    await send("PUT", "/api/config", { client_config: { mcp_code_mode_observed_shapes: true } });
    expect(observedEcho()).toBe('{"city": str, "temp": float}');
  });

  it("refuses a setting that is not a boolean, naming it", async () => {
    const { status, body } = await send("PUT", "/api/config", { client_config: { mcp_code_mode_observed_shapes: "yes" } });
    expect(status).toBe(400);
    expect(body.error.message).toContain("client_config.mcp_code_mode_observed_shapes");
    expect(gateway.settings.observedShapes).toBe(true);
  });
});
