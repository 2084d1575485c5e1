"""irgl as a networkx backend: networkx calls these functions for graphs
converted to irgl (nx.pagerank(G, backend="irgl"), or every call once
nx.config.backend_priority = ["irgl"]). A call the programs cannot answer
exactly as networkx would (float weights, personalization, ...) raises
NotImplementedError, and networkx runs its own code when fallback is on
(nx.config.fallback_to_nx). networkx caches the conversion on the graph
(G.__networkx_cache__), so repeated calls do not convert again.
See docs/python.md.
"""

import collections
import random

import numpy as np

import irgl

NAME = "irgl"


class IrglNxGraph:
    """A networkx graph as irgl holds it: the irgl.Graph (nodes numbered in
    the graph's order; an undirected graph's edges both ways), the node
    list, and the networkx graph it came from."""

    __networkx_backend__ = NAME

    def __init__(self, nx_graph, weight):
        self.nx = nx_graph
        self.nodes = list(nx_graph)
        self.index = {node: i for i, node in enumerate(self.nodes)}
        self.weight = weight
        self.weights_ok = True  # every weight a nonnegative int32 (or none asked)
        self.real_weights = False  # the weights are nonnegative float32 values instead
        self.unit_weights = True
        self.graph = self._build(weight)
        self._simple = None
        self._adjacency = None
        self._louvain = None

    def _build(self, weight):
        sources, targets, values = irgl._networkx_edges(self.nx, self.index, weight)
        weights = None
        if values is not None:
            self.unit_weights = all(v == 1 for v in values)
            self.weights_ok = all(isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                                  and 0 <= v < 2 ** 31 for v in values)
            if self.weights_ok:
                weights = np.array(values, dtype=np.int64)  # int32 weights, even with no edge
            else:
                # Reals the GPU holds exactly (float32) sum as networkx's do.
                self.real_weights = all(_exact_float32(v) for v in values)
                if self.real_weights:
                    weights = np.array(values, dtype=np.float32)
        return irgl.from_edges(sources, targets, weights, num_vertices=len(self.nodes))

    def simple(self):
        """The graph without self-loops and parallel edges, symmetric."""
        if self._simple is None:
            self._simple = irgl.from_csr(self.graph.indptr, self.graph.indices, simple=True)
        return self._simple

    def louvain_graph(self):
        """The graph Louvain runs on: its edges both ways with float32
        weights (1 without a weight attribute; parallel edges add up, as
        networkx sums a multigraph's), or None when a weight is negative or
        float32 cannot hold it."""
        if self._louvain is None:
            sources, targets, values = irgl._networkx_edges(self.nx, self.index, self.weight)
            if values is None:
                values = np.ones(len(sources), dtype=np.float32)
            elif not all(_exact_float32(v) for v in values):
                return None
            self._louvain = irgl.from_edges(sources, targets, np.asarray(values, dtype=np.float32),
                                            num_vertices=len(self.nodes))
        return self._louvain

    def adjacency(self):
        """(indptr, indices) of each node's neighbours (successors) in
        networkx's order, which its traversals follow (irgl's lists are
        sorted)."""
        if self._adjacency is None:
            adj, index = self.nx._adj, self.index
            counts = np.fromiter((len(adj[u]) for u in self.nodes), np.int64, len(self.nodes))
            indptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
            indices = np.fromiter((index[v] for u in self.nodes for v in adj[u]), np.int64,
                                  int(indptr[-1]))
            self._adjacency = (indptr, indices)
        return self._adjacency

    def source(self, node):
        import networkx as nx
        if node not in self.index:
            raise nx.NodeNotFound("Source %s is not in G" % (node,))
        return self.index[node]


def _groups(G, labels):
    """The sets of G's nodes that share a label, by label."""
    groups = {}
    for v, label in enumerate(labels.tolist()):
        groups.setdefault(label, set()).add(G.nodes[v])
    return groups


def _sinks_first(graph, labels):
    """The components' labels in an order where a component comes after
    every component it reaches (Kahn's algorithm on the reversed
    condensation)."""
    indptr = graph.indptr.astype(np.int64)
    sources = np.repeat(np.arange(graph.num_vertices), np.diff(indptr))
    a, b = labels[sources], labels[graph.indices]
    between = a != b
    pairs = set(zip(a[between].tolist(), b[between].tolist()))
    unique = [int(x) for x in dict.fromkeys(labels.tolist())]
    out_count = dict.fromkeys(unique, 0)
    reached_by = {label: [] for label in unique}
    for u, v in pairs:
        out_count[u] += 1
        reached_by[v].append(u)
    ready = collections.deque(label for label in unique if out_count[label] == 0)
    order = []
    while ready:
        label = ready.popleft()
        order.append(label)
        for u in reached_by[label]:
            out_count[u] -= 1
            if out_count[u] == 0:
                ready.append(u)
    return order


def _bfs_layers(G, levels, first, depth_limit=None):
    """Yields networkx's breadth-first order, layer by layer, as (parents,
    children) arrays, given the levels irgl computed from the first
    layer's vertices: a layer's children are its vertices' neighbours
    (in networkx's order) one level further, each at its first
    occurrence, which is the vertex networkx's queue discovers it from."""
    indptr, indices = G.adjacency()
    layer = np.asarray(first, dtype=np.int64)
    depth = 0
    while layer.size and (depth_limit is None or depth < depth_limit):
        starts = indptr[layer]
        counts = indptr[layer + 1] - starts
        ends = np.cumsum(counts)
        positions = np.arange(ends[-1]) + np.repeat(starts - (ends - counts), counts)
        children = indices[positions]
        parents = np.repeat(layer, counts)
        new = levels[children] == depth + 1
        children, parents = children[new], parents[new]
        _, first_seen = np.unique(children, return_index=True)
        first_seen.sort()
        layer = children[first_seen]
        if layer.size:
            yield parents[first_seen], layer
        depth += 1


def _exact_float32(value):
    """Whether value is a nonnegative finite number that float32 holds
    exactly (not a bool), and, for an integer, one whose sums along a path
    doubles add exactly, as Python adds integers (below 2^24)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        return False
    if isinstance(value, (int, np.integer)):
        return 0 <= value < 2 ** 24
    return bool(np.isfinite(value)) and value >= 0 and float(np.float32(value)) == value


def _unsupported(why):
    raise NotImplementedError("irgl: " + why)


class BackendInterface:
    """The functions networkx dispatches to irgl, with networkx's
    signatures."""

    @staticmethod
    def convert_from_nx(G, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False,
                        preserve_node_attrs=False, preserve_graph_attrs=False, name=None,
                        graph_name=None):
        if isinstance(G, IrglNxGraph):
            return G
        weight = None
        if edge_attrs:
            weight = next(iter(edge_attrs))
        elif preserve_edge_attrs:
            weight = "weight"
        return IrglNxGraph(G, weight)

    @staticmethod
    def convert_to_nx(obj, *, name=None):
        return obj.nx if isinstance(obj, IrglNxGraph) else obj

    @staticmethod
    def single_source_shortest_path_length(G, source, cutoff=None):
        levels = irgl.bfs(G.graph, G.source(source))
        return {G.nodes[v]: int(levels[v]) for v in np.flatnonzero(levels != irgl.UNREACHED)
                if cutoff is None or levels[v] <= cutoff}

    @staticmethod
    def bfs_edges(G, source, reverse=False, depth_limit=None, sort_neighbors=None):
        import networkx as nx
        if sort_neighbors is not None:
            _unsupported("bfs_edges with sort_neighbors")
        if reverse and G.nx.is_directed():
            _unsupported("bfs_edges along in-edges (reverse)")
        if source not in G.index:  # raised where networkx raises it: when iterated
            return _raising(nx.NetworkXError("The node %s is not in the graph." % (source,)))
        levels = irgl.bfs(G.graph, G.index[source])
        return ((G.nodes[p], G.nodes[c])
                for parents, children in _bfs_layers(G, levels, [G.index[source]], depth_limit)
                for p, c in zip(parents.tolist(), children.tolist()))

    @staticmethod
    def bfs_layers(G, sources):
        import networkx as nx
        if sources in G.nx:
            sources = [sources]
        first = list(set(sources))  # networkx's first layer, in its order
        missing = [s for s in first if s not in G.index]
        if missing:
            return _raising(nx.NetworkXError("The node %s is not in the graph." % (missing[0],)))
        first = [G.index[s] for s in first]
        levels = np.minimum.reduce([irgl.bfs(G.graph, s) for s in first]) if first else None
        return _layers_of(G, levels, first)

    @staticmethod
    def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
        if callable(weight):
            _unsupported("a weight function")
        if G.weight != weight or not (G.weights_ok or G.real_weights):
            _unsupported("weights other than nonnegative int32 or float32 values of %r"
                         % (weight,))
        dist = irgl.sssp(G.graph, G.source(source))
        if G.real_weights:
            return {G.nodes[v]: float(dist[v]) for v in np.flatnonzero(np.isfinite(dist))
                    if cutoff is None or dist[v] <= cutoff}
        return {G.nodes[v]: int(dist[v]) for v in np.flatnonzero(dist != irgl.UNREACHED)
                if cutoff is None or dist[v] <= cutoff}

    @staticmethod
    def connected_components(G):
        return iter(_groups(G, irgl.connected_components(G.simple())).values())

    @staticmethod
    def number_connected_components(G):
        return len(np.unique(irgl.connected_components(G.simple())))

    @staticmethod
    def strongly_connected_components(G):
        # networkx yields them sinks first (its condensation numbers them so).
        labels = irgl.strongly_connected_components(G.graph)
        groups = _groups(G, labels)
        return iter([groups[label] for label in _sinks_first(G.graph, labels)])

    @staticmethod
    def number_strongly_connected_components(G):
        return len(np.unique(irgl.strongly_connected_components(G.graph)))

    @staticmethod
    def maximal_independent_set(G, nodes=None, seed=None):
        if nodes is not None:
            _unsupported("a maximal independent set that must hold given nodes")
        # networkx turns seed=None into the global generator before it calls.
        if seed is not None and seed is not random._inst:
            _unsupported("a seeded maximal independent set (networkx's random choices)")
        inside = irgl.maximal_independent_set(G.simple())
        return [G.nodes[v] for v in np.flatnonzero(inside)]

    @staticmethod
    def greedy_color(G, strategy="largest_first", interchange=False):
        import networkx as nx
        if strategy != "largest_first" or interchange:
            _unsupported("greedy_color other than strategy \"largest_first\" without interchange")
        if G.nx.is_directed() or G.nx.is_multigraph() or nx.number_of_selfloops(G.nx) > 0:
            _unsupported("greedy_color of a directed graph, a multigraph or with self-loops "
                         "(networkx's degrees count their edges otherwise)")
        graph = G.simple()
        colors = irgl.coloring(graph, largest_first=True).tolist() if G.nodes else []
        # networkx lists the nodes as it colours them: the larger degree first.
        order = np.argsort(-np.diff(graph.indptr.astype(np.int64)), kind="stable")
        return {G.nodes[v]: colors[v] for v in order.tolist()}

    @staticmethod
    def triangles(G, nodes=None):
        if G.nx.is_directed():
            _unsupported("triangles of a directed graph")
        counts = irgl.triangles_per_vertex(G.simple()).tolist() if G.nodes else []
        if nodes is not None:
            if nodes in G.nx:
                return counts[G.index[nodes]]
            return {v: counts[G.index[v]] for v in G.nx.nbunch_iter(nodes)}
        return dict(zip(G.nodes, counts))

    @staticmethod
    def betweenness_centrality(G, k=None, normalized=True, weight=None, endpoints=False,
                               seed=None):
        rescale = _networkx_rescale()
        if weight is not None and (G.weight != weight or not G.unit_weights):
            _unsupported("weighted betweenness_centrality")
        if G.nx.is_multigraph():
            _unsupported("betweenness_centrality of a multigraph")
        if k == len(G.nodes):
            k = None
        # networkx turns seed into a generator before it calls: the same sample.
        sampled = None if k is None else seed.sample(list(G.nx.nodes()), k)
        sums = irgl.betweenness_centrality(
            G.graph, None if sampled is None else [G.index[v] for v in sampled],
            endpoints=endpoints)
        return rescale(dict(zip(G.nodes, sums.tolist())), len(G.nodes), normalized=normalized,
                       directed=G.nx.is_directed(), endpoints=endpoints, sampled_nodes=sampled)

    @staticmethod
    def louvain_communities(G, weight="weight", resolution=1, threshold=1e-07, max_level=None,
                            seed=None):
        import networkx as nx
        if max_level is not None and max_level <= 0:
            raise ValueError("max_level argument must be a positive integer or None")
        # networkx turns seed=None into the global generator before it calls.
        if seed is not None and seed is not random._inst:
            _unsupported("seeded louvain_communities (networkx's random order of moves)")
        if G.nx.is_directed():
            _unsupported("louvain_communities of a directed graph")
        if G.weight != weight:
            _unsupported("weights of another attribute than the conversion's")
        if not (resolution >= 0 and threshold >= 0):
            _unsupported("a negative resolution or threshold")
        graph = G.louvain_graph()
        if graph is None:
            _unsupported("weights other than nonnegative values float32 holds exactly")
        labels, _ = irgl.louvain(graph, resolution=resolution, threshold=threshold,
                                 max_levels=max_level or 0)
        return list(_groups(G, labels).values())

    @staticmethod
    def jaccard_coefficient(G, ebunch=None):
        import networkx as nx
        if nx.number_of_selfloops(G.nx) > 0:
            _unsupported("jaccard_coefficient with self-loops (networkx counts such a node "
                         "among its own neighbours)")
        if ebunch is None:
            pairs = nx.non_edges(G.nx)
        else:
            pairs = list(ebunch)
            for u, v in pairs:
                for node in (u, v):
                    if node not in G.index:
                        raise nx.NodeNotFound("Node %s not in G." % (node,))
        return _similarities(G, pairs)

    @staticmethod
    def pagerank(G, alpha=0.85, personalization=None, max_iter=100, tol=1e-06, nstart=None,
                 weight="weight", dangling=None):
        import networkx as nx
        if alpha != 0.85 or personalization or nstart or dangling:
            _unsupported("pagerank with alpha != 0.85, personalization, nstart or dangling")
        if weight is not None and not G.unit_weights:
            _unsupported("weighted pagerank")
        n = len(G.nodes)
        if n == 0:
            return {}
        # networkx stops once the L1 change is below n * tol.
        ranks = irgl.pagerank(G.graph, tolerance=n * tol, max_iterations=max_iter)
        if _pagerank_change(G.graph, ranks) >= n * tol * 1.5:
            raise nx.PowerIterationFailedConvergence(max_iter)
        ranks = ranks.astype(np.float64)
        ranks /= ranks.sum()
        return dict(zip(G.nodes, ranks.tolist()))

    @staticmethod
    def core_number(G):
        import networkx as nx
        if G.nx.is_directed():
            _unsupported("core_number of a directed graph")
        if nx.number_of_selfloops(G.nx) > 0:
            raise nx.NetworkXNotImplemented(
                "Input graph has self loops which is not permitted; "
                "Consider using G.remove_edges_from(nx.selfloop_edges(G)).")
        if not G.nodes:
            return {}
        simple = G.simple()
        core = np.zeros(len(G.nodes), dtype=np.int64)
        k = 1
        while True:
            inside = irgl.kcore(simple, k)
            if not inside.any():
                break
            core[inside] = k
            k += 1
        return dict(zip(G.nodes, core.tolist()))


def _networkx_rescale():
    """networkx's own rescaling of betweenness sums, in the form networkx
    3.5 and later call it (with the sampled nodes); earlier versions, whose
    _rescale scales samples otherwise, are declined."""
    import inspect
    try:
        from networkx.algorithms.centrality.betweenness import _rescale
    except ImportError:
        _rescale = None
    if _rescale is None or "sampled_nodes" not in inspect.signature(_rescale).parameters:
        _unsupported("betweenness_centrality with this networkx's rescaling (3.5 or later "
                     "has the one irgl calls)")
    return _rescale


def _raising(error):
    """A generator that raises error when first iterated (where networkx's
    generators raise it)."""
    raise error
    yield  # noqa: unreachable (makes this a generator)


def _layers_of(G, levels, first):
    if first:
        yield [G.nodes[v] for v in first]
        for _, layer in _bfs_layers(G, levels, first):
            yield [G.nodes[v] for v in layer.tolist()]


def _similarities(G, pairs):
    """(u, v, Jaccard similarity) for each pair, one program run per
    distinct u in a row (networkx's non_edges lists a node's pairs
    together)."""
    row_of, row = None, None
    for u, v in pairs:
        if u != row_of:
            row_of, row = u, irgl.jaccard(G.simple(), G.index[u])
        yield u, v, float(row[G.index[v]])


def _pagerank_change(graph, ranks):
    """The L1 change one more power iteration would make: whether the
    program stopped converged or at its iteration cap."""
    n = graph.num_vertices
    indptr = graph.indptr.astype(np.int64)
    degrees = np.diff(indptr)
    x = ranks.astype(np.float64)
    share = np.divide(x, degrees, out=np.zeros(n), where=degrees > 0)
    sources = np.repeat(np.arange(n), degrees)
    pulled = np.bincount(graph.indices, weights=share[sources], minlength=n)
    base = (1 - 0.85 + 0.85 * x[degrees == 0].sum()) / n
    return np.abs(base + 0.85 * pulled - x).sum()


_FUNCTIONS = {
    "single_source_shortest_path_length": "bfs (lang-examples/bfs.irgl)",
    "single_source_dijkstra_path_length": "sssp over nonnegative int32 weights, sssp_real "
                                          "over nonnegative float32 values",
    "connected_components": "cc (lang-examples/cc.irgl)",
    "number_connected_components": "cc (lang-examples/cc.irgl)",
    "strongly_connected_components": "scc (lang-examples/scc.irgl)",
    "number_strongly_connected_components": "scc (lang-examples/scc.irgl)",
    "maximal_independent_set": "mis (lang-examples/mis.irgl), without nodes",
    "pagerank": "pr (lang-examples/pr.irgl): alpha 0.85, unweighted",
    "core_number": "kcore (lang-examples/kcore.irgl), once per k",
    "bfs_edges": "bfs (lang-examples/bfs.irgl), networkx's edge order rebuilt from the levels",
    "bfs_layers": "bfs (lang-examples/bfs.irgl), once per source",
    "triangles": "tc_per_vertex (lang-examples/tc_per_vertex.irgl)",
    "greedy_color": "coloring (lang-examples/coloring.irgl) with its ranks by degree, which "
                    "colours as the sequential greedy does: strategy \"largest_first\" only",
    "betweenness_centrality": "bc (lang-examples/bc.irgl), unweighted",
    "jaccard_coefficient": "jaccard (lang-examples/jaccard.irgl), once per first node of "
                           "a run of pairs",
    "louvain_communities": "louvain (lang-examples/louvain.irgl): undirected, unseeded; "
                           "moves made in parallel, so another partition than networkx's",
}


def get_info():
    """networkx's backend_info entry point."""
    return {
        "backend_name": NAME,
        "project": "irgl",
        "package": "irgl",
        "short_summary": "graph algorithms compiled by irglc",
        "functions": {name: {"additional_docs": doc} for name, doc in _FUNCTIONS.items()},
        "default_config": {},
    }
