// A HostMethodTable gives a server's methods to a script without making one per tool for each
// execution: each is made when the script first reaches it, and behaves as a record's method does.
import { describe, expect, it } from "vitest";
import { execute } from "../../src/interpreter/execute.js";
import { type HostMethod, HostMethodTable } from "../../src/interpreter/index.js";

/** A table of `names`, whose methods answer with their name and arguments, and the names made. */
function table(names: string[]): { methods: HostMethodTable; made: string[] } {
  const made: string[] = [];
  const bound = new Map(names.map((n) => [n, n.toUpperCase()]));
  const methods = new HostMethodTable(bound, (name): HostMethod => {
    made.push(name);
    return async (args, kwargs) => ({ tool: bound.get(name), args, kwargs });
  });
  return { methods, made };
}

describe("HostMethodTable", () => {
  it("makes a method once, when the script first reaches it, and calls it as a record's method", async () => {
    const { methods, made } = table(["search", "get_item", "delete_item"]);
    const r = await execute("a = srv.search(q='x')\nb = srv.search('y')\nf = srv.get_item\nRESULT = [a, b['args'], callable(f)]", { hosts: { srv: methods } });
    expect(r.error).toBeNull();
    expect(r.result).toEqual([{ tool: "SEARCH", args: [], kwargs: { q: "x" } }, ["y"], true]);
    expect(made).toEqual(["search"]);
  });

  it("lists every name, and refuses one it does not have with the names near it", async () => {
    const { methods, made } = table(["search", "get_item", "delete_item"]);
    const listed = await execute("RESULT = repr(srv)", { hosts: { srv: methods } });
    expect(listed.result).toBe("<server srv: delete_item, get_item, search>");
    const missing = await execute("srv.get_iten()", { hosts: { srv: methods } });
    expect(missing.error?.type).toBe("AttributeError");
    expect(missing.error?.message).toBe("server 'srv' has no tool 'get_iten'");
    expect(missing.error?.hints.join("\n")).toContain("Did you mean srv.get_item?");
    expect(made).toEqual([]);
  });

  it("gives the _async form of a method it has", async () => {
    const { methods, made } = table(["search"]);
    const r = await execute("import asyncio\nasync def main():\n    return await asyncio.gather(srv.search_async(1), srv.search_async(2))\nRESULT = [x['args'] for x in asyncio.run(main())]", { hosts: { srv: methods } });
    expect(r.error).toBeNull();
    expect(r.result).toEqual([[1], [2]]);
    expect(made).toEqual(["search"]);
  });
});
