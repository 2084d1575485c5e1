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
        self.unit_weights = True
        self.graph = self._build(weight)
        self._simple = None

    def _build(self, weight):
        sources, targets, values = irgl._networkx_edges(self.nx, self.index, weight)
        weights = None
        if values is not None:
            self.unit_weights = all(v == 1 for v in values)
            self.weights_ok = all(isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                                  and 0 <= v < 2 ** 31 for v in values)
            if self.weights_ok:
                weights = values
        return irgl.from_edges(sources, targets, weights, num_vertices=len(self.nodes))

    def simple(self):
        """The graph without self-loops and parallel edges, symmetric."""
        if self._simple is None:
            self._simple = irgl.from_csr(self.graph.indptr, self.graph.indices, simple=True)
        return self._simple

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
    def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
        if callable(weight):
            _unsupported("a weight function")
        if G.weight != weight or not G.weights_ok:
            _unsupported("weights other than nonnegative int32 values of %r" % (weight,))
        dist = irgl.sssp(G.graph, G.source(source))
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
    "single_source_dijkstra_path_length": "sssp over nonnegative int32 weights",
    "connected_components": "cc (lang-examples/cc.irgl)",
    "number_connected_components": "cc (lang-examples/cc.irgl)",
    "strongly_connected_components": "scc (lang-examples/scc.irgl)",
    "number_strongly_connected_components": "scc (lang-examples/scc.irgl)",
    "maximal_independent_set": "mis (lang-examples/mis.irgl), without nodes",
    "pagerank": "pr (lang-examples/pr.irgl): alpha 0.85, unweighted",
    "core_number": "kcore (lang-examples/kcore.irgl), once per k",
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
