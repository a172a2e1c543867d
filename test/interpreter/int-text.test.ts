// int() of a str, against python3: the shortcut for a short run of ASCII digits (builtins.ts
// SHORT_DECIMAL) and the general parse around it (signs, zeros, underscores, whitespace, other
// Unicode digits, prefixes under base 0 and 16, the error wording).
import { describe, it } from "vitest";
import { expectResultAsCPython } from "./cpython.js";

const TEXTS = ["12", "-0", "+5", "007", "-007", "0", "-12", "123456789012345", "-999999999999999", "1234567890123456", " 42 ", "4_2", "0x1f", "-", "", "+", "1e3", "١٢", "12a", "٣"];

const SCRIPT = `
out = []
for t in ${JSON.stringify(TEXTS)}:
    for b in [None, 10, 0, 16]:
        try:
            out.append(int(t) if b is None else int(t, b))
        except ValueError as e:
            out.append(str(e))
out.append(int("5", base=10))
RESULT = [repr(v) for v in out]`;

describe("int() of a str", () => {
  it("reads digits, signs and prefixes as CPython does, and words its errors alike", async () => {
    await expectResultAsCPython(SCRIPT);
  });
});
