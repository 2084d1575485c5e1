// Hand-written CUDA using irgl's load-balancing schedules directly: sparse
// matrix-vector product y = A x over a CSR matrix (a graph's weighted
// adjacency), with the schedule chosen on the command line.
//
//   spmv-schedules MATRIX [--schedule NAME] [--runs N] [--output FILE]
//
// The Body below is all an application writes: what to do per row before its
// nonzeros (nothing here), per nonzero (multiply-add into a per-row
// accumulator), and after them (store y). The schedule decides which threads
// run what; see runtime/include/irgl/gpu/schedule/body.h.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "irgl/gpu/device_graph.h"
#include "irgl/gpu/device_info.h"
#include "irgl/gpu/schedule/schedules.cuh"
#include "irgl/gpu/timer.h"
#include "irgl/graph/load.h"
#include "irgl/results/result_writer.h"
#include "irgl/support/error.h"
#include "irgl/support/host_device.h"

namespace {

using namespace irgl;
namespace sched = irgl::gpu::schedule;

struct SpmvBody {
  struct Closure {};
  struct Accum {
    float sum;
  };
  static constexpr bool kHasEdges = true;
  static constexpr bool kHasAccum = true;
  static constexpr bool kHasPost = true;

  gpu::CsrView matrix;
  const float* x;
  float* y;

  __device__ bool pre(VertexId, Closure&) { return true; }
  __device__ uint64_t edges_begin(VertexId row) const { return matrix.begin(row); }
  __device__ uint64_t edges_end(VertexId row) const { return matrix.end(row); }
  IRGL_HD uint64_t max_degree() const { return max_row; }
  // Rows in CSR order: ALB can run them as row tiles (alb.cuh), when
  // they time faster than TWC (RunOptions::alb_row_tiles, by default).
  static constexpr bool kContiguousEdges = true;
  IRGL_HD uint64_t edge_count() const { return matrix.num_edges(); }
  __host__ const void* edge_layout() const { return matrix.offsets; }
  __device__ void edge(VertexId, uint64_t e, const Closure&, Accum& accum) {
    accum.sum += matrix.weight<float>(e) * x[matrix.neighbor(e)];
  }
  __device__ void post(VertexId row, const Closure&, const Accum& accum) { y[row] = accum.sum; }
  IRGL_HD static Accum identity() { return {0.0f}; }
  __device__ static void combine(Accum& into, const Accum& from) { into.sum += from.sum; }
  __device__ static void atomic_combine(Accum* into, const Accum& from) {
    atomicAdd(&into->sum, from.sum);
  }
  template <int BlockThreads>
  __device__ void flush() {}

  uint64_t max_row = 0;
};
// Read here as well as by ALB's SFINAE, which nvcc does not count as a use (#177).
static_assert(SpmvBody::kContiguousEdges, "row tiles cut the rows in CSR order");

constexpr int kThreads = 256;

// Runs one product with the named schedule; returns false for unknown names.
bool multiply(const std::string& schedule, const SpmvBody& body, uint32_t rows,
              sched::State<SpmvBody>& state) {
  const sched::AllNodes all{rows};
  if (schedule == "thread") sched::ThreadMapped<kThreads>::run(body, all, state);
  else if (schedule == "warp") sched::Warp<kThreads>::run(body, all, state);
  else if (schedule == "block") sched::Block<kThreads>::run(body, all, state);
  else if (schedule == "group:8") sched::GroupMapped<kThreads, 8>::run(body, all, state);
  else if (schedule == "twc") sched::Twc<kThreads>::run(body, all, state);
  else if (schedule == "lb") sched::Lb<kThreads>::run(body, all, state);
  else if (schedule == "merge-path") sched::MergePath<kThreads>::run(body, all, state);
  else if (schedule == "alb") sched::Alb<kThreads>::run(body, all, state);
  else return false;
  return true;
}

int run(int argc, char** argv) {
  if (argc < 2) throw InputError::in("spmv-schedules", "usage: spmv-schedules MATRIX [--schedule NAME] [--runs N] [--output FILE]");
  std::string schedule = "alb", output;
  int runs = 5;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string option = argv[i];
    if (option == "--schedule") schedule = argv[i + 1];
    else if (option == "--runs") runs = std::max(1, std::atoi(argv[i + 1]));
    else if (option == "--output") output = argv[i + 1];
    else throw InputError::in(option, "unknown option");
  }
  std::string why;
  if (!gpu::gpu_available(&why)) {
    std::printf("spmv-schedules: no usable GPU (%s)\n", why.c_str());
    return 77;
  }
  LoadOptions options;
  options.build.weights.convert_to = WeightType::float32;
  CsrGraph matrix = load_graph(argv[1], options);
  if (!matrix.has_weights()) {
    options.build.weights.source = WeightRule::Source::unit;
    options.build.weights.convert_to = WeightType::float32;
    matrix = load_graph(argv[1], options);
  }
  const uint32_t rows = static_cast<uint32_t>(matrix.num_vertices());
  std::vector<float> x(rows);
  for (uint32_t j = 0; j < rows; ++j) x[j] = 1.0f + (j % 7) / 8.0f;  // the checker's x

  gpu::DeviceGraph device_matrix(matrix);
  gpu::DeviceBuffer<float> device_x(x), device_y(rows);
  SpmvBody body{device_matrix.view().out, device_x.data(), device_y.data()};
  for (uint32_t r = 0; r < rows; ++r) body.max_row = std::max(body.max_row, matrix.out_degree(r));
  sched::State<SpmvBody> state;

  std::vector<float> times;
  for (int r = 0; r < runs + 1; ++r) {  // one warm-up
    device_y.fill(-1.0f);
    gpu::CudaEventTimer timer;
    timer.start();
    if (!multiply(schedule, body, rows, state))
      throw InputError::in("--schedule", "unknown schedule '" + schedule + "'");
    timer.stop();
    if (r > 0) times.push_back(timer.elapsed_ms());
  }
  std::sort(times.begin(), times.end());
  const double median = times[times.size() / 2];
  std::printf("spmv-schedules %s on %s: %u rows, %llu nonzeros: median %.4f ms (%.2f GFLOP/s)\n",
              schedule.c_str(), argv[1], rows, static_cast<unsigned long long>(matrix.num_edges()),
              median, 2.0 * matrix.num_edges() / (median * 1e6));
  if (!output.empty()) {
    ResultWriteOptions write_options;
    write_options.overwrite = true;
    write_vertex_result(output, "spmv", device_y.download(), write_options);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return irgl::run_tool_main("spmv-schedules", run, argc, argv); }
