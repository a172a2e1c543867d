// The JS tier's unit texts kept across scripts (unit-texts.ts): each text's factory, and the last
// unit it made, held so that V8's optimized code for the text outlives the scripts that ran it
// (without a live unit, a full collection drops that code) unless its constants are heavy.
import { runInNewContext } from "node:vm";
import v8 from "node:v8";
import { describe, expect, it } from "vitest";
import { factoryOf } from "../../src/interpreter/unit-texts.js";
import { PyBytes } from "../../src/interpreter/values.js";

// gc() without --expose-gc on the command line: the flag set now exposes it to a new context.
v8.setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/**
 * A full collection once this job has ended: a WeakRef's target made in a job lives at least until
 * the job's end, whatever is collected in it.
 */
async function collect(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  gc();
}

type Unit = (n: number) => number;

let texts = 0;
/** A text no other test made: a unit adding C[0] n times. */
function newText(): string {
  texts++;
  return `"use strict";\nreturn function unit(n) { let s = 0; for (let i = 0; i < n; i++) s += C[0]; return s + ${texts} - ${texts}; };\n`;
}

/** Makes a unit of `text` with constants `c` in a frame of its own; a WeakRef to it, after a check that it runs. */
function made(text: string, c: unknown[]): WeakRef<Unit> {
  const maker = factoryOf<null, Unit>(text, false)!;
  const unit = maker.make(null, c);
  expect(unit(3)).toBe(3 * (c[0] as number));
  return new WeakRef(unit);
}

describe("the last unit of each text", () => {
  it("is held after its script has let go of it, until the next unit of its text replaces it", async () => {
    const text = newText();
    const first = made(text, [2]);
    await collect();
    expect(first.deref()).toBeDefined();
    const second = made(text, [5]);
    await collect();
    expect(first.deref()).toBeUndefined();
    expect(second.deref()).toBeDefined();
  });

  it("is not held when its constants are heavy: a bytes literal or a big int of more than 4096", async () => {
    for (const heavy of [new PyBytes(new Uint8Array(5000)), 1n << 20_000n, "x".repeat(5000)]) {
      const text = newText();
      const light = made(text, [1]);
      const held = made(text, [1, heavy]);
      await collect();
      // The heavy unit replaced the light one as its text's last, and is not held either.
      expect(light.deref()).toBeUndefined();
      expect(held.deref()).toBeUndefined();
    }
  });

  it("is held per text: a unit of another text does not replace it", async () => {
    const a = newText();
    const b = newText();
    const ofA = made(a, [1]);
    const ofB = made(b, [1]);
    await collect();
    expect(ofA.deref()).toBeDefined();
    expect(ofB.deref()).toBeDefined();
  });

  it("shares the text's factory: a text made before is not fresh", () => {
    const text = newText();
    expect(factoryOf(text, false)!.fresh).toBe(true);
    expect(factoryOf(text, false)!.fresh).toBe(false);
    // Asked for a known shape only, a text never made nor seen is not compiled.
    expect(factoryOf(newText(), true)).toBeNull();
  });
});
