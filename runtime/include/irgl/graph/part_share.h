// A multi-GPU part of a graph, built without holding the rest of the
// graph (docs/multi-gpu.md), from one of two sources:
// - a generator: every process runs it over all edges and keeps those of
//   its own part; the degrees that place the master blocks take one more
//   pass, split over the parts;
// - a binary CSR file mapped into memory (a load-cache entry or a .csr
//   input): every process reads the offsets, copies its part's edges and
//   its masters' in-edges, and the pages stay shared in the page cache.
// Only per-vertex arrays span the whole graph.
//
//   const auto generator = edge_generator_from_spec("rmat:scale=28");
//   PartShare share = build_part_share(*generator, "rmat:scale=28", build_options,
//                                      {PartitionPolicy::cartesian_vertex_cut, 4, rank},
//                                      collectives_over_the_gpus);
//
// The part holds the same edges, weights and in-edges as build_part_view()
// cuts from the whole graph built with the same options. The master blocks
// are balanced by the degrees before duplicates are dropped (a part cannot
// see another's duplicates): with drop_duplicates they may differ from
// build_part_view()'s, which changes which GPU computes a vertex, not the
// answer.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "irgl/graph/edge_list.h"
#include "irgl/graph/generators.h"
#include "irgl/graph/graph_arrays.h"
#include "irgl/graph/part_view.h"

namespace irgl {

// What the builder needs of the other parts' builders: collectives every
// part calls in the same order.
struct PartCollectives {
  // Element-wise sum over the parts, in place.
  std::function<void(std::vector<uint64_t>& values)> sum;
  // The largest of the parts' values.
  std::function<uint64_t(uint64_t value)> max;
};

struct PartShare {
  // out_degrees: the whole graph's, always filled.
  PartView view;
  uint64_t edges = 0;            // the whole graph's
  int64_t largest_weight = 0;    // the whole graph's largest int32 weight (else 0)
  bool negative_weight = false;  // some weight of the whole graph is below 0
};

// Part options.part of the graph `generator` makes and `build` shapes
// (symmetrize, drop_self_loops, drop_duplicates, sort_adjacency, weights;
// not renumber). Collective: every part calls it with the same generator
// and options. InputError as build_part_view() for bad part options.
// `show_progress`: progress lines on stderr as a load prints them.
PartShare build_part_share(const EdgeGenerator& generator, const std::string& name,
                           const BuildOptions& build, const PartViewOptions& options,
                           const PartCollectives& collectives, bool show_progress = false);

// Part options.part of a whole graph's arrays (a MappedCsrFile's): the part
// build_part_view() cuts, with the whole graph's degrees, edge count and
// weight extremes. Collective, as build_part_share(). Needs a transpose for
// options.in_edges; not for a renumbered graph (std::logic_error).
PartShare part_share_of(const GraphArrays& graph, const PartViewOptions& options,
                        const PartCollectives& collectives);

}  // namespace irgl
