// Tensor fields of real MCP tool results (test/fixtures/tensor-server.ts, built to dist/ by
// `npm test`), decoded by the bridge wherever the outputSchema marks them, and sent back out.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeTensors } from "../../src/codemode/tensor/codec.js";
import type { Limits } from "../../src/interpreter/budget.js";
import { UpstreamManager } from "../../src/upstream/manager.js";
import { runBridged } from "../codemode/run-bridged.js";
import { hasTensorFixtures, tensorClient, wireOf } from "./fixtures.js";

describe.skipIf(!hasTensorFixtures)("tensor fields through the bridge", () => {
  const manager = new UpstreamManager({ connectTimeoutMs: 10_000, backoffMs: { initial: 100, max: 400 } });

  beforeAll(async () => {
    manager.add(tensorClient());
    await manager.settled(20_000);
  }, 30_000);

  afterAll(() => manager.closeAll());

  const run = (source: string, limits: Partial<Limits> = {}) => runBridged(manager, source, limits, { finalizeResult: encodeTensors });

  it("decodes a field marked through $ref (the unwrapped {result})", async () => {
    const r = await run("t = tensors.load(name='int64_2x3')\nRESULT = [t.shape, t.dtype, t.tolist(), t[1, 2]]");
    expect(r.error).toBeNull();
    expect(r.result).toEqual([[2, 3], "torch.int64", [[1, 2, 3], [4, 5, 6]], 6]);
  });

  it("decodes array items, additionalProperties values and an anyOf branch, and leaves unmarked strings alone", async () => {
    const r = await run(
      [
        "b = tensors.batch(names=['int8_4', 'uint8_4'])",
        "RESULT = [[t.tolist() for t in b['tensors']], {k: v.dtype for k, v in b['by_name'].items()}, b['first'].sum(), type(b['label']) == str]",
      ].join("\n"),
    );
    expect(r.error).toBeNull();
    expect(r.result).toEqual([[[1, -2, 3, -4], [1, 10, 100, 255]], { int8_4: "torch.int8", uint8_4: "torch.uint8" }, -2, true]);
  });

  it("sends a tensor back out unchanged in RESULT", async () => {
    const r = await run("RESULT = {'t': tensors.load(name='float32_1x28x28_mnist')}");
    expect(r.error).toBeNull();
    expect((r.result as { t: string }).t).toBe(wireOf("float32_1x28x28_mnist"));
  });

  it("passes a tensor a tool returned on to another tool as its payload, and refuses one made in the script", async () => {
    const r = await run("t = tensors.load(name='int32_4')\nRESULT = tensors.echo(payload=t)");
    expect(r.error).toBeNull();
    expect(r.result).toBe(wireOf("int32_4"));
    const made = await run("t = tensors.load(name='int32_4')\ntensors.echo(payload=t[1:])");
    expect(made.error?.type).toBe("TypeError");
    expect(made.error?.message).toContain("cannot hold a Tensor made in the script (a view or a slice)");
  });

  it("reports a malformed payload naming the field", async () => {
    const r = await run("tensors.corrupt(name='int32_4')");
    expect(r.error?.type).toBe("ValueError");
    expect(r.error?.message).toMatch(/^cannot decode \$\.result \(application\/vnd\.nomad\.tensor\): corrupt zstd data/);
  });

  it("refuses a tensor larger than the memory left, without decoding it", async () => {
    const r = await run("t = tensors.load(name='float32_1x28x28_mnist')", { max_memory_bytes: 2000 });
    expect(r.error?.type).toBe("ResourceLimitError");
    expect(r.error?.message).toMatch(/^max_memory_bytes exceeded \(limit 2000\)/);
  });
});
