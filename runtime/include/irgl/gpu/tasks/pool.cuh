// The vocabulary of the task pools (task_pool.cuh): options, statistics,
// the counters a run's blocks share, the spawner a processor gets, and the
// block loop's step that runs one task.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "irgl/gpu/check.h"

namespace irgl::gpu::tasks {

// How a pool hands out its tasks (paper 003's dynamic scheme and its
// baseline; one option switches).
enum class PoolScheme : uint8_t {
  work_stealing,  // a deque per block, stealing when empty (work_stealing.cuh)
  static_rounds,  // two arrays: split evenly, append with fetch-and-add,
                  // swap and relaunch until no task is new (static_rounds.cuh)
};
// "work-stealing", "static".
inline const char* to_string(PoolScheme scheme) {
  return scheme == PoolScheme::static_rounds ? "static" : "work-stealing";
}

// How a pool runs; a run's values, never process-wide state.
struct PoolOptions {
  // Task slots per block: each deque's capacity (work stealing), or the
  // share of each of the two arrays (static: blocks x slots each).
  uint32_t slots_per_block = 4096;
  unsigned blocks = 0;              // 0: as many as are resident at once
  unsigned steal_attempts = 8;      // random victims tried before checking for the end
  cudaStream_t stream = nullptr;
  PoolScheme scheme = PoolScheme::work_stealing;
};

// What a run did (read back after it).
struct PoolStats {
  uint64_t tasks_run = 0;  // processor calls, initial tasks included
  uint64_t steals = 0;     // tasks taken from another block's deque
  unsigned blocks = 0;
  uint32_t slots_per_block = 0;
  // The fullest any deque's tail got (work stealing), or the largest
  // round (static): the task slots the run needed.
  uint64_t most_slots_used = 0;
  uint64_t launches = 0;  // kernel launches (static: one per round)
};

// The counters every block of a run shares (device memory).
struct PoolCounters {
  unsigned long long outstanding;  // tasks given or spawned, not finished
  unsigned long long tasks_run;
  unsigned long long steals;
  unsigned int aborted;            // a spawn found no room: every block leaves
  unsigned int overflow_block;
  unsigned int most_slots_used;
  unsigned int spawned;            // static: the round's tasks appended so far
};

// What a processor spawns through: each call takes the next slot (a count
// in shared memory: above the block's tail; or in device memory: the
// static scheme's output array) and, if it is below `room`, writes the task
// there and fences it, for the block to publish after the task. The count
// goes on past `room`: more spawns than room is the overflow the block (or
// the host) reads from it after the task, and the pool then aborts.
template <class Task>
struct TaskSpawner {
  Task* free_slots;
  uint32_t room;      // slots from free_slots on
  uint32_t* spawned;  // spawn calls so far

#if defined(__CUDACC__)
  // False when the task found no room (the run will abort).
  __device__ bool operator()(const Task& task) const {
    const uint32_t slot = atomicAdd(spawned, 1u);
    if (slot >= room) return false;
    free_slots[slot] = task;
    __threadfence();  // before the block's barrier and the release that publishes it
    return true;
  }
#endif
};

#if defined(__CUDACC__)
namespace detail {

// Runs `task` (in shared memory) with every thread of the block, spawning
// through `spawn`; the block is synchronized after.
template <class Task, class Processor>
__device__ void run_task(const Processor& processor, const Task& task,
                         const TaskSpawner<Task>& spawn) {
  processor(task, spawn);
  __syncthreads();
}

// Marks the run aborted: every block leaves at its next check.
__device__ inline void abort_run(PoolCounters* counters) {
  atomicExch(&counters->overflow_block, blockIdx.x);
  atomicExch(&counters->aborted, 1u);
}

}  // namespace detail
#endif

// The blocks of `kernel` resident at once on this GPU (at least one per SM).
inline unsigned resident_blocks(const void* kernel, int threads) {
  int device = 0, per_sm = 0, sms = 0;
  IRGL_CUDA_CHECK(cudaGetDevice(&device));
  IRGL_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  IRGL_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
  return unsigned(std::max(per_sm, 1) * sms);
}

// "SCHEME task pool: WHAT (N task slots per block); raise the slots per block ...".
inline std::string overflow_message(PoolScheme scheme, uint32_t slots, const std::string& what) {
  return std::string(to_string(scheme)) + " task pool: " + what + " (" + std::to_string(slots) +
         " task slots per block); raise the slots per block (PoolOptions::slots_per_block)";
}

// The blocks a run of `kernel` uses: options.blocks, or as many as are
// resident at once. Throws when `initial_tasks` do not fit blocks x
// slots_per_block.
inline unsigned pool_blocks(const PoolOptions& options, const void* kernel, int threads,
                            uint64_t initial_tasks) {
  const unsigned blocks = options.blocks ? options.blocks : resident_blocks(kernel, threads);
  if (initial_tasks > uint64_t(blocks) * options.slots_per_block)
    throw std::runtime_error(overflow_message(options.scheme, options.slots_per_block,
                                              "the initial tasks do not fit"));
  return blocks;
}

}  // namespace irgl::gpu::tasks
