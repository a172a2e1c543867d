// searchTools ranking (SPEC §4): how text becomes terms, what a search returns, and how well it
// ranks the real catalog's tools for the labelled queries of search-queries.ts.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { buildCatalog, type Catalog } from "../../src/codemode/catalog.js";
import { searchHit } from "../../src/codemode/meta-tools.js";
import { DEFAULT_LIMIT, MAX_LIMIT, stem, tokenize, ToolSearch } from "../../src/codemode/search.js";
import { firstSentence } from "../../src/codemode/stubs.js";
import { BRIEF_HIT_P90_BUDGET, HELDOUT_QUERIES, SEARCH_QUERIES, type SearchQuery } from "./search-queries.js";

interface ToolSpec {
  name: string;
  description?: string;
  title?: string;
  params?: Record<string, string>;
}

function catalogOf(servers: Record<string, ToolSpec[]>): Catalog {
  return buildCatalog(
    Object.entries(servers).map(([name, tools]) => ({
      name,
      instructions: null,
      tools: tools.map((t) => ({
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: {
          type: "object" as const,
          properties: Object.fromEntries(
            Object.entries(t.params ?? {}).map(([param, description]) => [param, { type: "string", description }]),
          ),
        },
      })),
    })),
  );
}

const ids = (hits: { tool: { server: string; name: string } }[]) => hits.map((h) => `${h.tool.server}.${h.tool.name}`);

describe("stemming", () => {
  it.each([
    ["repositories", "repository"],
    ["searching", "search"],
    ["searches", "search"],
    ["created", "create"],
    ["creating", "create"],
    ["branches", "branch"],
    ["directories", "directory"],
    ["files", "file"],
    ["running", "run"],
    ["copied", "copy"],
    ["diffs", "diff"],
  ])("%s and %s share a stem", (inflected, base) => {
    expect(stem(inflected)).toBe(stem(base));
  });

  it("leaves words alone that only look inflected", () => {
    expect(stem("news")).not.toBe(stem("new"));
    expect(stem("status")).toBe("status");
    expect(stem("address")).toBe("address");
    expect(stem("string")).toBe("string");
  });
});

describe("tokenize", () => {
  it("splits on _, -, ., spaces, camelCase humps and digits, in lowercase", () => {
    expect(tokenize("list_merge-request.pipelines")).toEqual(["list", "merg", "request", "pipelin"]);
    expect(tokenize("page_size maxResults")).toEqual(["pag", "siz", "maxresult", "max", "result"]);
    expect(tokenize("v2/parse base64")).toEqual(["pars", "bas", "64"]);
  });

  it("keeps a mixed-case word whole as well as its humps", () => {
    expect(tokenize("GitHub")).toEqual(["github", "git", "hub"]);
    expect(tokenize("HTTPServer")).toEqual(["httpserver", "http", "server"]);
  });

  it("drops stopwords and one-letter words", () => {
    expect(tokenize("How do I get the list of all the x values?")).toEqual(["get", "list", "all", "valu"]);
    expect(tokenize("what is it for")).toEqual([]);
  });
});

describe("ToolSearch", () => {
  const catalog = catalogOf({
    github: [
      { name: "search_repositories", description: "Search for GitHub repositories", params: { query: "Search query" } },
      { name: "create_issue", description: "Create a new issue in a GitHub repository", params: { title: "Issue title" } },
      { name: "get_file_contents", description: "Get the contents of a file from a repository", params: { path: "File path" } },
    ],
    filesystem: [
      { name: "create_directory", title: "Create Directory", description: "Create a new directory", params: { path: "Path" } },
      { name: "read_text_file", description: "Read the complete contents of a file as text", params: { path: "Path" } },
      { name: "move_file", description: "Move or rename files and directories", params: { source: "From", destination: "To" } },
    ],
    Slack: [
      { name: "slack_post_message", description: "Post a new message to a Slack channel", params: { channel_id: "Channel" } },
      { name: "slack_get_users", description: "Get a list of all users in the workspace", params: { cursor: "Page cursor" } },
    ],
  });
  const search = new ToolSearch(catalog);

  it("ranks a tool whose name matches above one that only mentions the word", () => {
    const hits = ids(search.search("create issue"));
    expect(hits[0]).toBe("github.create_issue");
    expect(hits).toContain("filesystem.create_directory");
  });

  it("matches inflected forms of the catalog's words", () => {
    expect(ids(search.search("repository search"))[0]).toBe("github.search_repositories");
    expect(ids(search.search("renaming"))[0]).toBe("filesystem.move_file");
  });

  it("matches parameter names and descriptions", () => {
    expect(ids(search.search("destination"))).toEqual(["filesystem.move_file"]);
    expect(ids(search.search("cursor"))).toEqual(["Slack.slack_get_users"]);
  });

  it("finds a tool by its camelCase or snake_case name", () => {
    expect(ids(search.search("getFileContents"))[0]).toBe("github.get_file_contents");
    expect(ids(search.search("slack_post_message"))[0]).toBe("Slack.slack_post_message");
  });

  it("expands nouns that services spell differently", () => {
    expect(ids(search.search("make a folder"))[0]).toBe("filesystem.create_directory");
  });

  it("returns hits best first, with positive scores", () => {
    const hits = search.search("file contents");
    expect(hits.length).toBeGreaterThan(1);
    for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
    expect(hits.every((h) => h.score > 0)).toBe(true);
  });

  it("filters by server, case-insensitively", () => {
    expect(ids(search.search("create", { server: "FileSystem" }))).toEqual(["filesystem.create_directory"]);
    expect(ids(search.search("message", { server: "slack" }))).toEqual(["Slack.slack_post_message"]);
    expect(search.search("create", { server: "gitlab" })).toEqual([]);
  });

  it("returns nothing for an empty or stopword-only query, or one that matches nothing", () => {
    expect(search.search("")).toEqual([]);
    expect(search.search("   ")).toEqual([]);
    expect(search.search("how do I do it?")).toEqual([]);
    expect(search.search("kubernetes")).toEqual([]);
  });

  it("breaks ties in catalog order", () => {
    const twins = new ToolSearch(catalogOf({ b: [{ name: "ping" }], a: [{ name: "ping" }, { name: "ping_pong" }] }));
    expect(ids(twins.search("ping"))).toEqual(["a.ping", "b.ping", "a.ping_pong"]);
  });

  describe("limits", () => {
    const many = new ToolSearch(
      catalogOf({ big: Array.from({ length: 80 }, (_, i) => ({ name: `widget_${i}`, description: "Frobnicate a widget" })) }),
    );

    it(`returns ${DEFAULT_LIMIT} hits by default`, () => {
      expect(many.search("widget")).toHaveLength(DEFAULT_LIMIT);
    });

    it(`returns at most ${MAX_LIMIT} hits, and at least one`, () => {
      expect(many.search("widget", { limit: 3 })).toHaveLength(3);
      expect(many.search("widget", { limit: 1000 })).toHaveLength(MAX_LIMIT);
      expect(many.search("widget", { limit: 0 })).toHaveLength(1);
      expect(many.search("widget", { limit: Number.NaN })).toHaveLength(DEFAULT_LIMIT);
    });
  });
});

// The real catalog lives next to this checkout in /work/shared; elsewhere these tests skip.
const REAL_16 = fileURLToPath(new URL("../../../shared/catalogs/real-16.json", import.meta.url));

describe.skipIf(!existsSync(REAL_16))("ranking quality on real-16", () => {
  const load = () => buildCatalog(JSON.parse(readFileSync(REAL_16, "utf8")).servers);

  function recall(search: ToolSearch, queries: readonly SearchQuery[]) {
    let at1 = 0;
    let at5 = 0;
    for (const { query, expected } of queries) {
      const rank = ids(search.search(query, { limit: 5 })).indexOf(expected) + 1;
      if (rank === 1) at1++;
      if (rank >= 1) at5++;
    }
    return { at1: at1 / queries.length, at5: at5 / queries.length };
  }

  it("labels 50 queries with tools that exist", () => {
    const known = new Set(load().servers.flatMap((s) => s.tools.map((t) => `${s.name}.${t.name}`)));
    expect(SEARCH_QUERIES).toHaveLength(50);
    for (const { expected } of [...SEARCH_QUERIES, ...HELDOUT_QUERIES]) expect(known, expected).toContain(expected);
  });

  it("ranks the expected tool in the top 5 for at least 90% of the queries", () => {
    const search = new ToolSearch(load());
    const main = recall(search, SEARCH_QUERIES);
    const heldout = recall(search, HELDOUT_QUERIES);
    console.log(
      `searchTools on real-16: recall@1 ${main.at1.toFixed(2)}, recall@5 ${main.at5.toFixed(2)} ` +
        `(held-out: recall@1 ${heldout.at1.toFixed(2)}, recall@5 ${heldout.at5.toFixed(2)})`,
    );
    expect(main.at5).toBeGreaterThanOrEqual(0.9);
    expect(main.at1).toBeGreaterThanOrEqual(0.7);
  });

  it("answers a query in well under a millisecond", () => {
    const search = new ToolSearch(load());
    const times: number[] = [];
    for (let round = 0; round < 20; round++) {
      for (const { query } of SEARCH_QUERIES) {
        const start = performance.now();
        search.search(query);
        times.push(performance.now() - start);
      }
    }
    times.sort((a, b) => a - b);
    expect(times[times.length >> 1]).toBeLessThan(1);
  });

  it(`prints each brief hit's description once, within ${BRIEF_HIT_P90_BUDGET} tokens at p90`, () => {
    const search = new ToolSearch(load());
    const sizes: number[] = [];
    for (const { query } of [...SEARCH_QUERIES, ...HELDOUT_QUERIES]) {
      for (const { tool } of search.search(query)) {
        const hit = searchHit(tool, "brief");
        const sentence = firstSentence(tool.description);
        if (sentence) expect(hit.split(sentence).length - 1, hit).toBe(1);
        // server.tool, the declaration of a declared return type, the signature.
        expect(hit.split("\n")).toHaveLength(tool.outputSchema ? 3 : 2);
        sizes.push(encode(hit).length);
      }
    }
    sizes.sort((a, b) => a - b);
    expect(sizes).toHaveLength(750);
    expect(sizes[Math.ceil(sizes.length * 0.9) - 1]).toBeLessThanOrEqual(BRIEF_HIT_P90_BUDGET);
  });
});
