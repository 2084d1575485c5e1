// What a pipe of a multi-GPU run asks of the other parts (docs/multi-gpu.md):
// the interface through which lang::Pipe reaches irgl/dist without
// depending on NCCL. CudaRun::parts points to one in a multi-GPU run.
#pragma once

#include <cstdint>

#include "irgl/gpu/worklist/dense_bitmap.cuh"
#include "irgl/gpu/worklist/sparse_queue.cuh"

namespace irgl::lang {

// The vertices a round pushes to a pipe's output, whatever its form.
struct PushedVertices {
  gpu::SparseQueueView queue;  // the output's queue (unused when bits_only)
  // A bit per pushed vertex: the output's own bitmap (unique and dense
  // outputs set it at every push) or, for a plain queue, a cleared bitmap
  // that the exchange sets from the queue and clears again (from_queue).
  gpu::DenseBitmapView bits;
  bool bits_only = false;   // pushes only set bits (dense output)
  bool from_queue = false;
};

class PartExchange {
 public:
  virtual ~PartExchange() = default;
  // A kernel is handed the output and may push to it (a kernel call's
  // argument, so no sync comes between). Each pushed vertex must reach every
  // part that holds it: its master and, from there, the mirrors that hold
  // its out-edges, where it joins the output (once). The pushes travel with
  // the next sync of a field in both directions, or at share_pushes.
  virtual void expect_pushes(const PushedVertices& pushed) = 0;
  // At the pipe's swap: shares what expect_pushes announced and no sync
  // carried; a bitmap set from the queue is left cleared.
  virtual void share_pushes(const PushedVertices& pushed) = 0;
  // The sum over the parts of `in`'s size, in two steps so that one
  // synchronisation serves the pipe's own read of its sizes too:
  // start_total enqueues the sum on the stream (collective), total waits
  // for it.
  virtual void start_total(const gpu::SparseQueueView& in) = 0;
  virtual uint64_t total() = 0;
  // The sum over the parts of a size the host holds (collective).
  virtual uint64_t sum(uint64_t local) = 0;
};

}  // namespace irgl::lang
