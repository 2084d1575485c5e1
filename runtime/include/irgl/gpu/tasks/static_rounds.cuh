// The static two-array scheme (paper 003, section 35.3.1), the baseline
// work stealing is measured against: the input array is split evenly over
// the blocks, each block runs its share a task at a time with all its
// threads, spawned tasks are appended to the output array with
// fetch-and-add, and when the kernel ends the arrays swap and the kernel
// runs again, until a round spawns nothing. What irglc's pipes do for
// graph worklists, for tasks of any type.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "irgl/gpu/check.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/tasks/pool.cuh"

namespace irgl::gpu::tasks {

#if defined(__CUDACC__)
// One round: block b runs tasks [b * count / blocks, (b + 1) * count /
// blocks) of `in`, a task at a time with all its threads
// (TaskWidth::block); spawns go to `out` (counters->spawned counts them,
// past `capacity` too: the host reads the overflow from it).
template <int BlockThreads, class Task, class Processor>
__global__ void __launch_bounds__(BlockThreads)
    static_round_kernel(const Task* in, uint64_t count, Task* out, uint32_t capacity,
                        PoolCounters* counters, Processor processor) {
  __shared__ Task current;
  const uint64_t begin = count * blockIdx.x / gridDim.x;
  const uint64_t end = count * (blockIdx.x + 1) / gridDim.x;
  const TaskSpawner<Task> spawn{out, capacity, &counters->spawned};
  for (uint64_t i = begin; i < end; ++i) {
    if (threadIdx.x == 0) current = in[i];
    __syncthreads();
    detail::run_task(processor, current, spawn);  // ends with a barrier: `current` is free
  }
  if (threadIdx.x == 0 && end > begin) atomicAdd(&counters->tasks_run, end - begin);
  detail::flush_processor<BlockThreads>(processor);
}

// The same with a task per thread (TaskWidth::thread): the round's tasks
// over the grid's threads.
template <int BlockThreads, class Task, class Processor>
__global__ void __launch_bounds__(BlockThreads)
    static_round_thread_kernel(const Task* in, uint64_t count, Task* out, uint32_t capacity,
                               PoolCounters* counters, Processor processor) {
  const TaskSpawner<Task> spawn{out, capacity, &counters->spawned};
  const uint64_t stride = uint64_t(gridDim.x) * BlockThreads;
  for (uint64_t i = uint64_t(blockIdx.x) * BlockThreads + threadIdx.x; i < count; i += stride)
    processor(in[i], spawn);
  if (blockIdx.x == 0 && threadIdx.x == 0) atomicAdd(&counters->tasks_run, count);
  detail::flush_processor<BlockThreads>(processor);
}
#endif

// The two arrays, kept between runs of the same size.
template <class Task>
class StaticRoundsBuffers {
 public:
#if defined(__CUDACC__)
  // Runs `initial` and every task they spawn (TaskPool::run): each array
  // holds blocks x slots_per_block tasks.
  template <int BlockThreads, TaskWidth Width, class Processor>
  PoolStats run(const Task* initial, uint64_t initial_count, const Processor& processor,
                const PoolOptions& options) {
    const auto kernel = Width == TaskWidth::thread
                            ? static_round_thread_kernel<BlockThreads, Task, Processor>
                            : static_round_kernel<BlockThreads, Task, Processor>;
    const unsigned blocks =
        pool_blocks(options, (const void*)kernel, BlockThreads, initial_count);
    const uint64_t capacity64 = uint64_t(blocks) * options.slots_per_block;
    if (capacity64 > UINT32_MAX)
      throw PoolOverflow(options.scheme, options.slots_per_block,
                         "an array would hold over 2^32 tasks");
    const uint32_t capacity = static_cast<uint32_t>(capacity64);
    allocate(capacity);
    cudaStream_t stream = options.stream;
    PoolStats stats;
    stats.blocks = blocks;
    stats.slots_per_block = options.slots_per_block;
    stats.most_slots_used = initial_count;
    if (initial_count > 0)
      IRGL_CUDA_CHECK(cudaMemcpyAsync(arrays_[0].data(), initial, sizeof(Task) * initial_count,
                                      cudaMemcpyDeviceToDevice, stream));
    IRGL_CUDA_CHECK(cudaMemsetAsync(counters_.data(), 0, sizeof(PoolCounters), stream));
    uint64_t count = initial_count;
    for (int in = 0; count > 0; in = 1 - in) {
      IRGL_CUDA_CHECK(cudaMemsetAsync(&counters_.data()->spawned, 0, sizeof(unsigned), stream));
      kernel<<<blocks, BlockThreads, 0, stream>>>(arrays_[in].data(), count, arrays_[1 - in].data(),
                                                  capacity, counters_.data(), processor);
      IRGL_CUDA_CHECK_LAUNCH();
      ++stats.launches;
      PoolCounters now{};
      IRGL_CUDA_CHECK(cudaMemcpyAsync(&now, counters_.data(), sizeof now, cudaMemcpyDeviceToHost,
                                      stream));
      IRGL_CUDA_CHECK(cudaStreamSynchronize(stream));
      if (now.spawned > capacity)  // the spawns past the array were not written
        throw PoolOverflow(options.scheme, options.slots_per_block,
                           "round " + std::to_string(stats.launches) + " spawned " +
                               std::to_string(now.spawned) + " tasks, the arrays hold " +
                               std::to_string(capacity));
      stats.tasks_run = now.tasks_run;
      count = now.spawned;
      stats.most_slots_used = std::max<uint64_t>(stats.most_slots_used, count);
    }
    return stats;
  }
#endif

 private:
  void allocate(uint32_t capacity) {
    if (capacity == capacity_) return;
    arrays_[0] = DeviceBuffer<Task>(capacity);
    arrays_[1] = DeviceBuffer<Task>(capacity);
    if (counters_.empty()) counters_ = DeviceBuffer<PoolCounters>(1);
    capacity_ = capacity;
  }

  uint32_t capacity_ = 0;
  DeviceBuffer<Task> arrays_[2];
  DeviceBuffer<PoolCounters> counters_;
};

}  // namespace irgl::gpu::tasks
