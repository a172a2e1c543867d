n = 120
grid = [[(x * y) % 11 for x in range(n)] for y in range(n)]
flat = [v for row in grid for v in row if v]
squares = {i: i * i for i in range(5000) if i % 3}
odd = {v for v in flat if v % 2}
pairs = sorted(((k % 10, v % 7) for k, v in squares.items()), reverse=True)[:5]
totals = [sum(row) for row in grid]
RESULT = [len(flat), len(squares), sorted(odd), pairs, max(totals), any(t > 700 for t in totals)]
