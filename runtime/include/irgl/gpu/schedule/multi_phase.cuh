// Multi-phase (paper 002; Busato and Bombieri): the frontier's edges cut
// into tiles of equal size, as LB does, but each item found in two
// searches: a partition phase finds the first item of each tile in the
// global prefix sum (interpolation search on even degrees, binary search
// otherwise, chosen at run time from the graph's degrees), and an expansion
// phase loads the tile's offsets into shared memory a window at a time,
// where each thread finds its edge's item by a fixed-step binary search.
// Consecutive threads take consecutive edges, so edge reads coalesce.
//
// Against LB (a binary search of the whole prefix sum per edge), each
// edge's search reads shared memory, and the global searches are one per
// tile, all of a block's next tiles searched at once by its threads.
//
//   MultiPhase<B>::run(body, frontier, state, options)        kernel launches
//   InGrid<MultiPhase<B>>::run(grid, body, frontier, items)   a persistent step
#pragma once

#include <cstdint>

#include "irgl/gpu/schedule/edge_balanced.cuh"

namespace irgl::gpu::schedule {

// Multi-phase's tuning.
struct MultiPhaseTuning {
  // Edges per thread in a tile: a tile is kAtomsPerThread x B edges.
  static constexpr unsigned kAtomsPerThread = 4;
  // Items in a shared-memory window of offsets (a power of two).
  static constexpr unsigned kWindowItems = 512;
  // Tiles a block partitions at once, at most B (a search per thread).
  static constexpr unsigned kTilesPerBatch = 1024;
  // Interpolation search where the degrees are even and small: the paper's
  // thresholds (standard deviation below 5, mean below 3: road networks).
  static constexpr double kInterpolationMaxDeviation = 5.0;
  static constexpr double kInterpolationMaxMean = 3.0;
};

// The partition search of a launch: the launch site's choice (the
// schedule's search= option), else interpolation on graphs of small, even
// degrees, else binary. Unknown graph: binary.
template <class Tuning = MultiPhaseTuning>
ItemSearch item_search_of(const RunOptions& options) {
  if (options.item_search != ItemSearch::automatic) return options.item_search;
  const GraphShape& graph = options.graph;
  const bool even = graph.known() && graph.deviation < Tuning::kInterpolationMaxDeviation &&
                    graph.mean() < Tuning::kInterpolationMaxMean;
  return even ? ItemSearch::interpolation : ItemSearch::binary;
}

#if defined(__CUDACC__)

template <int B, class Body, class Counters, class Tuning = MultiPhaseTuning>
struct MultiPhaseAgent : AgentBase<B, Body, Counters> {
  static constexpr uint64_t kTileAtoms = uint64_t(B) * Tuning::kAtomsPerThread;
  static constexpr unsigned kWindow = Tuning::kWindowItems;
  static constexpr unsigned kBatch = Tuning::kTilesPerBatch < B ? Tuning::kTilesPerBatch : B;
  static_assert((kWindow & (kWindow - 1)) == 0, "the window must be a power of two");

  struct TempStorage {
    uint64_t tile_first_item[kBatch];  // the partition of the block's next tiles
    uint64_t window[kWindow + 1];  // offsets of the window's items, then its end
  };
  using Base = AgentBase<B, Body, Counters>;
  using Base::body;
  using Base::counters;
  TempStorage& temp;

  __device__ MultiPhaseAgent(TempStorage& temp, Body& body, Counters& counters)
      : Base{body, counters}, temp(temp) {}

  __device__ void run(const ItemArrays<Body>& items, ItemSearch search) {
    run(items, items.stored(), search);
  }
  // Tiles go to blocks cyclically; a block partitions kBatch of its tiles
  // at a time, then expands them one by one.
  __device__ void run(const ItemArrays<Body>& items, uint64_t count, ItemSearch search) {
    const uint64_t total = items.offsets[count];
    const uint64_t tiles = ceil_div(total, kTileAtoms);
    PartialAccum<Body> partial;
    for (uint64_t batch = blockIdx.x; batch < tiles; batch += uint64_t(gridDim.x) * kBatch) {
      __syncthreads();  // the previous batch's partition is consumed
      partition(items, count, batch, tiles, search);
      __syncthreads();
      for (unsigned j = 0; j < kBatch; ++j) {
        const uint64_t tile = batch + uint64_t(j) * gridDim.x;
        if (tile >= tiles) break;  // the same in every thread
        const uint64_t first = tile * kTileAtoms;
        expand(items, count, temp.tile_first_item[j], first, min(first + kTileAtoms, total),
               partial);
      }
    }
    partial.flush_warp(items);  // every thread of the block gets here
  }

 private:
  // Thread j searches the global prefix sum for the first item of the
  // block's j-th tile of the batch.
  __device__ void partition(const ItemArrays<Body>& items, uint64_t count, uint64_t batch,
                            uint64_t tiles, ItemSearch search) {
    const uint64_t tile = batch + uint64_t(threadIdx.x) * gridDim.x;
    if (threadIdx.x >= kBatch || tile >= tiles) return;
    const uint64_t atom = tile * kTileAtoms;
    temp.tile_first_item[threadIdx.x] =
        search == ItemSearch::interpolation
            ? interpolated_owning_tile(items.offsets, count, atom)
            : owning_tile(items.offsets, count, atom);
  }

  // The offsets of items [first, first + kWindow) into shared memory, then
  // the window's end; past the last item, an offset no atom reaches.
  __device__ void load_window(const ItemArrays<Body>& items, uint64_t count, uint64_t first) {
    for (unsigned k = threadIdx.x; k <= kWindow; k += B)
      temp.window[k] = first + k <= count ? items.offsets[first + k] : ~uint64_t{0};
  }

  // Atoms [begin, end) of one tile, whose first atom belongs to item
  // `first_item`: window by window, each thread takes consecutive atoms
  // and finds their item in the window.
  __device__ void expand(const ItemArrays<Body>& items, uint64_t count, uint64_t first_item,
                         uint64_t begin, uint64_t end, PartialAccum<Body>& partial) {
    const auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    for (uint64_t window = first_item; begin < end; window += kWindow) {
      __syncthreads();  // the previous window is consumed
      load_window(items, count, window);
      __syncthreads();
      const uint64_t stop = min(end, temp.window[kWindow]);
      for (uint64_t base = begin; base < stop; base += B) {
        const uint64_t atom = base + threadIdx.x;
        const bool valid = atom < stop;
        const unsigned k = valid ? owning_tile_in_window<kWindow>(temp.window, atom) : 0;
        const uint64_t item = valid ? window + k : partial.item;
        if constexpr (Body::kHasAccum)
          if (warp.any(item != partial.item)) partial.flush_warp(items);
        partial.item = item;
        if (valid) {
          body.edge(items.vertices[item], items.begins[item] + (atom - temp.window[k]),
                    items.closures[item], partial.value);
          counters.edges(1);
        }
      }
      begin = stop;
    }
  }
};

#endif  // __CUDACC__

template <int B, class Tuning = MultiPhaseTuning>
struct MultiPhase : EdgePolicy<B, MultiPhase<B, Tuning>> {
  template <class Body, class Frontier, class StateT>
  static void run_edges(const Body& body, const Frontier& frontier, StateT& state,
                        const RunOptions& options) {
    ItemArrays<Body> items;
    const uint64_t count = detail::gather_items<B>(body, frontier, state, options, items);
    if (count == 0) return;
    using Agent = MultiPhaseAgent<B, Body, typename StateT::Counters, Tuning>;
    const ItemSearch search = item_search_of<Tuning>(options);
    detail::run_item_phases<B>(body, items, count, state, options, [&] {
      launch_agent<Agent>(state, options, "multi-phase", body, items, search);
    });
  }
};

// Multi-phase in a persistent kernel: the frontier in chunks of
// shape.chunk_items items, each gathered, scanned and expanded.
template <int B, class Tuning>
struct InGrid<MultiPhase<B, Tuning>> {
  template <class Body, class StateT>
  static GridItems<Body> items(const Body&, StateT& state, const RunOptions& options,
                               const OutlineShape& shape) {
    GridItems<Body> grid_items;
    if constexpr (Body::kHasEdges) grid_items.items = state.items(shape.chunk_items);
    grid_items.item_search = item_search_of<Tuning>(options);
    return grid_items;
  }

#if defined(__CUDACC__)
  template <class Body, class Frontier>
  __device__ static void run(const GridRound& grid, Body& body, const Frontier& frontier,
                             const GridItems<Body>& grid_items) {
    using Agent = MultiPhaseAgent<B, Body, NoLoadCounters, Tuning>;
    __shared__ typename Agent::TempStorage temp;
    const ItemArrays<Body>& items = grid_items.items;
    chunked_items_in_grid<B>(grid, body, frontier, items, [&](uint64_t count) {
      NoLoadCounters counters;
      Agent(temp, body, counters).run(items, count, grid_items.item_search);
    });
  }
#endif
};

}  // namespace irgl::gpu::schedule
