#include "irgl/graph/edge_list.h"

#include <cmath>
#include <cstring>
#include <sstream>

#include "irgl/graph/csr_build.h"
#include "irgl/support/error.h"
#include "irgl/support/parallel.h"

namespace irgl {

void EdgeList::reserve(uint64_t edges, bool weighted) {
  sources.reserve(edges);
  targets.reserve(edges);
  if (weighted) weights.reserve(edges);
}

uint32_t hashed_weight(VertexId u, VertexId v, uint32_t max, uint64_t seed) {
  // splitmix64 of the unordered pair, so (u,v) and (v,u) weigh the same.
  uint64_t x = (uint64_t(std::min(u, v)) << 32 | std::max(u, v)) ^
               (seed * 0x9e3779b97f4a7c15ull);
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  x ^= x >> 31;
  return 1 + static_cast<uint32_t>(x % std::max<uint32_t>(max, 1));
}

namespace {

uint32_t int_word(int32_t value) {
  uint32_t word;
  std::memcpy(&word, &value, 4);
  return word;
}

float word_float(uint32_t word) {
  float value;
  std::memcpy(&value, &word, 4);
  return value;
}

uint32_t float_word(float value) {
  uint32_t word;
  std::memcpy(&word, &value, 4);
  return word;
}

// Replaces or converts the weights of `edges` as `rule` says.
void apply_weight_rule(EdgeList& edges, const WeightRule& rule) {
  using Source = WeightRule::Source;
  switch (rule.source) {
    case Source::none:
      edges.weights = {};
      edges.weight_type = WeightType::none;
      return;
    case Source::unit:
      edges.weights.assign(edges.size(), int_word(1));
      edges.weight_type = WeightType::int32;
      break;
    case Source::hash:
      edges.weights.resize(edges.size());
      parallel_for(0, edges.size(), [&](uint64_t e) {
        edges.weights[e] = hashed_weight(edges.sources[e], edges.targets[e], rule.max, rule.seed);
      });
      edges.weight_type = WeightType::int32;
      break;
    case Source::file:
      break;
  }
  if (rule.convert_to == WeightType::none || edges.weight_type == WeightType::none ||
      rule.convert_to == edges.weight_type)
    return;
  if (rule.convert_to == WeightType::float32) {  // int32 -> float32
    parallel_for(0, edges.size(), [&](uint64_t e) {
      int32_t value;
      std::memcpy(&value, &edges.weights[e], 4);
      edges.weights[e] = float_word(static_cast<float>(value));
    });
  } else {  // float32 -> int32, only when exact
    for (uint64_t e = 0; e < edges.size(); ++e) {
      const float value = word_float(edges.weights[e]);
      if (!(std::nearbyint(value) == value && std::fabs(value) < 2147483648.0f)) {
        std::ostringstream problem;
        problem << "weight " << value << " of edge " << e + 1 << " (" << edges.sources[e]
                << " -> " << edges.targets[e]
                << ") is not an int32; load the weights as floats instead";
        throw InputError::in(edges.name, problem.str());
      }
      edges.weights[e] = int_word(static_cast<int32_t>(value));
    }
  }
  edges.weight_type = rule.convert_to;
}

}  // namespace

CsrGraph build_csr(EdgeList&& edges, const BuildOptions& options) {
  apply_weight_rule(edges, options.weights);
  const bool weighted = edges.weight_type != WeightType::none;
  const uint64_t n = edges.num_vertices;
  const uint64_t m = edges.size();

  // Edge i < m is (sources[i], targets[i]); with symmetrize, edge m + i is its
  // reverse. Self-loops are never mirrored, and dropped if asked.
  const bool mirror = options.symmetrize;
  auto keep = [&](uint64_t i) {
    const uint64_t e = i < m ? i : i - m;
    if (edges.sources[e] != edges.targets[e]) return true;
    return !options.drop_self_loops && i < m;
  };
  auto source_of = [&](uint64_t i) { return i < m ? edges.sources[i] : edges.targets[i - m]; };
  auto target_of = [&](uint64_t i) { return i < m ? edges.targets[i] : edges.sources[i - m]; };
  const uint64_t virtual_edges = mirror ? 2 * m : m;

  std::vector<uint64_t> degrees(n, 0);
  parallel_chunks(0, virtual_edges, [&](uint64_t lo, uint64_t hi, unsigned) {
    for (uint64_t i = lo; i < hi; ++i)
      if (keep(i)) __atomic_fetch_add(&degrees[source_of(i)], 1, __ATOMIC_RELAXED);
  });

  CsrGraph graph;
  graph.name = edges.name;
  graph.set_num_vertices(n);
  graph.weight_type = edges.weight_type;
  graph.symmetric = edges.symmetric || mirror;
  graph.out_offsets = count_to_offsets(degrees);
  degrees = {};
  const uint64_t kept = graph.out_offsets.back();
  graph.out_targets.resize(kept);
  if (weighted) graph.out_weights.resize(kept);

  std::vector<uint64_t> cursor(graph.out_offsets.begin(), graph.out_offsets.end() - 1);
  auto place = [&](uint64_t i, uint64_t slot) {
    graph.out_targets[slot] = target_of(i);
    if (weighted) graph.out_weights[slot] = edges.weights[i < m ? i : i - m];
  };
  if (options.sort_adjacency) {
    // Parallel scatter; the sort below makes the order deterministic.
    parallel_chunks(0, virtual_edges, [&](uint64_t lo, uint64_t hi, unsigned) {
      for (uint64_t i = lo; i < hi; ++i)
        if (keep(i)) place(i, __atomic_fetch_add(&cursor[source_of(i)], 1, __ATOMIC_RELAXED));
    });
  } else {
    // Serial scatter keeps each list in input order.
    for (uint64_t i = 0; i < virtual_edges; ++i)
      if (keep(i)) place(i, cursor[source_of(i)]++);
  }
  cursor = {};
  edges = EdgeList{};

  if (options.sort_adjacency) {
    sort_adjacency_lists(graph.out_offsets, graph.out_targets,
                         weighted ? &graph.out_weights : nullptr, graph.weight_type);
    graph.sorted = true;
  }
  if (options.drop_duplicates) {
    if (!graph.sorted)
      sort_adjacency_lists(graph.out_offsets, graph.out_targets,
                           weighted ? &graph.out_weights : nullptr, graph.weight_type);
    remove_duplicate_neighbors(graph.out_offsets, graph.out_targets,
                               weighted ? &graph.out_weights : nullptr);
    graph.sorted = true;
  }
  if (options.transpose) graph.build_transpose();
  return graph;
}

CsrGraph rebuild(CsrGraph&& graph, const BuildOptions& options) {
  const bool weights_unchanged = options.weights.source == WeightRule::Source::file &&
                                 (options.weights.convert_to == WeightType::none ||
                                  options.weights.convert_to == graph.weight_type);
  const bool structure_unchanged = !options.symmetrize && !options.drop_self_loops &&
                                   !options.drop_duplicates &&
                                   (graph.sorted || !options.sort_adjacency);
  if (weights_unchanged && structure_unchanged) {
    if (options.transpose && !graph.has_transpose()) graph.build_transpose();
    if (!options.transpose && graph.has_transpose()) graph.drop_transpose();
    return std::move(graph);
  }
  // Expand back to an edge list and build again.
  EdgeList edges;
  edges.name = graph.name;
  edges.num_vertices = graph.num_vertices();
  edges.symmetric = graph.symmetric;
  edges.weight_type = graph.weight_type;
  edges.sources.resize(graph.num_edges());
  parallel_for(0, graph.num_vertices(), [&](uint64_t v) {
    for (uint64_t e = graph.out_offsets[v]; e < graph.out_offsets[v + 1]; ++e)
      edges.sources[e] = static_cast<VertexId>(v);
  });
  edges.targets = std::move(graph.out_targets);
  edges.weights = std::move(graph.out_weights);
  graph = CsrGraph{};
  return build_csr(std::move(edges), options);
}

}  // namespace irgl
