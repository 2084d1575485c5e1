// Load-balancing schedules: policies that run a Body (body.h) over a
// Frontier (frontier.cuh). Each policy is a type with a host-side run():
//
//   static schedule::State<MyBody> state;             // one per launch site
//   schedule::Twc<256>::run(body, schedule::AllNodes{n}, state, options);
//
// | policy                  | vertices to threads                                       |
// |-------------------------|-----------------------------------------------------------|
// | ThreadMapped<B>         | a vertex per thread, its edges sequentially               |
// | GroupMapped<B, G>       | a vertex per group of G threads (Warp<B>: G=32, Block<B>: G=B) |
// | Twc<B>                  | by degree: block (>= B edges), warp (>= 32), fine-grained |
// | Lb<B>                   | all edges spread evenly over the grid (binary search)     |
// | MergePath<B>            | equal shares of vertices + edges (2-D binary search)      |
// | Alb<B>                  | huge vertices (degree > threshold) as Lb, the rest Twc    |
//
// Kernels run on a grid that fills the GPU once (occupancy API, computed once
// per kernel). Buffers (per-item closures, prefix sums, CUB scratch) live in
// the State and only grow: no allocation and no full memset per round.
// Nothing synchronizes the device except reading ALB's huge-list size, and
// only on graphs where a vertex can be huge at all (max degree > threshold).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cub/device/device_scan.cuh>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "irgl/gpu/check.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/schedule/grid.cuh"
#include "irgl/gpu/schedule/kernels.cuh"
#include "irgl/gpu/schedule/load_log.h"
#include "irgl/gpu/schedule/path_choice.h"

namespace irgl::gpu::schedule {

// Blocks of `threads` threads of `kernel` resident on the whole GPU.
unsigned resident_grid(const void* kernel, unsigned threads);

// Writes `value` into a device counter, ordered on `stream` (no sync).
void store_count(unsigned long long* count, uint64_t value, cudaStream_t stream);

// ALB's path for loops over all vertices that accumulate over their edges
// (spmv, pull pagerank): row tiles (kernels.cuh: row_tiles) or TWC.
// `automatic` times each twice at the launch site and keeps the faster
// (path_choice.h): on an H100 row tiles took spmv and pr on the web graphs
// 1.5-2.6x faster than TWC, and were up to 1.37x slower on RMAT 22 and
// musae (docs/performance.md).
enum class RowTiles : uint8_t { automatic, on, off };

struct RunOptions {
  cudaStream_t stream = 0;
  // ALB: the degree above which a vertex is huge; by default the number of
  // threads the TWC kernel launches, capped in loops without accumulators
  // (index.h: alb_threshold).
  uint64_t alb_threshold = kAlbDefaultThreshold;
  Distribution alb_distribution = Distribution::cyclic;
  RowTiles alb_row_tiles = RowTiles::automatic;
  const char* kernel_name = "";  // for the load log (instrumented States)
};

// Run-time overrides of the ALB parameters compiled into the launch sites
// (the generated programs' --alb-threshold and --alb-distribution), so that
// one build can sweep them (tools/bench, the ALB threshold study).
struct AlbOverrides {
  std::optional<uint64_t> threshold;
  std::optional<Distribution> distribution;
  std::optional<RowTiles> row_tiles;  // --alb-rows on|off|auto
};
AlbOverrides& alb_overrides();

// A launch's ALB parameters: the run-time override, else the launch site's
// option; the default threshold is index.h's alb_threshold() (the threads
// the kernel launches, capped where the Body does not accumulate).
inline uint64_t alb_threshold_of(const RunOptions& options, uint64_t threads_launched,
                                 bool accumulates) {
  return alb_threshold(alb_overrides().threshold.value_or(options.alb_threshold),
                       threads_launched, accumulates);
}
inline Distribution alb_distribution_of(const RunOptions& options) {
  return alb_overrides().distribution.value_or(options.alb_distribution);
}
inline RowTiles alb_row_tiles_of(const RunOptions& options) {
  return alb_overrides().row_tiles.value_or(options.alb_row_tiles);
}

// Persistent per-launch-site state of the schedules for one Body type.
// Counters is NoLoadCounters, or LoadCounters to record per-block edge counts
// and per-path vertex counts of every launch in global_load_log().
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
  // stale one still holds at most units / kRowTileRowCost + 1 rows,
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
};

namespace detail {

// Launches kernel<<<grid, threads>>>(args..., counters); with LoadCounters,
// records them under `phase`.
template <class StateT, class Kernel, class... Args>
void launch(StateT& state, const RunOptions& options, const char* phase, Kernel kernel,
            unsigned threads, Args... args) {
  const unsigned blocks = state.grid(kernel, threads);
  if constexpr (std::is_same_v<typename StateT::Counters, LoadCounters>) {
    LoadCounters counters = state.recorder().begin(blocks, options.stream);
    kernel<<<blocks, threads, 0, options.stream>>>(args..., counters);
    IRGL_CUDA_CHECK_LAUNCH();
    state.recorder().end(options.kernel_name, phase, options.stream);
  } else {
    kernel<<<blocks, threads, 0, options.stream>>>(args..., NoLoadCounters{});
    IRGL_CUDA_CHECK_LAUNCH();
  }
}

// Launches a kernel without load counters on the state's grid for it.
template <class StateT, class Kernel, class... Args>
void launch_plain(StateT& state, const RunOptions& options, Kernel kernel, unsigned threads,
                  Args... args) {
  kernel<<<state.grid(kernel, threads), threads, 0, options.stream>>>(args...);
  IRGL_CUDA_CHECK_LAUNCH();
}

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

// The edge-balanced part shared by Lb, MergePath and Alb: scan the items'
// degrees, spread their edges over the grid, then run post().
template <int B, class Body, class Counters>
void run_items(const Body& body, ItemArrays<Body> items, uint64_t count,
               State<Body, Counters>& state, const RunOptions& options, bool merge_path,
               Distribution distribution, const char* phase) {
  state.prefix_sum(items, count, options.stream);
  if (merge_path)
    launch(state, options, phase, merge_path_kernel<B, Body, Counters>, B, body, items);
  else if (distribution == Distribution::cyclic)
    launch(state, options, phase, edge_balanced_kernel<B, Distribution::cyclic, Body, Counters>, B,
           body, items);
  else
    launch(state, options, phase, edge_balanced_kernel<B, Distribution::blocked, Body, Counters>, B,
           body, items);
  if (Body::kHasPost || Body::kHasAccum)
    launch_plain(state, options, post_kernel<B, Body>, B, body, items);
}

}  // namespace detail

template <int B>
struct ThreadMapped {
  template <class Body, class Frontier, class Counters>
  static void run(const Body& body, const Frontier& frontier, State<Body, Counters>& state,
                  const RunOptions& options = {}) {
    detail::launch(state, options, "thread", thread_mapped_kernel<B, Body, Frontier, Counters>, B,
                   body, frontier);
  }
};

// The policies below distribute edges; a loop nest without an edge loop
// has nothing to distribute and runs thread-mapped. Each derives from this
// and defines run_edges() with run()'s parameters.
template <int B, class Policy>
struct EdgePolicy {
  template <class Body, class Frontier, class Counters>
  static void run(const Body& body, const Frontier& frontier, State<Body, Counters>& state,
                  const RunOptions& options = {}) {
    if constexpr (Body::kHasEdges) Policy::run_edges(body, frontier, state, options);
    else ThreadMapped<B>::run(body, frontier, state, options);
  }
};

template <int B, int G>
struct GroupMapped : EdgePolicy<B, GroupMapped<B, G>> {
  template <class Body, class Frontier, class Counters>
  static void run_edges(const Body& body, const Frontier& frontier, State<Body, Counters>& state,
                        const RunOptions& options) {
    if constexpr (G <= 32)
      detail::launch(state, options, "group", group_mapped_kernel<B, G, Body, Frontier, Counters>,
                     B, body, frontier);
    else
      detail::launch(state, options, "group", block_group_kernel<B, G, Body, Frontier, Counters>,
                     B, body, frontier);
  }
};
template <int B>
using Warp = GroupMapped<B, 32>;
template <int B>
using Block = GroupMapped<B, B>;

template <int B>
struct Twc : EdgePolicy<B, Twc<B>> {
  template <class Body, class Frontier, class Counters>
  static void run_edges(const Body& body, const Frontier& frontier, State<Body, Counters>& state,
                        const RunOptions& options) {
    detail::launch(state, options, "twc", twc_kernel<B, Body, Frontier, NoHugeList, Counters>, B,
                   body, frontier, NoHugeList{});
  }
};

// The edge-balanced schedules need the frontier's size on the host (known
// for topology-driven loops and for a pipe's input right after empty()).
template <int B, bool UseMergePath, Distribution Dist>
struct EdgeBalanced : EdgePolicy<B, EdgeBalanced<B, UseMergePath, Dist>> {
  template <class Body, class Frontier, class Counters>
  static void run_edges(const Body& body, const Frontier& frontier, State<Body, Counters>& state,
                        const RunOptions& options) {
    const uint64_t count = detail::frontier_size(frontier, options.stream);
    if (count == 0) return;
    ItemArrays<Body> items = state.items(count);
    store_count(state.count(), count, options.stream);
    detail::launch(state, options, "gather", gather_kernel<B, Body, Frontier, Counters>, B, body,
                   frontier, items);
    detail::run_items<B>(body, items, count, state, options, UseMergePath, Dist,
                         UseMergePath ? "merge-path" : "edges");
  }
};
template <int B>
using Lb = EdgeBalanced<B, false, Distribution::cyclic>;
template <int B>
using MergePath = EdgeBalanced<B, true, Distribution::cyclic>;

// ALB (paper 001): TWC whose inspection sets aside vertices of degree above
// the threshold; when any were set aside, their edges are spread over the
// whole grid (cyclic by default) and their post() runs after. On request
// (RunOptions::alb_row_tiles), a loop over all vertices that accumulates
// over their edges runs row tiles instead of TWC (kernels.cuh: row_tiles).
template <int B>
struct Alb : EdgePolicy<B, Alb<B>> {
  template <class Body, class Frontier, class Counters>
  static void run_edges(const Body& body, const Frontier& frontier, State<Body, Counters>& state,
                        const RunOptions& options) {
    if constexpr (std::is_same_v<Frontier, AllNodes> && Body::kHasAccum &&
                  HasContiguousEdges<Body>::value) {
      const RowTiles mode = alb_row_tiles_of(options);
      int trial = -1;  // automatic: path 1 is row tiles (State::alb_path)
      const bool rows =
          mode == RowTiles::automatic ? state.alb_path(&trial) == 1 : mode == RowTiles::on;
      if (trial >= 0) state.begin_trial(trial, options.stream);
      if (rows) run_row_tiles(body, frontier.count, state, options);
      else run_twc(body, frontier, state, options);
      if (trial >= 0) state.end_trial(trial, options.stream);
      return;
    }
    run_twc(body, frontier, state, options);
  }

 private:
  template <class Body, class Frontier, class Counters>
  static void run_twc(const Body& body, const Frontier& frontier, State<Body, Counters>& state,
                      const RunOptions& options) {
    const auto twc_inspecting = twc_kernel<B, Body, Frontier, HugeList<Body>, Counters>;
    const uint64_t threshold =
        alb_threshold_of(options, uint64_t(state.grid(twc_inspecting, B)) * B, Body::kHasAccum);
    if (!alb_inspects(body.max_degree(), threshold)) {  // no vertex can be huge: plain TWC
      Twc<B>::run(body, frontier, state, options);
      return;
    }
    const uint64_t capacity = detail::frontier_size(frontier, options.stream);
    if (capacity == 0) return;
    ItemArrays<Body> items = state.items(capacity);
    const HugeList<Body> huge = huge_list_over(items, threshold, state.count());
    state.clear_counters(options.stream);
    detail::launch(state, options, "twc", twc_inspecting, B, body, frontier, huge);
    run_huge_from_host(body, items, state, options);
  }

  // The vertices the last launch set aside, if any: the host reads their
  // number (a copy and a stream synchronization), then scans their degrees,
  // spreads their edges and runs their post().
  template <class Body, class Counters>
  static void run_huge_from_host(const Body& body, const ItemArrays<Body>& items,
                                 State<Body, Counters>& state, const RunOptions& options) {
    const uint64_t huge_count = state.read_count(options.stream);
    if (huge_count == 0) return;  // the huge-vertex kernel runs only when needed
    IRGL_CUDA_CHECK(cudaMemsetAsync(items.active, 1, huge_count, options.stream));
    detail::run_items<B>(body, items, huge_count, state, options, false,
                         alb_distribution_of(options), "huge");
  }

  // Row tiles over all `rows` vertices. Rows longer than the threshold go
  // to the huge list, whose edges one cooperative kernel spreads over the
  // grid after reading the list's size on the device: no host
  // synchronization. (An instrumented State reads it on the host instead,
  // to record the huge phase as its own launches.)
  template <class Body, class Counters>
  static void run_row_tiles(const Body& body, uint32_t rows, State<Body, Counters>& state,
                            const RunOptions& options) {
    if (rows == 0) return;
    const auto tiles_setting_aside = row_tiles_kernel<B, Body, HugeList<Body>, Counters>;
    const unsigned blocks = state.grid(tiles_setting_aside, B);
    const uint64_t edges = body.edge_count();
    const uint64_t units = row_tile_units_for(rows, edges, kRowTileRowCost, blocks, 2 * B,
                                              row_tile_units<B, Body>());
    const uint64_t tiles = row_tile_count(rows, edges, units, kRowTileRowCost);
    const uint32_t* first_rows =
        state.first_rows(body.edge_layout(), rows, edges, units, tiles, [&](uint32_t* starts) {
          detail::launch_plain(state, options, row_tile_starts_kernel<B, Body>, B, body, rows,
                               uint32_t(units), tiles, starts);
        });
    const uint64_t threshold = alb_threshold_of(options, uint64_t(blocks) * B, true);
    if (!alb_inspects(body.max_degree(), threshold)) {  // no row is huge
      detail::launch(state, options, "rows", row_tiles_kernel<B, Body, NoHugeList, Counters>, B,
                     body, first_rows, tiles, NoHugeList{});
      return;
    }
    ItemArrays<Body> items = state.items(rows);
    state.clear_counters(options.stream);
    detail::launch(state, options, "rows", tiles_setting_aside, B, body, first_rows, tiles,
                   huge_list_over(items, threshold, state.count()));
    if constexpr (std::is_same_v<Counters, LoadCounters>) {
      run_huge_from_host(body, items, state, options);
    } else {
      const auto kernel = huge_items_kernel<B, Body>;
      const unsigned huge_blocks = state.grid(kernel, B);
      GridRound grid = state.grid_round(huge_blocks);
      Body body_arg = body;
      Distribution distribution = alb_distribution_of(options);
      void* args[] = {&body_arg, &items, &distribution, &grid};
      IRGL_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel),
                                                  huge_blocks, B, args, 0, options.stream));
      IRGL_CUDA_CHECK_LAUNCH();
    }
  }
};

}  // namespace irgl::gpu::schedule
