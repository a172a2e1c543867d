// The gateway's settings as the API shows and edits them (client_config, Bifrost's shape): the
// view GET /api/config answers, and the settings a PUT asks for, checked completely.
import type { GatewaySettings } from "../gateway/gateway.js";
import { LIMIT_FIELDS, type Limits, resolveLimits } from "../interpreter/index.js";
import { HttpError } from "./errors.js";
import type { ConfigFields, ConfigView, LimitsView } from "./types.js";

// The API's limit names (types.ts, shared with the web client) are the interpreter's, both ways:
// a limit added on one side only fails to compile here.
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : never) : never;
const LIMITS_AGREE: SameKeys<Limits, LimitsView> = true;
void LIMITS_AGREE;

/** Turns resolveLimits' message, which starts with the limit's name, into one that names `path`. */
function limitError(path: string, field: string, e: unknown): HttpError {
  const message = e instanceof Error ? e.message : String(e);
  return new HttpError(400, message.startsWith(field) ? `${path}${message.slice(field.length)}` : `${path}: ${message}`);
}

/** The settings in force, as GET /api/config shows them. */
export function configView(settings: GatewaySettings): ConfigView {
  const limits = Object.fromEntries(LIMIT_FIELDS.map((f) => [f, settings.limits[f]])) as unknown as LimitsView;
  return {
    client_config: {
      mcp_code_mode_limits: limits,
      mcp_tool_execution_timeout: settings.limits.tool_execution_timeout,
      mcp_code_mode_binding_level: settings.bindingLevel,
      mcp_agent_depth: settings.maxAgentDepth,
      mcp_code_mode_instructions_limit: settings.instructionsLimit,
      mcp_direct_instructions_limit: settings.directInstructionsLimit,
      mcp_code_mode_observed_shapes: settings.observedShapes,
    },
  };
}

/**
 * The settings a PUT asks for, checked completely; throws HttpError(400) before anything changes.
 *
 * - `mcp_code_mode_limits` omitted: the current limits stay. Given: it replaces them, and each limit
 *   it leaves out (or sets to 0) takes its DEFAULT, not its current value; so `{}` resets them all.
 *   This is Bifrost's rule ("an omitted field, or 0, uses its default").
 * - The execution timeout is Bifrost's separate `mcp_tool_execution_timeout`, mirrored as
 *   `mcp_code_mode_limits.tool_execution_timeout`; it changes only when one of the two is given
 *   (so `{}` leaves it alone, as in Bifrost). When both are given and differ, the one that differs
 *   from the current value is the edit (a read-modify-write of the whole object changes only
 *   one); when both differ from it, the request is ambiguous and refused.
 */
export function settingsFromUpdate(current: GatewaySettings, update: ConfigFields): GatewaySettings {
  const at = "client_config";
  let limits = current.limits;
  let limitsTimeout: number | undefined;
  if (update.mcp_code_mode_limits !== undefined) {
    const given = update.mcp_code_mode_limits;
    for (const [field, value] of Object.entries(given)) {
      try {
        resolveLimits({ [field]: value });
      } catch (e) {
        throw limitError(`${at}.mcp_code_mode_limits.${field}`, field, e);
      }
    }
    const resolved = resolveLimits(given);
    if (given.tool_execution_timeout !== undefined) limitsTimeout = resolved.tool_execution_timeout;
    limits = { ...resolved, tool_execution_timeout: current.limits.tool_execution_timeout };
  }
  let topTimeout: number | undefined;
  if (update.mcp_tool_execution_timeout !== undefined) {
    try {
      topTimeout = resolveLimits({ tool_execution_timeout: update.mcp_tool_execution_timeout }).tool_execution_timeout;
    } catch (e) {
      throw limitError(`${at}.mcp_tool_execution_timeout`, "tool_execution_timeout", e);
    }
  }
  const timeout = chooseTimeout(current.limits.tool_execution_timeout, topTimeout, limitsTimeout);
  return {
    ...current,
    limits: { ...limits, tool_execution_timeout: timeout },
    bindingLevel: update.mcp_code_mode_binding_level ?? current.bindingLevel,
    maxAgentDepth: update.mcp_agent_depth ?? current.maxAgentDepth,
    instructionsLimit: update.mcp_code_mode_instructions_limit ?? current.instructionsLimit,
    directInstructionsLimit: update.mcp_direct_instructions_limit ?? current.directInstructionsLimit,
    observedShapes: update.mcp_code_mode_observed_shapes ?? current.observedShapes,
  };
}

function chooseTimeout(current: number, top: number | undefined, inLimits: number | undefined): number {
  if (top === undefined) return inLimits ?? current;
  if (inLimits === undefined || inLimits === top) return top;
  if (top === current) return inLimits;
  if (inLimits === current) return top;
  throw new HttpError(
    400,
    `client_config.mcp_tool_execution_timeout (${top}) and client_config.mcp_code_mode_limits.tool_execution_timeout (${inLimits}) ` +
      "are the same setting and disagree; give one of them",
  );
}
