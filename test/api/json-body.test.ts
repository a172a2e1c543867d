// A JSON body nested too deep is a 400 that says so, on every route (it overflowed the stack in
// what walks a parsed body, answering 500), and the check costs a linear scan of the text.
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BODY_DEPTH, nestedDeeperThan } from "../../src/api/json-body.js";
import { buildServer } from "../../src/api/server.js";
import { Gateway } from "../../src/gateway/gateway.js";

const arrays = (n: number) => "[".repeat(n) + "]".repeat(n);
const objects = (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n);

describe("nestedDeeperThan", () => {
  it.each([
    ["[]", 1, false],
    ["[[]]", 1, true],
    ['{"a":[1,{"b":2}]}', 3, false],
    ['{"a":[1,{"b":2}]}', 2, true],
    // Brackets inside strings, escaped quotes and escaped backslashes do not count.
    ['["[[[[", "\\"[[[", "\\\\", "{{"]', 1, false],
    ['["\\\\"]', 1, false],
    ['["\\\\\\"[["]', 1, false],
    ['["a\\\\", [[]]]', 2, true],
    ['"unterminated [[[[', 1, false],
  ])("%s deeper than %i: %s", (text, max, deeper) => {
    expect(nestedDeeperThan(text, max)).toBe(deeper);
    // The texts that parse agree with JSON.parse's own nesting.
    if (!text.startsWith('"unterminated')) expect(depthOf(JSON.parse(text)) > max).toBe(deeper);
  });

  it("scans 16 MiB of JSON in well under a second", () => {
    const text = JSON.stringify(Array.from({ length: 200_000 }, (_, i) => ({ id: i, name: `item [${i}] "x"`, tags: ["a", "b"] }))).padEnd(16 << 20, " ");
    const start = performance.now();
    expect(nestedDeeperThan(text, MAX_BODY_DEPTH)).toBe(false);
    expect(performance.now() - start).toBeLessThan(1000);
  });
});

function depthOf(v: unknown): number {
  if (v === null || typeof v !== "object") return 0;
  return 1 + Math.max(0, ...Object.values(v as object).map(depthOf));
}

describe("a deeply nested JSON body", () => {
  let gateway: Gateway;
  let app: FastifyInstance;

  beforeAll(async () => {
    gateway = new Gateway();
    app = buildServer(gateway);
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await gateway?.close();
  });

  it.each([
    ["POST", "/api/mcp/client"],
    ["PUT", "/api/config"],
    ["POST", "/api/governance/virtual-keys"],
    ["POST", "/v1/mcp/tool/execute"],
    ["POST", "/v1/chat/completions"],
    ["POST", "/api/ui/playground/call"],
    ["POST", "/mcp"],
  ] as const)("%s %s answers 400 naming the nesting", async (method, url) => {
    for (const body of [arrays(100_000), objects(100_000), `{"client_config": ${objects(100_000)}}`]) {
      const res = await app.inject({ method, url, payload: body, headers: { "content-type": "application/json", accept: "application/json, text/event-stream" } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(
        `the JSON body is nested more than ${MAX_BODY_DEPTH} levels deep (arrays and objects inside each other); send a flatter value`,
      );
    }
  });

  it("accepts a body nested as deep as the boundary allows (max_nesting_depth up to 1000)", async () => {
    const res = await app.inject({ method: "PUT", url: "/api/config", payload: `{"client_config": {"ignored": ${arrays(1000)}}}`, headers: { "content-type": "application/json" } });
    expect(res.statusCode).toBe(200);
  });

  it("still refuses malformed JSON and prototype poisoning as Fastify does", async () => {
    const bad = await app.inject({ method: "PUT", url: "/api/config", payload: '{"client_config": [', headers: { "content-type": "application/json" } });
    expect(bad.statusCode).toBe(400);
    const poisoned = await app.inject({ method: "PUT", url: "/api/config", payload: '{"client_config": {}, "__proto__": {"x": 1}}', headers: { "content-type": "application/json" } });
    expect(poisoned.statusCode).toBe(400);
  });
});
