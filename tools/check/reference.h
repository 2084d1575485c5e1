// Reference (CPU) implementations of the algorithms irgl-check verifies,
// written independently of any GPU code. Where the Boost Graph Library has
// the algorithm it is used (BFS, Dijkstra, connected components, core
// numbers); PageRank, triangle counting, SpMV, betweenness centrality and
// Jaccard similarity follow our own definitions (docs/results.md), which BGL
// does not match.
//
// Graph views: bfs, sssp and spmv use the out-edges as loaded; bc the
// out-edges without repeats; pagerank uses the in-edges; cc, kcore, tc and
// jaccard use the underlying simple undirected graph (UndirectedGraph below).
#pragma once

#include <cstdint>
#include <vector>

#include "irgl/graph/csr_graph.h"
#include "irgl/results/result_format.h"

namespace irgl::check {

// The distance of a vertex that the source cannot reach.
inline constexpr uint64_t kUnreachable = kInfiniteDistance;

// A graph's underlying simple undirected graph: every edge in both
// directions, no self-loops, no duplicate edges, adjacency lists sorted,
// no weights.
class UndirectedGraph {
 public:
  explicit UndirectedGraph(const CsrGraph& graph);

  const CsrGraph& csr() const { return csr_; }
  uint64_t num_vertices() const { return csr_.num_vertices(); }
  // Undirected edges: each counted once.
  uint64_t num_edges() const { return csr_.num_edges() / 2; }

 private:
  CsrGraph csr_;
};

// Hop distance from `source` along out-edges (BGL breadth_first_search);
// kUnreachable for vertices it cannot reach.
std::vector<uint64_t> reference_bfs(const CsrGraph& graph, VertexId source);

// Weighted distance from `source` along out-edges (BGL
// dijkstra_shortest_paths); kUnreachable for vertices it cannot reach. The
// graph must have int32 weights, all non-negative; otherwise throws
// InputError naming the graph and the first offending edge.
std::vector<uint64_t> reference_sssp(const CsrGraph& graph, VertexId source);

// The same over float weights, summed in double precision along each path
// from the source on (BGL dijkstra_shortest_paths); infinity where
// unreachable. The graph must have float weights, none negative or NaN.
std::vector<double> reference_sssp_real(const CsrGraph& graph, VertexId source);

struct Components {
  std::vector<VertexId> component;  // per vertex, in 0..count-1
  uint64_t count = 0;
};

// Connected components (BGL connected_components), numbered in order of
// their lowest vertex.
Components reference_components(const UndirectedGraph& graph);

// The strongly connected components along out-edges (BGL
// strong_components, Tarjan's algorithm).
Components reference_strong_components(const CsrGraph& graph);

// Core number of every vertex (BGL core_numbers): the largest k such that the
// vertex belongs to the k-core, the maximal subgraph whose vertices all have
// degree >= k within it.
std::vector<uint32_t> reference_core_numbers(const UndirectedGraph& graph);

// The degeneracy: the largest core number (0 for a graph without edges).
uint32_t max_core_number(const std::vector<uint32_t>& core_numbers);

// Number of triangles, each counted once: orients every edge from the
// lower-ranked to the higher-ranked endpoint (rank = (degree, id)) and
// intersects sorted oriented lists. Parallel.
uint64_t reference_triangles(const UndirectedGraph& graph);

// The triangles each vertex belongs to: half the sum, over its neighbours
// v, of the neighbours u and v share (not the oriented count above, so the
// two checks do not share a mistake). Parallel.
std::vector<uint64_t> reference_vertex_triangles(const UndirectedGraph& graph);

struct PagerankParams {
  double damping = 0.85;
  double epsilon = 1e-12;  // stop when the L1 change of an iteration is below
  unsigned max_iterations = 10000;
};

struct PagerankResult {
  std::vector<double> rank;
  unsigned iterations = 0;
  double last_change = 0;  // L1 change of the last iteration
};

// PageRank by double-precision power iteration from PR0(v) = 1/N:
//   PR(v) = (1-d)/N + d * (sum over in-edges (u,v) of PR(u)/outdeg(u) + D/N)
// where D is the total rank of the vertices without out-edges (their rank is
// spread over all vertices). Parallel edges count with their multiplicity.
// The graph must have its transpose (in-edges); throws std::invalid_argument
// otherwise.
PagerankResult reference_pagerank(const CsrGraph& graph, const PagerankParams& params = {});

// The x that spmv programs multiply by unless told otherwise:
//   x[j] = 1 + (j mod 7) / 8.
std::vector<double> default_spmv_x(uint64_t n);

struct SpmvResult {
  std::vector<double> y;          // y = A x
  std::vector<double> magnitude;  // sum over j of |A[i][j] * x[j]|, for tolerances
};

// y = A x where row u of A holds u's out-edges: A[u][v] = the edge's weight
// (int32 or float32; 1 in an unweighted graph), parallel edges summed.
// x must have one entry per vertex. Parallel, in double precision.
SpmvResult reference_spmv(const CsrGraph& graph, const std::vector<double>& x);

// Out-edge e's weight as a double: its int32 or float value, 1 when the
// graph is unweighted.
double weight_as_double(const CsrGraph& graph, EdgeId e);

// How many sources betweenness centrality sums over: `sources` when it is
// between 1 and n - 1, otherwise (0, or n or more) every vertex, n.
uint64_t betweenness_source_count(uint64_t n, uint64_t sources);

// Betweenness centrality (Brandes): for every vertex v, the sum over the
// sources s and the targets t (s != v != t != s) of sigma_st(v) / sigma_st,
// where sigma_st counts the shortest s-t paths along out-edges (unweighted,
// a repeated edge counted once, self-loops on no shortest path) and
// sigma_st(v) those through v; 0 where t is unreachable. Unnormalized,
// no halving (an undirected pair's paths count in both directions). With
// `endpoints`, a path counts at its ends too: 1 at every t a source
// reaches, and at the source the number of vertices it reaches. The sources are (first_source + i) mod n for
// i < betweenness_source_count(n, sources). Parallel over the sources, in
// double precision; the result depends only on the thread count.
std::vector<double> reference_betweenness(const CsrGraph& graph, VertexId first_source,
                                          uint64_t sources, bool endpoints = false);

// Jaccard similarity of every vertex v with `source` on the undirected
// simple view: |N(s) & N(v)| / |N(s) | N(v)|, 0 when the union is empty.
std::vector<double> reference_jaccard(const UndirectedGraph& graph, VertexId source);

}  // namespace irgl::check
