// A pool of tasks of any trivially copyable type, run until no task is
// left, by the scheme PoolOptions::scheme names (pool.cuh): work stealing
// (work_stealing.cuh, the default), the static two-array rounds
// (static_rounds.cuh) or a shared queue, blocking or not
// (shared_queue.cuh). The processor is the same for all:
//
//   struct Split {
//     __device__ void operator()(const Cell& cell, const TaskSpawner<Cell>& spawn) const;
//   };
//   TaskPool<Cell> pool(options);
//   const PoolStats stats = pool.run<256>(initial, Split{...});
//
// docs/tasks.md has the rules (block-collective processors, exact
// termination, overflow as an error).
#pragma once

#include <stdexcept>
#include <type_traits>
#include <vector>

#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/tasks/pool.cuh"
#include "irgl/gpu/tasks/shared_queue.cuh"
#include "irgl/gpu/tasks/static_rounds.cuh"
#include "irgl/gpu/tasks/work_stealing.cuh"

namespace irgl::gpu::tasks {

template <class Task>
class TaskPool {
  static_assert(std::is_trivially_copyable_v<Task>, "tasks are copied as bytes between blocks");

 public:
  explicit TaskPool(PoolOptions options = {}) : options_(options) {
    if (options_.slots_per_block == 0)
      throw std::invalid_argument("task pool: a block needs at least one task slot");
  }
  const PoolOptions& options() const { return options_; }

#if defined(__CUDACC__)
  // Runs `initial` and every task they spawn. Throws PoolOverflow (a
  // std::runtime_error) when a spawn found no room (the run stops: no task is lost silently)
  // or the initial tasks do not fit.
  // With TaskWidth::thread each thread runs a task of its own.
  template <int BlockThreads, TaskWidth Width = TaskWidth::block, class Processor>
  PoolStats run(const std::vector<Task>& initial, const Processor& processor) {
    DeviceBuffer<Task> tasks(initial.size());
    if (!initial.empty()) tasks.upload_async(initial.data(), initial.size(), options_.stream);
    return run<BlockThreads, Width>(tasks.data(), initial.size(), processor);
  }
  // The same from `count` initial tasks in device memory (written before,
  // in the pool's stream or synchronized with it).
  template <int BlockThreads, TaskWidth Width = TaskWidth::block, class Processor>
  PoolStats run(const Task* initial, uint64_t count, const Processor& processor) {
    switch (options_.scheme) {
      case PoolScheme::static_rounds:
        return static_rounds_.template run<BlockThreads, Width>(initial, count, processor, options_);
      case PoolScheme::blocking_queue:
        return queue_.template run<BlockThreads, true, Width>(initial, count, processor, options_);
      case PoolScheme::nonblocking_queue:
        return queue_.template run<BlockThreads, false, Width>(initial, count, processor, options_);
      case PoolScheme::work_stealing:
        break;
    }
    return work_stealing_.template run<BlockThreads, Width>(initial, count, processor, options_);
  }
#endif

 private:
  PoolOptions options_;
  WorkStealingBuffers<Task> work_stealing_;
  StaticRoundsBuffers<Task> static_rounds_;
  SharedQueueBuffers<Task> queue_;
};

}  // namespace irgl::gpu::tasks
