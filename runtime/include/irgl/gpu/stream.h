// An owned CUDA stream.
#pragma once

#include <cuda_runtime_api.h>

#include <utility>

#include "irgl/gpu/check.h"

namespace irgl::gpu {

// A blocking stream (cudaStreamCreate): work on it is also ordered with the
// legacy default stream 0, so stream-0 convenience calls (synchronous
// uploads and downloads) see its results. Move-only; destroying it does not
// wait for its work (CUDA finishes the work, then releases the stream).
class Stream {
 public:
  Stream() { IRGL_CUDA_CHECK(cudaStreamCreate(&handle_)); }
  ~Stream() {
    if (handle_ != nullptr) cudaStreamDestroy(handle_);
  }
  Stream(Stream&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  Stream& operator=(Stream&& other) noexcept {
    if (this != &other) {
      if (handle_ != nullptr) cudaStreamDestroy(handle_);
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  cudaStream_t get() const { return handle_; }
  operator cudaStream_t() const { return handle_; }

  // Waits until all work queued on the stream has finished.
  void synchronize() const { IRGL_CUDA_CHECK(cudaStreamSynchronize(handle_)); }

 private:
  cudaStream_t handle_ = nullptr;
};

}  // namespace irgl::gpu
