// Copying and merging dicts (dict.copy, dict(d), {**d}, d | e, |=, update) against python3: all
// go through PyDict.update, which moves the entries without hashing their keys again. Keys that
// compare equal across types (1, 1.0, True; 0, False) must keep the spelling CPython keeps: the
// first one stored.
import { describe, it } from "vitest";
import { expectResultAsCPython } from "./cpython.js";

const SCRIPT = `
d = {"a": 1, 1: "one", 1.5: "f", (1, 2): "t", None: 0, True: "shadowed?", "\\\\0z": 2}
e = {1.0: "float one", "b": 2, False: "zero"}
out = []
for make in [lambda: d.copy(), lambda: dict(d), lambda: {**d}, lambda: {**d, **e}, lambda: d | e, lambda: e | d]:
    m = make()
    out.append([repr(list(m.keys())), repr(list(m.values()))])
f = dict(d)
f |= e
out.append(repr(f))
g = {0: "int zero"}
g.update(e)
out.append(repr(g))
out.append(repr(dict(e, c=3)))
out.append(d.copy() is not d)
RESULT = out`;

describe("copying and merging dicts", () => {
  it("keeps CPython's keys, spellings, values and order", async () => {
    await expectResultAsCPython(SCRIPT);
  });
});
