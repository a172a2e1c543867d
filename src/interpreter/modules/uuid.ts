// uuid of CPython 3.11: the UUID type (from hex text, bytes, bytes_le, fields or an int, with its
// fields, hex, int, urn, variant and version; compared, ordered and hashed by its int), uuid4 from
// the host's cryptographic random source, uuid3 and uuid5 (MD5 and SHA-1 of a namespace and a
// name, CPython's results bit for bit) and the four namespaces.
import { createHash, randomBytes } from "node:crypto";
import { TYPES } from "../builtins.js";
import { pyError } from "../errors.js";
import { NOT_HANDLED, type NotHandled, type Ordering, PyClass, PyInstance } from "../instance.js";
import { bindPython } from "../py-bind.js";
import type { NativeContext, NativeFn } from "../native.js";
import { length } from "../ops.js";
import { normInt, PyBytes, PyTuple, toBigInt, typeName, type Value } from "../values.js";

const RESERVED_NCS = "reserved for NCS compatibility";
const RFC_4122 = "specified in RFC 4122";
const RESERVED_MICROSOFT = "reserved for Microsoft compatibility";
const RESERVED_FUTURE = "reserved for future definition";

const MAX = 1n << 128n;

const UUID_CLASS = new PyClass("UUID", "uuid", (ctx, args, kwargs) => newUuid(ctx, args, kwargs));

class Uuid extends PyInstance {
  constructor(readonly int: bigint) {
    super();
  }

  get cls(): PyClass {
    return UUID_CLASS;
  }

  override heapBytes(): number {
    return 96;
  }

  get hex(): string {
    return this.int.toString(16).padStart(32, "0");
  }

  bytes(): Uint8Array {
    return Uint8Array.from(Buffer.from(this.hex, "hex"));
  }

  pyRepr(): string {
    return `UUID('${this.pyStr()}')`;
  }

  override pyStr(): string {
    const h = this.hex;
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  private bits(shift: number, width: number): bigint {
    return (this.int >> BigInt(shift)) & ((1n << BigInt(width)) - 1n);
  }

  variant(): string {
    if (!(this.int & (0x8000n << 48n))) return RESERVED_NCS;
    if (!(this.int & (0x4000n << 48n))) return RFC_4122;
    if (!(this.int & (0x2000n << 48n))) return RESERVED_MICROSOFT;
    return RESERVED_FUTURE;
  }

  override pyAttr(name: string): Value | undefined {
    switch (name) {
      case "int":
        return normInt(this.int);
      case "hex":
        return this.hex;
      case "urn":
        return `urn:uuid:${this.pyStr()}`;
      case "bytes":
        return new PyBytes(this.bytes());
      case "bytes_le": {
        const b = this.bytes();
        return new PyBytes(Uint8Array.from([b[3]!, b[2]!, b[1]!, b[0]!, b[5]!, b[4]!, b[7]!, b[6]!, ...b.subarray(8)]));
      }
      case "fields":
        return new PyTuple([96, 80, 64, 56, 48, 0].map((shift, i) => normInt(this.bits(shift, [32, 16, 16, 8, 8, 48][i]!))));
      case "time_low":
        return normInt(this.bits(96, 32));
      case "time_mid":
        return normInt(this.bits(80, 16));
      case "time_hi_version":
        return normInt(this.bits(64, 16));
      case "clock_seq_hi_variant":
        return normInt(this.bits(56, 8));
      case "clock_seq_low":
        return normInt(this.bits(48, 8));
      case "node":
        return normInt(this.bits(0, 48));
      case "time":
        return normInt(((this.bits(64, 16) & 0x0fffn) << 48n) | (this.bits(80, 16) << 32n) | this.bits(96, 32));
      case "clock_seq":
        return normInt(((this.bits(56, 8) & 0x3fn) << 8n) | this.bits(48, 8));
      case "variant":
        return this.variant();
      case "version":
        return this.variant() === RFC_4122 ? normInt(this.bits(76, 4)) : null;
    }
    return undefined;
  }

  override pyHash(): string {
    return `\u0000uuid${this.hex}`;
  }

  override pyEquals(other: Value): boolean {
    return other instanceof Uuid && other.int === this.int;
  }

  override pyCompare(op: Ordering, other: Value): boolean | NotHandled {
    if (!(other instanceof Uuid)) return NOT_HANDLED;
    const [a, b] = [this.int, other.int];
    return op === "<" ? a < b : op === "<=" ? a <= b : op === ">" ? a > b : a >= b;
  }
}

/** A UUID of `int` with its variant set to RFC 4122's and its version to `version`. */
function withVersion(int: bigint, version: number): bigint {
  let v = int & ~(0xc000n << 48n);
  v |= 0x8000n << 48n;
  v &= ~(0xf000n << 64n);
  return v | (BigInt(version) << 76n);
}

const FIELD_BITS = [32, 16, 16, 8, 8, 48];

function newUuid(ctx: NativeContext, args: Value[], kwargs: Map<string, Value> | null): Uuid {
  const options = new Map(kwargs ?? []);
  options.delete("is_safe");
  const [hex, bytes, bytesLe, fields, int, version] = bindPython(
    "UUID.__init__",
    ["hex", "bytes", "bytes_le", "fields", "int", "version"],
    [null, null, null, null, null, null],
    args,
    options.size > 0 ? options : null,
    1,
  ) as Value[];
  ctx.budget.step(1);
  if ([hex, bytes, bytesLe, fields, int].filter((v) => v === null).length !== 4) {
    throw pyError("TypeError", "one of the hex, bytes, bytes_le, fields, or int arguments must be given");
  }
  let value: bigint;
  if (hex !== null) {
    if (hex instanceof PyBytes) throw pyError("TypeError", "a bytes-like object is required, not 'str'");
    if (typeof hex !== "string") throw pyError("AttributeError", `'${typeName(hex!)}' object has no attribute 'replace'`);
    const text = hex.replace(/urn:/g, "").replace(/uuid:/g, "").replace(/^[{}]+|[{}]+$/g, "").replace(/-/g, "");
    if ([...text].length !== 32) throw pyError("ValueError", "badly formed hexadecimal UUID string");
    // int(text, 16), with everything int() accepts there (a sign, 0x, underscores, spaces).
    value = toBigInt(TYPES.int!.construct(ctx, [text, 16], null) as number | bigint);
  } else if (bytesLe !== null) {
    const b = bytesArg(bytesLe, "bytes_le");
    value = BigInt("0x" + Buffer.from([b[3]!, b[2]!, b[1]!, b[0]!, b[5]!, b[4]!, b[7]!, b[6]!, ...b.subarray(8)]).toString("hex"));
  } else if (bytes !== null) {
    value = BigInt("0x" + Buffer.from(bytesArg(bytes, "bytes")).toString("hex"));
  } else if (fields !== null) {
    if (length(fields!) !== 6) throw pyError("ValueError", "fields is not a 6-tuple");
    const parts = ctx.toList(fields!);
    value = 0n;
    parts.forEach((f, i) => {
      if (typeof f !== "number" && typeof f !== "bigint" && typeof f !== "boolean") throw pyError("TypeError", `'<=' not supported between instances of 'int' and '${typeName(f)}'`);
      const n = toBigInt(f);
      const bits = FIELD_BITS[i]!;
      if (n < 0n || n >= 1n << BigInt(bits)) throw pyError("ValueError", `field ${i + 1} out of range (need ${bits === 8 ? "an" : "a"} ${bits}-bit value)`);
      value = (value << BigInt(bits)) | n;
    });
  } else {
    if (typeof int !== "number" && typeof int !== "bigint" && typeof int !== "boolean") throw pyError("TypeError", `'<=' not supported between instances of 'int' and '${typeName(int!)}'`);
    value = toBigInt(int);
    if (value < 0n || value >= MAX) throw pyError("ValueError", "int is out of range (need a 128-bit value)");
  }
  if (version !== null) {
    if (typeof version !== "number" || version < 1 || version > 5) throw pyError("ValueError", "illegal version number");
    value = withVersion(value, version);
  }
  return new Uuid(value);
}

function bytesArg(v: Value, name: string): Uint8Array {
  if (!(v instanceof PyBytes)) throw pyError("TypeError", `object of type '${typeName(v)}' has no len()`);
  if (v.bytes.length !== 16) throw pyError("ValueError", `${name} is not a 16-char string`);
  return v.bytes;
}

const uuid4: NativeFn = (ctx, args, kwargs) => {
  bindPython("uuid4", [], [], args, kwargs);
  ctx.budget.step(1);
  return new Uuid(withVersion(BigInt("0x" + randomBytes(16).toString("hex")), 4));
};

/** uuid3 and uuid5: the digest of the namespace's bytes and the name's UTF-8, versioned. */
function named(fn: string, algorithm: "md5" | "sha1", version: number): NativeFn {
  return (ctx, args, kwargs) => {
    const [namespace, name] = bindPython(fn, ["namespace", "name"], [], args, kwargs);
    if (!(namespace instanceof Uuid)) throw pyError("AttributeError", `'${typeName(namespace!)}' object has no attribute 'bytes'`);
    if (typeof name !== "string") throw pyError("TypeError", "encoding without a string argument");
    ctx.budget.step(1 + (name.length >> 1));
    const digest = createHash(algorithm).update(namespace.bytes()).update(name, "utf8").digest();
    return new Uuid(withVersion(BigInt("0x" + digest.subarray(0, 16).toString("hex")), version));
  };
}

const namespace = (hex: string) => new Uuid(BigInt("0x" + hex.replace(/-/g, "")));

export const UUID_MODULE: Record<string, NativeFn | Value> = {
  UUID: UUID_CLASS,
  uuid4,
  uuid3: named("uuid3", "md5", 3),
  uuid5: named("uuid5", "sha1", 5),
  NAMESPACE_DNS: namespace("6ba7b810-9dad-11d1-80b4-00c04fd430c8"),
  NAMESPACE_URL: namespace("6ba7b811-9dad-11d1-80b4-00c04fd430c8"),
  NAMESPACE_OID: namespace("6ba7b812-9dad-11d1-80b4-00c04fd430c8"),
  NAMESPACE_X500: namespace("6ba7b814-9dad-11d1-80b4-00c04fd430c8"),
  RESERVED_NCS,
  RFC_4122,
  RESERVED_MICROSOFT,
  RESERVED_FUTURE,
};
