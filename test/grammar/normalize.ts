// Our AST in the shape test/grammar/cpython_ast.py gives CPython's, for differential tests.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ELLIPSIS } from "../../grammar/ast.js";

const SCRIPT = fileURLToPath(new URL("./cpython_ast.py", import.meta.url));
const POSITIONLESS = new Set(["Module", "comprehension"]);

function constant(v: unknown): unknown {
  if (v === null || typeof v === "boolean") return v;
  if (typeof v === "bigint") return `int:${v}`;
  if (typeof v === "number") {
    const b = Buffer.alloc(8);
    b.writeDoubleBE(v);
    return `float:${b.toString("hex")}`;
  }
  if (typeof v === "string") return `str:${v}`;
  if (v instanceof Uint8Array) return `bytes:${Buffer.from(v).toString("hex")}`;
  if (v === ELLIPSIS) return "...";
  throw new Error(`unexpected constant ${String(v)}`);
}

/**
 * Drops what CPython's AST does not have (Tuple.parenthesized, positions inside f-strings) and
 * turns our UTF-16 columns into CPython's UTF-8 byte columns.
 */
export function normalize(node: unknown, source: string): unknown {
  const lines = source.split(/\r\n|\r|\n/);
  const byteColumn = (line: number, col: number) => Buffer.byteLength((lines[line - 1] ?? "").slice(0, col - 1)) + 1;
  return normalizeNode(node, false, byteColumn);
}

function normalizeNode(node: unknown, inFString: boolean, byteColumn: (line: number, col: number) => number): unknown {
  const normalize = (n: unknown, f: boolean) => normalizeNode(n, f, byteColumn);
  if (Array.isArray(node)) return node.map((n) => normalize(n, inFString));
  if (node === null || typeof node !== "object") return node;
  const n = node as Record<string, unknown>;
  if (!("kind" in n)) {
    // Arguments: a plain record.
    const out: Record<string, unknown> = {};
    for (const key of ["posonlyargs", "args", "vararg", "kwonlyargs", "kwDefaults", "kwarg", "defaults"]) {
      out[key] = normalize(n[key], inFString);
    }
    return out;
  }
  const kind = n.kind as string;
  const fstring = inFString || kind === "JoinedStr";
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(n)) {
    if (key === "line" || key === "col" || key === "endLine" || key === "endCol" || key === "parenthesized") continue;
    out[key] = kind === "Constant" && key === "value" ? constant(value) : normalize(value, fstring);
  }
  if (!inFString && !POSITIONLESS.has(kind)) {
    const [line, col, endLine, endCol] = [n.line, n.col, n.endLine, n.endCol] as number[];
    out.pos = [line, byteColumn(line!, col!), endLine, byteColumn(endLine!, endCol!)];
  }
  return out;
}

/** CPython's normalized AST (or error) for each source. */
export function cpythonAsts(sources: string[]): unknown[] {
  const run = spawnSync("python3", [SCRIPT], { input: JSON.stringify(sources), maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr.toString()}`);
  return JSON.parse(run.stdout.toString()) as unknown[];
}
