// Double-buffered worklists for data-driven rounds:
//
//   Pipe pipe(num_vertices, stream);
//   pipe.reset({source});
//   for (PipeSizes sizes = pipe.read_sizes(); sizes.in.size != 0;
//        sizes = pipe.read_sizes()) {
//     round<<<grid_blocks(sizes.in.size), kBlockThreads, 0, pipe.stream()>>>(
//         pipe.in(), pipe.out(), ...);       // reads in, pushes to out
//     pipe.swap();                           // out becomes in; no sync
//   }
//
// Each round costs the kernel, one 16-byte memset (swap) and, if the host
// wants the sizes, one 32-byte device-to-pinned copy plus one stream sync
// (read_sizes). Kernels can also read in().size() on the device and skip the
// host round trip altogether.
//
// Sizes are 64-bit (see QueueCounters); each queue holds up to `capacity`
// items and flags overflow beyond that (sparse_queue.cuh).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/worklist/sparse_queue.cuh"

namespace irgl::gpu {

struct PipeSizes {
  QueueStatus in;
  QueueStatus out;
};

// "worklist overflow: a round pushed N items, more than the capacity of C".
std::string overflow_message(uint64_t pushed, uint64_t capacity);

// Owns two queues of equal capacity. Every operation is ordered on the
// stream given at construction, where the caller should also launch the
// kernels that use in() and out(). Move-only; not thread-safe.
class Pipe {
 public:
  Pipe() = default;
  // Two empty queues of `capacity` items each.
  explicit Pipe(uint64_t capacity, cudaStream_t stream = 0);

  // Views of the current input and output worklists; they change at swap().
  SparseQueueView in() const { return view(current_in_); }
  SparseQueueView out() const { return view(1 - current_in_); }

  // The output becomes the input and the new output is emptied: one
  // asynchronous 16-byte memset, no synchronization. The old input's items
  // are discarded.
  void swap();
  // Makes `initial` the input (synchronous copy; std::length_error when it
  // exceeds the capacity) and empties the output.
  void reset(const std::vector<VertexId>& initial);
  // Empties both worklists (asynchronous).
  void clear();
  // Takes over the state a device-side loop left (gpu/schedule/outline.cuh):
  // the input is the other queue when `swapped`, with the counters at
  // `device_counters` (device memory); the output is emptied. Asynchronous.
  void resume(bool swapped, const QueueCounters* device_counters);

  // Both statuses: one copy of both counters into pinned memory and one
  // synchronization of the stream.
  PipeSizes read_sizes() const;
  // The input's stored items (read_sizes() plus one copy). For tests.
  std::vector<VertexId> download_in() const;

  uint64_t capacity() const { return items_[0].size(); }
  cudaStream_t stream() const { return stream_; }

 private:
  SparseQueueView view(int index) const;

  DeviceBuffer<VertexId> items_[2];
  detail::CounterBlock counters_;  // counters of items_[0] and items_[1]
  int current_in_ = 0;
  cudaStream_t stream_ = 0;
};

}  // namespace irgl::gpu
