// The web UI of a gateway without an admin token, in headless Chromium: adding a stdio client is
// refused by the API, and the form shows why (and both remedies), in sight, instead of closing.
import { existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildServer } from "../../src/api/server.js";
import { defaultWebRoot } from "../../src/api/web.js";
import { Gateway } from "../../src/gateway/gateway.js";
import { chromiumPath } from "./chromium.js";

const SHOTS = fileURLToPath(new URL("../artifacts/web/", import.meta.url));

let gateway: Gateway;
let app: FastifyInstance;
let base: string;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(`${defaultWebRoot()}/index.html`)) throw new Error(`the web UI is not built (${defaultWebRoot()}): run npm run build`);
  mkdirSync(SHOTS, { recursive: true });
  gateway = new Gateway();
  app = buildServer(gateway);
  await app.listen({ host: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  browser = await chromium.launch({ executablePath: chromiumPath(), headless: true });
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await gateway?.close();
});

it("shows the API's refusal of a stdio client in the form, and adds nothing", async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
  page.setDefaultTimeout(8000);
  const marker = join(mkdtempSync(join(tmpdir(), "cmg-ui-stdio-")), "ran");
  await page.goto(`${base}/#/clients`);
  await page.waitForSelector("#clients td.empty");
  await page.click("#add-client");
  await page.fill("#client-form input[name=name]", "local");
  await page.selectOption("#client-form select[name=connection_type]", "stdio");
  await page.fill("#client-form input[name=command]", "touch");
  await page.fill("#client-form textarea[name=args]", marker);
  await page.click("#client-form button[type=submit]");
  const error = page.locator("#client-form .form-error");
  await expect.poll(() => error.textContent()).toContain("adding or editing a stdio client over the API needs the admin token");
  expect(await error.textContent()).toContain('"allow_unauthenticated_stdio": true');
  // In sight, though it sits at the top of a form whose button is at the bottom.
  const inView = () => error.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= (globalThis as unknown as { innerHeight: number }).innerHeight;
  });
  await expect.poll(inView).toBe(true);
  await page.screenshot({ path: `${SHOTS}client-stdio-refused.png`, fullPage: true });
  expect(gateway.clientConfigs()).toEqual([]);
  expect(existsSync(marker)).toBe(false);
  await page.close();
});
