// config.json's agent-mode fields: `providers` (env.VAR keys, defaults, errors naming the field)
// and `plugins` (relative paths resolved against the config file's folder).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveModel } from "../../src/agent/providers.js";
import { loadGatewayConfig, parseGatewayConfig } from "../../src/gateway/config-file.js";
import { problem } from "../gateway/config-problem.js";

describe("providers", () => {
  it("reads providers, the key from the environment, with defaults", () => {
    const c = parseGatewayConfig(
      { providers: [{ name: "openai", base_url: "https://api.openai.com/v1/", api_key: "env.OPENAI_API_KEY" }, { name: "local", base_url: "http://127.0.0.1:11434/v1", headers: { "x-a": "b" }, timeout_seconds: 30 }] },
      { OPENAI_API_KEY: "sk-test" },
    );
    expect(c.providers).toEqual([
      { name: "openai", type: "openai", base_url: "https://api.openai.com/v1", api_key: "sk-test", headers: {}, timeout_seconds: 120 },
      { name: "local", type: "openai", base_url: "http://127.0.0.1:11434/v1", headers: { "x-a": "b" }, timeout_seconds: 30 },
    ]);
    expect(parseGatewayConfig({}, {}).providers).toEqual([]);
    const anthropic = parseGatewayConfig({ providers: [{ name: "claude", type: "anthropic", base_url: "https://api.anthropic.com/v1", api_key: "passthrough" }] }, {});
    expect(anthropic.providers).toEqual([
      { name: "claude", type: "anthropic", base_url: "https://api.anthropic.com/v1", api_key: "passthrough", headers: {}, timeout_seconds: 120, anthropic_version: "2023-06-01" },
    ]);
    expect(parseGatewayConfig({}, {}).plugins).toEqual([]);
  });

  it.each([
    [{ providers: {} }, "providers: must be a list of providers"],
    [{ providers: [null] }, "providers[0]: must be an object"],
    [{ providers: [{ base_url: "http://x/v1" }] }, "providers[0].name: must be a non-empty name"],
    [{ providers: [{ name: "a/b", base_url: "http://x/v1" }] }, "providers[0].name: must be a non-empty name"],
    [{ providers: [{ name: "a", base_url: "http://x/v1" }, { name: "a", base_url: "http://y/v1" }] }, "providers[1].name: 'a' is listed twice"],
    [{ providers: [{ name: "a", base_url: "ftp://x" }] }, "providers[0].base_url: must be an http(s) URL"],
    [{ providers: [{ name: "a" }] }, "providers[0].base_url: must be an http(s) URL"],
    [{ providers: [{ name: "a", base_url: "http://x/v1", api_key: 5 }] }, "providers[0].api_key: must be a non-empty string"],
    [{ providers: [{ name: "a", base_url: "http://x/v1", type: "gemini" }] }, 'providers[0].type: must be "openai" or "anthropic", not "gemini"'],
    [{ providers: [{ name: "a", base_url: "http://x/v1", anthropic_version: "2023-06-01" }] }, 'providers[0].anthropic_version: is only for a provider of "type": "anthropic"'],
    [{ providers: [{ name: "a", base_url: "http://x/v1", type: "anthropic", anthropic_version: 3 }] }, "providers[0].anthropic_version: must be a version string"],
    [{ providers: [{ name: "a", base_url: "http://x/v1", api_key: "env.MISSING_KEY" }] }, "$.providers[0].api_key: refers to the environment variable MISSING_KEY, which is not set"],
    [{ providers: [{ name: "a", base_url: "http://x/v1", headers: { h: 1 } }] }, "providers[0].headers.h: must be a string"],
    [{ providers: [{ name: "a", base_url: "http://x/v1", timeout_seconds: 0 }] }, "providers[0].timeout_seconds: must be a positive number"],
    [{ providers: [{ name: "a", base_url: "http://x/v1", model: "gpt" }] }, "providers[0].model: unknown field"],
    [{ plugins: "./p.js" }, "plugins: must be a list of module paths"],
    [{ plugins: [""] }, "plugins[0]: must be a module path or package name"],
  ])("refuses %j naming the field", (raw, message) => {
    expect(problem(raw)).toContain(message);
  });

  it("resolves relative plugin paths against the config file's folder, and keeps package names", () => {
    const dir = mkdtempSync(join(tmpdir(), "agent-config-"));
    const file = join(dir, "config.json");
    writeFileSync(file, JSON.stringify({ plugins: ["./plugins/audit.js", "some-package", "/abs/p.js"] }));
    expect(loadGatewayConfig(file, {}).plugins).toEqual([join(dir, "plugins/audit.js"), "some-package", "/abs/p.js"]);
  });
});

describe("resolveModel", () => {
  const providers = parseGatewayConfig({ providers: [{ name: "openai", base_url: "http://a/v1" }, { name: "local", base_url: "http://b/v1" }] }, {}).providers;

  it("picks the provider named before the slash, and the first one for a bare model", () => {
    expect(resolveModel(providers, "local/llama-3")).toMatchObject({ provider: { name: "local" }, model: "llama-3" });
    expect(resolveModel(providers, "gpt-4o")).toMatchObject({ provider: { name: "openai" }, model: "gpt-4o" });
    expect(resolveModel(providers, "openai/org/model")).toMatchObject({ provider: { name: "openai" }, model: "org/model" });
  });

  it("names what is wrong", () => {
    expect(() => resolveModel(providers, "azure/gpt")).toThrow("model names an unknown provider 'azure' (configured: openai, local)");
    expect(() => resolveModel(providers, "openai/")).toThrow("model 'openai/' names no model after the provider");
    expect(() => resolveModel([], "gpt")).toThrow("agent mode needs a provider");
  });
});
