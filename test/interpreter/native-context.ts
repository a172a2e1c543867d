// A NativeContext for testing natives on their own, without the interpreter.
import { Budget, DEFAULT_LIMITS, type Limits } from "../../src/interpreter/budget.js";
import { pyError } from "../../src/interpreter/errors.js";
import type { NativeContext } from "../../src/interpreter/native.js";
import { getAttribute } from "../../src/interpreter/runtime.js";
import { PyDict, PyList, PyRange, PySet, PyTuple, typeName, type Value } from "../../src/interpreter/values.js";

export function testContext(limits: Partial<Limits> = {}): NativeContext & { output: string[]; notes: string[] } {
  const budget = new Budget({ ...DEFAULT_LIMITS, ...limits });
  const output: string[] = [];
  const notes: string[] = [];
  return {
    budget,
    output,
    notes,
    call(fn, args) {
      if (typeof fn === "function") return (fn as (...a: Value[]) => Value)(...args);
      throw new Error(`testContext cannot call ${typeName(fn)}`);
    },
    callMayWait(fn, args) {
      return this.call(fn, args);
    },
    write(text) {
      budget.log(text.length);
      output.push(text);
    },
    note(text) {
      if (!notes.includes(text)) notes.push(text);
    },
    toList(v) {
      let items: Value[];
      if (v instanceof PyList || v instanceof PyTuple) items = [...v.items];
      else if (typeof v === "string") items = [...v];
      else if (v instanceof PyDict) items = [...v.keys()];
      else if (v instanceof PySet) items = [...v.values()];
      else if (v instanceof PyRange) items = Array.from({ length: v.length }, (_, i) => v.at(i));
      else throw pyError("TypeError", `'${typeName(v)}' object is not iterable`);
      budget.step(items.length);
      return items;
    },
    sleep() {
      throw new Error("testContext cannot sleep");
    },
    getAttr: getAttribute,
  };
}
