// searchTools (SPEC §4): ranked keyword retrieval over a Catalog.
//
// Scoring is BM25F: a term's frequency in each field of a tool (name, description, parameters...)
// is normalised by that field's length, weighted by the field, summed, and only then saturated,
// so a word in a tool's name counts for more than the same word deep in a long description, and
// repeating a word across fields never outweighs matching another query word. Everything that
// depends only on the catalog is computed once, in the constructor: each term's saturated,
// IDF-weighted contribution to each tool. A query only sums the contributions of its own terms.
import type { Catalog, CatalogTool } from "./catalog.js";

export interface SearchHit {
  tool: CatalogTool;
  score: number;
  /** The tool's place in the catalog's order (servers, then each server's tools). */
  position: number;
}

export interface SearchOptions {
  /** Only this server's tools (case-insensitive). */
  server?: string;
  /** How many hits at most: default 10, clamped to 1..50. */
  limit?: number;
}

/** Ranking variants, so that bench/search.ts can measure each refinement against plain BM25. */
export interface SearchTuning {
  /** Which synonym groups expand a query: the nouns (default), the API verbs, all, or none. */
  synonyms?: "all" | "nouns" | "verbs" | "none";
  /** Per-field weights and length normalisation (default), or every field alike (plain BM25). */
  fields?: "weighted" | "flat";
}

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 50;

// ---------------------------------------------------------------------------------------------
// Text to terms

// Function words, and the filler of requests ("how do I ...") and of tool descriptions ("use
// this tool to ..."). Kept small: words like "all", "new" or "up" can carry meaning in a name.
const STOPWORDS = new Set(
  (
    "a an the and or but nor of to in on at by for from with without into onto via through as is are am was " +
    "were be been being it its this that these those there here than then so such if else when while which " +
    "who whom whose what where how why do does did done can could should would will shall may might must i " +
    "me my mine we us our you your he she they them their his her want wants need needs please let some any " +
    "each every more already also just only not no tool tools use used uses using"
  ).split(" "),
);

// Words the suffix rules would damage ("news" is not the plural of "new").
const UNSTEMMED = new Set(["news", "series", "always", "alias", "canvas", "status", "species", "analysis"]);

/**
 * A light suffix stripper, applied alike to the catalog and to queries: plurals ("repositories"
 * -> repository, "branches" -> branch), -ing and -ed ("searching" -> search, "created" -> creat),
 * a final silent e ("create" -> creat, so that it meets "created"), and a doubled final consonant
 * ("running" -> run). Stems need not be words, only agree with each other.
 */
export function stem(word: string): string {
  if (UNSTEMMED.has(word)) return word;
  let w = word;
  if (w.length > 4 && w.endsWith("ies")) w = w.slice(0, -3) + "y";
  else if (w.length > 3 && w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);

  if (w.length > 4 && w.endsWith("ied")) w = w.slice(0, -3) + "y";
  else {
    const suffix = w.endsWith("ing") ? 3 : w.endsWith("ed") ? 2 : 0;
    const base = w.slice(0, w.length - suffix);
    if (suffix > 0 && base.length >= 3 && /[aeiouy]/.test(base)) w = base;
  }

  if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1);
  if (w.length > 3 && /([^aeiouylsz])\1$/.test(w)) w = w.slice(0, -1);
  return w;
}

// The term of each word seen so far (undefined for a stopword): catalogs repeat their words, and
// stemming each occurrence again was most of the time spent building an index. Bounded, since
// queries can bring any number of new words.
const TERMS = new Map<string, string | undefined>();
const TERMS_MAX = 100_000;

/** A lowercase word's search term, or undefined for a stopword or a one-letter word. */
function termOf(word: string): string | undefined {
  let term = TERMS.get(word);
  if (term === undefined && !TERMS.has(word)) {
    term = word.length < 2 || STOPWORDS.has(word) ? undefined : stem(word);
    if (TERMS.size >= TERMS_MAX) TERMS.clear();
    TERMS.set(word, term);
  }
  return term;
}

const SEPARATORS = /[^A-Za-z0-9]+/;
const HUMPS = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;

/**
 * Calls `emit` with each word of `text`, lowercase: words are split on anything that is not a
 * letter or digit (so `_`, `-`, `.` and spaces), then into camelCase humps and digit runs
 * ("getFileInfo" -> get, file, info; "HTTPServer" -> http, server; "base64" -> base, 64).
 * `whole` also receives each mixed-case word unsplit, and decides whether its humps are emitted.
 */
function eachWord(text: string, emit: (word: string) => void, whole?: (word: string) => boolean): void {
  for (const chunk of text.split(SEPARATORS)) {
    if (chunk === "") continue;
    if (/^[a-z]+$/.test(chunk)) {
      emit(chunk);
      continue;
    }
    const humps = chunk.match(HUMPS) ?? [];
    const mixedCase = humps.length > 1 && /[a-z]/.test(chunk) && /[A-Z]/.test(chunk) && !/[0-9]/.test(chunk);
    if (mixedCase && whole !== undefined && !whole(chunk.toLowerCase())) continue;
    for (const hump of humps) emit(hump.toLowerCase());
  }
}

/**
 * The search terms of a text: its words (split as above), stopwords and one-letter words dropped,
 * stemmed. A camelCase word also yields itself whole, so "GitHub" gives git, hub and github, and
 * matches both the server named "github" and a query for "git".
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const push = (word: string) => {
    const term = termOf(word);
    if (term !== undefined) out.push(term);
  };
  eachWord(text, push, (whole) => {
    push(whole);
    return true;
  });
  return out;
}

// Words that mean the same in requests for tools. A query word from a group also searches for
// the others, at a weight below 1, so that a tool using the query's own word still ranks first.
// The nouns are near-equivalents that services spell differently (a "folder" is a directory to a
// filesystem server, an "email" is mail to Microsoft Graph). The API verbs are off by default:
// tool names and requests already use the common ones, and "remove" is not always "delete" (it
// made "delete an issue" find "remove an emoji reaction"); on the labelled queries they changed
// nothing at weight 0.3 and lost hits above it (bench/search.ts).
const NOUN_GROUPS = [
  ["folder", "directory", "dir"],
  ["email", "mail"],
  ["issue", "bug", "ticket"],
  ["repository", "repo"],
];
const NOUN_WEIGHT = 0.7;
const VERB_GROUPS = [
  ["get", "fetch", "read", "retrieve", "obtain", "view", "show"],
  ["list", "enumerate"],
  ["create", "add", "new", "make", "insert", "open"],
  ["delete", "remove", "erase", "destroy"],
  ["update", "edit", "modify", "change", "patch"],
  ["search", "find", "query", "lookup"],
  ["send", "post"],
];
const VERB_WEIGHT = 0.3;

type Synonyms = ReadonlyMap<string, ReadonlyMap<string, number>>;

function synonymTable(...tables: [groups: string[][], weight: number][]): Synonyms {
  const table = new Map<string, Map<string, number>>();
  for (const [groups, weight] of tables) {
    for (const group of groups) {
      const stems = group.map(stem);
      for (const s of stems) {
        const synonyms = table.get(s) ?? new Map<string, number>();
        for (const other of stems) if (other !== s) synonyms.set(other, weight);
        table.set(s, synonyms);
      }
    }
  }
  return table;
}

const SYNONYMS: Record<NonNullable<SearchTuning["synonyms"]>, Synonyms> = {
  all: synonymTable([NOUN_GROUPS, NOUN_WEIGHT], [VERB_GROUPS, VERB_WEIGHT]),
  nouns: synonymTable([NOUN_GROUPS, NOUN_WEIGHT]),
  verbs: synonymTable([VERB_GROUPS, VERB_WEIGHT]),
  none: synonymTable(),
};

// ---------------------------------------------------------------------------------------------
// The fields of a tool

interface Field {
  /** Its weight relative to the description. */
  weight: number;
  /** BM25 length normalisation: 0 ignores the field's length, 1 divides by it fully. */
  b: number;
}

// In the order of fieldTerms' result.
const FIELDS: readonly Field[] = [
  { weight: 1.5, b: 0 }, // server name
  { weight: 4, b: 0.3 }, // tool name (upstream and Python)
  { weight: 2, b: 0.3 }, // title
  { weight: 1.5, b: 0.5 }, // the description's first sentence (on top of the description)
  { weight: 1, b: 0.75 }, // description
  { weight: 1, b: 0.5 }, // parameter names
  { weight: 0.4, b: 0.75 }, // parameter descriptions
];
const FLAT: readonly Field[] = FIELDS.map(() => ({ weight: 1, b: 0.75 }));

// BM25 term-frequency saturation: a term's 2nd occurrence adds much less than its 1st.
const K1 = 1.2;

/** The terms of each field of a tool, in FIELDS order. */
function fieldTerms(tool: CatalogTool): string[][] {
  const server = tokenize(tool.server);
  const name = [...new Set([...tokenize(tool.name), ...tokenize(tool.python)])];
  // The title's other words only: many servers repeat the tool's name as its title ("send-mail")
  // or the server's ("Notion"), which would count those words twice for their tools alone.
  const annotated = tool.annotations?.["title"];
  const known = new Set([...server, ...name]);
  const title = tokenize(tool.title ?? (typeof annotated === "string" ? annotated : "")).filter((t) => !known.has(t));
  // Without fenced code examples: those repeat argument names and other tools' names
  // ("name": "firecrawl_map"), which say nothing of what this tool does.
  const prose = (tool.description ?? "").replace(/```[\s\S]*?(```|$)/g, " ").trim();
  const end = prose.search(/[.!?](\s|$)|\n/);
  const parameters = parametersOf(tool.inputSchema);
  return [
    server,
    name,
    title,
    tokenize(end < 0 ? prose : prose.slice(0, end)),
    tokenize(prose),
    parameters.flatMap((p) => tokenize(p.name)),
    parameters.flatMap((p) => tokenize(p.description)),
  ];
}

interface Parameter {
  name: string;
  description: string;
}

// The parameters at the top of the input schema and one level down (an object's properties, an
// array's items'), e.g. the `name` and `entityType` of each entity passed to create_entities.
function parametersOf(schema: unknown, depth = 0): Parameter[] {
  if (!isObject(schema) || !isObject(schema["properties"]) || depth > 1) return [];
  const out: Parameter[] = [];
  for (const [name, value] of Object.entries(schema["properties"])) {
    if (!isObject(value)) continue;
    out.push({ name, description: typeof value["description"] === "string" ? value["description"] : "" });
    out.push(...parametersOf(value, depth + 1), ...parametersOf(value["items"], depth + 1));
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------
// The index

/** The tools a term occurs in, each with the term's share of that tool's score. */
interface Postings {
  docs: number[];
  impacts: number[];
}

export class ToolSearch {
  private readonly tools: CatalogTool[];
  private readonly servers: string[];
  private readonly postings = new Map<string, Postings>();
  private readonly synonyms: Synonyms;

  constructor(catalog: Catalog, tuning: SearchTuning = {}) {
    this.synonyms = SYNONYMS[tuning.synonyms ?? "nouns"];
    const fields = tuning.fields === "flat" ? FLAT : FIELDS;
    this.tools = catalog.servers.flatMap((s) => s.tools);
    this.servers = this.tools.map((t) => t.server.toLowerCase());

    const terms = this.tools.map(fieldTerms);
    const averageLength = fields.map((_, f) => {
      const total = terms.reduce((sum, perField) => sum + perField[f]!.length, 0);
      return total / Math.max(1, terms.length) || 1;
    });

    // Each tool's length-normalised, field-weighted term frequencies, summed over its fields.
    const frequencies = new Map<string, { docs: number[]; tfs: number[] }>();
    terms.forEach((perField, doc) => {
      const tf = new Map<string, number>();
      perField.forEach((fieldTerms, f) => {
        const { weight, b } = fields[f]!;
        const norm = weight / (1 - b + (b * fieldTerms.length) / averageLength[f]!);
        for (const term of fieldTerms) tf.set(term, (tf.get(term) ?? 0) + norm);
      });
      for (const [term, frequency] of tf) {
        let list = frequencies.get(term);
        if (list === undefined) frequencies.set(term, (list = { docs: [], tfs: [] }));
        list.docs.push(doc);
        list.tfs.push(frequency);
      }
    });

    const n = this.tools.length;
    for (const [term, { docs, tfs }] of frequencies) {
      const idf = Math.log(1 + (n - docs.length + 0.5) / (docs.length + 0.5));
      this.postings.set(term, { docs, impacts: tfs.map((tf) => (idf * tf * (K1 + 1)) / (K1 + tf)) });
    }
  }

  /** The tools that best match `query`, best first; [] when the query has no searchable word. */
  search(query: string, options: SearchOptions = {}): SearchHit[] {
    const limit = clampLimit(options.limit);
    const server = options.server?.trim().toLowerCase() || undefined;
    const weights = this.queryWeights(query);
    if (weights.size === 0) return [];

    const scores = new Float64Array(this.tools.length);
    for (const [term, weight] of weights) {
      const postings = this.postings.get(term);
      if (postings === undefined) continue;
      const { docs, impacts } = postings;
      for (let i = 0; i < docs.length; i++) scores[docs[i]!]! += weight * impacts[i]!;
    }

    const hits: number[] = [];
    for (let doc = 0; doc < scores.length; doc++) {
      if (scores[doc]! > 0 && (server === undefined || this.servers[doc] === server)) hits.push(doc);
    }
    // Ties go to catalog order: servers by name, each server's tools in the order it lists them.
    hits.sort((a, b) => scores[b]! - scores[a]! || a - b);
    return hits.slice(0, limit).map((doc) => ({ tool: this.tools[doc]!, score: scores[doc]!, position: doc }));
  }

  /** The query's terms and their weights: 1 for its own words, less for their synonyms. */
  private queryWeights(query: string): Map<string, number> {
    const weights = new Map<string, number>();
    const add = (term: string, weight: number) => {
      if (weight > (weights.get(term) ?? 0)) weights.set(term, weight);
    };
    const addWord = (word: string) => {
      const term = termOf(word);
      if (term === undefined) return;
      add(term, 1);
      for (const [synonym, weight] of this.synonyms.get(term) ?? []) add(synonym, weight);
    };
    // A camelCase word stands for itself when the catalog knows it whole ("GitHub"), and for its
    // humps otherwise ("getFileInfo"): looking for "git" and "hub" as well would only add noise.
    eachWord(query, addWord, (whole) => {
      const term = termOf(whole);
      if (term === undefined || !this.postings.has(term)) return true;
      addWord(whole);
      return false;
    });
    return weights;
  }
}

function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_LIMIT;
  return Math.min(MAX_LIMIT, Math.max(1, Math.floor(limit)));
}
