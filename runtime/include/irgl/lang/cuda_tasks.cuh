// Tasks in irglc's CUDA programs (irgl.h's TaskPool on the GPU): the
// driver's pool holds the tasks pushed before a task kernel runs; the
// kernel's launcher runs them, and every task they push, in a task pool
// of the runtime (gpu/tasks/task_pool.cuh), a task per thread, with the
// scheme the run names (CudaRun::task_pool: work stealing by default).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "irgl/gpu/check.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/tasks/task_pool.cuh"
#include "irgl/gpu/timer.h"
#include "irgl/lang/cuda_run.h"

namespace irgl::lang {

// What a task processor spawns through (generated task kernels).
template <class T>
using TaskSpawner = gpu::tasks::TaskSpawner<T>;
// A task per thread, or per block (a block task: generated task kernels
// whose body holds parallel loops).
using TaskWidth = gpu::tasks::TaskWidth;

// `pool.push(task)` in a vertex loop (a kernel that seeds a pool): the
// task goes to the pool's device buffer; pushes past `room` are counted,
// not written, and the pool reports them before any task runs.
template <class T>
struct TaskSeeds {
  T* slots;
  unsigned long long* count;
  uint64_t room;
#if defined(__CUDACC__)
  __device__ void push(const T& task) const {
    const unsigned long long slot = atomicAdd(count, 1ull);
    if (slot < room) slots[slot] = task;
  }
#endif
};

// The driver's pool: the tasks pushed since the last task kernel ran, by
// vertex loops on the GPU (seeds) and then by the driver.
template <class T>
class TaskPool {
 public:
  void push(const T& task) { pushed_.push_back(task); }

  // A vertex loop's view for pushes: room for `more` tasks after those
  // vertex loops pushed so far (irglc passes the loop graph's vertices).
  // Reads how many they pushed (a loop seeding every round of a pipe
  // needs room for what is pending, not for every round); throws when a
  // loop pushed more than its room.
  TaskSeeds<T> seeds(uint64_t more) {
    uint64_t seeded = 0;
    if (count_.empty()) {
      count_ = gpu::DeviceBuffer<unsigned long long>(1);
      count_.zero();
    } else {
      seeded = seeded_so_far();
    }
    reserve(seeded + more, seeded);
    room_ = seeded + more;
    return {tasks_.data(), count_.data(), room_};
  }

  // Every task pushed so far, in device memory (valid until the next
  // push or seeds()), `count` of them; the pool is empty after. Throws
  // when vertex loops pushed more than their room.
  const T* take(uint64_t& count) {
    uint64_t seeded = 0;
    if (!count_.empty()) {
      seeded = seeded_so_far();
      count_.zero();
    }
    reserve(seeded + pushed_.size(), seeded);
    if (!pushed_.empty())
      IRGL_CUDA_CHECK(cudaMemcpy(tasks_.data() + seeded, pushed_.data(), sizeof(T) * pushed_.size(),
                                 cudaMemcpyHostToDevice));
    count = seeded + pushed_.size();
    pushed_.clear();
    room_ = 0;
    return tasks_.data();
  }

 private:
  // The tasks vertex loops pushed so far (device count); throws when they
  // pushed more than the room they were given.
  uint64_t seeded_so_far() const {
    const uint64_t seeded = count_.download()[0];
    if (seeded > room_)
      throw std::runtime_error("task pool: vertex loops pushed " + std::to_string(seeded) +
                               " tasks, room for " + std::to_string(room_) +
                               " (a task per vertex of each loop's graph)");
    return seeded;
  }

  // Device room for `needed` tasks, keeping the first `kept`.
  void reserve(uint64_t needed, uint64_t kept) {
    if (needed <= tasks_.size()) return;
    gpu::DeviceBuffer<T> bigger(std::max<uint64_t>(needed, 2 * tasks_.size()));
    if (kept)
      IRGL_CUDA_CHECK(cudaMemcpy(bigger.data(), tasks_.data(), sizeof(T) * kept,
                                 cudaMemcpyDeviceToDevice));
    tasks_ = std::move(bigger);
  }

  std::vector<T> pushed_;                         // by the driver
  gpu::DeviceBuffer<T> tasks_;                    // vertex loops' pushes, then the driver's
  gpu::DeviceBuffer<unsigned long long> count_;   // vertex loops' pushes (device)
  uint64_t room_ = 0;                             // room given to vertex loops so far
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
  // Width: a task per thread, or per block for a block task (its body
  // holds parallel loops; the threads of a block run one task together).
  template <int BlockThreads, gpu::tasks::TaskWidth Width = gpu::tasks::TaskWidth::thread,
            class Body>
  void run(const char* kernel, TaskPool<T>& pool, const Body& body, const CudaRun& run) {
    const gpu::tasks::PoolOptions& options = run.task_pool;
    if (!pool_ || pool_->options() != options) pool_.emplace(options);
    gpu::tasks::PoolStats stats;
    gpu::CudaEventTimer timer;
    try {
      uint64_t count = 0;
      const T* tasks = pool.take(count);
      timer.start(options.stream);
      stats = pool_->template run<BlockThreads, Width>(tasks, count, body);
      timer.stop(options.stream);
    } catch (const gpu::tasks::PoolOverflow& overflow) {  // name the program's option
      throw gpu::tasks::PoolOverflow(std::string(kernel) + ": " + overflow.what() +
                                     "; a program's option: --task-slots");
    }
    if (run.pool_log) run.pool_log->record(kernel, options.scheme, stats, timer.elapsed_ms());
  }
#endif

 private:
  std::optional<gpu::tasks::TaskPool<T>> pool_;
};

}  // namespace irgl::lang
