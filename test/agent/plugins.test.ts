// Plugins chained into the gateway's pre-tool-call hook: order, rewrites, refusals, and a broken
// plugin failing closed.
import { describe, expect, it } from "vitest";
import { chainPlugins, type Plugin } from "../../src/agent/plugins.js";
import type { ToolCallContext } from "../../src/gateway/gateway.js";

const call: ToolCallContext = { server: "gh", tool: "search", arguments: { q: "x" }, caller: "team", via: "script", unattended: true };

function plugin(source: string, preToolCall: Plugin["preToolCall"]): Plugin {
  return { source, preToolCall };
}

describe("chainPlugins", () => {
  it("is no hook at all without plugins", () => {
    expect(chainPlugins([])).toBeNull();
  });

  it("passes a call through unchanged when every plugin answers nothing", async () => {
    const hook = chainPlugins([plugin("a", () => undefined), plugin("b", async () => null)])!;
    expect(await hook(call)).toEqual({ server: "gh", tool: "search", arguments: { q: "x" } });
  });

  it("runs plugins in order, each seeing the call as the one before left it", async () => {
    const seen: unknown[] = [];
    const hook = chainPlugins([
      plugin("rename", (c) => (c.name === "search" ? { name: "search_code" } : undefined)),
      plugin("limit", (c) => {
        seen.push({ name: c.name, caller: c.caller, via: c.via, unattended: c.unattended });
        return { arguments: { ...c.arguments, limit: 5 } };
      }),
    ])!;
    expect(await hook(call)).toEqual({ server: "gh", tool: "search_code", arguments: { q: "x", limit: 5 } });
    expect(seen).toEqual([{ name: "search_code", caller: "team", via: "script", unattended: true }]);
  });

  it("stops at the first refusal", async () => {
    let reached = false;
    const hook = chainPlugins([
      plugin("deny", () => ({ deny: "not today" })),
      plugin("after", () => {
        reached = true;
        return undefined;
      }),
    ])!;
    expect(await hook(call)).toEqual({ deny: "not today" });
    expect(reached).toBe(false);
  });

  it("cannot change the call's arguments by mutating what it was given", async () => {
    const hook = chainPlugins([
      plugin("mutator", (c) => {
        c.arguments.q = "changed";
        return undefined;
      }),
    ])!;
    expect(await hook(call)).toEqual({ server: "gh", tool: "search", arguments: { q: "x" } });
  });

  it.each([
    ["throws", () => { throw new Error("boom"); }, "plugin p failed: boom"],
    ["rejects", async () => Promise.reject(new Error("async boom")), "plugin p failed: async boom"],
    ["answers a string", () => "yes" as never, "plugin p answered string, not an object"],
    ["answers an unknown field", () => ({ tool: "x" }) as never, "plugin p answered an unknown field 'tool'"],
    ["answers an empty name", () => ({ name: "" }), "plugin p answered a name that is not a non-empty string"],
    ["answers arguments that are a list", () => ({ arguments: [1] }) as never, "plugin p answered arguments that are not an object"],
    ["answers an empty deny", () => ({ deny: "" }), "plugin p answered a deny that is not a non-empty string"],
  ])("refuses the call when a plugin %s", async (_label, fn, reason) => {
    expect(await chainPlugins([plugin("p", fn as Plugin["preToolCall"])])!(call)).toEqual({ deny: reason });
  });
});
