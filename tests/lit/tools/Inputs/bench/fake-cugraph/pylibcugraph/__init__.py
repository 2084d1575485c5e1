"""Stand-in for pylibcugraph in irglc's tool tests, which run without a GPU:
the calls tools/bench/cugraph-run.py makes, with pylibcugraph 26.10's
signatures and results (python/pylibcugraph/pylibcugraph/*.pyx), computed on
the CPU with NumPy and SciPy.

It refuses what the real library refuses on these paths (weakly connected
components of a graph not marked symmetric, vertex arrays of different
types, integer weights, sssp without predecessors) and insists on what
cugraph-run.py relies on: no renumbering with every vertex listed, a graph
stored transposed for PageRank (the real one would transpose it in the call),
a graph marked symmetric only when it is. Like the real one it returns the
vertices with their values, here in reverse order, so that a caller that
takes the values as ordered by vertex fails.

FAKE_CUGRAPH_WRONG=APP (bfs, sssp, cc or pr) makes that algorithm's answer
wrong at one vertex, for the harness's check of peer answers.
"""
import os

import numpy
import scipy.sparse
import scipy.sparse.csgraph

__version__ = "0+stand-in"

_VERTEX_TYPES = (numpy.int32, numpy.int64)
_WEIGHT_TYPES = (numpy.float32, numpy.float64)


class FailedToConvergeError(Exception):
    pass


class ResourceHandle:
    def __init__(self, handle=None):
        self.handle = handle


class GraphProperties:
    def __init__(self, is_symmetric=False, is_multigraph=False):
        self.is_symmetric = bool(is_symmetric)
        self.is_multigraph = bool(is_multigraph)


class SGGraph:
    def __init__(self, resource_handle, graph_properties, src_or_offset_array,
                 dst_or_index_array, weight_array=None, store_transposed=False, renumber=False,
                 do_expensive_check=False, edge_id_array=None, edge_type_array=None,
                 edge_start_time_array=None, edge_end_time_array=None,
                 input_array_format="COO", vertices_array=None, drop_self_loops=False,
                 drop_multi_edges=False, symmetrize=False):
        if input_array_format != "COO":
            raise ValueError("stand-in: COO input only")
        if renumber:
            raise ValueError("stand-in: cugraph-run.py keeps irglc's ids (renumber=False)")
        if vertices_array is None:
            raise ValueError("stand-in: without vertices_array, isolated vertices are lost")
        src, dst, vertices = (numpy.asarray(a) for a in (src_or_offset_array, dst_or_index_array,
                                                        vertices_array))
        if src.dtype != dst.dtype or src.dtype != vertices.dtype or \
                src.dtype.type not in _VERTEX_TYPES:
            raise TypeError("stand-in: vertex arrays of one type, int32 or int64, not %s/%s/%s"
                            % (src.dtype, dst.dtype, vertices.dtype))
        if not numpy.array_equal(vertices, numpy.arange(len(vertices))):
            raise ValueError("stand-in: vertices_array must be 0..n-1")
        if weight_array is not None and numpy.asarray(weight_array).dtype.type not in _WEIGHT_TYPES:
            raise TypeError("cuGraph's weights are float32 or float64")
        if symmetrize or drop_self_loops or drop_multi_edges:
            raise ValueError("stand-in: the graph is taken as irglc loads it")
        self.vertices = len(vertices)
        self.vertex_type = src.dtype
        self.src, self.dst = src, dst
        self.weights = None if weight_array is None else numpy.asarray(weight_array)
        self.properties = graph_properties
        self.store_transposed = bool(store_transposed)
        if graph_properties.is_symmetric:
            edges = set(zip(src.tolist(), dst.tolist()))
            if edges != {(v, u) for u, v in edges}:
                raise ValueError("stand-in: a graph marked symmetric that is not")

    def matrix(self, weights=None):
        """The adjacency matrix (repeated edges: the lightest weight)."""
        src, dst = self.src.astype(numpy.int64), self.dst.astype(numpy.int64)
        if weights is None:
            data = numpy.ones(len(src))
        else:
            order = numpy.lexsort((weights, dst, src))
            src, dst, data = src[order], dst[order], weights[order].astype(numpy.float64)
            first = numpy.ones(len(src), dtype=bool)
            first[1:] = (src[1:] != src[:-1]) | (dst[1:] != dst[:-1])
            src, dst, data = src[first], dst[first], data[first]
        return scipy.sparse.csr_matrix((data, (src, dst)), shape=(self.vertices, self.vertices))


def _wrong(app):
    return os.environ.get("FAKE_CUGRAPH_WRONG") == app


def _reversed(graph, values):
    """(vertices, values) as the real library returns them, in reverse order."""
    vertices = numpy.arange(graph.vertices, dtype=graph.vertex_type)[::-1].copy()
    return vertices, values[::-1].copy()


def _distances(graph, source, weighted, dtype, unreached):
    if not 0 <= int(source) < graph.vertices:
        raise ValueError("vertex %s is not valid." % source)
    matrix = graph.matrix(graph.weights if weighted else None)
    found = scipy.sparse.csgraph.shortest_path(matrix, method="D", directed=True,
                                               unweighted=not weighted, indices=int(source))
    reached = numpy.isfinite(found)
    distances = numpy.where(reached, found, 0).astype(dtype)
    distances[~reached] = unreached
    if _wrong("bfs" if not weighted else "sssp"):
        others = numpy.flatnonzero(reached & (numpy.arange(graph.vertices) != int(source)))
        distances[others[-1]] += 1
    return distances


def bfs(handle, graph, sources, direction_optimizing, depth_limit, compute_predecessors,
        do_expensive_check):
    sources = numpy.asarray(sources)
    if sources.dtype != graph.vertex_type or len(sources) != 1:
        raise TypeError("stand-in: one source of the graph's vertex type")
    if direction_optimizing and not graph.properties.is_symmetric:
        raise ValueError("direction-optimizing BFS needs a symmetric graph")
    distances = _distances(graph, sources[0], False, graph.vertex_type,
                           numpy.iinfo(graph.vertex_type).max)
    vertices, distances = _reversed(graph, distances)
    predecessors = numpy.full(graph.vertices, -1, dtype=graph.vertex_type)
    return distances, predecessors, vertices


def sssp(resource_handle, graph, source, cutoff, compute_predecessors, do_expensive_check):
    if compute_predecessors is False:
        raise ValueError("compute_predecessors must be True for the current release.")
    if graph.weights is None:
        raise ValueError("stand-in: sssp needs weights")
    dtype = graph.weights.dtype
    distances = _distances(graph, source, True, dtype, numpy.finfo(dtype).max)
    vertices, distances = _reversed(graph, distances)
    return vertices, distances, numpy.full(graph.vertices, -1, dtype=graph.vertex_type)


def weakly_connected_components(resource_handle, graph, offsets, indices, weights, labels,
                                do_expensive_check):
    if not graph.properties.is_symmetric:
        raise RuntimeError("Invalid input argument: input graph should be symmetric for weakly "
                           "connected components.")
    _, component = scipy.sparse.csgraph.connected_components(graph.matrix(), directed=True,
                                                             connection="weak")
    # Labels as any vertex id of the component: here its largest.
    largest = numpy.zeros(component.max() + 1 if len(component) else 0, dtype=numpy.int64)
    numpy.maximum.at(largest, component, numpy.arange(graph.vertices))
    result = largest[component].astype(graph.vertex_type)
    if _wrong("cc") and graph.vertices:
        result[-1] = graph.vertices  # a component of its own
    return _reversed(graph, result)


def pagerank(resource_handle, graph, precomputed_vertex_out_weight_vertices,
             precomputed_vertex_out_weight_sums, initial_guess_vertices, initial_guess_values,
             alpha, epsilon, max_iterations, do_expensive_check, fail_on_nonconvergence=True):
    if not graph.store_transposed:
        raise ValueError("stand-in: PageRank's graph must be stored transposed")
    n = graph.vertices
    src, dst = graph.src.astype(numpy.int64), graph.dst.astype(numpy.int64)
    edge_weights = numpy.ones(len(src)) if graph.weights is None else graph.weights
    out_weight = numpy.bincount(src, weights=edge_weights, minlength=n)
    dangling = out_weight == 0
    ranks = numpy.full(n, 1.0 / n)
    converged = False
    for _ in range(max_iterations):
        share = numpy.where(dangling, 0.0, ranks / numpy.where(dangling, 1.0, out_weight))
        base = (alpha * ranks[dangling].sum() + 1.0 - alpha) / n
        new = base + alpha * numpy.bincount(dst, weights=share[src] * edge_weights, minlength=n)
        change = numpy.abs(new - ranks).sum()
        ranks = new
        if change < epsilon:
            converged = True
            break
    ranks = ranks.astype(numpy.float32)
    if _wrong("pr"):
        ranks[0] += 0.01
    vertices, ranks = _reversed(graph, ranks)
    if not fail_on_nonconvergence:
        return vertices, ranks, converged
    if not converged:
        raise FailedToConvergeError
    return vertices, ranks
