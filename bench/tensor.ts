// Tensor media values: decoding and encoding `application/vnd.nomad.tensor` payloads, side by side
// with the same numbers sent as `application/zstd+json` (a JSON list of floats), the way a tool
// without a tensor type would send them. Medians of several runs in one process.
// `npx tsc -p tsconfig.json && node dist/bench/tensor.js [--write]` (--write updates RESULTS.md).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compress } from "@mongodb-js/zstd";
import { defaultCodecs } from "../src/codemode/media.js";
import { decodeTensor, encodeTensor } from "../src/codemode/tensor/codec.js";
import { Budget, resolveLimits } from "../src/interpreter/budget.js";
import { Tensor } from "../src/interpreter/tensor.js";
import { median, writeSection } from "./results.js";

const FIXTURES = fileURLToPath(new URL("../../../shared/fixtures/tensors/", import.meta.url));
const RUNS = 7;
const budget = () => new Budget(resolveLimits({ max_memory_bytes: 2 ** 31, max_value_bytes: 2 ** 30, max_steps: 2 ** 40 }));

async function time(fn: () => Promise<unknown>): Promise<number> {
  await fn(); // warm-up
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await fn();
    ms.push(performance.now() - started);
  }
  return median(ms);
}

/** A float32 tensor of `n` smooth values (a signal compresses like real data, not like noise). */
function signal(n: number): Tensor {
  const values = new Float32Array(n);
  for (let i = 0; i < n; i++) values[i] = Math.sin(i / 50) * 3 + (i % 7) / 10;
  return new Tensor("float32", [n / 1000, 1000], [1000, 1], 0, new Uint8Array(values.buffer));
}

const zstdJson = defaultCodecs().get("application/zstd+json")!;
const rows: string[] = [];
const mnist = readFileSync(`${FIXTURES}float32_1x28x28_mnist.wire.txt`, "utf8");
rows.push(`| MNIST fixture, 1x28x28 float32 (${mnist.length} base64 chars) | ${(await time(() => decodeTensor(mnist, budget()))).toFixed(2)} | | |`);

for (const n of [100_000, 1_000_000]) {
  const t = signal(n);
  const wire = await encodeTensor(t, budget());
  const asJson = (await compress(Buffer.from(JSON.stringify(Array.from(new Float32Array(t.storage.buffer))), "utf8"), 3)).toString("base64");
  const decode = await time(() => decodeTensor(wire, budget()));
  const decodeJson = await time(() => zstdJson.decode(asJson, budget()));
  const encode = await time(() => encodeTensor(signal(n), budget()));
  rows.push(
    `| ${n / 1000}x1000 float32: tensor ${wire.length} chars, zstd+json ${asJson.length} chars | ${decode.toFixed(2)} | ${decodeJson.toFixed(1)} (${(decodeJson / decode).toFixed(0)}×) | ${encode.toFixed(1)} |`,
  );
}

const body = [
  "Decoding a payload into the sandbox value, in ms (median of 7). The zstd+json column decodes the",
  "same numbers sent as a JSON list (to Python floats); `encode` writes a fresh torch.save archive",
  "(a view made in a script) and compresses it at zstd level 3. The machine is shared with other",
  "jobs, so figures are noisy: compare within a row.",
  "",
  "| payload | decode tensor | decode as zstd+json | encode tensor |",
  "|---|---:|---:|---:|",
  ...rows,
].join("\n");
console.log(body);
if (process.argv.includes("--write")) writeSection("tensor", "Tensor payloads: decode and encode", "npx tsc -p tsconfig.json && node dist/bench/tensor.js --write", body);
