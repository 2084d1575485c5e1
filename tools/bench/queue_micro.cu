// irgl-queue-micro [--reps N]
//
// Paper 004's micro-benchmarks (section 5.2) on this GPU, for the host-fed
// queue (gpu/tasks/host_fed_pool.cuh): host-device transfer times from 8 B
// to 4 KB (synchronous copies, asynchronous ones on the zero and on a
// non-zero stream, and a kernel's thread reading or writing mapped host
// memory); barrier and fence cost against the number of blocks; the
// latency of fetch-and-add on one address; the host's enqueue of 120
// tasks and a block's dequeue against the number of blocks; kernel launch
// overhead. Prints Markdown tables, medians of --reps repetitions, with
// the paper's numbers (Tesla C1060, PCIe 2.0 x8) where its text gives
// them. Exit 77 when no GPU is usable.
#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "irgl/gpu/check.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/device_info.h"
#include "irgl/gpu/tasks/host_fed_pool.cuh"
#include "irgl/gpu/timer.h"
#include "irgl/options/unsigned_option.h"
#include "irgl/support/error.h"
#include "irgl/support/time_summary.h"

namespace po = boost::program_options;

namespace irgl {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kExitNoGpu = 77;
constexpr int kCallsPerThread = 1000;  // barrier, fence and atomic loops

// Median over `reps` of f()'s wall time in microseconds.
template <class F>
double median_us(unsigned reps, F&& f) {
  std::vector<double> times;
  for (unsigned r = 0; r < reps; ++r) {
    const Clock::time_point start = Clock::now();
    f();
    times.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
  }
  return summarize_times(times).median;
}

// Median over `reps` of a launch's GPU time in microseconds.
template <class Launch>
double median_gpu_us(unsigned reps, Launch&& launch) {
  std::vector<double> times;
  for (unsigned r = 0; r < reps; ++r) {
    gpu::CudaEventTimer timer;
    timer.start();
    launch();
    IRGL_CUDA_CHECK_LAUNCH();
    timer.stop();
    times.push_back(timer.elapsed_ms() * 1000.0);
  }
  return summarize_times(times).median;
}

// One thread copies `words` 8-byte words between mapped host memory and
// device memory.
__global__ void mapped_copy_kernel(const unsigned long long* from, unsigned long long* to,
                                   unsigned words) {
  // volatile: every word is read over the bus, none cached
  const volatile unsigned long long* source = from;
  for (unsigned i = 0; i < words; ++i) to[i] = source[i];
  __threadfence_system();
}

__global__ void barrier_kernel(int calls) {
  for (int i = 0; i < calls; ++i) __syncthreads();
}
__global__ void fence_kernel(int calls, bool one_thread) {
  if (one_thread && threadIdx.x != 0) return;
  for (int i = 0; i < calls; ++i) __threadfence();
}
__global__ void atomic_kernel(unsigned long long* word, int calls, unsigned long long* sink) {
  if (threadIdx.x != 0) return;
  unsigned long long seen = 0;
  for (int i = 0; i < calls; ++i) seen += atomicAdd(word, 1ull);
  if (seen == 42) *sink = seen;  // keeps the loop
}
__global__ void empty_kernel() {}

struct Nothing {
  unsigned* sink;
  __device__ void operator()(const uint32_t& value) const {
    if (value == 0xffffffffu) *sink = value;
  }
};

void transfers(unsigned reps) {
  std::printf("## Host-device transfers (µs, median of %u)\n\n", reps);
  std::printf("| bytes | Memcpy H->D | MemcpyAsync stream 0 | MemcpyAsync stream 1 | Memcpy D->H "
              "| kernel reads mapped | kernel writes mapped |\n|---|---|---|---|---|---|---|\n");
  constexpr size_t kMax = 4096;
  unsigned long long *host = nullptr, *mapped = nullptr, *mapped_device = nullptr;
  IRGL_CUDA_CHECK(cudaHostAlloc(&host, kMax, cudaHostAllocDefault));
  IRGL_CUDA_CHECK(cudaHostAlloc(&mapped, kMax, cudaHostAllocMapped));
  IRGL_CUDA_CHECK(cudaHostGetDevicePointer(&mapped_device, mapped, 0));
  gpu::DeviceBuffer<unsigned long long> device(kMax / 8);
  cudaStream_t stream;
  IRGL_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (size_t bytes = 8; bytes <= kMax; bytes *= 2) {
    const unsigned words = unsigned(bytes / 8);
    const double sync_h2d = median_us(reps, [&] {
      IRGL_CUDA_CHECK(cudaMemcpy(device.data(), host, bytes, cudaMemcpyHostToDevice));
    });
    const double async0 = median_us(reps, [&] {
      IRGL_CUDA_CHECK(cudaMemcpyAsync(device.data(), host, bytes, cudaMemcpyHostToDevice, 0));
      IRGL_CUDA_CHECK(cudaStreamSynchronize(0));
    });
    const double async1 = median_us(reps, [&] {
      IRGL_CUDA_CHECK(cudaMemcpyAsync(device.data(), host, bytes, cudaMemcpyHostToDevice, stream));
      IRGL_CUDA_CHECK(cudaStreamSynchronize(stream));
    });
    const double sync_d2h = median_us(reps, [&] {
      IRGL_CUDA_CHECK(cudaMemcpy(host, device.data(), bytes, cudaMemcpyDeviceToHost));
    });
    const double reads = median_gpu_us(reps, [&] {
      mapped_copy_kernel<<<1, 1>>>(mapped_device, device.data(), words);
    });
    const double writes = median_gpu_us(reps, [&] {
      mapped_copy_kernel<<<1, 1>>>(device.data(), mapped_device, words);
    });
    std::printf("| %zu | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", bytes, sync_h2d, async0,
                async1, sync_d2h, reads, writes);
  }
  IRGL_CUDA_CHECK(cudaStreamDestroy(stream));
  cudaFreeHost(host);
  cudaFreeHost(mapped);
}

void synchronization(unsigned reps, unsigned max_blocks) {
  std::printf("\n## Barrier, fence and fetch-and-add (ns per call, 128 threads a block, "
              "median of %u)\n\n", reps);
  std::printf("| blocks | __syncthreads | __threadfence, all threads | __threadfence, one thread "
              "| atomicAdd, one address, one thread a block |\n|---|---|---|---|---|\n");
  gpu::DeviceBuffer<unsigned long long> word(2);
  word.zero();
  for (unsigned blocks = 1; blocks <= max_blocks; blocks *= 2) {
    const double per_call = 1000.0 / kCallsPerThread;  // µs -> ns per call
    const double barrier = median_gpu_us(reps, [&] { barrier_kernel<<<blocks, 128>>>(kCallsPerThread); });
    const double fence_all = median_gpu_us(reps, [&] { fence_kernel<<<blocks, 128>>>(kCallsPerThread, false); });
    const double fence_one = median_gpu_us(reps, [&] { fence_kernel<<<blocks, 128>>>(kCallsPerThread, true); });
    const double atomic = median_gpu_us(reps, [&] {
      atomic_kernel<<<blocks, 128>>>(word.data(), kCallsPerThread, word.data() + 1);
    });
    // The atomics of all blocks go to one address one after another: the
    // time per atomic is the kernel's time over all of them.
    std::printf("| %u | %.1f | %.1f | %.1f | %.1f |\n", blocks, barrier * per_call,
                fence_all * per_call, fence_one * per_call, atomic * per_call / blocks);
  }
  std::printf("\nPaper 004 (C1060): fetch-and-add on one address 327 ns, executed serially.\n");
}

// The kernel's time (start to finish) for `tasks` empty tasks submitted as
// fast as the host can, the rings placed as asked, or all in the rings
// before the launch (`preloaded`: the dequeue alone, as paper 004 times
// it); median of reps / 4.
double queue_run_ms(unsigned reps, unsigned blocks, uint32_t tasks,
                    gpu::tasks::HostFedPlacement placement, bool preloaded, unsigned* sink) {
  gpu::tasks::HostFedOptions options;
  options.capacity = tasks + blocks;  // room for everything, HALTs included
  options.blocks = blocks;
  options.placement = placement;
  options.batch = 1024;
  gpu::tasks::HostFedPool<uint32_t> pool(options);
  std::vector<double> times;
  for (unsigned r = 0; r < std::max(1u, reps / 4); ++r) {
    gpu::CudaEventTimer timer;
    if (preloaded) {
      pool.open();
      for (uint32_t t = 0; t < tasks; ++t) pool.submit(t);
      pool.submit_halts();
      pool.flush();
      IRGL_CUDA_CHECK(cudaDeviceSynchronize());  // every task in the rings
      timer.start();
      pool.launch<128>(Nothing{sink});
    } else {
      timer.start();
      pool.start<128>(Nothing{sink});
      for (uint32_t t = 0; t < tasks; ++t) pool.submit(t);
    }
    pool.finish();
    timer.stop();
    times.push_back(timer.elapsed_ms());
  }
  return summarize_times(times).median;
}

void queue_operations(unsigned reps, unsigned max_blocks) {
  std::printf("\n## Host-fed queue (gpu/tasks/host_fed_pool.cuh)\n\n");
  // Enqueue: the host writes 120 tasks into mapped memory (no kernel takes
  // them: a fresh ring each time).
  std::vector<double> enqueue;
  for (unsigned r = 0; r < reps; ++r) {
    std::vector<uint32_t> slots(120);
    std::vector<unsigned long long> sequence(120);
    gpu::tasks::reset_sequence(sequence.data(), 120);
    unsigned long long next = 0;
    // Host memory stands in for the mapped ring here: the host's cost is
    // its stores either way (mapped pinned memory is host memory).
    gpu::tasks::HostFedQueueView<uint32_t> view{slots.data(), sequence.data(), &next, 120};
    const Clock::time_point start = Clock::now();
    for (unsigned long long p = 0; p < 120; ++p) view.put(p, uint32_t(p));
    enqueue.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
  }
  std::printf("Enqueue of 120 tasks by the host: %.2f µs (paper 004: 114.3 µs, of which about "
              "110 for two PCIe transactions).\n\n", summarize_times(enqueue).median);
  std::printf("| blocks | rings in mapped memory: µs per task per block | kernel ms | rings in "
              "device memory: µs per task per block | kernel ms | device rings, preloaded: µs "
              "per task per block | kernel ms |\n|---|---|---|---|---|---|---|\n");
  gpu::DeviceBuffer<unsigned> sink(1);
  constexpr uint32_t kTasks = 1 << 16;
  for (unsigned blocks = 16; blocks <= max_blocks; blocks *= 2) {
    std::printf("| %u", blocks);
    using gpu::tasks::HostFedPlacement;
    for (const auto& [placement, preloaded] :
         {std::pair{HostFedPlacement::mapped, false}, std::pair{HostFedPlacement::device, false},
          std::pair{HostFedPlacement::device, true}}) {
      const double ms = queue_run_ms(reps, blocks, kTasks, placement, preloaded, sink.data());
      std::printf(" | %.3f | %.3f", ms * 1000.0 / (double(kTasks) / blocks), ms);
    }
    std::printf(" |\n");
  }
  std::printf("\n%u tasks a run. Paper 004 (C1060): dequeue 0.7 µs with 16 blocks, 0.4 µs with 120 "
              "(about one atomic, tasks preloaded). Otherwise the host submits while the kernel "
              "runs, so the times include the host's writes (mapped: over the bus, a task at a "
              "time; device: staged, sent in copies of 1,024 tasks).\n", kTasks);
}

void launches(unsigned reps) {
  constexpr int kLaunches = 1000;
  const double back_to_back = median_us(reps, [&] {
    for (int i = 0; i < kLaunches; ++i) empty_kernel<<<1, 32>>>();
    IRGL_CUDA_CHECK(cudaDeviceSynchronize());
  }) / kLaunches;
  const double with_sync = median_us(reps, [&] {
    empty_kernel<<<1, 32>>>();
    IRGL_CUDA_CHECK(cudaDeviceSynchronize());
  });
  std::printf("\n## Kernel launch\n\nAn empty kernel: %.2f µs a launch back to back, %.2f µs "
              "launch and wait.\n", back_to_back, with_sync);
}

int run(int argc, char** argv) {
  unsigned reps = 101;
  po::options_description options("irgl-queue-micro options");
  options.add_options()("help,h", "show this help")(
      "reps", unsigned_value(&reps, "--reps")->default_value("101"), "repetitions of each measurement");
  po::variables_map values;
  po::store(po::parse_command_line(argc, argv, options), values);
  po::notify(values);
  if (values.count("help")) {
    std::printf("usage: irgl-queue-micro [--reps N]\n");
    return 0;
  }
  if (reps == 0) throw InputError::in("--reps", "must be at least 1");
  std::string why;
  if (!gpu::gpu_available(&why)) {
    std::printf("irgl-queue-micro: no usable GPU (%s): skipped\n", why.c_str());
    return kExitNoGpu;
  }
  const gpu::DeviceInfo device = gpu::query_device();
  std::printf("# Paper 004's micro-benchmarks on %s\n\n", device.name.c_str());
  transfers(reps);
  synchronization(reps, unsigned(device.sm_count) * 4);
  queue_operations(reps, unsigned(device.sm_count) * 4);
  launches(reps);
  return 0;
}

}  // namespace
}  // namespace irgl

int main(int argc, char** argv) { return irgl::run_tool_main("irgl-queue-micro", irgl::run, argc, argv); }
