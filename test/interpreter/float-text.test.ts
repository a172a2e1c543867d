// float() of a str, against python3: the shortcut for plain ASCII decimal text (builtins.ts
// PLAIN_FLOAT, read by Number()) and the general parse around it (whitespace, underscores, other
// Unicode digits, inf and nan, overflow and underflow, signed zeros, the error wording).
import { describe, it } from "vitest";
import { expectResultAsCPython } from "./cpython.js";

const TEXTS = ["1.25", "-0", "+0.0", "1.", ".5", "-.5", "1e5", "1E-5", "2.5e+3", "007.50", "1e400", "-1e400", "1e-400", "0.1",
  "123456789012345678901234567890", "4.9e-324", "2.4703282292062327e-324", " 1.5 ", "1_000.5", "inf", "-Infinity", "nan",
  "1e", "e5", ".", "+", "", "1.2.3", "١.٥", "0x10", "1e5.0", "--1"];

const SCRIPT = `
out = []
for t in ${JSON.stringify(TEXTS)}:
    try:
        out.append(repr(float(t)))
    except ValueError as e:
        out.append(str(e))
RESULT = out`;

describe("float() of a str", () => {
  it("reads decimal text, signed zeros and special values as CPython does, and words its errors alike", async () => {
    await expectResultAsCPython(SCRIPT);
  });
});
