#include <stdexcept>

#include "irgl/gpu/check.h"
#include "irgl/gpu/timer.h"

namespace irgl::gpu {

CudaEventTimer::CudaEventTimer() {
  IRGL_CUDA_CHECK(cudaEventCreate(&start_));
  const cudaError_t status = cudaEventCreate(&stop_);
  if (status != cudaSuccess) {
    cudaEventDestroy(start_);
    detail::throw_cuda_error(status, "cudaEventCreate(&stop_)", __FILE__, __LINE__);
  }
}

CudaEventTimer::~CudaEventTimer() {
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
}

void CudaEventTimer::start(cudaStream_t stream) {
  IRGL_CUDA_CHECK(cudaEventRecord(start_, stream));
  started_ = true;
  stopped_ = false;
}

void CudaEventTimer::stop(cudaStream_t stream) {
  if (!started_) throw std::logic_error("CudaEventTimer::stop called before start");
  IRGL_CUDA_CHECK(cudaEventRecord(stop_, stream));
  stopped_ = true;
}

float CudaEventTimer::elapsed_ms() const {
  if (!stopped_) throw std::logic_error("CudaEventTimer::elapsed_ms needs start() then stop()");
  IRGL_CUDA_CHECK(cudaEventSynchronize(stop_));
  float ms = 0;
  IRGL_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
  return ms;
}

}  // namespace irgl::gpu
