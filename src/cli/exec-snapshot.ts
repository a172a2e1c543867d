// The entry of code-mode-exec's start-up snapshot (`npm run build:snapshot`). Node runs this file
// once, at build time, then saves its heap: the loaded interpreter, the sandbox's modules and the
// parser with its grammar already analysed. `node --snapshot-blob dist/snapshot/code-mode-exec.blob
// -- ARGS` starts from that heap, so a run skips loading, compiling and evaluating our modules and
// Chevrotain's self-analysis (the start-up section of bench/RESULTS.md has the figures), and the
// compiling of what a warm-up run of two scripts (snapshot-warm-up.ts) called.
//
// A snapshot may hold no open handle and cannot import() other files, so --config (the upstream
// side, loaded on demand) is handed to the bundled binary in a child process: connecting servers
// costs far more than that process's start.
import { dirname, join, resolve } from "node:path";
import { startupSnapshot } from "node:v8";
import { getParser } from "../../grammar/parse.js";
import { codegenMode, execute, setCodegen } from "../interpreter/index.js";
import { startExec } from "./exec-run.js";
import { WARM_UP } from "./snapshot-warm-up.js";

// Where this file was built: dist/snapshot/, next to dist/bin/ (the blob is built in place).
const BUNDLED_BINARY = join(dirname(resolve(process.argv[1]!)), "..", "bin", "code-mode-exec.js");

getParser();

// Run once here, the interpreter's functions are compiled to bytecode and its tables made in the
// saved heap (fresh processes over bench:interpreter's 18 workloads: 2.6-3.6 % less wall time,
// geometric mean; 30 runs, or runs on the JavaScript tier, added nothing: V8 keeps no type
// feedback or optimized code in a snapshot). Node saves the heap once the event loop is empty,
// so after these runs have ended.
const tiering = codegenMode;
setCodegen("never");
void (async () => {
  for (const script of WARM_UP) {
    const r = await execute(script);
    if (r.error) throw new Error(`the snapshot's warm-up script failed: ${r.error.type}: ${r.error.message}`);
  }
  setCodegen(tiering);
})();

/** Node's own flags, but the snapshot's: the child runs the bundle under the same V8 settings. */
function nodeFlags(): string[] {
  const flags: string[] = [];
  for (let i = 0; i < process.execArgv.length; i++) {
    const flag = process.execArgv[i]!;
    if (flag === "--snapshot-blob") i++;
    else if (!flag.startsWith("--snapshot-blob=")) flags.push(flag);
  }
  return flags;
}

startupSnapshot.setDeserializeMainFunction(() => {
  // Node keeps no script name in argv when it starts from a snapshot.
  const args = process.argv.slice(1);
  const own = args.indexOf("--");
  if (!(own < 0 ? args : args.slice(0, own)).includes("--config")) {
    void startExec(args);
    return;
  }
  // Loaded here, not imported: Node does not vouch for child_process in a snapshot's heap
  // (process.getBuiltinModule is Node 20.16 or newer).
  const { spawnSync } = process.getBuiltinModule("node:child_process");
  const child = spawnSync(process.execPath, [...nodeFlags(), BUNDLED_BINARY, ...args], { stdio: "inherit" });
  process.exitCode = child.status ?? 2;
});
