// Device-wide algorithms: thin wrappers over CUB (shipped with the CUDA
// toolkit) that take their temporary storage from a ScratchBuffer.
//
//   ScratchBuffer scratch;                            // keep it around
//   exclusive_sum(degrees, offsets, n, scratch, stream);
//   reduce_max(labels, max_label, n, scratch, stream);
//
// Every wrapper is asynchronous on `stream`: results land in device memory
// (also counts and reductions), and nothing synchronizes the device, except
// that a ScratchBuffer that has to grow reallocates (see scratch_buffer.h).
// Inputs may be pointers or CUB/Thrust-compatible device iterators; n is the
// number of input items (64-bit). A CUB failure throws CudaError naming the
// algorithm. Not thread-safe per ScratchBuffer.
#pragma once

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/functional>
#include <cuda/std/functional>
#include <limits>

#include "irgl/gpu/check.h"
#include "irgl/gpu/scratch_buffer.h"
#include "irgl/support/host_device.h"

namespace irgl::gpu {

namespace detail {

// CUB's two-phase protocol: ask for the scratch size with a null pointer,
// then run with the scratch. `run(temp, bytes)` calls the CUB algorithm.
template <class Run>
void run_with_scratch(ScratchBuffer& scratch, const char* algorithm, Run&& run) {
  size_t bytes = 0;
  cudaError_t status = run(nullptr, bytes);
  if (status == cudaSuccess) status = run(scratch.reserve(bytes), bytes);
  if (status != cudaSuccess) throw_cuda_error(status, algorithm, __FILE__, __LINE__);
}

// counts[i] for i < n and 0 at i == n, as OutT: lets one scan of n + 1 items
// produce CSR-style offsets with the total at the end.
template <class CountT, class OutT>
struct PaddedCount {
  const CountT* counts;
  uint64_t n;
  IRGL_HD OutT operator()(uint64_t i) const {
    return i < n ? static_cast<OutT>(counts[i]) : OutT{0};
  }
};

}  // namespace detail

// out[i] = in[0] + ... + in[i-1] (out[0] = 0), accumulated in OutT: with
// uint32 degrees and uint64 offsets the sums are exact past 2^32. In place
// (out == in) only when the types match. Cost: one CUB decoupled look-back
// scan, about 2n element transfers.
template <class InputIt, class OutT>
void exclusive_sum(InputIt in, OutT* out, uint64_t n, ScratchBuffer& scratch,
                   cudaStream_t stream = 0) {
  detail::run_with_scratch(
      scratch, "cub::DeviceScan::ExclusiveScan", [&](void* temp, size_t& bytes) {
        return cub::DeviceScan::ExclusiveScan(temp, bytes, in, out, ::cuda::std::plus<OutT>{},
                                              OutT{0}, n, stream);
      });
}

// CSR offsets from counts: offsets[0..n] with offsets[n] = the total (n + 1
// outputs, counts has n). One scan, as exclusive_sum.
template <class CountT, class OutT>
void counts_to_offsets(const CountT* counts, OutT* offsets, uint64_t n, ScratchBuffer& scratch,
                       cudaStream_t stream = 0) {
  const auto padded = thrust::make_transform_iterator(thrust::counting_iterator<uint64_t>(0),
                                                      detail::PaddedCount<CountT, OutT>{counts, n});
  exclusive_sum(padded, offsets, n + 1, scratch, stream);
}

// *out = op(init, in[0], ..., in[n-1]) (in some association order: `op`
// must be associative and commutative), accumulated in T. Writes init when
// n == 0. Cost: one CUB reduction, reading the input once.
template <class InputIt, class T, class Op>
void reduce(InputIt in, T* out, uint64_t n, Op op, T init, ScratchBuffer& scratch,
            cudaStream_t stream = 0) {
  detail::run_with_scratch(scratch, "cub::DeviceReduce::Reduce", [&](void* temp, size_t& bytes) {
    return cub::DeviceReduce::Reduce(temp, bytes, in, out, n, op, init, stream);
  });
}

// Sum accumulated in T (pick uint64_t to sum uint32 values without
// overflow); 0 for an empty input.
template <class InputIt, class T>
void reduce_sum(InputIt in, T* out, uint64_t n, ScratchBuffer& scratch, cudaStream_t stream = 0) {
  reduce(in, out, n, ::cuda::std::plus<T>{}, T{0}, scratch, stream);
}
// Minimum; std::numeric_limits<T>::max() for an empty input.
template <class InputIt, class T>
void reduce_min(InputIt in, T* out, uint64_t n, ScratchBuffer& scratch, cudaStream_t stream = 0) {
  reduce(in, out, n, ::cuda::minimum<T>{}, std::numeric_limits<T>::max(), scratch, stream);
}
// Maximum; std::numeric_limits<T>::lowest() for an empty input.
template <class InputIt, class T>
void reduce_max(InputIt in, T* out, uint64_t n, ScratchBuffer& scratch, cudaStream_t stream = 0) {
  reduce(in, out, n, ::cuda::maximum<T>{}, std::numeric_limits<T>::lowest(), scratch, stream);
}

// Sorts (key, value) pairs by key, stably (equal keys keep their input
// order), into separate output arrays. Only key bits [begin_bit, end_bit)
// are compared: pass end_bit = bits of the largest key to save passes (one
// pass per 7-8 bits). Keys: unsigned/signed integers or floats. Cost: about
// (end_bit - begin_bit) / 8 passes over keys and values, plus the scratch
// (about the size of the inputs).
template <class Key, class Value>
void sort_pairs(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out,
                uint64_t n, ScratchBuffer& scratch, cudaStream_t stream = 0, int begin_bit = 0,
                int end_bit = sizeof(Key) * 8) {
  detail::run_with_scratch(
      scratch, "cub::DeviceRadixSort::SortPairs", [&](void* temp, size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in, keys_out, values_in,
                                               values_out, n, begin_bit, end_bit, stream);
      });
}

// Copies the in[i] whose flags[i] is nonzero to out, in order, and writes
// their number to *num_selected (device memory, any integer type). n < 2^63.
template <class InputIt, class FlagIt, class OutputIt, class CountT>
void select_flagged(InputIt in, FlagIt flags, OutputIt out, CountT* num_selected, uint64_t n,
                    ScratchBuffer& scratch, cudaStream_t stream = 0) {
  detail::run_with_scratch(scratch, "cub::DeviceSelect::Flagged", [&](void* temp, size_t& bytes) {
    return cub::DeviceSelect::Flagged(temp, bytes, in, flags, out, num_selected,
                                      static_cast<int64_t>(n), stream);
  });
}

// Copies the in[i] for which pred(in[i]) is true to out, in order, and
// writes their number to *num_selected (device memory). `pred` is a
// __device__-callable functor. n < 2^63.
template <class InputIt, class OutputIt, class CountT, class Predicate>
void select_if(InputIt in, OutputIt out, CountT* num_selected, uint64_t n, Predicate pred,
               ScratchBuffer& scratch, cudaStream_t stream = 0) {
  detail::run_with_scratch(scratch, "cub::DeviceSelect::If", [&](void* temp, size_t& bytes) {
    return cub::DeviceSelect::If(temp, bytes, in, out, num_selected, static_cast<int64_t>(n), pred,
                                 stream);
  });
}

}  // namespace irgl::gpu
