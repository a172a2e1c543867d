// The browser the web tests drive: Debian's `chromium`, through playwright-core.
import { spawnSync } from "node:child_process";

/** Chromium: $CHROMIUM_PATH, else the `chromium` on the PATH (Debian's package). */
export function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  const found = spawnSync("which", ["chromium"], { encoding: "utf8" }).stdout.trim();
  if (!found) throw new Error("chromium not found: install Debian's chromium package (apt-get install chromium) or set CHROMIUM_PATH");
  return found;
}
