// The random module of CPython 3.11. A seeded generator gives CPython's exact sequence: the same
// Mersenne Twister seeded the same way (mt19937.ts), random() and getrandbits() built from its
// words as CPython builds them, and every function drawing as random.py draws (_randbelow's
// rejection loop, shuffle's swaps, sample's pool and set branches, choices' bisect), so that
// `random.seed(42)` then any calls print what python3 prints. The distributions are in
// random-distributions.ts.
//
// Each execution has its own generator behind the module's functions, seeded from the system's
// entropy when imported; `random.Random(x)` makes another.
//
// Budget: a step per call and per item drawn, shuffled or copied; getrandbits and big ranges a
// step per 8 words made, their size checked against max_memory_bytes first.
import { bitLength, radixSteps } from "../bigint-cost.js";
import { TYPES } from "../builtins.js";
import { EXC, PyException, pyError } from "../errors.js";
import { PyClass, PyInstance } from "../instance.js";
import type { NativeContext, NativeMethod } from "../native.js";
import { PyBoundMethod, PyModule } from "../objects.js";
import { binary, compare, equals, getItem, iterate, length, setItem } from "../ops.js";
import { DONE } from "../objects.js";
import { repr, str } from "../repr.js";
import { itemsSize, MAP_ENTRY, SLOT } from "../sizes.js";
import { cpChars } from "../strings.js";
import { floatRatio, isInt, normInt, PyBytes, PyFloat, PyList, PyRange, PyTuple, toBigInt, typeName, type Value } from "../values.js";
import { bisectRight } from "./bisect.js";
import { log } from "./math.js";
import { bytesSeed, MersenneTwister } from "./mt19937.js";
import { bindPy, exactly, type PySignature } from "../py-bind.js";
import { distributions } from "./random-distributions.js";

/** A generator: random.Random(x), and the one behind the module's functions. */
export class PyRandom extends PyInstance {
  readonly mt = new MersenneTwister();
  /** gauss() makes two values at a time and keeps the second for the next call. */
  gaussNext: number | null = null;

  get cls(): PyClass {
    return RANDOM;
  }

  override heapBytes(): number {
    return 2600;
  }

  pyRepr(): string {
    return "<random.Random object>";
  }

  float(): PyFloat {
    return new PyFloat(this.mt.random());
  }
}

export type MethodMaker = typeof method;

/** A method written in Python in CPython: bound and refused as random.py's `def` is. */
function method(name: string, params: readonly string[], required: number, body: (ctx: NativeContext, self: PyRandom, values: (Value | undefined)[]) => Value, kwonly?: readonly string[]): NativeMethod<PyRandom> {
  const sig: PySignature = { name: `Random.${name}`, params, required, kwonly, method: true };
  return (ctx, self, args, kwargs) => {
    ctx.budget.step(1);
    return body(ctx, self, bindPy(sig, args, kwargs));
  };
}

// ------------------------------------------------------------------ seeding

/** CPython's hash() of a float (the seed of a float seed): its exact value modulo 2**61 - 1. */
function floatHash(x: number): bigint {
  if (Number.isNaN(x)) return 0n;
  if (!Number.isFinite(x)) return x > 0 ? 314159n : -314159n;
  const P = (1n << 61n) - 1n;
  const [num, den] = floatRatio(Math.abs(x));
  // Dividing by 2**k is multiplying by 2**(61 - k mod 61), as 2**61 is 1 modulo P.
  const k = bitLength(den) - 1;
  let h = ((num % P) << BigInt((61 - (k % 61)) % 61)) % P;
  if (x < 0) h = -h;
  return h === -1n ? -2n : h;
}

/** What seeding costs: init_by_array's two passes over the state, and the seed's words. */
function chargeSeed(ctx: NativeContext, bits: number): void {
  ctx.budget.step(624 + radixSteps(bits) + Math.ceil(bits / 32));
}

function seed(ctx: NativeContext, self: PyRandom, a: Value, version: Value): void {
  self.gaussNext = null;
  chargeSeed(ctx, typeof a === "bigint" ? bitLength(a) : typeof a === "string" ? 8 * a.length + 512 : a instanceof PyBytes ? 8 * a.bytes.length + 512 : 64);
  if (a === null) return self.mt.seedRandomly();
  if (typeof a === "string" || a instanceof PyBytes) {
    const bytes = typeof a === "string" ? Buffer.from(a, "utf8") : a.bytes;
    if (equals(version, 1)) {
      // A few big-int operations per character.
      ctx.budget.step(10 * bytes.length);
      return self.mt.seedInt(versionOneSeed(a));
    }
    return self.mt.seedInt(bytesSeed(bytes));
  }
  if (isInt(a) || typeof a === "boolean") {
    const n = toBigInt(a);
    return self.mt.seedInt(n < 0n ? -n : n);
  }
  if (a instanceof PyFloat) {
    // The hash as C's size_t: a negative one wraps around 2**64.
    const h = floatHash(a.v);
    return self.mt.seedInt(h < 0n ? h + (1n << 64n) : h);
  }
  throw pyError("TypeError", "The only supported seed types are: None,\nint, float, str, bytes, and bytearray.");
}

/** random.py's version 1 seed of a str or bytes (kept for reproducing old sequences). */
function versionOneSeed(a: string | PyBytes): bigint {
  const codes = typeof a === "string" ? cpChars(a).map((c) => c.codePointAt(0)!) : Array.from(a.bytes);
  const mask = (1n << 64n) - 1n;
  let x = codes.length > 0 ? BigInt(codes[0]!) << 7n : 0n;
  for (const c of codes) x = ((1000003n * x) ^ BigInt(c)) & mask;
  return x ^ BigInt(codes.length);
}

// ------------------------------------------------------------------ integers

/** k random bits; k is charged and its result's size checked first. */
export function randomBits(ctx: NativeContext, self: PyRandom, k: number): number | bigint {
  if (k > 53) {
    ctx.budget.checkSize(k / 4);
    ctx.budget.step(radixSteps(k) + Math.ceil(k / 256));
  }
  return self.mt.bits(k);
}

/** An int in [0, n) for n > 0: getrandbits(n.bit_length()) until it is below n, as _randbelow. */
export function randBelow(ctx: NativeContext, self: PyRandom, n: number | bigint): number | bigint {
  if (typeof n === "number") {
    // n.bit_length(), exactly (a logarithm rounds near 2**53).
    const k = n < 2 ** 32 ? 32 - Math.clz32(n) : 64 - Math.clz32(Math.floor(n / 2 ** 32));
    let r = randomBits(ctx, self, k) as number;
    while (r >= n) {
      ctx.budget.step(1);
      r = randomBits(ctx, self, k) as number;
    }
    return r;
  }
  const k = bitLength(n);
  let r = toBigInt(randomBits(ctx, self, k));
  while (r >= n) {
    ctx.budget.step(1);
    r = toBigInt(randomBits(ctx, self, k));
  }
  return normInt(r);
}

/**
 * randrange's reading of an argument: an int as it is; a float or str only if int() of it equals
 * it (a float like 5.0 is taken, with CPython's DeprecationWarning not shown), else ValueError.
 */
function rangeArg(ctx: NativeContext, v: Value, which: string): bigint {
  if (isInt(v) || typeof v === "boolean") return toBigInt(v);
  const i = TYPES.int!.construct(ctx, [v], null) as number | bigint;
  if (!equals(i, v)) throw pyError("ValueError", `non-integer ${which} for randrange()`);
  return toBigInt(i);
}

function randrange(ctx: NativeContext, self: PyRandom, start: Value, stop: Value | undefined, step: Value | undefined): Value {
  // The common case, randrange(n) or randrange(a, b) of small ints, in doubles.
  if (typeof start === "number" && (stop === undefined || stop === null || typeof stop === "number") && step === undefined) {
    if (stop === undefined || stop === null) {
      if (start > 0) return randBelow(ctx, self, start);
      throw pyError("ValueError", "empty range for randrange()");
    }
    const width = stop - start;
    if (Number.isSafeInteger(width) && Math.abs(start) < 2 ** 52) {
      if (width > 0) return start + (randBelow(ctx, self, width) as number);
      throw pyError("ValueError", `empty range for randrange() (${start}, ${stop}, ${width})`);
    }
  }
  const istart = rangeArg(ctx, start, "arg 1");
  if (stop === undefined || stop === null) {
    // `step is not 1`: only the int 1 (the default) may go with a missing stop.
    if (step !== undefined && step !== 1) throw pyError("TypeError", "Missing a non-None stop argument");
    if (istart > 0n) return randBelow(ctx, self, normInt(istart));
    throw pyError("ValueError", "empty range for randrange()");
  }
  const istop = rangeArg(ctx, stop, "stop");
  const width = istop - istart;
  const istep = step === undefined ? 1n : rangeArg(ctx, step, "step");
  if (istep === 1n) {
    if (width > 0n) return normInt(istart + toBigInt(randBelow(ctx, self, normInt(width))));
    throw pyError("ValueError", `empty range for randrange() (${istart}, ${istop}, ${width})`);
  }
  let n: bigint;
  if (istep > 0n) n = floorDiv(width + istep - 1n, istep);
  else if (istep < 0n) n = floorDiv(width + istep + 1n, istep);
  else throw pyError("ValueError", "zero step for randrange()");
  if (n <= 0n) throw pyError("ValueError", "empty range for randrange()");
  return normInt(istart + istep * toBigInt(randBelow(ctx, self, normInt(n))));
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

/** getrandbits' argument, a C int. */
function bitCount(v: Value): number {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number" && Math.abs(v) <= 2147483647) return v;
  if (isInt(v)) throw pyError("OverflowError", "Python int too large to convert to C int");
  throw pyError("TypeError", `'${typeName(v)}' object cannot be interpreted as an integer`);
}

function getrandbits(ctx: NativeContext, self: PyRandom, v: Value): Value {
  const k = bitCount(v);
  if (k < 0) throw pyError("ValueError", "number of bits must be non-negative");
  return randomBits(ctx, self, k);
}

// ------------------------------------------------------------------ sequences

/** collections.abc.Sequence, as random.sample asks: sequences, not dicts or sets. */
function isSequence(v: Value): boolean {
  return typeof v === "string" || v instanceof PyList || v instanceof PyTuple || v instanceof PyRange || v instanceof PyBytes || (v instanceof PyInstance && v.pyGetItem !== undefined && v.pyLen !== undefined);
}

function itemAt(ctx: NativeContext, seq: Value, i: number | bigint): Value {
  if (typeof i === "number" && (seq instanceof PyList || seq instanceof PyTuple) && i < seq.items.length) return seq.items[i]!;
  return getItem(seq, i, ctx.budget);
}

function choice(ctx: NativeContext, self: PyRandom, seq: Value): Value {
  const n = length(seq);
  if (n === 0) throw pyError("IndexError", "Cannot choose from an empty sequence");
  return itemAt(ctx, seq, randBelow(ctx, self, n));
}

function shuffle(ctx: NativeContext, self: PyRandom, x: Value): Value {
  const n = length(x);
  ctx.budget.step(n);
  for (let i = n - 1; i > 0; i--) {
    const j = randBelow(ctx, self, i + 1) as number;
    if (x instanceof PyList && x.items.length === n) {
      const items = x.items;
      const t = items[i]!;
      items[i] = items[j]!;
      items[j] = t;
    } else {
      // x[i], x[j] = x[j], x[i]: both read, then both written (a tuple fails at the first write).
      const a = getItem(x, j, ctx.budget);
      const b = getItem(x, i, ctx.budget);
      setItem(x, i, a, ctx.budget);
      setItem(x, j, b, ctx.budget);
    }
  }
  return null;
}

/** itertools.accumulate's running sums, as a list (sample's counts, choices' weights). */
function accumulate(ctx: NativeContext, iterable: Value): Value[] {
  const next = iterate(iterable);
  const out: Value[] = [];
  let total: Value | undefined;
  for (let v = next(); v !== DONE; v = next()) {
    ctx.budget.step(1);
    total = total === undefined ? v : binary("+", total, v, ctx.budget);
    out.push(total);
  }
  ctx.budget.alloc(itemsSize(out));
  return out;
}

function sample(ctx: NativeContext, self: PyRandom, population: Value, k: Value, counts: Value | undefined): Value {
  if (!isSequence(population)) throw pyError("TypeError", "Population must be a sequence.  For dicts or sets, use sorted(d).");
  const n = length(population);
  if (counts !== undefined && counts !== null) {
    const cum = accumulate(ctx, counts);
    if (cum.length !== n) throw pyError("ValueError", "The number of counts does not match the population");
    const total = cum.pop();
    if (total === undefined || !(isInt(total) || typeof total === "boolean")) throw pyError("TypeError", "Counts must be integers");
    if (compare("<=", total, 0, ctx.budget)) throw pyError("ValueError", "Total of counts must be greater than zero");
    if (typeof total === "bigint") throw pyError("OverflowError", "Python int too large to convert to C ssize_t");
    const selections = sample(ctx, self, new PyRange(0, Number(total), 1), k, undefined) as PyList;
    const cumList = new PyList(cum);
    return new PyList(selections.items.map((s) => itemAt(ctx, population, bisectRight(ctx, cumList, s, 0, cum.length, null))));
  }
  if (!(compare("<=", 0, k, ctx.budget) && compare("<=", k, n, ctx.budget))) throw pyError("ValueError", "Sample larger than population or is negative");
  if (!(isInt(k) || typeof k === "boolean")) throw pyError("TypeError", `can't multiply sequence by non-int of type '${typeName(k)}'`);
  const count = Number(k);
  ctx.budget.step(count);
  ctx.budget.alloc(SLOT * count);
  const result: Value[] = new Array(count);
  let setsize = 21;
  if (count > 5) setsize += 4 ** Math.ceil(log(count * 3) / log(4));
  if (n <= setsize) {
    // A pool of the items not chosen yet: each choice moves the last one into its place.
    const pool = ctx.toList(population);
    for (let i = 0; i < count; i++) {
      const j = randBelow(ctx, self, n - i) as number;
      result[i] = pool[j]!;
      pool[j] = pool[n - i - 1]!;
    }
  } else {
    // The indices chosen so far: a repeat is drawn again.
    ctx.budget.alloc(MAP_ENTRY * count);
    const selected = new Set<number>();
    for (let i = 0; i < count; i++) {
      let j = randBelow(ctx, self, n) as number;
      while (selected.has(j)) j = randBelow(ctx, self, n) as number;
      selected.add(j);
      result[i] = itemAt(ctx, population, j);
    }
  }
  return new PyList(result);
}

/** repeat(None, k)'s k: an int (a negative one repeats nothing). */
function repeatCount(k: Value): number {
  if (typeof k === "number") return Math.max(0, k);
  if (typeof k === "boolean") return k ? 1 : 0;
  if (typeof k === "bigint") {
    if (k < 0n) return 0;
    throw pyError("OverflowError", "Python int too large to convert to C ssize_t");
  }
  throw pyError("TypeError", `'${typeName(k)}' object cannot be interpreted as an integer`);
}

function choices(ctx: NativeContext, self: PyRandom, population: Value, weights: Value | undefined, cumWeights: Value | undefined, k: Value): Value {
  const n = length(population);
  let cum: Value[];
  if (cumWeights === undefined || cumWeights === null) {
    if (weights === undefined || weights === null) {
      const count = repeatCount(k);
      ctx.budget.step(count);
      ctx.budget.alloc(SLOT * count);
      const out: Value[] = new Array(count);
      for (let i = 0; i < count; i++) out[i] = itemAt(ctx, population, Math.floor(self.mt.random() * n));
      return new PyList(out);
    }
    try {
      cum = accumulate(ctx, weights);
    } catch (e) {
      // choices(population, 3): the 3 was meant as k.
      if (e instanceof PyException && e.type === EXC.TypeError && (isInt(weights) || typeof weights === "boolean")) {
        throw pyError("TypeError", `The number of choices must be a keyword argument: k=${repr(weights)}`);
      }
      throw e;
    }
  } else {
    if (weights !== undefined && weights !== null) throw pyError("TypeError", "Cannot specify both weights and cumulative weights");
    length(cumWeights);
    cum = ctx.toList(cumWeights);
  }
  if (cum.length !== n) throw pyError("ValueError", "The number of weights does not match the population");
  if (cum.length === 0) throw pyError("IndexError", "list index out of range");
  const total = binary("+", cum[cum.length - 1]!, new PyFloat(0), ctx.budget) as PyFloat;
  if (compare("<=", total, new PyFloat(0), ctx.budget)) throw pyError("ValueError", "Total of weights must be greater than zero");
  if (!Number.isFinite(total.v)) throw pyError("ValueError", "Total of weights must be finite");
  const count = repeatCount(k);
  ctx.budget.step(count);
  ctx.budget.alloc(SLOT * count);
  const cumList = new PyList(cum);
  const out: Value[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const x = new PyFloat(self.mt.random() * total.v);
    out[i] = itemAt(ctx, population, bisectRight(ctx, cumList, x, 0, n - 1, null));
  }
  return new PyList(out);
}

// ------------------------------------------------------------------ state

function getstate(self: PyRandom): Value {
  const words: Value[] = Array.from(self.mt.state, (w) => w >>> 0);
  words.push(self.mt.index);
  return new PyTuple([3, new PyTuple(words), self.gaussNext === null ? null : new PyFloat(self.gaussNext)]);
}

function setstate(ctx: NativeContext, self: PyRandom, state: Value): Value {
  const version = getItem(state, 0, ctx.budget);
  if (!equals(version, 3) && !equals(version, 2)) throw pyError("ValueError", `state with version ${str(version)} passed to Random.setstate() of version 3`);
  const parts = ctx.toList(state);
  if (parts.length > 3) throw pyError("ValueError", "too many values to unpack (expected 3)");
  if (parts.length < 3) throw pyError("ValueError", `not enough values to unpack (expected 3, got ${parts.length})`);
  const [, internal, gauss] = parts as [Value, Value, Value];
  if (!(internal instanceof PyTuple)) throw pyError("TypeError", "state vector must be a tuple");
  if (internal.items.length !== 625) throw pyError("ValueError", "state vector is the wrong size");
  const words = internal.items.map((w) => {
    if (!(isInt(w) || typeof w === "boolean")) throw pyError("TypeError", `'${typeName(w)}' object cannot be interpreted as an integer`);
    // Version 2 kept signed words; both are the same 32 bits.
    return Number(BigInt.asUintN(32, toBigInt(w)));
  });
  const index = toBigInt(internal.items[624] as number);
  if (index < 0n || index > 624n) throw pyError("ValueError", "invalid state");
  self.mt.state.set(words.slice(0, 624));
  self.mt.index = Number(index);
  self.gaussNext = gauss === null ? null : (binary("+", gauss, new PyFloat(0), ctx.budget) as PyFloat).v;
  return null;
}

/**
 * getrandbits(n * 8).to_bytes(n, 'little'), made from the words directly: the least significant
 * first, each little-endian, the last one's top bytes only (as getrandbits shifts it).
 */
function randbytes(ctx: NativeContext, self: PyRandom, n: Value): Value {
  const bits = bitCount(binary("*", n, 8, ctx.budget));
  if (bits < 0) throw pyError("ValueError", "number of bits must be non-negative");
  const count = bits / 8;
  ctx.budget.checkSize(count);
  ctx.budget.step(Math.ceil(count / 64));
  const out = new Uint8Array(count);
  for (let i = 0; i < count; i += 4) {
    const left = count - i;
    const r = left < 4 ? self.mt.next32() >>> (32 - 8 * left) : self.mt.next32();
    for (let b = 0; b < 4 && b < left; b++) out[i + b] = (r >>> (8 * b)) & 0xff;
  }
  return new PyBytes(out);
}

// ------------------------------------------------------------------ the class and the module

const METHODS: Record<string, NativeMethod<PyRandom>> = {
  seed: method("seed", ["a", "version"], 0, (ctx, self, [a, version]) => {
    seed(ctx, self, a ?? null, version ?? 2);
    return null;
  }),
  random(ctx, self, args, kwargs) {
    if (kwargs !== null && kwargs.size > 0) throw pyError("TypeError", "Random.random() takes no keyword arguments");
    if (args.length > 0) throw pyError("TypeError", `Random.random() takes no arguments (${args.length} given)`);
    ctx.budget.step(1);
    return self.float();
  },
  getrandbits(ctx, self, args, kwargs) {
    exactly("getrandbits", 1, args, kwargs, "Random.getrandbits");
    ctx.budget.step(1);
    return getrandbits(ctx, self, args[0]!);
  },
  randrange: method("randrange", ["start", "stop", "step"], 1, (ctx, self, [start, stop, step]) => randrange(ctx, self, start!, stop, step)),
  randint: method("randint", ["a", "b"], 2, (ctx, self, [a, b]) => randrange(ctx, self, a!, binary("+", b!, 1, ctx.budget), undefined)),
  choice: method("choice", ["seq"], 1, (ctx, self, [seq]) => choice(ctx, self, seq!)),
  shuffle: method("shuffle", ["x"], 1, (ctx, self, [x]) => shuffle(ctx, self, x!)),
  sample: method("sample", ["population", "k"], 2, (ctx, self, [population, k, counts]) => sample(ctx, self, population!, k!, counts), ["counts"]),
  choices: method("choices", ["population", "weights"], 1, (ctx, self, [population, weights, cum, k]) => choices(ctx, self, population!, weights, cum, k ?? 1), ["cum_weights", "k"]),
  randbytes: method("randbytes", ["n"], 1, (ctx, self, [n]) => randbytes(ctx, self, n!)),
  getstate: method("getstate", [], 0, (_ctx, self) => getstate(self)),
  setstate: method("setstate", ["state"], 1, (ctx, self, [state]) => setstate(ctx, self, state!)),
  ...distributions(method),
};

const INIT: PySignature = { name: "Random.__init__", params: ["x"], required: 0, method: true };

const RANDOM = new PyClass("Random", "random", (ctx, args, kwargs) => {
  const [x] = bindPy(INIT, args, kwargs);
  ctx.budget.step(1);
  const r = new PyRandom();
  seed(ctx, r, x ?? null, 2);
  return r;
});
for (const [name, fn] of Object.entries(METHODS)) RANDOM.methods.set(name, fn);

/** The module of one execution: its functions are the methods of a generator of its own. */
export function randomModule(): PyModule {
  const hidden = new PyRandom();
  hidden.mt.seedRandomly();
  const attrs = new Map<string, Value>([["Random", RANDOM]]);
  for (const [name, fn] of Object.entries(METHODS)) attrs.set(name, new PyBoundMethod(hidden, name, (ctx, args, kwargs) => fn(ctx, hidden, args, kwargs)));
  return new PyModule("random", attrs);
}
