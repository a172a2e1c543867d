// collections.deque: a double-ended queue in a ring buffer (a power-of-two array and the index
// of its first item), so that appending and popping at either end take constant time; indexing
// is constant too. A bounded deque (maxlen) drops items from the opposite end, as CPython's does.
import type { Budget } from "../../budget.js";
import { pyError } from "../../errors.js";
import { NOT_HANDLED, type NotHandled, type Operator, type Ordering, PyClass, PyInstance } from "../../instance.js";
import { bind, type NativeContext, type NativeMethod, noKwargs } from "../../native.js";
import { after, DONE, type Pending } from "../../objects.js";
import { eachItem, waitable } from "../../stepping.js";
import { compare, equals, iterate } from "../../ops.js";
import { repr } from "../../repr.js";
import { storedSize } from "../../sizes.js";
import { sliceIndices } from "../../strings.js";
import { PyTuple, typeName, type Value } from "../../values.js";

export class Deque extends PyInstance {
  /** The ring: `length` items from `head` on, wrapping around; its size is a power of two. */
  private ring: Value[] = new Array<Value>(8);
  private head = 0;
  private length = 0;
  /** Bumped by every change of length or order, for "deque mutated during iteration". */
  private state = 0;

  constructor(readonly maxlen: number | null) {
    super();
  }

  get cls(): PyClass {
    return DEQUE;
  }

  override heapBytes(): number {
    return 64 + 8 * this.ring.length;
  }

  // ------------------------------------------------------------ the ring

  get size(): number {
    return this.length;
  }

  /** The item at position i (0 <= i < size). */
  at(i: number): Value {
    return this.ring[(this.head + i) & (this.ring.length - 1)]!;
  }

  private put(i: number, v: Value): void {
    this.ring[(this.head + i) & (this.ring.length - 1)] = v;
  }

  private grow(): void {
    const next = new Array<Value>(this.ring.length * 2);
    for (let i = 0; i < this.length; i++) next[i] = this.at(i);
    this.ring = next;
    this.head = 0;
  }

  /** append(): at the right, dropping the leftmost item of a full bounded deque. */
  pushRight(v: Value): void {
    this.state++;
    if (this.maxlen !== null && this.length >= this.maxlen) {
      if (this.maxlen === 0) return;
      this.popLeft();
    }
    if (this.length === this.ring.length) this.grow();
    this.put(this.length++, v);
  }

  /** appendleft(): at the left, dropping the rightmost item of a full bounded deque. */
  pushLeft(v: Value): void {
    this.state++;
    if (this.maxlen !== null && this.length >= this.maxlen) {
      if (this.maxlen === 0) return;
      this.popRight();
    }
    if (this.length === this.ring.length) this.grow();
    this.head = (this.head - 1) & (this.ring.length - 1);
    this.ring[this.head] = v;
    this.length++;
  }

  popRight(): Value {
    if (this.length === 0) throw pyError("IndexError", "pop from an empty deque");
    this.state++;
    const i = (this.head + --this.length) & (this.ring.length - 1);
    const v = this.ring[i]!;
    this.ring[i] = null;
    return v;
  }

  popLeft(): Value {
    if (this.length === 0) throw pyError("IndexError", "pop from an empty deque");
    this.state++;
    const v = this.ring[this.head]!;
    this.ring[this.head] = null;
    this.head = (this.head + 1) & (this.ring.length - 1);
    this.length--;
    return v;
  }

  /** The items in order, as an array. */
  items(): Value[] {
    const out = new Array<Value>(this.length);
    for (let i = 0; i < this.length; i++) out[i] = this.at(i);
    return out;
  }

  /** Replaces every item (reverse, rotate, insert and del rebuild through it). */
  private refill(items: readonly Value[]): void {
    this.state++;
    let capacity = 8;
    while (capacity < items.length) capacity *= 2;
    this.ring = new Array<Value>(capacity);
    for (let i = 0; i < items.length; i++) this.ring[i] = items[i]!;
    this.head = 0;
    this.length = items.length;
  }

  clear(): void {
    this.refill([]);
  }

  /** A cursor that fails, as CPython's does, once the deque changes under it. */
  cursor(reverse: boolean): () => Value | typeof DONE {
    const state = this.state;
    let i = 0;
    return () => {
      if (this.state !== state) throw pyError("RuntimeError", "deque mutated during iteration");
      if (i >= this.length) return DONE;
      return this.at(reverse ? this.length - 1 - i++ : i++);
    };
  }

  /** The position of an int index (negative from the end), or CPython's IndexError. */
  private position(key: Value): number {
    if (typeof key !== "number" && typeof key !== "boolean" && typeof key !== "bigint") {
      throw pyError("TypeError", `sequence index must be integer, not '${typeName(key)}'`);
    }
    if (typeof key === "bigint") throw pyError("IndexError", "cannot fit 'int' into an index-sized integer");
    const i = Number(key) < 0 ? Number(key) + this.length : Number(key);
    if (i < 0 || i >= this.length) throw pyError("IndexError", "deque index out of range");
    return i;
  }

  /**
   * `d.extend(iterable)` (or extendleft), one item at a time, paced (Pending while a long iterable
   * gives the event loop a turn); a deque extended by itself copies first.
   */
  extend(ctx: NativeContext, iterable: Value, left: boolean): undefined | Pending {
    const budget = ctx.budget;
    if (iterable === this) {
      const items = this.items();
      budget.step(items.length);
      for (const v of items) {
        budget.alloc(storedSize(v));
        if (left) this.pushLeft(v);
        else this.pushRight(v);
      }
      return;
    }
    return eachItem(iterable, ctx, (v) => {
      budget.alloc(storedSize(v));
      if (left) this.pushLeft(v);
      else this.pushRight(v);
    });
  }

  /** `d.rotate(n)`: n steps to the right (to the left when negative). */
  rotate(budget: Budget, n: number): void {
    const len = this.length;
    if (len <= 1) return;
    let k = n % len;
    if (k < 0) k += len;
    if (k === 0) return;
    budget.step(Math.min(k, len - k));
    this.state++;
    // Moving k items across the ring's end: from the right end to the left, or the other way.
    if (k <= len - k) for (let i = 0; i < k; i++) this.rotateOneRight();
    else for (let i = 0; i < len - k; i++) this.rotateOneLeft();
  }

  private rotateOneRight(): void {
    const mask = this.ring.length - 1;
    const last = (this.head + this.length - 1) & mask;
    const v = this.ring[last]!;
    this.ring[last] = null;
    this.head = (this.head - 1) & mask;
    this.ring[this.head] = v;
  }

  private rotateOneLeft(): void {
    const mask = this.ring.length - 1;
    const v = this.ring[this.head]!;
    this.ring[this.head] = null;
    this.head = (this.head + 1) & mask;
    this.ring[(this.head + this.length - 1) & mask] = v;
  }

  reverse(budget: Budget): void {
    budget.step(this.length);
    this.refill(this.items().reverse());
  }

  insert(budget: Budget, index: number, v: Value): void {
    if (this.maxlen !== null && this.length >= this.maxlen) throw pyError("IndexError", "deque already at its maximum size");
    const len = this.length;
    const i = index < 0 ? Math.max(0, index + len) : Math.min(index, len);
    if (i === len) return this.pushRight(v);
    if (i === 0) return this.pushLeft(v);
    budget.step(len);
    const items = this.items();
    items.splice(i, 0, v);
    this.refill(items);
  }

  removeAt(budget: Budget, i: number): void {
    if (i === 0) {
      this.popLeft();
      return;
    }
    if (i === this.length - 1) {
      this.popRight();
      return;
    }
    budget.step(this.length);
    const items = this.items();
    items.splice(i, 1);
    this.refill(items);
  }

  /** The first position from `start` to `stop` holding an item equal to `v`, or -1. */
  find(budget: Budget, v: Value, start = 0, stop = this.length): number {
    const state = this.state;
    for (let i = start; i < Math.min(stop, this.length); i++) {
      budget.step(1);
      const x = this.at(i);
      const same = x === v || equals(x, v);
      if (this.state !== state) throw pyError("RuntimeError", "deque mutated during iteration");
      if (same) return i;
    }
    return -1;
  }

  // ------------------------------------------------------------ the protocol

  pyRepr(repr: (v: Value) => string): string {
    // A deque inside itself prints as [...], as CPython's does.
    if (REPRS.has(this)) return "[...]";
    REPRS.add(this);
    try {
      const inner = `[${this.items().map(repr).join(", ")}]`;
      return this.maxlen === null ? `deque(${inner})` : `deque(${inner}, maxlen=${this.maxlen})`;
    } finally {
      REPRS.delete(this);
    }
  }

  override pyAttr(name: string): Value | undefined {
    return name === "maxlen" ? this.maxlen : undefined;
  }

  override pyHash(): null {
    return null;
  }

  override pyBool(): boolean {
    return this.length > 0;
  }

  override pyLen(): number {
    return this.length;
  }

  override pyIter(): () => Value | typeof DONE {
    return this.cursor(false);
  }

  override pyReversed(): () => Value | typeof DONE {
    return this.cursor(true);
  }

  override pyContains(item: Value, budget: Budget): boolean {
    return this.find(budget, item) >= 0;
  }

  override pyGetItem(key: Value): Value {
    return this.at(this.position(key));
  }

  override pySetItem(key: Value, value: Value, budget: Budget): void {
    const i = this.position(key);
    budget.alloc(storedSize(value));
    this.put(i, value);
  }

  override pyDelItem(key: Value, budget: Budget): void {
    this.removeAt(budget, this.position(key));
  }

  override pyEquals(other: Value): boolean {
    if (!(other instanceof Deque)) return false;
    if (other.length !== this.length) return false;
    for (let i = 0; i < this.length; i++) {
      const a = this.at(i);
      const b = other.at(i);
      if (a !== b && !equals(a, b)) return false;
    }
    return true;
  }

  override pyCompare(op: Ordering, other: Value, budget: Budget): boolean | NotHandled {
    if (!(other instanceof Deque)) return NOT_HANDLED;
    budget.step(Math.min(this.length, other.length));
    return compare(op, new PyTuple(this.items()), new PyTuple(other.items()), budget);
  }

  override pyBinary(op: Operator, other: Value, reflected: boolean, budget: Budget): Value | NotHandled {
    if (op === "+" && !reflected) {
      if (!(other instanceof Deque)) throw pyError("TypeError", `can only concatenate deque (not "${typeName(other)}") to deque`);
      const out = this.copy(budget);
      for (let i = 0; i < other.length; i++) out.pushRight(other.at(i));
      budget.step(other.length);
      budget.alloc(8 * other.length);
      return out;
    }
    if (op === "*" && (typeof other === "number" || typeof other === "boolean")) {
      const out = this.copy(budget);
      out.repeat(budget, Number(other));
      return out;
    }
    return NOT_HANDLED;
  }

  override pyInplace(op: Operator, other: Value, budget: Budget): Value | NotHandled {
    if (op === "+") {
      // Any iterable, as CPython's __iadd__ takes.
      const next = iterate(other === this ? new PyTuple(this.items()) : other);
      for (let v = next(); v !== DONE; v = next()) {
        budget.step(1);
        budget.alloc(storedSize(v));
        this.pushRight(v);
      }
      return this;
    }
    if (op === "*" && (typeof other === "number" || typeof other === "boolean")) {
      this.repeat(budget, Number(other));
      return this;
    }
    return NOT_HANDLED;
  }

  copy(budget: Budget): Deque {
    const out = new Deque(this.maxlen);
    budget.step(this.length);
    budget.alloc(out.heapBytes() + 8 * this.length);
    out.refill(this.items());
    return out;
  }

  /** `d *= n`: n copies in a row (a bounded deque keeps the last maxlen items). */
  private repeat(budget: Budget, n: number): void {
    if (n <= 0 || this.length === 0) {
      this.clear();
      return;
    }
    const items = this.items();
    const kept = this.maxlen === null ? items.length * n : Math.min(this.maxlen, items.length * n);
    budget.step(kept);
    budget.alloc(8 * kept);
    const out = new Array<Value>(kept);
    const total = items.length * n;
    for (let i = 0; i < kept; i++) out[i] = items[(total - kept + i) % items.length]!;
    this.refill(out);
  }
}

/** Deques whose repr is being built, to print a cycle as [...]. */
const REPRS = new Set<Deque>();

function maxlenArg(v: Value | undefined): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v === "bigint") throw pyError("OverflowError", "Python int too large to convert to C ssize_t");
  if (typeof v !== "number" && typeof v !== "boolean") throw pyError("TypeError", "an integer is required");
  const n = Number(v);
  if (n < 0) throw pyError("ValueError", "maxlen must be non-negative");
  return n;
}

export const DEQUE: PyClass = new PyClass(
  "deque",
  "collections",
  (ctx, args, kwargs) => {
    const [iterable, maxlen] = bind("deque", { names: ["iterable", "maxlen"], required: 0 }, args, kwargs);
    const d = new Deque(maxlenArg(maxlen));
    ctx.budget.alloc(d.heapBytes());
    return waitable(after(iterable === undefined ? undefined : d.extend(ctx, iterable, false), () => d));
  },
  null,
  "collections.deque",
);

/** A method taking exactly one argument, worded as CPython's. */
function one(name: string, fn: (ctx: NativeContext, self: Deque, arg: Value) => Value): NativeMethod<Deque> {
  return (ctx, self, args, kwargs) => {
    noKwargs(`deque.${name}`, kwargs);
    if (args.length !== 1) throw pyError("TypeError", `deque.${name}() takes exactly one argument (${args.length} given)`);
    return fn(ctx, self, args[0]!);
  };
}

/** A method taking no argument. */
function none(name: string, fn: (ctx: NativeContext, self: Deque) => Value): NativeMethod<Deque> {
  return (ctx, self, args, kwargs) => {
    noKwargs(`deque.${name}`, kwargs);
    if (args.length) throw pyError("TypeError", `deque.${name}() takes no arguments (${args.length} given)`);
    return fn(ctx, self);
  };
}

function intIndex(v: Value): number {
  if (typeof v === "bigint") return v < 0n ? -Number.MAX_SAFE_INTEGER : Number.MAX_SAFE_INTEGER;
  if (typeof v === "number" || typeof v === "boolean") return Number(v);
  throw pyError("TypeError", `'${typeName(v)}' object cannot be interpreted as an integer`);
}

const METHODS: Record<string, NativeMethod<Deque>> = {
  append: one("append", (ctx, self, v) => {
    ctx.budget.alloc(storedSize(v));
    self.pushRight(v);
    return null;
  }),
  appendleft: one("appendleft", (ctx, self, v) => {
    ctx.budget.alloc(storedSize(v));
    self.pushLeft(v);
    return null;
  }),
  pop: none("pop", (_ctx, self) => self.popRight()),
  popleft: none("popleft", (_ctx, self) => self.popLeft()),
  extend: one("extend", (ctx, self, v) => waitable(after(self.extend(ctx, v, false), () => null))),
  extendleft: one("extendleft", (ctx, self, v) => waitable(after(self.extend(ctx, v, true), () => null))),
  clear: none("clear", (ctx, self) => {
    ctx.budget.step(1);
    self.clear();
    return null;
  }),
  copy: none("copy", (ctx, self) => self.copy(ctx.budget)),
  reverse: none("reverse", (ctx, self) => {
    self.reverse(ctx.budget);
    return null;
  }),
  count: one("count", (ctx, self, v) => {
    let n = 0;
    for (let i = self.find(ctx.budget, v); i >= 0; i = self.find(ctx.budget, v, i + 1)) n++;
    return n;
  }),
  remove: one("remove", (ctx, self, v) => {
    const i = self.find(ctx.budget, v);
    if (i < 0) throw pyError("ValueError", `${repr(v)} is not in deque`);
    self.removeAt(ctx.budget, i);
    return null;
  }),
  rotate(ctx, self, args, kwargs) {
    noKwargs("deque.rotate", kwargs);
    if (args.length > 1) throw pyError("TypeError", `deque.rotate expected at most 1 argument, got ${args.length}`);
    const n = args.length ? intIndex(args[0]!) : 1;
    self.rotate(ctx.budget, n);
    return null;
  },
  insert(ctx, self, args, kwargs) {
    noKwargs("deque.insert", kwargs);
    if (args.length !== 2) throw pyError("TypeError", `insert expected 2 arguments, got ${args.length}`);
    ctx.budget.alloc(storedSize(args[1]!));
    self.insert(ctx.budget, intIndex(args[0]!), args[1]!);
    return null;
  },
  index(ctx, self, args, kwargs) {
    noKwargs("deque.index", kwargs);
    if (args.length < 1) throw pyError("TypeError", `index() takes at least 1 argument (${args.length} given)`);
    if (args.length > 3) throw pyError("TypeError", `index() takes at most 3 arguments (${args.length} given)`);
    const { start, stop } = sliceIndices(self.size, args.length > 1 ? intIndex(args[1]!) : null, args.length > 2 ? intIndex(args[2]!) : null, 1);
    const i = self.find(ctx.budget, args[0]!, start, stop);
    if (i < 0) throw pyError("ValueError", `${repr(args[0]!)} is not in deque`);
    return i;
  },
};
for (const [name, fn] of Object.entries(METHODS)) DEQUE.methods.set(name, fn);
