// irgl-octree [options]
//
// Paper 003's octree application on the runtime's task pools
// (gpu/tasks/task_pool.cuh), a task per block: a task is a cube and the
// particles in it; the block counts them per octant (shared-memory
// atomics), scatters them into the other buffer by octant, and spawns a
// task for each octant that holds more than --leaf particles (the others
// are leaves: each of their particles records its leaf). Measures each
// pool scheme as the paper does (time, tasks per ms, task slots), and with
// --check compares every particle's leaf with a sequential build on the
// host. Exit 77 when no GPU is usable.
#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "irgl/gpu/check.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/device_info.h"
#include "irgl/gpu/tasks/task_pool.cuh"
#include "irgl/gpu/timer.h"
#include "irgl/options/graph_options.h"
#include "irgl/options/unsigned_option.h"
#include "irgl/support/error.h"
#include "irgl/support/time_summary.h"

namespace po = boost::program_options;

namespace irgl {
namespace {

using gpu::tasks::PoolScheme;
using gpu::tasks::PoolStats;
using gpu::tasks::TaskSpawner;

constexpr const char* kTool = "irgl-octree";
constexpr int kExitNoGpu = 77;
constexpr uint32_t kMaxDepth = 20;  // a leaf's path: 3 bits a level under a leading 1

struct Particle {
  float x, y, z;
  uint32_t id;
};

// A cube (corner and edge) and its particles: [first, first + count) of
// buffer `in` (0 or 1). `path` is 1 followed by the octants from the root.
struct Cell {
  float x, y, z, size;
  uint32_t first, count;
  uint32_t depth, in;
  uint64_t path;
};

__host__ __device__ inline uint32_t octant_of(const Particle& p, const Cell& c) {
  const float half = c.size / 2;
  return (p.x >= c.x + half) | (p.y >= c.y + half) << 1 | (p.z >= c.z + half) << 2;
}

__host__ __device__ inline Cell child_of(const Cell& c, uint32_t octant, uint32_t first,
                                         uint32_t count) {
  const float half = c.size / 2;
  return {c.x + (octant & 1) * half, c.y + (octant >> 1 & 1) * half, c.z + (octant >> 2) * half,
          half, first, count, c.depth + 1, 1 - c.in, c.path << 3 | octant};
}

// Whether a child of `count` particles at `depth` is split further.
__host__ __device__ inline bool splits(uint32_t count, uint32_t depth, uint32_t leaf) {
  return count > leaf && depth < kMaxDepth;
}

// The block's task: count, scan, scatter, spawn.
struct Partition {
  Particle* buffers[2];
  uint64_t* leaf_of;  // per particle id: the path of its leaf
  uint32_t leaf;

  __device__ void operator()(const Cell& cell, const TaskSpawner<Cell>& spawn) const {
    __shared__ uint32_t counts[8], cursors[8];
    const Particle* in = buffers[cell.in] + cell.first;
    Particle* out = buffers[1 - cell.in] + cell.first;
    if (threadIdx.x < 8) counts[threadIdx.x] = 0;
    __syncthreads();
    for (uint32_t i = threadIdx.x; i < cell.count; i += blockDim.x)
      atomicAdd(&counts[octant_of(in[i], cell)], 1u);
    __syncthreads();
    if (threadIdx.x == 0)
      for (uint32_t o = 0, sum = 0; o < 8; sum += counts[o++]) cursors[o] = sum;
    __syncthreads();
    for (uint32_t i = threadIdx.x; i < cell.count; i += blockDim.x) {
      const Particle p = in[i];
      const uint32_t o = octant_of(p, cell);
      out[atomicAdd(&cursors[o], 1u)] = p;
      if (!splits(counts[o], cell.depth + 1, leaf)) leaf_of[p.id] = cell.path << 3 | o;
    }
    __syncthreads();
    if (threadIdx.x < 8 && splits(counts[threadIdx.x], cell.depth + 1, leaf)) {
      const uint32_t o = threadIdx.x;
      spawn(child_of(cell, o, cell.first + cursors[o] - counts[o], counts[o]));
    }
  }
};

// A hash of (seed, i) to [0, 1).
__host__ __device__ inline float unit(uint32_t seed, uint32_t i) {
  uint32_t x = seed * 0x9e3779b9u ^ (i + 0x7f4a7c15u) * 0x85ebca6bu;
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return (x >> 8) * (1.0f / 16777216.0f);
}

// Uniform in the unit cube, or (clustered) Gaussian around 16 random
// centres with sigma 0.02, clamped into the cube.
__global__ void generate_kernel(Particle* particles, uint32_t count, bool clustered) {
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    float v[3];
    for (uint32_t d = 0; d < 3; ++d) {
      if (!clustered) {
        v[d] = unit(d + 1, i);
        continue;
      }
      const uint32_t centre = uint32_t(unit(7, i) * 16) & 15;
      const float u1 = fmaxf(unit(11 + d, i), 1e-7f), u2 = unit(17 + d, i);
      const float gauss = sqrtf(-2 * logf(u1)) * cospif(2 * u2);
      v[d] = fminf(fmaxf(unit(31 + d, centre) * 0.8f + 0.1f + 0.02f * gauss, 0.0f), 0.99999f);
    }
    particles[i] = {v[0], v[1], v[2], i};
  }
}

// The same octree built sequentially: each particle's leaf path.
std::vector<uint64_t> host_leaves(std::vector<Particle> particles, uint32_t leaf) {
  std::vector<uint64_t> leaf_of(particles.size());
  std::vector<Particle> scratch(particles.size());
  std::vector<Cell> stack{{0, 0, 0, 1, 0, uint32_t(particles.size()), 0, 0, 1}};
  std::vector<Particle>* buffers[2] = {&particles, &scratch};
  while (!stack.empty()) {
    const Cell cell = stack.back();
    stack.pop_back();
    std::vector<Particle>& in = *buffers[cell.in];
    std::vector<Particle>& out = *buffers[1 - cell.in];
    uint32_t counts[8] = {}, cursors[8];
    for (uint32_t i = 0; i < cell.count; ++i) ++counts[octant_of(in[cell.first + i], cell)];
    for (uint32_t o = 0, sum = 0; o < 8; sum += counts[o++]) cursors[o] = sum;
    for (uint32_t i = 0; i < cell.count; ++i) {
      const Particle p = in[cell.first + i];
      const uint32_t o = octant_of(p, cell);
      out[cell.first + cursors[o]++] = p;
      if (!splits(counts[o], cell.depth + 1, leaf)) leaf_of[p.id] = cell.path << 3 | o;
    }
    for (uint32_t o = 0; o < 8; ++o)
      if (splits(counts[o], cell.depth + 1, leaf))
        stack.push_back(child_of(cell, o, cell.first + cursors[o] - counts[o], counts[o]));
  }
  return leaf_of;
}

struct Settings {
  uint32_t particles = 1000000, leaf = 32, slots = 4096;
  unsigned blocks = 0, threads = 256, runs = 5;
  bool clustered = false, check = false;
  PoolScheme scheme = PoolScheme::work_stealing;
};

// One scheme's runs: each from the generated particles; prints the median
// and the pool's statistics; with --check compares the leaves with the host.
template <int BlockThreads>
void measure(const Settings& settings, gpu::DeviceBuffer<Particle>& original) {
  const uint32_t n = settings.particles;
  gpu::DeviceBuffer<Particle> buffers[2] = {gpu::DeviceBuffer<Particle>(n),
                                            gpu::DeviceBuffer<Particle>(n)};
  gpu::DeviceBuffer<uint64_t> leaf_of(n);
  gpu::tasks::PoolOptions options;
  options.scheme = settings.scheme;
  options.slots_per_block = settings.slots;
  options.blocks = settings.blocks;
  gpu::tasks::TaskPool<Cell> pool(options);
  const Partition partition{{buffers[0].data(), buffers[1].data()}, leaf_of.data(), settings.leaf};
  const std::vector<Cell> root{{0, 0, 0, 1, 0, n, 0, 0, 1}};
  std::vector<double> times;
  PoolStats stats;
  gpu::CudaEventTimer timer;
  for (unsigned run = 0; run <= settings.runs; ++run) {  // run 0: warm-up
    IRGL_CUDA_CHECK(cudaMemcpy(buffers[0].data(), original.data(), original.bytes(),
                               cudaMemcpyDeviceToDevice));
    timer.start();
    stats = pool.template run<BlockThreads>(root, partition);
    timer.stop();
    if (run > 0) times.push_back(timer.elapsed_ms());
  }
  const TimeSummary summary = summarize_times(times);
  print_time_summary(summary, times.size());
  std::printf("octree %s: %llu tasks (cells), %.1f tasks/ms, %llu steals, %u blocks x %u "
              "threads x %u slots, at most %llu used, %llu launch%s\n",
              to_string(settings.scheme), (unsigned long long)stats.tasks_run,
              stats.tasks_run / summary.median, (unsigned long long)stats.steals, stats.blocks,
              BlockThreads, stats.slots_per_block, (unsigned long long)stats.most_slots_used,
              (unsigned long long)stats.launches, stats.launches == 1 ? "" : "es");
  if (!settings.check) return;
  std::vector<Particle> host(n);
  IRGL_CUDA_CHECK(cudaMemcpy(host.data(), original.data(), original.bytes(), cudaMemcpyDeviceToHost));
  const std::vector<uint64_t> expected = host_leaves(std::move(host), settings.leaf);
  const std::vector<uint64_t> got = leaf_of.download();
  const auto wrong = std::mismatch(got.begin(), got.end(), expected.begin());
  if (wrong.first != got.end())
    throw std::runtime_error("check: particle " + std::to_string(wrong.first - got.begin()) +
                             " is in leaf " + std::to_string(*wrong.first) + ", the host's " +
                             std::to_string(*wrong.second));
  std::printf("check: every particle's leaf equals the host build's\n");
}

int run(int argc, char** argv) {
  Settings settings;
  uint64_t particles = settings.particles, leaf = settings.leaf, slots = settings.slots;
  std::string scheme = "work-stealing", distribution = "uniform";
  po::options_description options(
      "Usage: irgl-octree [options]\nPartitions particles into an octree with a task pool "
      "(paper 003), a task per block.\nOptions");
  options.add_options()("help,h", "show this help")(
      "particles", unsigned_value(&particles, "--particles")->default_value("1000000"),
      "particles (1 to 2^31)")(
      "distribution", po::value(&distribution)->default_value("uniform"), "uniform or clustered")(
      "leaf", unsigned_value(&leaf, "--leaf")->default_value("32"),
      "a cube with more particles than this is split")(
      "task-pool", po::value(&scheme)->default_value("work-stealing"),
      gpu::tasks::pool_scheme_names().c_str())(
      "task-slots", unsigned_value(&slots, "--task-slots")->default_value("4096"),
      "task slots per block")(
      "blocks", unsigned_value(&settings.blocks, "--blocks")->default_value("0"),
      "blocks (0: as many as are resident)")(
      "threads", unsigned_value(&settings.threads, "--threads")->default_value("256"),
      "threads per block: 64, 128, 256 or 512")(
      "runs", unsigned_value(&settings.runs, "--runs")->default_value("5"), "timed runs")(
      "check", po::bool_switch(&settings.check), "compare every particle's leaf with the host's");
  const po::variables_map values = parse_command_line(kTool, argc, argv, options);
  if (values.count("help")) {
    std::cout << options;
    return 0;
  }
  if (particles < 1 || particles > (uint64_t(1) << 31))
    throw InputError::in("--particles", std::to_string(particles) + " is not in 1..2^31");
  if (distribution != "uniform" && distribution != "clustered")
    throw InputError::in("--distribution", "'" + distribution + "' is not uniform or clustered");
  if (!gpu::tasks::parse_pool_scheme(scheme, settings.scheme))
    throw InputError::in("--task-pool",
                         "'" + scheme + "' is not " + gpu::tasks::pool_scheme_names());
  if (slots < 8 || slots > UINT32_MAX)
    throw InputError::in("--task-slots", std::to_string(slots) + " is not in 8..2^32-1");
  if (settings.runs == 0) throw InputError::in("--runs", "must be at least 1");
  if (settings.threads != 64 && settings.threads != 128 && settings.threads != 256 &&
      settings.threads != 512)
    throw InputError::in("--threads",
                         std::to_string(settings.threads) + " is not 64, 128, 256 or 512");
  settings.particles = uint32_t(particles);
  settings.leaf = uint32_t(std::min<uint64_t>(leaf, UINT32_MAX));
  settings.slots = uint32_t(slots);
  settings.clustered = distribution == "clustered";
  std::string why;
  if (!gpu::gpu_available(&why)) {
    std::cerr << kTool << ": skipped: no usable GPU: " << why << '\n';
    return kExitNoGpu;
  }
  std::printf("GPU %s; %u particles, %s, leaves of at most %u\n", gpu::query_device().name.c_str(),
              settings.particles, distribution.c_str(), settings.leaf);
  gpu::DeviceBuffer<Particle> original(settings.particles);
  generate_kernel<<<1024, 256>>>(original.data(), settings.particles, settings.clustered);
  IRGL_CUDA_CHECK_LAUNCH();
  switch (settings.threads) {
    case 64: measure<64>(settings, original); break;
    case 128: measure<128>(settings, original); break;
    case 256: measure<256>(settings, original); break;
    default: measure<512>(settings, original); break;
  }
  return 0;
}

}  // namespace
}  // namespace irgl

int main(int argc, char** argv) { return irgl::run_tool_main(irgl::kTool, irgl::run, argc, argv); }
