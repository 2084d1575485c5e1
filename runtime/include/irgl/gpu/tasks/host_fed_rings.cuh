// Where a host-fed pool's rings live (host_fed_pool.cuh), and how the host
// writes them. Both keep host_fed_queue.cuh's protocol: a slot's task is
// whole on the device before its sequence number says so, and the host
// writes position p only once the device freed p's slot.
//
//   MappedRings  pinned, mapped host memory: the host writes tasks in
//                place; the kernel polls them over the bus (a few µs per
//                dequeue, but nothing to send).
//   DeviceRings  device memory, as in paper 004: the host stages tasks in
//                pinned memory and sends them in batches on a copy stream
//                of its own (the tasks, then their sequence numbers: two
//                copies in stream order, so the numbers never land before
//                the tasks); the kernel polls device memory. The host
//                learns which slots are free from a snapshot of the
//                device's sequence numbers (a copy back, its completion
//                event as the fence), taken only when it has run past the
//                last one. A slot's staging entry is reused only after the
//                device took the slot, so after its copy ended.
//
// One producer per ring at a time; distinct rings may be written from
// distinct host threads (each ring has its own stream and event).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "irgl/gpu/check.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/tasks/host_fed_queue.cuh"

namespace irgl::gpu::tasks {

// Every ring's slots free for their first positions (0 .. capacity - 1).
inline void reset_rings(unsigned long long* sequence, uint64_t capacity, unsigned queues) {
  for (unsigned q = 0; q < queues; ++q) reset_sequence(sequence + q * capacity, capacity);
}

template <class Task>
class MappedRings {
 public:
  MappedRings(uint64_t capacity, unsigned queues) : capacity_(capacity), queues_(queues) {
    const uint64_t slots = capacity * queues;
    IRGL_CUDA_CHECK(cudaHostAlloc(&slots_, sizeof(Task) * slots, cudaHostAllocMapped));
    IRGL_CUDA_CHECK(cudaHostAlloc(&sequence_, sizeof(unsigned long long) * slots,
                                  cudaHostAllocMapped));
  }
  ~MappedRings() {
    cudaFreeHost(slots_);
    cudaFreeHost(sequence_);
  }
  MappedRings(const MappedRings&) = delete;
  MappedRings& operator=(const MappedRings&) = delete;

  // Every slot free for its first position (no kernel running).
  void reset() { reset_rings(sequence_, capacity_, queues_); }
  // The rings as the kernel sees them; `next`: a claim counter per ring.
  HostFedQueueView<Task> kernel_view(unsigned long long* next) const {
    Task* slots = nullptr;
    unsigned long long* sequence = nullptr;
    IRGL_CUDA_CHECK(cudaHostGetDevicePointer(&slots, slots_, 0));
    IRGL_CUDA_CHECK(cudaHostGetDevicePointer(&sequence, sequence_, 0));
    return {slots, sequence, next, capacity_};
  }
  bool writable(unsigned q, uint64_t position) { return ring(q).writable(position); }
  void write(unsigned q, uint64_t position, const Task& task) { ring(q).put(position, task); }
  void flush(unsigned) {}  // written in place

 private:
  // Ring q through host pointers (ring k's slots: k * capacity onwards).
  HostFedQueueView<Task> ring(unsigned q) const {
    return {slots_ + q * capacity_, sequence_ + q * capacity_, nullptr, capacity_};
  }

  uint64_t capacity_;
  unsigned queues_;
  Task* slots_ = nullptr;
  unsigned long long* sequence_ = nullptr;
};

template <class Task>
class DeviceRings {
 public:
  DeviceRings(uint64_t capacity, unsigned queues, unsigned batch)
      : capacity_(capacity),
        batch_(batch),
        slots_(capacity * queues),
        sequence_(capacity * queues),
        staged_tasks_(capacity * queues),
        staged_sequence_(capacity * queues),
        snapshot_(capacity * queues),
        rings_(queues) {
    for (Ring& ring : rings_) {
      // Non-blocking: the kernel may run on the legacy default stream,
      // which a blocking stream's copies would wait for (forever).
      IRGL_CUDA_CHECK(cudaStreamCreateWithFlags(&ring.copies, cudaStreamNonBlocking));
      IRGL_CUDA_CHECK(cudaEventCreateWithFlags(&ring.fence, cudaEventDisableTiming));
    }
  }
  ~DeviceRings() {
    for (Ring& ring : rings_) {
      if (ring.copies) cudaStreamSynchronize(ring.copies);  // staging in use until copied
      if (ring.fence) cudaEventDestroy(ring.fence);
      if (ring.copies) cudaStreamDestroy(ring.copies);
    }
  }
  DeviceRings(const DeviceRings&) = delete;
  DeviceRings& operator=(const DeviceRings&) = delete;

  void reset() {
    reset_rings(staged_sequence_.data(), capacity_, unsigned(rings_.size()));
    IRGL_CUDA_CHECK(cudaMemcpy(sequence_.data(), staged_sequence_.data(),
                               sizeof(unsigned long long) * staged_sequence_.size(),
                               cudaMemcpyHostToDevice));
    for (Ring& ring : rings_) ring = Ring{ring.copies, ring.fence, 0, 0, capacity_};
  }
  HostFedQueueView<Task> kernel_view(unsigned long long* next) {
    return {slots_.data(), sequence_.data(), next, capacity_};
  }

  // Whether position p of ring q may be written. Past the last snapshot:
  // sends what is staged (the device may be waiting for it), then looks
  // again at the device's sequence numbers.
  bool writable(unsigned q, uint64_t position) {
    Ring& ring = rings_[q];
    if (position < ring.free_below) return true;
    flush(q);
    const uint64_t base = q * capacity_;
    IRGL_CUDA_CHECK(cudaMemcpyAsync(snapshot_.data() + base, sequence_.data() + base,
                                    sizeof(unsigned long long) * capacity_,
                                    cudaMemcpyDeviceToHost, ring.copies));
    IRGL_CUDA_CHECK(cudaEventRecord(ring.fence, ring.copies));
    IRGL_CUDA_CHECK(cudaEventSynchronize(ring.fence));
    // Position x is writable when its slot says "free for x" (taken at
    // x - capacity); a prefix of such positions from the last bound.
    const uint64_t limit = ring.free_below + capacity_;
    while (ring.free_below < limit &&
           snapshot_[base + ring.free_below % capacity_] == ring.free_below)
      ++ring.free_below;
    return position < ring.free_below;
  }
  // Stages position p (writable); sends a batch once `batch` are staged.
  void write(unsigned q, uint64_t position, const Task& task) {
    const uint64_t k = q * capacity_ + position % capacity_;
    staged_tasks_[k] = task;
    staged_sequence_[k] = position + 1;
    rings_[q].staged = position + 1;
    if (rings_[q].staged - rings_[q].sent >= batch_) flush(q);
  }
  // Sends ring q's staged positions: their tasks, then their sequence
  // numbers (stream order), each as up to two ranges (the ring wraps).
  void flush(unsigned q) {
    Ring& ring = rings_[q];
    const uint64_t base = q * capacity_;
    for_each_range(ring, [&](uint64_t first, uint64_t count) {
      copy(slots_.data() + base + first, staged_tasks_.data() + base + first, count, ring);
    });
    for_each_range(ring, [&](uint64_t first, uint64_t count) {
      copy(sequence_.data() + base + first, staged_sequence_.data() + base + first, count, ring);
    });
    ring.sent = ring.staged;
  }

 private:
  struct Ring {
    cudaStream_t copies = nullptr;
    cudaEvent_t fence = nullptr;
    uint64_t staged = 0;      // positions staged so far
    uint64_t sent = 0;        // of those, sent to the device
    uint64_t free_below = 0;  // positions known writable
  };

  // Calls range(first slot, count) for the slots of positions sent..staged.
  template <class Range>
  void for_each_range(const Ring& ring, const Range& range) const {
    for (uint64_t position = ring.sent; position < ring.staged;) {
      const uint64_t first = position % capacity_;
      const uint64_t count = std::min(ring.staged - position, capacity_ - first);
      range(first, count);
      position += count;
    }
  }
  template <class T>
  static void copy(T* device, const T* staged, uint64_t count, const Ring& ring) {
    IRGL_CUDA_CHECK(cudaMemcpyAsync(device, staged, sizeof(T) * count, cudaMemcpyHostToDevice,
                                    ring.copies));
  }

  uint64_t capacity_;
  unsigned batch_;
  DeviceBuffer<Task> slots_;
  DeviceBuffer<unsigned long long> sequence_;
  PinnedBuffer<Task> staged_tasks_;
  PinnedBuffer<unsigned long long> staged_sequence_;
  PinnedBuffer<unsigned long long> snapshot_;
  std::vector<Ring> rings_;
};

}  // namespace irgl::gpu::tasks
