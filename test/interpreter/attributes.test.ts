// Attribute lookup sees only the dialect's own attributes: JavaScript's property names
// (`constructor`, `toString`, `__proto__`...) on every built-in function, type, module and value
// are an AttributeError with Python's message, through `x.name`, getattr, hasattr and str.format.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeBuiltins } from "../../src/interpreter/builtins.js";
import { execute } from "../../src/interpreter/execute.js";
import { getAttribute } from "../../src/interpreter/runtime.js";
import { Tensor } from "../../src/interpreter/tensor.js";
import { cpython } from "./cpython.js";

const JS_NAMES = [
  "constructor", "toString", "__proto__", "valueOf", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable",
  "toLocaleString", "__defineGetter__", "__lookupGetter__", "prototype", "call", "apply", "bind", "length", "name",
  "caller", "arguments", "then",
];
const isDunder = (n: string) => n.length > 4 && n.startsWith("__") && n.endsWith("__");
const withoutType = (message: unknown) => String(message).replace(/^AttributeError: (type object '\w+'|'\w+' object|module '\w+')/, "AttributeError: T");

/** Every built-in name the sandbox binds (functions, types, exceptions). */
const BUILTIN_NAMES = [...makeBuiltins({ getAttr: getAttribute }).keys()];

/** A value of each kind a script can hold, as an expression (defined after PRELUDE). */
const VALUES = [
  "1", "True", "None", "1.5", "10**30", "'s'", "b'b'", "[1]", "(1,)", "{'a': 1}", "{1}", "frozenset()", "range(3)",
  "slice(1)", "{}.keys()", "{}.values()", "{}.items()", "iter([])", "map(abs, [])", "filter(None, [])",
  "enumerate([])", "zip()", "reversed([])", "lambda: 0", "f", "ValueError('x')", "[].append", "'a'.join",
  "json", "math", "asyncio", "sys", "json.dumps", "math.pi", "KeyError", "Exception",
  ...BUILTIN_NAMES,
];
const PRELUDE = "import json, math, asyncio, sys\ndef f(): pass\n";

/** The outcome of each way of reading `name` of `expr`, as a list of strings. */
function probe(expr: string, names: readonly string[]): string {
  const lines = [PRELUDE, `X = ${expr}`, "out = []", "def err(e): return 'AttributeError: ' + str(e)"];
  for (const n of names) {
    const q = JSON.stringify(n);
    if (!isDunder(n)) lines.push(`try:\n    out.append('dot ' + repr(X.${n}))\nexcept AttributeError as e:\n    out.append(err(e))`);
    lines.push(`try:\n    out.append('getattr ' + repr(getattr(X, ${q})))\nexcept AttributeError as e:\n    out.append(err(e))`);
    lines.push(`out.append(getattr(X, ${q}, 'default'))`);
    lines.push(`out.append(hasattr(X, ${q}))`);
    lines.push(`try:\n    out.append('format ' + '{0.${n}}'.format(X))\nexcept AttributeError as e:\n    out.append(err(e))`);
  }
  lines.push("RESULT = out");
  return lines.join("\n");
}

describe("attributes are the dialect's own, never JavaScript's", () => {
  // CPython has none of the plain names either, so its answers are the oracle for them; the
  // dunder ones exist in CPython (`__proto__` does not, but `__class__` would), so ours are the
  // sandbox's refusal.
  const plain = JS_NAMES.filter((n) => !isDunder(n));
  const dunders = JS_NAMES.filter(isDunder);
  const theirs = cpython(VALUES.map((v) => probe(v, plain)));

  it.each(VALUES.map((v, i) => [v, i] as const))("on %s", async (expr, i) => {
    const ours = await execute(probe(expr, plain));
    expect(ours.error).toBeNull();
    const got = ours.result as unknown[];
    // Where python3 ran the probe, its answers are the oracle, up to how the type is named (the
    // sandbox's map, zip... are functions, CPython's are types); `AttributeError.name` exists in
    // CPython and is an AttributeError here.
    const expected = theirs[i]!.error ? null : (JSON.parse(theirs[i]!.result) as unknown[]);
    expect(got).toHaveLength(5 * plain.length - plain.filter(isDunder).length);
    got.forEach((g, j) => {
      const n = plain[Math.floor(j / 5)]!;
      if (typeof g === "boolean") expect(g, `hasattr(${expr}, ${n})`).toBe(false);
      else expect(g, `${expr}.${n}`).toMatch(new RegExp(`^(default|AttributeError: (type object '\\w+'|'\\w+' object|module '\\w+') has no attribute '${n}')$`));
      const e = expected?.[j];
      if (typeof e === "string" && e.startsWith("AttributeError")) expect(withoutType(g)).toBe(withoutType(e));
      else if (e === false || e === "default") expect(g).toBe(e);
    });
  });

  it.each(VALUES.map((v) => [v] as const))("refuses the dunder names on %s", async (expr) => {
    const ours = await execute(probe(expr, dunders));
    expect(ours.error).toBeNull();
    const out = ours.result as unknown[];
    const expected = dunders.flatMap((n) => [
      `AttributeError: attribute '${n}' is not accessible in the sandbox`,
      "default",
      false,
      `AttributeError: attribute '${n}' is not accessible in the sandbox`,
    ]);
    expect(out).toEqual(expected);
  });

  it("refuses `.__dunder__` syntax at parse time", async () => {
    for (const n of dunders) {
      const r = await execute(`RESULT = dict.${n}`);
      expect(r.error?.type).toBe("SyntaxError");
      expect(r.error?.message).toContain(`attribute '${n}' is not accessible in the sandbox`);
    }
  });

  it("on the workspace module, a server, its tools and a Tensor", async () => {
    const root = mkdtempSync(join(tmpdir(), "attrs-"));
    const tensor = new Tensor("float32", [2], [1], 0, new Uint8Array(8));
    const hosts = { srv: { tensor: async () => tensor, echo: async (a: unknown[]) => a[0] } };
    for (const expr of ["workspace", "workspace.read_text", "srv", "srv.echo", "srv.echo_async", "srv.tensor()"]) {
      const source = `import workspace\n${probe(expr, JS_NAMES).replace(PRELUDE, "")}`;
      const r = await execute(source, { hosts, workspace: { root } });
      expect(r.error).toBeNull();
      for (const item of r.result as unknown[]) {
        if (typeof item === "string") expect(item, `${expr}: ${item}`).toMatch(/^AttributeError: |^default$/);
        else expect(item, expr).toBe(false);
      }
    }
  });

  it("names the type in Python's words", async () => {
    const cases: [string, string][] = [
      ["dict.constructor", "type object 'dict' has no attribute 'constructor'"],
      ["str.toString", "type object 'str' has no attribute 'toString'"],
      ["ValueError.constructor", "type object 'ValueError' has no attribute 'constructor'"],
      ["json.constructor", "module 'json' has no attribute 'constructor'"],
    ];
    for (const [expr, message] of cases) {
      const r = await execute(`import json\nRESULT = ${expr}`);
      expect(r.error?.type).toBe("AttributeError");
      expect(r.error?.message).toBe(message);
    }
    // The type's own attributes are still there.
    expect((await execute("RESULT = [dict.fromkeys('ab'), str.maketrans('a', 'b')]")).result).toEqual([{ a: null, b: null }, { 97: 98 }]);
  });

  it("gives a NameError without JavaScript in its hints for names like `constructor`", async () => {
    for (const n of ["constructor", "toString", "valueOf"]) {
      const r = await execute(`RESULT = ${n}`);
      expect(r.error?.type).toBe("NameError");
      expect(r.error?.hints.join(" ")).not.toMatch(/native code|function/);
    }
  });
});
