// How a catalog is given the shapes learned for its tools (catalog.ts buildCatalog's `observed`).
import { describe, expect, it } from "vitest";
import { buildCatalog } from "../../src/codemode/catalog.js";
import type { Shape } from "../../src/codemode/shape.js";

const LEARNED: Shape = { types: ["dict"], dicts: 1, keys: [{ name: "id", count: 1, shape: { types: ["int"] } }] };
const servers = [
  {
    name: "srv",
    instructions: null,
    tools: [
      { name: "plain", inputSchema: { type: "object" as const } },
      { name: "typed", inputSchema: { type: "object" as const }, outputSchema: { type: "object" as const, properties: { n: { type: "integer" } } } },
      { name: "hidden", inputSchema: { type: "object" as const } },
    ],
  },
];

describe("buildCatalog with observed shapes", () => {
  it("gives a tool without outputSchema its learned shape, and only the tools the caller sees", () => {
    const asked: string[] = [];
    const catalog = buildCatalog(servers, (_, tool) => tool !== "hidden", (server, tool) => {
      asked.push(`${server}.${tool}`);
      return LEARNED;
    });
    const tools = catalog.servers[0]!.tools;
    expect(tools.map((t) => t.name)).toEqual(["plain", "typed"]);
    expect(tools[0]!.observed).toEqual(LEARNED);
    // A declared outputSchema wins: the book is not even asked.
    expect(tools[1]!.observed).toBeUndefined();
    expect(asked).toEqual(["srv.plain"]);
  });

  it("leaves observed out when nothing was learned or no book is given", () => {
    expect("observed" in buildCatalog(servers, undefined, () => undefined).servers[0]!.tools[0]!).toBe(false);
    expect("observed" in buildCatalog(servers).servers[0]!.tools[0]!).toBe(false);
  });
});
