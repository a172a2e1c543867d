// Waiting for a gateway process to listen: the CLI (and bench/serve.ts) print
// `listening on http://host:port` on stderr once the port is bound.
import type { ChildProcess } from "node:child_process";

/** The URL `child` says it listens on; rejects, with what it printed, if it exits or takes too long. */
export function listeningUrl(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`the gateway did not start: ${seen}`)), timeoutMs);
    child.stderr!.on("data", (d: Buffer) => {
      seen += d.toString();
      const m = /listening on (http:\/\/[^ ]+)/.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once("exit", (code) => reject(new Error(`the gateway exited with ${code}: ${seen}`)));
  });
}
