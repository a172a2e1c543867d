// The pre-flight analysis (SPEC §7): which tool calls a script makes, read from its AST, and
// whether it may run unattended. One server `edge` (add, echo, env; add and echo auto-executable)
// and one `other` (ping, auto-executable).
import { describe, expect, it } from "vitest";
import { preflight, type PreflightInput } from "../../src/agent/preflight.js";
import { ToolNames } from "../../src/codemode/names.js";

const TOOLS: Record<string, string[]> = { edge: ["add", "echo", "env", "get-item"], other: ["ping"] };
const AUTO = new Set(["edge.add", "edge.echo", "edge.get-item", "other.ping"]);

const input: PreflightInput = {
  servers: new Map(Object.entries(TOOLS).map(([server, tools]) => {
    const names = new ToolNames(tools);
    return [server, (python: string) => names.upstream(python)];
  })),
  autoExecutable: (server, tool) => AUTO.has(`${server}.${tool}`),
};

const check = (code: string) => preflight(code, input);

describe("preflight: scripts that may run unattended", () => {
  it.each([
    ["a direct call", "RESULT = edge.add(a=1, b=2)", ["edge.add"]],
    ["calls on two servers, in a loop and a function", "def f(x):\n    return edge.echo(text=x)\nfor i in range(3):\n    other.ping()\nRESULT = f('a')", ["edge.echo", "other.ping"]],
    ["awaitable forms under asyncio.gather", "import asyncio\nasync def main():\n    return await asyncio.gather(edge.add_async(a=1, b=2), edge.echo_async(text='x'))\nRESULT = asyncio.run(main())", ["edge.add", "edge.echo"]],
    ["getattr with a literal name, called at once", "RESULT = getattr(edge, 'add')(a=1, b=2)", ["edge.add"]],
    ["a tool whose upstream name has a hyphen", "RESULT = edge.get_item()", ["edge.get-item"]],
    ["a call inside a lambda and a comprehension", "f = lambda t: edge.echo(text=t)\nRESULT = [f(x) for x in 'ab'] + [edge.add(a=i, b=i) for i in range(2)]", ["edge.echo", "edge.add"]],
    ["no tools at all", "print('hello')\nRESULT = sum(range(10))", []],
    ["getattr on something that is not a server", "d = {'k': 1}\nn = 'get'\nRESULT = getattr(d, n)('k')", []],
    ["a name that is not a visible server", "RESULT = github.delete_repo(name='x')", []],
  ])("%s", (_label, code, tools) => {
    const result = check(code);
    expect(result.reasons).toEqual([]);
    expect(result.autoExecutable).toBe(true);
    expect([...new Set(result.calls.map((c) => `${c.server}.${c.tool}`))].sort()).toEqual([...tools].sort());
  });

  it("lets a script with a syntax error run (it runs nothing; the model reads the error)", () => {
    expect(check("def (:\n")).toEqual({ autoExecutable: true, calls: [], reasons: [] });
  });
});

describe("preflight: scripts that need approval", () => {
  it.each([
    ["a tool outside tools_to_auto_execute", "edge.env(name='HOME')", "line 1: edge.env() calls 'env', which is not in tools_to_auto_execute"],
    ["its awaitable form", "async def m():\n    return await edge.env_async(name='HOME')", "line 2: edge.env_async() calls 'env', which is not in tools_to_auto_execute"],
    ["getattr with a literal name outside the list", "getattr(edge, 'env')(name='HOME')", "line 1: edge.env() calls 'env'"],
    ["getattr with a computed name", "n = 'en' + 'v'\ngetattr(edge, n)(name='HOME')", "line 2: getattr(edge, ...) with a name that is not a string literal"],
    ["getattr kept for later", "f = getattr(edge, 'add')\nf(a=1, b=2)", "line 1: getattr(edge, \"add\") is used without being called"],
    ["an aliased server", "e = edge\ne.env(name='HOME')", "line 1: the server 'edge' is assigned or rebound"],
    ["a tool kept in a variable", "f = edge.add\nf(a=1, b=2)", "line 1: 'edge.add' is used without being called"],
    ["tools in a container", "table = {'a': edge.add, 'b': edge.env}\ntable['b'](name='HOME')", "line 1: 'edge.add' is used without being called"],
    ["a server in a list", "for s in [edge, other]:\n    pass", "line 1: the server 'edge' is stored in a container"],
    ["a server passed to a function", "def call(s):\n    return s.env(name='HOME')\ncall(edge)", "line 3: the server 'edge' is passed to a function"],
    ["a server passed by keyword", "def call(s):\n    return s.env(name='HOME')\ncall(s=edge)", "line 3: the server 'edge' is passed to a function"],
    ["a parameter named like a server", "def f(edge):\n    return edge.add(a=1, b=2)", "line 1: the script binds the name 'edge', which is a server"],
    ["a loop variable named like a server", "for edge in [1]:\n    pass", "line 1: the server 'edge' is assigned or rebound"],
    ["getattr rebound by the script", "getattr = lambda o, n: o\ngetattr(edge, 'add')(a=1, b=2)", "line 2: the server 'edge' is passed to a function"],
    ["getattr rebound by a def", "def getattr(o, n):\n    return o\ngetattr(edge, 'add')(a=1, b=2)", "line 3: the server 'edge' is passed to a function"],
    ["a tool the server does not have", "edge.nope()", "line 1: 'edge.nope' is not a tool of 'edge'"],
    ["a server in an f-string", "print(f'{edge}')", "line 1: the server 'edge' is used in a way whose tool calls cannot be resolved statically"],
    ["a server returned from a function", "def f():\n    return edge\nf().env(name='HOME')", "line 2: the server 'edge' is used in a way"],
  ])("%s", (_label, code, reason) => {
    const result = check(code);
    expect(result.autoExecutable).toBe(false);
    expect(result.reasons.join("\n")).toContain(reason);
  });

  it("lists every call it found, each marked auto or not", () => {
    const result = check("a = edge.add(a=1, b=2)\nb = edge.env(name='X')");
    expect(result.calls).toEqual([
      { server: "edge", tool: "add", attribute: "add", line: 1, auto: true },
      { server: "edge", tool: "env", attribute: "env", line: 2, auto: false },
    ]);
  });
});
