// irgl-block-scheduler [--blocks N] [--work CYCLES] [--runs N]
//
// Paper 004's block-scheduler experiment (section 6.3): the same blocks of
// equal work, of which a pattern "nullifies" some, run two ways:
//   hardware   one thread block per work block; a nullified block exits at
//              once and the GPU's block scheduler starts the next;
//   persistent as many blocks as are resident take work blocks with a
//              fetch-and-add and skip nullified ones (the task-queue way).
// With a fraction f nullified, ideal scheduling takes (1 - f) of the time
// of no nullified block; the paper found the hardware scheduler far from
// that (75% less work: 48.4% less time, against 74.5% for its queue).
// Patterns (the paper's own are in a figure, not its text): P0 none, P1
// every other block, P2 the first half, P3 three blocks of every four, P4
// the first three quarters. Prints a Markdown table: median ms of --runs,
// and each pattern's time as a fraction of P0's. Exit 77 without a GPU.
#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "irgl/gpu/check.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/device_info.h"
#include "irgl/gpu/tasks/pool.cuh"
#include "irgl/gpu/timer.h"
#include "irgl/options/unsigned_option.h"
#include "irgl/support/error.h"
#include "irgl/support/time_summary.h"

namespace po = boost::program_options;

namespace irgl {
namespace {

constexpr int kThreads = 128;
constexpr int kExitNoGpu = 77;

// A work block: every thread spins `cycles` clock cycles (equal work,
// independent of memory), then the block adds its mark.
__device__ void work(long long cycles, unsigned long long* done) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(done, 1ull);
}

__global__ void __launch_bounds__(kThreads)
    hardware_kernel(const unsigned char* nullified, long long cycles, unsigned long long* done) {
  if (nullified[blockIdx.x]) return;
  work(cycles, done);
}

__global__ void __launch_bounds__(kThreads)
    persistent_kernel(const unsigned char* nullified, unsigned blocks, long long cycles,
                      unsigned long long* next, unsigned long long* done) {
  __shared__ unsigned long long mine;
  for (;;) {
    if (threadIdx.x == 0) {
      do mine = atomicAdd(next, 1ull);
      while (mine < blocks && nullified[mine]);  // skip nullified work at once
    }
    __syncthreads();
    if (mine >= blocks) return;
    work(cycles, done);
  }
}

std::vector<unsigned char> pattern(int p, unsigned blocks) {
  std::vector<unsigned char> nullified(blocks, 0);
  for (unsigned b = 0; b < blocks; ++b) {
    switch (p) {
      case 1: nullified[b] = b % 2 == 1; break;
      case 2: nullified[b] = b < blocks / 2; break;
      case 3: nullified[b] = b % 4 != 0; break;
      case 4: nullified[b] = b < blocks / 4 * 3; break;
      default: break;
    }
  }
  return nullified;
}

int run(int argc, char** argv) {
  unsigned blocks = 0, work_cycles = 200000, runs = 7;
  po::options_description options("irgl-block-scheduler options");
  options.add_options()("help,h", "show this help")(
      "blocks", unsigned_value(&blocks, "--blocks")->default_value("0"),
      "work blocks (0: 32 per SM)")(
      "work", unsigned_value(&work_cycles, "--work")->default_value("200000"),
      "clock cycles of one work block")(
      "runs", unsigned_value(&runs, "--runs")->default_value("7"), "timed runs per cell");
  po::variables_map values;
  po::store(po::parse_command_line(argc, argv, options), values);
  po::notify(values);
  if (values.count("help")) {
    std::printf("usage: irgl-block-scheduler [--blocks N] [--work CYCLES] [--runs N]\n");
    return 0;
  }
  if (runs == 0) throw InputError::in("--runs", "must be at least 1");
  if (work_cycles == 0) throw InputError::in("--work", "must be at least 1");
  std::string why;
  if (!gpu::gpu_available(&why)) {
    std::printf("irgl-block-scheduler: no usable GPU (%s): skipped\n", why.c_str());
    return kExitNoGpu;
  }
  const gpu::DeviceInfo device = gpu::query_device();
  if (blocks == 0) blocks = unsigned(device.sm_count) * 32;
  const unsigned resident =
      gpu::tasks::resident_blocks((const void*)persistent_kernel, kThreads);
  std::printf("# Block scheduling on %s: %u work blocks of %u cycles, %d threads; %u resident "
              "at once\n\n", device.name.c_str(), blocks, work_cycles, kThreads, resident);
  std::printf("| pattern | nullified | hardware ms | persistent ms | hardware / P0 | "
              "persistent / P0 | ideal |\n|---|---|---|---|---|---|---|\n");
  gpu::DeviceBuffer<unsigned long long> counters(2);  // next, done
  double hardware0 = 0, persistent0 = 0;
  for (int p = 0; p <= 4; ++p) {
    const std::vector<unsigned char> nullified = pattern(p, blocks);
    const size_t live = std::count(nullified.begin(), nullified.end(), 0);
    gpu::DeviceBuffer<unsigned char> device_pattern(nullified);
    std::vector<double> hardware, persistent;
    for (unsigned r = 0; r < runs + 1; ++r) {  // the first of each is a warm-up
      for (int way = 0; way < 2; ++way) {
        counters.zero();
        gpu::CudaEventTimer timer;
        timer.start();
        if (way == 0)
          hardware_kernel<<<blocks, kThreads>>>(device_pattern.data(), work_cycles,
                                                counters.data() + 1);
        else
          persistent_kernel<<<resident, kThreads>>>(device_pattern.data(), blocks, work_cycles,
                                                    counters.data(), counters.data() + 1);
        IRGL_CUDA_CHECK_LAUNCH();
        timer.stop();
        const double ms = timer.elapsed_ms();
        if (counters.download()[1] != live)
          throw std::runtime_error("irgl-block-scheduler: a run did not do every live block");
        if (r > 0) (way == 0 ? hardware : persistent).push_back(ms);
      }
    }
    const double h = summarize_times(hardware).median, t = summarize_times(persistent).median;
    if (p == 0) hardware0 = h, persistent0 = t;
    std::printf("| P%d | %.0f%% | %.3f | %.3f | %.3f | %.3f | %.3f |\n", p,
                100.0 * (blocks - live) / blocks, h, t, h / hardware0, t / persistent0,
                double(live) / blocks);
  }
  std::printf("\nPaper 004 (C1060, MD blocks of 128 atoms): with 75%% of the work nullified "
              "the hardware scheduler cut the time by 48.4%%, its task queue by 74.5%%.\n");
  return 0;
}

}  // namespace
}  // namespace irgl

int main(int argc, char** argv) {
  return irgl::run_tool_main("irgl-block-scheduler", irgl::run, argc, argv);
}
