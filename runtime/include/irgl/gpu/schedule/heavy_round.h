// The line between light and heavy worklist rounds, shared by outlining
// (outline.cuh) and --schedule=auto (auto.cuh). Plain C++: host unit tests
// include it.
#pragma once

#include <cstdint>

#include "irgl/gpu/schedule/auto_pick.h"

namespace irgl::gpu::schedule {

// A heavy round leaves the persistent kernel for the host under
// --outline=auto (OutlinedLoop), where its launches cost little next to its
// work and the standalone kernels run it faster; --schedule=auto may pick
// another schedule for it (auto_pick.h). A round is heavy when it has
//   - more than kHeavyRoundItemsPerSm items per SM: a fixed floor, so that
//     the line does not move with the registers ptxas gives the kernel (cc
//     on usroads, H100, has rounds of 130-150k items; with 59 registers,
//     135k threads, 124 of its 537 rounds went to the host and it took
//     6.27 ms, 4.40 with every round in the kernel:
//     docs/experiments/2026-11-26-persistent-kernel-registers.md), and
//   - at least kHeavyRoundEdgesPerSm edges per SM: a few large rounds of a
//     sparse graph cost more to hand over than they gain (a grid with a
//     300,000-degree hub: bfs 0.35 ms with its hub rounds on the host, 0.20
//     in the kernel), and so do rounds of many low-degree vertices.
// The persistent kernel counts a round's edges from a sample of its
// input's degrees (InputEdgesCheck); the host, which knows a round's size
// only, as items times the graph's mean degree: the line's items.
inline constexpr uint64_t kHeavyRoundItemsPerSm = 1280;
inline constexpr uint64_t kHeavyRoundEdgesPerSm = 65536;

struct HeavyRoundLine {
  uint64_t items = 0;  // a heavy round has more items than this
  uint64_t edges = 0;  // and at least this many edges
};

// The line on `sm_count` SMs for `graph`: the item floor, raised on a
// sparse graph to the items whose edges by the mean degree reach the edge
// line (an unknown graph: the floor). `edges`, when not 0, replaces
// kHeavyRoundEdgesPerSm times the SMs (a run's --heavy-round-edges).
inline HeavyRoundLine heavy_round_line(const GraphShape& graph, unsigned sm_count,
                                       uint64_t edges = 0) {
  HeavyRoundLine line{kHeavyRoundItemsPerSm * uint64_t(sm_count),
                      edges ? edges : kHeavyRoundEdgesPerSm * uint64_t(sm_count)};
  if (graph.known() && graph.edges != 0) {
    const double by_mean = double(line.edges) / graph.mean();
    if (by_mean > double(line.items)) line.items = uint64_t(by_mean);
  }
  return line;
}

}  // namespace irgl::gpu::schedule
