// CPython's verdict on Python texts (the stubs must pass `ast.parse`), for the stub tests.
import { spawnSync } from "node:child_process";

export const hasPython = spawnSync("python3", ["--version"]).status === 0;

/** CPython's verdict on each text (null: ast.parse accepts it, warnings counted as errors). */
export function pythonErrors(texts: string[]): (string | null)[] {
  const script = [
    "import ast, json, sys, warnings",
    "warnings.simplefilter('error')",
    "out = []",
    "for text in json.load(sys.stdin):",
    "    try:",
    "        ast.parse(text)",
    "        out.append(None)",
    "    except SyntaxError as e:",
    "        out.append(f'{e.msg} (line {e.lineno}): {e.text!r}')",
    "    except Exception as e:",
    "        out.append(f'{type(e).__name__}: {e}')",
    "print(json.dumps(out))",
  ].join("\n");
  const run = spawnSync("python3", ["-c", script], { input: JSON.stringify(texts), maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(run.stderr.toString());
  return JSON.parse(run.stdout.toString()) as (string | null)[];
}
