// irgl-md-gpus [--atoms N] [--gpus G] [--scheme queue|split|chunks] [--order random|sorted]
//              [--cutoff C] [--batch B] [--chunk-groups K] [--runs R] [--check] [--json FILE]
//
// Paper 004's molecular dynamics on several GPUs of one host (its section
// 5): the forces on N atoms by atom decomposition (each atom against every
// other; Lennard-Jones and Coulomb within the cutoff, as
// lang-examples/tasks/md_forces.irgl computes them), groups of 128 atoms,
// a host thread per GPU. The schemes:
//   queue   the paper's task queue: one host-level pool of groups; each GPU
//           runs a resident kernel fed by two host-fed rings in device
//           memory (gpu/tasks/host_fed_pool.cuh), its host thread taking
//           --batch groups (the paper: 20) from the pool whenever a ring
//           has room, so a faster GPU takes more
//   split   the atoms in G equal contiguous regions, a block per group on
//           each GPU (the paper's Solutions 1 and 2, by --order)
//   chunks  the paper's Solution 3: each GPU's thread takes the next
//           --chunk-groups groups (the paper: 120), launches them and
//           waits before taking more
// --order random keeps the atoms in random spatial order (randomization);
// sorted applies the decomposition sort on the host first (cells of the
// cutoff's side, the most populated first), untimed as in the paper.
//
// Each run's time is from the moment every GPU is ready (atoms copied,
// rings allocated) until the last one is done; each GPU's busy time is
// its stream's, first launch to last kernel's end. Prints every run,
// medians, and the sums (energy, pairs, sum of squared forces); --check
// recomputes them on the host's cores and fails when they differ (pairs
// exactly, reals beyond 1e-9 relative). Exit 77 without a GPU.
#include <algorithm>
#include <atomic>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "irgl/gpu/check.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/device_info.h"
#include "irgl/gpu/tasks/host_fed_pool.cuh"
#include "irgl/gpu/timer.h"
#include "irgl/options/unsigned_option.h"
#include "irgl/support/error.h"
#include "irgl/support/name_list.h"
#include "irgl/support/time_summary.h"

namespace po = boost::program_options;

namespace irgl {
namespace {

constexpr int kThreads = 128;        // a block, and the atoms of a group
constexpr double kClosest2 = 0.64;   // pairs closer than 0.8 count as at 0.8
constexpr int kExitNoGpu = 77;

struct Atom {
  double x, y, z, charge;
};
struct Group {
  uint32_t first, count;
};
struct Totals {
  double energy;       // each pair once
  double force_norms;  // sum over atoms of |force|^2
  unsigned long long pairs;  // ordered pairs within the cutoff
};

enum class Scheme { queue, split, chunks };
struct SchemeName {
  Scheme scheme;
  const char* name;
};
constexpr SchemeName kSchemes[] = {{Scheme::queue, "queue"}, {Scheme::split, "split"},
                                   {Scheme::chunks, "chunks"}};

// --- the force computation (device) ---------------------------------------

// The force on `a` from `b` (added to f) and their potential, for a pair
// within the cutoff; md_forces.irgl's formulas.
__host__ __device__ inline double add_pair(const Atom& a, const Atom& b, double dx, double dy,
                                           double dz, double distance2, double f[3]) {
  const double r2 = distance2 > kClosest2 ? distance2 : kClosest2;
  const double inverse2 = 1 / r2, inverse6 = inverse2 * inverse2 * inverse2;
  const double coulomb = a.charge * b.charge * sqrt(inverse2);
  const double scale = 24 * inverse6 * (2 * inverse6 - 1) * inverse2 + coulomb * inverse2;
  f[0] += scale * dx;
  f[1] += scale * dy;
  f[2] += scale * dz;
  return 4 * inverse6 * (inverse6 - 1) + coulomb;
}

__device__ inline double warp_sum(double x) {
  for (int offset = 16; offset > 0; offset /= 2) x += __shfl_down_sync(0xffffffffu, x, offset);
  return x;
}

// One group, by the whole block: thread t takes atom first + t and meets
// every atom through tiles the block stages in shared memory.
__device__ void add_group_forces(const Atom* atoms, uint32_t count, double cutoff2, Group group,
                                 Totals* totals) {
  __shared__ Atom tile[kThreads];
  const uint32_t i = group.first + threadIdx.x;
  const bool mine = threadIdx.x < group.count;
  const Atom a = mine ? atoms[i] : Atom{};
  double f[3] = {0, 0, 0}, potential = 0, near = 0;
  for (uint32_t base = 0; base < count; base += kThreads) {
    __syncthreads();  // the last tile is read
    if (base + threadIdx.x < count) tile[threadIdx.x] = atoms[base + threadIdx.x];
    __syncthreads();
    const uint32_t in_tile = min(uint32_t(kThreads), count - base);
    if (!mine) continue;
    for (uint32_t k = 0; k < in_tile; ++k) {
      const Atom& b = tile[k];
      const double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
      const double distance2 = dx * dx + dy * dy + dz * dz;
      if (base + k == i || distance2 >= cutoff2) continue;
      potential += add_pair(a, b, dx, dy, dz, distance2, f);
      near += 1;
    }
  }
  const double energy = warp_sum(potential / 2);
  const double norms = warp_sum(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
  const double pairs = warp_sum(near);  // exact: under 2^53
  if (threadIdx.x % 32 == 0) {
    atomicAdd(&totals->energy, energy);
    atomicAdd(&totals->force_norms, norms);
    atomicAdd(&totals->pairs, static_cast<unsigned long long>(pairs));
  }
}

// split and chunks: block b runs group first_group + b.
__global__ void __launch_bounds__(kThreads)
    groups_kernel(const Atom* atoms, uint32_t count, double cutoff2, uint32_t first_group,
                  Totals* totals) {
  const uint32_t first = (first_group + blockIdx.x) * kThreads;
  add_group_forces(atoms, count, cutoff2, Group{first, min(uint32_t(kThreads), count - first)},
                   totals);
}

// queue: the host-fed pool's processor.
struct ForceProcessor {
  const Atom* atoms;
  uint32_t count;
  double cutoff2;
  Totals* totals;
  __device__ void operator()(const Group& group) const {
    add_group_forces(atoms, count, cutoff2, group, totals);
  }
};

// --- atoms and the host's side ---------------------------------------------

// n atoms in a box of side `box`, denser at the centre (each coordinate a
// bell of four uniforms, standard deviation box / 5, clamped), charges +1
// and -1 alternately: md_forces.irgl's distribution.
std::vector<Atom> make_atoms(uint32_t n, double box, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(0, 1);
  std::vector<Atom> atoms(n);
  for (uint32_t i = 0; i < n; ++i) {
    double at[3];
    for (double& c : at) {
      double sum = 0;
      for (int k = 0; k < 4; ++k) sum += uniform(random);
      c = std::clamp(box / 2 + (sum - 2) * box / 3, 0.0, std::nextafter(box, 0.0));
    }
    atoms[i] = Atom{at[0], at[1], at[2], i % 2 ? -1.0 : 1.0};
  }
  return atoms;
}

// Paper 004's decomposition sort: cells of the cutoff's side (at most 128
// to an edge), counting-sorted by their atoms, the most populated first.
std::vector<Atom> decomposition_sort(const std::vector<Atom>& atoms, double box, double cutoff) {
  const uint32_t per_side = uint32_t(std::clamp(std::floor(box / cutoff), 1.0, 128.0));
  const double side = box / per_side;
  auto cell_of = [&](const Atom& a) {
    auto axis = [&](double c) { return std::min(uint32_t(c / side), per_side - 1); };
    return (axis(a.z) * per_side + axis(a.y)) * per_side + axis(a.x);
  };
  std::vector<uint32_t> cells(atoms.size()), population(size_t(per_side) * per_side * per_side);
  for (size_t i = 0; i < atoms.size(); ++i) ++population[cells[i] = cell_of(atoms[i])];
  std::vector<uint32_t> order(population.size());
  for (uint32_t c = 0; c < order.size(); ++c) order[c] = c;
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return population[a] > population[b]; });
  std::vector<uint32_t> start(population.size());
  uint32_t position = 0;
  for (uint32_t c : order) start[c] = position, position += population[c];
  std::vector<Atom> sorted(atoms.size());
  for (size_t i = 0; i < atoms.size(); ++i) sorted[start[cells[i]]++] = atoms[i];
  return sorted;
}

// The same sums on the host's cores (--check).
Totals host_totals(const std::vector<Atom>& atoms, double cutoff2) {
  const unsigned workers = std::max(1u, std::thread::hardware_concurrency());
  std::vector<Totals> parts(workers, Totals{0, 0, 0});
  std::vector<std::thread> threads;
  for (unsigned w = 0; w < workers; ++w)
    threads.emplace_back([&, w] {
      for (size_t i = w; i < atoms.size(); i += workers) {
        double f[3] = {0, 0, 0}, potential = 0;
        for (size_t j = 0; j < atoms.size(); ++j) {
          const double dx = atoms[i].x - atoms[j].x, dy = atoms[i].y - atoms[j].y,
                       dz = atoms[i].z - atoms[j].z;
          const double distance2 = dx * dx + dy * dy + dz * dz;
          if (i == j || distance2 >= cutoff2) continue;
          potential += add_pair(atoms[i], atoms[j], dx, dy, dz, distance2, f);
          ++parts[w].pairs;
        }
        parts[w].energy += potential / 2;
        parts[w].force_norms += f[0] * f[0] + f[1] * f[1] + f[2] * f[2];
      }
    });
  for (std::thread& thread : threads) thread.join();
  Totals total{0, 0, 0};
  for (const Totals& part : parts) {
    total.energy += part.energy;
    total.force_norms += part.force_norms;
    total.pairs += part.pairs;
  }
  return total;
}

// --- running on the GPUs ---------------------------------------------------

struct Setup {
  uint32_t atoms = 131072;
  double cutoff = 2.5;
  unsigned gpus = 1;
  Scheme scheme = Scheme::queue;
  uint32_t batch = 20;
  uint32_t chunk_groups = 120;
};

struct GpuRun {
  uint64_t groups = 0;
  double busy_ms = 0;
  Totals totals{0, 0, 0};
};

// Holds every GPU's thread until all are ready, then starts the clock.
class StartGate {
 public:
  explicit StartGate(unsigned parties) : waiting_(parties) {}
  void arrive_and_wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (--waiting_ == 0) {
      start_ = std::chrono::steady_clock::now();
      cv_.notify_all();
    }
    cv_.wait(lock, [&] { return waiting_ == 0; });
  }
  std::chrono::steady_clock::time_point start() const { return start_; }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  unsigned waiting_;
  std::chrono::steady_clock::time_point start_;
};

// One GPU's part of a run, once the gate opens: its groups by the scheme.
void feed_gpu(const Setup& setup, unsigned gpu, uint32_t groups, std::atomic<uint32_t>& next,
              const Atom* atoms, Totals* totals, cudaStream_t stream,
              std::optional<gpu::tasks::HostFedPool<Group>>& pool, GpuRun& run) {
  const double cutoff2 = setup.cutoff * setup.cutoff;
  const auto group_of = [&](uint32_t g) {
    return Group{g * kThreads, std::min(uint32_t(kThreads), setup.atoms - g * kThreads)};
  };
  switch (setup.scheme) {
    case Scheme::split: {
      const uint32_t first = uint64_t(groups) * gpu / setup.gpus;
      const uint32_t last = uint64_t(groups) * (gpu + 1) / setup.gpus;
      if (last > first)
        groups_kernel<<<last - first, kThreads, 0, stream>>>(atoms, setup.atoms, cutoff2, first,
                                                             totals);
      IRGL_CUDA_CHECK_LAUNCH();
      run.groups = last - first;
      break;
    }
    case Scheme::chunks:
      for (;;) {
        const uint32_t first = next.fetch_add(setup.chunk_groups);
        if (first >= groups) break;
        const uint32_t taken = std::min(setup.chunk_groups, groups - first);
        groups_kernel<<<taken, kThreads, 0, stream>>>(atoms, setup.atoms, cutoff2, first, totals);
        IRGL_CUDA_CHECK_LAUNCH();
        IRGL_CUDA_CHECK(cudaStreamSynchronize(stream));  // the device is free again
        run.groups += taken;
      }
      break;
    case Scheme::queue: {
      pool->start<kThreads>(ForceProcessor{atoms, setup.atoms, cutoff2, totals});
      for (unsigned ring = 0;; ring = 1 - ring) {  // batches to the two rings in turn
        const uint32_t first = next.fetch_add(setup.batch);
        if (first >= groups) break;
        const uint32_t taken = std::min(setup.batch, groups - first);
        for (uint32_t g = first; g < first + taken; ++g) pool->submit(group_of(g), ring);
        pool->flush(ring);
        run.groups += taken;
      }
      pool->finish();
      break;
    }
  }
}

// One timed run on setup.gpus GPUs: the wall time and each GPU's part.
double run_once(const Setup& setup, const std::vector<Atom>& atoms, std::vector<GpuRun>& runs) {
  const uint32_t groups = (setup.atoms + kThreads - 1) / kThreads;
  std::atomic<uint32_t> next{0};
  StartGate gate(setup.gpus);
  runs.assign(setup.gpus, GpuRun{});
  std::vector<std::chrono::steady_clock::time_point> ends(setup.gpus);
  std::vector<std::exception_ptr> errors(setup.gpus);
  std::vector<std::thread> threads;
  for (unsigned gpu = 0; gpu < setup.gpus; ++gpu)
    threads.emplace_back([&, gpu] {
      bool arrived = false;
      try {
        IRGL_CUDA_CHECK(cudaSetDevice(int(gpu)));
        gpu::DeviceBuffer<Atom> device_atoms(atoms);
        gpu::DeviceBuffer<Totals> totals(1);
        totals.zero();
        cudaStream_t stream;
        IRGL_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
        std::optional<gpu::tasks::HostFedPool<Group>> pool;
        if (setup.scheme == Scheme::queue) {
          gpu::tasks::HostFedOptions options;
          options.queues = 2;  // the paper's two queues per GPU
          options.capacity = setup.batch;
          options.placement = gpu::tasks::HostFedPlacement::device;
          options.batch = setup.batch;
          options.stream = stream;
          pool.emplace(options);
        }
        IRGL_CUDA_CHECK(cudaDeviceSynchronize());
        gpu::CudaEventTimer busy;
        arrived = true;
        gate.arrive_and_wait();
        busy.start(stream);
        feed_gpu(setup, gpu, groups, next, device_atoms.data(), totals.data(), stream, pool,
                 runs[gpu]);
        busy.stop(stream);
        IRGL_CUDA_CHECK(cudaStreamSynchronize(stream));
        ends[gpu] = std::chrono::steady_clock::now();
        runs[gpu].busy_ms = busy.elapsed_ms();
        runs[gpu].totals = totals.download()[0];
        pool.reset();
        IRGL_CUDA_CHECK(cudaStreamDestroy(stream));
      } catch (...) {
        errors[gpu] = std::current_exception();
        if (!arrived) gate.arrive_and_wait();  // never leave the others waiting
        next = groups;                          // and let them stop taking work
      }
    });
  for (std::thread& thread : threads) thread.join();
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
  const auto end = *std::max_element(ends.begin(), ends.end());
  return std::chrono::duration<double, std::milli>(end - gate.start()).count();
}

Totals sum(const std::vector<GpuRun>& runs) {
  Totals total{0, 0, 0};
  for (const GpuRun& run : runs) {
    total.energy += run.totals.energy;
    total.force_norms += run.totals.force_norms;
    total.pairs += run.totals.pairs;
  }
  return total;
}

bool close(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)); }

int run(int argc, char** argv) {
  Setup setup;
  unsigned runs = 5;
  std::string scheme_name = "queue", order = "random", json_path;
  bool check = false;
  po::options_description options("irgl-md-gpus options");
  options.add_options()("help,h", "show this help")(
      "atoms", unsigned_value(&setup.atoms, "--atoms")->default_value("131072"), "atoms")(
      "gpus", unsigned_value(&setup.gpus, "--gpus")->default_value("1"), "GPUs of this host")(
      "scheme", po::value(&scheme_name)->default_value("queue"), "queue, split or chunks")(
      "order", po::value(&order)->default_value("random"), "random or sorted (decomposition sort)")(
      "cutoff", po::value(&setup.cutoff)->default_value(2.5), "interaction cutoff")(
      "batch", unsigned_value(&setup.batch, "--batch")->default_value("20"),
      "queue: groups a host thread takes from the pool at once, and each ring's slots")(
      "chunk-groups", unsigned_value(&setup.chunk_groups, "--chunk-groups")->default_value("120"),
      "chunks: groups of 128 atoms per launch")(
      "runs", unsigned_value(&runs, "--runs")->default_value("5"), "timed runs, after a warm-up")(
      "check", po::bool_switch(&check), "recompute the sums on the host")(
      "json", po::value(&json_path), "write the runs to this file");
  po::variables_map values;
  po::store(po::parse_command_line(argc, argv, options), values);
  po::notify(values);
  if (values.count("help")) {
    std::cout << "usage: irgl-md-gpus [options]\n" << options;
    return 0;
  }
  const auto scheme = std::find_if(std::begin(kSchemes), std::end(kSchemes),
                                   [&](const SchemeName& s) { return scheme_name == s.name; });
  if (scheme == std::end(kSchemes))
    throw InputError::in("--scheme", "'" + scheme_name + "' is not " + name_list(kSchemes));
  setup.scheme = scheme->scheme;
  if (order != "random" && order != "sorted")
    throw InputError::in("--order", "'" + order + "' is not random or sorted");
  if (setup.atoms == 0) throw InputError::in("--atoms", "must be at least 1");
  if (!(setup.cutoff > 0)) throw InputError::in("--cutoff", "must be positive");
  if (setup.gpus == 0) throw InputError::in("--gpus", "must be at least 1");
  if (setup.batch == 0) throw InputError::in("--batch", "must be at least 1");
  if (setup.chunk_groups == 0) throw InputError::in("--chunk-groups", "must be at least 1");
  if (runs == 0) throw InputError::in("--runs", "must be at least 1");
  std::string why;
  if (!gpu::gpu_available(&why)) {
    std::printf("irgl-md-gpus: no usable GPU (%s): skipped\n", why.c_str());
    return kExitNoGpu;
  }
  int available = 0;
  IRGL_CUDA_CHECK(cudaGetDeviceCount(&available));
  if (setup.gpus > unsigned(available))
    throw InputError::in("--gpus", std::to_string(setup.gpus) + " asked, this host has " +
                                       std::to_string(available));

  const double box = std::cbrt(8.0 * setup.atoms);  // one atom per 8 unit volumes on average
  std::vector<Atom> atoms = make_atoms(setup.atoms, box, 7);
  if (order == "sorted") atoms = decomposition_sort(atoms, box, setup.cutoff);
  const std::string device = gpu::query_device().name;
  std::printf("irgl-md-gpus: %u atoms (box %.1f, cutoff %g), %s order, %s on %u x %s\n",
              setup.atoms, box, setup.cutoff, order.c_str(), scheme->name, setup.gpus,
              device.c_str());
  std::vector<double> times;
  std::vector<std::vector<double>> busy(setup.gpus);
  std::vector<GpuRun> last;
  nlohmann::json json_runs = nlohmann::json::array();
  for (unsigned r = 0; r <= runs; ++r) {  // run 0 warms up
    const double ms = run_once(setup, atoms, last);
    if (r == 0) continue;
    times.push_back(ms);
    std::string line = "run " + std::to_string(r) + ": " + std::to_string(ms) + " ms";
    nlohmann::json gpus = nlohmann::json::array();
    for (unsigned g = 0; g < setup.gpus; ++g) {
      busy[g].push_back(last[g].busy_ms);
      line += "; GPU " + std::to_string(g) + ": " + std::to_string(last[g].groups) +
              " groups, busy " + std::to_string(last[g].busy_ms) + " ms";
      gpus.push_back({{"gpu", g}, {"groups", last[g].groups}, {"busy_ms", last[g].busy_ms}});
    }
    std::printf("%s\n", line.c_str());
    json_runs.push_back({{"ms", ms}, {"gpus", gpus}});
  }
  std::printf("time: median %.3f ms over %u runs\n", summarize_times(times).median, runs);
  for (unsigned g = 0; g < setup.gpus; ++g)
    std::printf("GPU %u: busy median %.3f ms\n", g, summarize_times(busy[g]).median);
  const Totals total = sum(last);
  std::printf("result energy: %.17g\nresult pairs: %llu\nresult force_norms: %.17g\n",
              total.energy, total.pairs, total.force_norms);
  if (!json_path.empty()) {
    std::ofstream out(json_path);
    out << nlohmann::json{{"gpu", device},           {"gpus", setup.gpus},
                          {"atoms", setup.atoms},    {"scheme", scheme->name},
                          {"order", order},          {"cutoff", setup.cutoff},
                          {"batch", setup.batch},    {"chunk_groups", setup.chunk_groups},
                          {"median_ms", summarize_times(times).median},
                          {"runs", json_runs}}
               .dump(1)
        << "\n";
    if (!out) throw std::runtime_error("irgl-md-gpus: cannot write " + json_path);
  }
  if (check) {
    const Totals host = host_totals(atoms, setup.cutoff * setup.cutoff);
    if (host.pairs != total.pairs || !close(host.energy, total.energy) ||
        !close(host.force_norms, total.force_norms)) {
      std::printf("check: FAILED: the host's energy %.17g, pairs %llu, force_norms %.17g\n",
                  host.energy, host.pairs, host.force_norms);
      return 1;
    }
    std::printf("check: the host's sums agree (pairs equal, reals within 1e-9)\n");
  }
  return 0;
}

}  // namespace
}  // namespace irgl

int main(int argc, char** argv) { return irgl::run_tool_main("irgl-md-gpus", irgl::run, argc, argv); }
