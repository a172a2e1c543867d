parts = []
for i in range(40000):
    parts.append(str(i))
joined = ",".join(parts)
text = ""
for i in range(40000):
    text += chr(97 + i % 26)
RESULT = [len(joined), len(text), text[-5:]]
