#include "reference.h"

#include <algorithm>
#include <atomic>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/core_numbers.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/graph/strong_components.hpp>
#include <boost/property_map/function_property_map.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <string>
#include <utility>

#include "bgl_csr_view.h"
#include "irgl/graph/csr_build.h"
#include "irgl/graph/edge_list.h"
#include "irgl/support/error.h"
#include "irgl/support/parallel.h"

namespace irgl::check {
namespace {

constexpr EdgeId kNoEdge = UINT64_MAX;

// Calls body(i, worker) for every i in [0, n), handing out blocks of `grain`
// indices from a shared cursor, so that skewed per-index work (high-degree
// vertices) balances across the workers. Workers are numbered
// 0..parallel_chunk_count(0, n)-1.
template <class Body>
void parallel_for_dynamic(uint64_t n, uint64_t grain, Body&& body) {
  std::atomic<uint64_t> cursor{0};
  parallel_chunks(0, n, [&](uint64_t, uint64_t, unsigned worker) {
    for (uint64_t block = cursor.fetch_add(grain); block < n; block = cursor.fetch_add(grain))
      for (uint64_t i = block, end = std::min(n, block + grain); i < end; ++i) body(i, worker);
  });
}

// Sum of term(i) over [0, n), in parallel; partial sums are combined in
// chunk order, so the result depends only on the thread count.
template <class Term>
double parallel_sum(uint64_t n, Term&& term) {
  std::vector<double> partial(parallel_chunk_count(0, n), 0.0);
  parallel_chunks(0, n, [&](uint64_t lo, uint64_t hi, unsigned worker) {
    double sum = 0;
    for (uint64_t i = lo; i < hi; ++i) sum += term(i);
    partial[worker] = sum;
  });
  double total = 0;
  for (double sum : partial) total += sum;
  return total;
}

// Throws InputError unless every edge has a non-negative int32 weight.
// Throws InputError unless the graph has weights of type W (int32_t:
// sssp, float: sssp_real), none negative (nor NaN).
template <class W>
void require_nonnegative_weights(const CsrGraph& graph, const char* algorithm) {
  constexpr bool integers = std::is_same_v<W, int32_t>;
  const std::string name(algorithm);
  if (graph.weight_type == WeightType::none)
    throw InputError::in(graph.name,
                         name + " needs edge weights and the graph has none "
                                "(load it with --weights unit or --weights hash)");
  if (graph.weight_type != (integers ? WeightType::int32 : WeightType::float32))
    throw InputError::in(graph.name, name + " needs " + (integers ? "integer" : "float") +
                                         " edge weights, the graph's are " +
                                         to_string(graph.weight_type) + " (load it with " +
                                         (integers ? "--weight-type int" : "--weight-type float") +
                                         ")");
  // Report the first negative edge in CSR order, whatever the thread count.
  std::vector<EdgeId> first_negative(parallel_chunk_count(0, graph.num_edges()), kNoEdge);
  parallel_chunks(0, graph.num_edges(), [&](uint64_t lo, uint64_t hi, unsigned worker) {
    for (uint64_t e = lo; e < hi; ++e)
      if (!(graph.out_weight<W>(e) >= 0)) {
        first_negative[worker] = e;
        return;
      }
  });
  for (EdgeId e : first_negative) {
    if (e == kNoEdge) continue;
    const auto row = std::upper_bound(graph.out_offsets.begin(), graph.out_offsets.end(), e);
    const uint64_t u = static_cast<uint64_t>(row - graph.out_offsets.begin()) - 1;
    throw InputError::in(graph.name, name + " needs non-negative edge weights; edge " +
                                         std::to_string(u) + " -> " +
                                         std::to_string(graph.out_targets[e]) + " weighs " +
                                         std::to_string(graph.out_weight<W>(e)));
  }
}

std::vector<uint64_t> unreachable_except(uint64_t n, VertexId source) {
  std::vector<uint64_t> distance(n, kUnreachable);
  distance[source] = 0;
  return distance;
}

void require_vertex(const CsrGraph& graph, VertexId v) {
  if (v >= graph.num_vertices())
    throw std::invalid_argument("source vertex " + std::to_string(v) + " is not in the graph");
}

// The rank of every vertex in (degree, id) order: a counting sort by degree,
// stable in id.
std::vector<VertexId> degree_ranks(const CsrGraph& graph) {
  const uint64_t n = graph.num_vertices();
  uint64_t max_degree = 0;
  for (uint64_t v = 0; v < n; ++v) max_degree = std::max(max_degree, graph.out_degree(v));
  std::vector<uint64_t> next_rank(max_degree + 1, 0);
  for (uint64_t v = 0; v < n; ++v) ++next_rank[graph.out_degree(v)];
  uint64_t ranked = 0;
  for (uint64_t& slot : next_rank) ranked += std::exchange(slot, ranked);
  std::vector<VertexId> rank(n);
  for (uint64_t v = 0; v < n; ++v)
    rank[v] = static_cast<VertexId>(next_rank[graph.out_degree(v)]++);
  return rank;
}

// The simple undirected graph relabelled by degree rank, each edge kept once,
// from its lower-ranked end: row r lists the higher-ranked neighbours of the
// vertex of rank r, sorted. Low-degree vertices point to high-degree ones,
// so no list is longer than about sqrt(2m).
struct OrientedGraph {
  std::vector<uint64_t> offsets;
  std::vector<VertexId> targets;
};

OrientedGraph orient_by_degree(const CsrGraph& graph) {
  const uint64_t n = graph.num_vertices();
  const std::vector<VertexId> rank = degree_ranks(graph);
  auto for_each_higher = [&](uint64_t u, auto&& visit) {
    for (uint64_t e = graph.out_offsets[u]; e < graph.out_offsets[u + 1]; ++e)
      if (rank[graph.out_targets[e]] > rank[u]) visit(rank[graph.out_targets[e]]);
  };
  std::vector<uint64_t> counts(n, 0);
  parallel_for(0, n, [&](uint64_t u) { for_each_higher(u, [&](VertexId) { ++counts[rank[u]]; }); });
  OrientedGraph oriented;
  oriented.offsets = count_to_offsets(counts);
  counts = {};
  oriented.targets.resize(oriented.offsets[n]);
  parallel_for(0, n, [&](uint64_t u) {
    VertexId* row = oriented.targets.data() + oriented.offsets[rank[u]];
    VertexId* end = row;
    for_each_higher(u, [&](VertexId higher) { *end++ = higher; });
    std::sort(row, end);
  });
  return oriented;
}

uint64_t sorted_intersection_size(const VertexId* a, const VertexId* a_end, const VertexId* b,
                                  const VertexId* b_end) {
  uint64_t common = 0;
  while (a != a_end && b != b_end) {
    if (*a < *b) {
      ++a;
    } else if (*b < *a) {
      ++b;
    } else {
      ++common;
      ++a;
      ++b;
    }
  }
  return common;
}

// The out-edges of `graph` without self-loops or repeated edges, adjacency
// sorted, no weights (made undirected too when `symmetrize`): weights and
// the transpose play no part.
CsrGraph simple_topology(const CsrGraph& graph, bool symmetrize) {
  CsrGraph topology;
  topology.name = graph.name;
  topology.set_num_vertices(graph.num_vertices());
  topology.out_offsets = graph.out_offsets;
  topology.out_targets = graph.out_targets;
  BuildOptions simple;
  simple.symmetrize = symmetrize;
  simple.drop_self_loops = true;
  simple.drop_duplicates = true;
  simple.sort_adjacency = true;
  simple.weights.source = WeightRule::Source::none;
  return rebuild(std::move(topology), simple);
}

// One worker's Brandes state over a simple directed graph, reused from
// source to source (only the vertices a source reaches are reset).
class BrandesAccumulator {
 public:
  explicit BrandesAccumulator(const CsrGraph& graph)
      : graph_(graph),
        level_(graph.num_vertices(), kNotReached),
        paths_(graph.num_vertices(), 0.0),
        dependency_(graph.num_vertices(), 0.0) {}

  // Adds every vertex's dependency on `source` (the sum over targets t of
  // sigma_st(v) / sigma_st) to centrality[v], v != source; with
  // `endpoints` also 1 to every vertex the source reaches, and their count
  // to the source.
  void add_source(VertexId source, std::vector<double>& centrality, bool endpoints) {
    // Breadth-first from the source: levels, shortest-path counts, and the
    // vertices in the order reached.
    order_.assign(1, source);
    level_[source] = 0;
    paths_[source] = 1;
    for (size_t head = 0; head < order_.size(); ++head) {
      const VertexId u = order_[head];
      for (uint64_t e = graph_.out_offsets[u]; e < graph_.out_offsets[u + 1]; ++e) {
        const VertexId w = graph_.out_targets[e];
        if (level_[w] == kNotReached) {
          level_[w] = level_[u] + 1;
          order_.push_back(w);
        }
        if (level_[w] == level_[u] + 1) paths_[w] += paths_[u];
      }
    }
    // Dependencies, deepest vertices first: delta(u) = sum over the
    // successors w of u on shortest paths of sigma(u) / sigma(w) * (1 + delta(w)).
    for (size_t i = order_.size(); i-- > 0;) {
      const VertexId u = order_[i];
      double dependency = 0;
      for (uint64_t e = graph_.out_offsets[u]; e < graph_.out_offsets[u + 1]; ++e) {
        const VertexId w = graph_.out_targets[e];
        if (level_[w] == level_[u] + 1)
          dependency += paths_[u] / paths_[w] * (1 + dependency_[w]);
      }
      dependency_[u] = dependency;
      if (u != source)
        centrality[u] += dependency + (endpoints ? 1 : 0);
      else if (endpoints)
        centrality[u] += static_cast<double>(order_.size() - 1);
    }
    for (VertexId u : order_) {
      level_[u] = kNotReached;
      paths_[u] = 0;
      dependency_[u] = 0;
    }
  }

 private:
  static constexpr uint32_t kNotReached = UINT32_MAX;
  const CsrGraph& graph_;
  std::vector<uint32_t> level_;
  std::vector<double> paths_;       // sigma: shortest paths from the source
  std::vector<double> dependency_;  // delta
  std::vector<VertexId> order_;     // reached vertices, by level
};

}  // namespace

double weight_as_double(const CsrGraph& graph, EdgeId e) {
  switch (graph.weight_type) {
    case WeightType::none: return 1.0;
    case WeightType::int32: return graph.out_weight<int32_t>(e);
    case WeightType::float32: return graph.out_weight<float>(e);
  }
  return 1.0;
}

UndirectedGraph::UndirectedGraph(const CsrGraph& graph)
    : csr_(simple_topology(graph, /*symmetrize=*/true)) {}

std::vector<uint64_t> reference_bfs(const CsrGraph& graph, VertexId source) {
  require_vertex(graph, source);
  std::vector<uint64_t> level = unreachable_except(graph.num_vertices(), source);
  const BglCsrView view{&graph};
  boost::breadth_first_search(
      view, source,
      boost::visitor(boost::make_bfs_visitor(
          boost::record_distances(level.data(), boost::on_tree_edge()))));
  return level;
}

std::vector<uint64_t> reference_sssp(const CsrGraph& graph, VertexId source) {
  require_vertex(graph, source);
  require_nonnegative_weights<int32_t>(graph, "sssp");
  std::vector<uint64_t> distance(graph.num_vertices(), kUnreachable);
  const BglCsrView view{&graph};
  auto weight_of = [&graph](const BglCsrEdge& edge) {
    return static_cast<uint64_t>(graph.out_weight<int32_t>(edge.id));
  };
  const auto weights =
      boost::make_function_property_map<BglCsrEdge, uint64_t>(weight_of);
  boost::dijkstra_shortest_paths(
      view, source,
      boost::weight_map(weights).distance_map(distance.data()).distance_inf(kUnreachable));
  return distance;
}

std::vector<double> reference_sssp_real(const CsrGraph& graph, VertexId source) {
  require_vertex(graph, source);
  require_nonnegative_weights<float>(graph, "sssp_real");
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  std::vector<double> distance(graph.num_vertices(), kInfinity);
  const BglCsrView view{&graph};
  auto weight_of = [&graph](const BglCsrEdge& edge) {
    return static_cast<double>(graph.out_weight<float>(edge.id));
  };
  const auto weights = boost::make_function_property_map<BglCsrEdge, double>(weight_of);
  boost::dijkstra_shortest_paths(
      view, source,
      boost::weight_map(weights).distance_map(distance.data()).distance_inf(kInfinity));
  return distance;
}

Components reference_strong_components(const CsrGraph& graph) {
  Components result;
  result.component.assign(graph.num_vertices(), 0);
  const BglCsrView view{&graph};
  result.count = boost::strong_components(view, result.component.data());
  return result;
}

Components reference_components(const UndirectedGraph& graph) {
  Components result;
  result.component.assign(graph.num_vertices(), 0);
  const BglCsrView view{&graph.csr()};
  result.count = boost::connected_components(view, result.component.data());
  return result;
}

std::vector<uint32_t> reference_core_numbers(const UndirectedGraph& graph) {
  std::vector<uint32_t> core(graph.num_vertices(), 0);
  BglCsrView view{&graph.csr()};
  boost::core_numbers(view, core.data());
  return core;
}

uint32_t max_core_number(const std::vector<uint32_t>& core_numbers) {
  uint32_t largest = 0;
  for (uint32_t core : core_numbers) largest = std::max(largest, core);
  return largest;
}

uint64_t reference_triangles(const UndirectedGraph& graph) {
  const OrientedGraph oriented = orient_by_degree(graph.csr());
  const uint64_t n = graph.num_vertices();
  std::vector<uint64_t> per_worker(parallel_chunk_count(0, n), 0);
  const VertexId* targets = oriented.targets.data();
  // Triangle u < v < w (in rank order) is found once, at u, as v in u's row
  // and w in both rows; w > v, so only the part of u's row after v matters.
  parallel_for_dynamic(n, 64, [&](uint64_t u, unsigned worker) {
    const VertexId* u_end = targets + oriented.offsets[u + 1];
    uint64_t found = 0;
    for (const VertexId* v = targets + oriented.offsets[u]; v != u_end; ++v)
      found += sorted_intersection_size(v + 1, u_end, targets + oriented.offsets[*v],
                                        targets + oriented.offsets[*v + 1]);
    per_worker[worker] += found;
  });
  uint64_t total = 0;
  for (uint64_t count : per_worker) total += count;
  return total;
}

std::vector<uint64_t> reference_vertex_triangles(const UndirectedGraph& graph) {
  const CsrGraph& csr = graph.csr();
  const VertexId* targets = csr.out_targets.data();
  std::vector<uint64_t> triangles(graph.num_vertices(), 0);
  parallel_for_dynamic(graph.num_vertices(), 64, [&](uint64_t u, unsigned) {
    const VertexId* u_begin = targets + csr.out_offsets[u];
    const VertexId* u_end = targets + csr.out_offsets[u + 1];
    uint64_t shared = 0;  // every triangle at u twice, once from each other corner
    for (const VertexId* v = u_begin; v != u_end; ++v)
      shared += sorted_intersection_size(u_begin, u_end, targets + csr.out_offsets[*v],
                                         targets + csr.out_offsets[*v + 1]);
    triangles[u] = shared / 2;
  });
  return triangles;
}

PagerankResult reference_pagerank(const CsrGraph& graph, const PagerankParams& params) {
  if (!graph.has_transpose())
    throw std::invalid_argument("reference_pagerank needs the graph's in-edges (transpose)");
  const uint64_t n = graph.num_vertices();
  PagerankResult result;
  if (n == 0) return result;
  const double d = params.damping;
  result.rank.assign(n, 1.0 / n);
  std::vector<double> next(n), share(n);
  while (result.iterations < params.max_iterations) {
    // share[u]: what u sends along each out-edge; dangling vertices' rank is
    // spread evenly over all vertices instead.
    const double dangling = parallel_sum(n, [&](uint64_t u) {
      const uint64_t degree = graph.out_degree(static_cast<VertexId>(u));
      share[u] = degree ? result.rank[u] / static_cast<double>(degree) : 0.0;
      return degree ? 0.0 : result.rank[u];
    });
    const double base = (1 - d) / n + d * dangling / n;
    parallel_for(0, n, [&](uint64_t v) {
      double incoming = 0;
      for (uint64_t e = graph.in_offsets[v]; e < graph.in_offsets[v + 1]; ++e)
        incoming += share[graph.in_sources[e]];
      next[v] = base + d * incoming;
    });
    result.last_change =
        parallel_sum(n, [&](uint64_t v) { return std::fabs(next[v] - result.rank[v]); });
    result.rank.swap(next);
    ++result.iterations;
    if (result.last_change < params.epsilon) break;
  }
  return result;
}

std::vector<double> default_spmv_x(uint64_t n) {
  std::vector<double> x(n);
  for (uint64_t j = 0; j < n; ++j) x[j] = 1.0 + static_cast<double>(j % 7) / 8.0;
  return x;
}

SpmvResult reference_spmv(const CsrGraph& graph, const std::vector<double>& x) {
  const uint64_t n = graph.num_vertices();
  if (x.size() != n)
    throw std::invalid_argument("reference_spmv: x has " + std::to_string(x.size()) +
                                " entries, the graph " + std::to_string(n) + " vertices");
  SpmvResult result;
  result.y.assign(n, 0.0);
  result.magnitude.assign(n, 0.0);
  parallel_for(0, n, [&](uint64_t u) {
    double sum = 0, magnitude = 0;
    for (uint64_t e = graph.out_offsets[u]; e < graph.out_offsets[u + 1]; ++e) {
      const double term = weight_as_double(graph, e) * x[graph.out_targets[e]];
      sum += term;
      magnitude += std::fabs(term);
    }
    result.y[u] = sum;
    result.magnitude[u] = magnitude;
  });
  return result;
}

uint64_t betweenness_source_count(uint64_t n, uint64_t sources) {
  return sources == 0 || sources >= n ? n : sources;
}

std::vector<double> reference_betweenness(const CsrGraph& graph, VertexId first_source,
                                          uint64_t sources, bool endpoints) {
  require_vertex(graph, first_source);
  const CsrGraph simple = simple_topology(graph, /*symmetrize=*/false);
  const uint64_t n = simple.num_vertices();
  const uint64_t count = betweenness_source_count(n, sources);
  // Consecutive runs of sources, one per worker, each summed into its own
  // vector in source order; the vectors are added in run order.
  const uint64_t runs = std::min<uint64_t>(host_threads(), count);
  std::vector<std::vector<double>> partial(runs);
  parallel_tasks(runs, [&](uint64_t run, unsigned) {
    std::vector<double>& sum = partial[run];
    sum.assign(n, 0.0);
    BrandesAccumulator brandes(simple);
    for (uint64_t i = count * run / runs; i < count * (run + 1) / runs; ++i)
      brandes.add_source(static_cast<VertexId>((first_source + i) % n), sum, endpoints);
  });
  std::vector<double> centrality(n, 0.0);
  parallel_for(0, n, [&](uint64_t v) {
    for (const std::vector<double>& sum : partial) centrality[v] += sum[v];
  });
  return centrality;
}

std::vector<double> reference_jaccard(const UndirectedGraph& graph, VertexId source) {
  const CsrGraph& csr = graph.csr();
  require_vertex(csr, source);
  const VertexId* targets = csr.out_targets.data();
  const VertexId* source_begin = targets + csr.out_offsets[source];
  const VertexId* source_end = targets + csr.out_offsets[source + 1];
  std::vector<double> similarity(csr.num_vertices(), 0.0);
  parallel_for(0, csr.num_vertices(), [&](uint64_t v) {
    const uint64_t common =
        sorted_intersection_size(source_begin, source_end, targets + csr.out_offsets[v],
                                 targets + csr.out_offsets[v + 1]);
    const uint64_t union_size =
        csr.out_degree(source) + csr.out_degree(static_cast<VertexId>(v)) - common;
    similarity[v] = union_size == 0 ? 0.0 : double(common) / double(union_size);
  });
  return similarity;
}

}  // namespace irgl::check
