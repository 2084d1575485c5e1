#include "irgl/graph/edge_list.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <sstream>

#include "irgl/graph/csr_build.h"
#include "irgl/support/error.h"
#include "irgl/support/parallel.h"
#include "load_progress.h"

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
    case Source::hash: {
      // On the input's ids, so that renumbering changes no weight.
      const std::vector<VertexId>& original = edges.original_ids;
      auto id = [&](VertexId v) { return original.empty() ? v : original[v]; };
      const progress::Phase phase("computing hash weights", edges.size());
      edges.weights.resize(edges.size());
      parallel_chunks(0, edges.size(), [&](uint64_t lo, uint64_t hi, unsigned) {
        progress::Counter counter;
        for (uint64_t e = lo; e < hi; ++e) {
          counter.add();
          edges.weights[e] =
              hashed_weight(id(edges.sources[e]), id(edges.targets[e]), rule.max, rule.seed);
        }
      });
      edges.weight_type = WeightType::int32;
      break;
    }
    case Source::file:
      break;
  }
  if (rule.convert_to == WeightType::none || edges.weight_type == WeightType::none ||
      rule.convert_to == edges.weight_type)
    return;
  const progress::Phase phase("converting the weights", edges.size());
  if (rule.convert_to == WeightType::float32) {  // int32 -> float32
    parallel_for(0, edges.size(), [&](uint64_t e) {
      int32_t value;
      std::memcpy(&value, &edges.weights[e], 4);
      edges.weights[e] = float_word(static_cast<float>(value));
    });
  } else {  // float32 -> int32, only when exact
    progress::Counter counter;
    for (uint64_t e = 0; e < edges.size(); ++e) {
      counter.add();
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

// ---------------------------------------------------------------------------
// The scatter from edge list to CSR, without atomics and stable (each list
// keeps the input order), in two cache-friendly passes:
//   1. partition the edges by source bucket (2^bits consecutive source ids)
//      into a temporary array, each worker writing its own slots;
//   2. per bucket, in parallel: count degrees, write the bucket's offsets and
//      place its edges, all within a small range of vertices and edges.
// The temporary array holds 6 bytes per edge (plus the weight): the target,
// and the source as an offset within its bucket, so bits <= 16.

// The edges build_csr() places: the input's, then with symmetrize their
// reverses. Self-loops are never mirrored, and dropped if asked.
struct VirtualEdges {
  const EdgeList& edges;
  bool mirror;
  bool drop_self_loops;

  uint64_t size() const { return mirror ? 2 * edges.size() : edges.size(); }

  // Calls visit(source, target, input_index) for the kept edges among
  // virtual indices [lo, hi), in order.
  template <class Visit>
  void for_each(uint64_t lo, uint64_t hi, Visit&& visit) const {
    const uint64_t m = edges.size();
    const VertexId* sources = edges.sources.data();
    const VertexId* targets = edges.targets.data();
    for (uint64_t i = lo; i < std::min(hi, m); ++i)
      if (!drop_self_loops || sources[i] != targets[i]) visit(sources[i], targets[i], i);
    for (uint64_t i = std::max(lo, m); i < hi; ++i)
      if (sources[i - m] != targets[i - m]) visit(targets[i - m], sources[i - m], i - m);
  }
};

// Source buckets: bucket b holds sources [b << bits, (b + 1) << bits).
struct Buckets {
  unsigned bits;
  uint64_t count;
};

// Enough buckets for every worker to get many, small enough that a bucket's
// counters and edges stay in cache (about 2^17 edges), and at most 2^16
// vertices each.
Buckets choose_buckets(uint64_t n, uint64_t edges) {
  auto floor_log2 = [](uint64_t x) { return x <= 1 ? 0u : 63u - unsigned(__builtin_clzll(x)); };
  const unsigned balance_bits = floor_log2(n / (16 * uint64_t(host_threads())));
  const unsigned degree_bits = floor_log2(edges / std::max<uint64_t>(n, 1));
  const unsigned cache_bits = degree_bits >= 17 ? 0 : 17 - degree_bits;
  const unsigned bits = std::min({balance_bits, cache_bits, 16u});
  return {bits, (n + (uint64_t(1) << bits) - 1) >> bits};
}

struct PartitionedEdges {
  std::vector<uint64_t> bucket_start;  // buckets + 1 entries
  std::vector<uint16_t> local_source;  // source - (bucket << bits)
  std::vector<VertexId> target;
  std::vector<uint32_t> weight;  // empty when unweighted
};

PartitionedEdges partition_by_source(const VirtualEdges& virtual_edges, const Buckets& buckets,
                                     bool weighted) {
  const uint64_t total = virtual_edges.size();
  const unsigned workers = parallel_chunk_count(0, total);
  const uint64_t mask = (uint64_t(1) << buckets.bits) - 1;
  // slots[w * buckets + b]: first the number of edges of worker w's chunk in
  // bucket b, then the slot where that worker writes its next such edge.
  std::vector<uint64_t> slots(uint64_t(workers) * buckets.count, 0);
  parallel_chunks(0, total, [&](uint64_t lo, uint64_t hi, unsigned w) {
    uint64_t* counts = &slots[uint64_t(w) * buckets.count];
    progress::Counter counter;
    virtual_edges.for_each(lo, hi, [&](VertexId u, VertexId, uint64_t) {
      ++counts[u >> buckets.bits];
      counter.add();
    });
  });
  PartitionedEdges parts;
  parts.bucket_start.assign(buckets.count + 1, 0);
  uint64_t running = 0;
  for (uint64_t b = 0; b < buckets.count; ++b) {
    parts.bucket_start[b] = running;
    for (unsigned w = 0; w < workers; ++w) {
      const uint64_t count = slots[uint64_t(w) * buckets.count + b];
      slots[uint64_t(w) * buckets.count + b] = running;
      running += count;
    }
  }
  parts.bucket_start[buckets.count] = running;
  parts.local_source.resize(running);
  parts.target.resize(running);
  if (weighted) parts.weight.resize(running);
  const uint32_t* weights = virtual_edges.edges.weights.data();
  parallel_chunks(0, total, [&](uint64_t lo, uint64_t hi, unsigned w) {
    uint64_t* next = &slots[uint64_t(w) * buckets.count];
    progress::Counter counter;
    virtual_edges.for_each(lo, hi, [&](VertexId u, VertexId v, uint64_t input) {
      counter.add();
      const uint64_t slot = next[u >> buckets.bits]++;
      parts.local_source[slot] = static_cast<uint16_t>(u & mask);
      parts.target[slot] = v;
      if (weighted) parts.weight[slot] = weights[input];
    });
  });
  return parts;
}

// Fills the graph's offsets, targets and weights from the partitioned edges,
// bucket by bucket.
void place_buckets(const PartitionedEdges& parts, const Buckets& buckets, CsrGraph& graph) {
  const uint64_t n = graph.num_vertices();
  const bool weighted = !parts.weight.empty();
  graph.out_offsets.assign(n + 1, 0);
  graph.out_targets.resize(parts.target.size());
  if (weighted) graph.out_weights.resize(parts.target.size());
  std::vector<std::vector<uint64_t>> cursors(host_threads());
  parallel_tasks(buckets.count, [&](uint64_t b, unsigned worker) {
    const uint64_t first_vertex = b << buckets.bits;
    const uint64_t vertices = std::min(n - first_vertex, uint64_t(1) << buckets.bits);
    const uint64_t begin = parts.bucket_start[b], end = parts.bucket_start[b + 1];
    std::vector<uint64_t>& cursor = cursors[worker];
    cursor.assign(vertices, 0);
    for (uint64_t e = begin; e < end; ++e) ++cursor[parts.local_source[e]];
    uint64_t running = begin;
    for (uint64_t v = 0; v < vertices; ++v) {
      const uint64_t degree = cursor[v];
      graph.out_offsets[first_vertex + v] = cursor[v] = running;
      running += degree;
    }
    for (uint64_t e = begin; e < end; ++e) {
      const uint64_t slot = cursor[parts.local_source[e]]++;
      graph.out_targets[slot] = parts.target[e];
      if (weighted) graph.out_weights[slot] = parts.weight[e];
    }
    progress::advance(end - begin);
  });
  graph.out_offsets[n] = parts.target.size();
}

}  // namespace

CsrGraph build_csr(EdgeList&& edges, const BuildOptions& options) {
  apply_weight_rule(edges, options.weights);
  if (options.renumber) {
    const progress::Phase phase("renumbering the vertex ids", 4 * edges.size());
    renumber_vertices(edges);
  }
  const bool weighted = edges.weight_type != WeightType::none;

  CsrGraph graph;
  graph.name = edges.name;
  graph.set_num_vertices(edges.num_vertices);
  graph.weight_type = edges.weight_type;
  graph.symmetric = edges.symmetric || options.symmetrize;
  graph.original_ids = std::move(edges.original_ids);

  // Edges that are already symmetric (a symmetric MatrixMarket file, a
  // graph symmetrized before) list both directions: mirroring them again
  // would count each edge twice beside the self-loops.
  const bool mirror = options.symmetrize && !edges.symmetric;
  const VirtualEdges virtual_edges{edges, mirror, options.drop_self_loops};
  {
    // Counting, scattering and placing: each edge three times.
    const progress::Phase phase(
        mirror ? "symmetrizing and building the CSR" : "building the CSR",
        3 * virtual_edges.size());
    const Buckets buckets = choose_buckets(edges.num_vertices, virtual_edges.size());
    PartitionedEdges parts = partition_by_source(virtual_edges, buckets, weighted);
    edges = EdgeList{};
    place_buckets(parts, buckets, graph);
  }

  if (options.sort_adjacency || options.drop_duplicates) {
    const progress::Phase phase("sorting adjacency lists", graph.num_edges());
    sort_adjacency_lists(graph.out_offsets, graph.out_targets,
                         weighted ? &graph.out_weights : nullptr, graph.weight_type);
    graph.sorted = true;
  }
  if (options.drop_duplicates) {
    // Two passes over the edges.
    const progress::Phase phase("removing duplicate edges", 2 * graph.num_edges());
    remove_duplicate_neighbors(graph.out_offsets, graph.out_targets,
                               weighted ? &graph.out_weights : nullptr);
  }
  if (options.transpose) graph.build_transpose();
  return graph;
}

bool rebuild_keeps(WeightType weight_type, bool sorted, const BuildOptions& options) {
  const bool weights_unchanged = options.weights.source == WeightRule::Source::file &&
                                 (options.weights.convert_to == WeightType::none ||
                                  options.weights.convert_to == weight_type);
  const bool structure_unchanged = !options.symmetrize && !options.drop_self_loops &&
                                   !options.drop_duplicates && !options.renumber &&
                                   (sorted || !options.sort_adjacency);
  return weights_unchanged && structure_unchanged;
}

CsrGraph rebuild(CsrGraph&& graph, const BuildOptions& options) {
  if (rebuild_keeps(graph.weight_type, graph.sorted, options)) {
    if (options.transpose && !graph.has_transpose()) graph.build_transpose();
    if (!options.transpose && graph.has_transpose()) graph.drop_transpose();
    return std::move(graph);
  }
  // Expand back to an edge list and build again.
  std::optional<progress::Phase> phase;
  phase.emplace("expanding the graph to an edge list", graph.num_edges());
  EdgeList edges;
  edges.name = graph.name;
  edges.num_vertices = graph.num_vertices();
  edges.symmetric = graph.symmetric;
  edges.weight_type = graph.weight_type;
  edges.sources.resize(graph.num_edges());
  parallel_chunks(0, graph.num_vertices(), [&](uint64_t lo, uint64_t hi, unsigned) {
    progress::Counter counter;
    for (uint64_t v = lo; v < hi; ++v) {
      counter.add(graph.out_offsets[v + 1] - graph.out_offsets[v]);
      for (uint64_t e = graph.out_offsets[v]; e < graph.out_offsets[v + 1]; ++e)
        edges.sources[e] = static_cast<VertexId>(v);
    }
  });
  edges.targets = std::move(graph.out_targets);
  edges.weights = std::move(graph.out_weights);
  edges.original_ids = std::move(graph.original_ids);
  graph = CsrGraph{};
  phase.reset();
  return build_csr(std::move(edges), options);
}

}  // namespace irgl
