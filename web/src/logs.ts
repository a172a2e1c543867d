// Logs: recent executions, newest first, filterable by tool, key and outcome, each with its tool calls.
import type { LogEntryView as LogEntry, LogsPage } from "../../src/api/types";
import { api } from "./api";
import { fill, formatDuration, h } from "./dom";

const PAGE = 50;

export function logsPage(root: HTMLElement): () => void {
  const tool = h("input", { type: "text", name: "tool", placeholder: "server.tool or tool" });
  const key = h("input", { type: "text", name: "key", placeholder: "key name, - for none" });
  const outcome = h("select", { name: "outcome" }, h("option", { value: "" }, "any outcome"), h("option", { value: "ok" }, "ok"), h("option", { value: "error" }, "error"));
  const body = h("tbody");
  const summary = h("span.hint");
  const status = h("div.form-error");
  let offset = 0;
  const older = h("button.small", { type: "button", onclick: () => ((offset += PAGE), void load()) }, "Older");
  const newer = h("button.small", { type: "button", onclick: () => ((offset = Math.max(0, offset - PAGE)), void load()) }, "Newer");

  const load = async () => {
    status.textContent = "";
    const query = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
    if (tool.value.trim()) query.set("tool", tool.value.trim());
    if (key.value.trim()) query.set("key", key.value.trim());
    if (outcome.value) query.set("outcome", outcome.value);
    try {
      const { logs, total } = await api<LogsPage>("GET", `/api/logs?${query}`);
      fill(body, logs.length ? logs.flatMap(row) : h("tr", h("td.empty", { colSpan: 7 }, "No executions match.")));
      summary.textContent = total ? `${offset + 1}-${offset + logs.length} of ${total}` : "";
      older.disabled = offset + logs.length >= total;
      newer.disabled = offset === 0;
    } catch (e) {
      status.textContent = (e as Error).message;
    }
  };

  const filters = h(
    "form.filters#log-filters",
    {
      onsubmit: (e: Event) => {
        e.preventDefault();
        offset = 0;
        void load();
      },
    },
    h("label", "Tool", tool),
    h("label", "Virtual key", key),
    h("label.narrow", "Outcome", outcome),
    h("button.primary", { type: "submit" }, "Filter"),
  );
  outcome.addEventListener("change", () => filters.requestSubmit());
  fill(
    root,
    h("div.page-head", h("h1", "Logs")),
    h("p.lead", "Executions through executeToolCode and /v1/mcp/tool/execute: who ran what, how long it took, and each tool call. Scripts and arguments are never logged."),
    filters,
    status,
    h("table.grid#logs", h("thead", h("tr", h("th", "Time"), h("th", "Key"), h("th", "Tool"), h("th", "Outcome"), h("th.num", "Duration"), h("th.num", "Calls"), h("th", "Error"))), body),
    h("div.pager", summary, newer, older),
  );
  void load();
  return () => undefined;
}

function row(e: LogEntry): HTMLElement[] {
  const details = h(
    "tr.details",
    { hidden: true },
    h(
      "td",
      { colSpan: 7 },
      e.tool_calls.length
        ? h(
            "table.calls",
            e.tool_calls.map((c) => h("tr", h("td", h("code", `${c.server}.${c.tool}`)), h("td", c.ok ? "ok" : h("span.bad", c.error ?? "failed")), h("td.num", formatDuration(c.duration_seconds)))),
          )
        : h("span.hint", "No tool calls."),
    ),
  );
  const main = h(
    "tr.entry",
    { onclick: () => (details.hidden = !details.hidden), title: "Show its tool calls" },
    h("td.time", { title: e.time }, localTime(e.time)),
    h("td", e.key),
    h("td", h("code", e.tool)),
    h("td", h(`span.pill.${e.outcome === "ok" ? "on" : "off"}`, e.outcome)),
    h("td.num", formatDuration(e.duration_seconds)),
    h("td.num", String(e.tool_calls.length)),
    h("td", e.error ? `${e.error.type}: ${e.error.message}${e.error.line !== null ? ` (line ${e.error.line})` : ""}` : ""),
  );
  return [main, details];
}

/** "2026-11-30 01:32:29" in the browser's time zone. */
function localTime(iso: string): string {
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}
