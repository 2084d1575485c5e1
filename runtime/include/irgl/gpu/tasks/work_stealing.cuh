// Work stealing (paper 003, Cederman and Tsigas): a pool of tasks of any
// trivially copyable type, run until no task is left by a persistent
// kernel of resident blocks. Each block owns a deque (deque.cuh): it runs
// its own tasks last-in first-out, a task at a time with all its threads,
// pushes the tasks a task spawns onto its own tail, and when its deque is
// empty steals the oldest task of another block.
//
//   struct Count {                                   // the processor, yours
//     __device__ void operator()(const Node& task, const TaskSpawner<Node>& spawn) const {
//       // every thread of the block runs this with the same task;
//       // any thread may spawn(child) any number of times
//     }
//   };
//   TaskPool<Node> pool(options);                    // task_pool.cuh
//   const PoolStats stats = pool.run<256>(initial_tasks, Count{...});
//
// Termination is exact, never a timeout: `outstanding` counts the tasks
// spawned (or given) and not yet finished. A block adds a task's children
// and removes the task itself in one atomic add, before the children
// become stealable, so the count is zero only when no deque holds a task
// and no block runs one, and then no task can appear. A block that finds
// its deque empty and no task to steal leaves once the count is zero.
//
// Overflow is never silent: a task that finds its block's deque full is
// not written, the pool aborts (every block leaves at its next check) and
// the run throws std::runtime_error naming the deque's slots and the
// option that sets them.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cuda/atomic>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "irgl/gpu/check.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/tasks/deque.cuh"
#include "irgl/gpu/tasks/pool.cuh"

namespace irgl::gpu::tasks {

// The device side of a pool: the deques (slot arrays back to back) and
// the counters.
template <class Task>
struct PoolView {
  unsigned long long* heads;
  uint32_t* tails;
  Task* slots;
  uint32_t capacity;
  unsigned blocks;
  unsigned steal_attempts;
  PoolCounters* counters;

#if defined(__CUDACC__)
  __device__ TaskDeque<Task> deque(unsigned block) const {
    return {&heads[block], &tails[block], slots + uint64_t(block) * capacity, capacity};
  }
  __device__ unsigned long long outstanding() const {
    return cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(counters->outstanding)
        .load(cuda::memory_order_acquire);
  }
  __device__ bool aborted() const {
    return cuda::atomic_ref<unsigned int, cuda::thread_scope_device>(counters->aborted)
        .load(cuda::memory_order_relaxed) != 0;
  }
#endif
};

#if defined(__CUDACC__)
namespace detail {

// A block's next task: its own tail, else `attempts` steals from random
// other blocks (xorshift). Thread 0 only.
template <class Task>
__device__ bool next_task(const PoolView<Task>& pool, const TaskDeque<Task>& own, uint32_t& rng,
                          Task& task, bool& stolen) {
  stolen = false;
  if (own.pop(task)) return true;
  if (pool.blocks < 2) return false;
  for (unsigned attempt = 0; attempt < pool.steal_attempts; ++attempt) {
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    unsigned victim = rng % (pool.blocks - 1);
    if (victim >= blockIdx.x) ++victim;  // any block but this one
    if (pool.deque(victim).steal(task)) {
      stolen = true;
      return true;
    }
  }
  return false;
}

// After a task: its children (`spawned`, already written above the tail)
// are counted and the task is uncounted in one atomic add, then published.
template <class Task>
__device__ void finish_task(const PoolView<Task>& pool, const TaskDeque<Task>& own,
                            uint32_t spawned, bool stolen) {
  atomicAdd(&pool.counters->outstanding, static_cast<unsigned long long>(spawned) - 1ull);
  own.publish(spawned);
  atomicAdd(&pool.counters->tasks_run, 1ull);
  if (stolen) atomicAdd(&pool.counters->steals, 1ull);
  if (spawned) atomicMax(&pool.counters->most_slots_used, own.owner_tail());
}

}  // namespace detail

// The persistent kernel: each block runs tasks until the pool is empty or
// aborted. Block-collective: the processor runs with every thread.
template <int BlockThreads, class Task, class Processor>
__global__ void __launch_bounds__(BlockThreads)
    work_stealing_kernel(PoolView<Task> pool, Processor processor) {
  enum : int { kIdle, kWork, kDone };
  __shared__ Task current;
  __shared__ int state;
  __shared__ bool stolen;
  __shared__ uint32_t tail;
  __shared__ uint32_t spawned;
  const TaskDeque<Task> own = pool.deque(blockIdx.x);
  uint32_t rng = 2654435761u * (blockIdx.x + 1);
  unsigned idle_ns = 32;
  for (;;) {
    if (threadIdx.x == 0) {
      Task task;
      bool took_stolen = false;
      int next = kIdle;
      if (pool.aborted()) next = kDone;
      else if (detail::next_task(pool, own, rng, task, took_stolen)) next = kWork;
      else if (pool.outstanding() == 0) next = kDone;
      if (next == kWork) current = task;
      state = next;
      stolen = took_stolen;
      tail = own.owner_tail();
      spawned = 0;
    }
    __syncthreads();
    const int now = state;
    if (now == kDone) return;
    if (now == kIdle) {
      // Others still run tasks that may spawn: back off, then look again.
      if (threadIdx.x == 0) __nanosleep(idle_ns);
      idle_ns = idle_ns < 4096 ? 2 * idle_ns : idle_ns;
      __syncthreads();
      continue;
    }
    idle_ns = 32;
    TaskSpawner<Task> spawn{own.slots + tail, own.capacity - tail, &spawned};
    detail::run_task(processor, current, spawn);
    if (threadIdx.x == 0) {
      if (spawned > spawn.room) detail::abort_run(pool.counters);
      else detail::finish_task(pool, own, spawned, stolen);
    }
    __syncthreads();  // state and the spawn count are rewritten next
  }
}

// Deals `count` initial tasks round-robin over the deques: task i to block
// i % blocks, slot i / blocks.
template <class Task>
__global__ void deal_tasks_kernel(PoolView<Task> pool, const Task* tasks, uint64_t count) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    pool.slots[(i % pool.blocks) * pool.capacity + i / pool.blocks] = tasks[i];
  for (uint64_t b = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; b < pool.blocks; b += stride)
    pool.tails[b] = static_cast<uint32_t>(count / pool.blocks + (b < count % pool.blocks));
}
#endif  // __CUDACC__

// The host side: the deques of a grid, kept between runs of the same grid
// and slots.
template <class Task>
class WorkStealingBuffers {
 public:
#if defined(__CUDACC__)
  // Runs `initial` and every task they spawn (TaskPool::run).
  template <int BlockThreads, class Processor>
  PoolStats run(const std::vector<Task>& initial, const Processor& processor,
                const PoolOptions& options) {
    const auto kernel = work_stealing_kernel<BlockThreads, Task, Processor>;
    const unsigned blocks =
        pool_blocks(options, (const void*)kernel, BlockThreads, initial.size());
    const uint32_t capacity = options.slots_per_block;
    allocate(blocks, capacity);
    PoolView<Task> view{heads_.data(), tails_.data(), slots_.data(), capacity, blocks,
                        options.steal_attempts, counters_.data()};
    cudaStream_t stream = options.stream;
    IRGL_CUDA_CHECK(cudaMemsetAsync(heads_.data(), 0, sizeof(unsigned long long) * blocks, stream));
    PoolCounters start{};
    start.outstanding = initial.size();
    IRGL_CUDA_CHECK(cudaMemcpyAsync(counters_.data(), &start, sizeof start,
                                    cudaMemcpyHostToDevice, stream));
    DeviceBuffer<Task> tasks(initial.size());
    if (!initial.empty())
      IRGL_CUDA_CHECK(cudaMemcpyAsync(tasks.data(), initial.data(), sizeof(Task) * initial.size(),
                                      cudaMemcpyHostToDevice, stream));
    deal_tasks_kernel<<<blocks, BlockThreads, 0, stream>>>(view, tasks.data(), initial.size());
    IRGL_CUDA_CHECK_LAUNCH();
    PoolStats stats;
    stats.blocks = blocks;
    stats.slots_per_block = capacity;
    if (!initial.empty()) {
      kernel<<<blocks, BlockThreads, 0, stream>>>(view, processor);
      IRGL_CUDA_CHECK_LAUNCH();
      stats.launches = 1;
    }
    PoolCounters end{};
    IRGL_CUDA_CHECK(cudaMemcpyAsync(&end, counters_.data(), sizeof end, cudaMemcpyDeviceToHost,
                                    stream));
    IRGL_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (end.aborted)
      throw std::runtime_error(overflow_message(
          options.scheme, capacity,
          "block " + std::to_string(end.overflow_block) + "'s deque overflowed"));
    stats.tasks_run = end.tasks_run;
    stats.steals = end.steals;
    stats.most_slots_used =
        std::max<uint64_t>(end.most_slots_used, (initial.size() + blocks - 1) / blocks);
    return stats;
  }
#endif

 private:
  void allocate(unsigned blocks, uint32_t capacity) {
    if (blocks == blocks_ && capacity == capacity_) return;
    heads_ = DeviceBuffer<unsigned long long>(blocks);
    tails_ = DeviceBuffer<uint32_t>(blocks);
    slots_ = DeviceBuffer<Task>(uint64_t(blocks) * capacity);
    if (counters_.empty()) counters_ = DeviceBuffer<PoolCounters>(1);
    blocks_ = blocks;
    capacity_ = capacity;
  }

  unsigned blocks_ = 0;
  uint32_t capacity_ = 0;
  DeviceBuffer<unsigned long long> heads_;
  DeviceBuffer<uint32_t> tails_;
  DeviceBuffer<Task> slots_;
  DeviceBuffer<PoolCounters> counters_;
};

}  // namespace irgl::gpu::tasks
