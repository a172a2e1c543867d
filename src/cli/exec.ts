#!/usr/bin/env node
// code-mode-exec: runs one script. Until the interpreter lands (issue #3) it only checks syntax:
// `code-mode-exec --check SCRIPT.py` prints the SyntaxError (if any) as JSON.
import { readFileSync } from "node:fs";
import { tryParse } from "../../grammar/parse.js";

const args = process.argv.slice(2);
if (args[0] !== "--check" || args.length !== 2) {
  process.stderr.write("usage: code-mode-exec --check SCRIPT.py   (running scripts arrives with the interpreter)\n");
  process.exit(2);
}
const source = args[1] === "-" ? readFileSync(0, "utf8") : readFileSync(args[1]!, "utf8");
const outcome = tryParse(source);
if (outcome.ok) {
  process.stdout.write(JSON.stringify({ ok: true, statements: outcome.module.body.length }) + "\n");
} else {
  process.stdout.write(JSON.stringify({ ok: false, error: outcome.error.toJSON() }) + "\n");
  process.stderr.write(outcome.error.format() + "\n");
  process.exit(1);
}
