// Runs a script with every server of an UpstreamManager as a global, nothing refused: the
// bridge as the gateway builds it, for tests that drive real servers without a gateway.
import { buildHosts } from "../../src/codemode/bridge.js";
import { defaultCodecs } from "../../src/codemode/media.js";
import { DEFAULT_LIMITS, type Limits } from "../../src/interpreter/budget.js";
import { execute, type ExecuteOptions, type SandboxResult } from "../../src/interpreter/execute.js";
import type { UpstreamManager } from "../../src/upstream/manager.js";

export function runBridged(manager: UpstreamManager, source: string, limits: Partial<Limits> = {}, options: Pick<ExecuteOptions, "finalizeResult"> = {}): Promise<SandboxResult> {
  return execute(source, {
    limits,
    hosts: buildHosts({ connections: manager.list(), visible: () => true, authorize: () => null, limits: { ...DEFAULT_LIMITS, ...limits }, codecs: defaultCodecs() }),
    ...options,
  });
}
