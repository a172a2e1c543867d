def collatz(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def weight(a, b):
    return (a * 31 + b) % 97


best = 0
total = 0
for i in range(1, 3000):
    c = collatz(i)
    total += weight(c, i)
    if c > best:
        best = c
RESULT = [best, total]
