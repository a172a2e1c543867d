// The value protocols of values.ts' PyObject: a value type that implements them takes part in
// len(), iteration, subscripts, `in`, attributes and the host boundary, and the operations never
// name it (this is how a Tensor is reached). A made-up type here, handed in by a host.
import { describe, expect, it } from "vitest";
import { pyError } from "../../src/interpreter/errors.js";
import { execute } from "../../src/interpreter/execute.js";
import { DONE } from "../../src/interpreter/objects.js";
import { PyObject, type Value } from "../../src/interpreter/values.js";

/** The numbers 0..n-1 with a name and, maybe, a wire form. */
class Span extends PyObject {
  constructor(
    readonly n: number,
    readonly wire: string | null,
  ) {
    super();
  }
  get typeName(): string {
    return "Span";
  }
  override pyLen(): number {
    return this.n;
  }
  override pyIter(): () => Value | typeof DONE {
    let i = 0;
    return () => (i < this.n ? i++ : DONE);
  }
  override pyGetItem(key: Value): Value {
    if (typeof key !== "number" || key < 0 || key >= this.n) throw pyError("IndexError", "Span index out of range");
    return key;
  }
  override pyAttr(name: string): Value | undefined {
    return name === "size" ? this.n : undefined;
  }
  override pyWire(what: string, strict: boolean): string | null {
    if (this.wire === null && strict) throw pyError("TypeError", `${what} cannot hold a Span without a wire form`);
    return this.wire;
  }
}

function run(code: string, wire: string | null = "span:4") {
  const sent: unknown[] = [];
  const hosts = {
    src: { get: async () => new Span(4, wire) },
    sink: { put: async (args: unknown[], kwargs: Record<string, unknown>) => (sent.push(kwargs.value ?? args[0]), "ok") },
  };
  return execute(`s = src.get()\n${code}`, { hosts }).then((result) => ({ result, sent }));
}

describe("a value type with the protocols", () => {
  it("has len, iteration, subscripts, `in` (by iterating) and its own attributes", async () => {
    const { result } = await run("RESULT = [len(s), list(s), s[2], 3 in s, 9 in s, s.size, sum(x * x for x in s)]");
    expect(result.error).toBeNull();
    expect(result.result).toEqual([4, [0, 1, 2, 3], 2, true, false, 4, 14]);
  });

  it("raises its own errors, and AttributeError for a name it does not have", async () => {
    expect((await run("s[7]")).result.error?.message).toBe("Span index out of range");
    const missing = (await run("s.colour")).result.error;
    expect(missing?.type).toBe("AttributeError");
    expect(missing?.message).toContain("colour");
  });

  it("crosses to a host in its wire form, and is refused where it has none", async () => {
    const { result, sent } = await run("RESULT = sink.put(value=s)");
    expect(result.error).toBeNull();
    expect(sent).toEqual(["span:4"]);
    const refused = (await run("sink.put(value=s)", null)).result.error;
    expect(refused?.type).toBe("TypeError");
    expect(refused?.message).toContain("cannot hold a Span without a wire form");
  });
});
