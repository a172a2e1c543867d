// What parseGatewayConfig says is wrong with a config, for the config-file tests.
import { parseGatewayConfig } from "../../src/gateway/config-file.js";
import { ConfigError } from "../../src/upstream/config.js";

/** The ConfigError's message, or "no problem" when the config parses. */
export function problem(raw: unknown, env: NodeJS.ProcessEnv = {}): string {
  try {
    parseGatewayConfig(raw, env);
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  return "no problem";
}
