// The host side every schedule's dispatch shares: the options of a launch,
// the per-launch-site State (grids, per-item buffers, the load recorder) and
// the launch of an agent (agent.cuh) on a grid that fills the GPU once.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cub/device/device_scan.cuh>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "irgl/gpu/check.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/device_info.h"
#include "irgl/gpu/schedule/agent.cuh"
#include "irgl/gpu/schedule/load_log.h"
#include "irgl/gpu/schedule/options.h"
#include "irgl/gpu/schedule/path_choice.h"

namespace irgl::gpu::schedule {

// Blocks of `threads` threads of `kernel` resident on the whole GPU.
unsigned resident_grid(const void* kernel, unsigned threads);

// Writes `value` into a device counter, ordered on `stream` (no sync).
void store_count(unsigned long long* count, uint64_t value, cudaStream_t stream);

// The per-item arrays of the edge-balanced phases (edge_balanced.cuh), which
// ALB's huge vertices use too (device pointers).
template <class Body>
struct ItemArrays {
  VertexId* vertices = nullptr;
  typename Body::Closure* closures = nullptr;
  uint64_t* begins = nullptr;     // first edge id of the item's vertex
  uint64_t* degrees = nullptr;    // edges to process (0 when inactive)
  uint8_t* active = nullptr;      // pre() returned true (gather) or 1 (huge list)
  typename Body::Accum* accums = nullptr;
  uint64_t* offsets = nullptr;    // exclusive prefix sum of degrees, count + 1 entries
  const unsigned long long* count = nullptr;  // number of items, on the device
  uint64_t capacity = 0;          // entries of each array (count may exceed it: a full list)

#if defined(__CUDACC__)
  // The items stored: the device count, at most the capacity.
  __device__ uint64_t stored() const { return *count < capacity ? *count : capacity; }
#endif
};

// What every thread of a cooperative kernel (the whole grid resident,
// cudaLaunchCooperativeKernel) shares: grid-wide barriers and scratch for
// grid-wide prefix sums (grid.cuh).
struct GridRound {
  // Whether this kernel holds ALB's inspection and huge-vertex phase; true
  // here, so that a round() taking a plain GridRound keeps them.
  static constexpr bool kAlbInspects = true;
  // The schedule InGrid<Auto> runs in this kernel (auto.cuh).
  static constexpr AutoPick kAutoPick = AutoPick::alb;
  // The shared memory every ALB step of this kernel shares (alb.cuh:
  // alb_grid_scratch_bytes); 0: each takes what it needs.
  static constexpr size_t kAlbScratchBytes = 0;
  uint64_t* block_sums = nullptr;  // one entry per block

#if defined(__CUDACC__)
  // A grid of one block (a small graph's: OutlineGrid) needs no grid-wide
  // barrier, only the block's.
  __device__ void sync() const {
    if (gridDim.x == 1) __syncthreads();
    else cooperative_groups::this_grid().sync();
  }
#endif
};

// Persistent per-launch-site state of the schedules for one Body type.
// Counters is NoLoadCounters, or LoadCounters to record per-block edge counts
// and per-path vertex counts of every launch in the options' load log.
template <class Body, class CountersT = NoLoadCounters>
class State {
 public:
  using Counters = CountersT;

  State() = default;
  State(const State&) = delete;
  State& operator=(const State&) = delete;
  ~State() {  // a static State may outlive the CUDA context: errors ignored
    for (auto& events : trial_events_)
      for (cudaEvent_t event : events)
        if (event) (void)cudaEventDestroy(event);
  }

  // Grid of a kernel, computed once per kernel.
  template <class Kernel>
  unsigned grid(Kernel kernel, unsigned threads) {
    const void* key = reinterpret_cast<const void*>(kernel);
    for (const auto& [known, blocks] : grids_)
      if (known == key) return blocks;
    grids_.push_back({key, resident_grid(key, threads)});
    return grids_.back().second;
  }

  // The GPU's SMs, asked once.
  unsigned sm_count() {
    if (sm_count_ == 0) sm_count_ = unsigned(query_device().sm_count);
    return sm_count_;
  }

  // Per-item arrays for `capacity` items (grown, never shrunk).
  ItemArrays<Body> items(uint64_t capacity) {
    if (capacity > capacity_) {
      capacity_ = capacity + capacity / 4 + 1024;
      vertices_ = DeviceBuffer<VertexId>(capacity_);
      closures_ = DeviceBuffer<typename Body::Closure>(capacity_);
      begins_ = DeviceBuffer<uint64_t>(capacity_);
      degrees_ = DeviceBuffer<uint64_t>(capacity_);
      active_ = DeviceBuffer<uint8_t>(capacity_);
      accums_ = DeviceBuffer<typename Body::Accum>(Body::kHasAccum ? capacity_ : 1);
      offsets_ = DeviceBuffer<uint64_t>(capacity_ + 1);
    }
    if (count_.empty()) {
      count_ = DeviceBuffer<unsigned long long>(kCounters);
      host_count_ = PinnedBuffer<unsigned long long>(1);
    }
    ItemArrays<Body> arrays;
    arrays.vertices = vertices_.data();
    arrays.closures = closures_.data();
    arrays.begins = begins_.data();
    arrays.degrees = degrees_.data();
    arrays.active = active_.data();
    arrays.accums = accums_.data();
    arrays.offsets = offsets_.data();
    arrays.count = count_.data();
    arrays.capacity = capacity_;
    return arrays;
  }

  // offsets[0..count] = exclusive prefix sum of degrees[0..count) and the
  // total (64-bit; CUB, scratch kept between calls).
  void prefix_sum(const ItemArrays<Body>& items, uint64_t count, cudaStream_t stream) {
    size_t bytes = 0;
    IRGL_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, items.degrees,
                                                  items.offsets + 1, count, stream));
    if (bytes > scan_scratch_.size()) scan_scratch_ = DeviceBuffer<uint8_t>(bytes);
    IRGL_CUDA_CHECK(cudaMemsetAsync(items.offsets, 0, sizeof(uint64_t), stream));
    if (count > 0)
      IRGL_CUDA_CHECK(cub::DeviceScan::InclusiveSum(scan_scratch_.data(), bytes, items.degrees,
                                                    items.offsets + 1, count, stream));
  }

  // kCounters counters: the items' count, then ALB's finished blocks
  // (HugeList); clear_counters() zeroes both.
  static constexpr int kCounters = 2;
  unsigned long long* count() { return count_.data(); }
  void clear_counters(cudaStream_t stream) {
    IRGL_CUDA_CHECK(cudaMemsetAsync(count_.data(), 0, kCounters * sizeof(unsigned long long), stream));
  }
  // Reads the device item counter (one small copy and a stream sync).
  uint64_t read_count(cudaStream_t stream) {
    IRGL_CUDA_CHECK(cudaMemcpyAsync(host_count_.data(), count_.data(), sizeof(unsigned long long),
                                    cudaMemcpyDeviceToHost, stream));
    IRGL_CUDA_CHECK(cudaStreamSynchronize(stream));
    return host_count_[0];
  }

  // ALB's row tiles: the first rows of the cut of `rows` rows and `edges`
  // edges laid out by `layout` (Body::edge_layout()) into `tiles` tiles of
  // `units`. Unless an earlier launch made that cut, `cut(first_rows)`
  // makes it (launches the kernel that writes it), so a loop run every
  // iteration (pr) cuts its rows once. The cut only balances: a tile of a
  // stale one still holds at most units / AlbTuning::kRowTileRowCost + 1 rows,
  // whatever the degrees.
  template <class Cut>
  const uint32_t* first_rows(const void* layout, uint64_t rows, uint64_t edges, uint64_t units,
                             uint64_t tiles, Cut cut) {
    const RowTileCut wanted{layout, rows, edges, units};
    if (cut_ == wanted) return first_rows_.data();
    if (tiles + 1 > first_rows_.size()) first_rows_ = DeviceBuffer<uint32_t>(tiles + 1 + tiles / 4);
    cut(first_rows_.data());
    cut_ = wanted;
    return first_rows_.data();
  }
  // ALB's automatic choice between TWC (path 0) and row tiles (path 1):
  // the path this launch runs, after reading the times of the finished
  // trials (without waiting). With *trial >= 0, the launch goes between
  // begin_trial() and end_trial().
  int alb_path(int* trial) {
    for (int t = 0; t < PathChoice::kTrials; ++t)
      if (path_choice_.waiting(t)) {
        const cudaError_t status = cudaEventQuery(trial_events_[t][1]);
        if (status == cudaErrorNotReady) {  // not an error: not kept as the last one
          if (cudaPeekAtLastError() == cudaErrorNotReady) (void)cudaGetLastError();
          continue;
        }
        IRGL_CUDA_CHECK(status);
        float ms = 0;
        IRGL_CUDA_CHECK(cudaEventElapsedTime(&ms, trial_events_[t][0], trial_events_[t][1]));
        path_choice_.time(t, ms);
      }
    return path_choice_.next(trial);
  }
  void begin_trial(int trial, cudaStream_t stream) {
    // All at the first trial: creating one takes longer than a small launch.
    if (!trial_events_[0][0])
      for (auto& events : trial_events_)
        for (cudaEvent_t& event : events) IRGL_CUDA_CHECK(cudaEventCreate(&event));
    IRGL_CUDA_CHECK(cudaEventRecord(trial_events_[trial][0], stream));
  }
  void end_trial(int trial, cudaStream_t stream) {
    IRGL_CUDA_CHECK(cudaEventRecord(trial_events_[trial][1], stream));
  }
  const PathChoice& path_choice() const { return path_choice_; }

  // A cooperative kernel's GridRound for `blocks` blocks.
  GridRound grid_round(unsigned blocks) {
    if (blocks > block_sums_.size()) block_sums_ = DeviceBuffer<uint64_t>(blocks);
    GridRound grid;
    grid.block_sums = block_sums_.data();
    return grid;
  }

  LoadRecorder& recorder() { return recorder_; }

 private:
  std::vector<std::pair<const void*, unsigned>> grids_;
  uint64_t capacity_ = 0;
  DeviceBuffer<VertexId> vertices_;
  DeviceBuffer<typename Body::Closure> closures_;
  DeviceBuffer<uint64_t> begins_, degrees_, offsets_;
  DeviceBuffer<uint8_t> active_;
  DeviceBuffer<typename Body::Accum> accums_;
  DeviceBuffer<unsigned long long> count_;
  PinnedBuffer<unsigned long long> host_count_;
  DeviceBuffer<uint8_t> scan_scratch_;
  struct RowTileCut {
    const void* layout = nullptr;
    uint64_t rows = 0, edges = 0, units = 0;
    bool operator==(const RowTileCut& other) const {
      return layout == other.layout && rows == other.rows && edges == other.edges &&
             units == other.units;
    }
  };
  DeviceBuffer<uint32_t> first_rows_;
  RowTileCut cut_;
  PathChoice path_choice_;
  cudaEvent_t trial_events_[PathChoice::kTrials][2] = {};  // per trial: start, stop
  DeviceBuffer<uint64_t> block_sums_;
  LoadRecorder recorder_;
  unsigned sm_count_ = 0;
};

// The State a policy's dispatch keeps per launch site: every built-in
// policy shares State; a user-defined one may name its own
// (`template <class Body, class Counters> using State = ...`).
template <class Policy, class Body, class Counters = NoLoadCounters, class = void>
struct StateOfPolicy {
  using type = State<Body, Counters>;
};
template <class Policy, class Body, class Counters>
struct StateOfPolicy<Policy, Body, Counters,
                     std::void_t<typename Policy::template State<Body, Counters>>> {
  using type = typename Policy::template State<Body, Counters>;
};
template <class Policy, class Body, class Counters = NoLoadCounters>
using StateOf = typename StateOfPolicy<Policy, Body, Counters>::type;

#if defined(__CUDACC__)
// Launches agent_kernel<Agent> (agent.cuh) with `args` on the state's grid
// for it; with LoadCounters, records them under `phase`. Every schedule's
// dispatch ends here, a user's own too (docs/schedules.md).
template <class Agent, class StateT, class... Args>
void launch_agent(StateT& state, const RunOptions& options, const char* phase,
                  const typename Agent::Body& body, Args... args) {
  const auto kernel = agent_kernel<Agent, Args...>;
  constexpr unsigned threads = Agent::kBlockThreads;
  const unsigned blocks = state.grid(kernel, threads);
  if constexpr (std::is_same_v<typename Agent::Counters, LoadCounters>) {
    LoadCounters counters = state.recorder().begin(blocks, options.stream);
    kernel<<<blocks, threads, 0, options.stream>>>(body, counters, args...);
    IRGL_CUDA_CHECK_LAUNCH();
    state.recorder().end(options.load_log, options.kernel_name, phase, options.stream);
  } else {
    kernel<<<blocks, threads, 0, options.stream>>>(body, NoLoadCounters{}, args...);
    IRGL_CUDA_CHECK_LAUNCH();
  }
}

#endif

namespace detail {

#if defined(__CUDACC__)
// Launches a helper kernel (no Body, no counters) on the state's grid for it.
template <class StateT, class Kernel, class... Args>
void launch_plain(StateT& state, const RunOptions& options, Kernel kernel, unsigned threads,
                  Args... args) {
  kernel<<<state.grid(kernel, threads), threads, 0, options.stream>>>(args...);
  IRGL_CUDA_CHECK_LAUNCH();
}
#endif

// The host's count of frontier items, reading the device when it must.
template <class Frontier>
uint64_t frontier_size(const Frontier& frontier, cudaStream_t stream) {
  if (frontier.host_size() != kUnknownSize) return frontier.host_size();
  if constexpr (std::is_same_v<Frontier, WorklistItems>) {
    QueueCounters counters;
    IRGL_CUDA_CHECK(cudaMemcpyAsync(&counters, frontier.queue.counters, sizeof counters,
                                    cudaMemcpyDeviceToHost, stream));
    IRGL_CUDA_CHECK(cudaStreamSynchronize(stream));
    return QueueStatus::of(counters, frontier.queue.capacity).size;
  }
  return 0;
}

}  // namespace detail

}  // namespace irgl::gpu::schedule
