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
// the run throws PoolOverflow naming the deque's slots and the
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

// With a task per thread (TaskWidth::thread) a deque's slot holds a group
// of up to kTaskGroup tasks: a block pops groups enough for all its
// threads in one step, and a thief takes a warp's worth of work at once
// instead of one task (which would leave it a step per tree level to fill
// its threads).
constexpr uint32_t kTaskGroup = 32;

// The device side of a pool: the deques (slot arrays back to back) and
// the counters. Grouped (a task per thread): `capacity` counts group
// slots, `slots` holds kTaskGroup tasks per slot and `group_sizes` the
// tasks in each.
template <class Task>
struct PoolView {
  unsigned long long* heads;
  uint32_t* tails;
  Task* slots;
  uint32_t capacity;
  unsigned blocks;
  unsigned steal_attempts;
  PoolCounters* counters;
  uint32_t* group_sizes = nullptr;
  unsigned chain = 1;

#if defined(__CUDACC__)
  __device__ TaskDeque<Task> deque(unsigned block) const {
    return {&heads[block], &tails[block], slots + uint64_t(block) * capacity, capacity};
  }
  // A block's deque of groups: its elements are the groups' sizes.
  __device__ TaskDeque<uint32_t> group_deque(unsigned block) const {
    return {&heads[block], &tails[block], group_sizes + uint64_t(block) * capacity, capacity};
  }
  // The tasks of group slot `slot` of a block's deque.
  __device__ Task* group_tasks(unsigned block, uint32_t slot) const {
    return slots + (uint64_t(block) * capacity + slot) * kTaskGroup;
  }
  __device__ bool aborted() const {
    return cuda::atomic_ref<unsigned int, cuda::thread_scope_device>(counters->aborted)
        .load(cuda::memory_order_relaxed) != 0;
  }
#endif
};

#if defined(__CUDACC__)
namespace detail {

// A random block other than this one (xorshift on `rng`); needs two blocks.
__device__ inline unsigned random_victim(unsigned blocks, uint32_t& rng) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  const unsigned victim = rng % (blocks - 1);
  return victim >= blockIdx.x ? victim + 1 : victim;
}

// A task stolen from the head of a random other block's deque, trying
// `steal_attempts` victims. Thread 0 only.
template <class Task>
__device__ bool steal_task(const PoolView<Task>& pool, uint32_t& rng, Task& task) {
  if (pool.blocks < 2) return false;
  for (unsigned attempt = 0; attempt < pool.steal_attempts; ++attempt)
    if (pool.deque(random_victim(pool.blocks, rng)).steal(task)) return true;
  return false;
}

// After a step: the `taken` tasks' children (`spawned`, already written
// above the tail, in `slots` deque slots of `per_slot` tasks) are counted
// and the tasks uncounted in one atomic add, then published.
template <class Task, class Slot>
__device__ void finish_tasks(const PoolView<Task>& pool, const TaskDeque<Slot>& own,
                             uint32_t spawned, uint32_t slots, uint32_t per_slot, uint32_t taken,
                             bool stolen, BlockTally& tally) {
  atomicAdd(&pool.counters->outstanding,
            static_cast<unsigned long long>(spawned) - static_cast<unsigned long long>(taken));
  __threadfence();  // the block's spawns (ordered before by its barrier), then the tail
  own.publish(slots);
  tally.tasks += taken;
  tally.steals += stolen;
  ++tally.steps;
  if (spawned) tally.most_slots = max(tally.most_slots, own.owner_tail() * per_slot);
}

// A group of tasks stolen by a warp from a random other block's deque
// (`steal_attempts` victims): lane 0 looks and claims, the lanes copy the
// group into `into` (shared memory) in between. The warp's lanes all call
// it; true (and the group's size) on each lane when one was taken.
template <class Task>
__device__ bool steal_group(const PoolView<Task>& pool, uint32_t& rng, Task* into,
                            uint32_t& size) {
  constexpr unsigned kAll = 0xffffffffu;
  const unsigned lane = threadIdx.x % 32;
  if (pool.blocks < 2) return false;
  for (unsigned attempt = 0; attempt < pool.steal_attempts; ++attempt) {
    unsigned victim = 0;
    unsigned long long head = 0;
    bool there = false;
    if (lane == 0) {
      victim = random_victim(pool.blocks, rng);
      there = pool.group_deque(victim).look(head);
    }
    if (!__shfl_sync(kAll, there, 0)) continue;
    victim = __shfl_sync(kAll, victim, 0);
    head = __shfl_sync(kAll, head, 0);
    __syncwarp();  // lane 0's view of the victim's deque, for every lane
    const uint32_t slot = DequeHead::index(head);
    const uint32_t n = pool.group_deque(victim).slots[slot];
    if (lane < n) into[lane] = pool.group_tasks(victim, slot)[lane];
    bool won = false;
    if (lane == 0) won = pool.group_deque(victim).claim(head);
    if (__shfl_sync(kAll, won, 0)) {
      size = n;
      return true;
    }
  }
  return false;
}

}  // namespace detail

// The persistent kernel: each block runs tasks until the pool is empty or
// aborted, a task at a time with every thread (TaskWidth::block).
template <int BlockThreads, class Task, class Processor>
__global__ void __launch_bounds__(BlockThreads)
    work_stealing_kernel(PoolView<Task> pool, Processor processor) {
  __shared__ Task current;
  __shared__ int state;
  __shared__ bool stolen;
  __shared__ uint32_t tail;
  __shared__ uint32_t spawned;
  const TaskDeque<Task> own = pool.deque(blockIdx.x);
  uint32_t rng = 2654435761u * (blockIdx.x + 1);
  unsigned idle_ns = 32;
  detail::BlockTally tally;  // thread 0's
  for (;;) {
    if (threadIdx.x == 0) {
      Task task;
      bool took_stolen = false;
      int next = detail::kWork;
      if (pool.aborted()) next = detail::kDone;
      else if (own.pop(task)) {}
      else if (detail::steal_task(pool, rng, task)) took_stolen = true;
      else next = detail::without_work(pool.counters);
      tally.idle_polls += next == detail::kIdle;
      if (next == detail::kWork) current = task;
      state = next;
      stolen = took_stolen;
      tail = own.owner_tail();
      spawned = 0;
    }
    __syncthreads();
    const int now = detail::after_looking(state, idle_ns);
    if (now == detail::kDone) break;
    if (now == detail::kIdle) continue;
    TaskSpawner<Task> spawn{own.slots + tail, own.capacity - tail, &spawned};
    detail::run_task(processor, current, spawn);
    if (threadIdx.x == 0) {
      if (spawned > spawn.room) detail::abort_run(pool.counters);
      else detail::finish_tasks(pool, own, spawned, spawned, 1u, 1u, stolen, tally);
    }
    __syncthreads();  // state and the spawn count are rewritten next
  }
  if (threadIdx.x == 0) tally.flush(pool.counters);
  detail::flush_processor<BlockThreads>(processor);
}

// The same with a task per thread (TaskWidth::thread), over deques of
// task groups: a block pops up to BlockThreads / kTaskGroup groups at once
// (TaskDeque::pop_many), or its warp 0 steals one group, and each thread
// runs one task. The tasks a step spawns fill groups above the tail in
// order (the spawner's count is a task index), whose sizes the block
// writes before it publishes them.
template <int BlockThreads, class Task, class Processor>
__global__ void __launch_bounds__(BlockThreads)
    work_stealing_thread_kernel(PoolView<Task> pool, Processor processor) {
  static_assert(BlockThreads % kTaskGroup == 0, "a block runs whole groups of tasks");
  constexpr uint32_t kGroups = BlockThreads / kTaskGroup;
  __shared__ Task stolen_tasks[kTaskGroup];
  __shared__ Task chain_next[BlockThreads];
  __shared__ bool chain_has_next[BlockThreads];
  __shared__ int state;
  __shared__ bool stolen;
  __shared__ uint32_t first, groups, stolen_size, tail, spawned, taken, chained;
  const TaskDeque<uint32_t> own = pool.group_deque(blockIdx.x);
  Task* const own_tasks = pool.group_tasks(blockIdx.x, 0);
  uint32_t rng = 2654435761u * (blockIdx.x + 1);
  unsigned idle_ns = 32;
  detail::BlockTally tally;  // thread 0's
  for (;;) {
    if (threadIdx.x < 32) {  // warp 0 looks for work
      int next = detail::kWork;
      uint32_t from = 0, count = 0;
      if (threadIdx.x == 0) {
        if (pool.aborted()) next = detail::kDone;
        else count = own.pop_many(kGroups, from);
      }
      next = __shfl_sync(0xffffffffu, next, 0);
      count = __shfl_sync(0xffffffffu, count, 0);
      uint32_t size = 0;
      const bool took = next == detail::kWork && count == 0 &&
                        detail::steal_group(pool, rng, stolen_tasks, size);
      if (threadIdx.x == 0) {
        if (next == detail::kWork && count == 0 && !took) next = detail::without_work(pool.counters);
        tally.idle_polls += next == detail::kIdle;
        state = next;
        first = from;
        groups = count;
        stolen = took;
        stolen_size = size;
        tail = own.owner_tail();
        spawned = 0;
        taken = 0;
        chained = 0;
      }
    }
    __syncthreads();
    const int now = detail::after_looking(state, idle_ns);
    if (now == detail::kDone) break;
    if (now == detail::kIdle) continue;
    const uint32_t group = threadIdx.x / kTaskGroup, lane = threadIdx.x % kTaskGroup;
    bool mine = false;
    Task task;
    if (stolen) {
      mine = threadIdx.x < stolen_size;
      if (mine) task = stolen_tasks[threadIdx.x];
    } else if (group < groups) {
      mine = lane < own.slots[first + group];
      if (mine) task = own_tasks[uint64_t(first + group) * kTaskGroup + lane];
    }
    const unsigned running = __popc(__ballot_sync(0xffffffffu, mine));
    if (lane == 0 && running) atomicAdd(&taken, running);
    __syncthreads();  // the popped slots are free: spawns may reuse them
    // A chain's links are spawned and run in the step: they leave the
    // outstanding count as they enter it, and count as tasks run.
    // The next link waits in shared memory (a local whose address the
    // spawner took would live in slow local memory).
    uint32_t links = 0;
    if (mine) {
      const TaskSpawner<Task> spawn{own_tasks + uint64_t(tail) * kTaskGroup,
                                    (own.capacity - tail) * kTaskGroup, &spawned,
                                    &chain_next[threadIdx.x], &chain_has_next[threadIdx.x]};
      links = detail::run_chain(processor, task, spawn, pool.chain);
    }
    if (links) atomicAdd(&chained, links);
    __syncthreads();
    const uint32_t children = spawned;
    const uint32_t room = (own.capacity - tail) * kTaskGroup;
    const uint32_t new_groups = (children + kTaskGroup - 1) / kTaskGroup;
    if (children <= room)
      for (uint32_t g = threadIdx.x; g < new_groups; g += BlockThreads)
        own.slots[tail + g] = min(kTaskGroup, children - g * kTaskGroup);
    __syncthreads();
    if (threadIdx.x == 0) {
      if (children > room) {
        detail::abort_run(pool.counters);
      } else {
        detail::finish_tasks(pool, own, children, new_groups, kTaskGroup, taken, stolen, tally);
        tally.tasks += chained;
      }
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) tally.flush(pool.counters);
  detail::flush_processor<BlockThreads>(processor);
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
// The same into deques of groups: block b's tasks (i % blocks == b) fill
// its groups in order.
template <class Task>
__global__ void deal_task_groups_kernel(PoolView<Task> pool, const Task* tasks, uint64_t count) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    const uint64_t position = i / pool.blocks;
    pool.group_tasks(i % pool.blocks, position / kTaskGroup)[position % kTaskGroup] = tasks[i];
  }
  for (uint64_t b = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; b < pool.blocks; b += stride) {
    const uint64_t mine = count / pool.blocks + (b < count % pool.blocks);
    const uint32_t full = static_cast<uint32_t>(mine / kTaskGroup);
    for (uint32_t g = 0; g < full; ++g) pool.group_sizes[b * pool.capacity + g] = kTaskGroup;
    if (mine % kTaskGroup) pool.group_sizes[b * pool.capacity + full] = mine % kTaskGroup;
    pool.tails[b] = full + (mine % kTaskGroup != 0);
  }
}
#endif  // __CUDACC__

// The host side: the deques of a grid, kept between runs of the same grid
// and slots.
template <class Task>
class WorkStealingBuffers {
 public:
#if defined(__CUDACC__)
  // Runs `initial` and every task they spawn (TaskPool::run).
  template <int BlockThreads, TaskWidth Width, class Processor>
  PoolStats run(const Task* initial, uint64_t count, const Processor& processor,
                const PoolOptions& options) {
    const auto kernel = Width == TaskWidth::thread
                            ? work_stealing_thread_kernel<BlockThreads, Task, Processor>
                            : work_stealing_kernel<BlockThreads, Task, Processor>;
    constexpr bool kGrouped = Width == TaskWidth::thread;
    const unsigned blocks =
        pool_blocks(options, (const void*)kernel, BlockThreads, count);
    // Grouped: the deque's slots are groups, enough for the slots asked for.
    const uint32_t capacity = kGrouped ? (options.slots_per_block + kTaskGroup - 1) / kTaskGroup
                                       : options.slots_per_block;
    allocate(blocks, capacity, kGrouped);
    PoolView<Task> view{heads_.data(), tails_.data(), slots_.data(), capacity, blocks,
                        options.steal_attempts, counters_.data(), group_sizes_.data(),
                        std::max(options.chain, 1u)};
    cudaStream_t stream = options.stream;
    IRGL_CUDA_CHECK(cudaMemsetAsync(heads_.data(), 0, sizeof(unsigned long long) * blocks, stream));
    PoolCounters start{};
    start.outstanding = count;
    IRGL_CUDA_CHECK(cudaMemcpyAsync(counters_.data(), &start, sizeof start,
                                    cudaMemcpyHostToDevice, stream));
    if (kGrouped)
      deal_task_groups_kernel<<<blocks, BlockThreads, 0, stream>>>(view, initial, count);
    else
      deal_tasks_kernel<<<blocks, BlockThreads, 0, stream>>>(view, initial, count);
    IRGL_CUDA_CHECK_LAUNCH();
    PoolStats stats;
    stats.blocks = blocks;
    stats.slots_per_block = kGrouped ? capacity * kTaskGroup : capacity;
    stats.most_slots_used = (count + blocks - 1) / blocks;  // the dealt tasks
    detail::run_persistent<BlockThreads>(kernel, blocks, view, processor, count, counters_.data(),
                                         options, "'s deque overflowed", stats);
    return stats;
  }
#endif

 private:
  void allocate(unsigned blocks, uint32_t capacity, bool grouped) {
    if (blocks == blocks_ && capacity == capacity_ && grouped == grouped_) return;
    heads_ = DeviceBuffer<unsigned long long>(blocks);
    tails_ = DeviceBuffer<uint32_t>(blocks);
    slots_ = DeviceBuffer<Task>(uint64_t(blocks) * capacity * (grouped ? kTaskGroup : 1));
    group_sizes_ = DeviceBuffer<uint32_t>(grouped ? uint64_t(blocks) * capacity : 0);
    if (counters_.empty()) counters_ = DeviceBuffer<PoolCounters>(1);
    blocks_ = blocks;
    capacity_ = capacity;
    grouped_ = grouped;
  }

  unsigned blocks_ = 0;
  uint32_t capacity_ = 0;
  bool grouped_ = false;
  DeviceBuffer<uint32_t> group_sizes_;
  DeviceBuffer<unsigned long long> heads_;
  DeviceBuffer<uint32_t> tails_;
  DeviceBuffer<Task> slots_;
  DeviceBuffer<PoolCounters> counters_;
};

}  // namespace irgl::gpu::tasks
