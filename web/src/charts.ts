// The overview's two charts, drawn as SVG by hand (a stacked bar chart and a line chart are a
// few dozen lines each; a chart library would outweigh the whole page). Both say their unit on
// the axis and label what they draw where it is drawn: line ends carry their series' name and
// latest value, and every bar has a tooltip with its minute and counts.
import { outcomeColour, outcomeLabel } from "./outcomes";

const NS = "http://www.w3.org/2000/svg";

type Attrs = Record<string, string | number>;

export function svg(tag: string, attrs: Attrs = {}, ...children: (SVGElement | string)[]): SVGElement {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

// Drawn at about the size it is shown (the content column of a 1280 px window), so that its
// text is the page's size.
const W = 1000;
const H = 230;
const PAD = { left: 56, right: 120, top: 26, bottom: 28 };
const PLOT_W = W - PAD.left - PAD.right;
const PLOT_H = H - PAD.top - PAD.bottom;

/** A round top for an axis and its step (1, 2 or 5 times a power of ten), about four steps high. */
export function niceScale(max: number): { top: number; step: number } {
  if (!(max > 0)) return { top: 1, step: 1 };
  const rough = max / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough)!;
  return { top: Math.ceil(max / step) * step, step };
}

/** "14:05" in the browser's time zone. */
function clock(iso: string): string {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

/** The frame both charts share: horizontal grid lines with their values, the unit, minute labels. */
function frame(minutes: readonly string[], top: number, step: number, unit: string, tick: (v: number) => string): SVGElement[] {
  const y = (v: number) => PAD.top + PLOT_H - (v / top) * PLOT_H;
  const parts: SVGElement[] = [];
  for (let v = 0; v <= top + step / 2; v += step) {
    parts.push(svg("line", { x1: PAD.left, x2: PAD.left + PLOT_W, y1: y(v), y2: y(v), class: v === 0 ? "axis" : "grid" }));
    parts.push(svg("text", { x: PAD.left - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" }, tick(v)));
  }
  parts.push(svg("text", { x: 4, y: 12, class: "unit" }, unit));
  const every = Math.max(1, Math.ceil(minutes.length / 6));
  minutes.forEach((m, i) => {
    if ((minutes.length - 1 - i) % every !== 0) return;
    const x = PAD.left + ((i + 0.5) / minutes.length) * PLOT_W;
    parts.push(svg("text", { x, y: H - 10, "text-anchor": "middle", class: "tick" }, clock(m)));
  });
  return parts;
}

export interface MinuteCounts {
  minute: string;
  counts: Record<string, number>;
}

/** Executions per minute, stacked by outcome in `order`, each outcome in its colour. */
export function stackedBars(rows: readonly MinuteCounts[], order: readonly string[]): SVGElement {
  const totals = rows.map((r) => Object.values(r.counts).reduce((a, b) => a + b, 0));
  // At least 0-4, so that a handful of executions is drawn on whole-number steps.
  const { top, step } = niceScale(Math.max(4, ...totals));
  const slot = PLOT_W / Math.max(1, rows.length);
  const bar = Math.max(1, slot * 0.78);
  const y = (v: number) => PAD.top + PLOT_H - (v / top) * PLOT_H;
  const bars = rows.flatMap((r, i) => {
    let base = 0;
    const x = PAD.left + i * slot + (slot - bar) / 2;
    const tip = `${clock(r.minute)}: ${order.filter((o) => r.counts[o]).map((o) => `${r.counts[o]} ${outcomeLabel(o)}`).join(", ") || "none"}`;
    return order
      .filter((o) => (r.counts[o] ?? 0) > 0)
      .map((o) => {
        const n = r.counts[o]!;
        const rect = svg("rect", { x, y: y(base + n), width: bar, height: y(base) - y(base + n), fill: outcomeColour(o), "data-outcome": o }, svg("title", {}, tip));
        base += n;
        return rect;
      });
  });
  return svg(
    "svg",
    { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": "executions per minute by outcome" },
    ...frame(rows.map((r) => r.minute), top, step, "per minute", (v) => String(v)),
    ...bars,
  );
}

export interface Series {
  name: string;
  colour: string;
  /** One value per minute; null where there was none. */
  values: readonly (number | null)[];
}

/** Lines over the minutes, each labelled at its end with its name and last value. */
export function lines(minutes: readonly string[], series: readonly Series[], unit: string, format: (v: number) => string): SVGElement {
  const max = Math.max(0, ...series.flatMap((s) => s.values.filter((v): v is number => v !== null)));
  const { top, step } = niceScale(max);
  const x = (i: number) => PAD.left + ((i + 0.5) / Math.max(1, minutes.length)) * PLOT_W;
  const y = (v: number) => PAD.top + PLOT_H - (v / top) * PLOT_H;
  const drawn: SVGElement[] = [];
  const ends: { y: number; text: string; colour: string }[] = [];
  for (const s of series) {
    let d = "";
    let pen = false;
    let last = -1;
    s.values.forEach((v, i) => {
      if (v === null) return void (pen = false);
      d += `${pen ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
      pen = true;
      last = i;
      drawn.push(svg("circle", { cx: x(i), cy: y(v), r: 2.5, fill: s.colour }, svg("title", {}, `${clock(minutes[i]!)}: ${s.name} ${format(v)}`)));
    });
    if (last < 0) continue;
    drawn.unshift(svg("path", { d, fill: "none", stroke: s.colour, "stroke-width": 2, "data-series": s.name }));
    ends.push({ y: y(s.values[last]!), text: `${s.name} ${format(s.values[last]!)}`, colour: s.colour });
  }
  // End labels sit right of the plot, pushed apart so that two close lines keep readable labels.
  ends.sort((a, b) => a.y - b.y);
  for (let i = 1; i < ends.length; i++) ends[i]!.y = Math.max(ends[i]!.y, ends[i - 1]!.y + 14);
  const labels = ends.map((e) => svg("text", { x: PAD.left + PLOT_W + 8, y: e.y + 4, fill: e.colour, class: "end-label" }, e.text));
  return svg(
    "svg",
    { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": unit },
    ...frame(minutes, top, step, unit, format),
    ...drawn,
    ...labels,
  );
}
