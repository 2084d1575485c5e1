"""The irgl package: its graphs against the arrays they were built from,
its algorithms against networkx, and its refusals."""
import os

import numpy as np
import pytest

import irgl

nx = pytest.importorskip("networkx")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KARATE = os.path.join(REPO, "tests", "data", "karate.mtx")


def random_graph(n=300, p=0.02, seed=7, directed=False):
    return nx.gnp_random_graph(n, p, seed=seed, directed=directed)


def weighted(graph, seed=3):
    rng = np.random.default_rng(seed)
    for u, v in graph.edges():
        graph[u][v]["weight"] = int(rng.integers(1, 50))
    return graph


# --- graphs -----------------------------------------------------------------

def test_load_reads_the_file_and_exposes_its_csr():
    g = irgl.load(KARATE)
    assert (g.num_vertices, g.num_edges) == (34, 156)
    assert g.indptr.dtype == np.uint64 and g.indices.dtype == np.uint32
    assert g.indptr[0] == 0 and g.indptr[-1] == 156 and g.weights is None
    scipy_io = pytest.importorskip("scipy.io")
    expected = scipy_io.mmread(KARATE).tocsr()
    expected = (expected + expected.T).tocsr()  # the file holds one triangle
    expected.sort_indices()
    assert np.array_equal(g.indptr, expected.indptr)
    assert np.array_equal(g.indices, expected.indices)


def test_views_are_read_only_and_outlive_the_name():
    indices = irgl.load(KARATE).indices
    assert not indices.flags.writeable
    assert indices.sum() > 0  # the graph stays alive with its view


def test_from_edges_keeps_edges_and_weights():
    g = irgl.from_edges([0, 0, 2], [1, 2, 1], [5, 7, 9])
    assert (g.num_vertices, g.num_edges, g.weight_type) == (3, 3, "int32")
    assert list(g.indptr) == [0, 2, 2, 3]
    assert list(g.indices) == [1, 2, 1] and list(g.weights) == [5, 7, 9]
    f = irgl.from_edges([0], [1], [0.5])
    assert f.weight_type == "float32" and f.weights[0] == np.float32(0.5)


def test_from_edges_cleanup_and_weight_rules():
    g = irgl.from_edges([0, 0, 1, 1], [1, 1, 1, 2], simple=True)
    assert g.num_edges == 4  # 0-1 and 1-2 both ways; the loop and the duplicate gone
    h = irgl.from_edges([0, 1], [1, 2], weight_rule="unit")
    assert list(h.weights) == [1, 1]


def test_from_csr_and_scipy_agree():
    scipy_sparse = pytest.importorskip("scipy.sparse")
    matrix = scipy_sparse.random(50, 50, density=0.1, format="csr", random_state=1)
    matrix.data = np.arange(1, matrix.nnz + 1, dtype=np.float64)
    g = irgl.from_scipy(matrix)
    assert g.num_edges == matrix.nnz and g.weight_type == "float32"
    assert np.array_equal(g.indptr, matrix.indptr) and np.array_equal(g.indices, matrix.indices)
    assert np.array_equal(g.weights, matrix.data.astype(np.float32))
    c = irgl.from_csr(matrix.indptr, matrix.indices)
    assert np.array_equal(c.indices, g.indices) and c.weights is None
    # A graph's own (uint64) offsets make the same graph again.
    again = irgl.from_csr(g.indptr, g.indices, g.weights)
    assert np.array_equal(again.indptr, g.indptr) and np.array_equal(again.weights, g.weights)


def test_from_networkx_numbers_nodes_in_order():
    G = nx.Graph([("a", "b"), ("b", "c"), ("c", "c")])
    g = irgl.from_networkx(G)
    assert g.nodes == ["a", "b", "c"]
    assert g.num_edges == 5  # a-b, b-c both ways, the loop once
    D = nx.DiGraph([(1, 0)])  # node 1 comes first: vertex 0
    assert list(irgl.from_networkx(D).indices) == [1]


@pytest.mark.parametrize("call, message", [
    (lambda: irgl.load("/no/such/file.mtx"), "cannot open"),
    (lambda: irgl.load(KARATE, weights="hash:x"), "^weights: error: maximum weight 'x'"),
    (lambda: irgl.from_edges([0, 1], [1]), "2 sources but 1 targets"),
    (lambda: irgl.from_edges([0, -1], [1, 0]), "vertex ids"),
    (lambda: irgl.from_edges([0, 5], [1, 0], num_vertices=3), "not below num_vertices = 3"),
    (lambda: irgl.from_edges([0], [1], [1, 2]), "2 values for 1 edges"),
    (lambda: irgl.from_edges([0], [1], [2 ** 40]), "int32"),
    (lambda: irgl.from_csr([0, 2, 1], [0, 1]), "never decrease"),
    (lambda: irgl.from_csr(np.array([0, 2, 1], dtype=np.uint64), [0, 1]), "never decrease"),
    (lambda: irgl.from_csr([0.0, 1.0], [0]), "offsets must be integers"),
])
def test_bad_input_raises_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# Refused on either device: the GPU path checks the host graph with the CPU
# build's check_graph before it uploads anything.
@pytest.mark.parametrize("call, message", [
    (lambda d: irgl.bfs(irgl.load(KARATE), 34, device=d), "source 34 is not a vertex"),
    (lambda d: irgl.bfs(irgl.load(KARATE), -1, device=d), "source -1 is not a vertex"),
    (lambda d: irgl.sssp(irgl.load(KARATE), 0, device=d), "int32 edge weights"),
    (lambda d: irgl.sssp(irgl.from_edges([0], [1], [-3]), 0, device=d), "non-negative edge weights"),
    (lambda d: irgl.sssp(irgl.from_edges([0], [1], [-0.5]), 0, device=d), "non-negative edge weights"),
    (lambda d: irgl.sssp(irgl.from_edges([0, 1], [1, 2], [0.5, np.nan]), 0, device=d),
     "non-negative edge weights.* weight nan"),
    (lambda d: irgl.betweenness_centrality(irgl.from_edges([], [], num_vertices=0), [5], device=d),
     "vertex 5 is not a vertex of the 0-vertex graph"),
    (lambda d: irgl.connected_components(irgl.from_edges([0], [1]), device=d), "symmetric"),
    (lambda d: irgl.kcore(irgl.from_edges([0, 0, 1], [1, 1, 0]), device=d),
     "without repeated edges .* drop_duplicates=True"),
    (lambda d: irgl.triangles(irgl.from_edges([0, 1], [0, 0]), device=d), "symmetric .* symmetrize=True"),
    (lambda d: irgl.triangles(irgl.from_edges([0, 0, 1], [0, 1, 0]), device=d), "self-loop"),
    (lambda d: irgl.maximal_independent_set(irgl.from_edges([0], [1]), device=d), "symmetric"),
    (lambda d: irgl.pagerank(irgl.load(KARATE), damping=0.9, device=d), "0.85"),
    (lambda d: irgl.triangles_per_vertex(irgl.from_edges([0], [1]), device=d), "symmetric"),
    (lambda d: irgl.betweenness_centrality(irgl.from_edges([0, 0], [1, 1]), device=d),
     "without repeated edges .* drop_duplicates=True"),
    (lambda d: irgl.betweenness_centrality(irgl.load(KARATE), [3, 5, 3], device=d),
     "vertex 3 appears more than once"),
    (lambda d: irgl.betweenness_centrality(irgl.load(KARATE), [40], device=d),
     "vertex 40 is not a vertex of the 34-vertex graph"),
    (lambda d: irgl.betweenness_centrality(irgl.load(KARATE), [1, 5], device=d, result="gpu"),
     "one run of consecutive sources, not 2 runs"),
    (lambda d: irgl.jaccard(irgl.load(KARATE), 34, device=d), "source 34 is not a vertex"),
    (lambda d: irgl.jaccard(irgl.from_edges([0], [1]), 0, device=d), "symmetric"),
    (lambda d: irgl.louvain(irgl.from_edges([0, 1], [1, 0], [1.0, 1.0]), resolution=-1, device=d),
     "resolution -1 is not a number >= 0"),
    (lambda d: irgl.louvain(irgl.from_edges([0], [1], [1.0]), device=d), "symmetric"),
    (lambda d: irgl.louvain(irgl.from_edges([0, 1], [1, 0]), device=d), "weights"),
    (lambda d: irgl.louvain(irgl.from_edges([0, 1], [1, 0], [-1.0, -1.0]), device=d),
     "non-negative edge weights"),
])
def test_algorithms_refuse_bad_input(call, message, device):
    with pytest.raises(ValueError, match=message):
        call(device)


def test_unknown_option_is_a_type_error():
    with pytest.raises(TypeError, match="symetrize"):
        irgl.from_edges([0], [1], symetrize=True)


# --- algorithms against networkx ---------------------------------------------

@pytest.mark.parametrize("directed", [False, True])
def test_bfs(directed, device):
    G = random_graph(directed=directed)
    levels = irgl.bfs(irgl.from_networkx(G), 3, device=device)
    expected = nx.single_source_shortest_path_length(G, 3)
    for v in G:
        assert levels[v] == expected.get(v, irgl.UNREACHED)


def test_sssp(device):
    G = weighted(random_graph(directed=True))
    dist = irgl.sssp(irgl.from_networkx(G, weight="weight"), 0, device=device)
    expected = nx.single_source_dijkstra_path_length(G, 0)
    for v in G:
        assert dist[v] == expected.get(v, irgl.UNREACHED)


def test_sssp_over_float_weights(device):
    G = random_graph(directed=True)
    rng = np.random.default_rng(5)
    for u, v in G.edges():
        G[u][v]["weight"] = float(np.float32(rng.uniform(0.01, 3)))
    dist = irgl.sssp(irgl.from_networkx(G, weight="weight"), 0, device=device)
    expected = nx.single_source_dijkstra_path_length(G, 0)
    assert dist.dtype == np.float64
    assert dist.tolist() == [expected.get(v, np.inf) for v in G]


def test_connected_components(device):
    G = random_graph(p=0.004)
    labels = irgl.connected_components(irgl.from_networkx(G), device=device)
    for component in nx.connected_components(G):
        assert {int(labels[v]) for v in component} == {min(component)}


def test_pagerank(device):
    G = random_graph(directed=True, p=0.03)
    ranks = irgl.pagerank(irgl.from_networkx(G), tolerance=1e-7, device=device)
    expected = nx.pagerank(G, alpha=0.85, tol=1e-10, max_iter=1000)
    assert ranks.dtype == np.float32
    assert np.abs(ranks - np.array([expected[v] for v in G])).sum() < 1e-4


@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_kcore(k, device):
    G = random_graph(p=0.03)
    inside = irgl.kcore(irgl.from_networkx(G, simple=True), k, device=device)
    assert set(np.flatnonzero(inside)) == set(nx.k_core(G, k).nodes())


def test_triangles(device):
    G = random_graph(p=0.05)
    count = irgl.triangles(irgl.from_networkx(G, simple=True), device=device)
    assert count == sum(nx.triangles(G).values()) // 3


def test_pagerank_builds_the_in_edges_once(device):
    g = irgl.load(KARATE)
    first = irgl.pagerank(g, device=device)
    assert np.array_equal(first, irgl.pagerank(g, device=device))
    assert abs(float(first.sum()) - 1) < 1e-5


def test_strongly_connected_components(device):
    G = random_graph(directed=True, p=0.008)
    labels = irgl.strongly_connected_components(irgl.from_networkx(G), device=device)
    for component in nx.strongly_connected_components(G):
        assert {int(labels[v]) for v in component} == {max(component)}


def test_maximal_independent_set(device):
    G = random_graph(p=0.03)
    inside = irgl.maximal_independent_set(irgl.from_networkx(G, simple=True), device=device)
    members = set(np.flatnonzero(inside))
    assert not any(u in members and v in members for u, v in G.edges())
    assert all(v in members or any(u in members for u in G[v]) for v in G)


def test_coloring(device):
    G = random_graph(p=0.05)
    colors = irgl.coloring(irgl.from_networkx(G, simple=True), device=device)
    assert all(colors[u] != colors[v] for u, v in G.edges())
    assert colors.max() <= max(d for _, d in G.degree())


def test_coloring_largest_first_is_networkx_greedy(device):
    """Ranked by degree, Jones-Plassmann colours as the sequential greedy
    does: networkx's greedy_color, also above 64 colours (a dense graph)."""
    for G in (random_graph(p=0.05), nx.gnp_random_graph(150, 0.93, seed=4)):
        colors = irgl.coloring(irgl.from_networkx(G, simple=True), largest_first=True,
                               device=device)
        expected = nx.greedy_color(G, strategy="largest_first")
        assert colors.tolist() == [expected[v] for v in G]
    assert colors.max() >= 64


def test_triangles_per_vertex(device):
    G = random_graph(p=0.05)
    counts = irgl.triangles_per_vertex(irgl.from_networkx(G, simple=True), device=device)
    assert counts.dtype == np.uint64
    assert counts.tolist() == [nx.triangles(G)[v] for v in G]


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("endpoints", [False, True])
def test_betweenness_centrality(directed, endpoints, device):
    G = random_graph(n=120, p=0.04, directed=directed)
    sums = irgl.betweenness_centrality(irgl.from_networkx(G), endpoints=endpoints, device=device)
    expected = nx.betweenness_centrality(G, normalized=False, endpoints=endpoints)
    halved = 1 if directed else 2  # networkx counts an undirected pair once
    assert sums.dtype == np.float64
    assert np.allclose(sums, [expected[v] * halved for v in G], rtol=1e-12, atol=1e-9)


def test_betweenness_centrality_from_some_sources(device):
    G = random_graph(n=120, p=0.04, directed=True)
    g = irgl.from_networkx(G)
    sources = [7, 3, 4, 5, 119, 0]  # runs 0, 3-5, 7 and 119
    some = irgl.betweenness_centrality(g, sources, device=device)
    one_at_a_time = sum(irgl.betweenness_centrality(g, [s], device=device) for s in sources)
    assert np.allclose(some, one_at_a_time, rtol=1e-12)
    every = irgl.betweenness_centrality(g, range(120), device=device)
    assert np.allclose(every, irgl.betweenness_centrality(g, device=device), rtol=1e-12)
    assert irgl.betweenness_centrality(g, [], device=device).tolist() == [0.0] * 120
    empty = irgl.from_edges([], [], num_vertices=0)
    assert irgl.betweenness_centrality(empty, device=device).size == 0


def test_jaccard(device):
    G = random_graph(p=0.05)
    similarity = irgl.jaccard(irgl.from_networkx(G, simple=True), 5, device=device)
    pairs = [(5, v) for v in G]
    expected = {v: p for _, v, p in nx.jaccard_coefficient(G, pairs)}
    assert similarity.dtype == np.float64
    assert similarity.tolist() == [expected[v] for v in G]


def _louvain_graph(G, weight=None):
    """G with float weights (its `weight` attribute, else 1), which
    louvain.irgl reads."""
    H = nx.Graph(G)
    for u, v, data in H.edges(data=True):
        data["real"] = float(data[weight] if weight else 1)
    return irgl.from_networkx(H, weight="real")


def test_louvain_finds_planted_communities(device):
    """Ten 8-cliques in a ring, one edge between neighbours: each clique is a
    community, and the modularity is networkx's for that partition."""
    G = nx.ring_of_cliques(10, 8)
    labels, modularity = irgl.louvain(_louvain_graph(G), device=device)
    communities = {}
    for v, label in enumerate(labels.tolist()):
        communities.setdefault(label, set()).add(v)
    assert labels.dtype == np.uint32
    assert sorted(map(min, communities.values())) == list(range(0, 80, 8))
    assert all(c == set(range(min(c), min(c) + 8)) for c in communities.values())
    assert modularity == pytest.approx(nx.community.modularity(G, communities.values()), abs=1e-12)


def test_louvain_matches_networkx_quality(device):
    """On a weighted LFR graph, the partition's modularity (recomputed by
    networkx) is the one returned and within 2% of networkx's Louvain;
    resolution and max_levels act as in networkx."""
    G = nx.LFR_benchmark_graph(250, 3, 1.5, 0.009, average_degree=5, min_community=20, seed=10)
    assert nx.number_of_selfloops(G) > 0  # each counts twice in its node's degree
    for u, v in G.edges():
        G[u][v]["weight"] = 1 + (u * 7 + v * 3) % 4
    graph = _louvain_graph(G, "weight")
    labels, modularity = irgl.louvain(graph, device=device)
    parts = {}
    for v, label in enumerate(labels.tolist()):
        parts.setdefault(label, set()).add(v)
    got = nx.community.modularity(G, parts.values())
    assert modularity == pytest.approx(got, abs=1e-9)
    expected = nx.community.modularity(G, nx.community.louvain_communities(G, seed=1))
    assert got >= 0.98 * expected
    fine, _ = irgl.louvain(graph, resolution=2, device=device)
    coarse, _ = irgl.louvain(graph, resolution=0.5, device=device)
    assert len(set(coarse.tolist())) <= len(parts) <= len(set(fine.tolist()))
    one_level, one_modularity = irgl.louvain(graph, max_levels=1, device=device)
    assert len(set(one_level.tolist())) >= len(parts) and one_modularity <= modularity


def test_louvain_of_a_graph_without_edges(device):
    labels, modularity = irgl.louvain(irgl.from_edges([], [], np.zeros(0, np.float32),
                                                      num_vertices=4), device=device)
    assert labels.tolist() == [0, 1, 2, 3] and modularity == 0


def test_betweenness_centrality_of_a_deep_graph(device):
    """A path of 100 vertices: searches deeper than bc.irgl's 32 walked
    levels send their dependencies up the DAG instead."""
    G = nx.path_graph(100)
    G.add_edges_from([(10, 60), (20, 95)])
    sums = irgl.betweenness_centrality(irgl.from_networkx(G), range(0, 100, 7),
                                       endpoints=True, device=device)
    expected = {v: 0.0 for v in G}
    for s in range(0, 100, 7):  # networkx's sums from the same sources, both directions
        one = nx.betweenness_centrality_subset(G, [s], list(G), normalized=False)
        for v in G:
            expected[v] += 2 * one[v]
    reach = len(G) - 1  # endpoints: every other vertex, once per source, and at the source
    for s in range(0, 100, 7):
        for v in G:
            expected[v] += reach if v == s else 1
    assert np.allclose(sums, [expected[v] for v in G], rtol=1e-12)
