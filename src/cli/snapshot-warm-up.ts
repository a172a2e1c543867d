// What code-mode-exec's start-up snapshot runs before its heap is saved (exec-snapshot.ts): two
// scripts of the kinds models write (records in dicts and lists; log lines parsed with string
// methods, re and try/except; comprehensions, generator expressions, closures, sorting by key,
// f-strings, json and math), each checked against CPython (test/cli/snapshot-warm-up.test.ts).
// Their runs leave the interpreter's functions compiled to bytecode and its lazily built tables
// made, in the heap every run starts from. They import nothing whose state a run would inherit
// (random's generator, the clock), and run on closures only: no unit text or shape is kept.
export const WARM_UP: readonly string[] = [
  `
import json

orders = [
    {"id": n, "customer": f"c{n % 13}", "items": [{"sku": f"s{(n * k) % 17}", "qty": 1 + (n + k) % 4, "price": round(2.5 + (n * k) % 9 * 1.25, 2)} for k in range(1 + n % 3)],
     "note": "  Rush delivery " if n % 5 == 0 else "", "status": ["new", "paid", "shipped"][n % 3]}
    for n in range(40)
]


def ledger_add(ledger, amount, *, tag="misc"):
    if amount < 0:
        raise ValueError(f"negative amount {amount}")
    ledger["entries"].append((tag, amount))
    return len(ledger["entries"])


def ledger_total(ledger):
    return sum(a for _, a in ledger["entries"])


def summarize(rows, key=lambda r: r["customer"], top=3):
    totals = {}
    for r in rows:
        amount = sum(i["qty"] * i["price"] for i in r["items"])
        totals[key(r)] = totals.get(key(r), 0) + amount
    ranked = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
    return [(k, round(v, 2)) for k, v in ranked[:top]]


ledger = {"name": "main", "limit": 100.0, "entries": []}
errors = []
for o in orders:
    try:
        ledger_add(ledger, sum(i["price"] for i in o["items"]) - (50 if o["id"] == 7 else 0), tag=o["status"])
    except ValueError as e:
        errors.append(str(e).split(" ")[0])
    finally:
        pass
by_status = {}
for o in orders:
    by_status.setdefault(o["status"], []).append(o["id"])
skus = {i["sku"] for o in orders for i in o["items"]}
words = " ".join(o["note"].strip().lower() for o in orders if o["note"]).split()
counts = {}
for w in words:
    counts[w] = counts.get(w, 0) + 1
lines = [f"{o['id']:>3} {o['customer']:<4} {len(o['items'])} {o['status'].upper()}" for o in orders[:5]]
n, steps = 27, 0
while n != 1 and steps < 200:
    n = n // 2 if n % 2 == 0 else 3 * n + 1
    steps += 1
text = json.dumps({"top": summarize(orders), "status": {k: len(v) for k, v in by_status.items()}}, sort_keys=True)
back = json.loads(text)
pairs = list(zip(range(5), reversed("abcde")))
first, *rest = [x * x for x in range(6) if x % 2 == 0]
RESULT = {
    "total": round(ledger_total(ledger), 2), "errors": errors, "skus": len(skus), "counts": sorted(counts.items()),
    "lines": lines, "collatz": steps, "top": back["top"][0], "pairs": pairs[-1], "first": first, "rest": rest,
    "flags": [any(c.isdigit() for c in "ab1"), all(s.startswith("s") for s in skus), isinstance(back, dict)],
    "misc": [divmod(17, 5), abs(-3.5), max(orders, key=lambda o: len(o["items"]))["id"], "%s-%d" % ("x", 4), "a,b,,c".split(",").count(""), min(3, 1, 2)],
}
`,
  `
import math
import re

log = "\\n".join(f"2024-05-{d:02d} {lvl} user={u} took={t}ms path=/api/v{v}/items?id={d * u}" for d, lvl, u, t, v in
                [(1 + i % 28, ["INFO", "WARN", "ERROR"][i % 3], i % 7, (i * 37) % 500, 1 + i % 2) for i in range(30)])
parsed, bad = [], 0
for line in log.splitlines():
    date, level, *fields = line.split()
    kv = dict(f.split("=", 1) for f in fields)
    try:
        ms = int(kv["took"].rstrip("ms"))
        user = int(kv.get("user", "x"))
    except (KeyError, ValueError) as e:
        bad += 1
        continue
    parsed.append({"date": date, "level": level.lower(), "ms": ms, "user": user, "path": kv["path"].partition("?")[0]})
slow = [p for p in parsed if p["ms"] > 250]
levels = sorted({p["level"] for p in parsed}, reverse=True)
stats = {lvl: (len(v), max(v), min(v)) for lvl in levels for v in [[p["ms"] for p in parsed if p["level"] == lvl]]}


def make_counter(start=0):
    total = start

    def bump(by=1):
        nonlocal total
        total += by
        return total
    return bump


bump = make_counter(10)
for p in parsed[:5]:
    bump(p["user"])
queue = list(range(8))
queue.insert(0, -1)
queue.pop()
queue.remove(3)
queue.extend([9, 9])
idx = queue.index(9)
matrix = [[r * 3 + c for c in range(3)] for r in range(3)]
flat = [v for row in matrix for v in row][::2]
transposed = [list(col) for col in zip(*matrix)]
dates = re.findall(r"2024-05-(\\d+)", log)[:3]
named = "{0}:{name}".format("x", name="y").center(9, "*")
try:
    {}["missing"]
except KeyError as e:
    missing = repr(e)
try:
    raise RuntimeError("boom")
except Exception as e:
    caught = type(e).__name__ + ":" + str(e)
finally:
    done = True
n = 0
while True:
    n += 1
    if n * n > 50:
        break
RESULT = [len(parsed), bad, len(slow), levels, stats["error"], bump(0), queue, idx, flat, transposed[1], dates, named, missing, caught, done, n,
          math.floor(math.sqrt(sum(p["ms"] for p in parsed))), round(math.pi, 3), sorted(parsed, key=lambda p: (p["ms"], p["user"]))[0]["path"],
          " ".join(w.capitalize() for w in "hello wide world".split()), "abc"[::-1], [x for x in enumerate("ab", start=1)], 7 / 2, 7 // 2, -7 % 3, 2 ** 10]
`,
];
