// The pre-flight analysis (SPEC §7) of the forms of issue 19: tool calls under top-level await,
// in a decorator line, as a script's final expression or in a top-level return are seen like any
// other. One server `edge` (add, echo, env; add and echo auto-executable) and one `other` (ping).
import { describe, expect, it } from "vitest";
import { preflight, type PreflightInput } from "../../src/agent/preflight.js";
import { ToolNames } from "../../src/codemode/names.js";

const TOOLS: Record<string, string[]> = { edge: ["add", "echo", "env"], other: ["ping"] };
const AUTO = new Set(["edge.add", "edge.echo", "other.ping"]);

const input: PreflightInput = {
  servers: new Map(Object.entries(TOOLS).map(([server, tools]) => {
    const names = new ToolNames(tools);
    return [server, (python: string) => names.upstream(python)];
  })),
  autoExecutable: (server, tool) => AUTO.has(`${server}.${tool}`),
};

const tools = (code: string) => [...new Set(preflight(code, input).calls.map((c) => `${c.server}.${c.tool}`))].sort();

describe("preflight sees the calls of the new forms", () => {
  it.each([
    ["an awaited call at module level", "r = await edge.add_async(a=1, b=2)\nRESULT = r", ["edge.add"]],
    ["asyncio.gather awaited at module level", "import asyncio\nrs = await asyncio.gather(edge.echo_async(text='a'), other.ping_async())", ["edge.echo", "other.ping"]],
    ["awaits in module-level conditions and loops", "if await edge.echo_async(text='x'):\n    pass\nwhile await other.ping_async():\n    break\nxs = [await edge.add_async(a=i, b=i) for i in range(2)]", ["edge.add", "edge.echo", "other.ping"]],
    ["a call as the final expression", "x = 1\nedge.add(a=x, b=2)", ["edge.add"]],
    ["an awaited call as the final expression", "await edge.echo_async(text='hi')", ["edge.echo"]],
    ["a call in a top-level return", "return edge.add(a=1, b=2)", ["edge.add"]],
    ["a call in a decorated function and in a decorator's arguments", "def d(n):\n    return lambda f: f\n@d(edge.echo(text='x'))\ndef f():\n    return other.ping()\nf()", ["edge.echo", "other.ping"]],
  ])("%s", (_label, code, expected) => {
    const result = preflight(code, input);
    expect(result.reasons).toEqual([]);
    expect(result.autoExecutable).toBe(true);
    expect(tools(code)).toEqual(expected);
  });

  it.each([
    ["an awaited tool outside tools_to_auto_execute", "r = await edge.env_async(name='HOME')", "line 1: edge.env_async() calls 'env', which is not in tools_to_auto_execute"],
    ["one in a module-level condition", "x = 1\nif await edge.env_async(name='HOME'):\n    pass", "line 2: edge.env_async() calls 'env', which is not in tools_to_auto_execute"],
    ["one under a top-level gather", "import asyncio\nawait asyncio.gather(edge.add_async(a=1, b=2), edge.env_async(name='x'))", "line 2: edge.env_async() calls 'env', which is not in tools_to_auto_execute"],
    ["one as the final expression", "edge.env(name='HOME')", "line 1: edge.env() calls 'env', which is not in tools_to_auto_execute"],
    ["one in a top-level return", "return await edge.env_async(name='HOME')", "line 1: edge.env_async() calls 'env', which is not in tools_to_auto_execute"],
    ["one in a decorator's arguments", "def d(v):\n    return lambda f: f\n@d(edge.env(name='HOME'))\ndef f():\n    pass", "line 3: edge.env() calls 'env', which is not in tools_to_auto_execute"],
    ["a tool used as a decorator (called with the function, not followed)", "@edge.add\ndef f():\n    pass", "line 1: 'edge.add' is used without being called"],
    ["a server passed to a decorator", "def d(s):\n    return lambda f: f\n@d(edge)\ndef f():\n    pass", "line 3: the server 'edge' is passed to a function"],
  ])("needs approval for %s", (_label, code, reason) => {
    const result = preflight(code, input);
    expect(result.autoExecutable).toBe(false);
    expect(result.reasons.join("\n")).toContain(reason);
  });
});
