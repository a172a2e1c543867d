// Keys that do not collide (issue 23, item 1): a Bearer or x-api-key value is a virtual key only
// with the prefix; any other value is the caller's own provider key and the request is keyless.
// A prefixed value that is unknown or revoked stays a 401, never keyless access.
import { describe, expect, it } from "vitest";
import { callerFromHeaders, presentedKey } from "../../src/api/auth.js";
import { UNRESTRICTED } from "../../src/gateway/caller.js";
import { generateKeyValue, isVirtualKeyValue, KeyRing, VIRTUAL_KEY_PREFIX, type VirtualKey } from "../../src/gateway/virtual-keys.js";

const LIVE: VirtualKey = { id: "live", name: "live", value: "sk-bf-live", is_active: true, mcp_configs: [] };
const REVOKED: VirtualKey = { id: "gone", name: "gone", value: "sk-bf-gone", is_active: false, mcp_configs: [] };
/** A hand-made value without the prefix: it still works through x-bf-vk. */
const LEGACY: VirtualKey = { id: "legacy", name: "legacy", value: "team-key-1", is_active: true, mcp_configs: [] };
const ring = new KeyRing([LIVE, REVOKED, LEGACY]);

describe("the virtual-key prefix", () => {
  it("is what generated keys start with", () => {
    expect(VIRTUAL_KEY_PREFIX).toBe("sk-bf-");
    expect(isVirtualKeyValue(generateKeyValue())).toBe(true);
  });

  it.each(["sk-proj-abc123", "sk-ant-api03-xyz", "sk-bfx", "ollama", "OPENAI_API_KEY"])("does not claim the provider key %s", (value) => {
    expect(isVirtualKeyValue(value)).toBe(false);
    expect(presentedKey({ authorization: `Bearer ${value}` })).toBeUndefined();
    expect(presentedKey({ "x-api-key": value })).toBeUndefined();
    expect(callerFromHeaders({ authorization: `Bearer ${value}` }, ring)).toBe(UNRESTRICTED);
  });

  it("reads a prefixed key from Authorization: Bearer and from x-api-key", () => {
    expect(callerFromHeaders({ authorization: `Bearer ${LIVE.value}` }, ring)).toMatchObject({ label: "live" });
    expect(callerFromHeaders({ "x-api-key": LIVE.value }, ring)).toMatchObject({ label: "live" });
  });

  it("keeps a key without the prefix working through x-bf-vk, and only there", () => {
    expect(callerFromHeaders({ "x-bf-vk": LEGACY.value }, ring)).toMatchObject({ label: "legacy" });
    expect(callerFromHeaders({ authorization: `Bearer ${LEGACY.value}` }, ring)).toBe(UNRESTRICTED);
  });

  it("prefers x-bf-vk, so a caller can send its own provider key beside its virtual key", () => {
    expect(callerFromHeaders({ "x-bf-vk": LIVE.value, authorization: "Bearer sk-proj-own" }, ring)).toMatchObject({ label: "live" });
  });

  it.each([
    ["an unknown prefixed Bearer value", { authorization: "Bearer sk-bf-guess" }, "unknown virtual key"],
    ["an unknown prefixed x-api-key", { "x-api-key": "sk-bf-guess" }, "unknown virtual key"],
    ["a revoked key as Bearer", { authorization: `Bearer ${REVOKED.value}` }, "virtual key 'gone' is not active"],
    ["a revoked key as x-api-key", { "x-api-key": REVOKED.value }, "virtual key 'gone' is not active"],
  ])("refuses %s with 401, never falling back to keyless access", (_what, headers, error) => {
    expect(callerFromHeaders(headers, ring)).toEqual({ status: 401, error });
  });

  it("refuses a provider key when virtual keys are required", () => {
    expect(callerFromHeaders({ authorization: "Bearer sk-proj-own" }, ring, { requireKey: true })).toMatchObject({ status: 401 });
  });
});
