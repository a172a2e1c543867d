// repr() and str() of containers against python3: nesting, keys of several types, quotes, empty
// containers, and containers that hold themselves ([...] and {...}, as repr.ts's Printer tracks
// the containers it is inside).
import { describe, it } from "vitest";
import { expectResultAsCPython } from "./cpython.js";

const SCRIPT = `
a = [1]
a.append(a)
d = {"k": 1}
d["self"] = d
t = (a, d, [a, a])
e = {1: "one", True: "t", 1.5: [1, {"x": (1,)}], None: {}, (): set(), "q'\\"": frozenset()}
RESULT = [repr(a), repr(d), repr(t), repr(e), str(e), repr({}), repr([d, d]), repr({"a": [1, 2], "b": {"c": d}})]`;

describe("repr() of containers", () => {
  it("prints nesting, keys and self-containing containers as CPython does", async () => {
    await expectResultAsCPython(SCRIPT);
  });
});
