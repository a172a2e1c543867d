s = 0
for i in range(300000):
    s += i * 2 % 7
RESULT = s
