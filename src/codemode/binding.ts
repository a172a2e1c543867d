// How a script's call reaches a tool's parameters (SPEC §3). `srv.tool(a, b, k=v)` binds as a
// Python def with the stub's signature would: positional values in signature order (the one
// order of parameters.ts, which every stub prints), keywords by their Python-safe names (or the
// server's own), and CPython's TypeErrors when they do not fit, with the signature as a hint so
// that the next try can fix the call. One positional dict alone is the arguments themselves (the
// form that predates positional binding), unless the first parameter takes a dict: then it is
// that parameter's value, as its signature says.
import { pyError, type PyException } from "../interpreter/index.js";
import type { CatalogTool } from "./catalog.js";
import { type Param, parameters } from "./parameters.js";
import { annotatesDict, defHead } from "./stubs.js";

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Sets a key as an own property: `__proto__` is an argument like any other. */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** One tool's signature, made once per tool (per catalog version) and used at every call. */
export class ToolSignature {
  /** In signature order. */
  readonly params: readonly Param[];
  /** Python names, then the upstream names that are not also a Python name -> the parameter. */
  private readonly byName = new Map<string, { param: Param; index: number }>();
  /** The first parameter is annotated `dict`: a lone positional dict is its value. */
  readonly firstTakesDict: boolean;

  constructor(private readonly tool: Pick<CatalogTool, "inputSchema" | "outputSchema">) {
    this.params = parameters(tool);
    this.params.forEach((param, index) => this.byName.set(param.python, { param, index }));
    this.params.forEach((param, index) => {
      if (!this.byName.has(param.upstream)) this.byName.set(param.upstream, { param, index });
    });
    const first = this.params[0];
    this.firstTakesDict = first !== undefined && annotatesDict(first.schema, tool.inputSchema);
  }

  /** The line the stubs print for this tool (without its comment), as `def <python>(...) -> ...`. */
  text(python: string): string {
    return defHead({ server: "", name: python, python, inputSchema: this.tool.inputSchema, outputSchema: this.tool.outputSchema }, true);
  }

  /** A TypeError of a call of `fn` (`srv.tool`), with the signature, named `python`, as its hint. */
  error(fn: string, python: string, message: string): PyException {
    const error = pyError("TypeError", message);
    error.hints.push(`Signature: ${this.text(python)} (positional arguments bind in this order, or pass each by name).`);
    return error;
  }

  /**
   * The arguments to send, by upstream name, for `fn(*args, **kwargs)`: positional ones first, in
   * signature order, then the keywords as given. Keywords that name no parameter are passed on
   * (the schema's validation judges them).
   */
  bind(fn: string, python: string, args: readonly unknown[], kwargs: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const named: [key: string, value: unknown][] = [];
    const seen = new Set<string>();
    const add = (name: string, value: unknown, positionalCount: number) => {
      const found = this.byName.get(name);
      const key = found?.param.upstream ?? name;
      if (seen.has(key) || (found !== undefined && found.index < positionalCount)) {
        throw this.error(fn, python, `${fn}() got multiple values for argument '${found?.param.python ?? name}'`);
      }
      seen.add(key);
      named.push([key, value]);
    };

    let positional = args;
    const lone = args.length === 1 ? args[0] : undefined;
    if (isRecord(lone) && !this.firstTakesDict) {
      for (const [name, value] of Object.entries(lone)) add(name, value, 0);
      positional = [];
    }
    // Keywords first, as CPython checks them before it counts the positional arguments.
    for (const [name, value] of Object.entries(kwargs)) add(name, value, positional.length);
    if (positional.length > this.params.length) throw this.error(fn, python, this.tooMany(fn, positional.length));

    const out: Record<string, unknown> = {};
    positional.forEach((value, i) => put(out, this.params[i]!.upstream, value));
    for (const [key, value] of named) put(out, key, value);
    return out;
  }

  /** CPython's wording: `f() takes 2 positional arguments but 3 were given`, `takes from 1 to 2 ...`. */
  private tooMany(fn: string, given: number): string {
    const total = this.params.length;
    const required = this.params.filter((p) => p.required).length;
    const takes = required === total ? `${total} positional argument${total === 1 ? "" : "s"}` : `from ${required} to ${total} positional arguments`;
    return `${fn}() takes ${takes} but ${given} ${given === 1 ? "was" : "were"} given`;
  }
}
