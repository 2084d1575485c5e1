// Paper 004's task queue (Chen, Villa, Krishnamoorthy and Gao): the host
// fills a ring of tasks while a persistent kernel runs, and each block
// takes its next task with one fetch-and-add (wait-free: never retried),
// then waits only until that position's task is written.
//
//   Positions 0, 1, 2, ... map to slots p % capacity, each with a sequence
//   number (Vyukov's bounded queue, one producer):
//     sequence == p            slot free for position p (the host writes it)
//     sequence == p + 1        position p written (a consumer takes it)
//     sequence == p + capacity taken: free for position p + capacity
//   The producer writes the task, then the sequence number with release;
//   a consumer reads the sequence number with acquire, then the task, then
//   frees the slot with release. So a consumer never reads a task before
//   it is whole, and the producer never overwrites one not yet read.
//
// Host-device: the slots and sequence numbers live in pinned, mapped host
// memory or in device memory (host_fed_rings.cuh), read by the device with
// system-scope atomics; the claim counter lives in device memory.
// The protocol's operations compile for the host too, where
// tests/unit/tasks/host_fed_queue_test.cu races a producer thread against
// consumer threads.
#pragma once

#include <cuda/atomic>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace irgl::gpu::tasks {

template <class Task>
struct HostFedQueueView {
  static_assert(std::is_trivially_copyable_v<Task>, "tasks are copied as bytes to the GPU");

  Task* slots = nullptr;
  unsigned long long* sequence = nullptr;  // one per slot
  unsigned long long* next = nullptr;      // the next position to claim
  uint64_t capacity = 0;

  using Sequence = cuda::atomic_ref<unsigned long long, cuda::thread_scope_system>;
  using Claims = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;

  // Consumer: the position it takes next (one fetch-and-add).
  __host__ __device__ unsigned long long claim() const {
    return Claims(*next).fetch_add(1, cuda::memory_order_relaxed);
  }
  // Consumer: whether position p's task is written (poll until it is).
  __host__ __device__ bool ready(unsigned long long p) const {
    return Sequence(sequence[p % capacity]).load(cuda::memory_order_acquire) == p + 1;
  }
  // Consumer: position p's task (ready), freeing its slot for p + capacity.
  __host__ __device__ Task take(unsigned long long p) const {
    const Task task = slots[p % capacity];
    Sequence(sequence[p % capacity]).store(p + capacity, cuda::memory_order_release);
    return task;
  }

  // Producer: whether position p's slot is free (its last task was taken).
  __host__ __device__ bool writable(unsigned long long p) const {
    return Sequence(sequence[p % capacity]).load(cuda::memory_order_acquire) == p;
  }
  // Producer: writes position p (writable) and publishes it.
  __host__ __device__ void put(unsigned long long p, const Task& task) const {
    slots[p % capacity] = task;
    Sequence(sequence[p % capacity]).store(p + 1, cuda::memory_order_release);
  }
};

// The initial sequence numbers: every slot free for its first position.
inline void reset_sequence(unsigned long long* sequence, uint64_t capacity) {
  for (uint64_t k = 0; k < capacity; ++k) sequence[k] = k;
}

// A queued task: one of the user's types (heterogeneous tasks, dispatched
// by `kind` at run time), or HALT, which ends the block that takes it.
template <class... Types>
struct QueuedTask {
  static_assert(sizeof...(Types) > 0, "a queue needs at least one task type");
  static_assert((std::is_trivially_copyable_v<Types> && ...),
                "tasks are copied as bytes to the GPU");
  static constexpr uint32_t kHalt = 0xffffffffu;

  // The index of the type in Types..., or kHalt. No initializer: the
  // persistent kernel stages a task in shared memory, which cannot hold a
  // type with a constructor; make() and halt() set it.
  uint32_t kind;
  alignas(Types...) unsigned char payload[std::max({sizeof(Types)...})];

  // The task `value`, of one of Types.
  template <class T>
  __host__ __device__ static QueuedTask make(const T& value) {
    static_assert((std::is_same_v<T, Types> || ...), "not one of the queue's task types");
    QueuedTask task;
    task.kind = kind_of<T, Types...>();
    memcpy(task.payload, &value, sizeof(T));
    return task;
  }
  __host__ __device__ static QueuedTask halt() {
    QueuedTask task;
    task.kind = kHalt;
    return task;
  }
  __host__ __device__ bool halts() const { return kind == kHalt; }

  // Calls processor(value) with the payload as the type `kind` names.
#pragma nv_exec_check_disable
  template <class Processor>
  __host__ __device__ void dispatch(Processor& processor) const {
    dispatch_from<0, Types...>(processor);
  }

 private:
  template <class T, class First, class... Rest>
  __host__ __device__ static constexpr uint32_t kind_of() {
    if constexpr (std::is_same_v<T, First>) return 0;
    else return 1 + kind_of<T, Rest...>();
  }

#pragma nv_exec_check_disable
  template <uint32_t Kind, class First, class... Rest, class Processor>
  __host__ __device__ void dispatch_from(Processor& processor) const {
    if (kind == Kind) {
      First value;
      memcpy(&value, payload, sizeof(First));
      processor(value);
    } else if constexpr (sizeof...(Rest) > 0) {
      dispatch_from<Kind + 1, Rest...>(processor);
    }
  }
};

}  // namespace irgl::gpu::tasks
