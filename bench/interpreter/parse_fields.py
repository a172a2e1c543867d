# Unseen workload (issue 21): parsing loose text fields with try/except, isinstance and fallbacks.
def to_number(text):
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return None


rows = []
for i in range(6000):
    kind = i % 6
    if kind == 0:
        rows.append(f"id={i};amount={i * 3};unit=eur")
    elif kind == 1:
        rows.append(f"id={i};amount={i / 8};unit=usd")
    elif kind == 2:
        rows.append(f"id={i};amount=n/a;unit=eur")
    elif kind == 3:
        rows.append(f"id={i};unit=gbp")
    else:
        rows.append(f"id={i};amount= {i % 97} ;unit=eur;note=late")
totals = {}
bad = 0
missing = 0
for row in rows:
    fields = dict(part.split("=", 1) for part in row.split(";"))
    try:
        amount = to_number(fields["amount"].strip())
    except KeyError:
        missing += 1
        continue
    if amount is None:
        bad += 1
        continue
    unit = fields.get("unit", "?")
    totals[unit] = totals.get(unit, 0) + (amount if isinstance(amount, int) else round(amount, 1))
RESULT = [bad, missing, sorted((k, round(v, 1)) for k, v in totals.items())]
