// The wording of a request that fails its route's schema: Ajv's first error as one sentence that
// names the field by its JSON path (`client_config.mcp_agent_depth must be at least 1 (got 0)`),
// answered as a 400. Every route's schema (schemas.ts) is checked with these words.
import type { FastifySchemaValidationError } from "fastify";
import { HttpError } from "./errors.js";

/** The pattern of a query parameter that is a whole number (its message says so in words). */
export const WHOLE_NUMBER = "^[0-9]+$";

/** The two body shapes /v1/mcp/tool/execute takes, told to whoever sent neither. */
export const TOOL_CALL_SHAPES =
  'expected a chat tool call {"id", "type": "function", "function": {"name", "arguments"}} ' +
  'or a Responses function_call {"type": "function_call", "call_id", "name", "arguments"}, where arguments is a JSON-encoded object';

const TYPE_NAMES: Record<string, string> = {
  number: "a number",
  integer: "an integer",
  string: "a string",
  object: "an object",
  array: "a list",
  boolean: "true or false",
};

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Ajv's first error as a sentence that names the field by its JSON path (`client_config.mcp_agent_depth`). */
export function describeValidation(errors: FastifySchemaValidationError[], dataVar: string): string {
  const error = errors[0];
  if (!error) return `the ${dataVar} is invalid`;
  const path = error.instancePath
    .split("/")
    .slice(1)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  const params = error.params;
  let text: string;
  switch (error.keyword) {
    case "required":
      path.push(String(params.missingProperty));
      text = "is required";
      break;
    case "additionalProperties":
      path.push(String(params.additionalProperty));
      text = "is not a known field";
      break;
    case "type":
      text = `must be ${TYPE_NAMES[String(params.type)] ?? String(params.type)}`;
      break;
    case "enum":
      text = `must be one of ${(params.allowedValues as unknown[]).join(", ")}`;
      break;
    case "const":
      text = `must be ${JSON.stringify(params.allowedValue)}`;
      break;
    case "minimum":
      text = `must be at least ${String(params.limit)}`;
      break;
    case "minLength":
      text = "must not be empty";
      break;
    case "pattern":
      text = params.pattern === WHOLE_NUMBER ? "must be a whole number" : `must match ${String(params.pattern)}`;
      break;
    default:
      text = error.message ?? "is invalid";
  }
  // Ajv is run with `verbose`, so the offending value is at hand (not for `required` and the like).
  const data = (error as { data?: unknown }).data;
  if (["type", "enum", "const", "minimum", "pattern"].includes(error.keyword) && data !== undefined) text += ` (got ${shown(data)})`;
  const where = dataVar === "body" ? path : [dataVar, ...path];
  return `${where.length ? where.join(".") : `the ${dataVar}`} ${text}`;
}

/** The app's schemaErrorFormatter. */
export function validationError(errors: FastifySchemaValidationError[], dataVar: string): HttpError {
  return new HttpError(400, describeValidation(errors, dataVar));
}

/** /v1/mcp/tool/execute's: a body that fails says which shapes it may take. */
export function toolCallValidationError(errors: FastifySchemaValidationError[], dataVar: string): HttpError {
  const message = describeValidation(errors, dataVar);
  return new HttpError(400, dataVar === "body" ? `${message}; ${TOOL_CALL_SHAPES}` : message);
}
