// TWC (Merrill, Garland, Grimshaw): each block takes a tile of frontier
// items, at most one per thread (index.h: twc_items_per_warp spreads small
// frontiers over every warp of the grid), and bins them by degree.
// Vertices with at least B edges are processed one after another by the
// whole block, those with at least 32 by their warp, and the edges of the
// rest (fewer than 32 each) are packed over the block through a prefix sum
// of their degrees (each edge finds its vertex by binary search in shared
// memory). ALB (alb.cuh) runs the same agent with its huge list.
//
//   Twc<B>::run(body, frontier, state, options)            a kernel launch
//   InGrid<Twc<B>>::run(grid, body, frontier, items)       a persistent step
#pragma once

#include <cstdint>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include "irgl/gpu/schedule/thread_mapped.cuh"

namespace irgl::gpu::schedule {

// TWC without ALB: no vertex is set aside (alb.cuh: HugeList otherwise).
struct NoHugeList {
  static constexpr bool kEnabled = false;
  static constexpr bool kHandsOver = false;
};

template <int B, class Body>
struct TwcStorage {
  static constexpr unsigned kWarps = B / 32;
  // Fine-grained degrees are below 32, so a block's packed edges fit 32 bits.
  using BlockScan = cub::BlockScan<uint32_t, B, cub::BLOCK_SCAN_WARP_SCANS>;
  using BlockReduce = cub::BlockReduce<typename Body::Accum, B>;
  union {
    typename BlockScan::TempStorage scan;
    typename BlockReduce::TempStorage reduce;
  } temp;
  uint32_t packed_offset[B];
  uint64_t packed_begin[B];
  VertexId packed_vertex[B];
  typename Body::Closure packed_closure[B];
  typename Body::Accum packed_accum[Body::kHasAccum ? B : 1];
  // Each warp's block-bin candidates and, last, whether the block hands
  // them over; double-buffered: an election writes one buffer while slower
  // threads may still read the previous one.
  unsigned block_candidates[2][kWarps + 1];
  VertexId owner_vertex;
  uint64_t owner_begin, owner_end;
  typename Body::Closure owner_closure;
  typename Body::Accum owner_accum;
};

// Per tile: the bins in order (block, warp, fine-grained), each a phase.
// Huge is NoHugeList, or ALB's HugeList: vertices above its threshold are
// set aside for the edge-balanced phase, and with a Body without
// accumulators, a block whose election sees half of the grid done hands
// its remaining block-bin vertices over to the list (thread 0 reads the
// count of finished blocks while the block walks the previous vertex, so
// the read costs the election no latency).
//
// Barriers per tile: one for the block bin's election, three per block-bin
// vertex (one more for a hand-over), one in the scan and, when the tile has
// fine-grained edges, one before and one after their loop. The shared
// arrays a tile writes are read again only after the next tile's election
// barrier, so the tile needs no closing barrier.
template <int B, class Body, class Counters, class Huge = NoHugeList>
struct TwcAgent : AgentBase<B, Body, Counters> {
  using TempStorage = TwcStorage<B, Body>;
  using Base = AgentBase<B, Body, Counters>;
  using typename Base::Accum;
  using typename Base::Closure;
  using Base::body;
  using Base::counters;
  static constexpr unsigned kWarps = TempStorage::kWarps;

#if defined(__CUDACC__)
  // A thread's frontier item of the current tile.
  struct Item {
    VertexId v = 0;
    Closure closure{};
    uint64_t begin = 0, end = 0;
    bool pending = false;  // its edges are still to do
    __device__ uint64_t degree() const { return end - begin; }
  };

  TempStorage& temp;
  const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  const unsigned warp_index = threadIdx.x / 32, lane = threadIdx.x % 32;
  unsigned election = 0;
  unsigned long long blocks_done = 0;  // thread 0's latest read (ALB)

  __device__ TwcAgent(TempStorage& temp, Body& body, Counters& counters)
      : Base{body, counters}, temp(temp) {}

  template <class Frontier>
  __device__ void run(const Frontier& frontier, const Huge& huge) {
    const uint64_t items = frontier.size();
    const uint32_t per_warp = twc_items_per_warp(items, gridDim.x * kWarps);
    const uint32_t tile_items = per_warp * kWarps;
    for (uint64_t base = uint64_t(blockIdx.x) * tile_items; base < items;
         base += uint64_t(gridDim.x) * tile_items) {
      if constexpr (Huge::kHandsOver)
        if (threadIdx.x == 0) blocks_done = huge.read_blocks_done();
      Item item = take_item(frontier, twc_tile_item(base, warp_index, lane, per_warp), items, huge);
      block_bin(item, huge);
      warp_bin(item);
      fine_grained(item);
    }
    if constexpr (Huge::kHandsOver)
      if (threadIdx.x == 0) atomicAdd(huge.blocks_done(), 1ull);
  }

 private:
  // Item i of the frontier with pre() run; set aside when ALB finds it huge.
  template <class Frontier>
  __device__ Item take_item(const Frontier& frontier, uint64_t i, uint64_t items,
                            const Huge& huge) {
    Item item;
    if (i < items) {
      item.v = frontier[i];
      if (admit_item(body, frontier, item.v, item.closure) && Body::kHasEdges) {
        item.begin = body.edges_begin(item.v);
        item.end = body.edges_end(item.v);
        item.pending = true;
      }
    }
    if constexpr (Huge::kEnabled) {
      if (item.pending && alb_is_huge(item.degree(), huge.threshold) &&
          huge.push(item.v, item.closure, item.begin, item.degree())) {
        counters.vertex(LoadPath::huge);
        item.pending = false;
      }
    }
    return item;
  }

  // Block bin: one vertex at a time, all threads over its edges; the
  // lowest-numbered candidate goes first.
  __device__ void block_bin(Item& item, const Huge& huge) {
    bool handed_over = false;  // at most one hand-over per tile (block-uniform)
    while (true) {
      unsigned* candidates = temp.block_candidates[election++ & 1];
      const bool in_bin = item.pending && twc_bin(item.degree(), B) == TwcBin::block;
      const unsigned mine = warp.ballot(in_bin);
      if (lane == 0) candidates[warp_index] = mine;
      if constexpr (Huge::kHandsOver)
        if (threadIdx.x == 0)
          candidates[kWarps] = !handed_over && alb_hands_over(blocks_done, gridDim.x);
      __syncthreads();
      int owner = -1;
      for (unsigned w = 0; w < kWarps && owner < 0; ++w)
        if (candidates[w] != 0) owner = int(w * 32 + __ffs(candidates[w]) - 1);
      if (owner < 0) return;
      if constexpr (Huge::kHandsOver) {
        if (candidates[kWarps] != 0) {  // the grid spreads the rest; a full list leaves them here
          handed_over = true;
          if (in_bin && huge.push(item.v, item.closure, item.begin, item.degree())) {
            counters.vertex(LoadPath::huge);
            item.pending = false;
          }
          continue;
        }
      }
      run_block_vertex(item, unsigned(owner), huge);
    }
  }

  // The edges of thread `owner`'s vertex over the whole block.
  __device__ void run_block_vertex(Item& item, unsigned owner, const Huge& huge) {
    if (threadIdx.x == owner) {
      temp.owner_vertex = item.v;
      temp.owner_begin = item.begin;
      temp.owner_end = item.end;
      temp.owner_closure = item.closure;
      item.pending = false;
    }
    __syncthreads();
    if constexpr (Huge::kHandsOver)
      if (threadIdx.x == 0) blocks_done = huge.read_blocks_done();
    Accum accum = Body::identity();
    run_edges_strided(BlockTile<B>{}, body, temp.owner_vertex, temp.owner_closure,
                      temp.owner_begin, temp.owner_end, accum, counters);
    if constexpr (Body::kHasAccum) {
      using BlockReduce = typename TempStorage::BlockReduce;
      accum = BlockReduce(temp.temp.reduce).Reduce(accum, CombineAccum<Body>());
      if (threadIdx.x == 0) temp.owner_accum = accum;
    }
    __syncthreads();  // post() comes after all of the vertex's edges
    if (threadIdx.x == owner) {
      counters.vertex(LoadPath::block);
      body.post(item.v, item.closure, Body::kHasAccum ? temp.owner_accum : Body::identity());
    }
  }

  // Warp bin: one vertex at a time per warp.
  __device__ void warp_bin(Item& item) {
    while (true) {
      const unsigned candidates =
          warp.ballot(item.pending && twc_bin(item.degree(), B) == TwcBin::warp);
      if (candidates == 0) return;
      const unsigned leader = __ffs(candidates) - 1;
      const VertexId warp_vertex = warp.shfl(item.v, leader);
      const Closure warp_closure = shfl_any(warp, item.closure, leader);
      const uint64_t warp_begin = warp.shfl(item.begin, leader);
      const uint64_t warp_end = warp.shfl(item.end, leader);
      if (lane == leader) item.pending = false;
      Accum accum = Body::identity();
      run_edges_strided(warp, body, warp_vertex, warp_closure, warp_begin, warp_end, accum,
                        counters);
      if constexpr (Body::kHasAccum) accum = reduce_any<Body>(warp, accum);
      else warp.sync();  // post() comes after all of the vertex's edges
      if (lane == leader) {
        counters.vertex(LoadPath::warp);
        body.post(item.v, item.closure, accum);
      }
    }
  }

  // Fine-grained: the remaining edges packed over the block. A settling
  // body's small vertex is walked by its own thread instead, which stops at
  // the edge that settles it (packed, all its edges run at once).
  __device__ void fine_grained(const Item& item) {
    if constexpr (kBodySettles<Body>) {
      if (item.pending) {
        counters.vertex(LoadPath::fine);
        run_edges_sequentially(body, item.v, item.closure, counters);
      }
      return;
    }
    using BlockScan = typename TempStorage::BlockScan;
    uint32_t offset = 0, total = 0;
    BlockScan(temp.temp.scan).ExclusiveSum(item.pending ? uint32_t(item.degree()) : 0u, offset,
                                           total);
    if (total == 0) {  // the same in every thread: no barrier to meet
      if (item.pending) {
        counters.vertex(LoadPath::fine);
        body.post(item.v, item.closure, Body::identity());
      }
      return;
    }
    temp.packed_offset[threadIdx.x] = offset;
    temp.packed_begin[threadIdx.x] = item.begin;
    temp.packed_vertex[threadIdx.x] = item.v;
    temp.packed_closure[threadIdx.x] = item.closure;
    if constexpr (Body::kHasAccum) temp.packed_accum[threadIdx.x] = Body::identity();
    __syncthreads();
    for (uint32_t k = threadIdx.x; k < total; k += B) {
      const uint64_t owner = owning_tile(temp.packed_offset, B, k);
      Accum accum = Body::identity();
      body.edge(temp.packed_vertex[owner],
                temp.packed_begin[owner] + (k - temp.packed_offset[owner]),
                temp.packed_closure[owner], accum);
      if constexpr (Body::kHasAccum) Body::atomic_combine(&temp.packed_accum[owner], accum);
      counters.edges(1);
    }
    __syncthreads();  // post() comes after all of the vertex's edges
    if (item.pending) {
      counters.vertex(LoadPath::fine);
      body.post(item.v, item.closure,
                Body::kHasAccum ? temp.packed_accum[threadIdx.x] : Body::identity());
    }
  }
#endif
};

template <int B>
struct Twc : EdgePolicy<B, Twc<B>> {
  template <class Body, class Frontier, class StateT>
  static void run_edges(const Body& body, const Frontier& frontier, StateT& state,
                        const RunOptions& options) {
    using Agent = TwcAgent<B, Body, typename StateT::Counters>;
    launch_agent<Agent>(state, options, "twc", body, frontier, NoHugeList{});
  }
};

template <int B>
struct InGrid<Twc<B>> : InGridWithoutItems<Twc<B>> {
#if defined(__CUDACC__)
  template <class Body, class Frontier>
  __device__ static void run(const GridRound&, Body& body, const Frontier& frontier,
                             const GridItems<Body>&) {
    using Agent = TwcAgent<B, Body, NoLoadCounters>;
    __shared__ typename Agent::TempStorage temp;
    grid_step<B>(body, frontier, [&](NoLoadCounters& counters) {
      Agent(temp, body, counters).run(frontier, NoHugeList{});
    });
  }
#endif
};

}  // namespace irgl::gpu::schedule
