#include "irgl/graph/csr_graph.h"

#include <optional>
#include <stdexcept>
#include <string>

#include "irgl/graph/csr_build.h"
#include "irgl/support/parallel.h"
#include "load_progress.h"

namespace irgl {

const char* to_string(WeightType type) {
  switch (type) {
    case WeightType::none: return "none";
    case WeightType::int32: return "int32";
    case WeightType::float32: return "float32";
  }
  return "?";
}

void CsrGraph::check_weight_type(WeightType wanted) const {
  if (weight_type != wanted)
    throw std::logic_error(std::string("graph weights are ") +
                           to_string(weight_type) + ", not " + to_string(wanted));
}

void CsrGraph::build_transpose() {
  std::optional<progress::Phase> phase;
  phase.emplace("building the transpose", 2 * out_targets.size());  // count, scatter
  if (symmetric && sorted) {
    // Every edge's reverse is present with the same weight, so each vertex's
    // sorted in-list equals its sorted out-list.
    in_offsets = out_offsets;
    in_sources = out_targets;
    in_weights = out_weights;
    return;
  }
  in_offsets = count_to_offsets(count_occurrences(out_targets, num_vertices_));
  in_sources.assign(out_targets.size(), 0);
  if (has_weights()) in_weights.assign(out_targets.size(), 0);
  // Parallel scatter through atomic cursors; the order inside each in-list
  // depends on thread timing, so the lists are sorted afterwards to make the
  // result deterministic (sorted by source).
  std::vector<uint64_t> cursor(in_offsets.begin(), in_offsets.end() - 1);
  parallel_chunks(0, num_vertices_, [&](uint64_t lo, uint64_t hi, unsigned) {
    progress::Counter counter;
    for (uint64_t u = lo; u < hi; ++u) {
      counter.add(out_offsets[u + 1] - out_offsets[u]);
      for (uint64_t e = out_offsets[u]; e < out_offsets[u + 1]; ++e) {
        const uint64_t slot =
            __atomic_fetch_add(&cursor[out_targets[e]], 1, __ATOMIC_RELAXED);
        in_sources[slot] = static_cast<VertexId>(u);
        if (has_weights()) in_weights[slot] = out_weights[e];
      }
    }
  });
  phase.reset();
  const progress::Phase sorting("sorting the in-edge lists", out_targets.size());
  sort_adjacency_lists(in_offsets, in_sources, has_weights() ? &in_weights : nullptr,
                       weight_type);
}

void CsrGraph::drop_transpose() {
  in_offsets = {};
  in_sources = {};
  in_weights = {};
}

namespace {
void check_direction(const char* what, uint64_t n, const std::vector<uint64_t>& offsets,
                     const std::vector<VertexId>& neighbors,
                     const std::vector<uint32_t>& weights, bool weighted) {
  const std::string prefix = std::string(what) + ": ";
  if (offsets.size() != n + 1)
    throw std::logic_error(prefix + "offsets has " + std::to_string(offsets.size()) +
                           " entries, expected " + std::to_string(n + 1));
  if (offsets.front() != 0) throw std::logic_error(prefix + "offsets[0] is not 0");
  if (offsets.back() != neighbors.size())
    throw std::logic_error(prefix + "last offset " + std::to_string(offsets.back()) +
                           " differs from the edge count " +
                           std::to_string(neighbors.size()));
  for (uint64_t v = 0; v < n; ++v)
    if (offsets[v] > offsets[v + 1])
      throw std::logic_error(prefix + "offsets decrease at vertex " + std::to_string(v));
  for (uint64_t e = 0; e < neighbors.size(); ++e)
    if (neighbors[e] >= n)
      throw std::logic_error(prefix + "edge " + std::to_string(e) + " names vertex " +
                             std::to_string(neighbors[e]) + " >= " + std::to_string(n));
  // A weighted graph holds a weight per edge (none when it has no edge).
  if (weighted ? weights.size() != neighbors.size() : !weights.empty())
    throw std::logic_error(prefix + "weights array has the wrong size");
}
}  // namespace

void CsrGraph::validate() const {
  if (num_vertices_ > kMaxVertices)
    throw std::logic_error("more than 2^32-1 vertices");
  check_direction("out-edges", num_vertices_, out_offsets, out_targets, out_weights,
                  has_weights());
  if (has_transpose()) {
    check_direction("in-edges", num_vertices_, in_offsets, in_sources, in_weights,
                    has_weights());
    if (in_sources.size() != out_targets.size())
      throw std::logic_error("transpose has a different edge count");
  }
  if (renumbered()) {
    if (original_ids.size() != num_vertices_)
      throw std::logic_error("original_ids has " + std::to_string(original_ids.size()) +
                             " entries, expected " + std::to_string(num_vertices_));
    for (uint64_t v = 1; v < num_vertices_; ++v)
      if (original_ids[v] <= original_ids[v - 1])
        throw std::logic_error("original_ids do not increase at vertex " + std::to_string(v));
  }
}

}  // namespace irgl
