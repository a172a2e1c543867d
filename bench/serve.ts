// The bench gateway (harness.ts: Gateway + buildServer, the execution log in memory, no SQLite
// store) as a process of its own, for the load bench to compare with the real CLI.
//   node dist/bench/serve.js   -> prints `listening <url>` on stderr, stops on SIGTERM.
import { startGateway } from "./harness.js";

const bench = await startGateway();
process.stderr.write(`listening on ${bench.url} \n`);
process.once("SIGTERM", () => {
  void bench.close().then(() => process.exit(0));
});
