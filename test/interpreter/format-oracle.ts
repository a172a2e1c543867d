// format(value, spec) and repr(value) against python3, for the format tests: every case of a
// table goes to ONE python3 process (floats as float.hex text, so no digit is lost), and ours must
// equal CPython's output, or raise CPython's exception type and message, and charge one step per
// character of a formatted output.
import { spawnSync } from "node:child_process";
import { PyException } from "../../src/interpreter/errors.js";
import { formatValue } from "../../src/interpreter/format.js";
import { repr, str } from "../../src/interpreter/repr.js";
import { PyFloat, type Value } from "../../src/interpreter/values.js";
import { disagreements } from "./cpython.js";
import { floatHex } from "./float-hex.js";
import { testContext } from "./native-context.js";

const ORACLE = `
import json, sys
def dec(v):
    kind, text = v
    if kind == 'float': return float.fromhex(text)
    if kind == 'int': return int(text)
    if kind == 'bool': return text == 'True'
    return text
out = []
for v, spec in json.load(sys.stdin):
    try:
        out.append(repr(dec(v)) if spec is None else format(dec(v), spec))
    except Exception as e:
        out.append([type(e).__name__, str(e)])
print(json.dumps(out))
`;

type Encoded = [kind: "float" | "int" | "bool" | "str", text: string];

function encode(v: Value): Encoded {
  if (v instanceof PyFloat) return ["float", floatHex(v.v)];
  if (typeof v === "number" || typeof v === "bigint") return ["int", String(v)];
  if (typeof v === "boolean") return ["bool", v ? "True" : "False"];
  if (typeof v === "string") return ["str", v];
  throw new Error(`cannot encode ${String(v)}`);
}

/** A case: format(value, spec), or repr(value) when spec is null. */
export type Case = [value: Value, spec: string | null];

/** CPython's text, or [exception type, message]. */
export type Outcome = string | [string, string];

/** CPython's outcome of each case. */
export function cpythonFormats(cases: Case[]): Outcome[] {
  const input = JSON.stringify(cases.map(([v, spec]) => [encode(v), spec]));
  const run = spawnSync("python3", ["-c", ORACLE], { input, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Outcome[];
}

/**
 * Ours, checked as it goes: a formatted output costs one step per character (the budget pays
 * for the output before building it), whichever path made it. (Grouped zero padding is charged
 * for the width: a separator can make CPython's output one character wider than asked.)
 */
function ours([value, spec]: Case): Outcome {
  if (spec === null) return repr(value);
  const ctx = testContext({ max_steps: 1_000_000_000 });
  try {
    const out = formatValue(ctx, value, spec);
    const steps = ctx.budget.steps;
    const grouped = /[,_]/.test(spec);
    if (spec !== "" && !grouped && steps !== [...out].length) return `charged ${steps} steps for ${JSON.stringify(out)}`;
    return out;
  } catch (e) {
    if (e instanceof PyException) return [e.type.name, e.message((v) => str(v), (v) => repr(v))];
    throw e;
  }
}

/** The cases where ours differs from CPython (empty when all agree). */
export function differences(cases: Case[]): string[] {
  return disagreements(cases, cpythonFormats(cases), ours, (c) => (c[1] === null ? `repr(${repr(c[0])})` : `format(${repr(c[0])}, ${JSON.stringify(c[1])})`));
}

/** Every value with every spec. */
export function cross(values: Value[], specs: (string | null)[]): Case[] {
  return values.flatMap((v) => specs.map((s): Case => [v, s]));
}

const bits = new DataView(new ArrayBuffer(8));

/** The double next to `x` away from zero (`up`) or towards it. */
export function neighbour(x: number, up: boolean): number {
  bits.setFloat64(0, x);
  bits.setBigUint64(0, bits.getBigUint64(0) + (up ? 1n : -1n));
  return bits.getFloat64(0);
}
