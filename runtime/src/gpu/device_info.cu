#include <cuda_runtime_api.h>

#include <cstdio>

#include "irgl/gpu/check.h"
#include "irgl/gpu/device_info.h"

namespace irgl::gpu {

namespace {

__global__ void probe_kernel(int* flag) { *flag = 1; }

// Launches probe_kernel and checks it ran; returns the failure, if any.
std::string run_probe_kernel() {
  int* flag = nullptr;
  cudaError_t status = cudaMalloc(&flag, sizeof(int));
  if (status != cudaSuccess)
    return std::string("cannot allocate device memory: ") + cudaGetErrorString(status);
  int value = 0;
  status = cudaMemset(flag, 0, sizeof(int));
  if (status == cudaSuccess) {
    probe_kernel<<<1, 1>>>(flag);
    status = cudaGetLastError();
  }
  if (status == cudaSuccess) status = cudaMemcpy(&value, flag, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(flag);
  if (status != cudaSuccess)
    return std::string("probe kernel failed: ") + cudaGetErrorString(status);
  if (value != 1) return "probe kernel did not run";
  return std::string();
}

}  // namespace

std::string DeviceInfo::summary() const {
  char buffer[160];
  std::snprintf(buffer, sizeof buffer, " (sm_%d%d, %d SMs, ", compute_major, compute_minor,
                sm_count);
  return name + buffer + format_bytes(l2_bytes) + " L2, " + format_bytes(total_memory) +
         " memory, " + format_bytes(free_memory) + " free)";
}

DeviceInfo query_device() {
  DeviceInfo info;
  IRGL_CUDA_CHECK(cudaGetDevice(&info.ordinal));
  cudaDeviceProp properties{};
  IRGL_CUDA_CHECK(cudaGetDeviceProperties(&properties, info.ordinal));
  info.name = properties.name;
  info.compute_major = properties.major;
  info.compute_minor = properties.minor;
  info.sm_count = properties.multiProcessorCount;
  info.max_threads_per_sm = properties.maxThreadsPerMultiProcessor;
  info.l2_bytes = static_cast<uint64_t>(properties.l2CacheSize);
  size_t free_bytes = 0, total_bytes = 0;
  IRGL_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  info.free_memory = free_bytes;
  info.total_memory = total_bytes;
  return info;
}

std::string compiled_architectures() {
#ifdef __CUDA_ARCH_LIST__
  // nvcc defines __CUDA_ARCH_LIST__ as e.g. 800,900 (arch * 10).
  const int architectures[] = {__CUDA_ARCH_LIST__};
  std::string list;
  for (int arch : architectures) {
    if (!list.empty()) list += ',';
    list += "sm_" + std::to_string(arch / 10);
  }
  return list;
#else
  return "unknown architectures";
#endif
}

bool gpu_available(std::string* why) {
  auto fail = [why](const std::string& reason) {
    if (why) *why = reason;
    return false;
  };
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) return fail(cudaGetErrorString(status));
  if (count == 0) return fail("no CUDA device");
  int device = 0;
  cudaDeviceProp properties{};
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaGetDeviceProperties(&properties, device) != cudaSuccess)
    return fail("cannot query CUDA device");
  const std::string probe_failure = run_probe_kernel();
  if (!probe_failure.empty()) {
    char where[64];
    std::snprintf(where, sizeof where, " (sm_%d%d)", properties.major, properties.minor);
    return fail("device " + std::to_string(device) + ", " + properties.name + where + ": " +
                probe_failure + "; this build targets " + compiled_architectures());
  }
  if (why) why->clear();
  return true;
}

ScopedDevice::ScopedDevice(int device) {
  int current = 0;
  IRGL_CUDA_CHECK(cudaGetDevice(&current));
  if (current == device) return;
  IRGL_CUDA_CHECK(cudaSetDevice(device));
  previous_ = current;
}

ScopedDevice::~ScopedDevice() {
  if (previous_ >= 0) cudaSetDevice(previous_);
}

std::string format_bytes(uint64_t bytes) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f %s", value, units[unit]);
  return buffer;
}

}  // namespace irgl::gpu
