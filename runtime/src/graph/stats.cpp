#include "irgl/graph/stats.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "edge_parallel.h"
#include "irgl/graph/csr_build.h"
#include "irgl/support/parallel.h"

namespace irgl {

unsigned log2_bucket(uint64_t degree) {
  return degree == 0 ? 0 : 64 - static_cast<unsigned>(__builtin_clzll(degree));
}

void TopDegrees::merge(const TopDegrees& other) {
  for (uint64_t d = 0; d < kCap; ++d) count_of_[d] += other.count_of_[d];
  above_cap_.insert(above_cap_.end(), other.above_cap_.begin(), other.above_cap_.end());
}

double TopDegrees::share(uint64_t vertices, uint64_t edges, double fraction) {
  if (vertices == 0 || edges == 0) return 0;
  uint64_t left = std::max<uint64_t>(1, uint64_t(fraction * double(vertices)));
  uint64_t held = 0;
  const uint64_t listed = std::min<uint64_t>(left, above_cap_.size());
  std::nth_element(above_cap_.begin(), above_cap_.begin() + listed, above_cap_.end(),
                   std::greater<uint64_t>());
  for (uint64_t i = 0; i < listed; ++i) held += above_cap_[i];
  left -= listed;
  for (uint64_t d = kCap; d-- > 0 && left > 0;) {
    const uint64_t taken = std::min(left, count_of_[d]);
    held += taken * d;
    left -= taken;
  }
  return double(held) / double(edges);
}

namespace {

// Summarises degree(v) over all vertices, in parallel.
template <class Degree>
DegreeStats summarize_degrees(uint64_t n, uint64_t total, Degree&& degree) {
  struct Partial {
    uint64_t min = UINT64_MAX, max = 0, zero = 0;
    uint64_t max_vertex = UINT64_MAX;
    std::vector<uint64_t> histogram = std::vector<uint64_t>(65, 0);
    TopDegrees top;
  };
  std::vector<Partial> partials(parallel_chunk_count(0, n));
  parallel_chunks(0, n, [&](uint64_t lo, uint64_t hi, unsigned worker) {
    Partial& partial = partials[worker];
    for (uint64_t v = lo; v < hi; ++v) {
      const uint64_t d = degree(v);
      partial.min = std::min(partial.min, d);
      if (partial.max_vertex == UINT64_MAX || d > partial.max ||
          (d == partial.max && v < partial.max_vertex)) {
        partial.max = d;
        partial.max_vertex = v;
      }
      ++partial.histogram[log2_bucket(d)];
      partial.top.add(d);
    }
  });
  DegreeStats stats;
  if (n == 0) return stats;
  stats.min = UINT64_MAX;
  std::vector<uint64_t> histogram(65, 0);
  uint64_t max_vertex = UINT64_MAX;
  TopDegrees top;
  for (const Partial& partial : partials) {
    stats.min = std::min(stats.min, partial.min);
    top.merge(partial.top);
    if (partial.max_vertex == UINT64_MAX) continue;  // an empty chunk
    if (max_vertex == UINT64_MAX || partial.max > stats.max ||
        (partial.max == stats.max && partial.max_vertex < max_vertex)) {
      stats.max = partial.max;
      max_vertex = partial.max_vertex;
    }
    for (unsigned k = 0; k < histogram.size(); ++k) histogram[k] += partial.histogram[k];
  }
  stats.max_vertex = static_cast<VertexId>(max_vertex);
  stats.zero = histogram[0];
  stats.average = static_cast<double>(total) / static_cast<double>(n);
  stats.hub_share = top.share(n, total, kHubVertexFraction);
  histogram.resize(log2_bucket(stats.max) + 1);
  stats.log2_histogram = std::move(histogram);
  return stats;
}

uint64_t count_self_loops(const CsrGraph& graph) {
  std::vector<uint64_t> counts(parallel_chunk_count(0, graph.num_edges()), 0);
  parallel_for_edges(graph.out_offsets, [&](uint64_t v, uint64_t e, unsigned worker) {
    counts[worker] += graph.out_targets[e] == v;
  });
  uint64_t total = 0;
  for (uint64_t count : counts) total += count;
  return total;
}

// In-degrees from the transpose when there is one, otherwise counted.
std::vector<uint64_t> in_degrees(const CsrGraph& graph) {
  if (!graph.has_transpose()) return count_occurrences(graph.out_targets, graph.num_vertices());
  std::vector<uint64_t> degrees(graph.num_vertices());
  parallel_for(0, graph.num_vertices(),
               [&](uint64_t v) { degrees[v] = graph.in_degree(static_cast<VertexId>(v)); });
  return degrees;
}

// ---------------------------------------------------------------------------
// Union-find on a parent array shared by all threads. Roots are only ever
// linked below smaller ids, and path halving only moves a pointer to an
// ancestor, so concurrent finds and unions stay consistent.

VertexId find_root(std::vector<VertexId>& parent, VertexId x) {
  for (;;) {
    const VertexId p = __atomic_load_n(&parent[x], __ATOMIC_RELAXED);
    if (p == x) return x;
    const VertexId grandparent = __atomic_load_n(&parent[p], __ATOMIC_RELAXED);
    if (p != grandparent) __atomic_store_n(&parent[x], grandparent, __ATOMIC_RELAXED);
    x = grandparent;
  }
}

void unite(std::vector<VertexId>& parent, VertexId a, VertexId b) {
  for (;;) {
    VertexId root_a = find_root(parent, a), root_b = find_root(parent, b);
    if (root_a == root_b) return;
    if (root_a < root_b) std::swap(root_a, root_b);
    VertexId expected = root_a;
    if (__atomic_compare_exchange_n(&parent[root_a], &expected, root_b, false, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED))
      return;
  }
}

// ---------------------------------------------------------------------------
// BFS on the undirected view of a graph: out-edges plus in-edges (from the
// graph's transpose, or from an unsorted one built here), or out-edges alone
// when the graph is symmetric.

class UndirectedView {
 public:
  explicit UndirectedView(const CsrGraph& graph) : out_(graph.out()) {
    if (graph.symmetric) return;
    if (graph.has_transpose()) {
      in_ = graph.in();
      return;
    }
    std::vector<uint64_t> cursor = count_occurrences(graph.out_targets, graph.num_vertices());
    in_offsets_ = count_to_offsets(cursor);
    std::copy(in_offsets_.begin(), in_offsets_.end() - 1, cursor.begin());
    in_sources_.resize(graph.num_edges());
    parallel_for_edges(graph.out_offsets, [&](uint64_t v, uint64_t e, unsigned) {
      const uint64_t slot = __atomic_fetch_add(&cursor[graph.out_targets[e]], 1, __ATOMIC_RELAXED);
      in_sources_[slot] = static_cast<VertexId>(v);
    });
    in_ = Adjacency{in_offsets_.data(), in_sources_.data(), nullptr};
  }

  template <class Visit>
  void for_each_neighbor(VertexId v, Visit&& visit) const {
    for (uint64_t e = out_.begin(v); e < out_.end(v); ++e) visit(out_.neighbors[e]);
    if (in_.offsets)
      for (uint64_t e = in_.begin(v); e < in_.end(v); ++e) visit(in_.neighbors[e]);
  }

 private:
  Adjacency out_;
  Adjacency in_;  // offsets stay null for symmetric graphs
  std::vector<uint64_t> in_offsets_;
  std::vector<VertexId> in_sources_;
};

constexpr uint32_t kUnreached = UINT32_MAX;

struct BfsResult {
  uint64_t eccentricity = 0;
  VertexId farthest = kNoVertex;  // smallest id at the largest distance
};

// Level-synchronous BFS; each level's frontier is split among the threads,
// which claim unvisited vertices with a compare-and-swap.
BfsResult breadth_first(const UndirectedView& view, std::vector<uint32_t>& distance,
                        VertexId start) {
  std::fill(distance.begin(), distance.end(), kUnreached);
  std::vector<VertexId> frontier{start};
  distance[start] = 0;
  BfsResult result{0, start};
  for (uint32_t level = 1;; ++level) {
    std::vector<std::vector<VertexId>> found(parallel_chunk_count(0, frontier.size()));
    parallel_chunks(0, frontier.size(), [&](uint64_t lo, uint64_t hi, unsigned worker) {
      for (uint64_t i = lo; i < hi; ++i)
        view.for_each_neighbor(frontier[i], [&](VertexId w) {
          uint32_t unreached = kUnreached;
          if (__atomic_load_n(&distance[w], __ATOMIC_RELAXED) == kUnreached &&
              __atomic_compare_exchange_n(&distance[w], &unreached, level, false, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED))
            found[worker].push_back(w);
        });
    });
    frontier.clear();
    for (const auto& part : found) frontier.insert(frontier.end(), part.begin(), part.end());
    if (frontier.empty()) return result;
    result = {level, *std::min_element(frontier.begin(), frontier.end())};
  }
}

// The vertex of the largest component with the highest total degree.
VertexId hub_of_component(const CsrGraph& graph, const Components& components,
                          const std::vector<uint64_t>& in_degree) {
  const uint64_t n = graph.num_vertices();
  std::vector<VertexId> best(parallel_chunk_count(0, n), kNoVertex);
  auto degree = [&](uint64_t v) {
    return graph.out_degree(static_cast<VertexId>(v)) + in_degree[v];
  };
  parallel_chunks(0, n, [&](uint64_t lo, uint64_t hi, unsigned worker) {
    for (uint64_t v = lo; v < hi; ++v)
      if (components.label[v] == components.largest &&
          (best[worker] == kNoVertex || degree(v) > degree(best[worker])))
        best[worker] = static_cast<VertexId>(v);
  });
  VertexId hub = kNoVertex;
  for (VertexId candidate : best)  // workers in id order: ties keep the smaller id
    if (candidate != kNoVertex && (hub == kNoVertex || degree(candidate) > degree(hub)))
      hub = candidate;
  return hub;
}

uint64_t csr_bytes(const CsrGraph& graph) {
  return 8 * (graph.out_offsets.size() + graph.in_offsets.size()) +
         4 * (graph.out_targets.size() + graph.out_weights.size() + graph.in_sources.size() +
              graph.in_weights.size());
}

}  // namespace

Components weakly_connected_components(const CsrGraph& graph) {
  const uint64_t n = graph.num_vertices();
  Components components;
  std::vector<VertexId>& parent = components.label;
  parent.resize(n);
  parallel_for(0, n, [&](uint64_t v) { parent[v] = static_cast<VertexId>(v); });
  parallel_for_edges(graph.out_offsets, [&](uint64_t v, uint64_t e, unsigned) {
    if (graph.out_targets[e] != v) unite(parent, static_cast<VertexId>(v), graph.out_targets[e]);
  });
  // Roots are the smallest ids of their trees; flatten every path to them.
  parallel_for(0, n, [&](uint64_t v) {
    __atomic_store_n(&parent[v], find_root(parent, static_cast<VertexId>(v)), __ATOMIC_RELAXED);
  });
  const std::vector<uint64_t> sizes = count_occurrences(parent, n);
  for (uint64_t v = 0; v < n; ++v) {
    if (sizes[v] == 0) continue;
    ++components.count;
    if (sizes[v] > components.largest_size) {
      components.largest_size = sizes[v];
      components.largest = static_cast<VertexId>(v);
    }
  }
  return components;
}

DiameterBound approximate_diameter(const CsrGraph& graph, VertexId start, unsigned max_sweeps) {
  const UndirectedView view(graph);
  std::vector<uint32_t> distance(graph.num_vertices());
  DiameterBound bound;
  VertexId from = start;
  while (bound.sweeps < std::max(max_sweeps, 1u)) {
    const BfsResult bfs = breadth_first(view, distance, from);
    ++bound.sweeps;
    if (bound.sweeps > 1 && bfs.eccentricity <= bound.lower_bound) break;
    bound = {bfs.eccentricity, bound.sweeps, from, bfs.farthest};
    from = bfs.farthest;
  }
  return bound;
}

GraphStats compute_stats(const CsrGraph& graph, const StatsOptions& options) {
  GraphStats stats;
  const uint64_t n = graph.num_vertices();
  stats.name = graph.name;
  stats.vertices = n;
  stats.edges = graph.num_edges();
  stats.weight_type = graph.weight_type;
  stats.symmetric = graph.symmetric;
  stats.sorted = graph.sorted;
  stats.has_transpose = graph.has_transpose();
  stats.memory_bytes = csr_bytes(graph);
  stats.self_loops = count_self_loops(graph);
  stats.out_degree = summarize_degrees(
      n, stats.edges, [&](uint64_t v) { return graph.out_degree(static_cast<VertexId>(v)); });
  const std::vector<uint64_t> in_degree = in_degrees(graph);
  stats.in_degree = summarize_degrees(n, stats.edges, [&](uint64_t v) { return in_degree[v]; });

  const Components components = weakly_connected_components(graph);
  stats.components = components.count;
  stats.largest_component = components.largest_size;
  if (options.diameter && n > 0) {
    stats.has_diameter = true;
    stats.diameter = approximate_diameter(graph, hub_of_component(graph, components, in_degree),
                                          options.max_sweeps);
  }
  return stats;
}

// ---------------------------------------------------------------------------
// Printing

namespace {

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

std::string bucket_label(unsigned k) {
  if (k <= 1) return std::to_string(k);
  const uint64_t lo = uint64_t(1) << (k - 1);
  return std::to_string(lo) + "-" + std::to_string(2 * lo - 1);
}

void print_degree_line(std::ostream& out, const char* label, const DegreeStats& d) {
  out << label << ": min " << d.min << ", max " << d.max << ", avg " << format("%.2f", d.average)
      << ", zero " << d.zero << ", max at vertex " << d.max_vertex << ", top 1% hold "
      << format("%.2f", d.hub_share) << " of the edges\n";
}

using Json = nlohmann::ordered_json;  // keeps the fields in the order written

Json degree_json(const DegreeStats& d) {
  Json json;
  json["min"] = d.min;
  json["max"] = d.max;
  json["avg"] = std::stod(format("%.6g", d.average));  // 6 significant digits, as in text
  json["zero"] = d.zero;
  json["max_vertex"] = d.max_vertex;
  json["hub_share"] = std::stod(format("%.6g", d.hub_share));
  json["log2_histogram"] = d.log2_histogram;
  return json;
}

Json stats_json(const GraphStats& s) {
  Json json;
  json["graph"] = s.name;
  json["vertices"] = s.vertices;
  json["edges"] = s.edges;
  json["self_loops"] = s.self_loops;
  json["weights"] = to_string(s.weight_type);
  json["symmetric"] = s.symmetric;
  json["sorted"] = s.sorted;
  json["transpose"] = s.has_transpose;
  json["csr_bytes"] = s.memory_bytes;
  json["out_degree"] = degree_json(s.out_degree);
  json["in_degree"] = degree_json(s.in_degree);
  json["components"] = s.components;
  json["largest_component"] = s.largest_component;
  json["diameter"] = nullptr;
  if (s.has_diameter)
    json["diameter"] = Json{{"lower_bound", s.diameter.lower_bound},
                            {"sweeps", s.diameter.sweeps},
                            {"from", s.diameter.from},
                            {"to", s.diameter.to}};
  return json;
}

const char* yes_no(bool value) { return value ? "yes" : "no"; }

}  // namespace

void print_stats_text(std::ostream& out, const GraphStats& s) {
  out << "graph: " << s.name << '\n'
      << "vertices: " << s.vertices << '\n'
      << "edges: " << s.edges << '\n'
      << "self-loops: " << s.self_loops << '\n'
      << "weights: " << to_string(s.weight_type) << '\n'
      << "symmetric: " << yes_no(s.symmetric) << '\n'
      << "sorted: " << yes_no(s.sorted) << '\n'
      << "transpose: " << yes_no(s.has_transpose) << '\n'
      << "csr size: " << format("%.3f", s.memory_bytes / 1e9) << " GB (" << s.memory_bytes
      << " bytes)\n";
  print_degree_line(out, "out-degree", s.out_degree);
  print_degree_line(out, "in-degree", s.in_degree);
  out << "components: " << s.components << " (largest " << s.largest_component << " vertices)\n";
  if (s.has_diameter)
    out << "diameter: >= " << s.diameter.lower_bound << " (largest component, " << s.diameter.sweeps
        << " BFS sweeps, " << s.diameter.from << " to " << s.diameter.to << ")\n";
  out << "degree histogram:\n";
  char line[96];
  std::snprintf(line, sizeof line, "  %-23s %12s %12s\n", "degree", "out", "in");
  out << line;
  const size_t buckets =
      std::max(s.out_degree.log2_histogram.size(), s.in_degree.log2_histogram.size());
  auto count = [](const DegreeStats& d, size_t k) {
    return k < d.log2_histogram.size() ? d.log2_histogram[k] : 0;
  };
  for (size_t k = 0; k < buckets; ++k) {
    std::snprintf(line, sizeof line, "  %-23s %12" PRIu64 " %12" PRIu64 "\n",
                  bucket_label(static_cast<unsigned>(k)).c_str(), count(s.out_degree, k),
                  count(s.in_degree, k));
    out << line;
  }
}

void print_stats_json(std::ostream& out, const GraphStats& stats) {
  // Names that are not UTF-8 (paths are bytes) get U+FFFD instead of failing.
  out << stats_json(stats).dump(-1, ' ', false, Json::error_handler_t::replace);
}

void print_stats_json(std::ostream& out, const std::vector<GraphStats>& all) {
  out << '[';
  for (size_t i = 0; i < all.size(); ++i) {
    out << (i ? ",\n " : "");
    print_stats_json(out, all[i]);
  }
  out << "]\n";
}

}  // namespace irgl
