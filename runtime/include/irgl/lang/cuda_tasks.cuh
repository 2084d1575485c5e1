// Tasks in irglc's CUDA programs (irgl.h's TaskPool on the GPU): the
// driver's pool holds the tasks pushed before a task kernel runs; the
// kernel's launcher runs them, and every task they push, in a task pool
// of the runtime (gpu/tasks/task_pool.cuh), a task per thread, with the
// scheme the run names (CudaRun::task_pool: work stealing by default).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "irgl/gpu/tasks/task_pool.cuh"
#include "irgl/lang/cuda_run.h"

namespace irgl::lang {

// What a task processor spawns through (generated task kernels).
template <class T>
using TaskSpawner = gpu::tasks::TaskSpawner<T>;

// The driver's pool: the tasks pushed since the last task kernel ran.
template <class T>
class TaskPool {
 public:
  void push(const T& task) { tasks_.push_back(task); }
  size_t size() const { return tasks_.size(); }
  bool empty() const { return tasks_.empty(); }
  // The tasks pushed so far, removed: a task kernel runs them.
  std::vector<T> take() { return std::exchange(tasks_, {}); }

 private:
  std::vector<T> tasks_;
};

// `pool.push(task)` inside a task loop: a spawn into the running pool.
template <class T>
struct TaskPush {
  const TaskSpawner<T>& spawner;
#if defined(__CUDACC__)
  __device__ void push(const T& task) const { spawner(task); }
#endif
};

// A task kernel's launch site: its pool's GPU memory, kept between runs
// with the same options.
template <class T>
class TaskLauncher {
 public:
#if defined(__CUDACC__)
  // Runs the driver's tasks with `body` (the kernel's task processor) until
  // none is left; the pool is empty after. Throws on overflow (pool.cuh).
  template <int BlockThreads, class Body>
  void run(const char* kernel, TaskPool<T>& pool, const Body& body, const CudaRun& run) {
    const gpu::tasks::PoolOptions& options = run.task_pool;
    if (!pool_ || !same_shape(pool_->options(), options)) pool_.emplace(options);
    gpu::tasks::PoolStats stats;
    try {
      stats = pool_->template run<BlockThreads, gpu::tasks::TaskWidth::thread>(pool.take(), body);
    } catch (const gpu::tasks::PoolOverflow& overflow) {  // name the program's option
      throw gpu::tasks::PoolOverflow(std::string(kernel) + ": " + overflow.what() +
                                     "; a program's option: --task-slots");
    }
    if (run.pool_log) run.pool_log->record(kernel, options.scheme, stats);
  }
#endif

 private:
  static bool same_shape(const gpu::tasks::PoolOptions& a, const gpu::tasks::PoolOptions& b) {
    return a.scheme == b.scheme && a.slots_per_block == b.slots_per_block &&
           a.blocks == b.blocks && a.steal_attempts == b.steal_attempts && a.chain == b.chain &&
           a.stream == b.stream;
  }
  std::optional<gpu::tasks::TaskPool<T>> pool_;
};

}  // namespace irgl::lang
