import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 30_000,
    // The JSON report lets .ci/run print a plain "N passed, N failed" closing line.
    reporters: ["default", "json"],
    outputFile: { json: "test/artifacts/vitest.json" },
    projects: [
      { extends: true, test: { name: "all", include: ["test/**/*.test.ts"] } },
      // The interpreter and code-mode suites once more with every code unit on the JavaScript
      // tier (normally only a script's second run gets there).
      {
        extends: true,
        test: { name: "js-tier", include: ["test/interpreter/**/*.test.ts", "test/codemode/**/*.test.ts"], env: { PY_CODEGEN: "always" } },
      },
    ],
  },
});
