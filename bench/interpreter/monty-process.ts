// Monty's process for bench:interpreter's fresh-process and start-up scenarios, the counterpart
// of `code-mode-exec FILE` and `python3 FILE`: loads Monty, runs the script, prints its RESULT
// as JSON. Usage: node dist/bench/interpreter/monty-process.js (FILE | -c CODE)
import { readFileSync } from "node:fs";
import { Monty } from "@pydantic/monty";
import { plain } from "./plain.js";

const [first, second] = process.argv.slice(2);
const source = first === "-c" && second !== undefined ? second : first !== undefined ? readFileSync(first, "utf8") : null;
if (source === null) {
  console.error("usage: monty-process.js (FILE | -c CODE)");
  process.exit(2);
}
console.log(JSON.stringify(plain(new Monty(`${source}\nRESULT\n`).run())));
