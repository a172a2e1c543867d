# CPython's side of bench/interpreter.ts, one mode per run (the "mode" key of the JSON on stdin):
# - "repeated": times (CPU time) each workload in-process around exec() of code compiled
#   beforehand (a fresh globals dict per run), and the trivial script with its compile;
# - "new": the new-script scenario: after warm-up runs of other texts, times compile() + exec()
#   of texts this process has never seen, the workloads taken in turn (every run's time);
# - "results": each workload's RESULT, run once (the reference for the other engines).
import json
import statistics
import sys
import time


def as_json(value):
    return json.dumps(value, separators=(",", ":"))


def repeated(spec):
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
        out["workloads"].append({"ms": statistics.median(samples), "result": as_json(result)})

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
    return out


def new_scripts(spec):
    workloads = spec["workloads"]
    for k in range(len(workloads[0]["warm"])):
        for w in workloads:
            exec(compile(w["warm"][k], w["name"], "exec"), {})
    samples = {w["name"]: [] for w in workloads}
    results = {}
    for k in range(len(workloads[0]["timed"])):
        for w in workloads:
            ns = {}
            start = time.process_time()
            exec(compile(w["timed"][k], w["name"], "exec"), ns)
            samples[w["name"]].append((time.process_time() - start) * 1e3)
            results[w["name"]] = as_json(ns["RESULT"])
    return {
        "version": sys.version.split()[0],
        "workloads": [{"samples": samples[w["name"]], "result": results[w["name"]]} for w in workloads],
    }


def results(spec):
    found = []
    for w in spec["workloads"]:
        ns = {}
        exec(compile(w["source"], w["name"], "exec"), ns)
        found.append(as_json(ns["RESULT"]))
    return {"results": found}


spec = json.load(sys.stdin)
mode = spec.get("mode", "repeated")
print(json.dumps({"repeated": repeated, "new": new_scripts, "results": results}[mode](spec)))
