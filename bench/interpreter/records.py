people = []
for i in range(3000):
    people.append({"id": i, "team": "t" + str(i % 17), "age": 20 + (i * 7) % 45, "score": (i * 13) % 101})
teams = {}
for p in people:
    t = teams.setdefault(p["team"], {"n": 0, "age": 0, "best": None})
    t["n"] += 1
    t["age"] += p["age"]
    if t["best"] is None or p["score"] > t["best"]["score"]:
        t["best"] = p
summary = []
for name, t in sorted(teams.items()):
    summary.append({"team": name, "mean_age": round(t["age"] / t["n"], 2), "best": t["best"]["id"]})
old = [p["id"] for p in people if p["age"] > 60 and p["score"] > 50]
RESULT = [summary[:3], len(old), sum(s["best"] for s in summary)]
