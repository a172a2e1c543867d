#!/usr/bin/env -S node --max-semi-space-size=32
// code-mode-exec: runs one script in the sandbox and prints its SandboxResult as one JSON object
// (SPEC §8). Exit code 0 when the script completed, 1 when it raised or hit a limit, 2 for usage
// or configuration errors. The work is in exec-run.ts.
import { startExec } from "./exec-run.js";

void startExec(process.argv.slice(2));
