// Overview, the first page: what the gateway has done over the last hour, from GET /api/overview
// (its own execution log, not Prometheus) — executions per minute by outcome, p50/p95 durations,
// tool calls by server with their failures, the limits hit most — and each upstream's state.
// Polled every few seconds. Every outcome has one colour (outcomes.ts) wherever it appears.
import type { OverviewView } from "../../src/api/types";
import { api } from "./api";
import { lines, stackedBars } from "./charts";
import { fill, formatDuration, h, refresher } from "./dom";
import { outcomeColour, outcomeLabel } from "./outcomes";

const POLL_MS = 5000;
const MINUTES = 60;

export function overviewPage(root: HTMLElement): () => void {
  const status = h("div.form-error");
  const updated = h("span.hint#ov-updated");
  const body = h("div.overview");
  const refresh = refresher(status, async () => {
    const o = await api<OverviewView>("GET", `/api/overview?minutes=${MINUTES}`);
    status.textContent = "";
    fill(body, ...render(o));
    updated.textContent = `updated ${new Date(o.now).toLocaleTimeString()}, every ${POLL_MS / 1000} s`;
  });
  fill(
    root,
    h("div.page-head", h("h1", "Overview"), updated),
    h("p.lead", `The last ${MINUTES} minutes of executions, from the gateway's execution log, and the state of each upstream server.`),
    status,
    body,
  );
  void refresh();
  const timer = setInterval(() => void refresh(), POLL_MS);
  return () => clearInterval(timer);
}

function render(o: OverviewView): HTMLElement[] {
  const upstreams = section("Upstream servers", upstreamList(o));
  if (o.executions === 0) {
    return [h("div.panel.empty-state#ov-empty", h("strong", "No executions yet"), h("p.hint", `Nothing ran in the last ${o.minutes} minutes. Run a script from the Playground, or call executeToolCode, and it shows here.`)), upstreams];
  }
  const failed = o.executions - (o.outcomes.find((x) => x.outcome === "ok")?.count ?? 0);
  const tiles = h(
    "div.tiles",
    tile("Executions", String(o.executions), `in ${o.minutes} min`, "ov-executions"),
    tile("Not ok", `${percent(failed / o.executions)}`, `${failed} of ${o.executions}`, "ov-failed"),
    tile("p50 duration", o.duration.p50_seconds === null ? "-" : formatDuration(o.duration.p50_seconds), "half ran faster", "ov-p50"),
    tile("p95 duration", o.duration.p95_seconds === null ? "-" : formatDuration(o.duration.p95_seconds), "95 % ran faster", "ov-p95"),
  );
  const order = o.outcomes.map((x) => x.outcome);
  // The outcomes with their totals, in their colours, right above the bars they colour.
  const key = h(
    "div.outcomes#ov-outcomes",
    o.outcomes
      .filter((x) => x.count > 0 || x.outcome === "ok" || x.outcome === "error")
      .map((x) => h("span.outcome-chip", { dataset: { outcome: x.outcome } }, h("i.swatch", { style: `background:${outcomeColour(x.outcome)}` }), outcomeLabel(x.outcome), " ", h("b.count", String(x.count)))),
  );
  const minutes = o.per_minute.map((m) => m.minute);
  const durations = lines(
    minutes,
    [
      { name: "p95", colour: "#2f6fed", values: o.per_minute.map((m) => m.p95_seconds) },
      { name: "p50", colour: "#1d2430", values: o.per_minute.map((m) => m.p50_seconds) },
    ],
    "time",
    formatDuration,
  );
  return [
    tiles,
    section("Executions per minute, by outcome", key, h("div.chart-box#ov-executions-chart", stackedBars(o.per_minute, order))),
    section("Execution duration: p50 and p95 of each minute", h("div.chart-box#ov-duration-chart", durations)),
    h("div.two-up", section("Tool calls by server", serverBars(o)), section("Limits hit most", limitBars(o))),
    upstreams,
  ];
}

function section(title: string, ...children: HTMLElement[]): HTMLElement {
  return h("section.panel", h("div.panel-title", title), children);
}

function tile(label: string, value: string, hint: string, id: string): HTMLElement {
  return h(`div.tile#${id}`, h("div.tile-label", label), h("div.tile-value", value), h("div.hint", hint));
}

function percent(x: number): string {
  return `${x === 0 || x >= 0.1 ? Math.round(x * 100) : (x * 100).toFixed(1)} %`;
}

/** One row per server: a bar of its calls, its failed part in the error colour, the figures in words. */
function serverBars(o: OverviewView): HTMLElement {
  if (o.servers.length === 0) return h("p.hint", "No tool calls in this window.");
  const most = Math.max(...o.servers.map((s) => s.calls));
  return h(
    "table.bars#ov-servers",
    o.servers.map((s) =>
      h(
        "tr",
        { dataset: { server: s.server } },
        h("td.name", h("code", s.server)),
        h(
          "td.bar",
          h(
            "div.track",
            h("div.fill", { style: `width:${(s.calls / most) * 100}%;background:${outcomeColour("ok")}` }, h("div.part", { style: `width:${s.calls ? (s.failures / s.calls) * 100 : 0}%;background:${outcomeColour("error")}` })),
          ),
        ),
        h(
          "td.figures",
          h("span.calls", `${s.calls} calls`),
          " · ",
          h(`span.failures${s.failures ? ".bad" : ""}`, `${s.failures} failed (${percent(s.error_rate)})`),
          " · ",
          h("span.mean", `mean ${formatDuration(s.mean_seconds)}`),
        ),
      ),
    ),
  );
}

function limitBars(o: OverviewView): HTMLElement {
  if (o.limits.length === 0) return h("p.hint#ov-no-limits", "No limits hit in this window.");
  const most = Math.max(...o.limits.map((l) => l.count));
  return h(
    "table.bars#ov-limits",
    o.limits.map((l) =>
      h(
        "tr",
        { dataset: { limit: l.limit } },
        h("td.name", outcomeLabel(l.limit)),
        h("td.bar", h("div.track", h("div.fill", { style: `width:${(l.count / most) * 100}%;background:${outcomeColour(l.limit)}` }))),
        h("td.figures", h("span.count", String(l.count)), l.count === 1 ? " execution" : " executions"),
      ),
    ),
  );
}

function upstreamList(o: OverviewView): HTMLElement {
  if (o.upstreams.length === 0) return h("p.hint", "No upstream servers: add one under MCP clients.");
  return h(
    "table.grid#ov-upstreams",
    h("thead", h("tr", h("th", "Server"), h("th", "State"), h("th.num", "Tools"), h("th", "Last error"))),
    h(
      "tbody",
      o.upstreams.map((u) =>
        h("tr", { dataset: { upstream: u.name } }, h("td", h("strong", u.name)), h("td", h(`span.state.${u.state}`, u.state)), h("td.num.tools", String(u.tools)), h("td.hint", u.error ?? "")),
      ),
    ),
  );
}
