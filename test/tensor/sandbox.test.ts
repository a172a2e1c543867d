// Tensors inside scripts: what a script can read of them, and how they leave in RESULT. A host
// method hands the script a decoded fixture, as the bridge does for a media field.
import { describe, expect, it } from "vitest";
import { decodeTensor, encodeTensors } from "../../src/codemode/tensor/codec.js";
import { execute } from "../../src/interpreter/execute.js";
import { hasTensorFixtures, wireOf } from "./fixtures.js";


/** Runs `code` with `t` bound to fixture `name` (through a host call, as a tool result). */
function run(name: string, code: string, limits = {}) {
  const hosts = { fx: { get: async (_a: unknown[], _k: Record<string, unknown>, { budget }: { budget: import("../../src/interpreter/budget.js").Budget }) => decodeTensor(wireOf(name), budget) } };
  return execute(`t = fx.get()\n${code}`, { hosts, limits, finalizeResult: encodeTensors });
}

describe.skipIf(!hasTensorFixtures)("a Tensor in a script", () => {
  it("has a shape, a dtype, a length and its values as lists", async () => {
    const r = await run("int64_2x3", "RESULT = [t.shape, t.dtype, len(t), t.ndim, t.numel(), t.tolist()]");
    expect(r.error).toBeNull();
    expect(r.result).toEqual([[2, 3], "torch.int64", 2, 2, 6, [[1, 2, 3], [4, 5, 6]]]);
  });

  it("indexes to sub-tensors and to numbers, with negative indices, slices and tuples", async () => {
    const r = await run(
      "int64_2x2x3_permuted",
      "RESULT = [t[0].tolist(), t[-1][1].tolist(), t[1, 0, 2], t[0][1][-1], t[:, 1].tolist(), t[0, :, 1:].tolist(), t[0].shape, t[0].stride()]",
    );
    expect(r.error).toBeNull();
    // values [[[1, 2, 3], [4, 5, 6]], [[1, 2, 3], [4, 5, 6]]], strides [1, 6, 2]
    expect(r.result).toEqual([[[1, 2, 3], [4, 5, 6]], [4, 5, 6], 3, 6, [[4, 5, 6], [4, 5, 6]], [[2, 3], [5, 6]], [2, 3], [6, 2]]);
    const m = await run("int64_2x3", "RESULT = [t[:, 1].tolist(), t[1, -1], t[0:1].tolist(), t[:, 0:3:2].tolist(), t[5:].shape]");
    expect(m.result).toEqual([[2, 5], 6, [[1, 2, 3]], [[1, 3], [4, 6]], [0, 3]]);
  });

  it("iterates over its first dimension", async () => {
    const r = await run("int64_2x3", "RESULT = [row.sum() for row in t]");
    expect(r.result).toEqual([6, 15]);
  });

  it("reduces to Python numbers: sum, mean, max, min", async () => {
    const r = await run("float16_4", "RESULT = [t.sum(), t.mean(), t.max(), t.min(), t.tolist()]");
    expect(r.error).toBeNull();
    const [sum, mean, max, min, values] = r.result as [number, number, number, number, number[]];
    expect(values).toEqual([1.2001953125, -3.400390625, 5.6015625, -7.80078125]);
    expect(sum).toBe(values.reduce((a, b) => a + b, 0));
    expect(mean).toBe(sum / 4);
    expect([max, min]).toEqual([5.6015625, -7.80078125]);
  });

  it("sums booleans and integers exactly", async () => {
    expect((await run("bool_4", "RESULT = [t.sum(), t.max(), t.tolist()]")).result).toEqual([2, true, [true, false, true, false]]);
    expect((await run("int32_4", "RESULT = [t.sum(), t.min(), t.mean()]")).result).toEqual([-2, -4, -0.5]);
  });

  it("answers `in` for numbers, as torch does", async () => {
    expect((await run("int64_2x3", "RESULT = [3 in t, 3.0 in t[0], 7 in t, True in t[0], 3 in t[1]]")).result).toEqual([true, true, false, true, false]);
    expect((await run("int64_2x3", "'a' in t")).error?.message).toBe("'in <Tensor>' requires a number as left operand, not str");
  });

  it("gives .item() for one element and refuses it for more", async () => {
    expect((await run("float32_1x28x28_mnist", "RESULT = t[0, 0, 0:1].item()")).result).toBe(-0.4242129623889923);
    const r = await run("int32_4", "t.item()");
    expect(r.error).toMatchObject({ type: "ValueError", message: "a Tensor with 4 elements cannot be converted to Scalar" });
  });

  it("has a truth value only with exactly one element, as torch", async () => {
    const one = await run("bool_4", "RESULT = [bool(t[0:1]), bool(t[1:2]), 'yes' if t[2:3] else 'no', 'yes' if t[3:] else 'no']");
    expect(one.result).toEqual([true, false, "yes", "no"]);
    const many = await run("int64_2x3", "if t:\n    pass");
    expect(many.error?.type).toBe("RuntimeError");
    expect(many.error?.message).toBe("Boolean value of Tensor with more than one value is ambiguous");
    const none = await run("int64_2x3", "RESULT = bool(t[2:])");
    expect(none.error?.message).toBe("Boolean value of Tensor with no values is ambiguous");
  });

  it("reports bad indexing like torch", async () => {
    expect((await run("int32_4", "t[4]")).error).toMatchObject({ type: "IndexError", message: "index 4 is out of bounds for dimension 0 with size 4" });
    expect((await run("int32_4", "t[0, 0]")).error).toMatchObject({ type: "IndexError", message: "too many indices for tensor of dimension 1" });
    expect((await run("int32_4", "t['a']")).error?.type).toBe("TypeError");
    expect((await run("int32_4", "t[::-1]")).error).toMatchObject({ type: "ValueError", message: "step must be greater than zero" });
  });

  it("names what a Tensor has when an attribute is missing", async () => {
    const r = await run("int32_4", "t.numpy()");
    expect(r.error).toMatchObject({ type: "AttributeError", message: "'Tensor' object has no attribute 'numpy'" });
    expect(r.error?.hints.join(" ")).toContain("tolist()");
  });

  it("has a short repr", async () => {
    const r = await run("int32_4", "print(t, t[1:3])\nprint(repr(fx.get()).startswith('tensor('))");
    expect(r.stdout).toBe("tensor([1, -2, 3, -4], dtype=torch.int32) tensor([-2, 3], dtype=torch.int32)\nTrue\n");
    expect((await run("float32_1x28x28_mnist", "print(t)")).stdout).toBe("tensor(<1x28x28 values>, dtype=torch.float32)\n");
  });

  it("charges tolist() to the memory budget", async () => {
    const r = await run("float32_1x28x28_mnist", "xs = []\nfor i in range(100): xs.append(t.tolist())", { max_memory_bytes: 600_000 });
    expect(r.error?.message).toMatch(/^max_memory_bytes exceeded/);
  });
});

describe.skipIf(!hasTensorFixtures)("a Tensor in RESULT", () => {
  it("goes out as the very wire payload it came in as", async () => {
    const r = await run("bfloat16_4", "RESULT = {'x': t, 'xs': [t, 1]}");
    expect(r.error).toBeNull();
    expect(r.result).toEqual({ x: wireOf("bfloat16_4"), xs: [wireOf("bfloat16_4"), 1] });
  });

  it("encodes a derived tensor afresh, which decodes to its values", async () => {
    const r = await run("int64_2x3", "RESULT = t[1]");
    expect(typeof r.result).toBe("string");
    expect(r.result).not.toBe(wireOf("int64_2x3"));
    const again = await run("int64_2x3", "RESULT = t[1:].tolist()");
    expect(again.result).toEqual([[4, 5, 6]]);
    const { Budget, resolveLimits } = await import("../../src/interpreter/budget.js");
    const t = await decodeTensor(r.result as string, new Budget(resolveLimits()));
    expect(t.toList()).toBeTruthy();
    expect(t.shape).toEqual([3]);
  });

  it("still reports a cycle in the result", async () => {
    const r = await run("int32_4", "a = [t]\na.append(a)\nRESULT = a");
    expect(r.error?.message).toContain("cycle");
  });
});
