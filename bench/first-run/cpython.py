# CPython's side of bench/first-run.ts: in one warm process, times (CPU time) compile + exec of a
# new text of each workload (the source with a unique `_nonce = <n>` line appended), and exec of a
# code object compiled beforehand (the repeated script).
import json
import sys
import time

spec = json.load(sys.stdin)
nonce = spec["nonce"]


def fresh(source):
    global nonce
    nonce += 1
    return f"{source}\n_nonce = {nonce}\n"


# Warm the process on other texts of the same workloads, as ours is.
for _ in range(spec["warm"]):
    for w in spec["workloads"]:
        exec(compile(fresh(w["source"]), "<script>", "exec"), {})

out = {"version": sys.version.split()[0], "first": [], "repeated": []}
for w in spec["workloads"]:
    text = fresh(w["source"])
    start = time.process_time()
    ns = {}
    exec(compile(text, "<script>", "exec"), ns)
    out["first"].append((time.process_time() - start) * 1e3)
    code = compile(w["source"], "<script>", "exec")
    exec(code, {})
    start = time.process_time()
    exec(code, {})
    out["repeated"].append((time.process_time() - start) * 1e3)
    w["answer"] = json.dumps(ns["RESULT"], separators=(",", ":"))
out["results"] = [w["answer"] for w in spec["workloads"]]
print(json.dumps(out))
