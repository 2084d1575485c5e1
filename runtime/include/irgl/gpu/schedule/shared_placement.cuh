// Arrays of an outlined loop copied into one block's shared memory, so that
// a small graph's rounds run their chains of dependent accesses there (tens
// of cycles each) instead of in global memory: sssp's rounds on minnesota
// took 1.1 us instead of about 4 (H200,
// docs/experiments/2026-11-30-smem-probe.md). outline.cuh runs such a loop
// on one block when its Rounds type says what its steps touch:
//
//   template <class Place> IRGL_HD void place(Place& place) {
//     step.g = step.g.placed(place);                       // read-only arrays
//     step.dist.data = place.read_write(step.dist.data, step.g.num_nodes());
//   }
//
// The host runs place() on a copy with no arena to size the copies; the
// kernel runs it with the arena, every thread of the block together:
// each array is copied in once (an array named twice, by two steps, shares
// its copy), the views point at the copies, and write_back() copies the
// written ones back at the end.
#pragma once

#include <cstdint>

#include "irgl/support/host_device.h"

namespace irgl::gpu::schedule {

class SharedPlacement {
 public:
  static constexpr unsigned kMaxArrays = 16;
  static constexpr uint64_t kAlignment = 16;

  IRGL_HD static uint64_t aligned(uint64_t bytes) {
    return (bytes + kAlignment - 1) / kAlignment * kAlignment;
  }

  // Sizes only (the host), or copies into `arena` (a block's threads).
  SharedPlacement() = default;
  IRGL_HD explicit SharedPlacement(char* arena) : arena_(arena) {}

  // `count` elements at `from`, read by the loop: their copy, or `from`
  // when sizing (or null, or empty).
  template <class T>
  IRGL_HD T* read_only(T* from, uint64_t count) {
    return static_cast<T*>(place(from, count * sizeof(T), false));
  }
  // The same, written by the loop: copied back by write_back().
  template <class T>
  IRGL_HD T* read_write(T* from, uint64_t count) {
    return static_cast<T*>(place(from, count * sizeof(T), true));
  }

  // The arena's bytes the arrays take, each aligned.
  IRGL_HD uint64_t bytes() const { return used_; }
  // The largest vertex degree of the graphs placed (Graph::placed notes
  // it; 0: none known).
  IRGL_HD void note_degree(uint64_t degree) {
    if (degree > largest_degree_) largest_degree_ = degree;
  }
  IRGL_HD uint64_t largest_degree() const { return largest_degree_; }
  // More arrays than kMaxArrays were named: the loop cannot run in shared
  // memory (the placement stops copying).
  IRGL_HD bool overflowed() const { return overflowed_; }

#if defined(__CUDACC__)
  // Copies the written arrays back; every thread of the block calls it
  // after a barrier that follows the loop's last write.
  __device__ void write_back() const {
    for (unsigned i = 0; i < count_; ++i)
      if (arrays_[i].writes) copy_block(arrays_[i].from, arrays_[i].to, arrays_[i].bytes);
  }

  // A block's threads copy `bytes` from `from` to `to` (either memory), all
  // together: in 16-byte vectors when both ends allow (allocations and the
  // arena do), then word by word (both ends 4-byte aligned), the last bytes
  // of an odd size one by one.
  __device__ static void copy_block(void* to, const void* from, uint64_t bytes) {
    auto* out = static_cast<char*>(to);
    const auto* in = static_cast<const char*>(from);
    uint64_t done = 0;
    if ((reinterpret_cast<uintptr_t>(to) | reinterpret_cast<uintptr_t>(from)) % sizeof(uint4) == 0)
      done = copy_units<uint4>(out, in, bytes / sizeof(uint4));
    done += copy_units<uint32_t>(out + done, in + done, (bytes - done) / sizeof(uint32_t));
    for (uint64_t i = done + threadIdx.x; i < bytes; i += blockDim.x) out[i] = in[i];
  }
#endif

 private:
  struct Array {
    void* from;
    void* to;
    uint64_t bytes;
    bool writes;
  };

  template <class T>
  IRGL_HD void* place(T* typed, uint64_t bytes, bool writes) {
    void* from = const_cast<void*>(static_cast<const void*>(typed));
    if (!from || bytes == 0) return from;
    for (unsigned i = 0; i < count_; ++i)
      if (arrays_[i].from == from) {
        arrays_[i].writes = arrays_[i].writes || writes;
        return arrays_[i].to ? arrays_[i].to : from;
      }
    if (count_ == kMaxArrays) {
      overflowed_ = true;
      return from;
    }
    void* to = arena_ ? arena_ + used_ : nullptr;
    used_ += aligned(bytes);
    arrays_[count_++] = {from, to, bytes, writes};
#if defined(__CUDA_ARCH__)
    if (to) copy_block(to, from, bytes);
#endif
    return to ? to : from;
  }

#if defined(__CUDACC__)
  // Copies `count` units; returns their bytes. Each thread loads
  // kInFlight units before it stores any: one block's copy waits for a
  // memory latency per kInFlight units a thread, not per unit (a small
  // graph's copy-in took about a seventh of its loop's time unit by unit).
  template <class Unit>
  __device__ static uint64_t copy_units(char* to, const char* from, uint64_t count) {
    constexpr unsigned kInFlight = 8;
    auto* out = reinterpret_cast<Unit*>(to);
    const auto* in = reinterpret_cast<const Unit*>(from);
    for (uint64_t base = threadIdx.x; base < count; base += uint64_t(blockDim.x) * kInFlight) {
      Unit units[kInFlight];
#pragma unroll
      for (unsigned k = 0; k < kInFlight; ++k) {
        const uint64_t i = base + uint64_t(k) * blockDim.x;
        if (i < count) units[k] = in[i];
      }
#pragma unroll
      for (unsigned k = 0; k < kInFlight; ++k) {
        const uint64_t i = base + uint64_t(k) * blockDim.x;
        if (i < count) out[i] = units[k];
      }
    }
    return count * sizeof(Unit);
  }
#endif

  char* arena_ = nullptr;
  uint64_t used_ = 0;
  Array arrays_[kMaxArrays] = {};
  unsigned count_ = 0;
  uint64_t largest_degree_ = 0;
  bool overflowed_ = false;
};

}  // namespace irgl::gpu::schedule
