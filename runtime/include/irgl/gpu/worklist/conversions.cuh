// Conversions between the dense (bitmap) and sparse (queue) worklists, on
// the GPU and asynchronous: nothing is read back to the host.
#pragma once

#include <cuda_runtime_api.h>

#include "irgl/gpu/scratch_buffer.h"
#include "irgl/gpu/worklist/dense_bitmap.cuh"
#include "irgl/gpu/worklist/sparse_queue.cuh"

namespace irgl::gpu {

// Replaces the queue's contents by the set bits' vertex ids in increasing
// order and lowers its overflow flag. Implementation: cub::DeviceSelect::If
// over the ids 0..num_bits-1 with a bit-test predicate, writing the count
// straight into the queue's counter. Cost: one pass that reads each bitmap
// word once per id (broadcast within a warp, so about num_bits/8 bytes of
// traffic) and writes 4 bytes per member; one memset; CUB's scratch from
// `scratch`. Precondition: queue.capacity >= bitmap.num_bits (checked on the
// host: std::length_error), so it can never overflow. num_bits < 2^32.
void bitmap_to_queue(const DenseBitmapView& bitmap, const SparseQueueView& queue,
                     ScratchBuffer& scratch, cudaStream_t stream = 0);

// Sets the bit of every item stored in the queue (bits already set stay set:
// clear the bitmap first for an exact conversion). The kernel reads the
// queue's size on the device; one atomicOr per item. Items >= num_bits are
// ignored.
void queue_to_bitmap(const SparseQueueView& queue, const DenseBitmapView& bitmap,
                     cudaStream_t stream = 0);

}  // namespace irgl::gpu
