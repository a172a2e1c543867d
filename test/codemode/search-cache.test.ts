// searchTools builds its index once per set of upstream tool objects: a gateway builds a new
// catalog for every request, and indexing real-16's 487 tools takes tens of milliseconds.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { buildCatalog } from "../../src/codemode/catalog.js";
import { searchTools } from "../../src/codemode/meta-tools.js";

const REAL16 = fileURLToPath(new URL("../../../shared/catalogs/real-16.json", import.meta.url));
const servers = (JSON.parse(readFileSync(REAL16, "utf8")) as { servers: { name: string; instructions: string | null; tools: Tool[] }[] }).servers;

function timed(run: () => string): { text: string; ms: number } {
  const start = performance.now();
  const text = run();
  return { text, ms: performance.now() - start };
}

describe("the search index", () => {
  it("is built once for catalogs of the same tools, and the hits are the newest catalog's", () => {
    const query = { query: "list the files in a folder", limit: 3 };
    const first = timed(() => searchTools(buildCatalog(servers), query));
    const again: number[] = [];
    for (let i = 0; i < 5; i++) again.push(timed(() => searchTools(buildCatalog(servers), query)).ms);
    again.sort((a, b) => a - b);
    // Building takes 25-50 ms here; a cached search (with the catalog build around it) a few.
    expect(again[2]).toBeLessThan(first.ms / 3);

    // A shape learned since is shown, although the index was built from an older catalog.
    const slack = { query: "post a message to a slack channel", limit: 1 };
    expect(searchTools(buildCatalog(servers), slack)).not.toContain("Observed");
    const observed = { types: ["dict"], dicts: 1, keys: [{ name: "ts", count: 1, shape: { types: ["str"] } }] };
    const text = searchTools(buildCatalog(servers, undefined, (server) => (server === "slack" ? observed : undefined)), slack);
    expect(text).toMatch(/^slack\./);
    expect(text).toContain('Observed: {"ts": str}');
  });

  it("is rebuilt when the tools change or another caller sees other tools", () => {
    const query = { query: "delete a repository", limit: 1 };
    const before = searchTools(buildCatalog(servers), query);
    // A tools/list_changed brings new tool objects: the renamed tool is found at once.
    const renamed = servers.map((s) => ({ ...s, tools: s.tools.map((t) => (before.startsWith(`${s.name}.`) && before.includes(`def ${t.name}(`) ? { ...t, name: "purge_everything" } : { ...t })) }));
    expect(searchTools(buildCatalog(renamed), query)).toContain("purge_everything");
    // A caller who may not see the first hit's server gets another hit.
    const server = before.split(".")[0]!;
    expect(searchTools(buildCatalog(servers, (s) => s !== server), query).startsWith(`${server}.`)).toBe(false);
  });
});
