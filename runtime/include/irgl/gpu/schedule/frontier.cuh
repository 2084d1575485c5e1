// The tiles a schedule distributes: every vertex of the graph (topology-
// driven loops) or the items of a worklist (data-driven loops).
//
//   size()        on the device: the number of items (one load for worklists)
//   operator[](i) on the device: item i
//   host_size()   on the host: the number of items, when the host knows it
//                 without a copy (kUnknownSize otherwise)
//   contains(v)   on the device: whether item v is a member; false only for
//                 the non-members a swept frontier passes over. Schedules
//                 run pre() only for members (admit_item below).
#pragma once

#include <cstdint>

#include "irgl/gpu/worklist/dense_bitmap.cuh"
#include "irgl/gpu/worklist/sparse_queue.cuh"
#include "irgl/graph/csr_graph.h"
#include "irgl/support/host_device.h"

namespace irgl::gpu::schedule {

inline constexpr uint64_t kUnknownSize = ~uint64_t{0};

struct AllNodes {
  uint32_t count = 0;
  VertexId first = 0;  // a part of a multi-GPU run: its first master

  IRGL_HD uint64_t size() const { return count; }
  IRGL_HD VertexId operator[](uint64_t i) const { return first + static_cast<VertexId>(i); }
  IRGL_HD bool contains(VertexId) const { return true; }
  uint64_t host_size() const { return count; }
};

// A worklist's items: the queue's, or, when `members` is set (a swept
// frontier, lang::Pipe's FrontierForm::sweep), every vertex 0..num_bits-1,
// of which only those with a set bit are members.
struct WorklistItems {
  SparseQueueView queue;
  uint64_t known_size = kUnknownSize;  // as last read by the host, if current
  DenseBitmapView members;             // words == nullptr: the queue's items

  IRGL_HD bool swept() const { return members.words != nullptr; }
#if defined(__CUDACC__)
  __device__ uint64_t size() const { return swept() ? members.num_bits : queue.size(); }
  __device__ VertexId operator[](uint64_t i) const {
    return swept() ? static_cast<VertexId>(i) : queue[i];
  }
  __device__ bool contains(VertexId v) const { return !swept() || members.test(v); }
#endif
  uint64_t host_size() const { return swept() ? members.num_bits : known_size; }
};

#if defined(__CUDACC__)
// The Body's pre() for frontier item v, or false without calling it when v
// is not a member (a swept frontier's clear bit).
template <class Body, class Frontier>
__device__ __forceinline__ bool admit_item(Body& body, const Frontier& frontier, VertexId v,
                                           typename Body::Closure& closure) {
  return frontier.contains(v) && body.pre(v, closure);
}
#endif

}  // namespace irgl::gpu::schedule
