// The tiles a schedule distributes: every vertex of the graph (topology-
// driven loops) or the items of a worklist (data-driven loops).
//
//   size()        on the device: the number of items (one load for worklists)
//   operator[](i) on the device: item i
//   host_size()   on the host: the number of items, when the host knows it
//                 without a copy (kUnknownSize otherwise)
#pragma once

#include <cstdint>

#include "irgl/gpu/host_device.h"
#include "irgl/gpu/worklist/sparse_queue.cuh"
#include "irgl/graph/csr_graph.h"

namespace irgl::gpu::schedule {

inline constexpr uint64_t kUnknownSize = ~uint64_t{0};

struct AllNodes {
  uint32_t count = 0;

  IRGL_HOST_DEVICE uint64_t size() const { return count; }
  IRGL_HOST_DEVICE VertexId operator[](uint64_t i) const { return static_cast<VertexId>(i); }
  uint64_t host_size() const { return count; }
};

struct WorklistItems {
  SparseQueueView queue;
  uint64_t known_size = kUnknownSize;  // as last read by the host, if current

#if defined(__CUDACC__)
  __device__ uint64_t size() const { return queue.size(); }
  __device__ VertexId operator[](uint64_t i) const { return queue[i]; }
#endif
  uint64_t host_size() const { return known_size; }
};

}  // namespace irgl::gpu::schedule
