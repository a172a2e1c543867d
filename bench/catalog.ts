// The real-16 catalog (../shared/catalogs/real-16.json: the tools/list of 16 public MCP servers),
// in its own order, which is the benchmarks' order of servers.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const REAL_CATALOG = fileURLToPath(new URL("../../../shared/catalogs/real-16.json", import.meta.url));

export interface RawTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
}

export interface RawServer {
  name: string;
  instructions: string | null;
  tools: RawTool[];
}

export function loadRealCatalog(): RawServer[] {
  if (!existsSync(REAL_CATALOG)) throw new Error(`No catalog at ${REAL_CATALOG}.`);
  return (JSON.parse(readFileSync(REAL_CATALOG, "utf8")) as { servers: RawServer[] }).servers;
}
