# Unseen workload (issue 21): text cleaned and counted with str methods, sets and a ranking.
para = (
    "The quick brown Fox jumps over the lazy dog; the dog, being lazy, sleeps. "
    "A fox is QUICK, and quick foxes (like this one) jump often! Does the dog mind? No. "
)
text = para * 300
counts = {}
longest = ""
capitals = set()
for raw in text.split():
    word = raw.strip(".,;:!?()").lower()
    if not word.isalpha():
        continue
    if raw[0].isupper():
        capitals.add(word)
    counts[word] = counts.get(word, 0) + 1
    if len(word) > len(longest) or (len(word) == len(longest) and word < longest):
        longest = word
ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
initials = {}
for word, n in ranked:
    initials[word[0]] = initials.get(word[0], 0) + n
sentences = [s.strip() for s in text.replace("!", ".").replace("?", ".").split(".") if s.strip()]
title_case = sum(1 for s in sentences if s.split()[0].istitle())
RESULT = [ranked[:4], longest, sorted(capitals), len(sentences), title_case, sorted(initials.items())[:4]]
