// The layers of the project (.dependency-cruiser.cjs), checked on the compiled JavaScript that
// `npm test` builds first: no module imports a layer above its own, and the import cycles are
// the ones listed here, no more (each is to be removed; a cycle removed must leave the list).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cruise, type IForbiddenRuleType } from "dependency-cruiser";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const config = createRequire(import.meta.url)(join(ROOT, ".dependency-cruiser.cjs")) as { forbidden: IForbiddenRuleType[]; options: Record<string, unknown> };
const CYCLES: IForbiddenRuleType = { name: "no-circular", severity: "info", from: {}, to: { circular: true } };

/** Import cycles that exist today, each as its modules sorted (issue 21 item 4, issue 22). */
const KNOWN_CYCLES = [
  "dist/src/interpreter/generator.js <-> dist/src/interpreter/stepping.js",
  "dist/src/interpreter/generic-alias.js <-> dist/src/interpreter/ops.js",
  "dist/src/interpreter/modules/index.js <-> dist/src/interpreter/modules/typing.js",
];

interface Violation {
  from: string;
  to: string;
  rule: { name: string; severity: string };
  cycle?: { name: string }[];
}

async function check(paths: string[], baseDir: string): Promise<Violation[]> {
  const result = await cruise(paths, { ruleSet: { forbidden: [...config.forbidden, CYCLES] }, ...config.options, baseDir, validate: true });
  const output = result.output as { summary: { violations: Violation[]; totalCruised: number } };
  expect(output.summary.totalCruised).toBeGreaterThan(0);
  return output.summary.violations;
}

describe("the layers", () => {
  it("are kept: no module imports a layer above its own", async () => {
    const violations = await check(["dist/src", "dist/grammar"], ROOT);
    expect(violations.filter((v) => v.rule.severity === "error").map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
  }, 60_000);

  it("have only the known import cycles", async () => {
    const violations = await check(["dist/src", "dist/grammar"], ROOT);
    const cycles = violations
      .filter((v) => v.rule.name === "no-circular")
      .map((v) => [v.from, ...(v.cycle ?? []).map((c) => c.name)])
      .map((names) => [...new Set(names)].sort().join(" <-> "));
    expect([...new Set(cycles)].sort()).toEqual(KNOWN_CYCLES);
  }, 60_000);

  it("see the interpreter through its index only, type imports included", () => {
    // The compiled code has no type-only imports, so the sources are read for those.
    const offenders: string[] = [];
    const visit = (dir: string): void => {
      for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
        const path = `${dir}/${entry.name}`;
        if (entry.isDirectory()) {
          if (path !== "src/interpreter") visit(path);
        } else if (path.endsWith(".ts")) {
          for (const m of readFileSync(join(ROOT, path), "utf8").matchAll(/from "((?:\.\.\/)+interpreter\/[^"]+)"/g)) {
            if (!m[1]!.endsWith("interpreter/index.js")) offenders.push(`${path}: ${m[1]}`);
          }
        }
      }
    };
    visit("src");
    expect(offenders).toEqual([]);
  });

  it("refuse an upward import and a new cycle", async () => {
    const base = mkdtempSync(join(tmpdir(), "cmg-layers-"));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(base, path)), { recursive: true });
      writeFileSync(join(base, path), text);
    };
    write("dist/src/interpreter/run.js", 'import { gateway } from "../gateway/core.js";\nexport const run = gateway;\n');
    write("dist/src/gateway/core.js", "export const gateway = 1;\n");
    write("dist/src/codemode/a.js", 'import { b } from "./b.js";\nexport const a = b;\n');
    write("dist/src/codemode/b.js", 'import { a } from "./a.js";\nexport const b = () => a;\n');
    write("dist/src/api/c.js", 'import { x } from "../interpreter/run.js";\nexport const c = x;\n');
    const violations = await check(["dist/src"], base);
    expect(violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort()).toEqual([
      "interpreter-through-index: dist/src/api/c.js -> dist/src/interpreter/run.js",
      "layer-interpreter: dist/src/interpreter/run.js -> dist/src/gateway/core.js",
      "no-circular: dist/src/codemode/a.js -> dist/src/codemode/b.js",
    ]);
  }, 60_000);
});
