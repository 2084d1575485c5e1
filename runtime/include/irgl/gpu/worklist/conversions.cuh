// Conversions between the dense (bitmap) and sparse (queue) worklists, on
// the GPU and asynchronous: nothing is read back to the host. Also the
// statistics a pipe's frontier policy reads (frontier_policy.h).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cub/block/block_reduce.cuh>

#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/scratch_buffer.h"
#include "irgl/gpu/worklist/dense_bitmap.cuh"
#include "irgl/gpu/worklist/frontier_policy.h"
#include "irgl/gpu/worklist/sparse_queue.cuh"
#include "irgl/support/host_device.h"

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

// Frontier statistics. Those that return a value cost one pass (a CUB
// reduction, algorithms.cuh, or the sample kernel), one copy to pinned
// memory and one synchronization of `stream`; sample_degree_sum() instead
// rides on the caller's next synchronization. Not thread-safe.
class FrontierStats {
 public:
  // Up to this many queue items are read to estimate a degree sum.
  static constexpr uint64_t kDegreeSamples = 4096;
  static_assert((kDegreeSamples & (kDegreeSamples - 1)) == 0, "a power of two (sample_index)");
  // How many of `size` items an estimate of up to `max_samples` reads.
  IRGL_HD static constexpr uint64_t degree_samples(uint64_t size,
                                                   uint64_t max_samples = kDegreeSamples) {
    return size < max_samples ? size : max_samples;
  }
  // The degree sum of `size` items from the sum of degree_samples(size,
  // max_samples) of their degrees: exact when every item was sampled, else
  // the mean times size (in floating point: the product may overflow).
  IRGL_HD static uint64_t scale_sampled_degrees(uint64_t sampled, uint64_t size,
                                                uint64_t max_samples = kDegreeSamples) {
    const uint64_t samples = degree_samples(size, max_samples);
    return samples == size ? sampled
                           : static_cast<uint64_t>(static_cast<double>(sampled) / samples * size);
  }
  // The item sample s < degree_samples(size, max_samples) reads: floor(s *
  // size / max_samples), evenly spaced. max_samples is a power of two, so
  // that this is a shift, not a 64-bit division, when the sample is full.
  IRGL_HD static constexpr uint64_t sample_index(uint64_t s, uint64_t size,
                                                 uint64_t max_samples = kDegreeSamples) {
    return size <= max_samples ? s : s * size / max_samples;
  }
#if defined(__CUDACC__)
  // The degree of sample s < degree_samples(size, max_samples) of the
  // queue's first `size` items (sample_index).
  __device__ static uint64_t sampled_degree(const SparseQueueView& queue, uint64_t size,
                                            const uint64_t* offsets, uint64_t s,
                                            uint64_t max_samples = kDegreeSamples) {
    const VertexId v = queue[sample_index(s, size, max_samples)];
    return offsets[v + 1] - offsets[v];
  }
#endif

  struct MembersAndDegrees {
    uint64_t members = 0;
    uint64_t degree_sum = 0;
  };

  // The number of set bits: one pass over the words.
  uint64_t members(const DenseBitmapView& bitmap, cudaStream_t stream = 0);
  // The total degree (offsets[v + 1] - offsets[v]) of the queue's first
  // `size` items: exact for up to kDegreeSamples items, else the mean degree
  // of kDegreeSamples evenly spaced items times `size`. Items must be valid
  // vertex ids of `offsets`, and the queue's counter at least `size`.
  uint64_t degree_sum(const SparseQueueView& queue, uint64_t size, const uint64_t* offsets,
                      cudaStream_t stream = 0);
  // The exact total degree of the bitmap's members (members_and_degree_sum's).
  uint64_t degree_sum(const DenseBitmapView& members, const uint64_t* offsets,
                      cudaStream_t stream = 0);
  // Both members() and degree_sum() of the bitmap, in one pass over its
  // words (each reads the offsets of its 32 vertices) and one read-back.
  MembersAndDegrees members_and_degree_sum(const DenseBitmapView& members,
                                           const uint64_t* offsets, cudaStream_t stream = 0);

  // Starts the estimate degree_sum(queue, size, offsets) for the size the
  // queue has when the stream reaches it (read on the device): one small
  // kernel (a thread per sample) and a 128-byte copy to pinned memory, no
  // synchronization. After the caller's next synchronization of `stream`
  // (the pipe's size read), sampled_degree_sum(size) gives it for the size
  // that synchronization read.
  void sample_degree_sum(const SparseQueueView& queue, const uint64_t* offsets,
                         cudaStream_t stream = 0);
  uint64_t sampled_degree_sum(uint64_t size) const;

 private:
  // The sum of per_index(i) for i in [0, n), read back.
  template <class PerIndex>
  uint64_t sum(PerIndex per_index, uint64_t n, cudaStream_t stream);
  // Sizes result_ and host_result_ on first use.
  void allocate_results();

  // Results and their pinned mirrors (slots: worklists.cu).
  DeviceBuffer<unsigned long long> result_;
  PinnedBuffer<unsigned long long> host_result_;
  ScratchBuffer scratch_;
};

// Whether a round's input reaches `edges` edges, by its degree sum
// estimated as FrontierStats does but from samples_per_block<B>() items,
// on the device. A persistent kernel (schedule/outline.cuh) leaves such a
// round to the host: so that the pipe can write the round's output as a
// bitmap (the kernel writes queues only; FrontierPolicy::dense_edges() under
// --frontier=auto on a graph with hubs: lang::Pipe::dense_round_check()),
// and when the round is heavy (lang::Pipe::heavy_round_check()). edges ==
// 0: never.
struct InputEdgesCheck {
  const uint64_t* offsets = nullptr;
  uint64_t max_degree = 0;
  uint64_t edges = 0;

  // Every block takes the same sample (so that all agree without a grid
  // barrier), so the grid reads blocks times this many items: two per
  // thread, not the host's 4,096. With 4,096 the check cost about 5.5 us a
  // round on cnr-2000 (bfs outlined: 1.60 ms against 1.40 sparse).
  template <int BlockThreads>
  IRGL_HD static constexpr uint64_t samples_per_block() {
    static_assert((BlockThreads & (BlockThreads - 1)) == 0, "a power of two (sample_index)");
    return 2 * BlockThreads;
  }

#if defined(__CUDACC__)
  // Whether the queue's first `size` items have at least `edges` edges.
  // Block-collective: every thread of the block calls it and gets the
  // answer; every block of a grid gets the same one (the same samples).
  // Free when size * max_degree < edges; else both of a thread's samples
  // are loaded before either is summed.
  template <int BlockThreads>
  __device__ bool reached(const SparseQueueView& queue, uint64_t size) const {
    if (edges == 0 || size == 0 || !may_hold_edges(size, max_degree, edges)) return false;
    constexpr uint64_t kMaxSamples = samples_per_block<BlockThreads>();
    const uint64_t samples = FrontierStats::degree_samples(size, kMaxSamples);
    unsigned long long sampled = 0;
#pragma unroll
    for (int j = 0; j < int(kMaxSamples / BlockThreads); ++j) {
      const uint64_t s = threadIdx.x + uint64_t(j) * BlockThreads;
      if (s < samples) sampled += FrontierStats::sampled_degree(queue, size, offsets, s, kMaxSamples);
    }
    using Reduce = cub::BlockReduce<unsigned long long, BlockThreads>;
    __shared__ typename Reduce::TempStorage storage;
    __shared__ bool block_answer;
    const unsigned long long total = Reduce(storage).Sum(sampled);
    if (threadIdx.x == 0)
      block_answer = FrontierStats::scale_sampled_degrees(total, size, kMaxSamples) >= edges;
    __syncthreads();
    const bool answer = block_answer;
    __syncthreads();  // the next call may overwrite storage and block_answer
    return answer;
  }
#endif
};

}  // namespace irgl::gpu
