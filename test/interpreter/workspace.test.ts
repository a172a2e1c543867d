// The `workspace` module on a real folder, `sys.argv` and the `env` global.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/interpreter/execute.js";
import { setYieldAlways } from "../../src/interpreter/runtime.js";

function folder(): string {
  const root = mkdtempSync(join(tmpdir(), "ws-"));
  mkdirSync(join(root, "in"));
  writeFileSync(join(root, "in", "data.json"), JSON.stringify({ rows: [1, 2, 3] }));
  writeFileSync(join(root, "notes.txt"), "héllo\n");
  return root;
}

const run = (root: string, code: string, extra: Record<string, unknown> = {}) => execute(code, { workspace: { root }, ...extra });

describe("the workspace module", () => {
  it("reads and writes text and JSON, lists folders, checks and removes files", async () => {
    const root = folder();
    const r = await run(
      root,
      [
        "import workspace",
        "data = workspace.read_json('in/data.json')",
        "n = workspace.write_json('out/summary.json', {'total': sum(data['rows'])}, indent=2)",
        "workspace.write_text('out/log.txt', workspace.read_text('notes.txt') * 2)",
        "before = workspace.exists('out/log.txt')",
        "workspace.remove('out/log.txt')",
        "RESULT = [n, workspace.list(), workspace.list('out'), before, workspace.exists('out/log.txt'), workspace.exists('nowhere/x')]",
      ].join("\n"),
    );
    expect(r.error).toBeNull();
    expect(r.result).toEqual([16, ["in/", "notes.txt", "out/"], ["summary.json"], true, false, false]);
    expect(readFileSync(join(root, "out", "summary.json"), "utf8")).toBe('{\n  "total": 6\n}');
  });

  it("writes JSON whose text was made across pauses (dumps pauses on a long value)", async () => {
    const root = folder();
    setYieldAlways(true);
    try {
      const r = await run(root, "import workspace\nRESULT = workspace.write_json('big.json', {'rows': list(range(3000))})");
      expect(r.error).toBeNull();
      expect(JSON.parse(readFileSync(join(root, "big.json"), "utf8")).rows).toHaveLength(3000);
      expect(r.result).toBe(readFileSync(join(root, "big.json"), "utf8").length);
    } finally {
      setYieldAlways(false);
    }
  });

  it("is importable with from-import and counts what was written", async () => {
    const r = await run(folder(), "from workspace import write_text, usage\nwrite_text('a.txt', 'x' * 10)\nRESULT = usage()");
    expect(r.result).toEqual({ written_bytes: 10, max_write_bytes: 16 * 1024 * 1024, created: 1, max_created: 1000 });
  });

  it("refuses absolute paths, '..', backslashes and NUL", async () => {
    const root = folder();
    for (const [path, message] of [
      ["/etc/passwd", 'workspace paths are relative to the workspace folder; "/etc/passwd" is absolute'],
      ["../x", "'..' is not allowed in workspace paths: \"../x\""],
      ["in/../../x", "'..' is not allowed in workspace paths: \"in/../../x\""],
      ["in\\\\data.json", "workspace paths use '/' between folders"],
    ]) {
      const r = await run(root, `import workspace\nworkspace.read_text(${JSON.stringify(path)})`);
      expect(r.error?.type, path).toBe("ValueError");
      expect(r.error?.message, path).toContain(message);
    }
  });

  it("follows links that stay inside and refuses links that leave", async () => {
    const root = folder();
    const outside = mkdtempSync(join(tmpdir(), "outside-"));
    writeFileSync(join(outside, "secret.txt"), "secret");
    symlinkSync(outside, join(root, "escape"));
    symlinkSync(join(outside, "secret.txt"), join(root, "secret-link.txt"));
    symlinkSync(join(root, "notes.txt"), join(root, "notes-link.txt"));
    const inside = await run(root, "import workspace\nRESULT = workspace.read_text('notes-link.txt')");
    expect(inside.result).toBe("héllo\n");
    for (const code of [
      "workspace.read_text('escape/secret.txt')",
      "workspace.read_text('secret-link.txt')",
      "workspace.write_text('escape/new.txt', 'x')",
      "workspace.write_text('secret-link.txt', 'overwritten')",
      "workspace.list('escape')",
    ]) {
      const r = await run(root, `import workspace\n${code}`);
      expect(r.error?.type, code).toBe("PermissionError");
      expect(r.error?.message, code).toContain("is a link that leaves the workspace (refused)");
    }
    expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("secret");
    expect(existsSync(join(outside, "new.txt"))).toBe(false);
    // Removing a link removes the link, never what it points to.
    const removed = await run(root, "import workspace\nworkspace.remove('secret-link.txt')");
    expect(removed.error).toBeNull();
    expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("secret");
  });

  it("raises FileNotFoundError, which a script can catch", async () => {
    const r = await run(folder(), "import workspace\ntry:\n    workspace.read_text('missing.txt')\nexcept FileNotFoundError as e:\n    RESULT = str(e)");
    expect(r.result).toBe('no such file in the workspace: "missing.txt"');
  });

  it("caps the files and folders one execution creates (1000 by default), uncatchably", async () => {
    const root = folder();
    const started = performance.now();
    const r = await execute("import workspace\ntry:\n    for i in range(20000): workspace.write_text(f'many/f{i}.txt', '')\nexcept Exception:\n    pass", {
      workspace: { root },
    });
    const ms = performance.now() - started;
    expect(r.error?.type).toBe("ResourceLimitError");
    expect(r.error?.message).toBe('workspace_max_created exceeded (limit 1000): creating the file "many/f999.txt" after 1000 files and folders created');
    expect(existsSync(join(root, "many", "f998.txt"))).toBe(true);
    expect(existsSync(join(root, "many", "f999.txt"))).toBe(false);
    expect(ms).toBeLessThan(10_000);
    // Rewriting a file creates nothing; the cap is configurable and per execution.
    const again = await execute("import workspace\nfor i in range(5): workspace.write_text('many/f0.txt', 'x')\nworkspace.write_text('new/a.txt', '')\nRESULT = workspace.usage()['created']", {
      workspace: { root, maxCreated: 2 },
    });
    expect(again.result).toBe(2);
    const capped = await execute("import workspace\nworkspace.write_text('new2/a/b.txt', '')", { workspace: { root, maxCreated: 2 } });
    expect(capped.error?.message).toBe('workspace_max_created exceeded (limit 2): creating the file "new2/a/b.txt" after 2 files and folders created');
  });

  it("refuses paths of more than 32 components, so folders cannot nest without end", async () => {
    const root = folder();
    const r = await execute("import workspace\np = 'd'\nfor i in range(1500):\n    workspace.write_text(p + '/f.txt', '')\n    p += '/d'", { workspace: { root } });
    expect(r.error?.type).toBe("ValueError");
    expect(r.error?.message).toBe("a workspace path has at most 32 components; this one has 33");
    expect(existsSync(join(root, ...Array(31).fill("d"), "f.txt"))).toBe(true);
    expect((await execute(`import workspace\nRESULT = workspace.exists('${Array(40).fill("d").join("/")}')`, { workspace: { root } })).error?.message).toContain("at most 32 components");
  });

  it("caps the bytes one execution writes, uncatchably", async () => {
    const root = folder();
    const r = await execute("import workspace\ntry:\n    for i in range(10): workspace.write_text(f'f{i}.txt', 'x' * 400)\nexcept Exception:\n    pass", {
      workspace: { root, maxWriteBytes: 1000 },
    });
    expect(r.error?.type).toBe("ResourceLimitError");
    expect(r.error?.message).toBe('workspace_max_write_bytes exceeded (limit 1000): writing 400 bytes to "f2.txt" after 800 already written');
    expect(existsSync(join(root, "f2.txt"))).toBe(false);
    // The allowance is per execution.
    expect((await execute("import workspace\nworkspace.write_text('g.txt', 'x' * 900)", { workspace: { root, maxWriteBytes: 1000 } })).error).toBeNull();
  });

  it("charges reads to max_memory_bytes before reading", async () => {
    const root = folder();
    writeFileSync(join(root, "big.txt"), "x".repeat(200_000));
    const r = await run(root, "import workspace\nworkspace.read_text('big.txt')", { limits: { max_memory_bytes: 100_000 } });
    expect(r.error?.message).toMatch(/^max_memory_bytes exceeded \(limit 100000\)/);
  });

  it("refuses text that is not UTF-8 and values JSON cannot hold", async () => {
    const root = folder();
    writeFileSync(join(root, "bin.dat"), Buffer.from([0xff, 0xfe, 0x00]));
    expect((await run(root, "import workspace\nworkspace.read_text('bin.dat')")).error?.type).toBe("UnicodeDecodeError");
    expect((await run(root, "import workspace\nworkspace.write_json('x.json', {1, 2})")).error?.type).toBe("TypeError");
    expect((await run(root, "import workspace\nworkspace.write_text('x.txt', 42)")).error?.message).toBe("workspace.write_text() data must be str, not int");
  });

  it("is not importable without a workspace", async () => {
    const r = await execute("import workspace");
    // The list grows with the standard modules; workspace is not in it.
    expect(r.error?.type).toBe("ImportError");
    const listed = /^module 'workspace' is not available in the sandbox \(available: (.*)\)$/.exec(r.error?.message ?? "")?.[1]?.split(", ");
    // The sorted list of every importable module, the standard ones and sys.
    expect(listed).toEqual([...(listed ?? [])].sort());
    expect(listed).toEqual(expect.arrayContaining(["asyncio", "collections", "datetime", "json", "math", "re", "sys", "typing", "urllib.parse"]));
    expect(r.error?.message).not.toMatch(/available: .*workspace/);
  });
});

describe("sys.argv and env", () => {
  it("gives the script its arguments and the caller's env", async () => {
    const r = await execute("import sys\nfrom sys import argv\nRESULT = [sys.argv, argv[1:], env.get('MODE'), env.get('MISSING', 'dflt')]", {
      argv: ["job.py", "a", "b c"],
      env: { MODE: "fast" },
    });
    expect(r.error).toBeNull();
    expect(r.result).toEqual([["job.py", "a", "b c"], ["a", "b c"], "fast", "dflt"]);
  });

  it("defaults argv to the script's name and env to an empty dict", async () => {
    const r = await execute("import sys\nRESULT = [sys.argv, env]", { filename: "<string>" });
    expect(r.result).toEqual([["<string>"], {}]);
  });

  it("offers argv only, and never the host's environment", async () => {
    const r = await execute("import sys\nsys.path");
    expect(r.error).toMatchObject({ type: "AttributeError", message: "module 'sys' has no attribute 'path'" });
    process.env.CME_SECRET_FOR_TEST = "x";
    expect((await execute("RESULT = 'CME_SECRET_FOR_TEST' in env")).result).toBe(false);
  });

  it("gives a fresh argv list to each execution", async () => {
    const options = { argv: ["s.py"] };
    await execute("import sys\nsys.argv.append('junk')", options);
    expect((await execute("import sys\nRESULT = sys.argv", options)).result).toEqual(["s.py"]);
  });
});
