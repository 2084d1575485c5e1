// irgl-bandwidth [--megabytes N] [--runs N]
//
// Measures the GPU's memory limits that graph kernels run into, in the same
// process run as the benchmarks (tools/bench/irgl-bench reports traffic as a
// fraction of them): a streaming copy (bytes read + written per second), and
// random 4-byte reads and random atomicMin on an array far beyond the L2
// cache. Prints one JSON object with the medians and the GPU, driver and
// CUDA runtime versions. Exit 77 when no GPU is usable.
#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <vector>

#include "irgl/gpu/check.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/device_info.h"
#include "irgl/gpu/timer.h"
#include "irgl/options/graph_options.h"
#include "irgl/options/unsigned_option.h"
#include "irgl/support/error.h"
#include "irgl/support/time_summary.h"

namespace po = boost::program_options;

namespace irgl {
namespace {

constexpr const char* kTool = "irgl-bandwidth";
constexpr int kExitNoGpu = 77;
constexpr unsigned kThreads = 256;

__global__ void copy_kernel(const uint4* __restrict__ in, uint4* __restrict__ out, size_t count) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
       i += size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

// A cheap per-thread hash: random indices without a table to read.
__device__ inline uint32_t scramble(uint64_t i) {
  i ^= i >> 33;
  i *= 0xff51afd7ed558ccdull;
  i ^= i >> 33;
  return static_cast<uint32_t>(i);
}

__global__ void random_read_kernel(const uint32_t* __restrict__ data, uint32_t mask,
                                   uint64_t accesses, uint32_t* sink) {
  uint32_t sum = 0;
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < accesses;
       i += uint64_t(gridDim.x) * blockDim.x)
    sum += data[scramble(i) & mask];
  if (sum == 0x12345678u) *sink = sum;  // keeps the loads
}

__global__ void random_atomic_min_kernel(uint32_t* data, uint32_t mask, uint64_t accesses) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < accesses;
       i += uint64_t(gridDim.x) * blockDim.x)
    atomicMin(&data[scramble(i) & mask], static_cast<uint32_t>(i));
}

// Median milliseconds of `runs` launches of `launch` after one warm-up.
template <class Launch>
double time_ms(unsigned runs, Launch&& launch) {
  launch();
  std::vector<double> times;
  gpu::CudaEventTimer timer;
  for (unsigned r = 0; r < runs; ++r) {
    timer.start();
    launch();
    timer.stop();
    times.push_back(timer.elapsed_ms());
  }
  IRGL_CUDA_CHECK(cudaGetLastError());
  return summarize_times(times).median;
}

int run(int argc, char** argv) {
  uint64_t megabytes = 1024;
  unsigned runs = 5;
  po::options_description options(
      "Usage: irgl-bandwidth [options]\nMeasures streaming copy, random-read and random-atomicMin "
      "rates of the GPU (JSON on stdout).\nOptions");
  options.add_options()("help,h", "show this help")(
      "megabytes", unsigned_value(&megabytes, "--megabytes")->default_value("1024"),
      "size of each array (beyond the L2 cache; a power of two is used for the random tests)")(
      "runs", unsigned_value(&runs, "--runs")->default_value("5"),
      "timed runs of each test (median)");
  const po::variables_map values = parse_command_line(kTool, argc, argv, options);
  if (values.count("help")) {
    std::cout << options;
    return 0;
  }
  if (runs == 0) throw InputError::in("--runs", "must be at least 1");
  if (megabytes < 1 || megabytes > (uint64_t(1) << 20))
    throw InputError::in("--megabytes", std::to_string(megabytes) + " is not in 1..1048576");
  std::string why;
  if (!gpu::gpu_available(&why)) {
    std::cerr << kTool << ": skipped: no usable GPU: " << why << '\n';
    return kExitNoGpu;
  }
  const gpu::DeviceInfo device = gpu::query_device();
  const size_t bytes = megabytes << 20;
  const size_t vectors = bytes / sizeof(uint4);
  gpu::DeviceBuffer<uint4> in(vectors), out(vectors);
  IRGL_CUDA_CHECK(cudaMemset(in.data(), 1, in.bytes()));
  const unsigned blocks = static_cast<unsigned>(device.sm_count) * 8;
  const double copy_ms = time_ms(runs, [&] {
    copy_kernel<<<blocks, kThreads>>>(in.data(), out.data(), vectors);
  });

  // Random tests on the largest power-of-two word count that fits `bytes`.
  uint64_t words = 1;
  while (words * 2 * sizeof(uint32_t) <= bytes) words *= 2;
  const uint32_t mask = static_cast<uint32_t>(std::min<uint64_t>(words, uint64_t(1) << 32) - 1);
  auto* data = reinterpret_cast<uint32_t*>(in.data());
  gpu::DeviceBuffer<uint32_t> sink(1);
  const uint64_t accesses = uint64_t(1) << 28;
  const double read_ms = time_ms(runs, [&] {
    random_read_kernel<<<blocks, kThreads>>>(data, mask, accesses, sink.data());
  });
  const double atomic_ms = time_ms(runs, [&] {
    random_atomic_min_kernel<<<blocks, kThreads>>>(data, mask, accesses);
  });

  int driver = 0, runtime = 0;
  IRGL_CUDA_CHECK(cudaDriverGetVersion(&driver));
  IRGL_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  std::printf(
      "{\"gpu\": \"%s\", \"sm_count\": %d, \"l2_bytes\": %llu, \"memory_bytes\": %llu, "
      "\"cuda_driver\": \"%d.%d\", \"cuda_runtime\": \"%d.%d\", \"array_bytes\": %zu, "
      "\"runs\": %u, \"copy_gb_per_s\": %.1f, \"random_read_g_per_s\": %.2f, "
      "\"random_atomic_min_g_per_s\": %.2f}\n",
      device.name.c_str(), device.sm_count, static_cast<unsigned long long>(device.l2_bytes),
      static_cast<unsigned long long>(device.total_memory), driver / 1000, driver % 1000 / 10,
      runtime / 1000, runtime % 1000 / 10, bytes, runs, 2.0 * bytes / copy_ms / 1e6,
      accesses / read_ms / 1e6, accesses / atomic_ms / 1e6);
  return 0;
}

}  // namespace
}  // namespace irgl

int main(int argc, char** argv) { return irgl::run_tool_main(irgl::kTool, irgl::run, argc, argv); }
