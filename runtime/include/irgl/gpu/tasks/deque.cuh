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

  // Owner: takes the task at the tail (pop_many of one).
  __host__ __device__ bool pop(Task& out) const {
    uint32_t first = 0;
    if (pop_many(1, first) == 0) return false;
    out = slots[first];  // only the owner writes slots
    return true;
  }

  // Owner: takes up to `most` tasks at the tail at once (a block that runs
  // a task per thread takes a step's worth); returns how many, which lie at
  // slots[first, first + count) (read them before anything is spawned: the
  // slots are free again). The tail moves first and the head is read after
  // a full fence, so a thief either sees the smaller tail or its steal is
  // seen here. A thief that read the old tail tries the head's slot h only
  // (one that reads a later head reads the new tail after it, which is at
  // or below that head): slots above h and at or above the new tail are
  // the owner's, and for slot h a compare-and-swap on the head decides.
  __host__ __device__ uint32_t pop_many(uint32_t most, uint32_t& first) const {
    const uint32_t t0 = owner_tail();
    const uint32_t n = t0 < most ? t0 : most;
    if (n == 0) return 0;
    const uint32_t t1 = t0 - n;
    TailRef(*tail).store(t1, cuda::memory_order_relaxed);
    cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device);
    unsigned long long old = HeadRef(*head).load(cuda::memory_order_seq_cst);
    const uint32_t h = DequeHead::index(old);
    if (t1 > h) {  // the tasks between keep thieves below slot t1
      first = t1;
      return n;
    }
    // The range reaches the head: the deque ends empty, reset to slot 0.
    TailRef(*tail).store(0, cuda::memory_order_relaxed);
    const unsigned long long reset = DequeHead::make(0, DequeHead::counter(old) + 1);
    if (h < t0 && HeadRef(*head).compare_exchange_strong(old, reset, cuda::memory_order_seq_cst)) {
      first = h;
      return t0 - h;
    }
    HeadRef(*head).store(reset, cuda::memory_order_seq_cst);
    first = h + 1;  // a thief took slot h (or every task was stolen)
    return h + 1 < t0 ? t0 - (h + 1) : 0;
  }

  // Thief, in two parts, for a thief that copies more than the slot before
  // it claims it (a group of tasks, work_stealing.cuh): look() reads the
  // head and says whether a task lies there (its slot is the head's
  // index); claim() then takes it if the head did not move (index and
  // counter) since. Whatever was read of the slot in between is the
  // owner's final data: the owner writes a slot only at or above its
  // tail, which passes the head only through a reset, which moves it.
  __host__ __device__ bool look(unsigned long long& head_word) const {
    // Most victims of an idle block are empty: a relaxed look first keeps
    // their checks off the sequentially consistent path (a GPU-wide fence).
    if (looks_empty()) return false;
    head_word = HeadRef(*head).load(cuda::memory_order_seq_cst);
    const uint32_t t = TailRef(*tail).load(cuda::memory_order_seq_cst);
    return t > DequeHead::index(head_word);
  }
  __host__ __device__ bool claim(unsigned long long head_word) const {
    const unsigned long long next =
        DequeHead::make(DequeHead::index(head_word) + 1, DequeHead::counter(head_word));
    return HeadRef(*head).compare_exchange_strong(head_word, next, cuda::memory_order_seq_cst);
  }

  // Thief: takes the task at the head; false when the deque is empty or
  // another block took the task first (try elsewhere). The task is read
  // before the compare-and-swap and kept only if the head did not move.
  __host__ __device__ bool steal(Task& out) const {
    unsigned long long old = 0;
    if (!look(old)) return false;
    const Task task = slots[DequeHead::index(old)];
    if (!claim(old)) return false;
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
