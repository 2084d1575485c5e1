// Auto: the schedule chosen at run time (--schedule=auto). Each launch runs
// one of the built-in schedules, picked by auto_pick.h's rules from the
// run's graph (RunOptions::graph) and the launch's shape:
//
//   - a loop over every vertex: from the degrees, whether the Body
//     accumulates and whether its edges cost alike;
//   - a worklist round launched from the host: as a light or a heavy round,
//     by its size when the host knows it (heavy_round.h);
//   - the rounds inside an outlined loop's persistent kernel (light rounds
//     under --outline=auto): one schedule for all of the loop's auto steps,
//     from the graph alone, among kInKernelPicks; the kernel is built once
//     per pick (outline.cuh), so each keeps its own registers.
//
//   Auto<B>::run(body, frontier, state, options)        a launch
//   InGrid<Auto<B>>::run(grid, body, frontier, items)    a persistent step
//
// Without a graph shape (a library caller's default RunOptions) auto is ALB.
#pragma once

#include <cstdint>
#include <type_traits>

#include "irgl/gpu/schedule/alb.cuh"
#include "irgl/gpu/schedule/auto_pick.h"
#include "irgl/gpu/schedule/edge_balanced.cuh"
#include "irgl/gpu/schedule/group_mapped.cuh"
#include "irgl/gpu/schedule/thread_mapped.cuh"
#include "irgl/gpu/schedule/twc.cuh"

namespace irgl::gpu::schedule {

// The policy of each AutoPick.
template <int B, AutoPick Pick>
struct AutoPolicyOf;
template <int B>
struct AutoPolicyOf<B, AutoPick::thread> { using type = ThreadMapped<B>; };
template <int B>
struct AutoPolicyOf<B, AutoPick::warp> { using type = Warp<B>; };
template <int B>
struct AutoPolicyOf<B, AutoPick::block> { using type = Block<B>; };
template <int B>
struct AutoPolicyOf<B, AutoPick::twc> { using type = Twc<B>; };
template <int B>
struct AutoPolicyOf<B, AutoPick::lb> { using type = Lb<B>; };
template <int B>
struct AutoPolicyOf<B, AutoPick::merge_path> { using type = MergePath<B>; };
template <int B>
struct AutoPolicyOf<B, AutoPick::alb> { using type = Alb<B>; };
template <int B, AutoPick Pick>
using AutoPolicy = typename AutoPolicyOf<B, Pick>::type;

// f(Policy{}) for the policy of `pick`.
template <int B, class F>
decltype(auto) with_auto_policy(AutoPick pick, F&& f) {
  switch (pick) {
    case AutoPick::thread: return f(AutoPolicy<B, AutoPick::thread>{});
    case AutoPick::warp: return f(AutoPolicy<B, AutoPick::warp>{});
    case AutoPick::block: return f(AutoPolicy<B, AutoPick::block>{});
    case AutoPick::twc: return f(AutoPolicy<B, AutoPick::twc>{});
    case AutoPick::lb: return f(AutoPolicy<B, AutoPick::lb>{});
    case AutoPick::merge_path: return f(AutoPolicy<B, AutoPick::merge_path>{});
    case AutoPick::alb: break;
  }
  return f(AutoPolicy<B, AutoPick::alb>{});
}

// Auto's round lines (RoundLines): warp's, block's and merge-path's from
// Tuning::kWarpRoundItemsPerSm, kBlockRoundItemsPerSm and
// kMergePathTwcItemsPerSm on every SM, and the one-block line from
// kOneBlockWarpItemsPerMeanDegree and the graph's mean degree, or the
// run's --auto-warp-items, --auto-block-items, --auto-merge-path-items and
// --one-block-warp-items.
template <class Tuning = AutoTuning>
RoundLines round_lines(const RunOptions& options, unsigned sm_count) {
  RoundLines lines;
  lines.warp_items = options.auto_warp_items ? options.auto_warp_items
                                             : Tuning::kWarpRoundItemsPerSm * uint64_t(sm_count);
  lines.block_items = options.auto_block_items
                          ? options.auto_block_items
                          : Tuning::kBlockRoundItemsPerSm * uint64_t(sm_count);
  lines.merge_path_twc_items = options.auto_merge_path_items
                                   ? options.auto_merge_path_items
                                   : Tuning::kMergePathTwcItemsPerSm * uint64_t(sm_count);
  lines.one_block_warp_items =
      options.one_block_warp_items
          ? options.one_block_warp_items
          : uint64_t(Tuning::kOneBlockWarpItemsPerMeanDegree * options.graph.mean());
  return lines;
}

// The schedules a persistent kernel may be built with for auto: each is a
// kernel of its own, compiled into every program with an outlined auto
// loop. ALB covers TWC (its lean kernel) and the hubs. Thread is the
// rules' pick for passes over all vertices of roads and grids; ALB's lean
// TWC in its place took cc_afforest's two linking iterations 1.2-1.7x
// longer than the host's thread launches (H200,
// docs/experiments/2026-11-30-outline-grid.md).
inline constexpr AutoPick kInKernelPicks[] = {AutoPick::thread, AutoPick::warp, AutoPick::block,
                                              AutoPick::merge_path, AutoPick::alb};

// The schedule of an outlined loop's in-kernel steps: the rules' choice
// for the loop's shape (a light round of a pipe loop or a pass over all
// vertices, whether the Body accumulates, whether its edges cost alike)
// on the graph, where a persistent kernel is built for it; TWC runs ALB,
// whose lean kernel is TWC. LB runs merge-path: in cc_afforest's outlined
// linking by an edge loop (edges of unequal cost on graphs with hubs)
// merge-path took 0.409 ms on cnr-2000 where LB and ALB took 0.554, and
// 4.7 ms on RMAT 22 where ALB took 8.1 (H200,
// docs/experiments/2026-11-30-outline-grid.md,
// docs/experiments/2026-11-30-one-block-iterations.md). No outlined loop walks
// tc's edges, for which merge-path is the slowest of the three (3-4x LB,
// docs/data/bench/auto-large-h100.md). The same for every step of a loop
// (the kernel is built for one pick).
template <class Tuning = AutoTuning>
AutoPick in_kernel_pick(const GraphShape& graph, const LoopShape& loop) {
  AutoPick pick = auto_pick(graph, loop, Tuning::kRules);
  if (pick == AutoPick::lb) pick = AutoPick::merge_path;
  for (AutoPick built : kInKernelPicks)
    if (built == pick) return pick;
  return AutoPick::alb;
}

// Tuning: AutoTuning's members (auto_pick.h).
template <int B, class Tuning = AutoTuning>
struct Auto {
  template <class Body, class Frontier, class StateT>
  static void run(const Body& body, const Frontier& frontier, StateT& state,
                  const RunOptions& options = {}) {
    const LoopShape shape = shape_of<Body>(frontier, state, options);
    const AutoPick pick = launch_pick(options.graph, shape,
                                      round_lines<Tuning>(options, state.sm_count()), Tuning::kRules);
    if (options.auto_log) options.auto_log->record_launch(options.kernel_name, pick);
    with_auto_policy<B>(pick, [&](auto policy) {
      decltype(policy)::run(body, frontier, state, options);
    });
  }

  // The launch's LoopShape: a worklist round is light when the host knows
  // its size and it has at most the heavy line's items (heavy_round.h).
  template <class Body, class Frontier, class StateT>
  static LoopShape shape_of(const Frontier& frontier, StateT& state, const RunOptions& options) {
    LoopShape shape;
    shape.accumulates = Body::kHasAccum;
    shape.edge_work_varies = options.edge_work_varies;
    if constexpr (!std::is_same_v<Frontier, AllNodes>) {
      shape.items = frontier.host_size();  // kUnknownSize: ~0
      const HeavyRoundLine line =
          heavy_round_line(options.graph, state.sm_count(), options.heavy_round_edges);
      const bool light = shape.items != kUnknownSize && shape.items <= line.items;
      shape.place = light ? LoopPlace::light_round : LoopPlace::heavy_round;
    }
    return shape;
  }
};

template <int B, class Tuning>
struct InGrid<Auto<B, Tuning>> {
  // The items of the in-kernel pick's policy, with the pick.
  template <class Body, class StateT>
  static GridItems<Body> items(const Body& body, StateT& state, const RunOptions& options,
                               const OutlineShape& shape) {
    LoopShape loop;
    loop.place = shape.place;
    loop.accumulates = Body::kHasAccum;
    loop.edge_work_varies = options.edge_work_varies;
    const AutoPick pick = in_kernel_pick<Tuning>(options.graph, loop);
    if (options.auto_log) options.auto_log->record_persistent(options.kernel_name, pick);
    GridItems<Body> grid_items = with_auto_policy<B>(pick, [&](auto policy) {
      return InGrid<decltype(policy)>::items(body, state, options, shape);
    });
    grid_items.auto_pick = pick;
    grid_items.one_block_pick = one_block_round_pick<Tuning>(options.graph);
    grid_items.auto_lines = round_lines<Tuning>(options, state.sm_count());
    // Merge-path in LB's place (edges of unequal cost, on graphs with hubs
    // of any size) keeps its small rounds, as the host keeps LB's: TWC
    // would walk a hub's edges on one block.
    if (auto_pick(options.graph, loop, Tuning::kRules) == AutoPick::lb)
      grid_items.auto_lines.merge_path_twc_items = 0;
    return grid_items;
  }

#if defined(__CUDACC__)
  // Grid::kAutoPick: the pick the persistent kernel was built for. As
  // on the host, a worklist round goes on at a line (round_pick; the same
  // size in every thread: a uniform branch), and the kernel compiles in
  // only the steps its pick may hand rounds to; passes over all vertices
  // keep the pick (pr on bcsstk16, 4,884 vertices, took TWC's 0.567 ms
  // against warp's 0.366 when they were handed over, H200).
  template <class Grid, class Body, class Frontier>
  __device__ static void run(const Grid& grid, Body& body, const Frontier& frontier,
                             const GridItems<Body>& grid_items) {
    constexpr AutoPick kBuilt = Grid::kAutoPick;
    if constexpr (!std::is_same_v<Frontier, AllNodes>) {
      const AutoPick pick =
          round_pick(kBuilt, frontier.size(), grid_items.auto_lines, gridDim.x == 1);
      if constexpr (hands_rounds_to(kBuilt, AutoPick::twc))
        if (pick == AutoPick::twc) return InGrid<Twc<B>>::run(grid, body, frontier, grid_items);
      if constexpr (hands_rounds_to(kBuilt, AutoPick::warp))
        if (pick == AutoPick::warp) return InGrid<Warp<B>>::run(grid, body, frontier, grid_items);
    }
    InGrid<AutoPolicy<B, kBuilt>>::run(grid, body, frontier, grid_items);
  }
#endif
};

}  // namespace irgl::gpu::schedule
