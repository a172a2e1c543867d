// The `sys` module and the `env` global: what a script run with arguments can see of how it was
// called (`code-mode-exec SCRIPT.py --env K=V -- a b c`). The sandbox has no process to inspect,
// so `sys` holds `argv` alone and `env` holds only what the caller passed, never the host's
// environment.
import { PyDict, PyList, type Value } from "../values.js";

/** `import sys`: `sys.argv`, the script's name first, then its arguments. */
export function sysModule(argv: readonly string[]): Record<string, Value> {
  return { argv: new PyList([...argv]) };
}

/** The `env` global: a fresh dict of the strings the caller passed. */
export function scriptEnv(env: Readonly<Record<string, string>>): PyDict {
  const d = new PyDict();
  for (const key of Object.keys(env)) d.set(key, env[key]!);
  return d;
}
