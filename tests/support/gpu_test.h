// GPU tests: IRGL_REQUIRE_GPU() at the start of a test makes it report
// SKIPPED (never passed) when no CUDA device is usable, e.g. in CI.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "irgl/gpu/device_info.h"

namespace irgl::testing {

// Empty when a device is usable; otherwise why not. Checked once.
inline const std::string& gpu_unavailable_reason() {
  // gpu_available also launches a probe kernel, so a GPU this build has no
  // code for counts as unusable (skipped) rather than failing every test.
  static const std::string reason = [] {
    std::string why;
    return irgl::gpu::gpu_available(&why) ? std::string() : why;
  }();
  return reason;
}

}  // namespace irgl::testing

#define IRGL_REQUIRE_GPU()                                                    \
  do {                                                                        \
    if (!::irgl::testing::gpu_unavailable_reason().empty())                   \
      GTEST_SKIP() << "GPU test skipped: " << ::irgl::testing::gpu_unavailable_reason(); \
  } while (0)
