// Error checking, device queries and the event timer.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <string>

#include "gpu_test.h"
#include "irgl/gpu/check.h"
#include "irgl/gpu/device_info.h"
#include "irgl/gpu/energy.h"
#include "irgl/gpu/timer.h"

namespace irgl::gpu {
namespace {

__global__ void empty_kernel() {}

// Busy-waits about `cycles` SM clock cycles.
__global__ void spin_kernel(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

// Cycles that take about `ms` milliseconds at the device's maximum clock; at
// a lower clock they take longer, which keeps lower bounds valid.
long long cycles_for_ms(double ms) {
  int khz = 0;
  IRGL_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
  return static_cast<long long>(ms * khz);
}

TEST(CudaCheck, FailedCallThrowsWithLocationCallAndReason) {
  IRGL_REQUIRE_GPU();
  const int line = __LINE__ + 2;
  try {
    IRGL_CUDA_CHECK(cudaSetDevice(-1));
    FAIL() << "cudaSetDevice(-1) did not throw";
  } catch (const CudaError& error) {
    const std::string message = error.what();
    EXPECT_EQ(error.code(), cudaErrorInvalidDevice) << message;
    EXPECT_NE(message.find(std::string(__FILE__) + ":" + std::to_string(line)), std::string::npos)
        << message;
    EXPECT_NE(message.find("cudaSetDevice(-1)"), std::string::npos) << message;
    EXPECT_NE(message.find(cudaGetErrorString(cudaErrorInvalidDevice)), std::string::npos)
        << message;
    EXPECT_NE(message.find("cudaErrorInvalidDevice"), std::string::npos) << message;
  }
  // Non-sticky, and reset by the check: a later launch check is not blamed.
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  empty_kernel<<<1, 1>>>();
  EXPECT_NO_THROW(IRGL_CUDA_CHECK_LAUNCH());
}

TEST(CudaCheck, BadLaunchIsReportedAtTheLaunch) {
  IRGL_REQUIRE_GPU();
  empty_kernel<<<1, 4096>>>();  // more threads per block than any GPU allows
  const int line = __LINE__ + 2;
  try {
    IRGL_CUDA_CHECK_LAUNCH();
    FAIL() << "a 4096-thread block launched";
  } catch (const CudaError& error) {
    const std::string message = error.what();
    // Which code depends on the CUDA version: cudaErrorInvalidConfiguration
    // traditionally, cudaErrorInvalidValue with CUDA 13.0 on an H200.
    EXPECT_NE(error.code(), cudaSuccess) << message;
    EXPECT_NE(message.find(cudaGetErrorName(error.code())), std::string::npos) << message;
    EXPECT_NE(message.find(std::string(__FILE__) + ":" + std::to_string(line)), std::string::npos)
        << message;
    EXPECT_NE(message.find("kernel launch"), std::string::npos) << message;
  }
  // The error was consumed: a good launch afterwards passes the check.
  empty_kernel<<<1, 32>>>();
  EXPECT_NO_THROW(IRGL_CUDA_CHECK_LAUNCH());
  EXPECT_NO_THROW(IRGL_CUDA_CHECK(cudaDeviceSynchronize()));
}

__global__ void write_through_null_kernel(int* pointer) { *pointer = 1; }

// With IRGL_SYNC_CHECK=1 a fault inside a kernel is reported at the launch
// check. A fault poisons the CUDA context, so it runs in a child process
// (a death test, re-executed rather than forked: CUDA does not survive fork).
TEST(CudaCheck, SyncCheckReportsKernelFaultsAtTheLaunch) {
  IRGL_REQUIRE_GPU();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  setenv("IRGL_SYNC_CHECK", "1", 1);
  auto faulting_launch = [] {
    try {
      write_through_null_kernel<<<1, 1>>>(nullptr);
      IRGL_CUDA_CHECK_LAUNCH();
      std::cerr << "no error reported\n";
      std::exit(4);
    } catch (const CudaError& error) {
      std::cerr << error.what() << "\n";
      std::exit(3);
    }
  };
  EXPECT_EXIT(faulting_launch(), ::testing::ExitedWithCode(3),
              "device_test.cu:[0-9]+: kernel execution \\(IRGL_SYNC_CHECK=1\\): .*illegal");
  unsetenv("IRGL_SYNC_CHECK");
}

TEST(DeviceInfo, DescribesTheCurrentDevice) {
  IRGL_REQUIRE_GPU();
  const DeviceInfo info = query_device();
  std::cout << "device " << info.ordinal << ": " << info.summary() << "\n";
  EXPECT_GE(info.ordinal, 0);
  EXPECT_FALSE(info.name.empty());
  // The tests are built for sm_90 only, so they run on 9.0 or later.
  EXPECT_GE(info.compute_major, 9);
  EXPECT_GT(info.sm_count, 0);
  EXPECT_GE(info.max_threads_per_sm, 1024);
  EXPECT_GT(info.l2_bytes, 0u);
  EXPECT_GT(info.total_memory, uint64_t{1} << 30);
  EXPECT_GT(info.free_memory, 0u);
  EXPECT_LE(info.free_memory, info.total_memory);
  EXPECT_NE(info.summary().find(info.name), std::string::npos);
}

TEST(DeviceInfo, GpuAvailableHasNoReason) {
  IRGL_REQUIRE_GPU();
  std::string why = "stale";
  EXPECT_TRUE(gpu_available(&why)) << why;
  EXPECT_EQ(why, "");
  EXPECT_TRUE(gpu_available(nullptr));
  EXPECT_NE(compiled_architectures().find("sm_90"), std::string::npos) << compiled_architectures();
}

TEST(DeviceInfo, FormatBytes) {
  IRGL_REQUIRE_GPU();
  EXPECT_EQ(format_bytes(0), "0 B");
  EXPECT_EQ(format_bytes(1023), "1023 B");
  EXPECT_EQ(format_bytes(1024), "1.00 KiB");
  EXPECT_EQ(format_bytes(3 * 512 * 1024), "1.50 MiB");
  EXPECT_EQ(format_bytes(uint64_t{80} << 30), "80.00 GiB");
}

TEST(CudaEventTimer, MeasuresKernelTime) {
  IRGL_REQUIRE_GPU();
  CudaEventTimer short_timer, long_timer;
  short_timer.start();
  spin_kernel<<<1, 1>>>(cycles_for_ms(2));
  IRGL_CUDA_CHECK_LAUNCH();
  short_timer.stop();
  long_timer.start();
  spin_kernel<<<1, 1>>>(cycles_for_ms(20));
  IRGL_CUDA_CHECK_LAUNCH();
  long_timer.stop();
  const float short_ms = short_timer.elapsed_ms();
  const float long_ms = long_timer.elapsed_ms();
  EXPECT_GE(short_ms, 1.5f);
  EXPECT_GE(long_ms, 19.0f);
  EXPECT_LT(long_ms, 2000.0f);
  EXPECT_GT(long_ms, short_ms * 3) << "short " << short_ms << " ms, long " << long_ms << " ms";
}

TEST(CudaEventTimer, RejectsMisuse) {
  IRGL_REQUIRE_GPU();
  CudaEventTimer timer;
  EXPECT_THROW(timer.stop(), std::logic_error);
  EXPECT_THROW(timer.elapsed_ms(), std::logic_error);
  timer.start();
  EXPECT_THROW(timer.elapsed_ms(), std::logic_error);  // started, not stopped
  timer.stop();
  EXPECT_GE(timer.elapsed_ms(), 0.0f);
  timer.start();  // a restart forgets the old stop
  EXPECT_THROW(timer.elapsed_ms(), std::logic_error);
}

// A block on every SM spinning for 200 ms: the GPU draws between 20 W
// (near idle) and 1.5 kW (beyond any card) over it, by NVML's counter or
// its power samples.
TEST(EnergyMeter, MeasuresTheEnergyOfBusyKernels) {
  IRGL_REQUIRE_GPU();
  EnergyMeter meter;
  ASSERT_TRUE(meter.available()) << meter.why_unavailable();
  EXPECT_THROW(meter.stop(), std::logic_error);
  meter.start();
  CudaEventTimer timer;
  timer.start();
  spin_kernel<<<query_device().sm_count, 1>>>(cycles_for_ms(200));
  IRGL_CUDA_CHECK_LAUNCH();
  timer.stop();
  const float ms = timer.elapsed_ms();
  const double mj = meter.stop();
  std::cout << "energy: " << mj << " mJ over " << ms << " ms (" << meter.source() << ")\n";
  EXPECT_GT(mj, 20.0 * ms);
  EXPECT_LT(mj, 1500.0 * ms);
}

}  // namespace
}  // namespace irgl::gpu
