// The closure tier's calls: arguments evaluated left to right (positional, *, keywords, **), and
// closures of their own for the commonest shapes (a method call, one or two plain arguments).
import type * as A from "../../grammar/ast.js";
import { pyError } from "./errors.js";
import { Pending } from "./objects.js";
import { rewordNotIterable } from "./ops.js";
import type { Runtime } from "./runtime.js";
import { PyFunction } from "./function.js";
import type { Expr, Frame } from "./frame.js";
import { MethodSite } from "./method-site.js";
import type { Scope } from "./scope.js";
import { PyDict, typeName, type Value } from "./values.js";
import type { CompilerParts } from "./compiler-parts.js";
import { after2, evalAll, isPending } from "./closure-eval.js";

/** How CPython names a callee in argument errors: `f()`, `len()`, `list.append()`. */
function calleeLabel(target: Value, method: string | null): string {
  if (method !== null) return `${typeName(target)}.${method}()`;
  if (target instanceof PyFunction) return `${target.code.name}()`;
  const name = target === null ? undefined : (target as { name?: unknown }).name;
  return typeof name === "string" ? `${name}()` : `${typeName(target)} object`;
}

export function compileCall(compiler: CompilerParts, e: A.Call, scope: Scope): Expr {
  const simple = e.args.every((a) => a.kind !== "Starred") && e.keywords.every((k) => k.arg !== null);
  const args = e.args.map((a) => compiler.expr(a.kind === "Starred" ? a.value : a, scope));
  const starred = e.args.map((a) => a.kind === "Starred");
  const kwExprs = e.keywords.map((k) => compiler.expr(k.value, scope));
  const kwNames = e.keywords.map((k) => k.arg);
  const { line, col } = e;

  /** Builds positional args and kwargs from evaluated values. */
  const assemble = (rt: Runtime, values: Value[], target: Value, method: string | null): [Value[], Map<string, Value> | null] => {
    const positional: Value[] = [];
    for (let i = 0; i < args.length; i++) {
      if (!starred[i]) positional.push(values[i]!);
      else {
        try {
          positional.push(...rt.toList(values[i]!));
        } catch (err) {
          throw rewordNotIterable(err, values[i]!, (type) => `${calleeLabel(target, method)} argument after * must be an iterable, not ${type}`);
        }
      }
    }
    if (kwExprs.length === 0) return [positional, null];
    const kwargs = new Map<string, Value>();
    for (let j = 0; j < kwExprs.length; j++) {
      const v = values[args.length + j]!;
      const name = kwNames[j];
      if (name === null || name === undefined) {
        if (!(v instanceof PyDict)) throw pyError("TypeError", `${calleeLabel(target, method)} argument after ** must be a mapping, not ${typeName(v)}`);
        for (const [k, x] of v.entries()) {
          if (typeof k !== "string") throw pyError("TypeError", "keywords must be strings");
          if (kwargs.has(k)) throw pyError("TypeError", `${calleeLabel(target, method)} got multiple values for keyword argument '${k}'`);
          kwargs.set(k, x);
        }
      } else {
        if (kwargs.has(name)) throw pyError("TypeError", `${calleeLabel(target, method)} got multiple values for keyword argument '${name}'`);
        kwargs.set(name, v);
      }
    }
    return [positional, kwargs];
  };
  const all = [...args, ...kwExprs];

  const plain = simple && kwExprs.length === 0;
  /** Calls `target` (a callable, or the receiver of `method`) with evaluated argument values. */
  const invoke = (f: Frame, target: Value, method: string | null, vs: Value[]): Value | Pending => {
    f.line = line;
    f.col = col;
    if (plain) return method === null ? f.rt.callValue(target, vs, null, f) : f.rt.callMethod(target, method, vs, null, f);
    const [positional, kwargs] = assemble(f.rt, vs, target, method);
    return method === null ? f.rt.callValue(target, positional, kwargs, f) : f.rt.callMethod(target, method, positional, kwargs, f);
  };
  /** Evaluates the arguments without allocating closures unless one of them suspends. */
  const withArguments = (f: Frame, target: Value, method: string | null): Value | Pending => {
    const vs: Value[] = new Array(all.length);
    for (let i = 0; i < all.length; i++) {
      const v = all[i]!(f);
      if (isPending(v)) {
        return v.then((first: Value) => {
          vs[i] = first;
          return after2(evalAll(all, f, i + 1, vs.slice(0, i + 1)), (rest) => invoke(f, target, method, rest as unknown as Value[]));
        });
      }
      vs[i] = v;
    }
    return invoke(f, target, method, vs);
  };
  // Method calls (`obj.method(...)`) skip making a bound method.
  if (e.func.kind === "Attribute") {
    const receiver = compiler.expr(e.func.value, scope);
    const method = e.func.attr;
    const site = new MethodSite(method);
    // The commonest shapes get closures of their own: no argument array to fill in a loop.
    if (plain && all.length === 0) {
      return (f) => {
        const self = receiver(f);
        if (isPending(self)) return self.then((obj: Value) => withArguments(f, obj, method));
        f.line = line;
        f.col = col;
        return site.call(f.rt, self, [], f);
      };
    }
    if (plain && all.length === 2) {
      const [arg0, arg1] = all as [Expr, Expr];
      return (f) => {
        const self = receiver(f);
        if (isPending(self)) return self.then((obj: Value) => withArguments(f, obj, method));
        const v0 = arg0(f);
        if (isPending(v0)) return v0.then((x: Value) => after2(arg1(f), (y) => invoke(f, self, method, [x, y])));
        const v1 = arg1(f);
        if (isPending(v1)) return v1.then((y: Value) => invoke(f, self, method, [v0, y]));
        f.line = line;
        f.col = col;
        return site.call(f.rt, self, [v0, v1], f);
      };
    }
    if (plain && all.length === 1) {
      const arg = all[0]!;
      return (f) => {
        const self = receiver(f);
        if (isPending(self)) return self.then((obj: Value) => withArguments(f, obj, method));
        const v = arg(f);
        if (isPending(v)) return v.then((x: Value) => invoke(f, self, method, [x]));
        f.line = line;
        f.col = col;
        return site.call(f.rt, self, [v], f);
      };
    }
    return (f) => {
      const self = receiver(f);
      return isPending(self) ? self.then((obj: Value) => withArguments(f, obj, method)) : withArguments(f, self, method);
    };
  }
  const callee = compiler.expr(e.func, scope);
  if (plain && all.length === 2) {
    const [arg0, arg1] = all as [Expr, Expr];
    return (f) => {
      const fn = callee(f);
      if (isPending(fn)) return fn.then((fv: Value) => withArguments(f, fv, null));
      const v0 = arg0(f);
      if (isPending(v0)) return v0.then((x: Value) => after2(arg1(f), (y) => invoke(f, fn, null, [x, y])));
      const v1 = arg1(f);
      if (isPending(v1)) return v1.then((y: Value) => invoke(f, fn, null, [v0, y]));
      f.line = line;
      f.col = col;
      if (fn instanceof PyFunction && fn.code.plainArity === 2) {
        const code = fn.code;
        const slots = code.emptySlots.slice();
        slots[code.params[0]!.slot] = v0;
        slots[code.params[1]!.slot] = v1;
        return f.rt.callPlain(fn, slots, f);
      }
      return f.rt.callValue(fn, [v0, v1], null, f);
    };
  }
  if (plain && all.length === 1) {
    const arg = all[0]!;
    return (f) => {
      const fn = callee(f);
      if (isPending(fn)) return fn.then((fv: Value) => withArguments(f, fv, null));
      const v = arg(f);
      if (isPending(v)) return v.then((x: Value) => invoke(f, fn, null, [x]));
      f.line = line;
      f.col = col;
      if (fn instanceof PyFunction && fn.code.plainArity === 1) {
        const code = fn.code;
        const slots = code.emptySlots.slice();
        slots[code.params[0]!.slot] = v;
        return f.rt.callPlain(fn, slots, f);
      }
      return f.rt.callValue(fn, [v], null, f);
    };
  }
  return (f) => {
    const fn = callee(f);
    return isPending(fn) ? fn.then((fv: Value) => withArguments(f, fv, null)) : withArguments(f, fn, null);
  };
}
