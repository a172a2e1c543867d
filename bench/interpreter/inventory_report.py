# Unseen workload (issue 21): records from a tool, grouped, ranked and printed with helpers.
def price_of(item, discount=0.0):
    base = item["unit_price"] * item["qty"]
    return round(base * (1 - discount), 3)


def label(item, width=12):
    name = item["sku"].replace("-", " ").title()
    return f"{name:<{width}}"


items = []
for n in range(3000):
    items.append({
        "sku": f"sku-{n % 97}-{n % 13}",
        "warehouse": ("north", "south", "east", "west", "central")[n % 5],
        "qty": (n * 31) % 17 + 1,
        "unit_price": ((n * 53) % 400) / 4 + 0.5,
        "tags": ["fragile"] if n % 11 == 0 else [],
    })
by_house = {}
for it in items:
    by_house.setdefault(it["warehouse"], []).append(it)
report = []
totals = {}
for house in sorted(by_house):
    group = by_house[house]
    total = sum(price_of(it, discount=0.1 if it["tags"] else 0.0) for it in group)
    totals[house] = round(total, 3)
    top = sorted(group, key=lambda it: (-price_of(it), it["sku"]))[:3]
    heaviest = max(group, key=lambda it: it["qty"])
    report.append(f"{house:>8}: {len(group):4d} items, {total:12.2f}, heaviest {label(heaviest)}")
    for rank, it in enumerate(top, 1):
        report.append(f"    {rank}. {label(it)} {price_of(it):9.2f}")
fragile = [it["sku"] for it in items if "fragile" in it["tags"] and it["qty"] > 8]
RESULT = [totals, len(report), report[1], len(fragile), fragile[:3]]
