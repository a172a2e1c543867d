// Scripts that once ended in an InternalError (the interpreter's own bug showing) raise CPython's
// error instead: the same type, and the same message where the sandbox words it as CPython does.
import { describe, expect, it } from "vitest";
import { execute } from "../../src/interpreter/execute.js";
import { cpython } from "./cpython.js";

/** A lone `*x` where CPython refuses it (the parser let these through to the compiler). */
const STARRED = [
  "*print(1)", "*a", "*a + 1", "x = *a", "x = a = *b", "*a = *b", "x += *a", "x: int = *a", "for x in *a: pass",
  "def f(): return *0", "def f():\n    return *0, 1\nRESULT = f()", "x = [*a for a in b]", "x = {*a for a in b}",
  "x = (*a for a in b)", "f(*a for a in b)", "x = {*a: 1}", "x = {*a: 1 for a in b}", "x = *a if b else c",
  "x = a[*b:1]", 'f"{*a}"', 'f"{x:{*a}}"',
  // The forms that stay valid.
  "a = [1, 2]\nx = *a,\nRESULT = x", "a = [1]\nRESULT = [*a, *a]", "a = [1]\nRESULT = f'{*a,}'",
  "a, *b = [1, 2, 3]\nRESULT = b", "*a, = [1]\nRESULT = a", "a = {1: 2}\nRESULT = a[*a,]", "a = {(1,): 2, (1, 2): 3}\nRESULT = [a[1,], a[1, 2,]]",
];

/** Methods that did not check their arguments. */
const ARGUMENTS = [
  "b''.decode(len)", "b''.decode('utf-8', len)", "b''.decode(1, 2, 3)", "b''.decode(errors=1)",
  "RESULT = b'ab'.decode(encoding='ascii')", "frozenset().issubset()", "frozenset({1}).issubset()",
  "set().issuperset()", "set().isdisjoint(1, 2)", "set().symmetric_difference()", "set().symmetric_difference_update()",
  "set().copy(1)", "set().pop(1)", "set().clear(1)", "set().add()", "set().discard(1, 2)", "frozenset().copy(1)",
  "RESULT = [set().union(), frozenset({1}).issubset([1, 2])]",
  // Siblings that took any arguments and ignored them.
  "(5).conjugate(1)", "(1.5).as_integer_ratio(1)", "(1.5).conjugate(1, 2)", "b'ab'.hex(1)", "b'ab'.hex('--')", "b'ab'.hex(b'--')",
  "b'ab'.hex('é')", "b'ab'.hex(':', 'x')", "b'ab'.hex(1, 2, 3)",
  "callable()", "callable(1, 2)", "callable(x=1)", "bytes(1, 1)", "bytes('a', 1)", "bytes(1, 'utf-8')", "bytes([1], errors='x')",
  "type([1], x=1)", "RESULT = [callable(len), callable(1), bytes('é', 'utf-8'), list(bytes(2))]",
  "RESULT = [b'abcde'.hex(':', 2), b'abcde'.hex(':', -2), b'abcdef'.hex(b'-', 2), b'ab'.hex(':', 0), b''.hex(':'), b'ab'.hex(sep=':')]",
];

describe("no InternalError where CPython raises its own error", () => {
  const cases = [...STARRED, ...ARGUMENTS];
  const theirs = cpython(cases);

  it.each(cases.map((c, i) => [c, i] as const))("%j", async (source, i) => {
    const ours = await execute(source);
    const expected = theirs[i]!;
    expect(ours.error?.type ?? null).toBe(expected.error?.type ?? null);
    if (!expected.error) expect(JSON.stringify(ours.result)).toBe(expected.result.replace(/\s/g, ""));
    // The messages agree except where CPython's parser words an error it finds later (`*a or 1`).
    else expect(ours.error!.message).toBe(expected.error.message);
  });

  it("refuses a top-level `return *0` as a SyntaxError", async () => {
    expect((await execute("return *0")).error?.type).toBe("SyntaxError");
  });
});
