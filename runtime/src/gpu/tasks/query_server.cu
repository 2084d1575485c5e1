// The host side of the query engine (gpu/tasks/query_server.cuh).
#include <cstring>
#include <thread>

#include "irgl/gpu/device_info.h"
#include "irgl/gpu/tasks/query_server.cuh"

namespace irgl::gpu::tasks {

namespace {

constexpr unsigned kMostSlots = 32;
constexpr unsigned kIntakeSlack = 8;  // intake positions beyond one per slot (the HALT)

template <class T>
T* mapped_alloc(size_t count) {
  T* host = nullptr;
  // Portable: pinned for every device's context, not only this one's.
  IRGL_CUDA_CHECK(cudaHostAlloc(&host, sizeof(T) * count,
                                cudaHostAllocMapped | cudaHostAllocPortable));
  std::memset(static_cast<void*>(host), 0, sizeof(T) * count);
  return host;
}
template <class T>
T* device_alias(T* host) {
  T* device = nullptr;
  IRGL_CUDA_CHECK(cudaHostGetDevicePointer(&device, host, 0));
  return device;
}

// The slots that fit in `fraction` of the free memory, at most kMostSlots.
unsigned fitting_slots(uint64_t vertices, double fraction) {
  const uint64_t free_bytes = query_device().free_memory;
  const uint64_t fit = uint64_t(double(free_bytes) * fraction) / query_slot_bytes(vertices);
  return unsigned(std::min<uint64_t>(fit, kMostSlots));
}

}  // namespace

QueryEngine::QueryEngine(const DeviceGraph& graph, const QueryEngineOptions& options)
    : gpu_(gpu::detail::current_device()), vertices_(graph.num_vertices()) {
  if (vertices_ == 0) throw std::invalid_argument("query engine: the graph has no vertices");
  if (vertices_ > (uint64_t(1) << 31))
    throw std::invalid_argument("query engine: " + std::to_string(vertices_) +
                                " vertices; at most 2^31 (the work word's chunk count)");
  if (graph.num_edges() >= (uint64_t(1) << 32))
    throw std::invalid_argument("query engine: " + std::to_string(graph.num_edges()) +
                                " edges; at most 2^32 - 1 (a chunk counts its edges in 32 bits)");
  if (!(options.memory_fraction > 0 && options.memory_fraction <= 1))
    throw std::invalid_argument("query engine: memory fraction " +
                                std::to_string(options.memory_fraction) + " is not in (0, 1]");
  slots_ = options.slots ? options.slots : fitting_slots(vertices_, options.memory_fraction);
  if (slots_ > kMaxQuerySlots)
    throw std::invalid_argument("query engine: " + std::to_string(slots_) + " slots; at most " +
                                std::to_string(kMaxQuerySlots));
  if (slots_ == 0)
    throw DeviceMemoryError("query engine: one query slot needs " +
                            format_bytes(query_slot_bytes(vertices_)) + " and the GPU has " +
                            format_bytes(query_device().free_memory) + " free");
  control_ = DeviceBuffer<query_detail::SlotControl>(slots_);
  control_.zero();
  dist_ = DeviceBuffer<unsigned long long>(slots_ * vertices_);
  dist_.fill(~0ull);  // tagged as generation 0, older than any query's
  mark_ = DeviceBuffer<unsigned long long>(slots_ * vertices_);
  mark_.zero();
  frontier_ = DeviceBuffer<VertexId>(2 * slots_ * vertices_);
  flags_ = DeviceBuffer<unsigned int>(2);
  flags_.zero();
  active_ = DeviceBuffer<unsigned long long>(1);
  active_.zero();
  intake_next_ = DeviceBuffer<unsigned long long>(1);
  intake_next_.zero();
  const uint64_t capacity = slots_ + kIntakeSlack;
  if (options.placement == HostFedPlacement::mapped) mapped_.emplace(capacity, 1);
  else device_.emplace(capacity, 1, 1);
  with_rings([](auto& rings) { rings.reset(); });
  answers_ = mapped_alloc<QueryAnswer>(slots_);
  answered_ = mapped_alloc<unsigned long long>(slots_);
  expected_.assign(slots_, 0);
  caller_ids_.assign(slots_, 0);
  generations_.assign(slots_, 0);
  for (unsigned s = slots_; s-- > 0;) free_.push_back(s);

  query_detail::EngineView view;
  view.graph = graph.view();
  view.slots = slots_;
  view.vertices = vertices_;
  view.control = control_.data();
  view.dist = dist_.data();
  view.mark = mark_.data();
  view.frontier = frontier_.data();
  view.intake = with_rings([&](auto& rings) { return rings.kernel_view(intake_next_.data()); });
  view.intake_lock = flags_.data();
  view.halting = flags_.data() + 1;
  view.active = active_.data();
  view.answers = device_alias(answers_);
  view.answered = device_alias(answered_);

  const auto kernel = query_detail::query_engine_kernel<kBlockThreads>;
  blocks_ = options.blocks ? options.blocks : resident_blocks((const void*)kernel, kBlockThreads);
  IRGL_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  IRGL_CUDA_CHECK(cudaDeviceSynchronize());  // the zeroed state before the kernel reads it
  kernel<<<blocks_, kBlockThreads, 0, stream_>>>(view);
  IRGL_CUDA_CHECK_LAUNCH();
  running_ = true;
}

QueryEngine::~QueryEngine() {
  if (running_) {  // never leave a kernel polling freed memory
    try {
      const ScopedDevice scope(gpu_);  // may throw: not outside the try
      std::vector<QueryAnswer> dropped;
      while (running_ && running() != 0) poll(dropped);
      finish();
    } catch (...) {
    }
  }
  if (stream_) cudaStreamDestroy(stream_);
  if (answers_) cudaFreeHost(answers_);
  if (answered_) cudaFreeHost(answered_);
}

void QueryEngine::check_alive() {
  if (cudaStreamQuery(stream_) == cudaErrorNotReady) return;
  running_ = false;
  IRGL_CUDA_CHECK(cudaStreamSynchronize(stream_));  // throws the kernel's error
  throw std::runtime_error("query engine: the kernel ended before it was halted");
}

void QueryEngine::submit(GraphQuery query) {
  const ScopedDevice scope(gpu_);
  if (!running_) throw std::logic_error("QueryEngine::submit: not running");
  if (free_.empty()) throw std::logic_error("QueryEngine::submit: no free slot");
  if (query.target_count > kQueryTargets)
    throw std::invalid_argument("QueryEngine::submit: " + std::to_string(query.target_count) +
                                " targets; at most " + std::to_string(kQueryTargets));
  if (query.source >= vertices_)
    throw std::invalid_argument("QueryEngine::submit: source " + std::to_string(query.source) +
                                " is not a vertex");
  query.slot = free_.back();
  if (generations_[query.slot] + 1 >= 0xfffffff0u)  // tags would repeat: stale distances count
    throw std::runtime_error("query engine: slot " + std::to_string(query.slot) +
                             " ran 2^32 - 16 queries; restart the engine");
  ++generations_[query.slot];
  // The device echoes an id of the engine's own, never repeated, so an
  // answer is never mistaken for the slot's last one; the caller's comes
  // back in poll().
  caller_ids_[query.slot] = query.id;
  query.id = ++sequence_;
  expected_[query.slot] = query.id + 1;
  free_.pop_back();
  const auto task = QueuedTask<GraphQuery>::make(query);
  put(task);
}

void QueryEngine::put(const QueuedTask<GraphQuery>& task) {
  for (unsigned polls = 1; !with_rings([&](auto& rings) { return rings.writable(0, submitted_); });
       ++polls) {
    if (polls % 4096 == 0) check_alive();
    std::this_thread::yield();
  }
  with_rings([&](auto& rings) {
    rings.write(0, submitted_, task);
    rings.flush(0);  // a query waits for its answer: never hold it back
  });
  ++submitted_;
}

void QueryEngine::poll(std::vector<QueryAnswer>& answers) {
  const ScopedDevice scope(gpu_);
  if (!running_) throw std::logic_error("QueryEngine::poll: not running");
  bool any_running = false;
  for (unsigned s = 0; s < slots_; ++s) {
    if (expected_[s] == 0) continue;
    const unsigned long long sequence =
        query_detail::SystemWord(answered_[s]).load(cuda::memory_order_acquire);
    if (sequence != expected_[s]) {
      any_running = true;
      continue;
    }
    answers.push_back(answers_[s]);
    answers.back().id = caller_ids_[s];
    expected_[s] = 0;
    free_.push_back(s);
  }
  if (any_running) check_alive();
}

void QueryEngine::finish() {
  const ScopedDevice scope(gpu_);
  if (!running_) throw std::logic_error("QueryEngine::finish: not running");
  if (running() != 0)
    throw std::logic_error("QueryEngine::finish: " + std::to_string(running()) +
                           " queries not answered yet");
  put(QueuedTask<GraphQuery>::halt());
  running_ = false;
  IRGL_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

}  // namespace irgl::gpu::tasks
