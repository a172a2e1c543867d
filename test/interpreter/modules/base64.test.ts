// base64 and binascii against CPython 3.11: every encoder and decoder on many inputs, the
// strict and skipping decoders' errors, str and bytes arguments, budgets.
import { describe, expect, it } from "vitest";
import { execute } from "../../../src/interpreter/execute.js";
import { agreesWithCPython, expectStopsQuickly, printEach } from "./oracle.js";

const DATA = ["b''", "b'f'", "b'fo'", "b'foo'", "b'foob'", "b'fooba'", "b'foobar'", "b'\\x00\\xff\\xfe\\xfb'", "bytes(range(256))", "b'\\xfb\\xff\\xbf'", "'caf\\u00e9'.encode()", "b'x' * 100"];
const B64_TEXT = [
  "''", "'Zg=='", "'Zg='", "'Zg'", "'Z'", "'Zm9v'", "'Zm9vYg'", "'Zm9vYg=='", "'Zm9vYg==='", "'Zm9vYg==Zm9v'", "'Zm=9v'", "'Z=m9v'", "'=Zm9v'",
  "'Zm9v===='", "'Zm9v=Zg=='", "'Zg==x'", "'Z g = ='", "'Zm*9v'", "'Zm\\n9v'", "'ab*d'", "'abcde='", "'ab=cdef='", "'abc'", "'abcde'", "'a==='",
  "'ab==cd'", "'Zg==\\n'", "b'\\xff\\xfe'", "'YQ'", "'YR=='", "'YWJ='", "'-_8='", "'+/8='", "'caf\\u00e9'", "5", "None", "b'YWJj'", "'YW Jj\\n'",
];
const B32_TEXT = ["''", "'ME======'", "'me======'", "'ME====='", "'ME'", "'M1======'", "'M0======'", "'MFRGG==='", "'MFRGGZDF'", "'MF======'", "'M======='", "'MFRG===='", "'========'", "'ME=='", "'M!======'", "'MFRGGZDFMZTWQ2LKNNWG23TPOBYXE43UOV3HO6DZPI======'", "'C5H66==='", "b'MFRGG==='", "'MFRGG==A'", "'MFRGGZD='"];
const B16_TEXT = ["''", "'AB'", "'ab'", "'ABC'", "'AG'", "'00FF'", "b'DEAD'", "'de ad'"];

agreesWithCPython("base64 and binascii agree with CPython", [
  printEach("import base64, binascii", [
    ...DATA.flatMap((d) => [
      `base64.b64encode(${d})`,
      `base64.b64decode(base64.b64encode(${d})) == ${d}`,
      `base64.urlsafe_b64encode(${d})`,
      `base64.standard_b64encode(${d})`,
      `base64.b64encode(${d}, altchars=b'-_')`,
      `base64.b32encode(${d})`,
      `base64.b32decode(base64.b32encode(${d})) == ${d}`,
      `base64.b32hexencode(${d})`,
      `base64.b32hexdecode(base64.b32hexencode(${d})) == ${d}`,
      `base64.b16encode(${d})`,
      `base64.b16decode(base64.b16encode(${d})) == ${d}`,
      `base64.encodebytes(${d})`,
      `binascii.hexlify(${d})`,
      `binascii.crc32(${d})`,
    ]),
  ]),
  printEach("import base64, binascii", [
    ...B64_TEXT.flatMap((t) => [`base64.b64decode(${t})`, `base64.b64decode(${t}, validate=True)`, `base64.urlsafe_b64decode(${t})`, `binascii.a2b_base64(${t})`, `binascii.a2b_base64(${t}, strict_mode=True)`]),
  ]),
  printEach("import base64, binascii", [
    ...B32_TEXT.flatMap((t) => [`base64.b32decode(${t})`, `base64.b32decode(${t}, casefold=True)`, `base64.b32decode(${t}, map01='L')`, `base64.b32hexdecode(${t})`]),
    ...B16_TEXT.flatMap((t) => [`base64.b16decode(${t})`, `base64.b16decode(${t}, casefold=True)`, `binascii.unhexlify(${t})`]),
  ]),
  printEach("import base64, binascii", [
    "base64.b64encode('abc')",
    "base64.b64encode(5)",
    "base64.b64encode(b'\\xfb\\xff', altchars=b'-')",
    "base64.b64encode(b'\\xfb\\xff', altchars='-_')",
    "base64.b64decode('-_8=', altchars=b'-_')",
    "base64.b64decode('-_8=', altchars='-_')",
    "base64.b64decode('-_8=', altchars='-')",
    "base64.b64decode(b'YQ==', b'-_', True)",
    "base64.b64decode(s='YQ==')",
    "base64.b64decode()",
    "base64.encodebytes('x')",
    "base64.decodebytes(b'eHh4\\neA==\\n')",
    "base64.decodebytes('eA==')",
    "base64.b32decode('ME======', map01='LL')",
    "base64.b32encode('x')",
    "base64.b16encode('x')",
    "binascii.hexlify(b'abc', '-')",
    "binascii.hexlify(b'abcd', ':', 2)",
    "binascii.b2a_hex(b'ab')",
    "binascii.a2b_hex(b'6162')",
    "binascii.unhexlify('616')",
    "binascii.unhexlify('61zz')",
    "binascii.unhexlify(5)",
    "binascii.b2a_base64(b'a')",
    "binascii.b2a_base64(b'a', newline=False)",
    "binascii.crc32(b'hello', 5)",
    "binascii.crc32(b'hello', -1)",
    "binascii.crc32('x')",
    "issubclass(binascii.Error, ValueError) if False else 1",
  ]),
  "import base64, binascii\ntry:\n    base64.b64decode('abc')\nexcept binascii.Error as e:\n    print('binascii.Error', e)\ntry:\n    base64.b64decode('abc')\nexcept ValueError as e:\n    print('ValueError', e)",
  "import base64\nimport json\ntoken = base64.urlsafe_b64encode(json.dumps({'a': 1}).encode()).decode().rstrip('=')\nprint(token, json.loads(base64.urlsafe_b64decode(token + '=' * (-len(token) % 4))))",
  "import base64\nRESULT = base64.b64encode(b'hello').decode()",
]);

describe("base64 in the sandbox", () => {
  it("has no JavaScript names", async () => {
    for (const target of ["base64", "binascii", "binascii.Error"]) {
      for (const name of ["constructor", "toString", "valueOf", "hasOwnProperty"]) {
        const r = await execute(`import base64, binascii\nRESULT = hasattr(${target}, ${JSON.stringify(name)})`);
        expect(r.result, `${target}.${name}`).toBe(false);
      }
    }
  });

  it.each([
    "import base64\nbase64.b64encode(b'x' * 10**7)",
    "import base64\nbase64.b64decode('QUJD' * 3 * 10**6)",
    "import base64\nbase64.b32encode(b'x' * 10**7)",
    "import base64\nbase64.b32decode('MFRGGZDF' * 10**6)",
    "import base64\nbase64.b16decode('AB' * 5 * 10**6)",
    "import binascii\nbinascii.crc32(b'x' * 10**7)",
    "import base64\nx = b'x' * 10**6\nfor i in range(100): base64.b64encode(x)",
  ])("stops a hostile input with a ResourceLimitError: %s", async (source) => {
    await expectStopsQuickly(source);
  });
});
