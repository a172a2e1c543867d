// searchTools quality and speed on the real-16 catalog (16 public MCP servers, 487 tools): for
// the labelled queries of test/codemode/search-queries.ts (the 50 the ranking was tuned on, and
// 25 held out), recall@1, recall@5 and mean reciprocal rank, the time to build the index and the
// median time of one query; plain BM25 side by side with field weighting and synonyms.
//
//   npx tsc -p tsconfig.json && node dist/bench/search.js [--write]
//
// --write replaces the "bench:search" section of bench/RESULTS.md; --misses lists the queries
// whose tool was not ranked first.
//
// Also the size of what a search answers: o200k tokens of each brief hit (searchHit, the text
// searchTools prints per tool) over the default 10 hits of every labelled query, against the
// budget search.test.ts holds, and the same hits with the first sentence printed a second
// time below the signature, as searchTools did before issue 20.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { buildCatalog, type Catalog } from "../src/codemode/catalog.js";
import { searchHit } from "../src/codemode/meta-tools.js";
import { ToolSearch, type SearchTuning } from "../src/codemode/search.js";
import { firstSentence } from "../src/codemode/stubs.js";
import { BRIEF_HIT_P90_BUDGET, HELDOUT_QUERIES, SEARCH_QUERIES, type SearchQuery } from "../test/codemode/search-queries.js";
import { median, writeSection } from "./results.js";

const CATALOG = fileURLToPath(new URL("../../../shared/catalogs/real-16.json", import.meta.url));
const ROUNDS = 200;
const BUILDS = 10;

interface Variant {
  label: string;
  tuning: SearchTuning;
}

const VARIANTS: Variant[] = [
  { label: "BM25 (all fields alike)", tuning: { fields: "flat", synonyms: "none" } },
  { label: "BM25F (weighted fields)", tuning: { synonyms: "none" } },
  { label: "BM25F + verb synonyms", tuning: { synonyms: "verbs" } },
  { label: "BM25F + noun and verb synonyms", tuning: { synonyms: "all" } },
  { label: "BM25F + noun synonyms (default)", tuning: {} },
];

interface Quality {
  recallAt1: number;
  recallAt5: number;
  mrr: number;
  misses: string[];
}

interface Row {
  label: string;
  main: Quality;
  heldout: Quality;
  buildMs: number;
  medianUs: number;
}

function quality(search: ToolSearch, queries: readonly SearchQuery[]): Quality {
  let at1 = 0;
  let at5 = 0;
  let reciprocal = 0;
  const misses: string[] = [];
  for (const { query, expected } of queries) {
    const ranked = search.search(query, { limit: 50 }).map((h) => `${h.tool.server}.${h.tool.name}`);
    const rank = ranked.indexOf(expected) + 1;
    if (rank === 1) at1++;
    if (rank >= 1 && rank <= 5) at5++;
    if (rank >= 1) reciprocal += 1 / rank;
    if (rank !== 1) misses.push(`  ${JSON.stringify(query)}: ${expected} at ${rank || "-"}, top ${ranked[0] ?? "none"}`);
  }
  const n = queries.length;
  return { recallAt1: at1 / n, recallAt5: at5 / n, mrr: reciprocal / n, misses };
}

function measure(catalog: Catalog, variant: Variant): Row {
  const builds: number[] = [];
  let search = new ToolSearch(catalog, variant.tuning);
  for (let round = 0; round < BUILDS; round++) {
    const start = performance.now();
    search = new ToolSearch(catalog, variant.tuning);
    builds.push(performance.now() - start);
  }

  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const { query } of SEARCH_QUERIES) {
      const start = performance.now();
      search.search(query);
      times.push(performance.now() - start);
    }
  }

  return {
    label: variant.label,
    main: quality(search, SEARCH_QUERIES),
    heldout: quality(search, HELDOUT_QUERIES),
    buildMs: median(builds),
    medianUs: median(times) * 1000,
  };
}

function p90(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(sorted.length * 0.9) - 1)]!;
}

/** Tokens of each brief hit of the default search, over every labelled query. */
function hitTokens(catalog: Catalog): { now: number[]; repeated: number[] } {
  const search = new ToolSearch(catalog);
  const now: number[] = [];
  const repeated: number[] = [];
  for (const { query } of [...SEARCH_QUERIES, ...HELDOUT_QUERIES]) {
    for (const { tool } of search.search(query)) {
      const hit = searchHit(tool, "brief");
      const sentence = firstSentence(tool.description);
      now.push(encode(hit).length);
      repeated.push(encode(sentence ? `${hit}\n  ${sentence}` : hit).length);
    }
  }
  return { now, repeated };
}

function main(): void {
  const json = JSON.parse(readFileSync(CATALOG, "utf8")) as { servers: Parameters<typeof buildCatalog>[0] };
  const catalog = buildCatalog(json.servers);
  const toolCount = catalog.servers.reduce((sum, s) => sum + s.tools.length, 0);

  // A warm-up pass so that the first variant is not charged for JIT compilation.
  measure(catalog, VARIANTS[VARIANTS.length - 1]!);
  const rows = VARIANTS.map((variant) => measure(catalog, variant));

  const table = [
    "| Ranking | recall@1 | recall@5 | MRR | held-out recall@1 | held-out recall@5 | held-out MRR | index build | median query |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.label} | ${r.main.recallAt1.toFixed(2)} | ${r.main.recallAt5.toFixed(2)} | ${r.main.mrr.toFixed(3)} | ` +
        `${r.heldout.recallAt1.toFixed(2)} | ${r.heldout.recallAt5.toFixed(2)} | ${r.heldout.mrr.toFixed(3)} | ` +
        `${r.buildMs.toFixed(1)} ms | ${r.medianUs.toFixed(1)} µs |`,
    ),
  ].join("\n");
  const body = [
    `${SEARCH_QUERIES.length} labelled queries, and ${HELDOUT_QUERIES.length} held out from tuning ` +
      `(test/codemode/search-queries.ts), over real-16 (${catalog.servers.length} servers, ${toolCount} tools). ` +
      `Index build: median of ${BUILDS} builds; query: median of ${ROUNDS} x ${SEARCH_QUERIES.length} calls ` +
      `with the default limit.`,
    "",
    table,
    "",
    hitTable(catalog),
  ].join("\n");

  console.log(body);
  if (process.argv.includes("--misses")) {
    for (const row of rows) {
      for (const [set, q] of [["queries", row.main], ["held-out queries", row.heldout]] as const) {
        console.log(`\n${set} not ranked first by ${row.label} (${q.misses.length}):`);
        for (const miss of q.misses) console.log(miss);
      }
    }
  }

  if (process.argv.includes("--write")) {
    writeSection("bench:search", "searchTools ranking (real-16)", "npx tsc -p tsconfig.json && node dist/bench/search.js --write", body);
  }
}

function hitTable(catalog: Catalog): string {
  const { now, repeated } = hitTokens(catalog);
  const row = (label: string, v: number[]) => `| ${label} | ${median(v)} | ${p90(v)} | ${Math.max(...v)} | ${v.reduce((a, b) => a + b, 0)} |`;
  return [
    `Brief hits: o200k tokens of each hit searchTools prints (\`server.tool\`, a declared return type's one-level declaration, the signature line), over the default ` +
      `10 hits of the ${SEARCH_QUERIES.length + HELDOUT_QUERIES.length} labelled queries (${now.length} hits); ` +
      `budget ${BRIEF_HIT_P90_BUDGET} tokens at p90 (test/codemode/search.test.ts), **${p90(now) <= BRIEF_HIT_P90_BUDGET ? "met" : "missed"}**.`,
    "",
    "| brief hit | median | p90 | max | all hits |",
    "|---|---:|---:|---:|---:|",
    row("the description once (the signature's comment)", now),
    row("the first sentence repeated below it (before issue 20)", repeated),
  ].join("\n");
}

main();
