// ALB (paper 001): TWC (twc.cuh) whose inspection sets aside the vertices of
// degree above a threshold; when any were set aside, their edges are spread
// over the whole grid (edge_balanced.cuh, cyclic by default) and their
// post() runs after. Loops over all vertices that accumulate over their
// edges (spmv, pull pagerank) may run row tiles instead of TWC: rows and
// edges cut into tiles of equal cost (RowTilesAgent below); by default the
// launch site times both and keeps the faster (RowTiles::automatic).
//
//   Alb<B>::run(body, frontier, state, options)            kernel launches
//   InGrid<Alb<B>>::run(grid, body, frontier, items)       a persistent step
//
// The threshold resolves in one place, alb_threshold_of() in options.h.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cub/block/block_scan.cuh>
#include <optional>
#include <type_traits>

#include "irgl/gpu/schedule/edge_balanced.cuh"
#include "irgl/gpu/schedule/twc.cuh"

namespace irgl::gpu::schedule {

//===----------------------------------------------------------------------===//
// The huge list
//===----------------------------------------------------------------------===//

// ALB's huge-vertex worklist: vertices whose degree exceeds `threshold` are
// set aside with their closure (pre() already ran) for the edge-balanced
// phase, instead of going through TWC, and so are the block-bin vertices a
// block hands over once half of the grid is done (index.h: alb_hands_over).
// A vertex that finds the list full (`capacity` items) stays in TWC, whose
// block bin takes it: slower, never wrong. `count` counts attempts; the
// list holds min(count, capacity). count[1] counts the launch's blocks that
// finished their tiles: both start at 0 (the host clears two counters).
// Bodies with accumulators do not hand over: spread over the grid, each of
// a vertex's edges would end in an atomic on its accumulator, where the
// block bin reduces them in the block (spmv on RMAT 23 took 2.49 ms with
// the hand-over, 1.78 under TWC).
template <class Body>
struct HugeList {
  static constexpr bool kEnabled = true;
  static constexpr bool kHandsOver = !Body::kHasAccum;
  uint64_t threshold = 0;
  uint64_t capacity = 0;
  VertexId* vertices = nullptr;
  typename Body::Closure* closures = nullptr;
  uint64_t* degrees = nullptr;
  uint64_t* begins = nullptr;
  typename Body::Accum* accums = nullptr;
  unsigned long long* count = nullptr;

#if defined(__CUDACC__)
  __device__ unsigned long long* blocks_done() const { return count + 1; }
  // blocks_done's value, for alb_hands_over (a load that may be stale).
  __device__ unsigned long long read_blocks_done() const {
    return *static_cast<volatile unsigned long long*>(blocks_done());
  }

  // Sets v aside; false when the list is full.
  __device__ bool push(VertexId v, const typename Body::Closure& closure, uint64_t begin,
                       uint64_t degree) const {
    const unsigned long long slot = atomicAdd(count, 1ull);
    if (slot >= capacity) return false;
    vertices[slot] = v;
    closures[slot] = closure;
    begins[slot] = begin;
    degrees[slot] = degree;
    if constexpr (Body::kHasAccum) accums[slot] = Body::identity();
    return true;
  }
#endif
};

// ALB's huge list over `items`' arrays, counting in `count`.
template <class Body>
IRGL_HD HugeList<Body> huge_list_over(const ItemArrays<Body>& items, uint64_t threshold,
                                      unsigned long long* count) {
  HugeList<Body> huge;
  huge.threshold = threshold;
  huge.capacity = items.capacity;
  huge.vertices = items.vertices;
  huge.closures = items.closures;
  huge.begins = items.begins;
  huge.degrees = items.degrees;
  huge.accums = items.accums;
  huge.count = count;
  return huge;
}

#if defined(__CUDACC__)
// The huge list items[0, count) after the pass that filled it: marked
// active for the post phase (the list's push does not), their edges spread
// over the grid, then their post(). Every thread of the grid calls it with
// the same count; ends without a final barrier.
template <int B, class Body>
__device__ void huge_items_in_grid(GridScanStorage<B>& scan, const GridRound& grid, Body& body,
                                   const ItemArrays<Body>& items, uint64_t count,
                                   Distribution distribution) {
  if (count == 0) return;  // the same in every thread: a uniform branch
  if constexpr (Body::kHasPost || Body::kHasAccum)
    for (uint64_t i = global_thread(); i < count; i += grid_threads()) items.active[i] = 1;
  edge_balanced_in_grid<B>(scan, grid, body, items, count, false, distribution);
}

// The huge rows after the row tiles, the list's size read on the device:
// a cooperative launch (Alb::run_row_tiles).
template <int B, class Body, class Counters>
struct HugeItemsAgent : AgentBase<B, Body, Counters> {
  using TempStorage = GridScanStorage<B>;
  using Base = AgentBase<B, Body, Counters>;
  using Base::body;
  TempStorage& temp;

  __device__ HugeItemsAgent(TempStorage& temp, Body& body, Counters& counters)
      : Base{body, counters}, temp(temp) {}

  __device__ void run(const ItemArrays<Body>& items, Distribution distribution,
                      const GridRound& grid) {
    huge_items_in_grid<B>(temp, grid, body, items, items.stored(), distribution);
  }
};
#endif

//===----------------------------------------------------------------------===//
// Row tiles: topology-driven loops whose vertices accumulate over their
// edges (spmv, pull pagerank). The rows and their edges are cut into tiles
// of equal cost (a row AlbTuning::kRowTileRowCost units, an edge one), so
// every tile holds about as much work whatever the degrees; a tile runs
// pre() for its rows, splits their edges over the block's threads in equal
// contiguous shares (share_walk), reduces each row's partials in shared
// memory and runs post(). A row longer than ALB's threshold goes to the huge list and
// the whole grid, so a tile's work is its units plus at most one long row.
// TWC would give each warp a row at a time: web graphs cluster rows of
// 100-250 edges, and one warp walking 32 of them one after another set the
// kernel's time (cnr-2000 spmv: 0.13 ms against row tiles' 0.049 and
// cuSPARSE's 0.027).
//===----------------------------------------------------------------------===//

// Bodies whose vertex v has the edges [edges_begin(v), edges_end(v)) with
// edges_end(v) == edges_begin(v + 1) (CSR or CSC order, as irglc's bodies)
// declare `static constexpr bool kContiguousEdges = true`,
// `IRGL_HD uint64_t edge_count() const` (all vertices' edges)
// and `__host__ const void* edge_layout() const` (body.h); only they run
// row tiles, whose cut reads the rows' edge ends as one sorted sequence.
template <class Body, class = void>
struct HasContiguousEdges : std::false_type {};
template <class Body>
struct HasContiguousEdges<Body, std::enable_if_t<Body::kContiguousEdges>> : std::true_type {};

// Rows per thread of a row tile: up to 2, fewer where the closure and the
// accumulator would take the tile's shared memory past 24 KB. The walk's
// loads are not coalesced (share_walk): a thread's edges are re-read
// from L1 over several steps, and the L1 shares its storage with shared
// memory (RMAT 22 spmv on an H100: 1.56 ms with 4 rows per thread and
// 21.7 KB per block, 0.93 with 2 and 11 KB).
template <int BlockThreads, class Body>
constexpr uint32_t row_tile_rows_per_thread() {
  constexpr uint64_t row_bytes =
      12 + sizeof(typename Body::Closure) + sizeof(typename Body::Accum);
  constexpr uint64_t fit = (24 * 1024) / (row_bytes * BlockThreads);
  return fit >= 2 ? 2 : 1;
}
// A tile's largest number of units (row_tile_units_for picks fewer on small
// graphs): its rows then number at most rows_per_thread * B.
template <int BlockThreads, class Body, class Tuning>
constexpr uint32_t row_tile_units() {
  return Tuning::kRowTileRowCost *
         (BlockThreads * row_tile_rows_per_thread<BlockThreads, Body>() - 1);
}

#if defined(__CUDACC__)
// The end of each row's edges counted from row 0's first edge, as
// row_tile_first_row reads its `ends`.
template <class Body>
struct RowEnds {
  const Body* body;
  uint64_t base;
  __device__ uint64_t operator[](uint64_t row) const {
    return body->edges_end(static_cast<VertexId>(row)) - base;
  }
};

// The cut: first_rows[t] for t in [0, tiles], the first row of tile t
// (index.h: row_tile_first_row); first_rows[tiles] == rows. A thread per
// entry. Set-up, not a schedule phase: it runs no Body code.
template <int BlockThreads, class Body, class Tuning>
__global__ void __launch_bounds__(BlockThreads)
    row_tile_starts_kernel(Body body, uint32_t rows, uint32_t units, uint64_t tiles,
                           uint32_t* first_rows) {
  const RowEnds<Body> ends{&body, body.edges_begin(0)};
  for (uint64_t t = global_thread(); t <= tiles; t += grid_threads())
    first_rows[t] =
        static_cast<uint32_t>(row_tile_first_row(t, units, Tuning::kRowTileRowCost, ends, rows));
}
#endif

template <int B, class Body>
struct RowTilesStorage {
  static constexpr uint32_t kRowsPerThread = row_tile_rows_per_thread<B, Body>();
  static constexpr uint32_t kRows = B * kRowsPerThread;  // at most, per tile
  using BlockScan = cub::BlockScan<uint32_t, B>;
  typename BlockScan::TempStorage scan;
  // Per row of the tile: its first edge among the tile's packed edges (an
  // exclusive scan of the degrees of the rows that stay), its first edge id,
  // closure and accumulator. A tile's packed edges number fewer than its
  // units plus the edges of its first row: they fit 32 bits (rows of 2^32
  // edges less a tile would not).
  uint32_t packed_offset[kRows];
  uint64_t row_begin[kRows];
  typename Body::Closure row_closure[kRows];
  typename Body::Accum row_accum[Body::kHasAccum ? kRows : 1];
};

// The tiles [0, tiles) cut by first_rows, grid-strided over the blocks.
// Rows above huge.threshold edges go to the huge list (Huge: HugeList, or
// NoHugeList where no row can be that long). The rows of a tile are
// kRowsPerThread consecutive rows per thread (the scan's arrangement). Per
// tile: a barrier after the scan, one after the edges, one after post().
// Tuning: AlbTuning's members (index.h).
template <int B, class Body, class Counters, class Huge, class Tuning>
struct RowTilesAgent : AgentBase<B, Body, Counters> {
  using TempStorage = RowTilesStorage<B, Body>;
  using Base = AgentBase<B, Body, Counters>;
  using typename Base::Accum;
  using typename Base::Closure;
  using Base::body;
  using Base::counters;
  static constexpr uint32_t kRowsPerThread = TempStorage::kRowsPerThread;
  static constexpr uint32_t kEdgeIlp = Tuning::kRowTileEdgeIlp;

#if defined(__CUDACC__)
  TempStorage& temp;

  __device__ RowTilesAgent(TempStorage& temp, Body& body, Counters& counters)
      : Base{body, counters}, temp(temp) {}

  __device__ void run(const uint32_t* first_rows, uint64_t tiles, const Huge& huge) {
    for (uint64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
      const VertexId first = first_rows[tile];
      const uint32_t rows = first_rows[tile + 1] - first;
      bool stays[kRowsPerThread];  // pre() passed and the row was not set aside
      const uint32_t total = load_rows(first, rows, huge, stays);
      share_walk(first, rows, total);
      __syncthreads();  // post() comes after all of the rows' edges
      post_rows(first, stays);
      __syncthreads();  // the next tile rewrites the shared rows
    }
  }

 private:
  // pre() for this thread's rows of the tile, the huge ones set aside; the
  // others' first edges, closures and packed offsets into shared memory.
  // Returns the tile's packed edges; ends with a barrier.
  __device__ uint32_t load_rows(VertexId first, uint32_t rows, const Huge& huge,
                                bool (&stays)[kRowsPerThread]) {
    uint32_t degree[kRowsPerThread];
#pragma unroll
    for (uint32_t j = 0; j < kRowsPerThread; ++j) {
      const uint32_t i = threadIdx.x * kRowsPerThread + j;
      degree[j] = 0;
      stays[j] = false;
      Closure closure{};
      if (i >= rows || !body.pre(first + i, closure)) continue;
      const uint64_t begin = body.edges_begin(first + i), edges = body.edges_end(first + i) - begin;
      if constexpr (Huge::kEnabled) {
        if (alb_is_huge(edges, huge.threshold) && huge.push(first + i, closure, begin, edges)) {
          counters.vertex(LoadPath::huge);
          continue;
        }
      }
      stays[j] = true;
      degree[j] = static_cast<uint32_t>(edges);
      temp.row_begin[i] = begin;
      temp.row_closure[i] = closure;
      if constexpr (Body::kHasAccum) temp.row_accum[i] = Body::identity();
    }
    uint32_t total = 0;
    typename TempStorage::BlockScan(temp.scan).ExclusiveSum(degree, degree, total);
#pragma unroll
    for (uint32_t j = 0; j < kRowsPerThread; ++j)
      if (threadIdx.x * kRowsPerThread + j < rows)
        temp.packed_offset[threadIdx.x * kRowsPerThread + j] = degree[j];
    __syncthreads();
    return total;
  }

  __device__ uint32_t packed_end(uint32_t rows, uint32_t total, uint32_t row) const {
    return row + 1 < rows ? temp.packed_offset[row + 1] : total;
  }
  // The row holding packed edge k, past `row` (which held an earlier one).
  __device__ uint32_t row_after(uint32_t rows, uint32_t total, uint32_t row, uint32_t k) const {
    if (row + 1 < rows && packed_end(rows, total, row + 1) > k) return row + 1;  // the usual case
    return static_cast<uint32_t>(owning_tile(temp.packed_offset, rows, k));  // past empty rows
  }

  // Thread t of the block walks the tile's packed edges
  // [t total / B, (t + 1) total / B) in order, summing a row's edges in a
  // register (CUB's merge-based SpMV without its staging): a row it holds
  // whole is stored to the row's accumulator, one it shares with a
  // neighbouring thread (at most its first and its last) is combined by a
  // shared atomic. A row costs a store, an edge no search and no shuffle.
  // (Lanes on consecutive edges instead coalesce the loads but pay a search
  // and a warp-wide combine whenever a lane changes rows: every step on rows
  // of ~10 edges.) A step takes kEdgeIlp edges, whose edge() calls
  // start from identity() and run back to back before they are folded in
  // order: one edge at a time, each step waited for its loads.
  __device__ void share_walk(VertexId first, uint32_t rows, uint32_t total) {
    const uint32_t share_begin = uint32_t(uint64_t(total) * threadIdx.x / B);
    const uint32_t share_end = uint32_t(uint64_t(total) * (threadIdx.x + 1) / B);
    if (share_begin >= share_end) return;
    // `row` is the row `partial` sums; `cursor` the row of the last edge taken.
    uint32_t row = static_cast<uint32_t>(owning_tile(temp.packed_offset, rows, share_begin));
    uint32_t cursor = row, cursor_end = packed_end(rows, total, row);
    bool starts_here = temp.packed_offset[row] == share_begin;
    Accum partial = Body::identity();
    auto finish_row = [&](bool ends_here) {
      if constexpr (Body::kHasAccum) {
        if (starts_here && ends_here) temp.row_accum[row] = partial;
        else Body::atomic_combine(&temp.row_accum[row], partial);
        partial = Body::identity();
      }
    };
    auto step = [&](uint32_t k, auto full) {  // the share's edges [k, k + kEdgeIlp)
      uint32_t edge_row[kEdgeIlp];
      Accum edge_accum[kEdgeIlp];
#pragma unroll
      for (uint32_t j = 0; j < kEdgeIlp; ++j) {
        if ((full || k + j < share_end) && k + j >= cursor_end) {
          cursor = row_after(rows, total, cursor, k + j);
          cursor_end = packed_end(rows, total, cursor);
        }
        edge_row[j] = cursor;
      }
#pragma unroll
      for (uint32_t j = 0; j < kEdgeIlp; ++j) {
        edge_accum[j] = Body::identity();
        if (!full && k + j >= share_end) continue;
        const uint32_t r = edge_row[j];
        body.edge(first + r, temp.row_begin[r] + (k + j - temp.packed_offset[r]),
                  temp.row_closure[r], edge_accum[j]);
        counters.edges(1);
      }
#pragma unroll
      for (uint32_t j = 0; j < kEdgeIlp; ++j) {
        if (!full && k + j >= share_end) continue;
        if (edge_row[j] != row) {  // row ended inside the share
          finish_row(true);
          row = edge_row[j];
          starts_here = true;
        }
        Body::combine(partial, edge_accum[j]);
      }
    };
    uint32_t k = share_begin;
    for (; k + kEdgeIlp <= share_end; k += kEdgeIlp) step(k, std::true_type{});
    if (k < share_end) step(k, std::false_type{});
    finish_row(cursor_end <= share_end);  // row == cursor now
  }

  // post() for this thread's rows that stayed.
  __device__ void post_rows(VertexId first, const bool (&stays)[kRowsPerThread]) {
#pragma unroll
    for (uint32_t j = 0; j < kRowsPerThread; ++j) {
      if (!stays[j]) continue;
      const uint32_t i = threadIdx.x * kRowsPerThread + j;
      counters.vertex(LoadPath::row);
      body.post(first + i, temp.row_closure[i],
                Body::kHasAccum ? temp.row_accum[i] : Body::identity());
    }
  }
#endif
};

// TWC whose inspection sets the vertices above ALB's threshold aside into
// `Aside`, the list set_aside(threshold, items) makes over ALB's item
// arrays (HugeList here, dp's ChildGrids); plain TWC when no vertex can
// reach the threshold. Returns the arrays when the inspecting launch ran.
template <int B, uint64_t kThresholdCap, class Aside, class Body, class Frontier, class StateT,
          class SetAside>
std::optional<ItemArrays<Body>> run_twc_setting_aside(const char* name, const Body& body,
                                                      const Frontier& frontier, StateT& state,
                                                      const RunOptions& options,
                                                      const SetAside& set_aside) {
  using Inspecting = TwcAgent<B, Body, typename StateT::Counters, Aside>;
  const auto inspecting_kernel = agent_kernel<Inspecting, Frontier, Aside>;
  const uint64_t threshold = alb_threshold_of(
      options, uint64_t(state.grid(inspecting_kernel, B)) * B, Body::kHasAccum, kThresholdCap);
  if (!alb_inspects(body.max_degree(), threshold)) {  // no vertex can be huge: plain TWC
    Twc<B>::run(body, frontier, state, options);
    return std::nullopt;
  }
  const uint64_t capacity = detail::frontier_size(frontier, options.stream);
  if (capacity == 0) return std::nullopt;
  ItemArrays<Body> items = state.items(capacity);
  const Aside aside = set_aside(threshold, items);
  state.clear_counters(options.stream);
  launch_agent<Inspecting>(state, options, name, body, frontier, aside);
  return items;
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

// Tuning: AlbTuning's members (index.h).
template <int B, class Tuning = AlbTuning>
struct Alb : EdgePolicy<B, Alb<B, Tuning>> {
  template <class Body, class Frontier, class StateT>
  static void run_edges(const Body& body, const Frontier& frontier, StateT& state,
                        const RunOptions& options) {
    if constexpr (std::is_same_v<Frontier, AllNodes> && Body::kHasAccum &&
                  HasContiguousEdges<Body>::value) {
      // Row tiles cut the rows from vertex 0 (a part's masters start later).
      if (frontier.first != 0) return run_twc(body, frontier, state, options);
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
  template <class Body, class Frontier, class StateT>
  static void run_twc(const Body& body, const Frontier& frontier, StateT& state,
                      const RunOptions& options) {
    const auto set_aside = [&](uint64_t threshold, const ItemArrays<Body>& items) {
      return huge_list_over(items, threshold, state.count());
    };
    if (const auto items = run_twc_setting_aside<B, Tuning::kThresholdCap, HugeList<Body>>(
            "twc", body, frontier, state, options, set_aside))
      run_huge_from_host(body, *items, state, options);
  }

  // The vertices the last launch set aside, if any: the host reads their
  // number (a copy and a stream synchronization), then scans their degrees,
  // spreads their edges and runs their post().
  template <class Body, class StateT>
  static void run_huge_from_host(const Body& body, const ItemArrays<Body>& items, StateT& state,
                                 const RunOptions& options) {
    const uint64_t huge_count = state.read_count(options.stream);
    if (huge_count == 0) return;  // the huge-vertex kernel runs only when needed
    IRGL_CUDA_CHECK(cudaMemsetAsync(items.active, 1, huge_count, options.stream));
    detail::run_items<B>(body, items, huge_count, state, options, false,
                         alb_distribution_of(options), "huge");
  }

  // The row tiles' cut of `rows` rows for a grid of `blocks` blocks (made
  // once per graph and cut, kept in the State); sets `tiles`.
  template <class Body, class StateT>
  static const uint32_t* row_tile_cut(const Body& body, uint32_t rows, unsigned blocks,
                                      StateT& state, const RunOptions& options, uint64_t& tiles) {
    const uint64_t edges = body.edge_count();
    const uint64_t units = row_tile_units_for(rows, edges, Tuning::kRowTileRowCost, blocks,
                                              2 * B, row_tile_units<B, Body, Tuning>());
    tiles = row_tile_count(rows, edges, units, Tuning::kRowTileRowCost);
    return state.first_rows(body.edge_layout(), rows, edges, units, tiles, [&](uint32_t* starts) {
      detail::launch_plain(state, options, row_tile_starts_kernel<B, Body, Tuning>, B, body, rows,
                           uint32_t(units), tiles, starts);
    });
  }

  friend struct InGrid<Alb<B, Tuning>>;

  // Row tiles over all `rows` vertices. Rows longer than the threshold go
  // to the huge list, whose edges one cooperative kernel spreads over the
  // grid after reading the list's size on the device: no host
  // synchronization. (An instrumented State reads it on the host instead,
  // to record the huge phase as its own launches.)
  template <class Body, class StateT>
  static void run_row_tiles(const Body& body, uint32_t rows, StateT& state,
                            const RunOptions& options) {
    using Counters = typename StateT::Counters;
    using SettingAside = RowTilesAgent<B, Body, Counters, HugeList<Body>, Tuning>;
    if (rows == 0) return;
    const unsigned blocks =
        state.grid(agent_kernel<SettingAside, const uint32_t*, uint64_t, HugeList<Body>>, B);
    uint64_t tiles = 0;
    const uint32_t* first_rows = row_tile_cut(body, rows, blocks, state, options, tiles);
    const uint64_t threshold =
        alb_threshold_of(options, uint64_t(blocks) * B, true, Tuning::kThresholdCap);
    if (!alb_inspects(body.max_degree(), threshold)) {  // no row is huge
      launch_agent<RowTilesAgent<B, Body, Counters, NoHugeList, Tuning>>(
          state, options, "rows", body, first_rows, tiles, NoHugeList{});
      return;
    }
    ItemArrays<Body> items = state.items(rows);
    state.clear_counters(options.stream);
    launch_agent<SettingAside>(state, options, "rows", body, first_rows, tiles,
                               huge_list_over(items, threshold, state.count()));
    if constexpr (std::is_same_v<Counters, LoadCounters>) {
      run_huge_from_host(body, items, state, options);
    } else {
      using Agent = HugeItemsAgent<B, Body, NoLoadCounters>;
      const auto kernel = agent_kernel<Agent, ItemArrays<Body>, Distribution, GridRound>;
      const unsigned huge_blocks = state.grid(kernel, B);
      GridRound grid = state.grid_round(huge_blocks);
      Body body_arg = body;
      NoLoadCounters counters;
      Distribution distribution = alb_distribution_of(options);
      void* args[] = {&body_arg, &counters, &items, &distribution, &grid};
      IRGL_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel),
                                                  huge_blocks, B, args, 0, options.stream));
      IRGL_CUDA_CHECK_LAUNCH();
    }
  }
};

//===----------------------------------------------------------------------===//
// The persistent form
//===----------------------------------------------------------------------===//

// Passes over all vertices that accumulate may run row tiles in the kernel.
template <class Body, class Frontier>
inline constexpr bool kAlbGridRowTiles = std::is_same_v<Frontier, AllNodes> && Body::kHasAccum &&
                                         HasContiguousEdges<Body>::value;

// A block's shared memory for one ALB step of a persistent kernel: TWC's
// or the row tiles' storage, then (after a grid barrier) the huge
// vertices' scan. A Rounds or Loop struct declares the largest over its
// steps as kAlbScratchBytes, so that its steps (which run one after
// another, between grid barriers) share one buffer instead of adding up
// theirs: coloring's two row-tile steps and their TWC storage took 66 KB
// of the 48 KB a kernel's static shared memory may have.
template <int B, class Body, class Frontier>
constexpr size_t alb_grid_scratch_bytes() {
  size_t bytes = std::max(sizeof(TwcStorage<B, Body>), sizeof(GridScanStorage<B>));
  if constexpr (kAlbGridRowTiles<Body, Frontier>)
    bytes = std::max(bytes, sizeof(RowTilesStorage<B, Body>));
  return bytes;
}

// TWC with the inspection; when it set vertices aside, their edges are
// spread over the whole grid in the same launch. The huge list holds at most
// twice as many vertices as can be set aside at once (|E| over the threshold
// or, for hand-overs, over the block bin's smallest degree, plus room for
// duplicates in the worklist); vertices that find it full go through the
// TWC bin their degree selects.
template <int B, class Tuning>
struct InGrid<Alb<B, Tuning>> {
  template <class Body, class StateT>
  static GridItems<Body> items(const Body& body, StateT& state, const RunOptions& options,
                               const OutlineShape& shape) {
    GridItems<Body> grid_items;
    if constexpr (Body::kHasEdges) {
      grid_items.alb_threshold =
          alb_threshold_of(options, shape.grid_threads, Body::kHasAccum, Tuning::kThresholdCap);
      grid_items.alb_distribution = alb_distribution_of(options);
      grid_items.alb_inspects = alb_inspects(body.max_degree(), grid_items.alb_threshold);
      if (grid_items.alb_inspects) {
        // Threshold 0 makes every vertex huge: room for a whole queue.
        const uint64_t smallest_degree = std::min<uint64_t>(grid_items.alb_threshold, B);
        const uint64_t huge_at_once =
            smallest_degree == 0 ? shape.pipe_capacity : shape.pipe_capacity / smallest_degree + 1;
        grid_items.items = state.items(std::min(shape.pipe_capacity, 2 * huge_at_once + 1024));
        grid_items.counter = state.count();
        state.clear_counters(0);
      }
      if constexpr (Body::kHasAccum && HasContiguousEdges<Body>::value) {
        // A pass over all vertices runs row tiles unless the run says off:
        // the kernel cannot time both paths as a launch site does, and row
        // tiles lose little where TWC wins (RMAT: 1.17x on pr) and gain
        // much where they win (web graphs: 2.3-2.7x on pr, H200).
        if (shape.place == LoopPlace::all_nodes && alb_row_tiles_of(options) != RowTiles::off &&
            shape.pipe_capacity > 0) {
          const unsigned blocks = unsigned(shape.grid_threads / B);
          grid_items.row_tile_first_rows = Alb<B, Tuning>::row_tile_cut(
              body, uint32_t(shape.pipe_capacity), blocks, state, options, grid_items.row_tiles);
        }
      }
    }
    return grid_items;
  }

#if defined(__CUDACC__)
  // Grid: a GridRound; Grid::kAlbInspects false leaves only TWC's code.
  template <class Grid, class Body, class Frontier>
  __device__ static void run(const Grid& grid, Body& body, const Frontier& frontier,
                             const GridItems<Body>& grid_items) {
    constexpr size_t kOwn = alb_grid_scratch_bytes<B, Body, Frontier>();
    unsigned char* scratch =
        grid_scratch<(Grid::kAlbScratchBytes >= kOwn ? Grid::kAlbScratchBytes : kOwn)>();
    if constexpr (kAlbGridRowTiles<Body, Frontier>) {
      if (grid_items.row_tile_first_rows) {  // the same in every thread
        grid_step<B>(body, frontier, [&](NoLoadCounters& counters) {
          row_tiles_pass(grid, scratch, body, grid_items, counters);
        });
        return;
      }
    }
    auto& twc = *reinterpret_cast<TwcStorage<B, Body>*>(scratch);
    grid_step<B>(body, frontier, [&](NoLoadCounters& counters) {
      if constexpr (Grid::kAlbInspects) {
        if (grid_items.alb_inspects) {
          const HugeList<Body> huge =
              huge_list_over(grid_items.items, grid_items.alb_threshold, grid_items.counter);
          TwcAgent<B, Body, NoLoadCounters, HugeList<Body>>(twc, body, counters).run(frontier, huge);
          grid.sync();
          // Every block counted itself before the barrier and nobody reads it again this round.
          if (global_thread() == 0) *huge.blocks_done() = 0;
          spread_huge(grid, scratch, body, grid_items, huge);
          return;
        }
      }
      // No vertex can be huge: plain TWC.
      TwcAgent<B, Body, NoLoadCounters>(twc, body, counters).run(frontier, NoHugeList{});
    });
  }

 private:
  // One buffer per size in a kernel, whichever Body uses it.
  template <size_t Bytes>
  __device__ static unsigned char* grid_scratch() {
    __shared__ alignas(16) unsigned char scratch[Bytes];
    return scratch;
  }

  // After a barrier: the edges of the vertices set aside, spread over the
  // grid, and the list emptied for the next pass.
  template <class Body>
  __device__ static void spread_huge(const GridRound& grid, unsigned char* scratch, Body& body,
                                     const GridItems<Body>& grid_items,
                                     const HugeList<Body>& huge) {
    auto& scan = *reinterpret_cast<GridScanStorage<B>*>(scratch);
    const uint64_t count = min(uint64_t(*huge.count), grid_items.items.capacity);
    if (count == 0) return;  // the same value in every thread: a uniform branch
    huge_items_in_grid<B>(scan, grid, body, grid_items.items, count, grid_items.alb_distribution);
    // Every thread read the count before the scan's barrier.
    if (global_thread() == 0) *huge.count = 0;
  }

  // Row tiles over all vertices (RowTilesAgent, grid-strided over the
  // tiles); the rows above the threshold set aside and spread after a
  // barrier, as the standalone path's cooperative launch does.
  template <class Grid, class Body>
  __device__ static void row_tiles_pass(const Grid& grid, unsigned char* scratch, Body& body,
                                        const GridItems<Body>& grid_items,
                                        NoLoadCounters& counters) {
    auto& rows = *reinterpret_cast<RowTilesStorage<B, Body>*>(scratch);
    const uint32_t* first_rows = grid_items.row_tile_first_rows;
    if constexpr (Grid::kAlbInspects) {
      if (grid_items.alb_inspects) {
        const HugeList<Body> huge =
            huge_list_over(grid_items.items, grid_items.alb_threshold, grid_items.counter);
        RowTilesAgent<B, Body, NoLoadCounters, HugeList<Body>, Tuning>(rows, body, counters)
            .run(first_rows, grid_items.row_tiles, huge);
        grid.sync();
        spread_huge(grid, scratch, body, grid_items, huge);
        return;
      }
    }
    RowTilesAgent<B, Body, NoLoadCounters, NoHugeList, Tuning>(rows, body, counters)
        .run(first_rows, grid_items.row_tiles, NoHugeList{});
  }
#endif
};

}  // namespace irgl::gpu::schedule
