# Unseen workload (issue 21): nested lists indexed in loops, zip(*rows), float and int arithmetic.
def matmul(a, b):
    cols = list(zip(*b))
    return [[sum(x * y for x, y in zip(row, col)) for col in cols] for row in a]


def identity(n):
    return [[1 if i == j else 0 for j in range(n)] for i in range(n)]


size = 36
a = [[(i * 7 + j * 3) % 10 for j in range(size)] for i in range(size)]
b = [[((i + 1) * (j + 2)) % 9 - 4 for j in range(size)] for i in range(size)]
c = matmul(a, b)
same = matmul(c, identity(size)) == c
trace = 0
for i in range(size):
    trace += c[i][i]
col_max = [max(c[i][j] for i in range(size)) for j in range(size)]
scaled = [[v / (1 + abs(v)) for v in row] for row in c]
norm = 0.0
for row in scaled:
    for v in row:
        norm += v * v
RESULT = [trace, same, col_max[:5], round(norm, 6), c[5][7]]
