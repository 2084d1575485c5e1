// Host-side parts of the CUDA language runtime (irgl/lang/cuda.cuh).

#include "irgl/gpu/device_info.h"
#include "irgl/lang/cuda.cuh"

namespace irgl::lang {

namespace {

__global__ void max_degree_kernel(const uint64_t* offsets, uint32_t nodes,
                                  unsigned long long* result) {
  unsigned long long local = 0;
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t v = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; v < nodes; v += stride)
    local = max(local, static_cast<unsigned long long>(offsets[v + 1] - offsets[v]));
  __shared__ typename cub::BlockReduce<unsigned long long, 256>::TempStorage storage;
  local = cub::BlockReduce<unsigned long long, 256>(storage).Reduce(
      local, [](unsigned long long a, unsigned long long b) { return a > b ? a : b; });
  if (threadIdx.x == 0) atomicMax(result, local);
}

uint64_t max_degree(const uint64_t* offsets, uint32_t nodes) {
  if (!offsets || nodes == 0) return 0;
  gpu::DeviceBuffer<unsigned long long> result(1);
  result.zero();
  const unsigned blocks = static_cast<unsigned>(std::min<uint64_t>((nodes + 255) / 256, 4096));
  max_degree_kernel<<<blocks, 256>>>(offsets, nodes, result.data());
  IRGL_CUDA_CHECK_LAUNCH();
  unsigned long long host = 0;
  result.download(&host, 1);
  return host;
}

}  // namespace

Graph view_of(const gpu::DeviceGraph& graph) {
  const gpu::GraphView view = graph.view();
  const AdjacencyView out{view.out.offsets, view.out.neighbors, view.out.weight_words};
  AdjacencyView in{};
  if (view.in.present()) in = {view.in.offsets, view.in.neighbors, view.in.weight_words};
  Graph result(graph.num_vertices(), graph.num_edges(), out, in);
  result.set_max_degrees(max_degree(view.out.offsets, graph.num_vertices()),
                         max_degree(view.in.offsets, graph.num_vertices()));
  return result;
}

namespace {

__global__ void push_vertex_kernel(gpu::SparseQueueView queue, Node n) { queue.push(n); }

__global__ void push_all_kernel(gpu::SparseQueueView queue, uint32_t nodes, uint64_t first) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < nodes; i += stride)
    queue.write(first + i, static_cast<Node>(i));
}

// Reserves `count` slots with one thread, so that the fill kernel writes
// consecutive slots.
__global__ void reserve_kernel(gpu::SparseQueueView queue, uint64_t count, uint64_t* first) {
  *first = queue.reserve(count);
}

}  // namespace

void push_vertex(const gpu::SparseQueueView& queue, Node n, cudaStream_t stream) {
  push_vertex_kernel<<<1, 1, 0, stream>>>(queue, n);
  IRGL_CUDA_CHECK_LAUNCH();
}

void push_all_vertices(const gpu::SparseQueueView& queue, uint32_t nodes, cudaStream_t stream) {
  // Kept between calls: a cudaFree per call would synchronize the device.
  static auto* first = new gpu::DeviceBuffer<uint64_t>(1);
  reserve_kernel<<<1, 1, 0, stream>>>(queue, nodes, first->data());
  IRGL_CUDA_CHECK_LAUNCH();
  uint64_t host_first = 0;
  first->download(&host_first, 1, stream);
  const unsigned threads = 256;
  const unsigned blocks = static_cast<unsigned>(std::min<uint64_t>((nodes + threads - 1) / threads, 65535));
  if (blocks > 0) push_all_kernel<<<blocks, threads, 0, stream>>>(queue, nodes, host_first);
  IRGL_CUDA_CHECK_LAUNCH();
}

namespace {
uint64_t pipe_capacity(const Graph& graph) {
  const uint64_t wanted = graph.num_edges() + graph.num_nodes() + 1;
  return std::min<uint64_t>(wanted, uint64_t{1} << 34);
}

// Pipes outlive the runs that use them. Allocating a pipe every run (two
// cudaMallocs, the pinned counter mirror, and the cudaFrees that synchronize
// the device) cost about 0.5 ms per run on an H200, more than the whole of
// bfs on a small graph (tools/bench, docs/performance.md); idle pipes wait
// here for the next run. Never destroyed: at exit CUDA frees everything.
std::vector<gpu::Pipe>& idle_pipes() {
  static auto* pipes = new std::vector<gpu::Pipe>();
  return *pipes;
}

gpu::Pipe take_pipe(uint64_t capacity) {
  std::vector<gpu::Pipe>& idle = idle_pipes();
  for (auto pipe = idle.begin(); pipe != idle.end(); ++pipe) {
    if (pipe->capacity() != capacity) continue;
    gpu::Pipe taken = std::move(*pipe);
    idle.erase(pipe);
    taken.clear();
    return taken;
  }
  return gpu::Pipe(capacity);
}

}  // namespace

Pipe::Pipe(const Graph& graph)
    : pipe_(take_pipe(pipe_capacity(graph))), nodes_(graph.num_nodes()) {}

Pipe::~Pipe() {
  if (pipe_.capacity() != 0) idle_pipes().push_back(std::move(pipe_));
}

void release_idle_pipes() { idle_pipes().clear(); }

uint64_t Pipe::size() {
  const gpu::PipeSizes sizes = pipe_.read_sizes();
  if (sizes.in.overflow || sizes.out.overflow)
    throw std::runtime_error(
        gpu::overflow_message(std::max(sizes.in.pushed, sizes.out.pushed), pipe_.capacity()));
  known_in_size_ = sizes.in.size;
  return sizes.in.size;
}

unsigned multiprocessor_count() {
  static const unsigned count = static_cast<unsigned>(gpu::query_device().sm_count);
  return count;
}

}  // namespace irgl::lang
