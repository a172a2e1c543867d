// The Tensor value: a read-only, n-dimensional view of typed little-endian storage bytes, as a
// tool returns it through a media field of type `application/vnd.nomad.tensor` (SPEC §3). Scripts
// inspect it (`.shape`, `.dtype`, `len`, indexing, `.tolist()`) and reduce it (`.sum()`, `.mean()`,
// `.max()`, `.min()`, `.item()`); there is no tensor arithmetic. Reading and writing the wire
// format (torch.save archives) lives in src/codemode/tensor/: this file knows only the layout.
//
// Decisions:
// - Indexing follows torch for views (`t[0]`, `t[1:3]`, `t[0, 2]` share the storage) but an index
//   that selects one element gives a Python number rather than a 0-d tensor, and so do the
//   reductions: scripts compare and print numbers, and there is no tensor arithmetic to feed.
// - `.dtype` is torch's spelling of the dtype as text (`"torch.float32"`, what `str(t.dtype)`
//   prints in PyTorch); `.shape` is a tuple of ints.
// - Sums of integer tensors are exact (bigint past 2**53); float reductions run in double
//   precision, so they may differ from torch's float32 accumulation in the last digits.
// - A tensor decoded from the wire keeps its payload: put back in RESULT unchanged, it goes out as
//   the very same string. Views made in the script have none and are encoded afresh.
import type { Budget } from "./budget.js";
import { pyError } from "./errors.js";
import type { NativeContext } from "./native.js";
import { DONE, PyBoundMethod } from "./objects.js";
import { sliceIndices } from "./strings.js";
import { normInt, PyFloat, PyList, PyObject, PyTuple, truthy, typeName, type Value } from "./values.js";

export type DType = "float32" | "float64" | "float16" | "bfloat16" | "int64" | "int32" | "int16" | "int8" | "uint8" | "bool";

interface DTypeInfo {
  /** Bytes per element. */
  size: number;
  /** The legacy storage class torch.save names in its pickle (`torch.FloatStorage`). */
  storage: string;
  kind: "float" | "int" | "bool";
  read(view: DataView, byte: number): Value;
}

function half(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 31) return fraction ? NaN : sign * Infinity;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

const BF16 = new DataView(new ArrayBuffer(4));
function bfloat(bits: number): number {
  BF16.setUint32(0, bits << 16);
  return BF16.getFloat32(0);
}

export const DTYPES: Readonly<Record<DType, DTypeInfo>> = {
  float64: { size: 8, storage: "DoubleStorage", kind: "float", read: (v, b) => new PyFloat(v.getFloat64(b, true)) },
  float32: { size: 4, storage: "FloatStorage", kind: "float", read: (v, b) => new PyFloat(v.getFloat32(b, true)) },
  float16: { size: 2, storage: "HalfStorage", kind: "float", read: (v, b) => new PyFloat(half(v.getUint16(b, true))) },
  bfloat16: { size: 2, storage: "BFloat16Storage", kind: "float", read: (v, b) => new PyFloat(bfloat(v.getUint16(b, true))) },
  int64: { size: 8, storage: "LongStorage", kind: "int", read: (v, b) => normInt(v.getBigInt64(b, true)) },
  int32: { size: 4, storage: "IntStorage", kind: "int", read: (v, b) => v.getInt32(b, true) },
  int16: { size: 2, storage: "ShortStorage", kind: "int", read: (v, b) => v.getInt16(b, true) },
  int8: { size: 1, storage: "CharStorage", kind: "int", read: (v, b) => v.getInt8(b) },
  uint8: { size: 1, storage: "ByteStorage", kind: "int", read: (v, b) => v.getUint8(b) },
  bool: { size: 1, storage: "BoolStorage", kind: "bool", read: (v, b) => v.getUint8(b) !== 0 },
};

/** The dtype stored by a legacy storage class (`FloatStorage` -> float32), or undefined. */
export function dtypeOfStorage(storageClass: string): DType | undefined {
  return (Object.keys(DTYPES) as DType[]).find((d) => DTYPES[d].storage === storageClass);
}

/** The most dimensions a tensor may have (torch's own limit is 64 too). */
export const MAX_DIMS = 64;

/** The number of elements of a shape; every dimension must be a non-negative safe integer. */
export function shapeSize(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

/** A Python number for one element. */
function asNumber(v: Value): number {
  return v instanceof PyFloat ? v.v : typeof v === "boolean" ? (v ? 1 : 0) : Number(v);
}

export class Tensor extends PyObject {
  private readonly view: DataView;

  constructor(
    readonly dtype: DType,
    readonly shape: readonly number[],
    /** In elements, as torch counts them. */
    readonly strides: readonly number[],
    /** The first element's index in the storage, in elements. */
    readonly offset: number,
    /** The whole storage, little-endian; views share it. */
    readonly storage: Uint8Array,
    /** The wire payload this tensor was decoded from, or null for one made in the script. */
    readonly wire: string | null = null,
  ) {
    super();
    this.view = new DataView(storage.buffer, storage.byteOffset, storage.byteLength);
  }

  get typeName(): string {
    return "Tensor";
  }

  // The value protocols (values.ts PyObject): how len, iteration, `t[k]`, `in`, `t.name` and the
  // boundary reach a tensor without the operations naming the type.

  override pyLen(): number {
    return tensorLength(this);
  }

  override pyIter(): () => Value | typeof DONE {
    return tensorCursor(this);
  }

  override pyGetItem(key: Value): Value {
    return tensorGetItem(this, key);
  }

  override pyContains(item: Value, budget: Budget): boolean {
    return tensorContains(this, item, budget);
  }

  override pyAttr(name: string): Value {
    return tensorAttribute(this, name);
  }

  override pyWire(what: string, strict: boolean): string | null {
    if (this.wire === null && strict) {
      throw pyError("TypeError", `${what} cannot hold a Tensor made in the script (a view or a slice); pass the tensor a tool returned, or .tolist()`);
    }
    return this.wire;
  }

  get numel(): number {
    return shapeSize(this.shape);
  }

  /**
   * How many lists `tolist()` makes: with an empty last dimension there can be far more lists
   * than elements (shape [10**9, 0] has none of the latter).
   */
  get listCount(): number {
    let lists = 0;
    let rows = 1;
    for (let d = 0; d < this.shape.length; d++) {
      lists += rows;
      rows *= this.shape[d]!;
    }
    return lists;
  }

  /** The element at storage index `index` (in elements). */
  element(index: number): Value {
    const info = DTYPES[this.dtype];
    return info.read(this.view, index * info.size);
  }

  /** The storage index of every element in logical (row-major) order. */
  *indices(): IterableIterator<number> {
    const n = this.numel;
    if (n === 0) return;
    const dims = this.shape.length;
    const counter = new Array<number>(dims).fill(0);
    let at = this.offset;
    for (let k = 0; k < n; k++) {
      yield at;
      for (let d = dims - 1; d >= 0; d--) {
        if (++counter[d]! < this.shape[d]!) {
          at += this.strides[d]!;
          break;
        }
        at -= this.strides[d]! * (this.shape[d]! - 1);
        counter[d] = 0;
      }
    }
  }

  /** Whether the elements lie in row-major order without gaps. */
  isContiguous(): boolean {
    let expected = 1;
    for (let d = this.shape.length - 1; d >= 0; d--) {
      if (this.shape[d] !== 1 && this.strides[d] !== expected) return false;
      expected *= this.shape[d]!;
    }
    return true;
  }

  /** The elements' bytes in row-major order (the storage itself when it is exactly that). */
  contiguousBytes(): Uint8Array {
    const size = DTYPES[this.dtype].size;
    const n = this.numel;
    if (this.isContiguous()) {
      const start = this.offset * size;
      return start === 0 && n * size === this.storage.length ? this.storage : this.storage.slice(start, start + n * size);
    }
    const out = new Uint8Array(n * size);
    let k = 0;
    for (const i of this.indices()) {
      out.set(this.storage.subarray(i * size, i * size + size), k);
      k += size;
    }
    return out;
  }

  /** `bool(t)`, `if t:`: as torch, only a tensor of exactly one element has a truth value. */
  pyBool(): boolean {
    const n = this.numel;
    if (n !== 1) throw pyError("RuntimeError", `Boolean value of Tensor with ${n === 0 ? "no values" : "more than one value"} is ambiguous`);
    return truthy(this.element(this.indices().next().value as number));
  }

  /** `t[i]` along the first dimension: a view, or the element itself for a 1-d tensor. */
  select(i: number): Value {
    if (this.shape.length === 0) throw pyError("IndexError", "invalid index of a 0-dim tensor. Use `tensor.item()` to convert a 0-dim tensor to a Python number");
    const n = this.shape[0]!;
    const at = i < 0 ? i + n : i;
    if (at < 0 || at >= n) throw pyError("IndexError", `index ${i} is out of bounds for dimension 0 with size ${n}`);
    const offset = this.offset + at * this.strides[0]!;
    if (this.shape.length === 1) return this.element(offset);
    return new Tensor(this.dtype, this.shape.slice(1), this.strides.slice(1), offset, this.storage);
  }

  pyRepr(repr: (v: Value) => string): string {
    const dtype = this.dtype === "float32" || this.dtype === "int64" ? "" : `, dtype=torch.${this.dtype}`;
    if (this.numel > 64 || this.listCount > 64) return `tensor(<${this.shape.join("x")} values>${dtype || `, dtype=torch.${this.dtype}`})`;
    return `tensor(${repr(this.toList())}${dtype})`;
  }

  /** The elements as nested lists (a number for a 0-d tensor), as `tolist()` gives them. */
  toList(): Value {
    if (this.shape.length === 0) return this.element(this.offset);
    const build = (dim: number, offset: number): PyList => {
      const items: Value[] = [];
      const last = dim === this.shape.length - 1;
      for (let i = 0; i < this.shape[dim]!; i++) {
        const at = offset + i * this.strides[dim]!;
        items.push(last ? this.element(at) : build(dim + 1, at));
      }
      return new PyList(items);
    };
    return build(0, this.offset);
  }
}

// ------------------------------------------------------------------ indexing

function indexArg(key: Value): number | null {
  if (typeof key === "number") return key;
  if (typeof key === "boolean") return key ? 1 : 0;
  if (typeof key === "bigint") throw pyError("IndexError", "index out of range");
  return null;
}

/** The view `t[start:stop:step]` along dimension `dim`. */
function sliceDim(t: Tensor, dim: number, key: Value & { start: Value; stop: Value; step: Value }): Tensor {
  const n = t.shape[dim]!;
  const { start, step, count } = sliceIndices(n, key.start, key.stop, key.step);
  if (step < 0) throw pyError("ValueError", "step must be greater than zero");
  const shape = [...t.shape];
  const strides = [...t.strides];
  shape[dim] = count;
  strides[dim] = t.strides[dim]! * step;
  const offset = count > 0 ? t.offset + start * t.strides[dim]! : t.offset;
  return new Tensor(t.dtype, shape, strides, offset, t.storage);
}

function isSlice(key: Value): key is Value & { start: Value; stop: Value; step: Value } {
  return key instanceof PyObject && key.typeName === "slice";
}

/** Python's `t[key]`: ints, slices (step > 0), and tuples of them, one per leading dimension. */
export function tensorGetItem(t: Tensor, key: Value): Value {
  const keys = key instanceof PyTuple ? key.items : [key];
  if (keys.length > t.shape.length) {
    throw pyError("IndexError", `too many indices for tensor of dimension ${t.shape.length}`);
  }
  let current: Value = t;
  let dim = 0;
  for (const k of keys) {
    if (!(current instanceof Tensor)) throw pyError("IndexError", `too many indices for tensor of dimension ${t.shape.length}`);
    const i = indexArg(k);
    if (i !== null) {
      if (dim === 0) current = current.select(i);
      else {
        // Index a later dimension: move it to the front of a view, select, and keep the rest.
        const c: Tensor = current;
        const n = c.shape[dim]!;
        const at = i < 0 ? i + n : i;
        if (at < 0 || at >= n) throw pyError("IndexError", `index ${i} is out of bounds for dimension ${dim} with size ${n}`);
        const shape = c.shape.filter((_, d) => d !== dim);
        const strides = c.strides.filter((_, d) => d !== dim);
        const offset = c.offset + at * c.strides[dim]!;
        current = shape.length === 0 ? c.element(offset) : new Tensor(c.dtype, shape, strides, offset, c.storage);
      }
    } else if (isSlice(k)) {
      current = sliceDim(current, dim, k);
      dim++;
    } else {
      throw pyError("TypeError", `tensor indices must be integers, slices or tuples of them, not ${typeName(k)}`);
    }
  }
  return current;
}

export function tensorLength(t: Tensor): number {
  if (t.shape.length === 0) throw pyError("TypeError", "len() of a 0-d tensor");
  return t.shape[0]!;
}

/** Iterating a tensor gives `t[0]`, `t[1]`... */
export function tensorCursor(t: Tensor): () => Value | typeof DONE {
  if (t.shape.length === 0) throw pyError("TypeError", "iteration over a 0-d tensor");
  let i = 0;
  const n = t.shape[0]!;
  return () => (i < n ? t.select(i++) : DONE);
}

/** `x in t`, as torch has it: whether any element equals the number `x`. */
export function tensorContains(t: Tensor, item: Value, budget: Budget): boolean {
  if (!(typeof item === "number" || typeof item === "bigint" || typeof item === "boolean" || item instanceof PyFloat)) {
    throw pyError("TypeError", `'in <Tensor>' requires a number as left operand, not ${typeName(item)}`);
  }
  charge(budget, t);
  const wanted = typeof item === "bigint" ? item : asNumber(item);
  for (const i of t.indices()) {
    const v = t.element(i);
    // JS compares a bigint with a number exactly.
    if ((typeof v === "bigint" ? v : asNumber(v)) == wanted) return true;
  }
  return false;
}

// ------------------------------------------------------------------ attributes

function noArgs(name: string, args: Value[], kwargs: Map<string, Value> | null): void {
  if (args.length > 0 || (kwargs && kwargs.size > 0)) {
    throw pyError("TypeError", `Tensor.${name}() takes no arguments here (reductions over a dim are not supported; index the tensor first)`);
  }
}

function charge(budget: Budget, t: Tensor): void {
  budget.step(t.numel);
}

function sum(t: Tensor, budget: Budget): Value {
  charge(budget, t);
  const kind = DTYPES[t.dtype].kind;
  if (kind === "float") {
    let total = 0;
    for (const i of t.indices()) total += (t.element(i) as PyFloat).v;
    return new PyFloat(total);
  }
  let total = 0;
  for (const i of t.indices()) {
    const v = t.element(i);
    if (typeof v === "bigint") return exactSum(t);
    total += typeof v === "boolean" ? (v ? 1 : 0) : (v as number);
    if (!Number.isSafeInteger(total)) return exactSum(t);
  }
  return total;
}

function exactSum(t: Tensor): Value {
  let total = 0n;
  for (const i of t.indices()) {
    const v = t.element(i);
    total += typeof v === "bigint" ? v : BigInt(typeof v === "boolean" ? (v ? 1 : 0) : (v as number));
  }
  return normInt(total);
}

function extreme(t: Tensor, budget: Budget, name: "max" | "min"): Value {
  charge(budget, t);
  if (t.numel === 0) throw pyError("ValueError", `${name}() of an empty tensor`);
  let best: Value = null;
  let bestKey: number | bigint = 0;
  let first = true;
  for (const i of t.indices()) {
    const v = t.element(i);
    // JS compares a bigint with a number exactly.
    const key = typeof v === "bigint" ? v : asNumber(v);
    if (typeof key === "number" && Number.isNaN(key)) return v;
    if (first || (name === "max" ? key > bestKey : key < bestKey)) {
      best = v;
      bestKey = key;
      first = false;
    }
  }
  return best;
}

function tupleOf(numbers: readonly number[]): PyTuple {
  return new PyTuple([...numbers]);
}

type Method = (ctx: NativeContext, t: Tensor, args: Value[], kwargs: Map<string, Value> | null) => Value;

const METHODS: Record<string, Method> = {
  tolist: (ctx, t, args, kwargs) => {
    noArgs("tolist", args, kwargs);
    const lists = t.listCount;
    ctx.budget.step(t.numel + lists);
    ctx.budget.alloc(24 * t.numel + 40 * lists);
    return t.toList();
  },
  item: (ctx, t, args, kwargs) => {
    noArgs("item", args, kwargs);
    if (t.numel !== 1) throw pyError("ValueError", `a Tensor with ${t.numel} elements cannot be converted to Scalar`);
    return t.element(t.indices().next().value as number);
  },
  sum: (ctx, t, args, kwargs) => {
    noArgs("sum", args, kwargs);
    return sum(t, ctx.budget);
  },
  mean: (ctx, t, args, kwargs) => {
    noArgs("mean", args, kwargs);
    const total = sum(t, ctx.budget);
    return new PyFloat(asNumber(total) / t.numel);
  },
  max: (ctx, t, args, kwargs) => {
    noArgs("max", args, kwargs);
    return extreme(t, ctx.budget, "max");
  },
  min: (ctx, t, args, kwargs) => {
    noArgs("min", args, kwargs);
    return extreme(t, ctx.budget, "min");
  },
  numel: (_ctx, t, args, kwargs) => {
    noArgs("numel", args, kwargs);
    return t.numel;
  },
  dim: (_ctx, t, args, kwargs) => {
    noArgs("dim", args, kwargs);
    return t.shape.length;
  },
  size: (_ctx, t, args, kwargs) => {
    if (kwargs && kwargs.size > 0) throw pyError("TypeError", "Tensor.size() takes no keyword arguments");
    if (args.length === 0) return tupleOf(t.shape);
    const d = indexArg(args[0]!);
    const n = t.shape.length;
    if (d === null) throw pyError("TypeError", `size(): argument 'dim' must be int, not ${typeName(args[0]!)}`);
    if (d < -n || d >= n) throw pyError("IndexError", `Dimension out of range (expected to be in range of [${-n}, ${n - 1}], but got ${d})`);
    return t.shape[d < 0 ? d + n : d]!;
  },
  stride: (_ctx, t, args, kwargs) => {
    noArgs("stride", args, kwargs);
    return tupleOf(t.strides);
  },
  is_contiguous: (_ctx, t, args, kwargs) => {
    noArgs("is_contiguous", args, kwargs);
    return t.isContiguous();
  },
};

const PROPERTIES: Record<string, (t: Tensor) => Value> = {
  shape: (t) => tupleOf(t.shape),
  dtype: (t) => `torch.${t.dtype}`,
  ndim: (t) => t.shape.length,
};

const has = Object.prototype.hasOwnProperty;

/** `t.name`: a property's value or a bound method; AttributeError listing what exists otherwise. */
export function tensorAttribute(t: Tensor, name: string): Value {
  if (has.call(PROPERTIES, name)) return PROPERTIES[name]!(t);
  if (has.call(METHODS, name)) {
    const method = METHODS[name]!;
    return new PyBoundMethod(t, name, (ctx, args, kwargs) => method(ctx, t, args, kwargs));
  }
  const error = pyError("AttributeError", `'Tensor' object has no attribute '${name}'`);
  error.hints.push(`A Tensor has ${[...Object.keys(PROPERTIES), ...Object.keys(METHODS).map((m) => `${m}()`)].join(", ")}.`);
  throw error;
}
