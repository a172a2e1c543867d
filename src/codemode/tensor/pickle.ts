// The pickle inside a torch.save archive (`<prefix>/data.pkl`), read and written without Python.
//
// A pickle is a program for a small stack machine, and unpickling an untrusted one normally means
// running whatever globals it names. This reader runs none: it knows the handful of opcodes that
// torch.save emits for one tensor (protocol 2, plus the few protocol 4 adds), and the only globals
// it accepts are the names of those callables, which it interprets itself:
//
//   torch._utils._rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks[, meta])
//   torch._utils._rebuild_parameter(tensor, requires_grad, hooks)       (an nn.Parameter)
//   collections.OrderedDict()                                          (the empty hooks)
//   torch.FloatStorage, torch.LongStorage...                           (in a storage's id)
//
// Any other global is refused by name before anything else happens. The work is bounded: a cap on
// opcodes, memo entries and container sizes, and strings never longer than the pickle itself.
import { type DType, dtypeOfStorage, DTYPES, MAX_DIMS } from "../../interpreter/index.js";

/** A storage named by the pickle's persistent id; its bytes are `<prefix>/data/<key>`. */
export interface StorageRef {
  readonly kind: "storage";
  readonly dtype: DType;
  readonly key: string;
  readonly location: string;
  /** Elements in the storage, as the pickle declares them. */
  readonly numel: number;
}

/** What `_rebuild_tensor_v2` would build: a view of a storage. */
export interface TensorSpec {
  readonly kind: "tensor";
  readonly storage: StorageRef;
  readonly offset: number;
  readonly shape: number[];
  readonly strides: number[];
}

/** The failure of a pickle: `message` says what was wrong, for the user. */
export class PickleError extends Error {}

class Global {
  constructor(readonly name: string) {}
}

class Tuple {
  constructor(readonly items: readonly Item[]) {}
}

type Item = null | boolean | number | bigint | string | Tuple | Item[] | Map<Item, Item> | Global | StorageRef | TensorSpec;

const REBUILD_TENSOR = "torch._utils._rebuild_tensor_v2";
const REBUILD_PARAMETER = "torch._utils._rebuild_parameter";
const ORDERED_DICT = "collections.OrderedDict";
const STORAGE_GLOBALS = new Set(Object.values(DTYPES).map((d) => `torch.${d.storage}`));

/** At most this many opcodes: a one-tensor pickle uses about 40. */
const MAX_OPS = 100_000;
const MAX_MEMO = 10_000;
const MAX_CONTAINER = 10_000;

const MARK = Symbol("mark");

function describe(x: Item): string {
  if (x === null) return "None";
  if (x instanceof Tuple) return "a tuple";
  if (Array.isArray(x)) return "a list";
  if (x instanceof Map) return "a dict";
  if (x instanceof Global) return x.name;
  if (typeof x === "object") return x.kind === "tensor" ? "a tensor" : "a storage";
  return typeof x === "string" ? "a str" : typeof x === "boolean" ? "a bool" : "an int";
}

function int(x: Item, what: string): number {
  if (typeof x === "bigint") throw new PickleError(`${what} is too large (${x})`);
  if (typeof x !== "number" || !Number.isSafeInteger(x)) throw new PickleError(`${what} must be an int, not ${describe(x)}`);
  return x;
}

function ints(x: Item, what: string): number[] {
  if (!(x instanceof Tuple)) throw new PickleError(`${what} must be a tuple of ints, not ${describe(x)}`);
  if (x.items.length > MAX_DIMS) throw new PickleError(`${what} has ${x.items.length} dimensions (at most ${MAX_DIMS})`);
  return x.items.map((v, i) => int(v, `${what}[${i}]`));
}

/** The persistent id of a storage: ('storage', torch.XStorage, key, location, numel). */
function storageOf(pid: Item): StorageRef {
  if (!(pid instanceof Tuple) || pid.items.length !== 5 || pid.items[0] !== "storage") {
    throw new PickleError("a persistent id is not ('storage', type, key, location, numel)");
  }
  const [, type, key, location, numel] = pid.items;
  if (!(type instanceof Global) || !STORAGE_GLOBALS.has(type.name)) throw new PickleError("a persistent id does not name a storage type");
  if (typeof key !== "string" || typeof location !== "string") throw new PickleError("a storage's key and location must be str");
  const n = int(numel, "a storage's size");
  if (n < 0) throw new PickleError("a storage's size is negative");
  return { kind: "storage", dtype: dtypeOfStorage(type.name.slice("torch.".length))!, key, location, numel: n };
}

function rebuildTensor(args: readonly Item[]): TensorSpec {
  if (args.length < 6 || args.length > 7) throw new PickleError(`_rebuild_tensor_v2 takes 6 or 7 arguments, not ${args.length}`);
  const [storage, offset, size, stride] = args;
  if (!storage || typeof storage !== "object" || !("kind" in storage) || storage.kind !== "storage") {
    throw new PickleError(`_rebuild_tensor_v2 needs a storage, not ${describe(storage ?? null)}`);
  }
  const shape = ints(size!, "the size");
  const strides = ints(stride!, "the stride");
  if (shape.length !== strides.length) throw new PickleError(`the size has ${shape.length} dimensions but the stride ${strides.length}`);
  const start = int(offset!, "the storage offset");
  if (start < 0 || shape.some((d) => d < 0) || strides.some((s) => s < 0)) {
    throw new PickleError("sizes, strides and the storage offset must not be negative");
  }
  return { kind: "tensor", storage, offset: start, shape, strides };
}

function call(fn: Item, args: Item): Item {
  if (!(fn instanceof Global)) throw new PickleError(`REDUCE calls ${describe(fn)}, which is not callable here`);
  if (!(args instanceof Tuple)) throw new PickleError("REDUCE needs a tuple of arguments");
  switch (fn.name) {
    case REBUILD_TENSOR:
      return rebuildTensor(args.items);
    case REBUILD_PARAMETER: {
      const data = args.items[0];
      if (!data || typeof data !== "object" || !("kind" in data) || data.kind !== "tensor") {
        throw new PickleError("_rebuild_parameter needs a tensor");
      }
      return data;
    }
    case ORDERED_DICT:
      if (args.items.length !== 0) throw new PickleError("OrderedDict() takes no arguments here");
      return new Map();
    default:
      throw new PickleError(`${fn.name} cannot be called`);
  }
}

function allowGlobal(module: string, name: string): Global {
  const full = `${module}.${name}`;
  if (full === REBUILD_TENSOR || full === REBUILD_PARAMETER || full === ORDERED_DICT || STORAGE_GLOBALS.has(full)) return new Global(full);
  throw new PickleError(`the pickle refers to the global ${full}, which a tensor file does not use (refused)`);
}

const LATIN1 = new TextDecoder("latin1");
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** Runs the pickle in `data` and returns the tensor it describes. */
export function readTensorPickle(data: Uint8Array): TensorSpec {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const stack: (Item | typeof MARK)[] = [];
  const memo = new Map<number, Item>();
  let pos = 0;

  const need = (n: number) => {
    if (pos + n > data.length) throw new PickleError("the pickle ends early (truncated?)");
  };
  const u8 = () => {
    need(1);
    return data[pos++]!;
  };
  const u16 = () => {
    need(2);
    pos += 2;
    return view.getUint16(pos - 2, true);
  };
  const u32 = () => {
    need(4);
    pos += 4;
    return view.getUint32(pos - 4, true);
  };
  const line = (): string => {
    const end = data.indexOf(0x0a, pos);
    if (end < 0 || end - pos > 256) throw new PickleError("a GLOBAL name is not terminated");
    const text = LATIN1.decode(data.subarray(pos, end));
    pos = end + 1;
    return text;
  };
  const text = (n: number): string => {
    need(n);
    try {
      return UTF8.decode(data.subarray(pos, (pos += n)));
    } catch {
      throw new PickleError("a string is not valid UTF-8");
    }
  };
  const pop = (): Item => {
    const v = stack.pop();
    if (v === undefined || v === MARK) throw new PickleError("the pickle pops an empty stack");
    return v;
  };
  const top = (): Item => {
    const v = stack[stack.length - 1];
    if (v === undefined || v === MARK) throw new PickleError("the pickle reads an empty stack");
    return v;
  };
  const popMark = (): Item[] => {
    const at = stack.lastIndexOf(MARK);
    if (at < 0) throw new PickleError("the pickle has no MARK to pop to");
    const items = stack.splice(at) as Item[];
    items.shift();
    if (items.length > MAX_CONTAINER) throw new PickleError("a container in the pickle is too large");
    return items;
  };
  const push = (v: Item) => stack.push(v);
  const put = (index: number) => {
    if (memo.size >= MAX_MEMO && !memo.has(index)) throw new PickleError("the pickle's memo is too large");
    memo.set(index, top());
  };
  const get = (index: number) => {
    const v = memo.get(index);
    if (v === undefined) throw new PickleError(`the pickle reads memo entry ${index}, which was never written`);
    push(v);
  };
  const setItems = (dict: Item, pairs: Item[]) => {
    if (!(dict instanceof Map)) throw new PickleError(`SETITEMS on ${describe(dict)}`);
    if (dict.size + pairs.length / 2 > MAX_CONTAINER) throw new PickleError("a dict in the pickle is too large");
    for (let i = 0; i + 1 < pairs.length; i += 2) dict.set(pairs[i]!, pairs[i + 1]!);
  };

  for (let ops = 0; ; ops++) {
    if (ops >= MAX_OPS) throw new PickleError(`the pickle runs more than ${MAX_OPS} operations`);
    const op = u8();
    switch (op) {
      case 0x80: // PROTO
        if (u8() > 5) throw new PickleError("unsupported pickle protocol");
        break;
      case 0x95: // FRAME: an 8-byte length that only helps buffering
        need(8);
        pos += 8;
        break;
      case 0x63: // GLOBAL 'module\nname\n'
        push(allowGlobal(line(), line()));
        break;
      case 0x93: {
        // STACK_GLOBAL
        const name = pop();
        const module = pop();
        if (typeof module !== "string" || typeof name !== "string") throw new PickleError("STACK_GLOBAL needs two strings");
        push(allowGlobal(module, name));
        break;
      }
      case 0x71: // BINPUT
        put(u8());
        break;
      case 0x72: // LONG_BINPUT
        put(u32());
        break;
      case 0x94: // MEMOIZE
        put(memo.size);
        break;
      case 0x68: // BINGET
        get(u8());
        break;
      case 0x6a: // LONG_BINGET
        get(u32());
        break;
      case 0x28: // MARK
        stack.push(MARK);
        break;
      case 0x29: // EMPTY_TUPLE
        push(new Tuple([]));
        break;
      case 0x74: // TUPLE
        push(new Tuple(popMark()));
        break;
      case 0x85: // TUPLE1
        push(new Tuple([pop()]));
        break;
      case 0x86: {
        // TUPLE2
        const b = pop();
        push(new Tuple([pop(), b]));
        break;
      }
      case 0x87: {
        // TUPLE3
        const c = pop();
        const b = pop();
        push(new Tuple([pop(), b, c]));
        break;
      }
      case 0x5d: // EMPTY_LIST
        push([]);
        break;
      case 0x61: {
        // APPEND
        const v = pop();
        const list = top();
        if (!Array.isArray(list) || list.length >= MAX_CONTAINER) throw new PickleError("APPEND needs a list");
        list.push(v);
        break;
      }
      case 0x65: {
        // APPENDS
        const items = popMark();
        const list = top();
        if (!Array.isArray(list) || list.length + items.length > MAX_CONTAINER) throw new PickleError("APPENDS needs a list");
        list.push(...items);
        break;
      }
      case 0x7d: // EMPTY_DICT
        push(new Map());
        break;
      case 0x73: {
        // SETITEM
        const v = pop();
        const k = pop();
        setItems(top(), [k, v]);
        break;
      }
      case 0x75: {
        // SETITEMS
        const pairs = popMark();
        setItems(top(), pairs);
        break;
      }
      case 0x51: // BINPERSID
        push(storageOf(pop()));
        break;
      case 0x52: {
        // REDUCE
        const args = pop();
        push(call(pop(), args));
        break;
      }
      case 0x4e: // NONE
        push(null);
        break;
      case 0x88: // NEWTRUE
        push(true);
        break;
      case 0x89: // NEWFALSE
        push(false);
        break;
      case 0x4b: // BININT1
        push(u8());
        break;
      case 0x4d: // BININT2
        push(u16());
        break;
      case 0x4a: // BININT
        push(u32() | 0);
        break;
      case 0x8a: {
        // LONG1: a little-endian two's complement integer of n bytes
        const n = u8();
        if (n > 8) throw new PickleError("an integer in the pickle is too large");
        need(n);
        let v = 0n;
        for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(data[pos + i]!);
        if (n > 0 && data[pos + n - 1]! & 0x80) v -= 1n << BigInt(8 * n);
        pos += n;
        push(v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v);
        break;
      }
      case 0x47: // BINFLOAT (big-endian)
        need(8);
        pos += 8;
        push(view.getFloat64(pos - 8, false));
        break;
      case 0x58: // BINUNICODE
        push(text(u32()));
        break;
      case 0x8c: // SHORT_BINUNICODE
        push(text(u8()));
        break;
      case 0x2e: {
        // STOP
        const result = pop();
        if (!result || typeof result !== "object" || !("kind" in result) || result.kind !== "tensor") {
          throw new PickleError(`the pickle holds ${describe(result)}, not one tensor`);
        }
        return result;
      }
      default:
        throw new PickleError(`the pickle uses opcode 0x${op.toString(16).padStart(2, "0")} at byte ${pos - 1}, which a tensor file does not use`);
    }
  }
}

// ------------------------------------------------------------------ writing

/** Writes the pickle torch.save makes for a tensor over storage `key` (protocol 2). */
export function writeTensorPickle(spec: TensorSpec): Uint8Array {
  const out: number[] = [];
  const bytes = (...b: number[]) => out.push(...b);
  const ascii = (s: string) => {
    for (let i = 0; i < s.length; i++) out.push(s.charCodeAt(i));
  };
  const global = (module: string, name: string) => {
    bytes(0x63);
    ascii(`${module}\n${name}\n`);
  };
  const unicode = (s: string) => {
    const b = Buffer.from(s, "utf8");
    bytes(0x58, b.length & 0xff, (b.length >> 8) & 0xff, (b.length >> 16) & 0xff, b.length >>> 24, ...b);
  };
  const integer = (n: number) => {
    if (n >= 0 && n < 0x100) bytes(0x4b, n);
    else if (n >= 0 && n < 0x10000) bytes(0x4d, n & 0xff, n >> 8);
    else if (n >= -0x80000000 && n < 0x80000000) bytes(0x4a, n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff);
    else {
      let v = BigInt(n);
      const b: number[] = [];
      for (let i = 0; i < 8; i++, v >>= 8n) b.push(Number(v & 0xffn));
      bytes(0x8a, 8, ...b);
    }
  };
  const tuple = (items: readonly number[]) => {
    if (items.length === 0) return bytes(0x29);
    if (items.length > 3) bytes(0x28);
    for (const n of items) integer(n);
    bytes(items.length > 3 ? 0x74 : 0x84 + items.length);
  };
  bytes(0x80, 2);
  global("torch._utils", "_rebuild_tensor_v2");
  bytes(0x28, 0x28);
  unicode("storage");
  global("torch", DTYPES[spec.storage.dtype].storage);
  unicode(spec.storage.key);
  unicode(spec.storage.location);
  integer(spec.storage.numel);
  bytes(0x74, 0x51);
  integer(spec.offset);
  tuple(spec.shape);
  tuple(spec.strides);
  bytes(0x89);
  global("collections", "OrderedDict");
  bytes(0x29, 0x52, 0x74, 0x52, 0x2e);
  return Uint8Array.from(out);
}
