// The tensor fixtures (../shared/fixtures/tensors: real torch.save files and their wire payloads),
// read in place. Like the conformance suites, they live beside the checkout: tests that need them
// are skipped where the folder is absent.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ClientConfig, parseClientConfig } from "../../src/upstream/config.js";

export const TENSOR_FIXTURES = fileURLToPath(new URL("../../../shared/fixtures/tensors/", import.meta.url));
export const hasTensorFixtures = existsSync(TENSOR_FIXTURES);

/** A fixture's wire payload (base64 of the zstd-compressed .pt file). */
export function wireOf(name: string): string {
  return readFileSync(join(TENSOR_FIXTURES, `${name}.wire.txt`), "utf8");
}

/** The MCP server that serves these fixtures (test/fixtures/tensor-server.ts, built to dist/ by `npm test`). */
export const TENSOR_SERVER = fileURLToPath(new URL("../../dist/test/fixtures/tensor-server.js", import.meta.url));

/** The tensor server as a code-mode client named `tensors`, every tool allowed. */
export function tensorClient(): ClientConfig {
  return parseClientConfig({
    name: "tensors",
    connection_type: "stdio",
    stdio_config: { command: process.execPath, args: [TENSOR_SERVER, TENSOR_FIXTURES] },
    tools_to_execute: ["*"],
    is_code_mode_client: true,
  });
}
