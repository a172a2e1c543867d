// GET /metrics after known work on a real gateway (Fastify on 127.0.0.1, the everything server
// over stdio, the recording server over HTTP, a scripted provider for agent mode): the text passes
// `promtool check metrics`, and a real Prometheus server that scrapes it reads back the counts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedProvider, type ScriptedProvider, textReply, toolCall, toolCallsReply } from "../fixtures/scripted-provider.js";
import { type PrometheusServer, promtoolCheck, type Sample, startPrometheus } from "./prometheus.js";
import { runScript, type Stack, startStack } from "./stack.js";

const TOKEN = "metrics-admin-token";

/** prom-client's own default metrics that promtool's lint rules dislike (gauges named *_total). */
const PROM_CLIENT_LINT = /^nodejs_active_(handles|requests|resources)_total non-counter metrics should not have "_total" suffix$/;

let stack: Stack;
let provider: ScriptedProvider;

async function scrape(token: string | null = TOKEN): Promise<Response> {
  return fetch(`${stack.url}/metrics`, { headers: token === null ? {} : { authorization: `Bearer ${token}` } });
}

/** The value of each series of `samples`, keyed by the listed labels' values joined with "/". */
function byLabels(samples: Sample[], ...names: string[]): Record<string, number> {
  return Object.fromEntries(samples.map((s) => [names.map((n) => s.labels[n]).join("/"), s.value]));
}

beforeAll(async () => {
  provider = await startScriptedProvider();
  stack = await startStack({
    traces: false,
    adminToken: TOKEN,
    limits: { max_steps: 20_000, tool_execution_timeout: 1 },
    providers: [{ name: "scripted", base_url: provider.url, headers: {}, timeout_seconds: 10 }],
  });
}, 30_000);

afterAll(async () => {
  await stack?.close();
  await provider?.close();
});

describe("GET /metrics", () => {
  it("is behind the admin token when one is set", async () => {
    expect((await scrape(null)).status).toBe(401);
    expect((await scrape("wrong")).status).toBe(401);
    const ok = await scrape();
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toContain("text/plain; version=0.0.4");
  });

  it("counts the executions running now", async () => {
    const running = runScript(stack.url, "RESULT = rec.ping(ms=600)");
    const deadline = Date.now() + 5000;
    let seen = "";
    while (Date.now() < deadline && !/^codemode_executions_active 1$/m.test(seen)) seen = await (await scrape()).text();
    expect(seen).toMatch(/^codemode_executions_active 1$/m);
    await running;
    expect(await (await scrape()).text()).toMatch(/^codemode_executions_active 0$/m);
  });

  describe("after known work", () => {
    let prometheus: PrometheusServer;

    beforeAll(async () => {
      // The counters start from the work of the test above: one ok execution, one rec.ping.
      await runScript(stack.url, "RESULT = [everything.echo(message='a'), rec.ping(ms=1)]");
      await runScript(stack.url, "rec.fail()");
      await runScript(stack.url, "while True:\n    pass");
      await runScript(stack.url, "rec.ping(ms=1500)");
      await runScript(stack.url, "1 / 0");
      // Agent mode: a round that lists the tool files, then the answer.
      provider.reset([toolCallsReply([toolCall("listToolFiles", {})]), textReply("done")]);
      const chat = await fetch(`${stack.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "scripted/scripted-1", messages: [{ role: "user", content: "list them" }] }),
      });
      expect(chat.status).toBe(200);
      prometheus = await startPrometheus(new URL(stack.url).host, TOKEN);
      // Wait for a scrape that saw all of it.
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        const rounds = await prometheus.query("codemode_agent_rounds_total");
        if (rounds[0]?.value === 2) break;
        await new Promise((r) => setTimeout(r, 250));
      }
    }, 40_000);

    afterAll(async () => {
      await prometheus?.close();
    });

    it("passes promtool check metrics (codemode_ metrics without a lint problem)", async () => {
      const { status, problems } = promtoolCheck(await (await scrape()).text());
      // 0: clean; 3: lint problems only (1 would be a text that does not parse).
      expect([0, 3]).toContain(status);
      expect(problems.filter((p) => !PROM_CLIENT_LINT.test(p))).toEqual([]);
    });

    it("counts executions by outcome, one label value per limit", async () => {
      const executions = byLabels(await prometheus.query("codemode_executions_total"), "outcome");
      expect(executions).toEqual({ ok: 2, error: 3, max_steps_limit: 1 });
      const [count] = await prometheus.query("codemode_execution_duration_seconds_count");
      expect(count!.value).toBe(6);
      const [slow] = await prometheus.query('codemode_execution_duration_seconds_bucket{le="1"}');
      // The timed-out call ran for tool_execution_timeout (1 s): that execution is past the 1 s
      // bucket. The other five take milliseconds, but on a loaded machine one may take a second too.
      expect(slow!.value).toBeLessThanOrEqual(5);
      expect(slow!.value).toBeGreaterThanOrEqual(3);
    });

    it("counts tool calls by server, tool and outcome, and times them by server", async () => {
      const calls = byLabels(await prometheus.query("codemode_tool_calls_total"), "server", "tool", "outcome");
      expect(calls).toEqual({ "rec/ping/ok": 2, "everything/echo/ok": 1, "rec/fail/error": 1, "rec/ping/timeout": 1 });
      const timed = byLabels(await prometheus.query("codemode_tool_call_duration_seconds_count"), "server");
      expect(timed).toEqual({ rec: 4, everything: 1 });
    });

    it("reports each upstream server's state", async () => {
      expect(byLabels(await prometheus.query("codemode_upstream_connected"), "server")).toEqual({ everything: 1, rec: 1 });
    });

    it("counts agent rounds and times the provider's answers", async () => {
      expect((await prometheus.query("codemode_agent_rounds_total"))[0]!.value).toBe(2);
      expect((await prometheus.query("codemode_provider_request_duration_seconds_count"))[0]!.value).toBe(2);
    });

    it("serves Node's process metrics, event-loop delay among them", async () => {
      const lag = await prometheus.query("nodejs_eventloop_lag_p99_seconds");
      expect(lag).toHaveLength(1);
      expect(lag[0]!.value).toBeGreaterThan(0);
      expect((await prometheus.query("process_resident_memory_bytes"))[0]!.value).toBeGreaterThan(1 << 20);
    });
  });
});
