// A block's work pool for work stealing (paper 003, after Arora, Blumofe
// and Plaxton): a bounded double-ended queue of tasks in device memory.
// The owner block pushes and pops at the tail, LIFO, with plain loads and
// stores except when one task is left; other blocks steal at the head with
// compare-and-swap. The head carries an ABA counter, bumped every time the
// owner moves it back to slot 0, so a thief that read a head before such a
// reset can never take a task twice.
//
//   slots[head .. tail)  the tasks; head and tail return to 0 when the
//                        deque empties, so its space is reused
//
// Each operation is called by one thread (the block's thread 0); the owner
// publishes tasks its whole block wrote (work_stealing.cuh). The operations
// compile for the host too, where tests/unit/tasks stress them with threads.
#pragma once

#include <cstdint>
#include <cuda/atomic>
#include <type_traits>

namespace irgl::gpu::tasks {

// The head word: the index of the first task (low 32 bits) and the ABA
// counter (high 32 bits); 2^32 resets before a counter repeats.
struct DequeHead {
  __host__ __device__ static constexpr uint32_t index(unsigned long long head) {
    return static_cast<uint32_t>(head);
  }
  __host__ __device__ static constexpr uint32_t counter(unsigned long long head) {
    return static_cast<uint32_t>(head >> 32);
  }
  __host__ __device__ static constexpr unsigned long long make(uint32_t index, uint32_t counter) {
    return (static_cast<unsigned long long>(counter) << 32) | index;
  }
};

template <class Task>
struct TaskDeque {
  static_assert(std::is_trivially_copyable_v<Task>, "tasks are copied as bytes between blocks");

  unsigned long long* head = nullptr;
  uint32_t* tail = nullptr;
  Task* slots = nullptr;
  uint32_t capacity = 0;

#if defined(__CUDACC__)
  using HeadRef = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;
  using TailRef = cuda::atomic_ref<uint32_t, cuda::thread_scope_device>;

  // Owner: the tail, where the block writes the tasks it spawns.
  __host__ __device__ uint32_t owner_tail() const {
    return TailRef(*tail).load(cuda::memory_order_relaxed);
  }

  // Owner: makes the `count` tasks written at slots[tail, tail + count)
  // stealable. The writers fenced their stores and the block synchronized
  // before (TaskSpawner, work_stealing.cuh); the release orders them before
  // the new tail for any thief that reads it.
  __host__ __device__ void publish(uint32_t count) const {
    if (count == 0) return;
    TailRef(*tail).store(owner_tail() + count, cuda::memory_order_release);
  }

  // Owner: takes the task at the tail. The tail moves first and the head is
  // read after a full fence, so a thief either sees the smaller tail or its
  // steal of the same slot is seen here; only for the last task do both
  // race, and a compare-and-swap on the head decides.
  __host__ __device__ bool pop(Task& out) const {
    uint32_t t = owner_tail();
    if (t == 0) return false;
    --t;
    TailRef(*tail).store(t, cuda::memory_order_relaxed);
    cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device);
    const Task task = slots[t];
    unsigned long long old = HeadRef(*head).load(cuda::memory_order_seq_cst);
    const uint32_t h = DequeHead::index(old);
    if (t > h) {  // other tasks lie between: no thief can reach slot t
      out = task;
      return true;
    }
    // Slot t was the last task (t == h) or a thief took it (t < h): either
    // way the deque ends empty, back at slot 0 with a new counter.
    TailRef(*tail).store(0, cuda::memory_order_relaxed);
    const unsigned long long reset = DequeHead::make(0, DequeHead::counter(old) + 1);
    if (t == h && HeadRef(*head).compare_exchange_strong(old, reset, cuda::memory_order_seq_cst)) {
      out = task;
      return true;
    }
    HeadRef(*head).store(reset, cuda::memory_order_seq_cst);
    return false;
  }

  // Thief: takes the task at the head; false when the deque is empty or
  // another block took the task first (try elsewhere). The task is read
  // before the compare-and-swap and kept only if the head did not move
  // (index and counter), so a slot the owner reused after a reset is
  // never returned.
  __host__ __device__ bool steal(Task& out) const {
    unsigned long long old = HeadRef(*head).load(cuda::memory_order_seq_cst);
    const uint32_t t = TailRef(*tail).load(cuda::memory_order_seq_cst);
    const uint32_t h = DequeHead::index(old);
    if (t <= h) return false;
    const Task task = slots[h];
    const unsigned long long next = DequeHead::make(h + 1, DequeHead::counter(old));
    if (!HeadRef(*head).compare_exchange_strong(old, next, cuda::memory_order_seq_cst)) return false;
    out = task;
    return true;
  }

  // Any block: whether the deque looks empty (a hint; it may change).
  __host__ __device__ bool looks_empty() const {
    const unsigned long long h = HeadRef(*head).load(cuda::memory_order_relaxed);
    return TailRef(*tail).load(cuda::memory_order_relaxed) <= DequeHead::index(h);
  }
#endif
};

}  // namespace irgl::gpu::tasks
