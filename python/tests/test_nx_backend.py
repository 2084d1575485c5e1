"""irgl as a networkx backend: dispatch, declined calls, the conversion
cache, errors in networkx's terms."""
import pytest

nx = pytest.importorskip("networkx")
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def test_networkx_finds_the_backend():
    assert "irgl" in nx.utils.backends.backends
    info = nx.utils.backends.backend_info["irgl"]
    assert "pagerank" in info["functions"]


def test_dispatched_answers_equal_networkx():
    G = nx.gnp_random_graph(200, 0.03, seed=11)
    for u, v in G.edges():
        G[u][v]["weight"] = (u * 7 + v) % 13 + 1
    assert nx.single_source_shortest_path_length(G, 0, backend="irgl") == \
        nx.single_source_shortest_path_length(G, 0)
    assert nx.single_source_shortest_path_length(G, 0, cutoff=2, backend="irgl") == \
        nx.single_source_shortest_path_length(G, 0, cutoff=2)
    assert nx.single_source_dijkstra_path_length(G, 5, backend="irgl") == \
        nx.single_source_dijkstra_path_length(G, 5)
    assert sorted(map(sorted, nx.connected_components(G, backend="irgl"))) == \
        sorted(map(sorted, nx.connected_components(G)))
    assert nx.core_number(G, backend="irgl") == nx.core_number(G)
    members = set(nx.maximal_independent_set(G, backend="irgl"))
    assert not any(u in members and v in members for u, v in G.edges())
    assert all(v in members or members & set(G[v]) for v in G)
    D = nx.gnp_random_graph(200, 0.008, seed=4, directed=True)
    assert sorted(map(sorted, nx.strongly_connected_components(D, backend="irgl"))) == \
        sorted(map(sorted, nx.strongly_connected_components(D)))
    assert nx.number_strongly_connected_components(D, backend="irgl") == \
        nx.number_strongly_connected_components(D)
    ranks, expected = nx.pagerank(G, weight=None, backend="irgl"), nx.pagerank(G, weight=None)
    assert max(abs(ranks[v] - expected[v]) for v in G) < 1e-6


def test_missing_source_is_networkx_error():
    with pytest.raises(nx.NodeNotFound):
        nx.single_source_shortest_path_length(nx.path_graph(3), 9, backend="irgl")


def test_declined_calls_raise_without_fallback_and_fall_back_with_it():
    G = nx.path_graph(4)
    nx.set_edge_attributes(G, 0.1, "weight")  # no float32 holds 0.1
    with pytest.raises(NotImplementedError, match="irgl") as declined:
        nx.single_source_dijkstra_path_length(G, 0, backend="irgl")
    assert "int32 or float32" in str(declined.value.__cause__ or declined.value.__context__)
    with pytest.raises(NotImplementedError, match="irgl"):
        nx.pagerank(G, alpha=0.9, backend="irgl")
    with nx.config(backend_priority=["irgl"], fallback_to_nx=True):
        assert nx.single_source_dijkstra_path_length(G, 0) == {0: 0, 1: 0.1, 2: 0.2, 3: 0.1 + 0.1 + 0.1}


def test_pagerank_that_did_not_converge_raises_as_networkx_does():
    G = nx.gnp_random_graph(100, 0.05, seed=2, directed=True)
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.pagerank(G, max_iter=2, weight=None, backend="irgl")


def test_conversion_is_cached_on_the_graph():
    G = nx.cycle_graph(10)
    nx.number_connected_components(G, backend="irgl")
    cached = G.__networkx_cache__["backends"]["irgl"]
    assert cached
    nx.core_number(G, backend="irgl")
    assert G.__networkx_cache__["backends"]["irgl"] is cached


def shuffled_graph(n, p, seed, directed=False):
    """A random graph whose adjacency order is not sorted (networkx's
    traversals follow insertion order; irgl's lists are sorted)."""
    import random
    G = nx.gnp_random_graph(n, p, seed=seed, directed=directed)
    edges = list(G.edges())
    random.Random(seed).shuffle(edges)
    H = nx.DiGraph() if directed else nx.Graph()
    H.add_nodes_from(random.Random(seed + 1).sample(list(G), n))
    H.add_edges_from(edges)
    return H


@pytest.mark.parametrize("directed", [False, True])
def test_bfs_edges_and_layers_follow_networkx_order(directed):
    G = shuffled_graph(300, 0.015, 5, directed)
    for source in (0, 17):
        assert list(nx.bfs_edges(G, source, backend="irgl")) == list(nx.bfs_edges(G, source))
        assert list(nx.bfs_edges(G, source, depth_limit=2, backend="irgl")) == \
            list(nx.bfs_edges(G, source, depth_limit=2))
    assert list(nx.bfs_layers(G, 3, backend="irgl")) == list(nx.bfs_layers(G, 3))
    assert list(nx.bfs_layers(G, [3, 40, 41], backend="irgl")) == \
        list(nx.bfs_layers(G, [3, 40, 41]))
    with pytest.raises(nx.NetworkXError):
        list(nx.bfs_layers(G, [3, 1000], backend="irgl"))


def test_triangles_betweenness_and_jaccard_equal_networkx():
    G = shuffled_graph(150, 0.06, 9)
    assert nx.triangles(G, backend="irgl") == nx.triangles(G)
    assert nx.triangles(G, 4, backend="irgl") == nx.triangles(G, 4)
    assert nx.triangles(G, [4, 9, 77], backend="irgl") == nx.triangles(G, [4, 9, 77])
    for options in ({}, {"normalized": False}, {"endpoints": True},
                    {"k": 20, "seed": 3}, {"k": 20, "seed": 3, "endpoints": True}):
        got = nx.betweenness_centrality(G, backend="irgl", **options)
        expected = nx.betweenness_centrality(G, **options)
        assert got.keys() == expected.keys()
        assert max(abs(got[v] - expected[v]) for v in G) < 1e-12
    D = shuffled_graph(150, 0.03, 2, directed=True)
    got, expected = nx.betweenness_centrality(D, backend="irgl"), nx.betweenness_centrality(D)
    assert max(abs(got[v] - expected[v]) for v in D) < 1e-12
    assert list(nx.jaccard_coefficient(G, backend="irgl")) == list(nx.jaccard_coefficient(G))
    pairs = [(0, 5), (7, 7), (5, 0), (0, 99)]
    assert list(nx.jaccard_coefficient(G, pairs, backend="irgl")) == \
        list(nx.jaccard_coefficient(G, pairs))
    with pytest.raises(nx.NodeNotFound):
        nx.jaccard_coefficient(G, [(0, 1000)], backend="irgl")


def test_greedy_color_largest_first_equals_networkx():
    for G in (shuffled_graph(150, 0.06, 9), nx.complete_graph(70), nx.empty_graph(3),
              nx.gnp_random_graph(120, 0.7, seed=5)):
        got = nx.greedy_color(G, backend="irgl")
        expected = nx.greedy_color(G)
        assert got == expected and list(got) == list(expected)
    with pytest.raises(NotImplementedError):
        nx.greedy_color(nx.path_graph(4), strategy="smallest_last", backend="irgl")


def test_louvain_communities_partition_as_networkx_does():
    G = nx.ring_of_cliques(6, 5)
    assert nx.community.louvain_communities(G, backend="irgl") == \
        [set(range(i, i + 5)) for i in range(0, 30, 5)]
    H = shuffled_graph(150, 0.06, 9)
    got = nx.community.louvain_communities(H, backend="irgl")
    assert nx.community.is_partition(H, got)
    assert nx.community.modularity(H, got) >= \
        0.98 * nx.community.modularity(H, nx.community.louvain_communities(H, seed=2))
    with pytest.raises(ValueError, match="max_level"):
        nx.community.louvain_communities(H, max_level=0, backend="irgl")
    with pytest.raises(NotImplementedError):  # networkx's random order for a seed
        nx.community.louvain_communities(H, seed=2, backend="irgl")
    # A self-loop counts twice in its node's degree, as networkx counts it.
    H.add_edge(3, 3, weight=40)
    got = nx.community.louvain_communities(H, backend="irgl")
    assert nx.community.modularity(H, got) >= \
        0.98 * nx.community.modularity(H, nx.community.louvain_communities(H, seed=2))


def test_dijkstra_over_float32_weights_equals_networkx():
    G = shuffled_graph(200, 0.04, 8, directed=True)
    for u, v in G.edges():
        G[u][v]["weight"] = ((u * 31 + v * 7) % 64) / 16  # multiples of 1/16: float32 holds them
    G[3][next(iter(G[3]))]["weight"] = 2.0 ** -60  # sums that round in double
    for source in (0, 3, 50):
        got = nx.single_source_dijkstra_path_length(G, source, backend="irgl")
        assert got == nx.single_source_dijkstra_path_length(G, source)
        assert all(isinstance(d, float) for d in got.values())


def test_dijkstra_weight_corner_cases():
    G = nx.empty_graph(3)  # no edge, so no weight: integer distances still
    assert nx.single_source_dijkstra_path_length(G, 0, backend="irgl") == {0: 0}
    # 2^40 is no int32 and, beside a real weight, an integer whose sums
    # doubles may round where networkx adds exactly: declined.
    H = nx.path_graph(3)
    H[0][1]["weight"], H[1][2]["weight"] = 2 ** 40, 1
    H.add_edge(2, 3, weight=0.5)
    with pytest.raises(NotImplementedError, match="irgl"):
        nx.single_source_dijkstra_path_length(H, 0, backend="irgl")


def test_betweenness_declined_where_networkx_rescales_otherwise(monkeypatch):
    import networkx.algorithms.centrality.betweenness as betweenness

    def old_rescale(betweenness, n, normalized, directed=False, k=None, endpoints=False):
        return betweenness
    monkeypatch.setattr(betweenness, "_rescale", old_rescale)
    with pytest.raises(NotImplementedError, match="irgl"):
        nx.betweenness_centrality(nx.path_graph(4), backend="irgl")
