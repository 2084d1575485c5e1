// irgl-gpu-selfcheck [graph options] SOURCE...
//
// For each graph (a file or a generator spec): uploads it to the GPU
// (reporting the memory estimate), recomputes every vertex's degree on the
// GPU, runs a BFS on the GPU (queues + Pipe) from vertex 0 and from the
// vertex of highest out-degree and compares the levels with a CPU BFS;
// prints timings (upload, BFS, GTEPS) and PASS or FAIL. Exit status: 0
// when every graph passes, 1 when one fails or an option is wrong, 77 when
// no GPU is usable (callers treat 77 as "skipped").
#include <atomic>
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "irgl/gpu/device_graph.h"
#include "irgl/gpu/device_info.h"
#include "irgl/gpu/validation.h"
#include "irgl/graph/load.h"
#include "irgl/options/graph_options.h"
#include "irgl/support/error.h"
#include "irgl/support/parallel.h"

namespace po = boost::program_options;

namespace irgl {
namespace {

constexpr const char* kTool = "irgl-gpu-selfcheck";
constexpr int kExitNoGpu = 77;

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

std::string format(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

// Out-edges of the vertices a BFS reached: the edges it traversed.
uint64_t traversed_edges(const CsrGraph& graph, const std::vector<uint32_t>& levels) {
  std::atomic<uint64_t> total{0};
  parallel_chunks(0, graph.num_vertices(), [&](uint64_t begin, uint64_t end, unsigned) {
    uint64_t edges = 0;
    for (uint64_t v = begin; v < end; ++v)
      if (levels[v] != gpu::kUnreachedLevel) edges += graph.out_degree(static_cast<VertexId>(v));
    total += edges;
  });
  return total;
}

// Prints "  <step>: ok ..." or "  <step>: FAIL: ..."; returns whether ok.
bool report(const std::string& step, const std::string& problem, const std::string& details) {
  if (problem.empty()) {
    std::cout << "  " << step << ": ok" << details << '\n';
    return true;
  }
  std::cout << "  " << step << ": FAIL: " << problem << '\n';
  return false;
}

// The vertex with the most out-edges (the smallest such id).
VertexId highest_degree_vertex(const CsrGraph& graph) {
  VertexId best = 0;
  for (uint64_t v = 1; v < graph.num_vertices(); ++v)
    if (graph.out_degree(static_cast<VertexId>(v)) > graph.out_degree(best))
      best = static_cast<VertexId>(v);
  return best;
}

bool check_bfs(const gpu::DeviceGraph& device, const CsrGraph& host, VertexId source,
               const std::string& label) {
  const gpu::GpuBfsResult gpu_result = gpu::bfs_levels_on_gpu(device, source);
  const std::vector<uint32_t> expected = gpu::bfs_levels_on_cpu(host, source);
  const uint64_t edges = traversed_edges(host, expected);
  const double gteps = gpu_result.milliseconds > 0 ? edges / (gpu_result.milliseconds * 1e6) : 0.0;
  return report("bfs from " + label, gpu::compare_levels(expected, gpu_result.levels),
                " (" + std::to_string(gpu_result.rounds) + " levels, " +
                    std::to_string(gpu_result.reached) + " vertices and " + std::to_string(edges) +
                    " edges reached, " + format("%.3f ms, ", gpu_result.milliseconds) +
                    format("%.3f GTEPS)", gteps));
}

bool check_graph(const std::string& source, const LoadOptions& load_options) {
  std::cout << source << ":\n";
  const auto load_start = std::chrono::steady_clock::now();
  const CsrGraph host = load_graph(source, load_options);
  std::cout << "  graph: " << host.num_vertices() << " vertices, " << host.num_edges()
            << " edges, weights " << to_string(host.weight_type)
            << (host.has_transpose() ? ", with in-edges" : "")
            << format(" (loaded in %.1f ms)", milliseconds_since(load_start)) << '\n';

  const uint64_t estimate = gpu::estimate_upload_bytes(host);
  std::cout << "  upload estimate: " << gpu::format_bytes(estimate) << " + "
            << gpu::format_bytes(gpu::kUploadMarginBytes) << " margin; "
            << gpu::format_bytes(gpu::query_device().free_memory) << " free\n";
  const auto upload_start = std::chrono::steady_clock::now();
  const gpu::DeviceGraph device(host);
  const double upload_ms = milliseconds_since(upload_start);
  std::cout << "  upload: " << format("%.1f ms", upload_ms)
            << format(" (%.2f GB/s)\n",
                      upload_ms > 0 ? device.device_bytes() / (upload_ms * 1e6) : 0.0);

  bool pass = report("degrees", gpu::check_degrees_on_gpu(device, host),
                     " (" + std::to_string(host.num_vertices()) + " vertices" +
                         (device.has_in_edges() ? ", out and in)" : ")"));
  if (host.num_vertices() == 0) {
    std::cout << "  bfs: skipped (no vertices)\n";
    return pass;
  }
  pass = check_bfs(device, host, 0, "0") && pass;
  // Vertex 0 may reach little (permuted generators, isolated ids); the
  // highest-degree vertex usually reaches the giant component.
  const VertexId hub = highest_degree_vertex(host);
  if (hub != 0)
    pass = check_bfs(device, host, hub,
                     std::to_string(hub) + " (highest degree, " +
                         std::to_string(host.out_degree(hub)) + ")") &&
           pass;
  return pass;
}

// Runs check_graph, turning any error into a FAIL for this graph so that the
// other graphs are still checked.
bool check_graph_reporting_errors(const std::string& source, const LoadOptions& load_options) {
  bool pass = false;
  try {
    pass = check_graph(source, load_options);
  } catch (const InputError& error) {  // already "<where>: error: <problem>"
    std::cout << "  " << error.what() << '\n';
  } catch (const std::exception& error) {  // too big for the GPU, CUDA failures
    std::cout << "  error: " << error.what() << '\n';
  }
  std::cout << "  " << (pass ? "PASS" : "FAIL") << '\n';
  return pass;
}

int selfcheck_main(int argc, char** argv) {
  GraphOptionValues graph_values;
  std::vector<std::string> sources;
  po::options_description visible(std::string("Usage: ") + kTool +
                                  " [options] SOURCE...\n"
                                  "Checks the GPU runtime on each graph (file or generator "
                                  "spec): upload, degrees, BFS from vertex 0 and from the "
                                  "highest-degree vertex against the CPU.\n"
                                  "Exit status: 0 all pass, 1 a failure, 77 no usable GPU.\n\n"
                                  "Options");
  visible.add_options()("help,h", "show this help");
  add_graph_options(visible, graph_values);
  po::options_description all;
  all.add(visible);
  all.add_options()("source", po::value(&sources), "graph files or generator specs");
  po::positional_options_description positional;
  positional.add("source", -1);
  const po::variables_map arguments = parse_command_line(kTool, argc, argv, all, &positional);
  if (arguments.count("help")) {
    std::cout << visible << '\n';
    return 0;
  }
  if (sources.empty()) throw InputError::in(kTool, "no graph given (see --help)");
  const LoadOptions load_options = to_load_options(graph_values);

  std::string why;
  if (!gpu::gpu_available(&why)) {
    std::cout << kTool << ": no usable GPU (" << why << ")\n";
    return kExitNoGpu;
  }
  const gpu::DeviceInfo device = gpu::query_device();
  std::cout << kTool << ": device " << device.ordinal << ": " << device.summary() << '\n';

  size_t passed = 0;
  for (const std::string& source : sources)
    passed += check_graph_reporting_errors(source, load_options);
  std::cout << kTool << ": " << passed << " of " << sources.size() << " graphs passed\n";
  return passed == sources.size() ? 0 : 1;
}

}  // namespace
}  // namespace irgl

int main(int argc, char** argv) {
  return irgl::run_tool_main(irgl::kTool, irgl::selfcheck_main, argc, argv);
}
