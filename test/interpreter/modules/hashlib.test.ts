// hashlib against CPython 3.11: every algorithm's digests of many inputs, incremental updates,
// copies, attributes, hashlib.new's names and the errors of wrong arguments; budgets.
import { describe, expect, it } from "vitest";
import { execute } from "../../../src/interpreter/execute.js";
import { agreesWithCPython, expectStopsQuickly, printEach } from "./oracle.js";

const ALGORITHMS = ["md5", "sha1", "sha224", "sha256", "sha384", "sha512", "sha512_224", "sha512_256", "sha3_224", "sha3_256", "sha3_384", "sha3_512", "blake2b", "blake2s"];
const DATA = ["b''", "b'abc'", "b'a' * 1000", "bytes(range(256))", "'h\\u00e9llo'.encode()", "b'\\x00' * 64"];

agreesWithCPython("hashlib agrees with CPython", [
  ...ALGORITHMS.map((a) =>
    printEach("import hashlib", [
      ...DATA.map((d) => `hashlib.${a}(${d}).hexdigest()`),
      `hashlib.${a}(b'abc').digest()`,
      `hashlib.new(${JSON.stringify(a)}, b'abc').hexdigest()`,
      `(hashlib.${a}().name, hashlib.${a}().digest_size, hashlib.${a}().block_size)`,
      `hashlib.${a}(string=b'x').hexdigest() if ${JSON.stringify(a)}[:5] != 'blake' else hashlib.${a}(data=b'x').hexdigest()`,
      `hashlib.${a}(b'x', usedforsecurity=False).hexdigest()`,
    ]),
  ),
  printEach("import hashlib", [
    "hashlib.shake_128(b'x').hexdigest(4)",
    "hashlib.shake_128(b'x').digest(16)",
    "hashlib.shake_256(b'').digest(8)",
    "hashlib.shake_256(b'abc').hexdigest(64)",
    "hashlib.shake_128(b'x').hexdigest()",
    "hashlib.shake_128(b'x').digest(0)",
    "(hashlib.shake_128().name, hashlib.shake_128().digest_size, hashlib.shake_128().block_size)",
    "hashlib.new('SHA256', b'x').name",
    "hashlib.new('sha-256', b'x').hexdigest()",
    "hashlib.new('sha3-256').name",
    "hashlib.new(name='md5', data=b'a').hexdigest()",
    "hashlib.new('md5', string=b'a').hexdigest()",
    "hashlib.new('md5', b'a', string=b'a')",
    "hashlib.new('nope')",
    "hashlib.sha256('x')",
    "hashlib.sha256(5)",
    "hashlib.sha256(None)",
    "hashlib.sha256(data=b'x')",
    "hashlib.md5(b'a', b'b')",
    "hashlib.sha256().update('x')",
    "hashlib.sha256().update()",
    "hashlib.sha256().update(b'a', b'b')",
    "sorted(hashlib.algorithms_guaranteed)",
    "'sha256' in hashlib.algorithms_available",
    "hashlib.sha256().nope",
    "hashlib.sha256().digest(5)",
  ]),
  "import hashlib\nh = hashlib.sha256()\nh.update(b'hello ')\nc = h.copy()\nprint(h.hexdigest())\nh.update(b'world')\nprint(h.hexdigest(), c.hexdigest(), h.hexdigest() == hashlib.sha256(b'hello world').hexdigest())\nc.update(b'there')\nprint(c.hexdigest(), h.digest() == h.digest())",
  "import hashlib\nm = hashlib.md5()\nfor part in ['a', 'b', 'c']:\n    m.update(part.encode())\nprint(m.hexdigest(), hashlib.md5(b'abc').hexdigest())",
  "import hashlib, json\npayload = json.dumps({'b': 1, 'a': [1, 2]}, sort_keys=True).encode()\nRESULT = hashlib.sha1(payload).hexdigest()[:12]",
  "import hashlib\ns = hashlib.algorithms_guaranteed\ns.add('x')\nprint('x' in hashlib.algorithms_guaranteed)",
]);

describe("hashlib in the sandbox", () => {
  it("gives each execution its own algorithm sets", async () => {
    await execute("import hashlib\nhashlib.algorithms_guaranteed.add('mine')");
    const r = await execute("import hashlib\nRESULT = 'mine' in hashlib.algorithms_guaranteed");
    expect(r.result).toBe(false);
  });

  it("has no JavaScript names on the module, the hash objects and their classes", async () => {
    for (const target of ["hashlib", "hashlib.sha256()", "type(hashlib.sha256())", "hashlib.blake2b()", "hashlib.blake2b"]) {
      for (const name of ["constructor", "toString", "state", "algorithm", "update_", "__proto__"]) {
        const r = await execute(`import hashlib\nRESULT = hasattr(${target}, ${JSON.stringify(name)})`);
        expect(r.result, `${target}.${name}`).toBe(false);
      }
    }
  });

  it("refuses blake2's parameters it does not implement, naming them", async () => {
    const r = await execute("import hashlib\nhashlib.blake2b(b'x', digest_size=16)");
    expect(r.error?.message).toBe("blake2b(digest_size=...) is not supported in the sandbox; only its default parameters are");
  });

  it.each([
    "import hashlib\nhashlib.sha256(b'x' * 10**7)",
    "import hashlib\nh = hashlib.sha3_512()\nx = b'x' * 10**6\nfor i in range(100): h.update(x)",
    "import hashlib\nhashlib.shake_256(b'x').digest(2 * 10**7)",
    "import hashlib\nh = hashlib.shake_128(b'x')\nfor i in range(1000): h.hexdigest(10**6)",
  ])("stops a hostile input with a ResourceLimitError: %s", async (source) => {
    await expectStopsQuickly(source);
  });
});
