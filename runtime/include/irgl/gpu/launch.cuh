// Launch geometry for simple one-item-per-thread kernels.
//
//   my_kernel<<<grid_blocks(n), kBlockThreads, 0, stream>>>(...);
//   IRGL_CUDA_CHECK_LAUNCH();
//   ...
//   for (uint64_t i = global_thread_index(); i < n; i += grid_thread_count()) ...
//
// The grid is capped (kMaxGridBlocks), so such kernels must loop grid-stride:
// the cap bounds launch overhead for huge inputs (a 536M-edge graph) while
// still giving every SM many blocks.
#pragma once

#include <cstdint>

namespace irgl::gpu {

// Threads per block for the runtime's own elementwise kernels.
inline constexpr unsigned kBlockThreads = 256;
// 2^16 blocks of 256 threads = 16M threads, about 60 times what a full H100
// holds at once (132 SMs x 2048 threads): plenty of waves to balance load.
inline constexpr unsigned kMaxGridBlocks = 1u << 16;

// Blocks for `items` work items at one item per thread: at least 1 (a
// zero-block launch is an error) and at most kMaxGridBlocks.
inline unsigned grid_blocks(uint64_t items, unsigned block_threads = kBlockThreads) {
  const uint64_t blocks = (items + block_threads - 1) / block_threads;
  if (blocks == 0) return 1;
  return blocks > kMaxGridBlocks ? kMaxGridBlocks : static_cast<unsigned>(blocks);
}

#if defined(__CUDACC__)
// This thread's index in a 1D grid of 1D blocks.
__device__ __forceinline__ uint64_t global_thread_index() {
  return static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
// Threads in the 1D grid: the stride of a grid-stride loop.
__device__ __forceinline__ uint64_t grid_thread_count() {
  return static_cast<uint64_t>(gridDim.x) * blockDim.x;
}
#endif

}  // namespace irgl::gpu
