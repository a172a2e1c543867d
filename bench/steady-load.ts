// An open-loop load: requests sent at a fixed rate whatever the answers do, as many independent
// clients make them, each request's latency measured in microseconds from the moment it is sent.
// (Requests are sent by a timer of about 1 ms, so a request may leave up to a tick after it was
// due: timing from the due moment would add that tick's lag of this process to every figure.)
// Autocannon's closed loop of N connections measures a gateway kept busy all the time, and
// reports whole milliseconds; this measures one at a steady, partial load, as operators run it.
import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";
import { percentile } from "./harness.js";

export interface SteadyResult {
  /** Requests answered with a 2xx status. */
  answered: number;
  /** Requests that failed or were answered with another status. */
  failed: number;
  /** Latency percentiles over the answered requests, in ms. */
  p50: number;
  p99: number;
}

/** POSTs `body` (JSON) to `url` at `rate` requests per second for `seconds`. */
export async function steadyLoad(url: string, body: string, rate: number, seconds: number): Promise<SteadyResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const target = new URL(url);
  const latencies: number[] = [];
  let failed = 0;
  const inFlight = new Set<Promise<void>>();
  const send = () => {
    const sentAt = performance.now();
    const done = new Promise<void>((resolve) => {
      const req = request(
        { host: target.hostname, port: target.port, path: target.pathname, method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          res.on("end", () => {
            if (res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300) latencies.push(performance.now() - sentAt);
            else failed++;
            resolve();
          });
        },
      );
      req.on("error", () => {
        failed++;
        resolve();
      });
      req.end(body);
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };
  const started = performance.now();
  const total = Math.round(rate * seconds);
  let sent = 0;
  // Every millisecond or so, the requests due by now.
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      for (; sent < total && started + (sent * 1000) / rate <= now; sent++) send();
      if (sent < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  await Promise.all(inFlight);
  agent.destroy();
  return { answered: latencies.length, failed, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}
