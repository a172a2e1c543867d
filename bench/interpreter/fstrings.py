lines = []
for i in range(20000):
    x = i * 1.5
    lines.append(f"{i:>6}|{x:10.2f}|{i:x}|{'row':<5}{i % 7:03d}|{x!r}")
RESULT = [len(lines), lines[12345]]
