// A pool of tasks of any trivially copyable type, run until no task is
// left, by the scheme PoolOptions::scheme names (pool.cuh): work stealing
// (work_stealing.cuh, the default) or the static two-array rounds
// (static_rounds.cuh). The processor is the same for both:
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

#include "irgl/gpu/tasks/pool.cuh"
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
    if (options_.scheme == PoolScheme::static_rounds)
      return static_rounds_.template run<BlockThreads, Width>(initial, processor, options_);
    return work_stealing_.template run<BlockThreads, Width>(initial, processor, options_);
  }
#endif

 private:
  PoolOptions options_;
  WorkStealingBuffers<Task> work_stealing_;
  StaticRoundsBuffers<Task> static_rounds_;
};

}  // namespace irgl::gpu::tasks
