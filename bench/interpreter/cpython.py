# CPython's side of bench/interpreter.ts: times (CPU time) each workload in-process around exec() of code
# compiled beforehand (a fresh globals dict per run), and the trivial script with its compile.
import json
import statistics
import sys
import time

spec = json.load(sys.stdin)
out = {"version": sys.version.split()[0], "workloads": [], "trivial_us": None}
for w in spec["workloads"]:
    code = compile(w["source"], w["name"], "exec")
    warm = time.process_time()
    runs = 0
    while runs < spec["warmup"] or time.process_time() - warm < spec["warmupMs"] / 1e3:
        exec(code, {})
        runs += 1
    samples = []
    result = None
    for _ in range(spec["reps"]):
        ns = {}
        start = time.process_time()
        exec(code, ns)
        samples.append((time.process_time() - start) * 1e3)
        result = ns["RESULT"]
    out["workloads"].append({"ms": statistics.median(samples), "result": json.dumps(result, separators=(",", ":"))})

# The trivial script: compile + exec + reading the result, as one execution of ours does.
trivial = spec["trivial"]
batch = spec["trivialBatch"]
samples = []
for _ in range(spec["trivialBatches"]):
    start = time.process_time()
    for _ in range(batch):
        ns = {}
        exec(compile(trivial, "<script>", "exec"), ns)
        ns["RESULT"]
    samples.append((time.process_time() - start) * 1e6 / batch)
out["trivial_us"] = statistics.median(samples)
print(json.dumps(out))
