// What a pipe of a multi-GPU run asks of the other parts (docs/multi-gpu.md):
// the interface through which lang::Pipe reaches irgl/dist without
// depending on NCCL. CudaRun::parts points to one in a multi-GPU run.
#pragma once

#include <cstdint>

#include "irgl/gpu/worklist/dense_bitmap.cuh"
#include "irgl/gpu/worklist/sparse_queue.cuh"

namespace irgl::lang {

class PartExchange {
 public:
  virtual ~PartExchange() = default;
  // Makes the vertices pushed to `out` this round known to every part that
  // holds them: each pushed vertex reaches its master and, from there, the
  // mirrors that hold its out-edges, which it is appended to `out` of
  // (once). `marks` is a cleared bitmap of every vertex, left cleared.
  virtual void share_pushes(const gpu::SparseQueueView& out, const gpu::DenseBitmapView& marks) = 0;
  // The sum of `local` over the parts (collective).
  virtual uint64_t total(uint64_t local) = 0;
};

}  // namespace irgl::lang
