records = [
    {
        "id": i,
        "name": f"user{i}",
        "email": f"user{i}@example{i % 7}.com",
        "active": i % 3 != 0,
        "score": (i * 37) % 101,
        "tags": ["admin", "ops"] if i % 2 else ["dev"],
        "profile": {"country": ["fr", "de", "us", "jp"][i % 4], "age": 20 + i % 40},
    }
    for i in range(1000)
]
out = []
for r in records:
    if r["active"] and r["score"] > 20:
        out.append({
            "id": r["id"],
            "label": r["name"].upper(),
            "domain": r["email"].split("@")[1],
            "score": r["score"] / 100,
            "tags": ",".join(r["tags"]),
            "country": r["profile"]["country"],
        })
by_country = {}
for o in out:
    by_country.setdefault(o["country"], []).append(o["id"])
RESULT = [len(out), sorted((k, len(v)) for k, v in by_country.items()), round(sum(o["score"] for o in out), 2)]
