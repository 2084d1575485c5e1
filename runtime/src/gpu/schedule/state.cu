// Host-side parts of the schedules' launches (irgl/gpu/schedule/state.cuh):
// the resident grid and the device counters.

#include "irgl/gpu/check.h"
#include "irgl/gpu/device_info.h"
#include "irgl/gpu/schedule/state.cuh"

namespace irgl::gpu::schedule {

unsigned resident_grid(const void* kernel, unsigned threads) {
  static const unsigned multiprocessors = static_cast<unsigned>(query_device().sm_count);
  int blocks_per_sm = 0;
  IRGL_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel,
                                                                static_cast<int>(threads), 0));
  return multiprocessors * static_cast<unsigned>(blocks_per_sm < 1 ? 1 : blocks_per_sm);
}

namespace {
__global__ void store_count_kernel(unsigned long long* count, uint64_t value) { *count = value; }
}  // namespace

void store_count(unsigned long long* count, uint64_t value, cudaStream_t stream) {
  store_count_kernel<<<1, 1, 0, stream>>>(count, value);
  IRGL_CUDA_CHECK_LAUNCH();
}

}  // namespace irgl::gpu::schedule
