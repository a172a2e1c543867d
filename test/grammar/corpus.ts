// The public conformance suites in ../shared/conformance, read in place (never copied here).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const CONFORMANCE_DIR = fileURLToPath(new URL("../../../shared/conformance", import.meta.url));
export const hasConformance = existsSync(CONFORMANCE_DIR);

export interface Chunk {
  /** `starlark/go/int.star:12` or `monty/str__ops.py`. */
  name: string;
  source: string;
  /** The error this chunk is expected to raise (starlark `###`, monty `# Raise=`), if any. */
  expectedError: string | null;
}

/** The Monty programs of the suite in `dir`, one per file, by file name. */
export function montyFiles(dir = CONFORMANCE_DIR): { file: string; source: string }[] {
  const root = join(dir, "monty", "test_cases");
  return readdirSync(root)
    .filter((f) => f.endsWith(".py"))
    .sort()
    .map((file) => ({ file, source: readFileSync(join(root, file), "utf8") }));
}

/** Every chunk of the Starlark suite in `dir` (splitStarlark), with its file (`go/int.star`). */
export function starlarkFileChunks(dir = CONFORMANCE_DIR): { file: string; line: number; source: string; expectedError: string | null }[] {
  const root = join(dir, "starlark", "testdata");
  const chunks: { file: string; line: number; source: string; expectedError: string | null }[] = [];
  for (const impl of readdirSync(root).sort()) {
    for (const f of readdirSync(join(root, impl)).filter((n) => n.endsWith(".star")).sort()) {
      for (const chunk of splitStarlark(readFileSync(join(root, impl, f), "utf8"))) chunks.push({ file: `${impl}/${f}`, ...chunk });
    }
  }
  return chunks;
}

/** Monty cases: one program per file. */
export function montyChunks(): Chunk[] {
  return montyFiles().map(({ file, source }) => {
    const raise = /^# Raise=(.*)$/m.exec(source);
    const traceback = /"""\s*\nTRACEBACK:[\s\S]*\n(\w+(?:Error|Exception)?[^\n]*)\n"""\s*$/.exec(source);
    return { name: `monty/${file}`, source, expectedError: raise?.[1] ?? traceback?.[1] ?? null };
  });
}

/** Starlark cases: `---`-separated chunks; `code ### expectation` lines (untagged or `go:`). */
export function starlarkChunks(): Chunk[] {
  return starlarkFileChunks().map((c) => ({ name: `starlark/${c.file}:${c.line}`, source: c.source, expectedError: c.expectedError }));
}

/**
 * One Starlark test file's chunks: separated by `---` lines; `code ### expectation` keeps the code
 * and sets the chunk's expected error. Untagged and `go:` expectations are ours (the suite README's
 * policy); `java:` and `rust:` ones are ignored. `line` is the chunk's first line (1-based).
 */
export function splitStarlark(text: string): { line: number; source: string; expectedError: string | null }[] {
  const chunks: { line: number; source: string; expectedError: string | null }[] = [];
  let start = 0;
  let current: string[] = [];
  let expected: string | null = null;
  const flush = () => {
    chunks.push({ line: start + 1, source: current.join("\n") + "\n", expectedError: expected });
    current = [];
    expected = null;
  };
  text.split("\n").forEach((line, i) => {
    if (line.trimEnd() === "---") {
      flush();
      start = i + 1;
      return;
    }
    const at = line.indexOf("###");
    if (at >= 0) {
      const expectation = line.slice(at + 3).trim();
      const tagged = /^(go|java|rust):/.exec(expectation);
      if (!tagged || tagged[1] === "go") expected = tagged ? expectation.slice(3).trim() : expectation;
      current.push(line.slice(0, at).trimEnd());
    } else {
      current.push(line);
    }
  });
  flush();
  return chunks;
}
