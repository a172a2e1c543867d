// The result's JSON text (stringifyPlain): JSON.stringify's layout, with exact big integers, and
// no marker a script's own data could imitate.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stringifyPlain } from "../../src/interpreter/boundary.js";
import { execute } from "../../src/interpreter/execute.js";

describe("stringifyPlain", () => {
  it("writes what JSON.stringify writes, at every indent (fixed seed)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 0, 2, 4), (v, indent) => {
        // With a bigint somewhere, the walk writes the parts around it; JSON.stringify the rest.
        expect(stringifyPlain([v, 1n, { v }], indent)).toBe(JSON.stringify([v, 1, { v }], null, indent));
        expect(stringifyPlain(v, indent)).toBe(JSON.stringify(v, null, indent));
      }),
      { seed: 18, numRuns: 500 },
    );
  });

  it("writes big integers as exact literals", () => {
    expect(stringifyPlain({ n: 12345678901234567890n, m: [-5n] })).toBe('{"n":12345678901234567890,"m":[-5]}');
  });

  it("keeps a script's dict that looks like a big-int marker a dict", async () => {
    const r = await execute('RESULT = [{"__bigint__": "123"}, {"__bigint__": "-1", "x": 1}, 2**70]');
    expect(stringifyPlain(r.result)).toBe('[{"__bigint__":"123"},{"__bigint__":"-1","x":1},1180591620717411303424]');
  });

  it("keeps a tool result that looks like a marker a dict, inside and out", async () => {
    const hosts = { srv: { get: async () => ({ __bigint__: "5" }) } };
    const r = await execute('v = srv.get()\nRESULT = [v, isinstance(v, dict), v["__bigint__"]]', { hosts });
    expect(r.error).toBeNull();
    expect(stringifyPlain(r.result)).toBe('[{"__bigint__":"5"},true,"5"]');
  });

  it("passes a keyword argument named __proto__ to a tool as an own property, not a prototype", async () => {
    const hosts = {
      srv: {
        echo: async (_args: unknown[], kwargs: Record<string, unknown>) => [Object.keys(kwargs), Object.getPrototypeOf(kwargs) === Object.prototype],
      },
    };
    const r = await execute('RESULT = srv.echo(**{"__proto__": {"admin": True}, "a": 1})', { hosts });
    expect(r.result).toEqual([["__proto__", "a"], true]);
    expect(stringifyPlain(r.tool_calls[0]!.arguments)).toBe('{"__proto__":{"admin":true},"a":1}');
  });
});
