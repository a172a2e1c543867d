// The web UI, driven in headless Chromium (Debian's `chromium`, through playwright-core) against a
// real gateway on 127.0.0.1 and the edge-case MCP server over Streamable HTTP. The page is the
// built one (dist/web, from `npm run build`). Each flow leaves a screenshot in test/artifacts/web/.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "../../src/api/server.js";
import { defaultWebRoot } from "../../src/api/web.js";
import { Gateway } from "../../src/gateway/gateway.js";
import { chromiumPath } from "./chromium.js";

const EDGE = fileURLToPath(new URL("../../dist/test/fixtures/edge-server.js", import.meta.url));
const SHOTS = fileURLToPath(new URL("../artifacts/web/", import.meta.url));
const TOKEN = "admin-token-for-the-ui-test";

let edge: ChildProcess;
let edgeUrl: string;
let gateway: Gateway;
let app: FastifyInstance;
let base: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!existsSync(`${defaultWebRoot()}/index.html`)) throw new Error(`the web UI is not built (${defaultWebRoot()}): run npm run build`);
  mkdirSync(SHOTS, { recursive: true });
  edge = spawn(process.execPath, [EDGE, "--http", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  const [first] = (await once(createInterface({ input: edge.stdout! }), "line")) as [string];
  edgeUrl = `http://127.0.0.1:${/^listening (\d+)$/.exec(first)![1]}/mcp`;

  gateway = new Gateway();
  // A key is required on the callers' routes: the page itself must still load without one.
  app = buildServer(gateway, { adminToken: TOKEN, requireKey: true });
  await app.listen({ host: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  browser = await chromium.launch({ executablePath: chromiumPath(), headless: true });
  page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
  page.setDefaultTimeout(8000);
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await gateway?.close();
  edge?.kill("SIGKILL");
});

const shot = (name: string) => page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true });

async function runScript(code: string): Promise<void> {
  await page.fill("#pg-code", code);
  await page.click("#pg-run");
  await page.waitForSelector("#pg-outcome");
}

async function saveMaxSteps(value: string): Promise<void> {
  await page.goto(`${base}/#/code-mode`);
  await page.fill("input[name=max_steps]", value);
  await page.click("#save-settings");
  await expect.poll(() => page.textContent(".status")).toBe("Saved.");
}

const SCRIPT = `msg = edge.echo(text="hi from edge")
print(msg)
total = 0
for i in range(300):
    total += i
RESULT = total`;

describe("the web UI", () => {
  it("is served without a key, asks for the admin token, and keeps it for the session", async () => {
    expect((await fetch(`${base}/`)).status).toBe(200);
    expect((await fetch(`${base}/health`)).status).toBe(401);
    expect((await fetch(`${base}/api/ui/defaults`)).status).toBe(401);

    await page.goto(`${base}/#/clients`);
    await page.waitForSelector("#token-form");
    await shot("token");
    await page.fill("#token-form input", "wrong");
    await page.click("#token-form button");
    await expect.poll(() => page.textContent("#token-form")).toContain("refused that token");
    await page.fill("#token-form input", TOKEN);
    await page.click("#token-form button");
    await page.waitForSelector("#clients td.empty");

    await page.reload();
    await page.waitForSelector("#clients td.empty");
    expect(await page.$("#token-form")).toBeNull();
  });

  it("adds a client that points at a real server, showing the API's error beside the field", async () => {
    await page.click("#add-client");
    await page.fill("#client-form input[name=name]", "my-edge");
    await page.selectOption("#client-form select[name=connection_type]", "http");
    await page.fill("#client-form input[name=connection_string]", edgeUrl);
    // Added as a direct client first; code mode is switched on in the next test.
    await page.uncheck("#client-form input[name=is_code_mode_client]", { force: true });
    await page.click("#client-form button[type=submit]");
    const nameError = page.locator('#client-form .field[data-field="name"] .error');
    await expect.poll(() => nameError.textContent()).toContain("hyphens are not allowed");
    await shot("client-add-error");

    await page.fill("#client-form input[name=name]", "edge");
    await page.click("#client-form button[type=submit]");
    const row = page.locator('#clients tr[data-client="edge"]');
    await expect.poll(() => row.locator(".state").textContent(), { timeout: 10_000 }).toBe("connected");
    expect(Number(await row.locator(".tools").textContent())).toBeGreaterThan(5);
    expect(await row.locator(".code-mode").textContent()).toBe("off");
    await shot("clients");
  });

  it("toggles code mode in the client's sheet", async () => {
    await page.click('#clients tr[data-client="edge"] a');
    await page.waitForSelector("#client-form");
    expect(await page.locator('#client-form input[name="tools_to_execute-tool"]').count()).toBeGreaterThan(5);
    await page.check("#client-form input[name=is_code_mode_client]", { force: true });
    await shot("client-sheet");
    await page.click("#client-form button[type=submit]");
    await page.waitForSelector("#client-form", { state: "detached" });
    await expect.poll(() => page.locator('#clients tr[data-client="edge"] .code-mode').textContent()).toBe("on");
    expect(gateway.clientConfigs().find((c) => c.name === "edge")?.is_code_mode_client).toBe(true);
  });

  it("fails a playground script at a lowered max_steps, naming the limit, and passes it at the default", async () => {
    await page.goto(`${base}/#/code-mode`);
    await page.fill("input[name=max_steps]", "-5");
    const stepsError = page.locator('.field[data-field="client_config.mcp_code_mode_limits.max_steps"] .error');
    await expect.poll(() => stepsError.textContent()).toContain("max_steps must not be negative");
    expect(gateway.settings.limits.max_steps).toBe(1_000_000);
    await shot("code-mode-invalid");

    await saveMaxSteps("200");
    expect(gateway.settings.limits.max_steps).toBe(200);
    await page.goto(`${base}/#/playground`);
    await page.waitForSelector('#pg-files button[data-path="servers/edge.pyi"]');
    await runScript(SCRIPT);
    expect(await page.textContent("#pg-outcome")).toContain("ResourceLimitError");
    expect(await page.textContent("#pg-error")).toContain("max_steps exceeded (limit 200)");
    expect(Number(await page.textContent("#pg-error .line.hit .no"))).toBe(5);
    await shot("playground-limit");

    await saveMaxSteps("");
    expect(gateway.settings.limits.max_steps).toBe(1_000_000);
    await page.goto(`${base}/#/playground`);
    await page.waitForSelector('#pg-files button[data-path="servers/edge.pyi"]');
    await runScript(SCRIPT);
    expect(await page.textContent("#pg-outcome")).toContain("Completed");
    expect(await page.textContent("#pg-stdout")).toContain("hi from edge");
    expect(await page.textContent("#pg-result")).toBe("44850");
    expect(await page.textContent("#pg-calls")).toContain("edge.echo");
    await page.click('#pg-files button[data-path="servers/edge.pyi"]');
    await expect.poll(() => page.textContent("#pg-stub")).toContain("def add(");
    await shot("playground");
  });

  it("creates a key that grants one tool, and the playground shows only that tool", async () => {
    await page.goto(`${base}/#/keys`);
    await page.click("#create-key");
    await page.fill("#key-form input[name=name]", "echo_only");
    await page.check("#key-form input[name=grant-edge]");
    await page.check('#key-form input[name="grant-edge-tool"][value="echo"]');
    await shot("key-sheet");
    await page.click("#key-form button[type=submit]");
    await page.waitForSelector('#keys tr[data-key="echo_only"]');
    expect(await page.textContent('#keys tr[data-key="echo_only"]')).toContain("edge: echo");
    await shot("keys");

    await page.goto(`${base}/#/playground`);
    await page.waitForSelector('#pg-files button[data-path="servers/edge.pyi"]');
    await page.selectOption("#pg-key", { label: "echo_only" });
    await expect.poll(() => page.textContent("#pg-files .tool-names")).toBe("echo");
    await page.click('#pg-files button[data-path="servers/edge.pyi"]');
    await expect.poll(() => page.textContent("#pg-stub")).toContain("def echo(");
    expect(await page.textContent("#pg-stub")).not.toContain("def add(");
    await runScript('RESULT = edge.add(a=1, b=2)');
    expect(await page.textContent("#pg-error")).toContain("PermissionError");
    await shot("playground-key");
  });

  it("lists recent executions, filtered, with their tool calls", async () => {
    await page.goto(`${base}/#/logs`);
    await page.waitForSelector("#logs tr.entry");
    expect(await page.locator("#logs tr.entry").count()).toBe(3);
    await page.click("#logs tr.entry >> nth=1");
    expect(await page.textContent("#logs tr.details >> nth=1")).toContain("edge.echo");
    await shot("logs");
    await page.selectOption("#log-filters select[name=outcome]", "error");
    await expect.poll(() => page.locator("#logs tr.entry").count()).toBe(2);
    await page.fill("#log-filters input[name=key]", "echo_only");
    await page.click("#log-filters button[type=submit]");
    await expect.poll(() => page.locator("#logs tr.entry").count()).toBe(1);
    await page.fill("#log-filters input[name=key]", "");
    await page.selectOption("#log-filters select[name=outcome]", "ok");
    await expect.poll(() => page.locator("#logs tr.entry").count()).toBe(1);
    expect(await page.textContent("#logs tr.entry")).toContain("executeToolCode");
  });
});
