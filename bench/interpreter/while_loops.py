i = 0
a = 0
b = 1
acc = 0
while i < 60000:
    a, b = b, (a + b) % 1000003
    if a % 3 == 0:
        acc += 1
    elif a % 5 == 0:
        acc -= 1
    else:
        acc += 2
    i += 1
RESULT = [a, b, acc]
