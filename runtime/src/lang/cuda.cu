// Host-side parts of the CUDA language runtime (irgl/lang/cuda.cuh).

#include <algorithm>
#include <mutex>
#include <vector>

#include "irgl/gpu/device_info.h"
#include "irgl/lang/cuda.cuh"

namespace irgl::lang {

CudaRun run_for(const gpu::DeviceGraph& graph) {
  CudaRun run;
  run.out_degrees = graph.out_degrees();
  run.in_degrees = graph.in_degrees();
  return run;
}

Graph view_of(const gpu::DeviceGraph& graph, const CudaRun& run) {
  const gpu::GraphView view = graph.view();
  const AdjacencyView out{view.out.offsets, view.out.neighbors, view.out.weight_words};
  AdjacencyView in{};
  if (view.in.present()) in = {view.in.offsets, view.in.neighbors, view.in.weight_words};
  Graph result(graph.num_vertices(), graph.num_edges(), out, in);
  result.set_max_degrees(run.out_degrees.max_degree, run.in_degrees.max_degree);
  return result;
}

Graph view_of(const gpu::DeviceGraph& graph) { return view_of(graph, run_for(graph)); }

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

namespace {

// The calling thread's slot on the current device for reserve_kernel's
// answer: kept between calls (a cudaFree per call would synchronize the
// device), one per thread and device so that library calls from several
// threads or on several GPUs never share it.
gpu::DeviceBuffer<uint64_t>& reserve_slot() {
  thread_local std::vector<gpu::DeviceBuffer<uint64_t>> slots;  // by device
  const auto device = static_cast<size_t>(gpu::detail::current_device());
  if (slots.size() <= device) slots.resize(device + 1);
  if (slots[device].empty()) slots[device] = gpu::DeviceBuffer<uint64_t>(1);
  return slots[device];
}

}  // namespace

void push_all_vertices(const gpu::SparseQueueView& queue, uint32_t nodes, cudaStream_t stream) {
  gpu::DeviceBuffer<uint64_t>& first = reserve_slot();
  reserve_kernel<<<1, 1, 0, stream>>>(queue, nodes, first.data());
  IRGL_CUDA_CHECK_LAUNCH();
  uint64_t host_first = 0;
  first.download(&host_first, 1, stream);
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
// bfs on a small graph (tools/bench, docs/experiments/2026-11-21-pipe-fix.md); idle pipes wait
// here for the next run on the same GPU, behind a lock (library calls run
// on several threads). Never destroyed: at exit CUDA frees everything.
struct IdlePipes {
  std::mutex mutex;
  std::vector<detail::PipeMemory> pipes;
};

IdlePipes& idle_pipes() {
  static auto* idle = new IdlePipes();
  return *idle;
}

detail::PipeMemory take_pipe(uint64_t capacity) {
  const int device = gpu::detail::current_device();
  {
    IdlePipes& idle = idle_pipes();
    const std::lock_guard<std::mutex> lock(idle.mutex);
    for (auto pipe = idle.pipes.begin(); pipe != idle.pipes.end(); ++pipe) {
      if (pipe->queues.capacity() != capacity || pipe->device != device) continue;
      detail::PipeMemory taken = std::move(*pipe);
      idle.pipes.erase(pipe);
      taken.queues.clear();
      // A multi-GPU run's marks, left set by a pipe that ended before its swap.
      if (taken.bitmaps[2].num_bits() != 0) taken.bitmaps[2].clear_all();
      return taken;
    }
  }
  detail::PipeMemory memory;
  memory.queues = gpu::Pipe(capacity);
  memory.device = device;
  return memory;
}

}  // namespace

Pipe::Pipe(const Graph& graph, const CudaRun& run)
    : memory_(take_pipe(pipe_capacity(graph))),
      graph_(graph),
      mode_(run.frontier),
      parts_(run.parts),
      log_(run.frontier_log),
      heavy_line_(gpu::schedule::heavy_round_line(run.out_degrees, multiprocessor_count(),
                                                  run.heavy_round_edges.value_or(0))),
      outline_blocks_(run.outline_blocks) {}

Pipe::~Pipe() {
  if (memory_.queues.capacity() == 0) return;
  IdlePipes& idle = idle_pipes();
  const std::lock_guard<std::mutex> lock(idle.mutex);
  idle.pipes.push_back(std::move(memory_));
}

void release_idle_pipes() {
  IdlePipes& idle = idle_pipes();
  const std::lock_guard<std::mutex> lock(idle.mutex);
  idle.pipes.clear();
}

gpu::DenseBitmap& Pipe::bitmap(int index) {
  gpu::DenseBitmap& bitmap = memory_.bitmaps[index];
  if (bitmap.num_bits() != graph_.num_nodes())
    bitmap = gpu::DenseBitmap(graph_.num_nodes(), stream());
  return bitmap;
}

void Pipe::push(Node n) {
  compact_input();
  push_vertex(memory_.queues.in(), n, stream());
  forget_input_counts();
}

void Pipe::push_all() {
  compact_input();
  push_all_vertices(memory_.queues.in(), graph_.num_nodes(), stream());
  forget_input_counts();
}

gpu::FrontierInputs Pipe::graph_inputs() const {
  return {graph_.num_nodes(), graph_.num_edges(), graph_.max_out_degree(), 0, std::nullopt};
}

uint64_t Pipe::size() {
  if (!parts_) return local_size();
  if (swept_input_) return parts_->sum(local_size());
  parts_->start_total(memory_.queues.in());  // local_size()'s sync serves both
  local_size();
  return parts_->total();
}

uint64_t Pipe::local_size() {
  sized_since_storage_ = true;
  if (swept_input_) {
    // A kernel given in() may have pushed to it (set members) since the count.
    if (members_may_grow_) {
      count_input_members(swept_bitmap().view());
      members_may_grow_ = false;
    }
    return known_in_size_;
  }
  // Estimating the degree sum ahead, in every round that may need it, costs
  // a small kernel; reading it when needed would cost a second sync.
  const bool sample =
      gpu::FrontierPolicy::may_need_degree_sum(mode_, graph_inputs());
  if (sample)
    memory_.stats.sample_degree_sum(memory_.queues.in(), graph_.out().offsets, stream());
  const gpu::PipeSizes sizes = memory_.queues.read_sizes();
  if (sizes.in.overflow || sizes.out.overflow)
    throw std::runtime_error(gpu::overflow_message(std::max(sizes.in.pushed, sizes.out.pushed),
                                                   memory_.queues.capacity()));
  known_in_size_ = sizes.in.size;
  known_in_degree_sum_.reset();
  if (sample) known_in_degree_sum_ = memory_.stats.sampled_degree_sum(sizes.in.size);
  return sizes.in.size;
}

void Pipe::count_input_members(const gpu::DenseBitmapView& members) {
  known_in_degree_sum_.reset();
  if (gpu::FrontierPolicy::may_need_degree_sum(mode_, graph_inputs())) {
    const gpu::FrontierStats::MembersAndDegrees counts =
        memory_.stats.members_and_degree_sum(members, graph_.out().offsets, stream());
    known_in_size_ = counts.members;
    known_in_degree_sum_ = counts.degree_sum;
  } else {
    known_in_size_ = memory_.stats.members(members, stream());
  }
}

Worklist Pipe::in() {
  Worklist worklist{memory_.queues.in(), known_in_size_};
  if (swept_input_) {
    // Its members, which are also where pushes to it go.
    worklist.members = swept_bitmap().view();
    worklist.pushed_bits = worklist.members;
    worklist.bits_only = true;
    members_may_grow_ = true;
  }
  return worklist;
}

Worklist Pipe::out() {
  // The outlined loop's set-up, before its first host round: the persistent
  // kernel replaces these worklists with its own (sparse) ones.
  if (outlined_ && !sized_since_storage_) return Worklist{memory_.queues.out()};
  if (!output_chosen_) choose_output();
  Worklist worklist{memory_.queues.out()};
  if (parts_) parts_->expect_pushes(pushed_vertices());
  if (record_.output != gpu::FrontierForm::sparse) {
    worklist.pushed_bits = bitmap(output_bitmap_).view();
    worklist.bits_only = gpu::bitmap_only(record_.output);
  }
  return worklist;
}

void Pipe::choose_output() {
  const gpu::FrontierMode mode = mode_;
  record_ = {};
  record_.round = rounds_;
  record_.items = known_in_size_ != ~uint64_t{0} ? known_in_size_ : local_size();
  gpu::FrontierInputs inputs = graph_inputs();
  inputs.items = record_.items;
  if (gpu::FrontierPolicy::needs_degree_sum(mode, inputs)) {
    if (!known_in_degree_sum_) {  // not estimated with the size: read it now
      const uint64_t* offsets = graph_.out().offsets;
      known_in_degree_sum_ =
          swept_input_
              ? memory_.stats.degree_sum(swept_bitmap().view(), offsets, stream())
              : memory_.stats.degree_sum(memory_.queues.in(), record_.items, offsets, stream());
    }
    record_.degree_sum = known_in_degree_sum_;
    inputs.degree_sum = record_.degree_sum;
  }
  record_.output = gpu::FrontierPolicy::output_form(mode, inputs);
  if (record_.output != gpu::FrontierForm::sparse) bitmap(output_bitmap_).clear_all(stream());
  output_chosen_ = true;
}

PushedVertices Pipe::pushed_vertices() {
  if (record_.output == gpu::FrontierForm::sparse)
    return {memory_.queues.out(), bitmap(2).view(), false, true};
  return {memory_.queues.out(), bitmap(output_bitmap_).view(), gpu::bitmap_only(record_.output),
          false};
}

void Pipe::swap() {
  // Without out() (no kernel pushed) there is nothing to share.
  if (parts_ && output_chosen_) parts_->share_pushes(pushed_vertices());
  if (!output_chosen_) {  // no kernel took out(): the output is the empty queue
    record_ = {};
    record_.round = rounds_;
    record_.items = known_in_size_;
  }
  memory_.queues.swap();
  swept_input_ = false;
  forget_input_counts();
  if (gpu::bitmap_only(record_.output)) take_bitmap_output();
  if (log_) log_->rounds.push_back(record_);
  output_chosen_ = false;
  ++rounds_;
}

void Pipe::take_bitmap_output() {
  const gpu::FrontierMode mode = mode_;
  const gpu::DenseBitmapView output = bitmap(output_bitmap_).view();
  if (gpu::FrontierPolicy::may_sweep(mode, outlined_)) {
    count_input_members(output);
    record_.members = known_in_size_;
    if (gpu::FrontierPolicy::sweep_input(mode, graph_.num_nodes(), known_in_size_, outlined_)) {
      swept_input_ = true;
      members_may_grow_ = false;
      record_.swept_next = true;
      output_bitmap_ = 1 - output_bitmap_;  // the next output goes to the other bitmap
      return;
    }
    forget_input_counts();  // the compacted queue is sized by size()
  }
  // The new input queue is the old output's, which nothing pushed to.
  gpu::bitmap_to_queue(output, memory_.queues.in(), memory_.scratch, stream());
}

void Pipe::compact_input() {
  if (!swept_input_) return;
  gpu::bitmap_to_queue(swept_bitmap().view(), memory_.queues.in(), memory_.scratch,
                       stream());
  swept_input_ = false;
  forget_input_counts();
}

gpu::Pipe& Pipe::storage() {
  outlined_ = true;
  // Host rounds of the loop start with size(), and choose their form then:
  // the persistent kernel changes the input behind the host's back.
  sized_since_storage_ = false;
  output_chosen_ = false;
  compact_input();
  return memory_.queues;
}

gpu::InputEdgesCheck Pipe::dense_round_check() const {
  const gpu::FrontierInputs inputs = graph_inputs();
  return {graph_.out().offsets, inputs.max_degree,
          gpu::FrontierPolicy::host_round_edges(mode_, inputs)};
}

gpu::InputEdgesCheck Pipe::heavy_round_check() const {
  return {graph_.out().offsets, graph_inputs().max_degree, heavy_line_.edges};
}

void Pipe::ran_on_device(uint64_t rounds) {
  rounds_ += rounds;
  known_in_size_ = 0;
  known_in_degree_sum_.reset();
  output_chosen_ = false;
  outlined_ = false;
  if (log_) log_->device_rounds += rounds;
}

gpu::schedule::OutlineGrid Pipe::outline_grid() const {
  return gpu::schedule::pipe_loop_grid(graph_.num_nodes(), multiprocessor_count(), outline_blocks_);
}

unsigned multiprocessor_count() {
  static const unsigned count = static_cast<unsigned>(gpu::query_device().sm_count);
  return count;
}

}  // namespace irgl::lang
