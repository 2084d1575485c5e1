// The persistent form of the schedules: a schedule run by every thread of a
// kernel whose whole grid is resident (cooperative launch), as one step of a
// round of an outlined loop (outline.cuh), with grid-wide barriers between
// phases instead of kernel launches. Each schedule's header specialises
//
//   InGrid<Policy>::items(body, state, options, shape)  host: the GridItems the policy needs
//   InGrid<Policy>::run(grid, body, frontier, items)    device: one pass over the frontier;
//                                                       every thread of the grid calls it;
//                                                       the caller syncs the grid after it
//
// and this file holds what they share: the items and a grid-wide prefix
// sum (a step's set-up and flush: thread_mapped.cuh, grid_step).
#pragma once

#include <cooperative_groups.h>

#include <algorithm>
#include <cstdint>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include "irgl/gpu/schedule/agent.cuh"
#include "irgl/gpu/schedule/heavy_round.h"
#include "irgl/gpu/schedule/state.cuh"

namespace irgl::gpu::schedule {

// How many blocks a persistent kernel launches: no more than are resident
// at once; by default no more than the loop's threads fill and no fewer
// than min_blocks, so that a small graph's barriers span fewer blocks; or
// as many as the run asks for (--outline-blocks).
struct OutlineGrid {
  uint64_t threads = ~uint64_t{0};  // the most threads the loop uses; unknown: no cap
  uint64_t min_blocks = 1;
  unsigned requested = 0;  // the run's blocks; 0: by threads and min_blocks

  unsigned blocks(unsigned resident, unsigned block_threads) const {
    const uint64_t needed = threads / block_threads + (threads % block_threads != 0);
    const uint64_t wanted = requested != 0 ? requested : std::max<uint64_t>(needed, min_blocks);
    return unsigned(std::min<uint64_t>(resident, std::max<uint64_t>(wanted, 1)));
  }
};

// A loop of iterations passes over every vertex: a thread per vertex, and
// a block per SM at least. pr on monaco, minnesota and usroads took
// 1.5-1.7x longer on the whole resident grid, and 1.1-2.4x longer with 2
// or 4 vertices per thread (H200,
// docs/experiments/2026-11-30-iteration-outlining.md); on rome99's 14
// blocks cc_afforest's linking took 0.131 ms, 0.084 on 132
// (docs/experiments/2026-11-30-outline-grid.md).
inline OutlineGrid iterations_grid(uint64_t vertices, unsigned sm_count, unsigned requested = 0) {
  return {vertices, sm_count, requested};
}

// A pipe loop's rounds in the kernel are light (outline.cuh: heavy ones go
// to the host) and walk a frontier, not every vertex: a thread per two
// vertices, and at least two blocks per SM. On the road and web graphs
// (bfs, sssp, cc; H200) 256 blocks were the fastest or within a few
// percent of it: usroads sssp 3.02 ms against 3.67 on every resident
// block and 3.38 at a thread per vertex (505 blocks), minnesota sssp 0.35
// against 0.43 at a thread per vertex (11 blocks); fewer were slower, up
// to 3.0x at 32 (docs/experiments/2026-11-30-outline-grid.md).
inline constexpr uint64_t kRoundVerticesPerThread = 2;
inline constexpr unsigned kRoundMinBlocksPerSm = 2;
inline OutlineGrid pipe_loop_grid(uint64_t vertices, unsigned sm_count, unsigned requested = 0) {
  return {vertices / kRoundVerticesPerThread + vertices % kRoundVerticesPerThread,
          uint64_t(kRoundMinBlocksPerSm) * sm_count, requested};
}

// What the host tells a persistent kernel about a loop.
struct OutlineShape {
  uint64_t grid_threads = 0;    // threads of the persistent kernel
  uint64_t pipe_capacity = 0;   // items of each of the pipe's queues (a pass: its vertices)
  uint64_t chunk_items = 0;     // LB / merge-path items gathered at a time
  // What a step runs over: a pipe loop's light rounds, or all vertices (a
  // loop of iterations); auto's in-kernel pick follows it.
  LoopPlace place = LoopPlace::light_round;
};

// The per-item storage of one kernel of an outlined loop: ALB's huge list,
// or the chunk of items of LB / merge-path.
template <class Body>
struct GridItems {
  ItemArrays<Body> items;                        // capacity: list / chunk size
  unsigned long long* counter = nullptr;         // ALB: the huge list's count
  uint64_t alb_threshold = kAlbDefaultThreshold; // ALB: degree above which a vertex is huge
  bool alb_inspects = false;                     // ALB: some vertex can be huge
  Distribution alb_distribution = Distribution::cyclic;
  AutoPick auto_pick = AutoPick::alb;            // auto: the schedule of the kernel's rounds
  AutoPick one_block_pick = AutoPick::thread;    // auto: that of a pipe loop's rounds on one block
  RoundLines auto_lines;                         // auto: round_lines (auto.cuh)
  ItemSearch item_search = ItemSearch::binary;    // multi-phase: the partition search
  unsigned virtual_warp_width = 32;               // vwarp: lanes per vertex
  // Warp per vertex, for a Body that chains its pushes (body.h): a warp
  // goes on with the first vertex it pushed, up to `chain` vertices an
  // item (1: no chains; group_mapped.cuh: run_group_items).
  unsigned chain = 1;
  // ALB over all vertices that accumulate: the row tiles' cut (alb.cuh),
  // or null for TWC.
  const uint32_t* row_tile_first_rows = nullptr;
  uint64_t row_tiles = 0;
};

// InGrid<Policy>: a schedule policy inside a persistent kernel (above).
template <class Policy>
struct InGrid;

// Policies that need no per-item storage and no grid barrier.
template <class Policy>
struct InGridWithoutItems {
  template <class Body, class StateT>
  static GridItems<Body> items(const Body&, StateT&, const RunOptions&, const OutlineShape&) {
    return {};
  }
};

#if defined(__CUDACC__)
// The shared memory of grid_exclusive_sum.
template <int BlockThreads>
struct GridScanStorage {
  using Reduce = cub::BlockReduce<uint64_t, BlockThreads>;
  using Scan = cub::BlockScan<uint64_t, BlockThreads>;
  union {
    typename Reduce::TempStorage reduce;
    typename Scan::TempStorage scan;
  } temp;
  uint64_t carry;
};

// out[i] = in[0] + ... + in[i-1] for i in [0, count]; out[count] is the
// total. Every thread of the grid calls it; out is complete after the
// caller's next grid.sync(). Each block sums a contiguous share, a barrier
// publishes the block sums, then each block scans its share from its
// offset (two reads of `in`, one grid barrier).
template <int BlockThreads>
__device__ void grid_exclusive_sum(GridScanStorage<BlockThreads>& storage, const GridRound& grid,
                                   const uint64_t* in, uint64_t* out, uint64_t count) {
  using Reduce = typename GridScanStorage<BlockThreads>::Reduce;
  using Scan = typename GridScanStorage<BlockThreads>::Scan;
  const uint64_t share = (count + gridDim.x - 1) / gridDim.x;
  const uint64_t begin = min(uint64_t(blockIdx.x) * share, count);
  const uint64_t end = min(begin + share, count);

  uint64_t local = 0;
  for (uint64_t i = begin + threadIdx.x; i < end; i += BlockThreads) local += in[i];
  const uint64_t block_total = Reduce(storage.temp.reduce).Sum(local);
  if (threadIdx.x == 0) grid.block_sums[blockIdx.x] = block_total;
  grid.sync();

  local = 0;
  for (unsigned b = threadIdx.x; b < blockIdx.x; b += BlockThreads) local += grid.block_sums[b];
  __syncthreads();  // temp is reused
  const uint64_t offset = Reduce(storage.temp.reduce).Sum(local);
  if (threadIdx.x == 0) storage.carry = offset;
  __syncthreads();
  for (uint64_t base = begin; base < end; base += BlockThreads) {
    const uint64_t i = base + threadIdx.x;
    uint64_t prefix = 0, tile_total = 0;
    Scan(storage.temp.scan).ExclusiveSum(i < end ? in[i] : uint64_t{0}, prefix, tile_total);
    if (i < end) out[i] = storage.carry + prefix;
    __syncthreads();
    if (threadIdx.x == 0) storage.carry += tile_total;
    __syncthreads();
  }
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) out[count] = storage.carry;
}
#endif  // __CUDACC__

}  // namespace irgl::gpu::schedule
