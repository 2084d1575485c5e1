// Iteration outlining: all rounds of a pipe loop
//
//   while (!pipe.empty()) { kernel(g, pipe.in(), pipe.out()); pipe.swap(); }
//
// in ONE kernel launch instead of a launch (plus a host round trip to read
// the pipe's size) per round. The persistent kernel runs on a grid that is
// resident as a whole (cooperative launch; its size: grid.cuh,
// pipe_loop_grid) and separates rounds, and the phases of a schedule
// within a round, by grid-wide barriers. Everything
// the host used to decide between launches is decided on the device:
//   - the loop's exit (the input queue is empty, or a push overflowed),
//   - the pipe's swap (queue views rotate with the round number),
//   - ALB's huge-vertex phase: the inspection's count, a grid-wide prefix
//     sum of the huge vertices' degrees and the cyclic distribution of their
//     edges over the whole grid,
//   - LB's and merge-path's gather and prefix sum, in chunks of a fixed
//     number of items.
//
//   struct MyRounds {                       // one per loop (irglc writes it)
//     MyBody body;  GridItems<MyBody> items;
//     static constexpr bool kRunsAlb = true;  // a step runs ALB: two kernels (below)
//     bool alb_inspects() const { return items.alb_inspects; }
//     template <int B, class Grid> __device__ void round(const Grid& grid,
//                                                        SparseQueueView in, SparseQueueView out) {
//       body.frontier = in; body.next = out;
//       InGrid<Alb<B>>::run(grid, body, WorklistItems{in}, items);
//     }
//   };
//   static PerDevice<OutlinedLoop<256, MyRounds>> loops;  // per GPU (per_device.h)
//   auto& loop = loops.current();
//   MyRounds rounds{body, InGrid<Alb<256>>::items(body, state, options, loop.shape(pipe))};
//   uint64_t done = loop.run(rounds, pipe, OutlineMode::persistent);
//
// A loop with an ALB step gets its persistent kernel built twice: with ALB's
// inspection and huge-vertex phase, and without them (TWC's code, registers
// and occupancy). The host launches the lean one when no step can find a
// huge vertex (the graph's maximum degree is within the threshold: roads,
// grids), so that ALB costs nothing over TWC there. A loop with an auto
// step (auto.cuh) gets one more kernel per schedule of kInKernelPicks, and
// the host launches the one its graph picks.
//
// OutlineMode::graph runs the same device code one round per launch, from a
// CUDA graph whose conditional while-node repeats the round kernel until
// the kernel clears the condition: launches without the host, for
// comparison (docs/experiments/2026-11-21-throughput-h200.md). Conditional nodes need CUDA 12.4 or
// newer, which the runtime therefore requires.
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "irgl/gpu/check.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/device_info.h"
#include "irgl/gpu/schedule/options.h"
#include "irgl/gpu/schedule/schedules.cuh"
#include "irgl/gpu/schedule/shared_placement.cuh"
#include "irgl/gpu/worklist/conversions.cuh"
#include "irgl/gpu/worklist/pipe.cuh"

namespace irgl::gpu::schedule {

// The GridRound a persistent kernel passes to its rounds: whether it was
// built with ALB's inspection, and the schedule of its auto steps, are part
// of the type, so that InGrid<Alb> compiles to plain TWC in the lean kernel
// and InGrid<Auto> to one schedule.
template <bool AlbInspects, AutoPick Pick = AutoPick::alb, size_t AlbScratchBytes = 0>
struct PersistentGridRound : GridRound {
  static constexpr bool kAlbInspects = AlbInspects;
  static constexpr AutoPick kAutoPick = Pick;
  static constexpr size_t kAlbScratchBytes = AlbScratchBytes;
};

// The shared memory a Rounds or Loop type's ALB steps share
// (`static constexpr size_t kAlbScratchBytes`, the largest any needs);
// optional, 0 without.
template <class Steps, class = void>
struct StepsAlbScratch : std::integral_constant<size_t, 0> {};
template <class Steps>
struct StepsAlbScratch<Steps, std::void_t<decltype(Steps::kAlbScratchBytes)>>
    : std::integral_constant<size_t, Steps::kAlbScratchBytes> {};

// Whether a Rounds type has auto steps (`static constexpr bool kRunsAuto`,
// with `AutoPick auto_pick() const`); optional.
template <class Rounds, class = void>
struct RoundsRunAuto : std::false_type {};
template <class Rounds>
struct RoundsRunAuto<Rounds, std::enable_if_t<Rounds::kRunsAuto>> : std::true_type {};

// The control block of a running outlined loop, in device memory. Round r
// reads queue r % 3 and pushes to queue (r + 1) % 3, and clears queue
// (r + 2) % 3 for round r + 1 to push to: three counters make the swap free
// of an extra barrier (nobody reads or writes queue (r + 2) % 3 in round r).
struct OutlineControl {
  QueueCounters queues[3];
  unsigned long long rounds;            // rounds done
  unsigned long long one_block_rounds;  // of those, the rounds a one-block kernel ran
};

// The pipe as a persistent kernel sees it.
struct OutlinedPipe {
  VertexId* items[2] = {nullptr, nullptr};  // the pipe's input and output at the start
  uint64_t capacity = 0;
  OutlineControl* control = nullptr;
  uint64_t* block_sums = nullptr;
  // A heavy input ends the kernel (left to the host): more items than
  // heavy_items and the edges heavy_edges asks for (edges 0: items alone).
  uint64_t heavy_items = ~uint64_t{0};
  InputEdgesCheck heavy_edges;
  InputEdgesCheck dense;  // so does an input whose output pays as a bitmap
  // An input of at most light_items items ends it too (a small graph's loop
  // goes back to one block, OutlinedLoop::run).
  uint64_t light_items = 0;

#if defined(__CUDACC__)
  __device__ SparseQueueView queue(uint64_t round) const {
    // A select, not items[round & 1]: a dynamic index would put the array in local memory.
    return {round & 1 ? items[1] : items[0], capacity, &control->queues[round % 3]};
  }
  // Whether round `round` runs in the kernel: its input holds more than
  // light_items items, is not heavy and has fewer edges than `dense` asks
  // for, and the round before it did not overflow its output.
  // Block-collective (the edge checks); the counters are the same in every
  // thread, so are the branches.
  template <int BlockThreads>
  __device__ bool runs_here(uint64_t round) const {
    const QueueCounters& in = control->queues[round % 3];
    if (in.pushed <= light_items || in.overflow != 0) return false;
    if (in.pushed > heavy_items &&
        (heavy_edges.edges == 0 ||
         heavy_edges.template reached<BlockThreads>(queue(round), in.pushed)))
      return false;
    return !dense.template reached<BlockThreads>(queue(round), in.pushed);
  }
#endif
};

#if defined(__CUDACC__)
// Runs up to max_rounds rounds of `rounds` from round `round`, with a grid
// barrier after each, while rounds run here (runs_here); `round` ends at
// the first round not run. Returns whether that one would run here.
template <int BlockThreads, class Rounds, class Grid>
__device__ bool run_rounds(Rounds& rounds, const Grid& grid, const OutlinedPipe& pipe,
                           uint64_t max_rounds, uint64_t& round) {
  bool next_here = pipe.template runs_here<BlockThreads>(round);
  for (uint64_t done = 0; done < max_rounds && next_here; ++done) {
    if (global_thread() == 0) pipe.control->queues[(round + 2) % 3] = QueueCounters{0, 0, 0};
    rounds.template round<BlockThreads>(grid, pipe.queue(round), pipe.queue(round + 1));
    grid.sync();
    next_here = pipe.template runs_here<BlockThreads>(++round);
  }
  return next_here;
}

// Runs up to max_rounds rounds of `rounds`, from round control->rounds
// (run_rounds). With `signal`, sets the CUDA graph's condition to whether
// the next one runs here. AlbInspects, Pick: the kernel's build
// (PersistentGridRound).
template <int BlockThreads, class Rounds, bool AlbInspects, AutoPick Pick = AutoPick::alb>
__global__ void __launch_bounds__(BlockThreads)
    outlined_pipe_kernel(Rounds rounds, OutlinedPipe pipe, uint64_t max_rounds, bool signal,
                         cudaGraphConditionalHandle condition) {
  PersistentGridRound<AlbInspects, Pick, StepsAlbScratch<Rounds>::value> grid;
  grid.block_sums = pipe.block_sums;
  uint64_t round = pipe.control->rounds;
  const bool next_here = run_rounds<BlockThreads>(rounds, grid, pipe, max_rounds, round);
  grid.sync();  // every thread has read control->rounds
  if (global_thread() == 0) {
    pipe.control->rounds = round;
    if (signal) cudaGraphSetConditional(condition, next_here ? 1u : 0u);
  }
}
#endif

// Whether a Rounds or Loop type names what its steps touch (`place`,
// shared_placement.cuh), so that a small graph's loop can run on one block
// with those arrays in shared memory.
template <class Steps, class = void>
struct StepsPlaceShared : std::false_type {};
template <class Steps>
struct StepsPlaceShared<Steps, std::void_t<decltype(std::declval<Steps&>().place(
                                   std::declval<SharedPlacement&>()))>> : std::true_type {};

// The build of a loop's one-block kernel: auto steps run a thread per item
// there (a warp per vertex would leave one block's passes to its 8 warps;
// with the arrays in global memory, merging a round's edges over the
// block's threads lost to it on every road cell, up to 1.5x,
// docs/experiments/2026-11-30-one-block-global.md), or a warp per vertex
// in a pipe loop's rounds where their graph picks it (StepsPickOnOneBlock);
// other steps keep their schedule.
template <class Steps>
inline constexpr AutoPick kOneBlockPick =
    RoundsRunAuto<Steps>::value ? AutoPick::thread : AutoPick::alb;

// Whether a Rounds type's auto steps name the schedule their graph picks
// for rounds on one block (`AutoPick one_block_pick() const`: thread or
// warp, auto_pick.h: one_block_round_pick); optional: a thread per item.
template <class Steps, class = void>
struct StepsPickOnOneBlock : std::false_type {};
template <class Steps>
struct StepsPickOnOneBlock<
    Steps, std::void_t<decltype(std::declval<const Steps&>().one_block_pick())>>
    : std::true_type {};

// Where a loop on one block keeps things in its shared memory: the control
// block, the pipe's two queues, then the arrays its steps touch.
struct SharedLoopLayout {
  uint64_t capacity = 0;  // items of each queue
  IRGL_HD uint64_t control_bytes() const { return SharedPlacement::aligned(sizeof(OutlineControl)); }
  IRGL_HD uint64_t queue_bytes() const { return SharedPlacement::aligned(capacity * sizeof(VertexId)); }
  IRGL_HD uint64_t arrays_offset() const { return control_bytes() + 2 * queue_bytes(); }
};

#if defined(__CUDACC__)
// The rounds of a loop on one block, from round 0 (the pipe's input, whose
// counters are `input`, is queue 0) while they run here
// (OutlinedPipe::runs_here: the pipe is not empty, no push overflowed, an
// input has at most heavy_items items). The control block lives in shared
// memory; with `place_arrays` (a small graph's loop) so do the pipe's
// queues and the arrays `rounds.place()` names, copied in before the first
// round and back after the last (nothing is copied when round 0 does not
// run here); without it they stay in global memory, where a light round's
// chains of accesses still cost a block barrier instead of a grid's.
// The rounds run between block barriers (run_rounds on a grid of one block).
template <int BlockThreads, class Rounds, AutoPick Pick>
__global__ void __launch_bounds__(BlockThreads)
    outlined_pipe_shared_kernel(Rounds rounds, OutlinedPipe pipe, const QueueCounters* input,
                                bool place_arrays) {
  extern __shared__ __align__(16) char shared[];
  const SharedLoopLayout layout{place_arrays ? pipe.capacity : 0};
  OutlinedPipe local = pipe;
  local.control = reinterpret_cast<OutlineControl*>(shared);
  if (place_arrays) {
    local.items[0] = reinterpret_cast<VertexId*>(shared + layout.control_bytes());
    local.items[1] = reinterpret_cast<VertexId*>(shared + layout.control_bytes() + layout.queue_bytes());
  }
  if (threadIdx.x == 0) {
    *local.control = OutlineControl{};
    local.control->queues[0] = *input;
  }
  __syncthreads();
  if (!local.template runs_here<BlockThreads>(0)) {
    if (threadIdx.x == 0) *pipe.control = *local.control;
    return;
  }
  SharedPlacement placement(shared + layout.arrays_offset());
  if (place_arrays) {
    const uint64_t first = min(uint64_t(input->pushed), pipe.capacity);
    SharedPlacement::copy_block(local.items[0], pipe.items[0], first * sizeof(VertexId));
    rounds.place(placement);
  }
  __syncthreads();

  PersistentGridRound<false, Pick, StepsAlbScratch<Rounds>::value> grid;  // one block
  grid.block_sums = pipe.block_sums;
  uint64_t round = local.control->rounds;
  run_rounds<BlockThreads>(rounds, grid, local, ~uint64_t{0}, round);
  __syncthreads();  // every thread has read the control block
  if (place_arrays) {
    placement.write_back();
    // A heavy input stops the rounds: the grid's kernel takes it from the pipe.
    const uint64_t left = min(uint64_t(local.control->queues[round % 3].pushed), pipe.capacity);
    SharedPlacement::copy_block(pipe.queue(round).items, local.queue(round).items,
                                left * sizeof(VertexId));
  }
  if (threadIdx.x == 0) {
    local.control->rounds = round;
    local.control->one_block_rounds = round;
    *pipe.control = *local.control;
  }
}
#endif

// The most dynamic shared memory a one-block kernel can take, granted to
// it (runtime/src/gpu/schedule/outline.cu).
uint64_t grant_dynamic_shared_memory(const void* kernel);

// Whether a loop runs on one block, and the shared memory that takes: the
// host side of OutlinedLoop and OutlinedIterations. A small graph's loop
// runs there with its arrays in shared memory; a larger graph's pipe loop
// runs its light rounds there with them in global memory.
template <int BlockThreads>
class OneBlockLoops {
 public:
  // A vertex of more edges keeps the loop on the grid: auto's steps run a
  // thread per item on one block (on a sparse graph), and a thread walking
  // a hub's edges cost more than the grid's rounds (H200: sssp on RMAT 8, largest degree
  // 836, 0.27 ms against 0.13; cc 0.27 against 0.09), where roads, grids
  // and small graphs of at most 32 gain up to 2.9x
  // (docs/experiments/2026-11-30-one-block-iterations.md).
  static constexpr uint64_t kMaxDegree = 32;

  // A pass over up to `items_per_thread` items a thread runs on one block
  // in shared memory, and over up to `global_items_per_thread` with the
  // arrays in global memory (0: never).
  explicit OneBlockLoops(uint64_t items_per_thread, uint64_t global_items_per_thread = 0)
      : items_per_thread_(items_per_thread), global_items_per_thread_(global_items_per_thread) {}

  // Whether a loop may run there (the default: automatic).
  void set_mode(SharedLoops mode) { mode_ = mode; }

  // The most items a pass may take there, in shared memory and in global
  // memory; a set `items` replaces both (--one-block-items, tests).
  uint64_t items() const { return items_.value_or(items_per_thread_ * BlockThreads); }
  uint64_t global_items() const { return items_.value_or(global_items_per_thread_ * BlockThreads); }
  void set_items(std::optional<uint64_t> items) { items_ = items; }

  // The dynamic shared memory the one-block kernel (Kernels::shared(),
  // each of its builds granted the most there is) needs for `fixed` bytes
  // of its own and the arrays `steps.place()` names, or 0 when the loop
  // cannot run there (runs_on_one_block), or they do not fit.
  template <class Kernels, class Steps>
  uint64_t bytes(const Steps& steps, uint64_t fixed) {
    if constexpr (!StepsPlaceShared<Steps>::value) {
      return 0;
    } else {
      const std::optional<SharedPlacement> plan = placement_of(steps);
      if (!plan) return 0;
      if (limit_ == 0) limit_ = Kernels::grant_shared();
      const uint64_t total = fixed + plan->bytes();
      return total <= limit_ ? total : 0;
    }
  }

  // Whether a loop of `steps` may run passes on one block at all, its
  // arrays in global memory when they do not fit in shared memory: not
  // when one-block loops are off, the steps name no arrays or more than
  // SharedPlacement::kMaxArrays, or a graph has a vertex of more than
  // kMaxDegree edges.
  template <class Steps>
  bool runs_on_one_block(const Steps& steps) const {
    return placement_of(steps).has_value();
  }

 private:
  // The arrays `steps` would place, sized; none when runs_on_one_block is not.
  template <class Steps>
  std::optional<SharedPlacement> placement_of(const Steps& steps) const {
    if constexpr (!StepsPlaceShared<Steps>::value) {
      return std::nullopt;
    } else {
      if (mode_ == SharedLoops::off) return std::nullopt;
      Steps sizing = steps;
      SharedPlacement plan;
      sizing.place(plan);
      if (plan.overflowed() || plan.largest_degree() > kMaxDegree) return std::nullopt;
      return plan;
    }
  }

  uint64_t items_per_thread_;
  uint64_t global_items_per_thread_;
  SharedLoops mode_ = SharedLoops::automatic;
  std::optional<uint64_t> items_;
  uint64_t limit_ = 0;  // asked once
};

// The rounds an outlined loop leaves to the host under --outline=auto
// (OutlinedLoop::run); without `run`, every round runs on the device.
struct HostRounds {
  // Runs one round with a launch per kernel; returns the size of the input
  // it processed (0: the pipe was empty).
  std::function<uint64_t()> run;
  // A heavy round (heavy_round.h): more items than heavy_items (0: the
  // line on this GPU's SMs for an unknown graph), and at least
  // heavy_edges.edges edges of the graph the loop walks (0: by its items
  // alone).
  uint64_t heavy_items = 0;
  InputEdgesCheck heavy_edges;
  // An input with this many edges goes to the host for a bitmap output.
  InputEdgesCheck dense;
};

namespace detail {
// A CUDA graph whose conditional while-node repeats one cooperative kernel
// while the condition holds (runtime/src/gpu/schedule/outline.cu).
struct RoundGraph {
  cudaGraph_t graph = nullptr;
  cudaGraphNode_t round = nullptr;  // the kernel node, in the loop's body graph
  cudaGraphExec_t exec = nullptr;

  // Builds it for `kernel`, whose last parameter is the condition's handle:
  // `condition_slot` receives the handle before `args` are copied.
  void build(const void* kernel, unsigned blocks, unsigned threads, void** args,
             cudaGraphConditionalHandle* condition_slot);
  // New arguments for the kernel node without rebuilding; false when the
  // driver refuses (then rebuild).
  bool update(const void* kernel, unsigned blocks, unsigned threads, void** args);
  void destroy();  // errors ignored: may run at exit
};
}  // namespace detail

// The builds of one persistent kernel for `Steps` (a pipe loop's rounds, a
// loop's iterations): with ALB's inspection or without it (when a step
// runs ALB: `static constexpr bool kRunsAlb`, `bool alb_inspects() const`),
// and one per schedule an auto step may pick in the kernel (RoundsRunAuto).
// Kernels::template of<Inspects, Pick>() names a build's __global__.
template <int BlockThreads, class Steps, class Kernels>
class PersistentBuilds {
 public:
  // Which build runs: ALB's inspection in or out, and the auto steps' pick.
  struct Variant {
    bool inspects = false;
    AutoPick pick = AutoPick::alb;
  };

  // The build `steps` need: without ALB's inspection unless a step of them
  // can find a huge vertex, and for the schedule their auto steps picked.
  static Variant variant_of(const Steps& steps) {
    Variant variant;
    if constexpr (Steps::kRunsAlb) variant.inspects = steps.alb_inspects();
    if constexpr (kRunsAuto) variant.pick = steps.auto_pick();
    return variant;
  }
  // The build whose threads fix ALB's threshold (the inspecting one).
  static Variant inspecting() { return {Steps::kRunsAlb, AutoPick::alb}; }

  static const void* kernel(const Variant& variant) {
    if constexpr (kRunsAuto) {
      constexpr size_t kPicks = sizeof(kInKernelPicks) / sizeof(kInKernelPicks[0]);
      if (const void* found = auto_kernel(variant.pick, std::make_index_sequence<kPicks>()))
        return found;
    }
    if constexpr (Steps::kRunsAlb)
      if (variant.inspects) return Kernels::template of<true, AutoPick::alb>();
    return Kernels::template of<false, AutoPick::alb>();
  }

  // The blocks of the build that are resident at once (queried once).
  unsigned resident_blocks(const Variant& variant) {
    // 0, 1: ALB's lean and inspecting builds; 2 + pick: an auto pick's.
    const unsigned slot =
        variant.pick == AutoPick::alb ? unsigned(variant.inspects) : 2 + unsigned(variant.pick);
    unsigned& blocks = blocks_[slot];
    if (blocks == 0) blocks = resident_grid(kernel(variant), BlockThreads);
    return blocks;
  }

  // The GPU's SMs (asked once), which the grid and heavy lines scale with.
  unsigned sm_count() {
    if (sm_count_ == 0) sm_count_ = unsigned(query_device().sm_count);
    return sm_count_;
  }

 private:
  static constexpr bool kRunsAuto = RoundsRunAuto<Steps>::value;

  // The build of an in-kernel auto pick other than ALB, or null.
  template <size_t... I>
  static const void* auto_kernel(AutoPick pick, std::index_sequence<I...>) {
    const void* found = nullptr;
    ((found = (pick == kInKernelPicks[I] && kInKernelPicks[I] != AutoPick::alb)
                  ? Kernels::template of<false, kInKernelPicks[I]>()
                  : found),
     ...);
    return found;
  }

  unsigned blocks_[2 + kAutoPicks] = {};
  unsigned sm_count_ = 0;
};

// The builds of outlined_pipe_kernel for one Rounds type, and of its
// one-block form in shared memory.
template <int BlockThreads, class Rounds>
struct PipeRoundKernels {
  template <bool Inspects, AutoPick Pick>
  static const void* of() {
    return reinterpret_cast<const void*>(
        outlined_pipe_kernel<BlockThreads, Rounds, Inspects, Pick>);
  }
  // The one-block build `rounds` run: a warp per vertex where their auto
  // steps' graph picks it, else kOneBlockPick's.
  static const void* shared(const Rounds& rounds) {
    if constexpr (kPicksOnOneBlock)
      if (rounds.one_block_pick() == AutoPick::warp) return shared_build<AutoPick::warp>();
    return shared_build<kOneBlockPick<Rounds>>();
  }
  // Grants every one-block build the most dynamic shared memory there is;
  // returns the least any got.
  static uint64_t grant_shared() {
    uint64_t granted = grant_dynamic_shared_memory(shared_build<kOneBlockPick<Rounds>>());
    if constexpr (kPicksOnOneBlock)
      granted = std::min(granted, grant_dynamic_shared_memory(shared_build<AutoPick::warp>()));
    return granted;
  }

 private:
  static constexpr bool kPicksOnOneBlock =
      RoundsRunAuto<Rounds>::value && StepsPickOnOneBlock<Rounds>::value;
  template <AutoPick Pick>
  static const void* shared_build() {
    return reinterpret_cast<const void*>(outlined_pipe_shared_kernel<BlockThreads, Rounds, Pick>);
  }
};


// The host side of one outlined loop (a static per loop in generated code).
// Rounds: round<B>(grid, in, out) on the device (as in the file's comment),
// `static constexpr bool kRunsAlb`, and with it `bool alb_inspects() const`;
// optionally `kRunsAuto` and `auto_pick()` (RoundsRunAuto).
template <int BlockThreads, class Rounds>
class OutlinedLoop {
  using Builds = PersistentBuilds<BlockThreads, Rounds, PipeRoundKernels<BlockThreads, Rounds>>;
  using Variant = typename Builds::Variant;

 public:
  OutlinedLoop() = default;
  OutlinedLoop(const OutlinedLoop&) = delete;
  OutlinedLoop& operator=(const OutlinedLoop&) = delete;
  ~OutlinedLoop() { graph_.destroy(); }

  // The persistent kernel's grid (resident, and no more blocks than `grid`
  // allows), its threads and the pipe's capacity, for the policies'
  // InGrid<...>::items(). The threads are those of the kernel that
  // inspects, when the loop runs ALB: its threshold is a property of that
  // grid.
  OutlineShape shape(const Pipe& pipe, const OutlineGrid& grid = {}) {
    grid_ = grid;
    OutlineShape shape;
    shape.grid_threads = threads(Builds::inspecting());
    shape.pipe_capacity = pipe.capacity();
    shape.chunk_items = std::max<uint64_t>(shape.grid_threads * 16, 1u << 20);
    if (shape.chunk_items > pipe.capacity()) shape.chunk_items = pipe.capacity();
    return shape;
  }

  // Runs rounds until the pipe's input is empty; returns the number of
  // rounds the device ran. With OutlineMode::automatic and a `host.run`,
  // two kinds of round go back to the host: a heavy one (more items than
  // heavy_items() and the edges `host.heavy_edges` asks for), and one whose
  // input has the edges `host.dense` asks for (the host's pipe writes its
  // output as a bitmap, which removes the duplicates a queue would carry).
  // host.run() runs one round with per-round launches and returns the size
  // of the input it processed (0: the pipe was empty); once a round had at
  // most half of heavy_items(), the rounds return to the device. The pipe
  // is empty after. Throws std::runtime_error when a round pushed more than
  // a queue holds (as Pipe's size check does). Each device phase ends with
  // one copy and one stream synchronization.
  //
  // Light rounds run on one block (OneBlockLoops), outside OutlineMode::graph:
  // a small graph's loop with its arrays and queues in shared memory, where
  // no round goes to the host; another graph's with them in global memory
  // (rounds of at most OneBlockLoops::global_items()). A larger round moves
  // to the grid's kernel, which hands the rounds back once an input holds
  // at most a quarter of what one block takes (each change costs a launch
  // and a copy).
  uint64_t run(const Rounds& rounds, Pipe& pipe, OutlineMode mode, const HostRounds& host = {}) {
    const Variant variant = Builds::variant_of(rounds);
    shared_rounds_ = 0;
    Phase one_block, grid;
    one_block.shared = mode == OutlineMode::graph ? 0 : shared_bytes(rounds, pipe);
    if (one_block.shared) {
      one_block.heavy_items = one_block_.items();
      one_block.place_arrays = true;
    } else {
      if (mode == OutlineMode::automatic && host.run) {
        grid.heavy_items = heavy_items(variant, host);
        grid.heavy_edges = host.heavy_edges;
        grid.dense = host.dense;
      }
      if (mode != OutlineMode::graph && one_block_.global_items() != 0 &&
          one_block_.runs_on_one_block(rounds)) {
        one_block.heavy_items = one_block_.global_items();
        one_block.shared = SharedLoopLayout{0}.arrays_offset();
      }
    }
    if (one_block.shared) grid.light_items = one_block.heavy_items / 4;
    // With the arrays in global memory, the grid's kernel follows the
    // one-block kernel at once, from the round it stopped at (or at round
    // 0, when the first input is heavy: kcore's seed), saving the host's
    // look in between; on a small graph, whose loop one block usually
    // finishes, it waits for the look.
    const Phase* follow = one_block.shared && !one_block.place_arrays ? &grid : nullptr;
    const Phase* phase = one_block.shared ? &one_block : &grid;
    uint64_t device_rounds = 0;
    for (;;) {
      const OutlineControl& control =
          run_on_device(rounds, variant, pipe, mode, *phase, phase == &one_block ? follow : nullptr);
      device_rounds += control.rounds;
      shared_rounds_ += control.one_block_rounds;
      if (finished(control, pipe)) return device_rounds;
      const uint64_t next = control.queues[control.rounds % 3].pushed;
      if (next <= grid.light_items) {
        phase = &one_block;
        continue;
      }
      if (phase == &one_block && !follow) {
        phase = &grid;
        continue;
      }
      // A heavy input: the host takes the pipe as the device left it.
      for (;;) {
        const uint64_t size = host.run();
        if (size == 0) return device_rounds;
        if (size <= grid.heavy_items / 2) break;
      }
      phase = &grid;
    }
  }

  // Sets the size above which OutlineMode::automatic leaves a round to the
  // host (0: the default, heavy_items()). For tests.
  void set_heavy_items(uint64_t items) { heavy_items_ = items; }

  // Whether run() may put light rounds on one block (the default:
  // automatic); the rounds the last run ran there, and whether it ran any.
  void set_shared_loops(SharedLoops shared) { one_block_.set_mode(shared); }
  uint64_t shared_rounds() const { return shared_rounds_; }
  bool ran_shared() const { return shared_rounds_ != 0; }

  // The most items a round's input may hold to run on one block (the
  // default: OneBlockLoops::items(), or global_items() for a graph whose
  // arrays do not fit in shared memory; --one-block-items, tests).
  void set_one_block_items(std::optional<uint64_t> items) { one_block_.set_items(items); }

  // The dynamic shared memory the one-block kernel needs for `rounds` over
  // `pipe` (OneBlockLoops::bytes; the queues and control block too), or 0.
  uint64_t shared_bytes(const Rounds& rounds, const Pipe& pipe) {
    return one_block_.template bytes<Kernels>(rounds,
                                              SharedLoopLayout{pipe.capacity()}.arrays_offset());
  }

  // The size above which a round may be heavy: host.heavy_items (0: the
  // default line on this GPU), but at least the persistent grid's threads.
  uint64_t heavy_items(const Variant& variant, const HostRounds& host) {
    if (heavy_items_) return heavy_items_;
    if (host.heavy_items) return std::max(threads(variant), host.heavy_items);
    return std::max(threads(variant), heavy_round_line(GraphShape{}, builds_.sm_count()).items);
  }

  // The persistent kernel run() launches for `rounds`: built without ALB's
  // inspection unless a step of the rounds can find a huge vertex, and for
  // the schedule its auto steps picked.
  static const void* kernel_for(const Rounds& rounds) {
    return Builds::kernel(Builds::variant_of(rounds));
  }

 private:
  // Where a device phase stops (OutlinedPipe::runs_here, besides an empty
  // or overflowed pipe), and which kernel runs it.
  struct Phase {
    uint64_t heavy_items = ~uint64_t{0};  // with heavy_edges
    InputEdgesCheck heavy_edges;
    InputEdgesCheck dense;
    uint64_t light_items = 0;
    uint64_t shared = 0;  // the one-block kernel's shared memory; 0: the grid's kernel
    bool place_arrays = false;  // the one-block kernel's arrays and queues in shared memory
  };

  // Whether the loop is over after a device phase (its input empty: the
  // pipe is emptied); else the pipe takes the state the phase left.
  // Throws std::runtime_error when a round overflowed its output.
  bool finished(const OutlineControl& control, Pipe& pipe) {
    const QueueCounters& next = control.queues[control.rounds % 3];
    if (next.overflow) throw std::runtime_error(overflow_message(next.pushed, pipe.capacity()));
    if (next.pushed == 0) {
      pipe.clear();
      return true;
    }
    pipe.resume(control.rounds % 2 == 1, &control_.data()->queues[control.rounds % 3]);
    return false;
  }

  uint64_t threads(const Variant& variant) { return uint64_t(blocks(variant)) * BlockThreads; }
  unsigned blocks(const Variant& variant) {
    return grid_.blocks(builds_.resident_blocks(variant), BlockThreads);
  }

  // Device rounds from the pipe's input until it is empty or `phase` stops
  // them, then, with `then`, on until that phase stops them too (the grid's
  // kernel after the one-block kernel); returns the control block, copied
  // to the host.
  const OutlineControl& run_on_device(const Rounds& rounds, const Variant& variant, Pipe& pipe,
                                      OutlineMode mode, const Phase& phase, const Phase* then) {
    cudaStream_t stream = pipe.stream();
    prepare(variant);
    if (phase.shared) {
      launch_shared(rounds, view_of(pipe, phase), pipe.in().counters, phase, stream);
    } else {
      IRGL_CUDA_CHECK(cudaMemsetAsync(control_.data(), 0, sizeof(OutlineControl), stream));
      IRGL_CUDA_CHECK(cudaMemcpyAsync(&control_.data()->queues[0], pipe.in().counters,
                                      sizeof(QueueCounters), cudaMemcpyDeviceToDevice, stream));
      launch_grid(rounds, variant, view_of(pipe, phase), mode, stream);
    }
    if (then) launch_grid(rounds, variant, view_of(pipe, *then), mode, stream);
    return read_control(stream);
  }

  // The pipe as the kernels of `phase` see it, from the round of its input.
  OutlinedPipe view_of(Pipe& pipe, const Phase& phase) {
    OutlinedPipe view;
    view.items[0] = pipe.in().items;
    view.items[1] = pipe.out().items;
    view.capacity = pipe.capacity();
    view.control = control_.data();
    view.block_sums = block_sums_.data();
    view.heavy_items = phase.heavy_items;
    view.heavy_edges = phase.heavy_edges;
    view.dense = phase.dense;
    view.light_items = phase.light_items;
    return view;
  }

  // The grid's kernel (or its CUDA graph), from the round in the control
  // block.
  void launch_grid(const Rounds& rounds, const Variant& variant, const OutlinedPipe& view,
                   OutlineMode mode, cudaStream_t stream) {
    if (mode == OutlineMode::graph) {
      launch_graph(variant, rounds, view, stream);
      return;
    }
    uint64_t max_rounds = ~uint64_t{0};
    bool signal = false;
    cudaGraphConditionalHandle condition = 0;
    Rounds rounds_arg = rounds;
    OutlinedPipe view_arg = view;
    void* args[] = {&rounds_arg, &view_arg, &max_rounds, &signal, &condition};
    IRGL_CUDA_CHECK(cudaLaunchCooperativeKernel(Builds::kernel(variant), blocks(variant), BlockThreads,
                                                args, 0, stream));
    IRGL_CUDA_CHECK_LAUNCH();
  }

  // The control block the device phase left, on the host.
  const OutlineControl& read_control(cudaStream_t stream) {
    IRGL_CUDA_CHECK(cudaMemcpyAsync(host_control_.data(), control_.data(), sizeof(OutlineControl),
                                    cudaMemcpyDeviceToHost, stream));
    IRGL_CUDA_CHECK(cudaStreamSynchronize(stream));
    return host_control_[0];
  }

  // The control block, and a block sum per block of the kernel that runs.
  void prepare(const Variant& variant) {
    if (control_.empty()) {
      control_ = DeviceBuffer<OutlineControl>(1);
      host_control_ = PinnedBuffer<OutlineControl>(1);
    }
    const unsigned blocks = std::max(this->blocks(variant), this->blocks(Builds::inspecting()));
    if (block_sums_.size() < blocks) block_sums_ = DeviceBuffer<uint64_t>(blocks);
  }

  // The graph is built once and its kernel node gets this run's kernel and
  // arguments in place (one cheap driver call; rebuilt if the driver refuses).
  void launch_graph(const Variant& variant, const Rounds& rounds, const OutlinedPipe& view,
                    cudaStream_t stream) {
    graph_rounds_ = rounds;
    graph_view_ = view;
    void* args[] = {&graph_rounds_, &graph_view_, &graph_max_rounds_, &graph_signal_,
                    &graph_condition_};
    const unsigned blocks = this->blocks(variant);
    if (!graph_.exec || !graph_.update(Builds::kernel(variant), blocks, BlockThreads, args)) {
      graph_.destroy();
      graph_.build(Builds::kernel(variant), blocks, BlockThreads, args, &graph_condition_);
    }
    IRGL_CUDA_CHECK(cudaGraphLaunch(graph_.exec, stream));
  }

  // The one-block kernel of `phase`, on phase.shared bytes of dynamic
  // shared memory; it sets up the control block itself, from the pipe's
  // `input` counters.
  void launch_shared(const Rounds& rounds, const OutlinedPipe& view, const QueueCounters* input,
                     const Phase& phase, cudaStream_t stream) {
    if constexpr (StepsPlaceShared<Rounds>::value) {
      Rounds rounds_arg = rounds;
      OutlinedPipe view_arg = view;
      bool place_arrays = phase.place_arrays;
      void* args[] = {&rounds_arg, &view_arg, &input, &place_arrays};
      IRGL_CUDA_CHECK(cudaLaunchKernel(Kernels::shared(rounds), 1, BlockThreads, args,
                                       size_t(phase.shared), stream));
      IRGL_CUDA_CHECK_LAUNCH();
    }
  }

  using Kernels = PipeRoundKernels<BlockThreads, Rounds>;
  Builds builds_;
  OutlineGrid grid_;
  // A round of up to 16 items a thread runs on one block: a pass over a
  // block's worth of items costs about a microsecond there, the grid's
  // round three to four whatever its size, and a change of phase about ten
  // (cc's label propagation on minnesota, whose first round holds all
  // 2,642 vertices, ran faster on one block than with rounds above 1,024
  // items on the grid, docs/experiments/2026-11-30-smem-probe.md). With
  // the arrays in global memory a round's chains wait on the L2 there too,
  // and one item a thread (256) is the line: bfs, sssp, cc and kcore on
  // four roads and a grid 0.66-1.02x the grid's time (kcore on usroads
  // 1.2x, 20 us), while 512 took usroads' bfs to 1.6x and 1,024 lost most
  // cells (docs/experiments/2026-11-30-one-block-global.md).
  OneBlockLoops<BlockThreads> one_block_{16, 1};
  uint64_t shared_rounds_ = 0;
  uint64_t heavy_items_ = 0;
  DeviceBuffer<OutlineControl> control_;
  PinnedBuffer<OutlineControl> host_control_;
  DeviceBuffer<uint64_t> block_sums_;
  detail::RoundGraph graph_;
  Rounds graph_rounds_{};
  OutlinedPipe graph_view_;
  uint64_t graph_max_rounds_ = 1;
  bool graph_signal_ = true;
  cudaGraphConditionalHandle graph_condition_ = 0;
};

//===----------------------------------------------------------------------===//
// Outlined iterations: a loop of kernels over all vertices
//
//   for (int i = 0; i < max; ++i) {
//     dangling = 0; change = 0; spread(g);
//     const float base = f(dangling.value()); gather(g, base);
//     if (change.value() < tolerance) break;
//   }
//
// (PageRank; a do-while over a reduction alike) in one cooperative kernel.
// irglc writes the loop into `Loop::run<B>(grid)`, the driver's own text
// with its variables as members of Loop and its reductions as
// ReductionValue (lang/cuda.cuh), and a grid barrier wherever a thread
// could otherwise see a reduction reset, combined or read out of order.
// On a small graph an iteration then costs a few barriers instead of
// launches and host round trips (pr on a road graph of 2,600 vertices
// took 50 us an iteration, almost all of it launches and reduction
// reads). The grid has no more blocks than the loop's vertices need (a
// thread per vertex, a block per SM at least: grid.cuh, iterations_grid),
// so that a small graph's barriers span few blocks. Unlike a pipe loop's
// heavy rounds, no iteration goes back to the host under
// OutlineMode::automatic: a pass over all vertices runs as fast inside the
// kernel (ALB's row tiles included), within 3% on RMAT 20 and 22 and 1.4x
// faster on the 4096^2 grid (pr, H200; docs/throughput.md).
//===----------------------------------------------------------------------===//

#if defined(__CUDACC__)
template <int BlockThreads, class Loop, bool AlbInspects, AutoPick Pick = AutoPick::alb>
__global__ void __launch_bounds__(BlockThreads)
    outlined_iterations_kernel(Loop loop, uint64_t* block_sums) {
  PersistentGridRound<AlbInspects, Pick, StepsAlbScratch<Loop>::value> grid;
  grid.block_sums = block_sums;
  loop.template run<BlockThreads>(grid);
}
#endif

#if defined(__CUDACC__)
// A small graph's loop of iterations on one block: the arrays (and
// reductions) `loop.place()` names are copied into shared memory, the
// iterations run between block barriers (a grid of one block), and the
// written ones go back at the end.
template <int BlockThreads, class Loop, AutoPick Pick>
__global__ void __launch_bounds__(BlockThreads)
    outlined_iterations_shared_kernel(Loop loop, uint64_t* block_sums) {
  extern __shared__ __align__(16) char shared[];
  SharedPlacement placement(shared);
  loop.place(placement);
  __syncthreads();
  PersistentGridRound<false, Pick, StepsAlbScratch<Loop>::value> grid;  // one block
  grid.block_sums = block_sums;
  loop.template run<BlockThreads>(grid);
  __syncthreads();  // the last iteration's writes
  placement.write_back();
}
#endif

template <int BlockThreads, class Loop>
struct IterationKernels {
  template <bool Inspects, AutoPick Pick>
  static const void* of() {
    return reinterpret_cast<const void*>(
        outlined_iterations_kernel<BlockThreads, Loop, Inspects, Pick>);
  }
  // Passes over all vertices keep a thread per vertex on one block, whatever
  // the graph's degrees (pr on polbooks, mean 8.4, H200: 0.099 ms against
  // 0.245 with a warp per vertex).
  static const void* shared() {
    return reinterpret_cast<const void*>(
        outlined_iterations_shared_kernel<BlockThreads, Loop, kOneBlockPick<Loop>>);
  }
  static uint64_t grant_shared() { return grant_dynamic_shared_memory(shared()); }
};

// The host side of one outlined loop of iterations (a static per loop, per
// GPU, in generated code). Loop: run<B>(grid) on the device, kRunsAlb and
// alb_inspects(), optionally kRunsAuto and auto_pick() (PersistentBuilds),
// and place() (StepsPlaceShared) for a small graph's loop on one block.
template <int BlockThreads, class Loop>
class OutlinedIterations {
  using Kernels = IterationKernels<BlockThreads, Loop>;
  using Builds = PersistentBuilds<BlockThreads, Loop, Kernels>;
  using Variant = typename Builds::Variant;

 public:
  // The persistent grid for passes over `vertices` vertices, for the
  // policies' InGrid<...>::items(): resident, and sized by iterations_grid,
  // or the `requested` blocks (0: none).
  OutlineShape shape(uint64_t vertices, unsigned requested = 0) {
    vertices_ = vertices;
    grid_ = iterations_grid(vertices, builds_.sm_count(), requested);
    OutlineShape shape;
    shape.grid_threads = uint64_t(blocks(Builds::inspecting())) * BlockThreads;
    shape.pipe_capacity = vertices;  // ALB sets aside at most every vertex; row tiles cut them
    shape.place = LoopPlace::all_nodes;
    shape.chunk_items = std::min<uint64_t>(std::max<uint64_t>(shape.grid_threads * 16, 1u << 20),
                                           std::max<uint64_t>(vertices, 1));
    return shape;
  }

  // Runs the loop in one launch on `stream` (shape() first): on one block
  // in shared memory when the graph has at most OneBlockLoops::items()
  // vertices and the arrays fit there, else cooperatively on the grid.
  // Returns at once: the driver's next read of a reduction or output
  // waits for it.
  void run(const Loop& loop, cudaStream_t stream) {
    const Variant variant = Builds::variant_of(loop);
    const unsigned blocks = std::max(this->blocks(variant), this->blocks(Builds::inspecting()));
    if (block_sums_.size() < blocks) block_sums_ = DeviceBuffer<uint64_t>(blocks);
    Loop loop_arg = loop;
    uint64_t* block_sums = block_sums_.data();
    void* args[] = {&loop_arg, &block_sums};
    const uint64_t shared =
        vertices_ <= one_block_.items() ? one_block_.template bytes<Kernels>(loop, 0) : 0;
    ran_shared_ = shared != 0;
    if constexpr (StepsPlaceShared<Loop>::value)
      if (ran_shared_) {
        IRGL_CUDA_CHECK(cudaLaunchKernel(Kernels::shared(), 1, BlockThreads, args, size_t(shared), stream));
        IRGL_CUDA_CHECK_LAUNCH();
        return;
      }
    IRGL_CUDA_CHECK(cudaLaunchCooperativeKernel(Builds::kernel(variant), this->blocks(variant),
                                                BlockThreads, args, 0, stream));
    IRGL_CUDA_CHECK_LAUNCH();
  }

  // Whether run() may put a small graph's loop on one block in shared
  // memory (the default: automatic), and whether the last run did.
  void set_shared_loops(SharedLoops shared) { one_block_.set_mode(shared); }
  bool ran_shared() const { return ran_shared_; }
  // The most vertices a graph may have to run on one block (the default:
  // OneBlockLoops::items()). For tests.
  void set_one_block_items(std::optional<uint64_t> items) { one_block_.set_items(items); }

 private:
  unsigned blocks(const Variant& variant) {
    return grid_.blocks(builds_.resident_blocks(variant), BlockThreads);
  }

  Builds builds_;
  OutlineGrid grid_{1};
  uint64_t vertices_ = 0;
  // Graphs of up to 4 vertices a thread run on one block: every iteration
  // passes over all of them, and beyond that one block's passes lose to
  // the grid's (H200: pr on a 32 x 32 grid 0.199 ms against 0.285, on 45 x
  // 45 0.29 against 0.27, on minnesota's 2,642 vertices 0.465 against
  // 0.347; docs/experiments/2026-11-30-one-block-iterations.md).
  OneBlockLoops<BlockThreads> one_block_{4};
  bool ran_shared_ = false;
  DeviceBuffer<uint64_t> block_sums_;
};

}  // namespace irgl::gpu::schedule
