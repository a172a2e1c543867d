words = ["Alpha", "beta", "GAMMA", "delta", "Epsilon", "zeta"]
lines = []
for i in range(6000):
    w = words[i % 6]
    lines.append(f"  {w}:{i}, {w.lower()}-{i % 13} ;")
kept = 0
seen = {}
for line in lines:
    s = line.strip().rstrip(";").strip()
    name, _, rest = s.partition(":")
    key = name.lower()
    if key.startswith("e") or rest.endswith("-3"):
        kept += 1
    parts = rest.replace(",", " ").split()
    seen[key] = seen.get(key, 0) + len(parts[0]) + parts[1].count("-")
RESULT = [kept, sorted(seen.items()), "-".join(w.upper() for w in words).title()]
