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
  // More arrays than kMaxArrays were named: the loop cannot run in shared
  // memory (the placement stops copying).
  IRGL_HD bool overflowed() const { return overflowed_; }

#if defined(__CUDACC__)
  // Copies the written arrays back; every thread of the block calls it
  // after a barrier that follows the loop's last write.
  __device__ void write_back() const {
    for (unsigned i = 0; i < count_; ++i)
      if (arrays_[i].writes) copy(arrays_[i].from, arrays_[i].to, arrays_[i].bytes);
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
    if (to) copy(to, from, bytes);
#endif
    return to ? to : from;
  }

#if defined(__CUDACC__)
  // A block's threads copy `bytes` word by word (both ends 4-byte aligned:
  // allocations and the arena), the last bytes of an odd size one by one.
  __device__ static void copy(void* to, const void* from, uint64_t bytes) {
    auto* out = static_cast<uint32_t*>(to);
    const auto* in = static_cast<const uint32_t*>(from);
    const uint64_t words = bytes / 4;
    for (uint64_t i = threadIdx.x; i < words; i += blockDim.x) out[i] = in[i];
    for (uint64_t i = words * 4 + threadIdx.x; i < bytes; i += blockDim.x)
      static_cast<char*>(to)[i] = static_cast<const char*>(from)[i];
  }
#endif

  char* arena_ = nullptr;
  uint64_t used_ = 0;
  Array arrays_[kMaxArrays] = {};
  unsigned count_ = 0;
  bool overflowed_ = false;
};

}  // namespace irgl::gpu::schedule
