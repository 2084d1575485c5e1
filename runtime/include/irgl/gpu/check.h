// Error checking for CUDA runtime calls and kernel launches.
//
//   IRGL_CUDA_CHECK(cudaMalloc(&pointer, bytes));
//   my_kernel<<<blocks, threads, 0, stream>>>(...);
//   IRGL_CUDA_CHECK_LAUNCH();
//
// A failure throws irgl::gpu::CudaError whose what() is one line naming the
// place, the call and CUDA's description:
//   device_buffer.h:57: cudaMalloc(&data_, bytes): out of memory (cudaErrorMemoryAllocation)
//
// Kernel launches report only launch errors (bad configuration, no kernel
// image) at IRGL_CUDA_CHECK_LAUNCH(); faults inside a kernel surface at a later
// synchronizing call. Set IRGL_SYNC_CHECK=1 in the environment to make every
// IRGL_CUDA_CHECK_LAUNCH() also synchronize the device, so that such faults are
// reported at the launch that caused them (slow; for debugging).
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace irgl::gpu {

class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& message)
      : std::runtime_error(message), code_(code) {}

  // The CUDA status that caused the error.
  cudaError_t code() const noexcept { return code_; }

 private:
  cudaError_t code_;
};

// True when the environment variable IRGL_SYNC_CHECK is set to 1 (read once).
bool sync_check_enabled();

namespace detail {

// Throws CudaError for `status` (which must not be cudaSuccess), located at
// file:line and naming `call` (the source text of the failed call). Resets
// CUDA's last-error state first, so the error is reported exactly once.
[[noreturn]] void throw_cuda_error(cudaError_t status, const char* call, const char* file,
                                   int line);

// Checks cudaGetLastError() (and, with IRGL_SYNC_CHECK=1, synchronizes the
// device) after a kernel launch at file:line.
void check_launch(const char* file, int line);

}  // namespace detail
}  // namespace irgl::gpu

// Evaluates a cudaError_t expression once; throws CudaError unless cudaSuccess.
#define IRGL_CUDA_CHECK(call)                                                              \
  do {                                                                                     \
    const cudaError_t irgl_cuda_status_ = (call);                                          \
    if (irgl_cuda_status_ != cudaSuccess)                                                  \
      ::irgl::gpu::detail::throw_cuda_error(irgl_cuda_status_, #call, __FILE__, __LINE__); \
  } while (0)

// Use right after a <<<...>>> launch.
#define IRGL_CUDA_CHECK_LAUNCH() ::irgl::gpu::detail::check_launch(__FILE__, __LINE__)
