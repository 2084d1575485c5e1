// Paper 004's persistent kernel fed by the host: as many blocks as are
// resident take tasks from a host-fed queue (host_fed_queue.cuh) while the
// host keeps submitting, until each block takes a HALT.
//
//   HostFedPool<Visit, Query> pool(options);    // the task types
//   pool.start<256>(Processor{...});             // the kernel runs from here
//   pool.submit(Visit{...});                     // any time, from one host thread
//   pool.submit(Query{...});
//   const HostFedStats stats = pool.finish();    // HALTs, then waits for the kernel
//
// Preloaded (paper 004's dequeue measured alone): open() empties the rings
// without a kernel, submit() and submit_halts() fill them (up to their
// capacity: a full ring before the launch is an error, never a wait), and
// launch<256>(processor) starts the kernel on what is there; start() is
// open() and launch() together.
//
// The processor is called by every thread of the block that took the task,
// as processor(const T&) for the task's type T (it may synchronize the
// block). A block's thread 0 claims a position with one fetch-and-add,
// polls the position's sequence number with a doubling back-off, and
// stages the task in shared memory.
//
// With HostFedOptions::queues = Q, there are Q rings: block b takes from
// ring b % Q, and submit(task, q) feeds ring q, so Q host threads can feed
// the GPU at once (each ring has one producer at a time) and the blocks'
// claims spread over Q counters.
//
// HostFedOptions::placement puts the rings in mapped host memory (the
// host writes in place, the kernel polls over the bus) or in device
// memory (paper 004: the host sends tasks in batches of `batch` on a copy
// stream; flush() sends a partial batch now): host_fed_rings.cuh.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "irgl/gpu/check.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/tasks/host_fed_queue.cuh"
#include "irgl/gpu/tasks/host_fed_rings.cuh"
#include "irgl/gpu/tasks/pool.cuh"

namespace irgl::gpu::tasks {

// Where the rings live (host_fed_rings.cuh).
enum class HostFedPlacement { mapped, device };

struct HostFedOptions {
  uint64_t capacity = 4096;  // slots per queue: tasks submitted and not yet taken
  unsigned queues = 1;       // rings; block b takes from ring b % queues
  unsigned blocks = 0;       // 0: as many as are resident at once (at least `queues`)
  HostFedPlacement placement = HostFedPlacement::mapped;
  unsigned batch = 32;       // device placement: tasks staged per copy
  cudaStream_t stream = nullptr;  // the kernel's
};

struct HostFedStats {
  uint64_t tasks_run = 0;  // tasks processed (HALTs not counted)
  unsigned blocks = 0;
};

#if defined(__CUDACC__)
// Each block: take a task, run it with every thread, until a HALT.
template <int BlockThreads, class Task, class Processor>
__global__ void __launch_bounds__(BlockThreads)
    host_fed_kernel(HostFedQueueView<Task> rings, unsigned queues, Processor processor,
                    unsigned long long* tasks_run) {
  __shared__ Task current;
  const unsigned ring = blockIdx.x % queues;
  const HostFedQueueView<Task> queue{rings.slots + ring * rings.capacity,
                                     rings.sequence + ring * rings.capacity, rings.next + ring,
                                     rings.capacity};
  unsigned long long run = 0;  // thread 0's count
  for (;;) {
    if (threadIdx.x == 0) {
      const unsigned long long position = queue.claim();
      unsigned back_off_ns = 64;
      while (!queue.ready(position)) {
        __nanosleep(back_off_ns);
        back_off_ns = std::min(back_off_ns * 2, 4096u);
      }
      current = queue.take(position);
    }
    __syncthreads();
    if (current.halts()) break;  // every thread reads the same task
    current.dispatch(processor);
    run += threadIdx.x == 0;
    __syncthreads();  // `current` is rewritten next
  }
  if (threadIdx.x == 0) atomicAdd(tasks_run, run);
}
#endif

template <class... Types>
class HostFedPool {
 public:
  using Task = QueuedTask<Types...>;

  explicit HostFedPool(const HostFedOptions& options) : options_(options) {
    if (options.capacity == 0) throw std::invalid_argument("HostFedPool: capacity must be at least 1");
    if (options.queues == 0) throw std::invalid_argument("HostFedPool: queues must be at least 1");
    if (options.blocks && options.blocks < options.queues)
      throw std::invalid_argument("HostFedPool: fewer blocks than queues leaves a queue unread");
    if (options.batch == 0) throw std::invalid_argument("HostFedPool: batch must be at least 1");
    if (options.placement == HostFedPlacement::mapped)
      mapped_.emplace(options.capacity, options.queues);
    else
      device_.emplace(options.capacity, options.queues, options.batch);
    counters_ = DeviceBuffer<unsigned long long>(options.queues + 1);  // next per queue, tasks run
    submitted_.assign(options.queues, 0);
  }
  ~HostFedPool() {
    if (running_) {  // never leave a kernel polling freed memory
      try {
        finish();
      } catch (...) {
      }
    }
  }
  HostFedPool(const HostFedPool&) = delete;
  HostFedPool& operator=(const HostFedPool&) = delete;

  // Empties the rings for a new run: tasks submitted from now on wait in
  // them until launch().
  void open() {
    if (running_) throw std::logic_error("HostFedPool::open: the kernel is running");
    with_rings([](auto& rings) { rings.reset(); });
    std::fill(submitted_.begin(), submitted_.end(), 0);
    halts_submitted_ = false;
    counters_.zero();
    IRGL_CUDA_CHECK(cudaDeviceSynchronize());  // the zeroed counters before the kernel reads them
    open_ = true;
  }

#if defined(__CUDACC__)
  // Launches the persistent kernel on the open rings (opening them first
  // if needed); tasks submitted from now on run too.
  template <int BlockThreads, class Processor>
  void launch(const Processor& processor) {
    if (running_) throw std::logic_error("HostFedPool::launch: already running");
    if (!open_) open();
    const auto kernel = host_fed_kernel<BlockThreads, Task, Processor>;
    const unsigned blocks = options_.blocks ? options_.blocks
                                            : resident_blocks((const void*)kernel, BlockThreads);
    blocks_ = std::max(blocks, options_.queues);  // what submit_halts() counted, if it ran
    for (unsigned q = 0; q < options_.queues; ++q) flush(q);
    const HostFedQueueView<Task> rings =
        with_rings([&](auto& rings) { return rings.kernel_view(counters_.data()); });
    kernel<<<blocks_, BlockThreads, 0, options_.stream>>>(rings, options_.queues, processor,
                                                          counters_.data() + options_.queues);
    IRGL_CUDA_CHECK_LAUNCH();
    running_ = true;
  }

  // open() and launch(): the kernel runs from here, taking tasks as the
  // host submits them.
  template <int BlockThreads, class Processor>
  void start(const Processor& processor) {
    if (running_) throw std::logic_error("HostFedPool::start: already running");
    open();
    launch<BlockThreads>(processor);
  }
#endif

  // Appends a task of one of Types to ring `queue`, waiting while it is
  // full. One thread at a time per ring.
  template <class T>
  void submit(const T& task, unsigned queue = 0) {
    if (queue >= options_.queues)
      throw std::invalid_argument("HostFedPool::submit: queue " + std::to_string(queue) +
                                  " of " + std::to_string(options_.queues));
    put(Task::make(task), queue);
  }

  // Device placement: sends ring `queue`'s staged tasks now rather than
  // when a batch is full (a query that waits for its answer needs this).
  // Mapped placement: nothing to do. The ring's producer calls it.
  void flush(unsigned queue = 0) {
    if (queue >= options_.queues)
      throw std::invalid_argument("HostFedPool::flush: queue " + std::to_string(queue) + " of " +
                                  std::to_string(options_.queues));
    with_rings([&](auto& rings) { rings.flush(queue); });
  }

  // One HALT per block, each on its block's ring, after every task
  // submitted so far. Before launch() it needs HostFedOptions::blocks (the
  // kernel's block count is not known until then).
  void submit_halts() {
    if (halts_submitted_) throw std::logic_error("HostFedPool::submit_halts: already submitted");
    if (!running_) {
      if (!options_.blocks)
        throw std::logic_error("HostFedPool::submit_halts: before launch() it needs "
                               "HostFedOptions::blocks");
      blocks_ = std::max(options_.blocks, options_.queues);
    }
    for (unsigned b = 0; b < blocks_; ++b) put(Task::halt(), b % options_.queues);
    halts_submitted_ = true;
  }

  // HALTs (unless submitted already), then waits for the kernel to end.
  // Call it once every submitting thread is done.
  HostFedStats finish() {
    if (!running_) throw std::logic_error("HostFedPool::finish: not started");
    if (!halts_submitted_) submit_halts();
    for (unsigned q = 0; q < options_.queues; ++q) flush(q);
    running_ = false;
    open_ = false;
    IRGL_CUDA_CHECK(cudaStreamSynchronize(options_.stream));
    HostFedStats stats;
    stats.tasks_run = counters_.download()[options_.queues];
    stats.blocks = blocks_;
    return stats;
  }

  bool running() const { return running_; }
  unsigned blocks() const { return blocks_; }
  unsigned queues() const { return options_.queues; }

 private:
  template <class F>
  decltype(auto) with_rings(F&& f) {
    return mapped_ ? f(*mapped_) : f(*device_);
  }
  // Waits while the ring is full, and notices a kernel that ended (a fault)
  // instead of waiting for it forever.
  void put(const Task& task, unsigned q) {
    if (!open_) throw std::logic_error("HostFedPool::submit: not started");
    unsigned long long& position = submitted_[q];
    const auto writable = [&] {
      return with_rings([&](auto& rings) { return rings.writable(q, position); });
    };
    if (!running_ && !writable())  // nothing would ever free a slot
      throw std::length_error("host-fed pool: ring " + std::to_string(q) + " is full (" +
                              std::to_string(options_.capacity) +
                              " slots) before the kernel was launched");
    for (unsigned polls = 1; !writable(); ++polls) {
      if (polls % 4096 == 0 && cudaStreamQuery(options_.stream) != cudaErrorNotReady) {
        running_ = false;
        open_ = false;
        IRGL_CUDA_CHECK(cudaStreamSynchronize(options_.stream));  // throws the kernel's error
        throw std::runtime_error("host-fed pool: the kernel ended before taking its tasks");
      }
      std::this_thread::yield();
    }
    with_rings([&](auto& rings) { rings.write(q, position, task); });
    ++position;
  }

  HostFedOptions options_;
  std::optional<MappedRings<Task>> mapped_;  // one of the two
  std::optional<DeviceRings<Task>> device_;
  DeviceBuffer<unsigned long long> counters_;
  std::vector<unsigned long long> submitted_;  // per ring: the next position to write
  unsigned blocks_ = 0;
  bool halts_submitted_ = false;
  std::atomic<bool> open_{false};     // the rings take tasks (open(), start())
  std::atomic<bool> running_{false};  // read by every submitting thread
};

}  // namespace irgl::gpu::tasks
