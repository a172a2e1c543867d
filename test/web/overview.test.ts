// The Overview page in headless Chromium (Debian's chromium, through playwright-core) against a
// real gateway on 127.0.0.1 whose code-mode client is the real memory MCP server over stdio: it
// says "No executions yet" at first, then, without a reload, shows known work — ok scripts, an
// error, a script stopped by max_steps, calls to the server with one failing — in its figures and
// charts, each outcome in one colour. Leaves test/artifacts/web/overview.png.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "../../src/api/server.js";
import { defaultWebRoot } from "../../src/api/web.js";
import { ExecLog } from "../../src/gateway/exec-log.js";
import { Gateway } from "../../src/gateway/gateway.js";
import { Store } from "../../src/gateway/store.js";
import { parseClientConfig } from "../../src/upstream/config.js";
import { chromiumPath } from "./chromium.js";

const MEMORY = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-memory/dist/index.js", import.meta.url));
const SHOTS = fileURLToPath(new URL("../artifacts/web/", import.meta.url));
const TOKEN = "admin-token-for-the-overview-page";

let dir: string;
let gateway: Gateway;
let app: FastifyInstance;
let base: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!existsSync(`${defaultWebRoot()}/index.html`)) throw new Error(`the web UI is not built (${defaultWebRoot()}): run npm run build`);
  mkdirSync(SHOTS, { recursive: true });
  dir = mkdtempSync(join(tmpdir(), "overview-page-"));
  gateway = new Gateway();
  gateway.addClient(
    parseClientConfig({
      name: "memory",
      connection_type: "stdio",
      stdio_config: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl") } },
      tools_to_execute: ["*"],
      is_code_mode_client: true,
    }),
  );
  await gateway.manager.settled(15000);
  app = buildServer(gateway, { adminToken: TOKEN, log: new ExecLog(new Store(join(dir, "gateway.db"))) });
  await app.listen({ host: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  browser = await chromium.launch({ executablePath: chromiumPath(), headless: true });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(10_000);
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await gateway?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function run(code: string): Promise<string> {
  const res = await fetch(`${base}/v1/mcp/tool/execute`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id: "c", type: "function", function: { name: "executeToolCode", arguments: JSON.stringify({ code }) } }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { content: string }).content;
}

async function putMaxSteps(max_steps: number): Promise<void> {
  const res = await fetch(`${base}/api/config`, {
    method: "PUT",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ client_config: { mcp_code_mode_limits: { max_steps } } }),
  });
  expect(res.status).toBe(200);
}

const text = (selector: string) => page.locator(selector).first().textContent();

describe("the Overview page", () => {
  it("is the first page, and says no executions yet with the upstream's state", async () => {
    await page.goto(base);
    await page.waitForSelector("#token-form");
    await page.fill("#token-form input", TOKEN);
    await page.click("#token-form button");
    await page.waitForSelector("#ov-empty");
    expect(await text("#ov-empty")).toContain("No executions yet");
    expect(await text("nav a.active")).toBe("Overview");
    expect(await text('#ov-upstreams tr[data-upstream="memory"] .state')).toBe("connected");
    expect(Number(await text('#ov-upstreams tr[data-upstream="memory"] .tools'))).toBeGreaterThan(5);
    await page.screenshot({ path: `${SHOTS}overview-empty.png`, fullPage: true });
  });

  it("shows known work as it happens: outcomes, durations, calls by server, the limit hit", async () => {
    await run("RESULT = memory.read_graph()");
    await run("memory.create_entities(entities=[{'name': 'a', 'entityType': 't', 'observations': []}])\nRESULT = memory.read_graph()");
    await run("try:\n    memory.open_nodes(names=5)\nexcept Exception as e:\n    print(type(e).__name__)\nRESULT = 1");
    expect(await run("x = 1 // 0")).toContain("ZeroDivisionError");
    await putMaxSteps(300);
    try {
      expect(await run("total = 0\nfor i in range(100000):\n    total += i")).toContain("max_steps");
    } finally {
      await putMaxSteps(0);
    }

    // No reload: the page polls.
    await expect.poll(() => text("#ov-executions .tile-value"), { timeout: 12_000 }).toBe("5");
    const chip = (outcome: string) => `#ov-outcomes [data-outcome="${outcome}"] .count`;
    expect([await text(chip("ok")), await text(chip("error")), await text(chip("max_steps_limit"))]).toEqual(["3", "1", "1"]);
    expect(await page.locator('#ov-outcomes [data-outcome="timeout"]').count()).toBe(0);
    expect(await text("#ov-failed .tile-value")).toBe("40 %");
    expect(await text("#ov-p50 .tile-value")).toMatch(/^\d+ ms$|^\d+\.\d\d s$/);

    const memory = '#ov-servers tr[data-server="memory"]';
    expect(await text(`${memory} .calls`)).toBe("4 calls");
    expect(await text(`${memory} .failures`)).toBe("1 failed (25 %)");
    expect(await text('#ov-limits tr[data-limit="max_steps_limit"] .name')).toBe("max_steps limit");
    expect(await text('#ov-limits tr[data-limit="max_steps_limit"] .count')).toBe("1");

    // The bars: one segment per outcome that happened, in the colour of its chip.
    const bars = page.locator("#ov-executions-chart rect");
    const drawn = await bars.evaluateAll((els) => els.map((e) => [e.getAttribute("data-outcome"), e.getAttribute("fill")]));
    expect(drawn.length).toBeGreaterThanOrEqual(3);
    // (Run in the page, whose globalThis is the window; the tests' own types have no DOM.)
    type Styled = { getComputedStyle(el: unknown): { backgroundColor: string } };
    const swatch = async (outcome: string) =>
      page.locator(`#ov-outcomes [data-outcome="${outcome}"] .swatch`).evaluate((e) => (globalThis as unknown as Styled).getComputedStyle(e).backgroundColor);
    const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;
    for (const outcome of ["ok", "error", "max_steps_limit"]) {
      const fills = new Set(drawn.filter(([o]) => o === outcome).map(([, f]) => f!));
      expect(fills.size, outcome).toBe(1);
      expect(rgb([...fills][0]!)).toBe(await swatch(outcome));
    }
    expect(new Set(drawn.map(([, f]) => f)).size).toBe(3);
    expect(await text("#ov-executions-chart .unit")).toBe("per minute");

    // The duration lines are labelled at their ends, with their latest value.
    expect(await page.locator("#ov-duration-chart path[data-series]").count()).toBe(2);
    const ends = await page.locator("#ov-duration-chart .end-label").allTextContents();
    expect(ends.map((e) => e.split(" ")[0]).sort()).toEqual(["p50", "p95"]);
    expect(ends.every((e) => /^p(50|95) (\d+ ms|\d+\.\d\d s)$/.test(e))).toBe(true);

    await page.screenshot({ path: `${SHOTS}overview.png`, fullPage: true });
  }, 60_000);
});
