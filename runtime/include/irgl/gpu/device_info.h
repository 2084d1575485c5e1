// What the current CUDA device is, and whether one is usable at all.
#pragma once

#include <cstdint>
#include <string>

namespace irgl::gpu {

struct DeviceInfo {
  int ordinal = -1;       // CUDA device number
  std::string name;       // "NVIDIA H100 80GB HBM3"
  int compute_major = 0;  // compute capability, e.g. 9.0 for Hopper
  int compute_minor = 0;
  int sm_count = 0;            // streaming multiprocessors
  int max_threads_per_sm = 0;  // resident threads per SM
  uint64_t l2_bytes = 0;       // L2 cache size
  uint64_t total_memory = 0;   // device memory, bytes
  uint64_t free_memory = 0;    // free device memory at the time of the query

  // One line: "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 50.0 MiB L2, 79.1 GiB
  // memory, 78.6 GiB free)".
  std::string summary() const;
};

// Queries the current device (creating its context if needed). Cost: one
// cudaGetDeviceProperties and one cudaMemGetInfo (tens of microseconds once
// the context exists). Throws CudaError when there is no usable device.
DeviceInfo query_device();

// True when a CUDA device can run this build's kernels: a device exists, its
// context starts, and a probe kernel compiled into this library launches and
// completes. Otherwise returns false and, when `why` is not null, stores the
// reason ("no CUDA device", the driver's message, or that the device's
// architecture does not match the build's). Never throws. Creates the
// context of the current device (hundreds of milliseconds the first time).
bool gpu_available(std::string* why = nullptr);

// The CUDA architectures this library was compiled for, e.g. "sm_90".
std::string compiled_architectures();

// Makes `device` current for the scope and the caller's device current
// again after it: for objects that keep work on a device of their own.
class ScopedDevice {
 public:
  explicit ScopedDevice(int device);
  ~ScopedDevice();
  ScopedDevice(const ScopedDevice&) = delete;
  ScopedDevice& operator=(const ScopedDevice&) = delete;

 private:
  int previous_ = -1;  // -1: unchanged
};

// A byte count for messages: "512 B", "3.5 KiB", "1.23 GiB".
std::string format_bytes(uint64_t bytes);

}  // namespace irgl::gpu
