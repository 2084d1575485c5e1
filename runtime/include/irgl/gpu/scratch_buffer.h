// Persistent temporary storage for CUB's device-wide algorithms.
//
// CUB algorithms need scratch memory whose size depends on the input size.
// Allocating it per call would cost a cudaMalloc/cudaFree pair (and the
// implicit synchronization of cudaFree) every time; a ScratchBuffer instead
// keeps the largest block asked for so far and hands it out again.
//
// Growth frees the old block and allocates a larger one: cudaFree waits for
// the device, so growth is a synchronization point, and pointers returned
// earlier become invalid. In steady state (same sizes each round) nothing is
// allocated. Call reserve() with the largest size up front to keep even the
// first round free of allocation.
//
// Not thread-safe. The block is shared by every call that uses the buffer, so
// calls on different streams must not overlap: use one ScratchBuffer per
// stream.
#pragma once

#include <cstddef>

#include "irgl/gpu/device_buffer.h"

namespace irgl::gpu {

class ScratchBuffer {
 public:
  ScratchBuffer() = default;
  explicit ScratchBuffer(size_t bytes) { reserve(bytes); }

  // Device storage of at least `bytes` bytes (256-byte aligned, as cudaMalloc
  // returns), valid until the next call that grows the buffer. Returns
  // nullptr only for a buffer that has never held anything and bytes == 0.
  void* reserve(size_t bytes) {
    if (bytes > storage_.size()) {
      storage_.reset(bytes);
      ++allocations_;
    }
    return storage_.data();
  }

  // Bytes currently held.
  size_t capacity() const { return storage_.size(); }
  // How many times the buffer has (re)allocated: for tests and tuning.
  size_t allocations() const { return allocations_; }

 private:
  DeviceBuffer<unsigned char> storage_;
  size_t allocations_ = 0;
};

}  // namespace irgl::gpu
