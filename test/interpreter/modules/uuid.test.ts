// uuid against CPython 3.11: UUID from every form, its fields and properties, comparisons and
// hashing, uuid3/uuid5 bit for bit, uuid4's shape, and the errors of bad arguments.
import { describe, expect, it } from "vitest";
import { execute } from "../../../src/interpreter/execute.js";
import { agreesWithCPython, printEach } from "./oracle.js";

const PROPERTIES = ["str(u)", "u", "u.hex", "u.int", "u.version", "u.variant", "u.bytes", "u.bytes_le", "u.fields", "u.time_low", "u.time_mid", "u.time_hi_version", "u.clock_seq_hi_variant", "u.clock_seq_low", "u.node", "u.time", "u.clock_seq", "u.urn"];
const MADE = [
  "uuid.UUID('12345678-1234-5678-1234-567812345678')",
  "uuid.UUID('{12345678-1234-5678-1234-567812345678}')",
  "uuid.UUID('urn:uuid:12345678123456781234567812345678')",
  "uuid.UUID('12345678123456781234567812345678', version=4)",
  "uuid.UUID('ABCDEF00-0000-0000-0000-0000000000FF')",
  "uuid.UUID(hex='12345678-1234-5678-1234-567812345678', version=1)",
  "uuid.UUID(int=5)",
  "uuid.UUID(int=0)",
  "uuid.UUID(int=2**128 - 1)",
  "uuid.UUID(int=2**127)",
  "uuid.UUID(bytes=b'x' * 16)",
  "uuid.UUID(bytes_le=bytes(range(16)))",
  "uuid.UUID(fields=(1, 2, 3, 4, 5, 6))",
  "uuid.UUID(fields=[2**32 - 1, 2**16 - 1, 0, 255, 0, 2**48 - 1], version=5)",
  "uuid.NAMESPACE_DNS",
  "uuid.NAMESPACE_URL",
  "uuid.NAMESPACE_OID",
  "uuid.NAMESPACE_X500",
  "uuid.uuid3(uuid.NAMESPACE_DNS, 'python.org')",
  "uuid.uuid5(uuid.NAMESPACE_DNS, 'python.org')",
  "uuid.uuid5(uuid.NAMESPACE_URL, 'https://example.com/\\u00e9')",
  "uuid.uuid3(uuid.NAMESPACE_OID, '')",
  "uuid.uuid5(uuid.NAMESPACE_X500, '\\U0001F600')",
];

agreesWithCPython("uuid agrees with CPython", [
  ...MADE.map((m) => printEach(`import uuid\nu = ${m}`, PROPERTIES)),
  printEach("import uuid\nu = uuid.UUID('12345678-1234-5678-1234-567812345678')", [
    "uuid.UUID('1234')",
    "uuid.UUID('+2345678123456781234567812345678')",
    "uuid.UUID('0x345678123456781234567812345678')",
    "uuid.UUID('1_345678123456781234567812345678')",
    "uuid.UUID(' 2345678123456781234567812345678')",
    "uuid.UUID('g2345678123456781234567812345678')",
    "uuid.UUID('12345678-1234-5678-1234-5678123456789')",
    "uuid.UUID(int=-1)",
    "uuid.UUID(int=2**128)",
    "uuid.UUID(bytes=b'x' * 15)",
    "uuid.UUID(bytes_le=b'x' * 17)",
    "uuid.UUID(fields=(1, 2, 3, 4, 5))",
    "uuid.UUID(fields=(2**32, 2, 3, 4, 5, 6))",
    "uuid.UUID(fields=(1, 2**16, 3, 4, 5, 6))",
    "uuid.UUID(fields=(1, 2, 3, 4, 256, 6))",
    "uuid.UUID(fields=(1, 2, 3, 4, 5, 2**48))",
    "uuid.UUID()",
    "uuid.UUID('12345678123456781234567812345678', int=5)",
    "uuid.UUID('12345678123456781234567812345678', version=9)",
    "uuid.UUID('12345678123456781234567812345678', version=0)",
    "uuid.UUID(5)",
    "uuid.UUID(b'12345678123456781234567812345678')",
    "uuid.uuid5(uuid.NAMESPACE_URL, b'x')",
    "uuid.uuid5('x', 'y')",
    "uuid.uuid3(uuid.NAMESPACE_DNS, 5)",
    "uuid.uuid3(uuid.NAMESPACE_DNS)",
    "u == uuid.UUID(str(u)), u != uuid.UUID(int=1), u == str(u), u == u.int",
    "u < uuid.UUID(int=2**127), u > uuid.UUID(int=2**127), u <= u, u >= u",
    "u < 5",
    "u < str(u)",
    "hash(u) == hash(uuid.UUID(str(u)))",
    "{u: 1}[uuid.UUID(str(u))]",
    "sorted([uuid.UUID(int=3), uuid.UUID(int=1), uuid.UUID(int=2)])",
    "len({uuid.UUID(int=1), uuid.UUID(int=1), uuid.UUID(int=2)})",
    "uuid.uuid4().version, uuid.uuid4().variant, len(str(uuid.uuid4())), str(uuid.uuid4()).count('-'), len(uuid.uuid4().hex)",
    "uuid.uuid4() != uuid.uuid4()",
    "str(uuid.uuid4())[14], str(uuid.uuid4())[19] in '89ab'",
    "u.nope",
    "type(u)",
    "isinstance(u, uuid.UUID)",
    "uuid.RFC_4122, uuid.RESERVED_NCS, uuid.RESERVED_MICROSOFT, uuid.RESERVED_FUTURE",
    "(f'{u}', '%s' % u, '%r' % u, str([u]))",
  ]),
  "import uuid\nRESULT = {'id': str(uuid.uuid5(uuid.NAMESPACE_DNS, 'example.com'))}",
  "import uuid\nRESULT = uuid.uuid3(uuid.NAMESPACE_DNS, 'x')",
]);

describe("uuid in the sandbox", () => {
  it("has no JavaScript names on the module, UUID and its values", async () => {
    for (const target of ["uuid", "uuid.UUID", "uuid.uuid4()"]) {
      for (const name of ["constructor", "toString", "valueOf", "bits", "pyStr", "cls"]) {
        const r = await execute(`import uuid\nRESULT = hasattr(${target}, ${JSON.stringify(name)})`);
        expect(r.result, `${target}.${name}`).toBe(false);
      }
    }
  });

  it("makes uuid4 from fresh randomness each time", async () => {
    const r = await execute("import uuid\nRESULT = len({uuid.uuid4() for i in range(1000)})");
    expect(r.result).toBe(1000);
  });
});
