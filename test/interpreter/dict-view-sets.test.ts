// dict.keys() and dict.items() are set-like: `|`, `&`, `-` and `^` with a set, a frozenset or
// any iterable give a set, as in CPython; dict.values() is not set-like.
import { describe, expect, it } from "vitest";
import { execute } from "../../src/interpreter/execute.js";
import { cpython } from "./cpython.js";

const SNIPPETS = [
  "d = {1: 2, 3: 4}\nprint({1, 5} & d.keys(), d.keys() & {1}, d.keys() | [7], d.keys() - {1})",
  "d = {1: 2, 3: 4}\nprint(sorted({1} ^ d.keys()), frozenset({1}) & d.keys(), type(frozenset({1}) & d.keys()).__name__)",
  "d = {1: 2, 3: 4}\nprint(d.items() & {(1, 2)}, sorted(d.items() | [(5, 6)]), d.items() - d.items())",
  "d = {'a': 1}\ne = {'a': 2, 'b': 3}\nprint(d.keys() & e.keys(), sorted(d.keys() | e.keys()), e.keys() - d.keys())",
  "d = {1: 2}\nprint(d.values() & {1})",
  "d = {1: 2}\nprint(d.keys() & 5)",
  "d = {1: 2}\nprint(d.keys() | [[]])",
];

describe("set operations on dict views", () => {
  const expected = cpython(SNIPPETS);
  it.each(SNIPPETS.map((s, i) => [s, i] as const))("%j", async (source, i) => {
    const ours = await execute(source);
    expect(ours.stdout).toBe(expected[i]!.stdout);
    expect(ours.error?.type ?? null).toBe(expected[i]!.error?.type ?? null);
    if (ours.error) expect(ours.error.message).toBe(expected[i]!.error!.message);
  });
});

const EQUALITY = [
  "d = {1: 'a', 2: 'b'}\nprint(d.keys() == frozenset({1, 2}), {1, 2} == d.keys(), d.keys() == {1}, d.keys() != {1, 2}, d.keys() == {2: 0, 1: 0}.keys())",
  "d = {1: 'a'}\nprint(d.items() == {(1, 'a')}, d.items() == {(1, 'b')}, {1: []}.items() == {(1, 2), (3, 4)}, d.values() == {'a'}, d.keys() == [1])",
  "print({1: []}.items() == {1: []}.items(), {(1, 2)} == {1: 2}.items())",
  "print({1: []}.items() == {(1, 2)})",
  "print({(1, 2)} == {1: []}.items())",
];

describe("dict views compared with sets", () => {
  const expected = cpython(EQUALITY);
  it.each(EQUALITY.map((s, i) => [s, i] as const))("%j", async (source, i) => {
    const ours = await execute(source);
    expect(ours.error?.message ?? null).toBe(expected[i]!.error?.message ?? null);
    expect(ours.stdout).toBe(expected[i]!.stdout);
  });
});
