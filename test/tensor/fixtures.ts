// The tensor fixtures (../shared/fixtures/tensors: real torch.save files and their wire payloads),
// read in place. Like the conformance suites, they live beside the checkout: tests that need them
// are skipped where the folder is absent.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const TENSOR_FIXTURES = fileURLToPath(new URL("../../../shared/fixtures/tensors/", import.meta.url));
export const hasTensorFixtures = existsSync(TENSOR_FIXTURES);

/** A fixture's wire payload (base64 of the zstd-compressed .pt file). */
export function wireOf(name: string): string {
  return readFileSync(join(TENSOR_FIXTURES, `${name}.wire.txt`), "utf8");
}
