// Hand-written CUDA on the schedule ranges (irgl/gpu/schedule/ranges.cuh):
// SpMV, y = A x, and SpMM, C = A B with B dense of K columns, over a CSR
// matrix (a graph's weighted adjacency), with the schedule chosen on the
// command line. The kernels, which this program launches itself, are in
// sparse_ranges.cuh.
//
//   sparse-ranges MATRIX [--schedule NAME] [--cols K] [--long-row N] [--runs N]
//                        [--check] [--output FILE]
//
//   --schedule  thread, warp, block, group:G (1 <= G <= 256), merge-path,
//               composed (rows longer than --long-row nonzeros block-mapped,
//               the rest thread-mapped, in one kernel); default merge-path
//   --cols      B's columns: 1 (the default) is SpMV, with the x of
//               spmv-schedules, whose --output this one's matches
//   --long-row  the composed schedule's cut-off (default 256)
//   --check     compares C with a CPU product (error at most 1e-4 of the
//               sum of each entry's terms' magnitudes)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "irgl/gpu/device_graph.h"
#include "irgl/gpu/device_info.h"
#include "irgl/gpu/timer.h"
#include "irgl/graph/load.h"
#include "irgl/results/result_writer.h"
#include "irgl/support/error.h"
#include "sparse_ranges.cuh"

namespace {

using namespace irgl;
using namespace irgl::examples;

struct Options {
  std::string matrix, schedule = "merge-path", output;
  uint32_t cols = 1;
  uint64_t long_row = 256;
  int runs = 5;
  bool check = false;
};

Options parse_options(int argc, char** argv) {
  if (argc < 2)
    throw InputError::in("sparse-ranges",
                         "usage: sparse-ranges MATRIX [--schedule NAME] [--cols K] "
                         "[--long-row N] [--runs N] [--check] [--output FILE]");
  Options options;
  options.matrix = argv[1];
  for (int i = 2; i < argc; ++i) {
    const std::string option = argv[i];
    if (option == "--check") {
      options.check = true;
      continue;
    }
    if (i + 1 == argc) throw InputError::in(option, "needs a value");
    const std::string value = argv[++i];
    if (option == "--schedule") options.schedule = value;
    else if (option == "--cols") options.cols = uint32_t(std::max(1, std::atoi(value.c_str())));
    else if (option == "--long-row") options.long_row = std::stoull(value);
    else if (option == "--runs") options.runs = std::max(1, std::atoi(value.c_str()));
    else if (option == "--output") options.output = value;
    else throw InputError::in(option, "unknown option");
  }
  return options;
}

// The matrix with float values (unit values when the file has none).
CsrGraph load_matrix(const std::string& source) {
  LoadOptions options;
  options.build.weights.convert_to = WeightType::float32;
  CsrGraph matrix = load_graph(source, options);
  if (matrix.has_weights()) return matrix;
  options.build.weights.source = WeightRule::Source::unit;
  return load_graph(source, options);
}

// B[j][c] = 1 + ((j + c) % 7) / 8: column 0 is spmv-schedules' x.
std::vector<float> dense_input(uint32_t rows, uint32_t cols) {
  std::vector<float> b(uint64_t(rows) * cols);
  for (uint64_t j = 0; j < rows; ++j)
    for (uint32_t c = 0; c < cols; ++c) b[j * cols + c] = 1.0f + ((j + c) % 7) / 8.0f;
  return b;
}

// The largest |C - reference| / max(1, |reference|) of a CPU product.
double largest_error(const CsrGraph& a, const std::vector<float>& b, uint32_t cols,
                     const std::vector<float>& c) {
  double largest = 0;
  for (VertexId row = 0; row < a.num_vertices(); ++row)
    for (uint32_t col = 0; col < cols; ++col) {
      // Relative to the sum of the terms' magnitudes, the bound a float
      // dot product's rounding error has whatever the order of its terms:
      // rows of a stiffness matrix (bcsstk16) sum large terms to about 0.
      double sum = 0, magnitude = 0;
      for (uint64_t nz = a.out_offsets[row]; nz < a.out_offsets[row + 1]; ++nz) {
        const double term =
            double(a.out_weight<float>(nz)) * b[uint64_t(a.out_targets[nz]) * cols + col];
        sum += term;
        magnitude += std::fabs(term);
      }
      const double error = std::fabs(c[uint64_t(row) * cols + col] - sum);
      largest = std::max(largest, error / std::max(1.0, magnitude));
    }
  return largest;
}

int run(int argc, char** argv) {
  const Options options = parse_options(argc, argv);
  const auto schedule = parse_schedule(options.schedule);
  if (!schedule)
    throw InputError::in("--schedule", "unknown schedule '" + options.schedule + "' (known: " +
                                           kScheduleNames + ")");
  std::string why;
  if (!gpu::gpu_available(&why)) {
    std::printf("sparse-ranges: no usable GPU (%s)\n", why.c_str());
    return 77;
  }
  const CsrGraph matrix = load_matrix(options.matrix);
  const uint32_t rows = static_cast<uint32_t>(matrix.num_vertices());
  const std::vector<float> b = dense_input(rows, options.cols);

  gpu::DeviceGraph device_matrix(matrix);
  const gpu::CsrView view = device_matrix.view().out;
  gpu::DeviceBuffer<float> device_b(b), device_c(uint64_t(rows) * options.cols);
  const Product product{
      {view.offsets, view.neighbors, reinterpret_cast<const float*>(view.weight_words), rows},
      device_b.data(), device_c.data(), options.cols};
  const RowSplit split(matrix.out_offsets, options.long_row);
  const unsigned blocks = resident_blocks(*schedule);

  std::vector<float> times;
  for (int r = 0; r < options.runs + 1; ++r) {  // one warm-up
    device_c.fill(-1.0f);
    gpu::CudaEventTimer timer;
    timer.start();
    multiply(*schedule, product, &split, blocks);
    timer.stop();
    if (r > 0) times.push_back(timer.elapsed_ms());
  }
  std::sort(times.begin(), times.end());
  const double median = times[times.size() / 2];
  std::printf("sparse-ranges %s, %u column(s), on %s: %u rows, %llu nonzeros: median %.4f ms "
              "(%.2f GFLOP/s)\n",
              options.schedule.c_str(), options.cols, options.matrix.c_str(), rows,
              static_cast<unsigned long long>(matrix.num_edges()), median,
              2.0 * matrix.num_edges() * options.cols / (median * 1e6));
  const std::vector<float> c = device_c.download();
  if (options.check) {
    const double error = largest_error(matrix, b, options.cols, c);
    std::printf("check: largest relative error %.3g\n", error);
    if (!(error <= 1e-4)) return 1;
  }
  if (!options.output.empty()) {
    ResultWriteOptions write_options;
    write_options.overwrite = true;
    if (options.cols != 1) throw InputError::in("--output", "writes SpMV results (--cols 1) only");
    write_vertex_result(options.output, "spmv", c, write_options);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return irgl::run_tool_main("sparse-ranges", run, argc, argv); }
