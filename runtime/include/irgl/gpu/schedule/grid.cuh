// Grid-wide building blocks of kernels launched cooperatively (the whole
// grid resident, cudaLaunchCooperativeKernel): barriers, a prefix sum, and
// the edge-balanced phase that LB, merge-path and ALB's huge vertices share.
// Used by the persistent kernels of outlined loops (outline.cuh) and by
// ALB's huge rows after its row tiles (schedules.cuh).
#pragma once

#include <cooperative_groups.h>

#include <cstdint>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include "irgl/gpu/schedule/kernels.cuh"

namespace irgl::gpu::schedule {

// What every thread of a cooperative kernel shares: grid-wide barriers and
// scratch for grid-wide prefix sums.
struct GridRound {
  // Whether this kernel holds ALB's inspection and huge-vertex phase; true
  // here, so that a round() taking a plain GridRound keeps them.
  static constexpr bool kAlbInspects = true;
  uint64_t* block_sums = nullptr;  // one entry per block

#if defined(__CUDACC__)
  __device__ void sync() const { cooperative_groups::this_grid().sync(); }
#endif
};

#if defined(__CUDACC__)
// out[i] = in[0] + ... + in[i-1] for i in [0, count]; out[count] is the
// total. Every thread of the grid calls it; out is complete after the
// caller's next grid.sync(). Each block sums a contiguous share, a barrier
// publishes the block sums, then each block scans its share from its
// offset (two reads of `in`, one grid barrier).
template <int BlockThreads>
__device__ void grid_exclusive_sum(const GridRound& grid, const uint64_t* in, uint64_t* out,
                                   uint64_t count) {
  using Reduce = cub::BlockReduce<uint64_t, BlockThreads>;
  using Scan = cub::BlockScan<uint64_t, BlockThreads>;
  __shared__ union {
    typename Reduce::TempStorage reduce;
    typename Scan::TempStorage scan;
  } temp;
  __shared__ uint64_t carry;
  const uint64_t share = (count + gridDim.x - 1) / gridDim.x;
  const uint64_t begin = min(uint64_t(blockIdx.x) * share, count);
  const uint64_t end = min(begin + share, count);

  uint64_t local = 0;
  for (uint64_t i = begin + threadIdx.x; i < end; i += BlockThreads) local += in[i];
  const uint64_t block_total = Reduce(temp.reduce).Sum(local);
  if (threadIdx.x == 0) grid.block_sums[blockIdx.x] = block_total;
  grid.sync();

  local = 0;
  for (unsigned b = threadIdx.x; b < blockIdx.x; b += BlockThreads) local += grid.block_sums[b];
  __syncthreads();  // temp is reused
  const uint64_t offset = Reduce(temp.reduce).Sum(local);
  if (threadIdx.x == 0) carry = offset;
  __syncthreads();
  for (uint64_t base = begin; base < end; base += BlockThreads) {
    const uint64_t i = base + threadIdx.x;
    uint64_t prefix = 0, tile_total = 0;
    Scan(temp.scan).ExclusiveSum(i < end ? in[i] : uint64_t{0}, prefix, tile_total);
    if (i < end) out[i] = carry + prefix;
    __syncthreads();
    if (threadIdx.x == 0) carry += tile_total;
    __syncthreads();
  }
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) out[count] = carry;
}

// The edge-balanced phase over items[0, count) that LB, merge-path and
// ALB's huge vertices share: prefix sum of the degrees, the edges spread
// over the grid, then post(). Ends without a final barrier.
template <int B, class Body>
__device__ void edge_balanced_in_grid(const GridRound& grid, Body& body, const ItemArrays<Body>& items,
                                      uint64_t count, bool merge_path, Distribution distribution) {
  NoLoadCounters counters;
  grid_exclusive_sum<B>(grid, items.degrees, items.offsets, count);
  grid.sync();
  if (merge_path) merge_path_atoms<B>(body, items, count, counters);
  else if (distribution == Distribution::cyclic)
    edge_balanced_atoms<B, Distribution::cyclic>(body, items, count, counters);
  else edge_balanced_atoms<B, Distribution::blocked>(body, items, count, counters);
  if constexpr (Body::kHasPost || Body::kHasAccum) {
    grid.sync();
    post_items(body, items, count);
  }
}
#endif

#if defined(__CUDACC__)
// ALB's huge list items[0, count) after the pass that filled it: marked
// active for post_items (the list's push does not), their edges spread over
// the grid, then their post(). Every thread of the grid calls it with the
// same count; ends without a final barrier.
template <int B, class Body>
__device__ void huge_items_in_grid(const GridRound& grid, Body& body, const ItemArrays<Body>& items,
                                   uint64_t count, Distribution distribution) {
  if (count == 0) return;  // the same in every thread: a uniform branch
  if constexpr (Body::kHasPost || Body::kHasAccum)
    for (uint64_t i = global_thread(); i < count; i += grid_threads()) items.active[i] = 1;
  edge_balanced_in_grid<B>(grid, body, items, count, false, distribution);
}

// ALB's huge rows after its row tiles (schedules.cuh: Alb), the list's size
// read on the device. A cooperative launch.
template <int B, class Body>
__global__ void __launch_bounds__(B)
    huge_items_kernel(Body body, ItemArrays<Body> items, Distribution distribution, GridRound grid) {
  begin_body<B>(body);
  huge_items_in_grid<B>(grid, body, items, items.stored(), distribution);
  body.template flush<B>();
}
#endif

}  // namespace irgl::gpu::schedule
