// irgl-spmv-cusparse [graph options] [--runs N] [--warmup N] [--output FILE] GRAPH
//
// The cuSPARSE baseline of the benchmarks: y = A x with cuSPARSE's CSR SpMV
// (generic API, default algorithm, preprocessed), on the same matrix and the
// same x as lang-examples/spmv.irgl (x[j] = 1 + (j mod 7) / 8, A the graph's
// weighted adjacency with float weights). A timed run does the same work as
// one run of the generated spmv program: it writes x, then multiplies.
// Prints the lines the generated programs print ("time: median ... ms"), and
// writes y in the checker's format with --output. Exit 77 without a GPU.
#include <cusparse.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <vector>

#include "irgl/gpu/check.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/device_info.h"
#include "irgl/gpu/timer.h"
#include "irgl/graph/load.h"
#include "irgl/options/graph_options.h"
#include "irgl/options/unsigned_option.h"
#include "irgl/results/result_writer.h"
#include "irgl/support/error.h"
#include "irgl/support/time_summary.h"

namespace po = boost::program_options;

namespace irgl {
namespace {

constexpr const char* kTool = "irgl-spmv-cusparse";
constexpr int kExitNoGpu = 77;

#define IRGL_CUSPARSE_CHECK(call)                                                            \
  do {                                                                                       \
    const cusparseStatus_t status_ = (call);                                                 \
    if (status_ != CUSPARSE_STATUS_SUCCESS)                                                  \
      throw std::runtime_error(std::string(__FILE__) + ":" + std::to_string(__LINE__) +    \
                               ": " #call ": " + cusparseGetErrorString(status_));           \
  } while (0)

__global__ void init_x_kernel(float* x, uint64_t n) {
  for (uint64_t j = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; j < n;
       j += uint64_t(gridDim.x) * blockDim.x)
    x[j] = 1.0f + static_cast<float>(j % 7) / 8.0f;
}

// The matrix on the GPU with the narrowest index type cuSPARSE accepts for
// it: 32-bit offsets and columns below 2^31 entries, else both 64-bit.
struct DeviceCsr {
  gpu::DeviceBuffer<int32_t> offsets32, columns32;
  gpu::DeviceBuffer<int64_t> offsets64, columns64;
  gpu::DeviceBuffer<float> values;
  bool wide = false;

  explicit DeviceCsr(const CsrGraph& graph) {
    const auto out = graph.out();
    const uint64_t n = graph.num_vertices(), m = graph.num_edges();
    wide = m >= (uint64_t(1) << 31);
    if (wide) {
      offsets64 = gpu::DeviceBuffer<int64_t>(std::vector<int64_t>(out.offsets, out.offsets + n + 1));
      columns64 = gpu::DeviceBuffer<int64_t>(std::vector<int64_t>(out.neighbors, out.neighbors + m));
    } else {
      offsets32 = gpu::DeviceBuffer<int32_t>(std::vector<int32_t>(out.offsets, out.offsets + n + 1));
      columns32 = gpu::DeviceBuffer<int32_t>(std::vector<int32_t>(out.neighbors, out.neighbors + m));
    }
    std::vector<float> host(m);
    for (uint64_t e = 0; e < m; ++e) host[e] = graph.out_weight<float>(e);
    values = gpu::DeviceBuffer<float>(host);
  }
  void* offsets() { return wide ? static_cast<void*>(offsets64.data()) : offsets32.data(); }
  void* columns() { return wide ? static_cast<void*>(columns64.data()) : columns32.data(); }
  cusparseIndexType_t index_type() const { return wide ? CUSPARSE_INDEX_64I : CUSPARSE_INDEX_32I; }
};

int run(int argc, char** argv) {
  GraphOptionValues graph_values;
  std::string graph_source, output;
  unsigned runs = 1, warmup = 0;
  bool force = false;
  po::options_description options(
      "Usage: irgl-spmv-cusparse [options] GRAPH\ny = A x with cuSPARSE (the benchmarks' "
      "baseline for spmv.irgl)\nOptions");
  options.add_options()("help,h", "show this help")(
      "graph", po::value(&graph_source), "graph file or generator spec")(
      "output,o", po::value(&output), "write y to this file (checker format)")(
      "force", po::bool_switch(&force), "replace an existing --output file")(
      "runs", unsigned_value(&runs, "--runs")->default_value("1"), "timed runs")(
      "warmup", unsigned_value(&warmup, "--warmup")->default_value("0"),
      "untimed runs before them");
  po::options_description graph_options("Graph loading");
  add_graph_options(graph_options, graph_values);
  options.add(graph_options);
  po::positional_options_description positional;
  positional.add("graph", 1);
  const po::variables_map values = parse_command_line(kTool, argc, argv, options, &positional);
  if (values.count("help")) {
    std::cout << options;
    return 0;
  }
  if (graph_source.empty()) throw InputError::in(kTool, "no graph given (see --help)");
  if (runs == 0) throw InputError::in("--runs", "must be at least 1");
  std::string why;
  if (!gpu::gpu_available(&why)) {
    std::cerr << kTool << ": skipped: no usable GPU: " << why << '\n';
    return kExitNoGpu;
  }

  LoadOptions load_options = to_load_options(graph_values);
  load_options.build.weights.convert_to = WeightType::float32;
  const CsrGraph graph = load_graph(graph_source, load_options);
  if (!graph.has_weights())
    throw InputError::in(graph_source, "spmv reads edge weights, but the graph has none: load "
                                       "them with --weights=unit or --weights=hash[:MAX]");
  const uint64_t n = graph.num_vertices();
  std::cout << "program spmv-cusparse (cuSPARSE CSR SpMV), target cuda on "
            << gpu::query_device().name << "\n";
  std::printf("graph %s: %llu vertices, %llu edges\n", graph_source.c_str(),
              static_cast<unsigned long long>(n),
              static_cast<unsigned long long>(graph.num_edges()));

  DeviceCsr matrix(graph);
  gpu::DeviceBuffer<float> x(std::max<uint64_t>(n, 1)), y(std::max<uint64_t>(n, 1));
  cusparseHandle_t handle = nullptr;
  IRGL_CUSPARSE_CHECK(cusparseCreate(&handle));
  cusparseSpMatDescr_t a = nullptr;
  cusparseDnVecDescr_t vx = nullptr, vy = nullptr;
  IRGL_CUSPARSE_CHECK(cusparseCreateCsr(&a, n, n, graph.num_edges(), matrix.offsets(),
                                        matrix.columns(), matrix.values.data(),
                                        matrix.index_type(), matrix.index_type(),
                                        CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  IRGL_CUSPARSE_CHECK(cusparseCreateDnVec(&vx, n, x.data(), CUDA_R_32F));
  IRGL_CUSPARSE_CHECK(cusparseCreateDnVec(&vy, n, y.data(), CUDA_R_32F));
  const float alpha = 1.0f, beta = 0.0f;
  size_t scratch_bytes = 0;
  IRGL_CUSPARSE_CHECK(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
                                              a, vx, &beta, vy, CUDA_R_32F,
                                              CUSPARSE_SPMV_ALG_DEFAULT, &scratch_bytes));
  gpu::DeviceBuffer<uint8_t> scratch(std::max<size_t>(scratch_bytes, 1));
  IRGL_CUSPARSE_CHECK(cusparseSpMV_preprocess(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
                                              a, vx, &beta, vy, CUDA_R_32F,
                                              CUSPARSE_SPMV_ALG_DEFAULT, scratch.data()));
  const unsigned blocks = static_cast<unsigned>(gpu::query_device().sm_count) * 8;
  auto multiply = [&] {
    init_x_kernel<<<blocks, 256>>>(x.data(), n);
    IRGL_CUDA_CHECK_LAUNCH();
    IRGL_CUSPARSE_CHECK(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, a, vx,
                                     &beta, vy, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT,
                                     scratch.data()));
  };
  for (unsigned i = 0; i < warmup; ++i) multiply();
  std::vector<double> times;
  gpu::CudaEventTimer timer;
  for (unsigned i = 0; i < runs; ++i) {
    timer.start();
    multiply();
    timer.stop();
    times.push_back(timer.elapsed_ms());
    std::printf("run %u: %.3f ms\n", i + 1, times.back());
  }
  IRGL_CUDA_CHECK(cudaDeviceSynchronize());
  print_time_summary(summarize_times(times), times.size());

  if (!output.empty()) {
    std::vector<float> host(n);
    if (n) host = y.download_prefix(n);
    ResultWriteOptions write_options;
    write_options.overwrite = force;
    write_vertex_result(output, "spmv", host, write_options);
    std::cout << "output " << output << " (y)\n";
  }
  cusparseDestroyDnVec(vx);
  cusparseDestroyDnVec(vy);
  cusparseDestroySpMat(a);
  cusparseDestroy(handle);
  return 0;
}

}  // namespace
}  // namespace irgl

int main(int argc, char** argv) { return irgl::run_tool_main(irgl::kTool, irgl::run, argc, argv); }
