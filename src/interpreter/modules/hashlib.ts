// hashlib of CPython 3.11 on Node's crypto: md5, sha1, the SHA-2 and SHA-3 families, shake_128
// and shake_256 (digest(length)), blake2b and blake2s with their default parameters. A hash object
// has update, digest, hexdigest, copy, name, digest_size and block_size; digest() can be called
// at any point and hashing goes on after it, as in CPython. Each byte hashed is charged (a step
// per 2) before it is.
import { createHash, type Hash } from "node:crypto";
import { pyError } from "../errors.js";
import { PyClass, PyInstance } from "../instance.js";
import { bind, type Kwargs, type NativeContext, type NativeFn } from "../native.js";
import { PyBytes, PySet, typeName, type Value } from "../values.js";

interface Algorithm {
  /** Node's name for it. */
  node: string;
  digestSize: number;
  blockSize: number;
  /** An extendable-output function (shake): digest(length). */
  xof?: boolean;
}

const ALGORITHMS: Record<string, Algorithm> = {
  md5: { node: "md5", digestSize: 16, blockSize: 64 },
  sha1: { node: "sha1", digestSize: 20, blockSize: 64 },
  sha224: { node: "sha224", digestSize: 28, blockSize: 64 },
  sha256: { node: "sha256", digestSize: 32, blockSize: 64 },
  sha384: { node: "sha384", digestSize: 48, blockSize: 128 },
  sha512: { node: "sha512", digestSize: 64, blockSize: 128 },
  sha512_224: { node: "sha512-224", digestSize: 28, blockSize: 128 },
  sha512_256: { node: "sha512-256", digestSize: 32, blockSize: 128 },
  sha3_224: { node: "sha3-224", digestSize: 28, blockSize: 144 },
  sha3_256: { node: "sha3-256", digestSize: 32, blockSize: 136 },
  sha3_384: { node: "sha3-384", digestSize: 48, blockSize: 104 },
  sha3_512: { node: "sha3-512", digestSize: 64, blockSize: 72 },
  shake_128: { node: "shake128", digestSize: 0, blockSize: 168, xof: true },
  shake_256: { node: "shake256", digestSize: 0, blockSize: 136, xof: true },
  blake2b: { node: "blake2b512", digestSize: 64, blockSize: 128 },
  blake2s: { node: "blake2s256", digestSize: 32, blockSize: 64 },
};

const GUARANTEED = ["blake2b", "blake2s", "md5", "sha1", "sha224", "sha256", "sha384", "sha3_224", "sha3_256", "sha3_384", "sha3_512", "sha512", "shake_128", "shake_256"];

/** hashlib.new's names: CPython's, and OpenSSL's spellings of them (`SHA256`, `sha-256`, `sha3-256`). */
function canonicalName(name: string): string | undefined {
  const lower = name.toLowerCase();
  if (lower in ALGORITHMS) return lower;
  const aliases: Record<string, string> = {
    "sha-1": "sha1",
    "sha-224": "sha224",
    "sha-256": "sha256",
    "sha-384": "sha384",
    "sha-512": "sha512",
    "sha2-224": "sha224",
    "sha2-256": "sha256",
    "sha2-384": "sha384",
    "sha2-512": "sha512",
    "sha512-224": "sha512_224",
    "sha512-256": "sha512_256",
    "sha3-224": "sha3_224",
    "sha3-256": "sha3_256",
    "sha3-384": "sha3_384",
    "sha3-512": "sha3_512",
    shake128: "shake_128",
    shake256: "shake_256",
    blake2b512: "blake2b",
    blake2s256: "blake2s",
  };
  return Object.prototype.hasOwnProperty.call(aliases, lower) ? aliases[lower] : undefined;
}

/** What may be hashed: bytes (CPython's buffer protocol); a str must be encoded first. */
function hashable(v: Value): Uint8Array {
  if (v instanceof PyBytes) return v.bytes;
  if (typeof v === "string") throw pyError("TypeError", "Strings must be encoded before hashing");
  throw pyError("TypeError", "object supporting the buffer API required");
  void typeName;
}

const HASH_CLASS = new PyClass("HASH", "_hashlib", () => {
  throw pyError("TypeError", "cannot create '_hashlib.HASH' instances");
});
const XOF_CLASS = new PyClass("HASHXOF", "_hashlib", () => {
  throw pyError("TypeError", "cannot create '_hashlib.HASHXOF' instances");
});
const BLAKE_CLASSES: Record<string, PyClass> = {
  blake2b: new PyClass("blake2b", "_blake2", (ctx, args, kwargs) => construct(ctx, "blake2b", args, kwargs)),
  blake2s: new PyClass("blake2s", "_blake2", (ctx, args, kwargs) => construct(ctx, "blake2s", args, kwargs)),
};

class HashObject extends PyInstance {
  constructor(
    readonly name: string,
    readonly algorithm: Algorithm,
    private readonly state: Hash,
  ) {
    super();
  }

  get cls(): PyClass {
    return BLAKE_CLASSES[this.name] ?? (this.algorithm.xof ? XOF_CLASS : HASH_CLASS);
  }

  /** As CPython's C types name themselves in messages: `'_hashlib.HASH' object has no attribute`. */
  override get typeName(): string {
    return `${this.cls.module}.${this.cls.name}`;
  }

  override heapBytes(): number {
    return 512;
  }

  pyRepr(): string {
    return this.name.startsWith("blake2") ? `<_blake2.${this.name} object>` : `<${this.name} _hashlib.${this.algorithm.xof ? "HASHXOF" : "HASH"} object>`;
  }

  override pyAttr(name: string): Value | undefined {
    if (name === "name") return this.name;
    if (name === "digest_size") return this.algorithm.digestSize;
    if (name === "block_size") return this.algorithm.blockSize;
    return undefined;
  }

  update(ctx: NativeContext, data: Uint8Array): void {
    ctx.budget.step(1 + (data.length >> 1));
    this.state.update(data);
  }

  /** The digest so far, of `length` bytes for shake; the state goes on. */
  digest(ctx: NativeContext, length?: number): Uint8Array {
    ctx.budget.step(1 + ((length ?? 0) >> 3));
    ctx.budget.checkSize(length ?? 0);
    const copy = length === undefined ? this.state.copy() : this.state.copy({ outputLength: length });
    return new Uint8Array(copy.digest());
  }

  copy(): HashObject {
    return new HashObject(this.name, this.algorithm, this.state.copy());
  }
}

function methods(cls: PyClass): void {
  cls.methods.set("update", (ctx, self: HashObject, args, kwargs) => {
    if ((kwargs !== null && kwargs.size > 0) || args.length !== 1) {
      if (kwargs !== null && kwargs.size > 0) throw pyError("TypeError", `${cls.name}.update() takes no keyword arguments`);
      throw pyError("TypeError", `${cls.name}.update() takes exactly one argument (${args.length} given)`);
    }
    self.update(ctx, hashable(args[0]!));
    return null;
  });
  const length = (args: Value[], kwargs: Kwargs | null, fn: string): number | undefined => {
    if (cls !== XOF_CLASS) {
      if (kwargs !== null && kwargs.size > 0) throw pyError("TypeError", `${cls.name}.${fn}() takes no keyword arguments`);
      if (args.length > 0) throw pyError("TypeError", `${cls.name}.${fn}() takes no arguments (${args.length} given)`);
      return undefined;
    }
    const [n] = bind(fn, { names: ["length"], required: 1 }, args, kwargs);
    if (typeof n !== "number" && typeof n !== "boolean") throw pyError("TypeError", `'${typeName(n!)}' object cannot be interpreted as an integer`);
    const k = Number(n);
    if (k < 0) throw pyError("ValueError", "length must be non-negative");
    return k;
  };
  cls.methods.set("digest", (ctx, self: HashObject, args, kwargs) => new PyBytes(self.digest(ctx, length(args, kwargs, "digest"))));
  cls.methods.set("hexdigest", (ctx, self: HashObject, args, kwargs) => {
    const bytes = self.digest(ctx, length(args, kwargs, "hexdigest"));
    ctx.budget.checkSize(4 * bytes.length);
    return Buffer.from(bytes).toString("hex");
  });
  cls.methods.set("copy", (ctx, self: HashObject, args, kwargs) => {
    bind(`${cls.name}.copy`, { names: [], required: 0 }, args, kwargs);
    ctx.budget.step(1);
    return self.copy();
  });
}
methods(HASH_CLASS);
methods(XOF_CLASS);
methods(BLAKE_CLASSES.blake2b!);
methods(BLAKE_CLASSES.blake2s!);

/** A new hash object of `name`, fed `data`; `usedforsecurity` is accepted and means nothing here. */
function construct(ctx: NativeContext, name: string, args: Value[], kwargs: Kwargs | null, via?: string): HashObject {
  const blake = name.startsWith("blake2");
  const fn = via ?? (blake ? name : `openssl_${name}`);
  const dataName = "string";
  if (args.length > 1) throw pyError("TypeError", `${fn}() takes at most 1 positional argument (${args.length} given)`);
  let data = args[0];
  for (const [k, v] of kwargs ?? []) {
    if (k === "usedforsecurity") continue;
    if (!blake && k === dataName) {
      if (data !== undefined) throw pyError("TypeError", `argument for ${fn}() given by name ('${k}') and position (1)`);
      data = v;
      continue;
    }
    if (blake && ["digest_size", "key", "salt", "person", "fanout", "depth", "leaf_size", "node_offset", "node_depth", "inner_size", "last_node"].includes(k)) {
      throw pyError("ValueError", `${name}(${k}=...) is not supported in the sandbox; only its default parameters are`);
    }
    throw pyError("TypeError", `'${k}' is an invalid keyword argument for ${fn}()`);
  }
  const algorithm = ALGORITHMS[name]!;
  const h = new HashObject(name, algorithm, createHash(algorithm.node));
  ctx.budget.step(1);
  if (data !== undefined) h.update(ctx, hashable(data));
  return h;
}

const constructor = (name: string): NativeFn => (ctx, args, kwargs) => construct(ctx, name, args, kwargs);

const newHash: NativeFn = (ctx, args, kwargs) => {
  const rest = new Map(kwargs ?? []);
  const take = (key: string, position: number): Value | undefined => {
    const named = rest.get(key);
    if (named !== undefined) {
      if (args.length > position) throw pyError("TypeError", `argument for new() given by name ('${key}') and position (${position + 1})`);
      rest.delete(key);
      return named;
    }
    return args[position];
  };
  if (args.length > 2) throw pyError("TypeError", `new() takes at most 2 positional arguments (${args.length} given)`);
  const name = take("name", 0);
  // CPython's new() passes its data on by position: a `string=` then meets it twice.
  if (rest.has("string")) throw pyError("TypeError", "argument for new() given by name ('string') and position (2)");
  const data = take("data", 1);
  if (name === undefined) throw pyError("TypeError", "new() missing required argument 'name' (pos 1)");
  if (typeof name !== "string") throw pyError("TypeError", `new() argument 'name' must be str, not ${typeName(name)}`);
  const canonical = canonicalName(name);
  if (canonical === undefined) throw pyError("ValueError", `unsupported hash type ${name}`);
  return construct(ctx, canonical, data === undefined ? [] : [data], rest.size > 0 ? rest : null, "new");
};

/** The module's table, made per execution: its sets of names are the script's to change. */
export function hashlibModule(): Record<string, NativeFn | Value> {
  const names = (list: string[]) => {
    const s = new PySet();
    for (const n of list) s.add(n);
    return s;
  };
  return {
    new: newHash,
    // sha512_224 and sha512_256 are reached through new() only, as in CPython.
    ...Object.fromEntries(
      Object.keys(ALGORITHMS)
        .filter((n) => !n.startsWith("sha512_"))
        .map((n) => [n, n.startsWith("blake2") ? BLAKE_CLASSES[n]! : constructor(n)]),
    ),
    algorithms_guaranteed: names(GUARANTEED),
    algorithms_available: names(Object.keys(ALGORITHMS)),
  };
}
