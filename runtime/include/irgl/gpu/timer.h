// Timing GPU work with CUDA events.
//
//   CudaEventTimer timer;
//   timer.start(stream);
//   kernel<<<..., stream>>>(...);
//   timer.stop(stream);
//   float ms = timer.elapsed_ms();   // waits for the stop event
//
// Events measure the time between two points of a stream on the GPU's clock
// (resolution about half a microsecond), excluding host-side overhead before
// start(). Not thread-safe.
#pragma once

#include <cuda_runtime_api.h>

namespace irgl::gpu {

class CudaEventTimer {
 public:
  CudaEventTimer();
  ~CudaEventTimer();
  CudaEventTimer(const CudaEventTimer&) = delete;
  CudaEventTimer& operator=(const CudaEventTimer&) = delete;

  // Records the start event on `stream`; forgets any earlier stop.
  void start(cudaStream_t stream = 0);
  // Records the stop event on `stream`. Throws std::logic_error before start().
  void stop(cudaStream_t stream = 0);
  // Milliseconds from start to stop; waits for the stop event to complete.
  // Throws std::logic_error unless start() and then stop() were called.
  float elapsed_ms() const;

 private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
  bool started_ = false;
  bool stopped_ = false;
};

}  // namespace irgl::gpu
