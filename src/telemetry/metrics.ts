// Prometheus metrics (prom-client), kept in a registry of their own (not prom-client's global
// one, so two gateways in one process never mix): executions and nested tool calls by outcome and
// duration, the executions running now, upstream servers' states, agent rounds and provider
// latency, and Node's default process metrics (event-loop delay among them).
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { AgentRoundEvent } from "../agent/loop.js";
import type { ExecutionEvent } from "../gateway/exec-log.js";
import type { Gateway } from "../gateway/gateway.js";
import { executionOutcome, toolCallOutcome } from "./outcomes.js";

/** Seconds: from a call answered at once to a script that uses its whole default timeout. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly executions: Counter<"outcome">;
  private readonly executionSeconds: Histogram;
  private readonly toolCalls: Counter<"server" | "tool" | "outcome">;
  private readonly toolCallSeconds: Histogram<"server">;
  private readonly active: Gauge;
  private readonly rounds: Counter;
  private readonly providerSeconds: Histogram;

  /** `spans`: the tracing whose dropped span trees are counted too (when traces are on). */
  constructor(
    private readonly gateway: Gateway,
    spans: { readonly droppedTrees: number } | null = null,
  ) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.executions = new Counter({
      name: "codemode_executions_total",
      help: "Executions (executeToolCode, executeToolScript) by how they ended: ok, error, timeout, cancelled or <limit>_limit.",
      labelNames: ["outcome"],
      registers,
    });
    this.executionSeconds = new Histogram({ name: "codemode_execution_duration_seconds", help: "How long executions ran.", buckets: DURATION_BUCKETS, registers });
    this.toolCalls = new Counter({
      name: "codemode_tool_calls_total",
      help: "Tool calls made by scripts, by upstream server, tool and outcome (ok, error, timeout).",
      labelNames: ["server", "tool", "outcome"],
      registers,
    });
    this.toolCallSeconds = new Histogram({
      name: "codemode_tool_call_duration_seconds",
      help: "How long scripts' tool calls took, by upstream server.",
      labelNames: ["server"],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.active = new Gauge({ name: "codemode_executions_active", help: "Executions running now.", registers });
    this.rounds = new Counter({ name: "codemode_agent_rounds_total", help: "Rounds of agent loops (a provider request and the tools it asked for).", registers });
    this.providerSeconds = new Histogram({
      name: "codemode_provider_request_duration_seconds",
      help: "How long agent mode's provider requests took to answer.",
      buckets: DURATION_BUCKETS,
      registers,
    });
    if (spans !== null) {
      new Counter({
        name: "codemode_span_trees_dropped_total",
        help: "Executions, requests and agent rounds whose spans were dropped because the span thread was too far behind.",
        registers,
        collect() {
          this.reset();
          this.inc(spans.droppedTrees);
        },
      });
    }
    const manager = gateway.manager;
    new Gauge({
      name: "codemode_upstream_connected",
      help: "1 when the upstream server is connected, 0 otherwise (connecting, reconnecting, disabled).",
      labelNames: ["server"],
      registers,
      // Read at each scrape: the servers as they are now, none left over from a removed one.
      collect() {
        this.reset();
        for (const c of manager.list()) this.set({ server: c.name }, c.state === "connected" ? 1 : 0);
      },
    });
  }

  /** Follows the gateway's executions and agent rounds; returns the function that stops. */
  attach(): () => void {
    const gateway = this.gateway;
    const started = () => this.active.inc();
    const ended = () => this.active.dec();
    const execution = (event: ExecutionEvent) => this.execution(event);
    const round = (event: AgentRoundEvent) => {
      this.rounds.inc();
      this.providerSeconds.observe(event.provider_seconds);
    };
    gateway.on("execution-start", started);
    gateway.on("execution-end", ended);
    gateway.on("execution", execution);
    gateway.on("agent-round", round);
    return () => {
      gateway.off("execution-start", started);
      gateway.off("execution-end", ended);
      gateway.off("execution", execution);
      gateway.off("agent-round", round);
    };
  }

  private execution({ result }: ExecutionEvent): void {
    this.executions.inc({ outcome: executionOutcome(result) });
    this.executionSeconds.observe(result.duration_seconds);
    // At most max_tool_calls of them (64 by default): bounded work.
    for (const call of result.tool_calls) {
      this.toolCalls.inc({ server: call.server, tool: call.tool, outcome: toolCallOutcome(call) });
      this.toolCallSeconds.observe({ server: call.server }, call.duration_seconds);
    }
  }

  /** The exposition text, and its content type. */
  async scrape(): Promise<{ text: string; contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
