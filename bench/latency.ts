// End-to-end latency of executeToolCode through POST /v1/mcp/tool/execute, on a real gateway
// (buildServer on 127.0.0.1) with the edge-server fixture as a real stdio MCP server: scripts with
// 0, 1 and 10 tool calls, the same calls made one by one as direct (classic) tool calls through
// the same gateway, and a fresh `python3` process per execution (what a gateway that runs each
// script in a child process pays before the script does anything).
//
//   npx tsc -p tsconfig.json && node dist/bench/latency.js [--quick] [--write]
//
// Every variant runs once per round, in turn, so that the machine's noise hits them alike; the
// figures are medians over the rounds.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { median, writeSection } from "./results.js";
import { ms, percentile, postToolCall, QUICK, runScript, startGateway, WRITE } from "./harness.js";

const ROUNDS = QUICK ? 60 : 400;
const WARMUP = QUICK ? 20 : 100;
const PYTHON_ROUNDS = QUICK ? 8 : 40;

const SCRIPTS = {
  zero: "RESULT = 1 + 1",
  one: "RESULT = edge.add(a=1, b=2)",
  ten: "total = 0\nfor i in range(10):\n    total += edge.add(a=i, b=1)\nRESULT = total",
  tenParallel: [
    "import asyncio",
    "async def main():",
    "    return await asyncio.gather(*[edge.add_async(a=i, b=1) for i in range(10)])",
    "RESULT = sum(asyncio.run(main()))",
  ].join("\n"),
};

async function time(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

function python(code: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("python3", ["-c", code], { stdio: ["ignore", "ignore", "inherit"] });
    child.on("error", reject);
    child.on("exit", (status) => (status === 0 ? resolve() : reject(new Error(`python3 exited with ${status}`))));
  });
}

async function main(): Promise<void> {
  const bench = await startGateway();
  const { url, gateway } = bench;
  const health = async () => {
    const response = await fetch(`${url}/health`);
    if (!response.ok) throw new Error(`/health: HTTP ${response.status}`);
    await response.text();
  };
  const script = (code: string) => postToolCall(url, "executeToolCode", { code });
  const classic = async (calls: number) => {
    for (let i = 0; i < calls; i++) await postToolCall(url, "plain-add", { a: i, b: 1 });
  };

  // The answers are checked once, so that a broken setup cannot produce fast figures.
  for (const code of [SCRIPTS.ten, SCRIPTS.tenParallel]) {
    const ten = await script(code);
    if (!ten.includes("Return value:\n55") || !ten.includes("Tool calls (10)")) throw new Error(`unexpected answer:\n${ten}`);
  }
  if ((await postToolCall(url, "plain-add", { a: 2, b: 3 })) !== '{"result":5}') throw new Error("plain-add did not answer 5");

  const variants: [string, () => Promise<unknown>][] = [
    ["GET /health (HTTP round trip, no work)", health],
    ["script, 0 tool calls, in-process (no HTTP)", () => runScript(gateway, SCRIPTS.zero)],
    ["script, 0 tool calls", () => script(SCRIPTS.zero)],
    ["script, 1 tool call", () => script(SCRIPTS.one)],
    ["script, 10 tool calls", () => script(SCRIPTS.ten)],
    ["script, 10 tool calls at once (asyncio.gather)", () => script(SCRIPTS.tenParallel)],
    ["1 classic call (plain-add)", () => classic(1)],
    ["10 sequential classic calls", () => classic(10)],
  ];
  const samples = new Map<string, number[]>(variants.map(([name]) => [name, []]));
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    for (const [name, run] of variants) {
      const t = await time(run);
      if (round >= WARMUP) samples.get(name)!.push(t);
    }
  }
  await bench.close();

  const pythonTimes: number[] = [];
  for (let round = 0; round < PYTHON_ROUNDS; round++) pythonTimes.push(await time(() => python("RESULT = 1 + 1")));
  samples.set("fresh `python3 -c` process per execution (0 tool calls)", pythonTimes);

  const m = (name: string) => median(samples.get(name)!);
  const overhead = m("script, 0 tool calls") - m("GET /health (HTTP round trip, no work)");
  const tenVsClassic = m("10 sequential classic calls") / m("script, 10 tool calls");
  const rows = [...samples].map(([name, values]) => `| ${name} | ${ms(median(values))} | ${ms(percentile(values, 90))} | ${values.length} |`);
  const body = [
    "| variant | median | p90 | samples |",
    "|---|---:|---:|---:|",
    ...rows,
    "",
    `- Gateway overhead of a 0-call script: **${ms(overhead)}** median over HTTP (the script's round trip minus the ` +
      `\`/health\` round trip on the same connection pool), **${ms(m("script, 0 tool calls, in-process (no HTTP)"))}** ` +
      `in-process (Gateway.callTool: catalog, bridge, parse, run, format). Target: under 1 ms: ` +
      `**${overhead < 1 ? "met" : "missed"}**.`,
    `- A 10-call script against 10 sequential classic round trips: **${tenVsClassic.toFixed(2)}×** faster ` +
      `(${ms(m("script, 10 tool calls"))} vs ${ms(m("10 sequential classic calls"))}). Target: faster: ` +
      `**${tenVsClassic > 1 ? "met" : "missed"}**. The classic figure ` +
      "leaves out the model: a real classic client also waits for one model turn between calls, which this does not count. " +
      `With \`asyncio.gather\` the 10 calls take ${ms(m("script, 10 tool calls at once (asyncio.gather)"))}.`,
    `- A fresh \`python3\` process costs **${ms(median(pythonTimes))}** median before the script does anything: ` +
      `${(median(pythonTimes) / m("script, 0 tool calls")).toFixed(0)}× a whole 0-call execution through the gateway.`,
    "",
    `Method: one gateway in this process (Gateway + buildServer on 127.0.0.1, the exec log in memory), the client is ` +
      `Node's fetch with keep-alive, so the HTTP figures include the client's own work. \`edge\` and \`plain\` are two ` +
      `stdio processes of test/fixtures/edge-server.js (\`add\` answers at once). ${WARMUP} warm-up rounds, then ` +
      `${ROUNDS} rounds in which every variant runs once in turn; ${PYTHON_ROUNDS} python3 runs after the gateway closed. ` +
      "The machine is shared (2 cores, other jobs running): read medians and ratios, not absolute times.",
  ].join("\n");
  console.log(body);
  if (WRITE) {
    writeSection("bench:latency", "End-to-end latency: executeToolCode through the gateway", `node dist/bench/latency.js${QUICK ? " --quick" : ""} --write`, body);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
