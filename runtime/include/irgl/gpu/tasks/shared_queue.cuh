// Paper 003's shared-queue baselines: one first-in first-out queue of
// tasks for the whole grid, a ring in device memory, run by one persistent
// kernel. A block takes tasks at the head (one for the whole block, or one
// per thread with TaskWidth::thread), runs them, and appends the tasks
// they spawned (first written to the block's own staging slots) at the
// tail.
//
//   blocking      a lock guards both ends: thread 0 takes it, the block
//                 copies its tasks out (or its spawns in) while it holds it
//   non-blocking  the tail is claimed with fetch-and-add and the head with
//                 compare-and-swap; a slot's sequence number says when its
//                 task is written (position p holds a task once seq == p + 1)
//
// Termination and overflow as in work stealing (work_stealing.cuh): a
// block adds its tasks' children minus the tasks to `outstanding` before
// it appends the children, so the count is zero only when the ring is
// empty and no block runs a task; a full ring or staging area aborts the
// run with PoolOverflow. The non-blocking append checks for room against
// a head it read a moment before, so near a full ring it may report an
// overflow a later read would not have.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cuda/atomic>
#include <string>
#include <vector>

#include "irgl/gpu/check.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/tasks/pool.cuh"

namespace irgl::gpu::tasks {

// The queue as the kernel sees it.
template <class Task>
struct SharedQueueView {
  Task* ring;
  unsigned long long* sequence;  // non-blocking: position + 1 once written
  uint64_t capacity;             // ring slots
  unsigned long long* head;      // positions taken, ever
  unsigned long long* tail;      // positions claimed, ever
  unsigned int* lock;            // blocking
  Task* staging;                 // staging_slots per block: its spawns
  uint32_t staging_slots;
  PoolCounters* counters;
  unsigned chain = 1;

#if defined(__CUDACC__)
  using Word = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;

  __device__ Task& at(unsigned long long position) const { return ring[position % capacity]; }
  __device__ Task* block_staging() const {
    return staging + uint64_t(blockIdx.x) * staging_slots;
  }

  // Warp 0: the number n <= want of written tasks at positions [h, h + n)
  // from the head (in every lane; h in lane 0). Blocking: with n > 0 lane 0
  // holds the lock until commit().
  template <bool Blocking>
  __device__ uint32_t reserve(uint32_t want, unsigned long long& h) const {
    constexpr unsigned kAll = 0xffffffffu;
    const unsigned lane = threadIdx.x % 32;
    uint32_t n = 0;
    if (lane == 0) {
      // Idle blocks look without the lock first: taking it to find the
      // queue empty would keep the blocks that append waiting on it.
      h = Word(*head).load(cuda::memory_order_acquire);
      if (h < Word(*tail).load(cuda::memory_order_acquire)) {
        if (Blocking) acquire();
        h = Word(*head).load(cuda::memory_order_acquire);
        const unsigned long long ready = Word(*tail).load(cuda::memory_order_acquire) - h;
        n = ready < want ? static_cast<uint32_t>(ready) : want;
        if (Blocking && n == 0) release();
      }
    }
    n = __shfl_sync(kAll, n, 0);
    if constexpr (!Blocking) {
      // Claimed positions may not be written yet: keep the written prefix.
      const unsigned long long first = __shfl_sync(kAll, h, 0);
      for (uint32_t base = 0; base < n; base += 32) {
        const unsigned long long p = first + base + lane;
        const bool written = base + lane >= n ||
                             Word(sequence[p % capacity]).load(cuda::memory_order_acquire) == p + 1;
        const unsigned missing = __ballot_sync(kAll, !written);
        if (missing) {
          n = base + __ffs(missing) - 1;
          break;
        }
      }
    }
    return n;
  }

  // Thread 0, after the block copied positions [h, h + n) out: blocking,
  // moves the head past them and releases the lock; non-blocking, claims
  // them, false when another block moved the head first.
  template <bool Blocking>
  __device__ bool commit(unsigned long long h, uint32_t n) const {
    if constexpr (Blocking) {
      Word(*head).store(h + n, cuda::memory_order_relaxed);
      release();
      return true;
    } else {
      return Word(*head).compare_exchange_strong(h, h + n, cuda::memory_order_acq_rel);
    }
  }

  // Block-collective: appends the block's `count` staged tasks; false (in
  // every thread) when the ring has no room for them.
  template <bool Blocking>
  __device__ bool append(uint32_t count, detail::BlockTally& tally) const {
    __shared__ unsigned long long base;
    __shared__ bool room;
    if (count == 0) return true;
    const Task* mine = block_staging();
    if (threadIdx.x == 0) {
      if constexpr (Blocking) {
        acquire();
        base = Word(*tail).load(cuda::memory_order_relaxed);
      } else {
        base = atomicAdd(tail, static_cast<unsigned long long>(count));
      }
      const unsigned long long taken = Word(*head).load(cuda::memory_order_acquire);
      room = base + count <= taken + capacity;
      if (room) tally.most_slots = max(tally.most_slots, unsigned(base + count - taken));
    }
    __syncthreads();
    const bool fits = room;
    if (fits)
      for (uint32_t i = threadIdx.x; i < count; i += blockDim.x) {
        at(base + i) = mine[i];
        if constexpr (!Blocking) {
          __threadfence();  // the task, then its sequence number
          Word(sequence[(base + i) % capacity]).store(base + i + 1, cuda::memory_order_release);
        }
      }
    if constexpr (Blocking) {
      __threadfence();
      __syncthreads();  // every task written before the tail moves
      if (threadIdx.x == 0) {
        if (fits) Word(*tail).store(base + count, cuda::memory_order_release);
        release();
      }
    }
    __syncthreads();  // base and room are rewritten next time
    return fits;
  }

  __device__ void acquire() const {
    unsigned sleep = 32;
    while (atomicCAS(lock, 0u, 1u) != 0u) {
      __nanosleep(sleep);
      sleep = sleep < 1024 ? 2 * sleep : sleep;
    }
    __threadfence();
  }
  __device__ void release() const {
    __threadfence();
    atomicExch(lock, 0u);
  }
#endif
};

#if defined(__CUDACC__)
// The persistent kernel: each block takes tasks at the head until the
// pool is empty or aborted. TaskWidth::block: one task at a time, run by
// every thread; TaskWidth::thread: up to BlockThreads tasks, a thread
// each (with chains, PoolOptions::chain, as in work stealing).
template <int BlockThreads, bool Blocking, TaskWidth Width, class Task, class Processor>
__global__ void __launch_bounds__(BlockThreads)
    shared_queue_kernel(SharedQueueView<Task> queue, Processor processor) {
  constexpr bool kPerThread = Width == TaskWidth::thread;
  constexpr uint32_t kWant = kPerThread ? BlockThreads : 1;
  __shared__ Task current;  // a block's task
  __shared__ Task chain_next[kPerThread ? BlockThreads : 1];
  __shared__ bool chain_has_next[kPerThread ? BlockThreads : 1];
  __shared__ int state;
  __shared__ unsigned long long first;
  __shared__ uint32_t taken, spawned, chained;
  PoolCounters* const counters = queue.counters;
  unsigned idle_ns = 32;
  detail::BlockTally tally;  // thread 0's
  for (;;) {
    if (threadIdx.x < 32) {  // warp 0 finds tasks at the head
      const bool aborted = cuda::atomic_ref<unsigned int, cuda::thread_scope_device>(
                               counters->aborted)
                               .load(cuda::memory_order_relaxed) != 0;
      unsigned long long h = 0;
      const uint32_t n = aborted ? 0 : queue.template reserve<Blocking>(kWant, h);
      if (threadIdx.x == 0) {
        state = aborted ? detail::kDone : detail::kIdle;
        first = h;
        taken = n;
        spawned = 0;
        chained = 0;
      }
    }
    __syncthreads();
    const uint32_t n = taken;
    const bool leaving = state == detail::kDone;  // read before thread 0 rewrites it
    Task task;
    const bool mine = kPerThread ? threadIdx.x < n : false;
    if (mine) task = queue.at(first + threadIdx.x);
    if (!kPerThread && threadIdx.x == 0 && n) current = queue.at(first);
    __syncthreads();  // copied out: the head may move past them
    if (threadIdx.x == 0 && !leaving) {
      if (n && queue.template commit<Blocking>(first, n)) state = detail::kWork;
      else state = detail::without_work(counters);
      tally.idle_polls += state == detail::kIdle;
    }
    __syncthreads();
    const int now = detail::after_looking(state, idle_ns);
    if (now == detail::kDone) break;
    if (now == detail::kIdle) continue;
    const TaskSpawner<Task> spawn{queue.block_staging(), queue.staging_slots, &spawned,
                                  kPerThread ? &chain_next[threadIdx.x] : nullptr,
                                  kPerThread ? &chain_has_next[threadIdx.x] : nullptr};
    if constexpr (kPerThread) {
      if (mine) {
        const uint32_t links = detail::run_chain(processor, task, spawn, queue.chain);
        if (links) atomicAdd(&chained, links);
      }
      __syncthreads();
    } else {
      detail::run_task(processor, current, spawn);
    }
    const uint32_t count = spawned;
    bool fits = count <= queue.staging_slots;
    // The children are counted before anyone can take them.
    if (fits && threadIdx.x == 0)
      atomicAdd(&counters->outstanding,
                static_cast<unsigned long long>(count) - static_cast<unsigned long long>(n));
    if (fits) fits = queue.template append<Blocking>(count, tally);
    if (threadIdx.x == 0) {
      if (!fits) detail::abort_run(counters);
      tally.tasks += n + chained;
      ++tally.steps;
    }
    __syncthreads();  // state, current and the counts are rewritten next
  }
  if (threadIdx.x == 0) tally.flush(counters);
  detail::flush_processor<BlockThreads>(processor);
}

// Marks the first `count` positions of the ring written (the initial
// tasks) and the rest empty.
template <class Word>
__global__ void seed_sequence_kernel(Word* sequence, uint64_t capacity, uint64_t count) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < capacity; i += stride)
    sequence[i] = i < count ? i + 1 : 0;
}
#endif

// The ring (blocks x slots_per_block tasks), the blocks' staging slots and
// the counters, kept between runs of the same size.
template <class Task>
class SharedQueueBuffers {
 public:
#if defined(__CUDACC__)
  // Runs `initial` and every task they spawn (TaskPool::run).
  template <int BlockThreads, bool Blocking, TaskWidth Width, class Processor>
  PoolStats run(const Task* initial, uint64_t count, const Processor& processor,
                const PoolOptions& options) {
    const auto kernel = shared_queue_kernel<BlockThreads, Blocking, Width, Task, Processor>;
    const unsigned blocks =
        pool_blocks(options, (const void*)kernel, BlockThreads, count);
    const uint64_t capacity = uint64_t(blocks) * options.slots_per_block;
    allocate(blocks, options.slots_per_block);
    cudaStream_t stream = options.stream;
    if constexpr (!Blocking) {  // the lock-free ring marks written slots
      if (sequence_.size() != capacity) sequence_ = DeviceBuffer<unsigned long long>(capacity);
      seed_sequence_kernel<<<std::min<uint64_t>(1024, (capacity + 255) / 256), 256, 0, stream>>>(
          sequence_.data(), capacity, count);
      IRGL_CUDA_CHECK_LAUNCH();
    }
    const unsigned long long ends[3] = {0, count, 0};  // head, tail, lock
    IRGL_CUDA_CHECK(cudaMemcpyAsync(words_.data(), ends, sizeof ends, cudaMemcpyHostToDevice,
                                    stream));
    if (count > 0)
      IRGL_CUDA_CHECK(cudaMemcpyAsync(ring_.data(), initial, sizeof(Task) * count,
                                      cudaMemcpyDeviceToDevice, stream));
    PoolCounters start{};
    start.outstanding = count;
    IRGL_CUDA_CHECK(cudaMemcpyAsync(counters_.data(), &start, sizeof start,
                                    cudaMemcpyHostToDevice, stream));
    const SharedQueueView<Task> view{ring_.data(),
                                     sequence_.data(),
                                     capacity,
                                     &words_.data()[0],
                                     &words_.data()[1],
                                     reinterpret_cast<unsigned int*>(&words_.data()[2]),
                                     staging_.data(),
                                     options.slots_per_block,
                                     counters_.data(),
                                     std::max(options.chain, 1u)};
    PoolStats stats;
    stats.blocks = blocks;
    stats.slots_per_block = options.slots_per_block;
    stats.most_slots_used = count;
    detail::run_persistent<BlockThreads>(kernel, blocks, view, processor, count, counters_.data(),
                                         options, " found no room for its spawns", stats);
    return stats;
  }
#endif

 private:
  void allocate(unsigned blocks, uint32_t slots) {
    if (blocks == blocks_ && slots == slots_) return;
    const uint64_t capacity = uint64_t(blocks) * slots;
    ring_ = DeviceBuffer<Task>(capacity);
    staging_ = DeviceBuffer<Task>(capacity);
    if (words_.empty()) words_ = DeviceBuffer<unsigned long long>(3);
    if (counters_.empty()) counters_ = DeviceBuffer<PoolCounters>(1);
    blocks_ = blocks;
    slots_ = slots;
  }

  unsigned blocks_ = 0;
  uint32_t slots_ = 0;
  DeviceBuffer<Task> ring_;
  DeviceBuffer<unsigned long long> sequence_;  // non-blocking only
  DeviceBuffer<Task> staging_;
  DeviceBuffer<unsigned long long> words_;  // head, tail, lock
  DeviceBuffer<PoolCounters> counters_;
};

}  // namespace irgl::gpu::tasks
