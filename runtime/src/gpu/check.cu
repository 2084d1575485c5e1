#include <cstdlib>
#include <cstring>

#include "irgl/gpu/check.h"

namespace irgl::gpu {

bool sync_check_enabled() {
  static const bool enabled = [] {
    const char* value = std::getenv("IRGL_SYNC_CHECK");
    return value != nullptr && std::strcmp(value, "1") == 0;
  }();
  return enabled;
}

namespace detail {

namespace {

// "file:line: what: description (cudaErrorName)"
std::string describe(cudaError_t status, const std::string& what, const char* file, int line) {
  std::string message = file;
  message += ':';
  message += std::to_string(line);
  message += ": ";
  message += what;
  message += ": ";
  message += cudaGetErrorString(status);
  message += " (";
  message += cudaGetErrorName(status);
  message += ')';
  return message;
}

}  // namespace

void throw_cuda_error(cudaError_t status, const char* call, const char* file, int line) {
  // The runtime also records the failure as its "last error"; reset it so
  // that the next IRGL_CUDA_CHECK_LAUNCH() does not blame a kernel launch
  // for it. (Sticky errors stay: they poison the context anyway.)
  cudaGetLastError();
  throw CudaError(status, describe(status, call, file, line));
}

void check_launch(const char* file, int line) {
  const cudaError_t launch_status = cudaGetLastError();
  if (launch_status != cudaSuccess)
    throw CudaError(launch_status, describe(launch_status, "kernel launch", file, line));
  if (!sync_check_enabled()) return;
  const cudaError_t run_status = cudaDeviceSynchronize();
  if (run_status != cudaSuccess)
    throw CudaError(run_status,
                    describe(run_status, "kernel execution (IRGL_SYNC_CHECK=1)", file, line));
}

}  // namespace detail
}  // namespace irgl::gpu
