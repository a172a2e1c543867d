// code-mode-exec answers with a SandboxResult whatever the script raised (run from dist/).
import { describe, expect, it } from "vitest";
import { run } from "./run-exec.js";

describe("code-mode-exec", () => {
  it("prints a JSON result with the error cut, and exits 1, when the error's message exceeds the budgets", () => {
    const r = run(["-c", "s = 'x'*10**7\nraise ValueError(s,s,s,s,s)"]);
    expect(r.stderr).not.toContain("[object Object]");
    expect(r.code).toBe(1);
    expect(r.json.error).toMatchObject({ type: "ValueError", line: 2 });
    expect(r.json.error.message).toMatch(/^\('x+… \[truncated\]$/);
    expect(r.stdout.length).toBeLessThan(40_000);
  });
});
