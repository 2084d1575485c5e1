// The vocabulary of the task pools (task_pool.cuh): options, statistics,
// the counters a run's blocks share, the spawner a processor gets, and the
// block loop's step that runs one task.
#pragma once

#include <cuda_runtime.h>

#include <cuda/atomic>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "irgl/gpu/check.h"
#include "irgl/support/name_list.h"

namespace irgl::gpu::tasks {

// How a pool hands out its tasks: paper 003's dynamic scheme and its
// three baselines; one option switches (kPoolSchemes names them).
enum class PoolScheme : uint8_t {
  work_stealing,      // a deque per block, stealing when empty (work_stealing.cuh)
  static_rounds,      // two arrays: split evenly, append with fetch-and-add,
                      // swap and relaunch until no task is new (static_rounds.cuh)
  blocking_queue,     // one FIFO ring for the grid behind a lock (shared_queue.cuh)
  nonblocking_queue,  // the same ring, claimed with fetch-and-add and compare-and-swap
};

// The schemes' names (options, reports) and what each does, in one table.
struct PoolSchemeName {
  PoolScheme scheme;
  const char* name;
  const char* help;
};
inline constexpr PoolSchemeName kPoolSchemes[] = {
    {PoolScheme::work_stealing, "work-stealing", "a deque per block, idle blocks steal"},
    {PoolScheme::static_rounds, "static", "two arrays: a launch per generation of tasks"},
    {PoolScheme::blocking_queue, "blocking-queue", "one FIFO queue for all blocks, behind a lock"},
    {PoolScheme::nonblocking_queue, "nonblocking-queue",
     "one FIFO queue for all blocks, lock-free"},
};

// "work-stealing", "static", "blocking-queue", "nonblocking-queue".
inline const char* to_string(PoolScheme scheme) {
  for (const PoolSchemeName& entry : kPoolSchemes)
    if (entry.scheme == scheme) return entry.name;
  return "?";
}
// "work-stealing, static, blocking-queue or nonblocking-queue" (errors).
inline std::string pool_scheme_names() { return name_list(kPoolSchemes); }
// The scheme named `text`, or false.
inline bool parse_pool_scheme(const std::string& text, PoolScheme& scheme) {
  for (const PoolSchemeName& entry : kPoolSchemes)
    if (text == entry.name) {
      scheme = entry.scheme;
      return true;
    }
  return false;
}

// Who runs one task: the whole block (its threads cooperate on the task,
// paper 003's form) or one thread (a block runs up to BlockThreads tasks
// at once: the form of the language's task loops, whose body is
// sequential code per task).
enum class TaskWidth : uint8_t { block, thread };

// How a pool runs; a run's values, never process-wide state.
struct PoolOptions {
  // Task slots per block: each deque's capacity (work stealing), or the
  // block's share of each of the two arrays (static) or of the ring (queues:
  // blocks x slots each), where a block's spawns also wait for the queue.
  uint32_t slots_per_block = 4096;
  unsigned blocks = 0;              // 0: as many as are resident at once
  unsigned steal_attempts = 8;      // random victims tried before checking for the end
  // A task per thread, work stealing and queues: the tasks a thread may run in a row
  // in one step, each the first its predecessor spawned (TaskSpawner::next);
  // 1 (the default) sends every spawn through the deque.
  unsigned chain = 1;
  cudaStream_t stream = nullptr;
  PoolScheme scheme = PoolScheme::work_stealing;

  bool operator==(const PoolOptions& other) const {
    return slots_per_block == other.slots_per_block && blocks == other.blocks &&
           steal_attempts == other.steal_attempts && chain == other.chain &&
           stream == other.stream && scheme == other.scheme;
  }
  bool operator!=(const PoolOptions& other) const { return !(*this == other); }
};

// What a run did (read back after it).
struct PoolStats {
  uint64_t tasks_run = 0;  // processor calls, initial tasks included
  uint64_t steals = 0;     // steals from another block's deque: a task, or (a task
                           // per thread) a group of up to 32
  // Work stealing: the blocks' steps that ran tasks (tasks_run / steps is
  // how full a block's steps were) and the times a block found no task.
  uint64_t steps = 0;
  uint64_t idle_polls = 0;
  unsigned blocks = 0;
  uint32_t slots_per_block = 0;
  // The fullest any deque's tail got (work stealing), or the largest
  // round (static): the task slots the run needed.
  uint64_t most_slots_used = 0;
  uint64_t launches = 0;  // kernel launches (static: one per round)
};

// The pool runs of a program run, for its report: what the paper's
// metrics need (tasks, and the task slots a scheme needed).
class PoolLog {
 public:
  struct Entry {
    std::string kernel;
    PoolScheme scheme;
    PoolStats stats;
    double milliseconds;  // the run's GPU time, from the first tasks' upload to the end
  };
  void record(std::string kernel, PoolScheme scheme, const PoolStats& stats,
              double milliseconds) {
    entries_.push_back({std::move(kernel), scheme, stats, milliseconds});
  }
  void clear() { entries_.clear(); }
  bool empty() const { return entries_.empty(); }
  // One line per kernel, its runs added up: "task pool expand: work-stealing,
  // 823543 tasks in 1 run, 1204 steals, 1056 blocks x 4096 slots, at most
  // 812 used, 1 launch, 0.612 ms".
  std::string summary() const;

 private:
  std::vector<Entry> entries_;
};

// The counters every block of a run shares (device memory).
struct PoolCounters {
  unsigned long long outstanding;  // tasks given or spawned, not finished
  unsigned long long tasks_run;
  unsigned long long steals;
  unsigned long long steps;
  unsigned long long idle_polls;
  unsigned int aborted;            // a spawn found no room: every block leaves
  unsigned int overflow_block;
  unsigned int most_slots_used;
  unsigned int spawned;            // static: the round's tasks appended so far
};

// What a processor spawns through: each call takes the next slot (a count
// in shared memory: above the block's tail; or in device memory: the
// static scheme's output array) and, if it is below `room`, writes the task
// there, for the block to publish after its step (a barrier, then thread
// 0's release, which orders the block's writes before the new tail; the
// static scheme's next launch reads them). The count goes on past `room`:
// more spawns than room is the overflow the block (or the host) reads from
// it after the task, and the pool then aborts.
//
// With `next` set (a task per thread, PoolOptions::chain), a task's first
// spawn goes there instead, for the same thread to run next in the same
// step: a chain of tasks (a path of a traversal) advances without a round
// trip through the deque.
template <class Task>
struct TaskSpawner {
  Task* free_slots;
  uint32_t room;      // slots from free_slots on
  uint32_t* spawned;  // spawn calls so far
  Task* next = nullptr;
  bool* has_next = nullptr;

#if defined(__CUDACC__)
  // False when the task found no room (the run will abort).
  __device__ bool operator()(const Task& task) const {
    if (has_next && !*has_next) {
      *next = task;
      *has_next = true;
      return true;
    }
    const uint32_t slot = atomicAdd(spawned, 1u);
    if (slot >= room) return false;
    free_slots[slot] = task;
    return true;
  }
#endif
};

#if defined(__CUDACC__)
namespace detail {

// Runs `task` (in shared memory) with every thread of the block, spawning
// through `spawn`; the block is synchronized after.
template <class Task, class Processor>
__device__ void run_task(Processor& processor, const Task& task, const TaskSpawner<Task>& spawn) {
  processor(task, spawn);
  __syncthreads();
}

// A processor may keep per-thread partial results (the language's
// reductions) and write them with a block-collective `flush<BlockThreads>()`,
// which the pool calls with every thread when the block's kernel ends.
template <class Processor, int BlockThreads, class = void>
struct HasFlush : std::false_type {};
template <class Processor, int BlockThreads>
struct HasFlush<Processor, BlockThreads,
                std::void_t<decltype(std::declval<Processor&>().template flush<BlockThreads>())>>
    : std::true_type {};

template <int BlockThreads, class Processor>
__device__ void flush_processor(Processor& processor) {
  if constexpr (HasFlush<Processor, BlockThreads>::value) processor.template flush<BlockThreads>();
}

// What a block does after it looked for work.
enum : int { kIdle, kWork, kDone };

// A block's statistics, kept by its thread 0 and added to the run's
// counters once, when the block leaves (not per task: every block would
// contend for the same words).
struct BlockTally {
  unsigned long long tasks = 0, steals = 0, steps = 0, idle_polls = 0;
  unsigned int most_slots = 0;

  __device__ void flush(PoolCounters* counters) const {
    if (tasks) atomicAdd(&counters->tasks_run, tasks);
    if (steals) atomicAdd(&counters->steals, steals);
    if (steps) atomicAdd(&counters->steps, steps);
    if (idle_polls) atomicAdd(&counters->idle_polls, idle_polls);
    if (most_slots) atomicMax(&counters->most_slots_used, most_slots);
  }
};

// The block's state after thread 0 looked for work (every thread). A block
// that found no task while others still run some that may spawn backs off
// (doubling up to 4 us) before it looks again.
__device__ inline int after_looking(int state, unsigned& idle_ns) {
  if (state == kIdle) {
    if (threadIdx.x == 0) __nanosleep(idle_ns);
    idle_ns = idle_ns < 4096 ? 2 * idle_ns : idle_ns;
    __syncthreads();
  } else {
    idle_ns = 32;
  }
  return state;
}

// The state after thread 0 looked for work and found none: done once no
// task is outstanding (none queued, none running), else idle.
__device__ inline int without_work(PoolCounters* counters) {
  return cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(counters->outstanding)
                     .load(cuda::memory_order_acquire) == 0
             ? kDone
             : kIdle;
}

// One thread's task (TaskWidth::thread) and, up to `chain` links in all,
// the first child each link spawned (TaskSpawner::next; spawn.next and
// spawn.has_next point to the thread's shared-memory link). The links
// after the first are spawned and run here: the caller counts them as
// tasks run and never as outstanding. Returns that number.
template <class Task, class Processor>
__device__ uint32_t run_chain(Processor& processor, Task task, TaskSpawner<Task> spawn,
                              unsigned chain) {
  uint32_t links = 0;
  for (uint32_t link = 1;; ++link) {
    if (link >= chain) spawn.has_next = nullptr;  // the last link's spawns go out
    if (spawn.has_next) *spawn.has_next = false;
    processor(task, spawn);
    if (!spawn.has_next || !*spawn.has_next) return links;
    task = *spawn.next;
    ++links;
  }
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

// A run that needed more task slots than it had (or initial tasks that do
// not fit): the pool stops rather than lose a task. Its own type, so that
// a caller can tell it from a CUDA error.
class PoolOverflow : public std::runtime_error {
 public:
  // "SCHEME task pool: WHAT (N task slots per block); raise the slots per block ...".
  PoolOverflow(PoolScheme scheme, uint32_t slots, const std::string& what)
      : std::runtime_error(std::string(to_string(scheme)) + " task pool: " + what + " (" +
                           std::to_string(slots) +
                           " task slots per block); raise the slots per block "
                           "(PoolOptions::slots_per_block)") {}
  // The same overflow, told in the caller's words.
  explicit PoolOverflow(const std::string& message) : std::runtime_error(message) {}
};

// The blocks a run of `kernel` uses: options.blocks, or as many as are
// resident at once. Throws when `initial_tasks` do not fit blocks x
// slots_per_block.
inline unsigned pool_blocks(const PoolOptions& options, const void* kernel, int threads,
                            uint64_t initial_tasks) {
  const unsigned blocks = options.blocks ? options.blocks : resident_blocks(kernel, threads);
  if (initial_tasks > uint64_t(blocks) * options.slots_per_block)
    throw PoolOverflow(options.scheme, options.slots_per_block, "the initial tasks do not fit");
  return blocks;
}

#if defined(__CUDACC__)
namespace detail {

// Runs a persistent pool kernel (when there is a task) and reads the run's
// counters back into `stats`; a run a block aborted throws PoolOverflow,
// `what` saying where its spawns found no room ("'s deque overflowed").
template <int BlockThreads, class View, class Processor>
void run_persistent(void (*kernel)(View, Processor), unsigned blocks, const View& view,
                    const Processor& processor, uint64_t count, PoolCounters* counters,
                    const PoolOptions& options, const char* what, PoolStats& stats) {
  cudaStream_t stream = options.stream;
  if (count > 0) {
    kernel<<<blocks, BlockThreads, 0, stream>>>(view, processor);
    IRGL_CUDA_CHECK_LAUNCH();
    stats.launches = 1;
  }
  PoolCounters end{};
  IRGL_CUDA_CHECK(
      cudaMemcpyAsync(&end, counters, sizeof end, cudaMemcpyDeviceToHost, stream));
  IRGL_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (end.aborted)
    throw PoolOverflow(options.scheme, options.slots_per_block,
                       "block " + std::to_string(end.overflow_block) + what);
  stats.tasks_run = end.tasks_run;
  stats.steals = end.steals;
  stats.steps = end.steps;
  stats.idle_polls = end.idle_polls;
  stats.most_slots_used = std::max<uint64_t>(stats.most_slots_used, end.most_slots_used);
}

}  // namespace detail
#endif

namespace detail {
inline std::string format_ms(double milliseconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f ms", milliseconds);
  return text;
}
}  // namespace detail

inline std::string PoolLog::summary() const {
  using detail::format_ms;
  std::string text;
  std::vector<bool> done(entries_.size(), false);
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (done[i]) continue;
    const Entry& first = entries_[i];
    PoolStats total{};
    uint64_t runs = 0;
    double milliseconds = 0;
    for (size_t j = i; j < entries_.size(); ++j) {
      const Entry& entry = entries_[j];
      if (entry.kernel != first.kernel) continue;
      done[j] = true;
      ++runs;
      milliseconds += entry.milliseconds;
      total.tasks_run += entry.stats.tasks_run;
      total.steals += entry.stats.steals;
      total.steps += entry.stats.steps;
      total.idle_polls += entry.stats.idle_polls;
      total.launches += entry.stats.launches;
      total.most_slots_used = std::max(total.most_slots_used, entry.stats.most_slots_used);
    }
    text += std::string(text.empty() ? "" : "\n") + "task pool " + first.kernel + ": " +
            to_string(first.scheme) + ", " + std::to_string(total.tasks_run) + " tasks in " +
            std::to_string(runs) + (runs == 1 ? " run, " : " runs, ") +
            std::to_string(total.steals) + " steals, " +
            (total.steps ? std::to_string(total.steps) + " block steps, " +
                               std::to_string(total.idle_polls) + " idle polls, "
                         : std::string()) +
            std::to_string(first.stats.blocks) +
            " blocks x " + std::to_string(first.stats.slots_per_block) + " slots, at most " +
            std::to_string(total.most_slots_used) + " used, " + std::to_string(total.launches) +
            (total.launches == 1 ? " launch" : " launches") + ", " + format_ms(milliseconds);
  }
  return text;
}

}  // namespace irgl::gpu::tasks
