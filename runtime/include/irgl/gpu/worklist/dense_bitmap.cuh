// A dense worklist / vertex set: one bit per vertex in 32-bit words.
//
//   DenseBitmap visited(n);                  // all clear
//   kernel<<<...>>>(visited.view(), ...);
//   __device__: if (visited.test_and_set(v)) { /* first visit of v */ }
//
// Dense sets suit large frontiers (no duplicates by construction, n/8 bytes
// whatever the size); sparse queues (sparse_queue.cuh) suit small ones. See
// conversions.cuh for converting between them.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "irgl/gpu/device_buffer.h"
#include "irgl/graph/csr_graph.h"
#include "irgl/support/host_device.h"

namespace irgl::gpu {

// Trivially copyable handle to a bitmap's words, passed to kernels by value.
// Invariant: the bits past num_bits in the last word are 0.
//
// Thread-safety: set, clear and test_and_set are atomic and may race freely
// with each other on the same bits. test() is a plain load: it sees bits
// set by earlier kernels and may or may not see bits set concurrently; do
// not spin on it.
struct DenseBitmapView {
  static constexpr uint32_t kBitsPerWord = 32;

  uint32_t* words = nullptr;
  uint64_t num_bits = 0;

  IRGL_HD static uint64_t word_count(uint64_t bits) {
    return (bits + kBitsPerWord - 1) / kBitsPerWord;
  }
  IRGL_HD static uint64_t word_of(VertexId v) { return v / kBitsPerWord; }
  IRGL_HD static uint32_t mask_of(VertexId v) { return 1u << (v % kBitsPerWord); }
  IRGL_HD uint64_t num_words() const { return word_count(num_bits); }

#if defined(__CUDACC__)
  // Preconditions for all: v < num_bits.

  // Whether v's bit is set. One load.
  __device__ __forceinline__ bool test(VertexId v) const {
    return (words[word_of(v)] & mask_of(v)) != 0;
  }
  // Sets v's bit. One atomicOr.
  __device__ __forceinline__ void set(VertexId v) const {
    atomicOr(&words[word_of(v)], mask_of(v));
  }
  // Clears v's bit. One atomicAnd.
  __device__ __forceinline__ void clear(VertexId v) const {
    atomicAnd(&words[word_of(v)], ~mask_of(v));
  }
  // Sets v's bit; returns true only for the one caller that changed it from
  // 0 to 1 (among any number of concurrent callers). A plain load first
  // skips the atomic when the bit is already visibly set, which is the
  // common case in graph traversals; a stale 0 from that load only costs the
  // atomic. Precondition: nobody clears v's bit concurrently.
  __device__ __forceinline__ bool test_and_set(VertexId v) const {
    uint32_t* word = &words[word_of(v)];
    const uint32_t mask = mask_of(v);
    if ((*word & mask) != 0) return false;
    return (atomicOr(word, mask) & mask) == 0;
  }
#endif
};

// Owns a bitmap of num_bits bits in device memory. Move-only; not
// thread-safe. Host operations are asynchronous on the given stream unless
// they return data.
class DenseBitmap {
 public:
  DenseBitmap() = default;
  // All bits clear (asynchronous memset on `stream`).
  explicit DenseBitmap(uint64_t num_bits, cudaStream_t stream = 0);

  DenseBitmapView view() const { return {const_cast<uint32_t*>(words_.data()), num_bits_}; }
  uint64_t num_bits() const { return num_bits_; }
  uint64_t num_words() const { return words_.size(); }

  // Clears every bit: one cudaMemsetAsync.
  void clear_all(cudaStream_t stream = 0);
  // Sets bits [0, num_bits) and keeps the tail of the last word clear: one
  // memset and, when num_bits is not a multiple of 32, one one-word fill.
  void set_all(cudaStream_t stream = 0);

  // Replaces the contents by exactly the given vertices (each < num_bits,
  // else std::out_of_range); builds the words on the host and uploads them
  // synchronously on `stream`. For tests and initial sets.
  void assign(const std::vector<VertexId>& members, cudaStream_t stream = 0);
  // The raw words, after waiting for `stream`.
  std::vector<uint32_t> download_words(cudaStream_t stream = 0) const;
  // The set vertices in increasing order, after waiting for `stream`.
  std::vector<VertexId> download_members(cudaStream_t stream = 0) const;

 private:
  DeviceBuffer<uint32_t> words_;
  uint64_t num_bits_ = 0;
};

}  // namespace irgl::gpu
