// The package's root folder (the one holding package.json) from any module of it: under dist/src,
// dist/bin (the bundled binaries) or src itself (the tests run the TypeScript sources). What the
// build makes (the web page, the span thread's module) is found under it, whichever runs.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The folder above `moduleUrl` (an import.meta.url) that holds package.json; the filesystem's root if none does. */
export function packageRoot(moduleUrl: string): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  while (!existsSync(join(dir, "package.json"))) {
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return dir;
}
