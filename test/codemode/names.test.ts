// Canonical Python names of tools (SPEC §3), unique per server and reversible.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { keywords } from "../../grammar/tokens.js";
import { canonicalName, isIdentifier, ToolNames, toolNamesOf, toolsKey } from "../../src/codemode/names.js";

describe("tool names", () => {
  it.each([
    ["search_repos", "search_repos"],
    ["get-sum", "get_sum"],
    ["Get File Contents", "get_file_contents"],
    ["firecrawl.scrape!", "firecrawlscrape"],
    ["3d-render", "_3d_render"],
    ["import", "import_"],
    ["---", "___"],
    ["", "_"],
  ])("%j -> %s", (upstream, python) => {
    expect(canonicalName(upstream)).toBe(python);
    expect(isIdentifier(canonicalName(upstream))).toBe(true);
  });

  it("suffixes every hard keyword of the grammar, and leaves soft keywords (match, case, type, _) alone", () => {
    const lowercase = [...keywords.keys()].filter((k) => k === k.toLowerCase());
    expect(lowercase).toHaveLength(32);
    for (const keyword of lowercase) expect(canonicalName(keyword)).toBe(`${keyword}_`);
    expect(["async", "await", "nonlocal", "yield"].map(canonicalName)).toEqual(["async_", "await_", "nonlocal_", "yield_"]);
    expect(["match", "case", "type", "_"].map(canonicalName)).toEqual(["match", "case", "type", "_"]);
    expect(["match", "case", "type", "_"].every(isIdentifier)).toBe(true);
    // "None" lowercases to a name; the alias keeps the spelling only where it is not a keyword.
    expect(new ToolNames(["None", "match"]).entries()).toEqual([["none", "None"], ["match", "match"]]);
  });

  it("keeps names unique and reversible, and binds the original spelling as an alias", () => {
    const names = new ToolNames(["get-sum", "get_sum", "Get Sum", "listItems"]);
    expect(names.canonical("get-sum")).toBe("get_sum");
    expect(names.canonical("get_sum")).toBe("get_sum_2");
    expect(names.canonical("Get Sum")).toBe("get_sum_3");
    expect(names.canonical("listItems")).toBe("listitems");
    expect(names.upstream("listItems")).toBe("listItems");
    for (const [python, upstream] of names.entries()) expect(names.upstream(python)).toBe(upstream);
  });

  const catalog = fileURLToPath(new URL("../../../shared/catalogs/real-16.json", import.meta.url));
  it("gives every tool of the real catalogs a unique identifier that maps back", () => {
    let servers: { name: string; tools: { name: string }[] }[];
    try {
      servers = JSON.parse(readFileSync(catalog, "utf8")).servers;
    } catch {
      return; // the shared catalogs are not next to this checkout
    }
    let count = 0;
    for (const server of servers) {
      const names = new ToolNames(server.tools.map((t) => t.name));
      const seen = new Set<string>();
      for (const tool of server.tools) {
        const python = names.canonical(tool.name)!;
        expect(isIdentifier(python)).toBe(true);
        expect(seen.has(python)).toBe(false);
        seen.add(python);
        expect(names.upstream(python)).toBe(tool.name);
        count++;
      }
    }
    expect(count).toBe(487);
  });

  it("toolNamesOf names a list of tools as new ToolNames does, once for each list of tool objects", () => {
    const tools = ["get-sum", "get_sum", "Get Sum", "import", "3d"].map((name) => ({ name }));
    const names = toolNamesOf(tools);
    expect(names.entries()).toEqual(new ToolNames(tools.map((t) => t.name)).entries());
    // Another array of the same objects: the same ToolNames; a list that differs anywhere: another.
    expect(toolNamesOf([...tools])).toBe(names);
    expect(toolNamesOf(tools.slice(1))).not.toBe(names);
    expect(toolNamesOf(tools.slice(1)).canonical("get_sum")).toBe("get_sum");
    expect(names.canonical("get_sum")).toBe("get_sum_2");
    // New objects (a tools/list_changed), even of the same names: named afresh.
    const renamed = [{ name: "get-total" }, ...tools.slice(1)];
    expect(toolNamesOf(renamed).canonical("get-total")).toBe("get_total");
    expect(toolNamesOf(tools.map((t) => ({ ...t })))).not.toBe(names);
    expect(toolsKey(tools)).toBe(toolsKey([...tools]));
    expect(toolsKey(tools)).not.toBe(toolsKey(tools.slice().reverse()));
  });
});
