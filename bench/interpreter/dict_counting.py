words = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu " * 15000).split()
counts = {}
for w in words:
    counts[w] = counts.get(w, 0) + 1
RESULT = sorted(counts.items())[:3]
