# Unseen workload (issue 21): breadth-first search over a dict of lists, with sets and a queue.
def neighbours(n, size):
    out = []
    for step in (1, 7, 31):
        m = (n * 3 + step) % size
        if m != n:
            out.append(m)
    return out


def bfs(graph, start):
    dist = {start: 0}
    queue = [start]
    head = 0
    while head < len(queue):
        node = queue[head]
        head += 1
        for nxt in graph[node]:
            if nxt not in dist:
                dist[nxt] = dist[node] + 1
                queue.append(nxt)
    return dist


size = 2500
graph = {n: neighbours(n, size) for n in range(size)}
reach = []
far = 0
for start in range(0, size, 250):
    d = bfs(graph, start)
    reach.append(len(d))
    far = max(far, max(d.values()))
indeg = {}
for n, outs in graph.items():
    for m in outs:
        indeg[m] = indeg.get(m, 0) + 1
RESULT = [reach[:4], far, max(indeg.values()), sum(1 for n in graph if n not in indeg)]
