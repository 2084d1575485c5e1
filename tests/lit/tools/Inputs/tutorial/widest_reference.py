"""The tutorial's widest-path program checked independently: writes a seeded
random weighted graph as MatrixMarket, or compares a result file with widths
computed here by a modified Dijkstra (largest bottleneck first).

    widest_reference.py graph OUT.mtx
    widest_reference.py check GRAPH.mtx RESULT SOURCE
"""
import heapq
import random
import sys


def write_graph(path):
    rng = random.Random(7)
    n = 300
    edges = {(rng.randrange(n), rng.randrange(n)): rng.randint(1, 1000) for _ in range(1500)}
    with open(path, "w") as out:
        out.write("%%MatrixMarket matrix coordinate integer general\n")
        out.write("%d %d %d\n" % (n, n, len(edges)))
        for (u, v), w in sorted(edges.items()):
            out.write("%d %d %d\n" % (u + 1, v + 1, w))


def read_graph(path):
    with open(path) as handle:
        lines = [l for l in handle if not l.startswith("%")]
    n = int(lines[0].split()[0])
    adjacency = [[] for _ in range(n)]
    for line in lines[1:]:
        u, v, w = (int(x) for x in line.split())
        adjacency[u - 1].append((v - 1, w))
    return adjacency


def widest(adjacency, source):
    width = [0] * len(adjacency)
    width[source] = float("inf")
    heap = [(-width[source], source)]
    while heap:
        negative, u = heapq.heappop(heap)
        if -negative < width[u]:
            continue
        for v, w in adjacency[u]:
            candidate = min(width[u], w)
            if candidate > width[v]:
                width[v] = candidate
                heapq.heappush(heap, (-candidate, v))
    return ["inf" if x == float("inf") else str(x) for x in width]


def check(graph, result, source):
    expected = widest(read_graph(graph), source)
    with open(result) as handle:
        got = [l.strip() for l in handle if not l.startswith("#")]
    wrong = [v for v in range(len(expected)) if v >= len(got) or got[v] != expected[v]]
    print("widest: %d of %d widths differ" % (len(wrong), len(expected)))
    return 1 if wrong else 0


if __name__ == "__main__":
    if sys.argv[1] == "graph":
        write_graph(sys.argv[2])
    else:
        sys.exit(check(sys.argv[2], sys.argv[3], int(sys.argv[4])))
