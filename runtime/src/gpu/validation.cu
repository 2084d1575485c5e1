#include <atomic>

#include "irgl/gpu/check.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/launch.cuh"
#include "irgl/gpu/timer.h"
#include "irgl/gpu/validation.h"
#include "irgl/gpu/worklist/dense_bitmap.cuh"
#include "irgl/gpu/worklist/pipe.cuh"
#include "irgl/support/parallel.h"

namespace irgl::gpu {

namespace {

__global__ void degrees_kernel(CsrView graph, uint64_t* degrees) {
  for (uint64_t v = global_thread_index(); v < graph.num_vertices(); v += grid_thread_count())
    degrees[v] = graph.degree(static_cast<VertexId>(v));
}

// "" or "<what> degree of vertex V: GPU X, host Y (N mismatches)".
std::string compare_degrees(const char* what, const CsrView& view, const Adjacency& host,
                            uint64_t num_vertices, cudaStream_t stream) {
  DeviceBuffer<uint64_t> degrees(num_vertices);
  degrees_kernel<<<grid_blocks(num_vertices), kBlockThreads, 0, stream>>>(view, degrees.data());
  IRGL_CUDA_CHECK_LAUNCH();
  const std::vector<uint64_t> gpu = degrees.download(stream);
  std::atomic<uint64_t> mismatches{0};
  std::atomic<uint64_t> first{UINT64_MAX};
  parallel_for(0, num_vertices, [&](uint64_t v) {
    if (gpu[v] == host.degree(static_cast<VertexId>(v))) return;
    mismatches.fetch_add(1, std::memory_order_relaxed);
    uint64_t seen = first.load(std::memory_order_relaxed);
    while (v < seen && !first.compare_exchange_weak(seen, v)) {
    }
  });
  if (mismatches == 0) return std::string();
  const uint64_t v = first;
  return std::string(what) + " degree of vertex " + std::to_string(v) + ": GPU " +
         std::to_string(gpu[v]) + ", host " +
         std::to_string(host.degree(static_cast<VertexId>(v))) + " (" +
         std::to_string(mismatches.load()) + " mismatches)";
}

// One BFS round: every vertex of the input frontier labels its unvisited
// out-neighbors with `next_level` and pushes them to the output frontier.
__global__ void bfs_round_kernel(CsrView graph, SparseQueueView in, SparseQueueView out,
                                 DenseBitmapView visited, uint32_t* levels, uint32_t next_level) {
  const uint64_t size = in.size();
  for (uint64_t i = global_thread_index(); i < size; i += grid_thread_count()) {
    const VertexId v = in[i];
    for (uint64_t e = graph.begin(v); e < graph.end(v); ++e) {
      const VertexId w = graph.neighbor(e);
      if (out.push_unique(w, visited)) levels[w] = next_level;
    }
  }
}

}  // namespace

std::string check_degrees_on_gpu(const DeviceGraph& device, const CsrGraph& host,
                                 cudaStream_t stream) {
  if (device.num_vertices() != host.num_vertices())
    return "vertex count: GPU " + std::to_string(device.num_vertices()) + ", host " +
           std::to_string(host.num_vertices());
  const GraphView view = device.view();
  std::string problem = compare_degrees("out", view.out, host.out(), host.num_vertices(), stream);
  if (problem.empty() && view.has_in_edges())
    problem = compare_degrees("in", view.in, host.in(), host.num_vertices(), stream);
  return problem;
}

GpuBfsResult bfs_levels_on_gpu(const DeviceGraph& graph, VertexId source, cudaStream_t stream) {
  const uint32_t n = graph.num_vertices();
  if (source >= n)
    throw std::out_of_range("BFS source " + std::to_string(source) + " outside a graph of " +
                            std::to_string(n) + " vertices");
  DeviceBuffer<uint32_t> levels(n);
  levels.fill(kUnreachedLevel, stream);
  DenseBitmap visited(n, stream);
  const uint32_t zero = 0;
  IRGL_CUDA_CHECK(
      cudaMemcpyAsync(levels.data() + source, &zero, sizeof zero, cudaMemcpyHostToDevice, stream));
  visited.assign({source}, stream);
  // Each vertex is pushed at most once, so no queue can overflow.
  Pipe pipe(n, stream);
  pipe.reset({source});

  GpuBfsResult result;
  CudaEventTimer timer;
  timer.start(stream);
  for (PipeSizes sizes = pipe.read_sizes(); sizes.in.size != 0; sizes = pipe.read_sizes()) {
    result.reached += sizes.in.size;
    ++result.rounds;
    bfs_round_kernel<<<grid_blocks(sizes.in.size), kBlockThreads, 0, stream>>>(
        graph.view().out, pipe.in(), pipe.out(), visited.view(), levels.data(), result.rounds);
    IRGL_CUDA_CHECK_LAUNCH();
    pipe.swap();
  }
  timer.stop(stream);
  result.milliseconds = timer.elapsed_ms();
  result.levels = levels.download(stream);
  return result;
}

std::vector<uint32_t> bfs_levels_on_cpu(const CsrGraph& graph, VertexId source) {
  std::vector<uint32_t> levels(graph.num_vertices(), kUnreachedLevel);
  if (source >= graph.num_vertices()) return levels;
  std::vector<VertexId> frontier{source};
  levels[source] = 0;
  // The frontier vector doubles as the FIFO: [head, size) is pending.
  for (size_t head = 0; head < frontier.size(); ++head) {
    const VertexId v = frontier[head];
    for (uint64_t e = graph.out_offsets[v]; e < graph.out_offsets[v + 1]; ++e) {
      const VertexId w = graph.out_targets[e];
      if (levels[w] != kUnreachedLevel) continue;
      levels[w] = levels[v] + 1;
      frontier.push_back(w);
    }
  }
  return levels;
}

std::string compare_levels(const std::vector<uint32_t>& expected,
                           const std::vector<uint32_t>& actual) {
  if (expected.size() != actual.size())
    return "level count: expected " + std::to_string(expected.size()) + ", got " +
           std::to_string(actual.size());
  auto show = [](uint32_t level) {
    return level == kUnreachedLevel ? std::string("unreached") : std::to_string(level);
  };
  uint64_t mismatches = 0;
  size_t first = 0;
  for (size_t v = 0; v < expected.size(); ++v)
    if (expected[v] != actual[v] && mismatches++ == 0) first = v;
  if (mismatches == 0) return std::string();
  return "level of vertex " + std::to_string(first) + ": expected " + show(expected[first]) +
         ", got " + show(actual[first]) + " (" + std::to_string(mismatches) + " mismatches)";
}

}  // namespace irgl::gpu
