rows = []
for i in range(8000):
    if i % 5:
        rows.append(f"2024-01-{i % 28 + 1:02d} INFO  user={i % 50} action=login  ok ")
    else:
        rows.append(f"2024-01-{i % 28 + 1:02d} ERROR user={i % 50} action=upload failed: timeout")
log = "\n".join(rows)
errors = 0
users = {}
for line in log.splitlines():
    parts = line.strip().split()
    if parts[1] == "ERROR":
        errors += 1
    user = parts[2].partition("=")[2]
    action = parts[3].replace("action=", "")
    if line.rstrip().endswith("ok") and action.startswith("log"):
        users[user] = users.get(user, 0) + 1
RESULT = [errors, len(users), users["7"], log.count("timeout"), log[:20].upper().lower()]
