# CPython's side of bench/interpreter.ts: times each workload in-process around exec() of code
# compiled beforehand (a fresh globals dict per run), and the trivial script with its compile.
import json
import statistics
import sys
import time

spec = json.load(sys.stdin)
out = {"version": sys.version.split()[0], "workloads": [], "trivial_us": None}
for w in spec["workloads"]:
    code = compile(w["source"], w["name"], "exec")
    for _ in range(spec["warmup"]):
        exec(code, {})
    samples = []
    result = None
    for _ in range(spec["reps"]):
        ns = {}
        start = time.perf_counter()
        exec(code, ns)
        samples.append((time.perf_counter() - start) * 1e3)
        result = ns["RESULT"]
    out["workloads"].append({"ms": statistics.median(samples), "result": json.dumps(result, separators=(",", ":"))})

# The trivial script: compile + exec + reading the result, as one execution of ours does.
trivial = spec["trivial"]
batch = spec["trivialBatch"]
samples = []
for _ in range(spec["trivialBatches"]):
    start = time.perf_counter()
    for _ in range(batch):
        ns = {}
        exec(compile(trivial, "<script>", "exec"), ns)
        ns["RESULT"]
    samples.append((time.perf_counter() - start) * 1e6 / batch)
out["trivial_us"] = statistics.median(samples)
print(json.dumps(out))
