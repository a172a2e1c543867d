// The binaries, bundled from tsc's output (dist/src/cli):
// - `npm run build:bin` (vite build --mode bin): dist/bin/code-mode-exec.js and
//   code-mode-gateway.js. Node then loads a few files instead of hundreds: Chevrotain's sources
//   import lodash-es whole, 640 modules, which were most of code-mode-exec's start-up. Only
//   Chevrotain and its own packages are taken in; every other package stays an import of
//   node_modules (native addons cannot be bundled), and our code keeps its import() splits, so
//   the upstream side still loads only when asked for.
// - `npm run build:snapshot` (--mode snapshot): dist/snapshot/exec-snapshot.cjs, one CommonJS file
//   with every module it needs (a snapshot's entry can load nothing else), which Node then runs
//   and saves as a start-up snapshot (see src/cli/exec-snapshot.ts).
// The start-up section of bench/RESULTS.md measures what each buys.
import { fileURLToPath } from "node:url";

const chevrotain = ["chevrotain", /^@chevrotain\//, "lodash-es"];

/** @type {(env: { mode: string }) => import("vite").UserConfig} */
export default ({ mode }) => {
  const snapshot = mode === "snapshot";
  return {
    root: fileURLToPath(new URL("../..", import.meta.url)),
    logLevel: "warn",
    build: {
      ssr: true,
      outDir: snapshot ? "dist/snapshot" : "dist/bin",
      emptyOutDir: true,
      minify: false,
      sourcemap: !snapshot,
      target: "node20",
      rolldownOptions: snapshot
        ? {
            input: { "exec-snapshot": "dist/src/cli/exec-snapshot.js" },
            // Reached only with --config, which the snapshot hands to the bundled binary.
            external: [/\/exec-servers\.js$/],
            output: { format: "cjs", entryFileNames: "[name].cjs", codeSplitting: false },
          }
        : {
            input: { "code-mode-exec": "dist/src/cli/exec.js", "code-mode-gateway": "dist/src/cli/gateway.js" },
            output: { format: "esm", entryFileNames: "[name].js", chunkFileNames: "chunks/[name]-[hash].js" },
          },
    },
    ssr: { noExternal: snapshot ? true : chevrotain },
  };
};
