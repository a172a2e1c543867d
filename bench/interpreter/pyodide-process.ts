// Pyodide's process for bench:interpreter's start-up scenario: loads Pyodide (offline, from
// node_modules), runs the script, prints its RESULT as JSON.
// Usage: node dist/bench/interpreter/pyodide-process.js (FILE | -c CODE)
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [first, second] = process.argv.slice(2);
const source = first === "-c" && second !== undefined ? second : first !== undefined ? readFileSync(first, "utf8") : null;
if (source === null) {
  console.error("usage: pyodide-process.js (FILE | -c CODE)");
  process.exit(2);
}
const pyodide = await loadPyodide();
pyodide.runPython(source);
const value = pyodide.globals.get("RESULT") as unknown;
const proxy = value && typeof value === "object" && "toJs" in value ? (value as { toJs(o: object): unknown }) : null;
console.log(JSON.stringify(proxy ? proxy.toJs({ dict_converter: Object.fromEntries }) : value));
