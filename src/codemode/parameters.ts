// A tool's parameters as Python sees them (SPEC §3, §4): their Python-safe names and their order.
//
// The order is defined here once, and everything that shows or uses it takes it from here: the
// signature in a server's stub, a tool's stub and getToolDocs (stubs.ts), and the binding of a
// call's positional arguments (binding.ts). It is the order of a Python def with defaults:
// required parameters first, then optional ones, each group in the order of the schema's
// `properties` (the order its author wrote them in, which `required` lists usually follow too).
import type { CatalogTool } from "./catalog.js";
import { isIdentifier } from "./names.js";

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A Python identifier for a parameter name: `from` -> `from_`, `user-id` -> `user_id`, `$top` -> `top`. */
export function safeParamName(name: string): string {
  if (isIdentifier(name)) return name;
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return name + "_"; // a keyword
  let safe = name
    .replace(/[^A-Za-z0-9_]+/g, "_")
    .replace(/^_+|_+$/g, "");
  if (safe === "") safe = "_";
  if (/^[0-9]/.test(safe)) safe = "_" + safe;
  return isIdentifier(safe) ? safe : safe + "_";
}

export interface Param {
  /** The name in Python signatures. */
  python: string;
  /** The name upstream expects. */
  upstream: string;
  schema: unknown;
  required: boolean;
  /** The schema default, when it declares one. */
  default?: unknown;
  hasDefault: boolean;
}

function inputProperties(tool: Pick<CatalogTool, "inputSchema">): { properties: Schema; required: string[] } {
  const input = isSchema(tool.inputSchema) ? tool.inputSchema : {};
  const properties = isSchema(input.properties) ? input.properties : {};
  const required = Array.isArray(input.required) ? input.required.filter((r): r is string => typeof r === "string") : [];
  return { properties, required };
}

/**
 * The tool's parameters in signature order: required first, then optional, each group in schema
 * order (a required name missing from `properties` is appended as `Any`). Python names are unique:
 * names that are already identifiers keep them, the others take the next free `_2`, `_3`...
 */
export function parameters(tool: Pick<CatalogTool, "inputSchema">): Param[] {
  const { properties, required } = inputProperties(tool);
  const upstreamNames = Object.keys(properties);
  for (const name of required) if (!Object.hasOwn(properties, name) && !upstreamNames.includes(name)) upstreamNames.push(name);
  const requiredSet = new Set(required);

  const taken = new Set<string>();
  const pythonOf = new Map<string, string>();
  for (const pass of [true, false]) {
    for (const upstream of upstreamNames) {
      if (isIdentifier(upstream) !== pass || pythonOf.has(upstream)) continue;
      const base = safeParamName(upstream);
      let python = base;
      for (let n = 2; taken.has(python); n++) python = `${base}_${n}`;
      taken.add(python);
      pythonOf.set(upstream, python);
    }
  }

  const params = upstreamNames.map((upstream): Param => {
    const schema = Object.hasOwn(properties, upstream) ? properties[upstream] : undefined;
    const hasDefault = isSchema(schema) && Object.hasOwn(schema, "default");
    return {
      python: pythonOf.get(upstream)!,
      upstream,
      schema: schema ?? {},
      required: requiredSet.has(upstream),
      default: hasDefault ? schema.default : undefined,
      hasDefault,
    };
  });
  return [...params.filter((p) => p.required), ...params.filter((p) => !p.required)];
}

/** Python parameter name -> upstream name, for every parameter of the tool. */
export function paramNames(tool: Pick<CatalogTool, "inputSchema">): Map<string, string> {
  return new Map(parameters(tool).map((p) => [p.python, p.upstream]));
}
