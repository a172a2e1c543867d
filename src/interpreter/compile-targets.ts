// The closure tier's names and assignment targets: a name read, stored or deleted as its scope
// resolved it (a local slot, a cell, a global looked up once per execution, the built-in of the
// name while no global has it), and stores into subscripts and unpacked tuples and lists.
import type * as A from "../../grammar/ast.js";
import { pyError } from "./errors.js";
import { Pending } from "./objects.js";
import { delItem, setItem } from "./ops.js";
import { waits } from "./stepping.js";
import { Cell, type Expr, type Frame, freeUnbound, type Store, UNBOUND, unboundLocal } from "./frame.js";
import { unpackItems, unpackWaiting } from "./unpacking.js";
import type { Scope } from "./scope.js";
import { PyList, PyTuple, type Value } from "./values.js";
import type { CompilerParts } from "./compiler-parts.js";
import { after2, continueWith, evalAll, isPending } from "./closure-eval.js";

export function compileName(compiler: CompilerParts, node: A.Name, scope: Scope): Expr {
  const a = compiler.access(node, scope);
  const id = node.id;
  switch (a.kind) {
    case "global": {
      // Every frame of one execution shares its Globals: the cell is looked up once per execution.
      // So is the built-in of that name (`len`, `range`), while no global of the name is bound.
      let owner = -1;
      let cell: Cell = new Cell(UNBOUND);
      let builtin: Value | undefined;
      return (f) => {
        if (owner !== f.globals.id) {
          owner = f.globals.id;
          cell = f.globals.cell(id);
          builtin = undefined;
        }
        const v = cell.v;
        return v !== UNBOUND ? v : (builtin ??= f.rt.builtin(id));
      };
    }
    case "local": {
      const slot = a.variable.slot;
      if (a.variable.isCell) {
        return (f) => {
          const v = (f.slots[slot] as Cell).v;
          if (v === UNBOUND) throw unboundLocal(id);
          return v;
        };
      }
      return (f) => {
        const v = f.slots[slot];
        if (v === UNBOUND) throw unboundLocal(id);
        return v as Value;
      };
    }
    case "free": {
      const index = a.index;
      return (f) => {
        const v = f.closure[index]!.v;
        if (v === UNBOUND) throw freeUnbound(id);
        return v;
      };
    }
  }
}

export function storeName(compiler: CompilerParts, id: string, scope: Scope): Store {
  const a = compiler.resolve(scope, id);
  switch (a.kind) {
    case "global": {
      let owner = -1;
      let cell: Cell = new Cell(UNBOUND);
      return (f, v) => {
        if (owner !== f.globals.id) {
          owner = f.globals.id;
          cell = f.globals.cell(id);
        }
        cell.v = v;
      };
    }
    case "local": {
      const slot = a.variable.slot;
      if (a.variable.isCell) return (f, v) => void ((f.slots[slot] as Cell).v = v);
      return (f, v) => void (f.slots[slot] = v);
    }
    case "free": {
      const index = a.index;
      return (f, v) => void (f.closure[index]!.v = v);
    }
  }
}

export function deleteName(compiler: CompilerParts, id: string, scope: Scope): (f: Frame) => void {
  const a = compiler.resolve(scope, id);
  switch (a.kind) {
    case "global":
      return (f) => {
        if (!f.globals.delete(id)) throw pyError("NameError", `name '${id}' is not defined`);
      };
    case "local": {
      const slot = a.variable.slot;
      if (a.variable.isCell) return (f) => void ((f.slots[slot] as Cell).v = UNBOUND);
      return (f) => void (f.slots[slot] = UNBOUND);
    }
    case "free": {
      const index = a.index;
      return (f) => void (f.closure[index]!.v = UNBOUND);
    }
  }
}

export function compileStore(compiler: CompilerParts, target: A.Expr, scope: Scope): Store {
  switch (target.kind) {
    case "Name":
      return storeName(compiler, target.id, scope);
    case "Subscript": {
      const container = compiler.expr(target.value, scope);
      const key = compiler.subscriptKey(target.slice, scope);
      return (f, v) => {
        const c = container(f);
        if (isPending(c)) return c.then((cv: Value) => after2(key(f), (k) => setItem(cv, k, v, f.rt.budget)));
        const k = key(f);
        if (isPending(k)) return k.then((kv: Value) => setItem(c, kv, v, f.rt.budget));
        setItem(c, k, v, f.rt.budget);
      };
    }
    case "Attribute":
      return () => {
        throw pyError("AttributeError", "attribute assignment is not supported in the sandbox; use a dict and d['key'] = value");
      };
    case "Tuple":
    case "List":
      return unpack(compiler, target.elts, scope);
    case "Starred":
      return compileStore(compiler, target.value, scope);
  }
  throw new Error(`internal: the parser let through an assignment to ${target.kind}`);
}

function unpack(compiler: CompilerParts, elts: A.Expr[], scope: Scope): Store {
  const starAt = elts.findIndex((e) => e.kind === "Starred");
  const stores = elts.map((e) => compileStore(compiler, e, scope));
  /** Stores values[i:] into the targets from the ith (no closure unless one suspends). */
  const assign = (f: Frame, values: Value[], i: number): void | Pending => {
    for (; i < stores.length; i++) {
      const r = stores[i]!(f, values[i]!);
      if (isPending(r)) {
        const next = i + 1;
        return r.then(() => assign(f, values, next));
      }
    }
  };
  const general: Store = (f, v) => (waits(v) ? continueWith(unpackWaiting(f.rt, v, elts.length, starAt), (items: Value[]) => assign(f, items, 0)) : assign(f, unpackItems(f.rt, v, elts.length, starAt), 0));
  if (starAt >= 0 || !elts.every((e) => e.kind === "Name")) return general;
  // `a, b = pair`, `for k, v in d.items()`: a tuple or list of as many items straight into
  // names, with unpackItems' step per item (storing a name cannot change the list).
  const count = elts.length;
  const slots = elts.map((e) => compiler.plainSlot(e, scope));
  // The commonest, two local names, writes the slots itself; the others go through their stores.
  if (count === 2 && slots.every((s) => s !== null)) {
    const [s0, s1] = slots as [number, number];
    return (f, v) => {
      if ((v instanceof PyTuple || v instanceof PyList) && v.items.length === 2) {
        f.rt.budget.step(2);
        const items = v.items;
        f.slots[s0] = items[0]!;
        f.slots[s1] = items[1]!;
        return;
      }
      return general(f, v);
    };
  }
  return (f, v) => {
    if ((v instanceof PyTuple || v instanceof PyList) && v.items.length === count) {
      f.rt.budget.step(count);
      const items = v.items;
      for (let i = 0; i < count; i++) stores[i]!(f, items[i]!);
      return;
    }
    return general(f, v);
  };
}

export function compileDeleter(compiler: CompilerParts, target: A.Expr, scope: Scope): (f: Frame) => void | Pending {
  switch (target.kind) {
    case "Name":
      return deleteName(compiler, target.id, scope);
    case "Subscript": {
      const container = compiler.expr(target.value, scope);
      const key = compiler.subscriptKey(target.slice, scope);
      return (f) => {
        const parts = evalAll([container, key], f);
        if (isPending(parts)) return parts.then(([c, k]: Value[]) => delItem(c!, k!, f.rt.budget));
        delItem(parts[0]!, parts[1]!, f.rt.budget);
      };
    }
    case "Tuple":
    case "List": {
      const dels = target.elts.map((e) => compileDeleter(compiler, e, scope));
      return (f) => {
        for (const d of dels) d(f);
      };
    }
  }
  return () => {
    throw pyError("AttributeError", "attribute deletion is not supported in the sandbox");
  };
}
