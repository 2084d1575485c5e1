// One GPU's share of a graph, in global ids (irgl/graph/part_view.h).
#include "irgl/graph/part_view.h"

#include <algorithm>
#include <limits>
#include <string>

#include "irgl/support/error.h"
#include "irgl/support/parallel.h"

namespace irgl {

namespace {

// Offsets from per-vertex counts stored at offsets[v + 1].
void prefix_sum(std::vector<uint64_t>& offsets) {
  for (size_t v = 1; v < offsets.size(); ++v) offsets[v] += offsets[v - 1];
}

// The out-edges whose part is options.part, over all vertices.
void build_out_edges(const GraphArrays& graph, const PartViewOptions& options,
                     const MasterBlocks& masters, const PartGrid& grid, CsrGraph& part) {
  const Adjacency& out = graph.out;
  const uint64_t n = graph.vertices;
  auto here = [&](VertexId u, uint64_t e) {
    return edge_part(options.policy, masters, grid, u, out.neighbors[e]) == options.part;
  };
  part.out_offsets.assign(n + 1, 0);
  parallel_for(0, n, [&](uint64_t u) {
    uint64_t count = 0;
    for (uint64_t e = out.begin(u); e < out.end(u); ++e) count += here(u, e);
    part.out_offsets[u + 1] = count;
  });
  prefix_sum(part.out_offsets);
  part.out_targets.resize(part.out_offsets[n]);
  if (graph.has_weights()) part.out_weights.resize(part.out_offsets[n]);
  parallel_for(0, n, [&](uint64_t u) {
    uint64_t slot = part.out_offsets[u];
    for (uint64_t e = out.begin(u); e < out.end(u); ++e) {
      if (!here(u, e)) continue;
      part.out_targets[slot] = out.neighbors[e];
      if (graph.has_weights()) part.out_weights[slot] = out.weight_words[e];
      ++slot;
    }
  });
}

// Every in-edge of the masters [first, end), none of other vertices.
void build_master_in_edges(const GraphArrays& graph, VertexId first, VertexId end,
                           CsrGraph& part) {
  const Adjacency& in = graph.in;
  const uint64_t n = graph.vertices;
  part.in_offsets.assign(n + 1, 0);
  for (uint64_t v = first; v < end; ++v) part.in_offsets[v + 1] = in.degree(v);
  prefix_sum(part.in_offsets);
  if (end == first) return;
  const uint64_t begin = in.begin(first), count = in.end(end - 1) - begin;
  part.in_sources.assign(in.neighbors + begin, in.neighbors + begin + count);
  if (graph.has_weights())
    part.in_weights.assign(in.weight_words + begin, in.weight_words + begin + count);
}

}  // namespace

void check_part_options(const PartViewOptions& options, uint64_t vertices) {
  if (options.parts == 0 || options.parts > vertices)
    throw InputError::in("--gpus", std::to_string(options.parts) + " parts of a graph of " +
                                       std::to_string(vertices) +
                                       " vertices: each part needs at least one vertex");
  if (options.part >= options.parts)
    throw InputError::in("part", std::to_string(options.part) + " is not below the " +
                                     std::to_string(options.parts) + " parts");
}

uint32_t checked_degree(const std::string& graph, uint64_t v, uint64_t degree) {
  if (degree > std::numeric_limits<uint32_t>::max())
    throw InputError::in(graph, "vertex " + std::to_string(v) +
                                    " has more out-edges than a multi-GPU run counts (" +
                                    std::to_string(degree) + ")");
  return static_cast<uint32_t>(degree);
}

PartView empty_part_view(const std::string& graph, const PartViewOptions& options,
                         const MasterBlocks& masters) {
  PartView view;
  view.part = options.part;
  view.parts = options.parts;
  view.policy = options.policy;
  view.first_masters = masters.first;
  view.first_master = masters.first[options.part];
  view.end_master = masters.first[options.part + 1];
  view.graph.name = graph + " part " + std::to_string(options.part) + " of " +
                    std::to_string(options.parts) + " (" + to_string(options.policy) + ")";
  return view;
}

void list_mirrors(PartView& view, const MasterBlocks& masters) {
  const CsrGraph& part = view.graph;
  const uint64_t n = part.num_vertices();
  std::vector<uint8_t> touched(n, 0);
  const auto touch = [&](VertexId v) { __atomic_store_n(&touched[v], 1, __ATOMIC_RELAXED); };
  parallel_for(0, n, [&](uint64_t u) {
    if (part.out_offsets[u + 1] != part.out_offsets[u]) touch(static_cast<VertexId>(u));
  });
  parallel_for(0, part.out_targets.size(), [&](uint64_t e) { touch(part.out_targets[e]); });
  parallel_for(0, part.in_sources.size(), [&](uint64_t e) { touch(part.in_sources[e]); });
  view.mirrors.assign(view.parts, {});
  for (uint64_t v = 0; v < n; ++v)
    if (touched[v] && (v < view.first_master || v >= view.end_master))
      view.mirrors[masters.owner(static_cast<VertexId>(v))].push_back(static_cast<VertexId>(v));
}

unsigned PartView::owner(VertexId v) const {
  return static_cast<unsigned>(
      std::upper_bound(first_masters.begin(), first_masters.end(), v) - first_masters.begin() - 1);
}

uint64_t PartView::mirror_count() const {
  uint64_t count = 0;
  for (const auto& list : mirrors) count += list.size();
  return count;
}

PartView build_part_view(const CsrGraph& graph, const PartViewOptions& options) {
  return build_part_view(arrays_of(graph), options);
}

PartView build_part_view(const GraphArrays& graph, const PartViewOptions& options) {
  const uint64_t n = graph.vertices;
  check_part_options(options, n);
  if (options.in_edges && !graph.has_transpose())
    throw std::logic_error("build_part_view: in-edges asked for, but the graph has no transpose");

  const MasterBlocks masters = balanced_master_blocks(graph, options.parts);
  PartView view = empty_part_view(graph.name, options, masters);
  CsrGraph& part = view.graph;
  part.weight_type = graph.weight_type;
  part.sorted = graph.sorted;
  part.set_num_vertices(n);
  build_out_edges(graph, options, masters, part_grid(options.parts), part);
  if (options.in_edges) build_master_in_edges(graph, view.first_master, view.end_master, part);

  if (options.global_degrees) {
    view.out_degrees.resize(n);
    for (uint64_t v = 0; v < n; ++v)
      view.out_degrees[v] =
          checked_degree(graph.name, v, graph.out_degree(static_cast<VertexId>(v)));
  }

  list_mirrors(view, masters);
  return view;
}

}  // namespace irgl
