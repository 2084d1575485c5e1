// GPU tests: IRGL_REQUIRE_GPU() at the start of a test makes it report
// SKIPPED (never passed) when no CUDA device is usable, e.g. in CI.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <string>

namespace irgl::testing {

// Empty when a device is usable; otherwise why not. Checked once.
inline const std::string& gpu_unavailable_reason() {
  static const std::string reason = [] {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) return std::string(cudaGetErrorString(status));
    if (count == 0) return std::string("no CUDA device");
    return std::string();
  }();
  return reason;
}

}  // namespace irgl::testing

#define IRGL_REQUIRE_GPU()                                                    \
  do {                                                                        \
    if (!::irgl::testing::gpu_unavailable_reason().empty())                   \
      GTEST_SKIP() << "GPU test skipped: " << ::irgl::testing::gpu_unavailable_reason(); \
  } while (0)
