// Upstream text in the gateway's log: one line, control characters escaped, bounded.
import { describe, expect, it } from "vitest";
import { parseClientConfig } from "../../src/upstream/config.js";
import { UpstreamConnection } from "../../src/upstream/connection.js";
import { logText, MAX_LOG_TEXT } from "../../src/upstream/log-text.js";

// Every C0 and C1 control, DEL, and the characters that reorder or break lines.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

describe("logText", () => {
  it("escapes newlines, ANSI escapes and bidirectional overrides", () => {
    expect(logText("a\nb\r\n\tc")).toBe("a\\nb\\r\\n\\tc");
    expect(logText("\x1b[31mred\x1b[0m\x07\x00\x7f\x9b")).toBe("\\x1b[31mred\\x1b[0m\\x07\\x00\\x7f\\x9b");
    expect(logText("user\u202egnp.exe\u2028x")).toBe("user\\u202egnp.exe\\u2028x");
    expect(logText("plain text, ünïcode and emoji 😀")).toBe("plain text, ünïcode and emoji 😀");
  });

  it("bounds the length, saying how much was left out, without splitting a character", () => {
    const long = "x".repeat(5000);
    expect(logText(long)).toBe(`${"x".repeat(MAX_LOG_TEXT)}... (4000 more characters)`);
    expect(logText(`${"x".repeat(9)}😀`, 10)).toBe(`${"x".repeat(9)}... (2 more characters)`);
  });
});

describe("an upstream's error text", () => {
  async function lastErrorOf(stderr: string): Promise<string> {
    // A stdio server that writes `stderr` and dies before it answers.
    const script = `process.stderr.write(${JSON.stringify(stderr)}); process.exit(3)`;
    const connection = new UpstreamConnection(
      parseClientConfig({ name: "noisy", connection_type: "stdio", stdio_config: { command: process.execPath, args: ["-e", script] } }),
      { connectTimeoutMs: 5000, backoffMs: { initial: 60_000, max: 60_000 } },
    );
    try {
      await connection.whenSettled();
      return connection.lastError!;
    } finally {
      await connection.close();
    }
  }

  it("reaches lastError (what the gateway logs) on one line, escaped", async () => {
    const error = await lastErrorOf("y".repeat(20000) + "\n\x1b[2J\x1b[31mboom\ncode-mode-gateway: forged line\r\nlast\x1b]0;title\x07");
    expect(error).toContain("(stderr: \\x1b[2J\\x1b[31mboom | code-mode-gateway: forged line\\r | last\\x1b]0;title\\x07)");
    expect(error).not.toMatch(UNPRINTABLE);
  });

  it("is bounded when a server floods its stderr", async () => {
    const error = await lastErrorOf("z".repeat(20000));
    expect(error).toMatch(/\.\.\. \(\d+ more characters\)$/);
    expect(error.length).toBeLessThanOrEqual(MAX_LOG_TEXT + 40);
  });
});
