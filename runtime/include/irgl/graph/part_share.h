// A multi-GPU part of a generated graph, built without the rest of the
// graph: every process runs the generator over all edges and keeps those of
// its own part, so that no process holds more than its share of the edges
// (docs/multi-gpu.md). Only per-vertex arrays span the whole graph. The
// degrees that place the master blocks take one more pass, split over the
// parts.
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

}  // namespace irgl
