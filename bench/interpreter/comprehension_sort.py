data = [(i * 7919) % 10007 for i in range(15000)]
pairs = [(x % 100, -x, str(x)) for x in data if x % 3]
pairs.sort(key=lambda p: (p[0], p[1]))
ranked = sorted(data, key=lambda x: -x)
RESULT = [pairs[0], pairs[-1], ranked[:3]]
