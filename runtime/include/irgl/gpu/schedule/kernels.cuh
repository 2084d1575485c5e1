// The schedules' kernels. Each runs a Body (body.h) over a Frontier
// (frontier.cuh) with one mapping of tiles (vertices) and atoms (edges) to
// threads; index arithmetic lives in index.h, host-side launching in
// schedules.cuh. All kernels walk their work with grid strides, so they are
// launched on a grid that fills the GPU once, and every kernel flushes the
// Body's reductions and the load counters at its end.
//
// Each kernel is a thin __global__ wrapper around a __device__ function
// (thread_mapped_tiles, twc_tiles, gather_items, ...) that does the work
// without the final flush, so that a persistent kernel (outline.cuh) can run
// the same code round after round between grid-wide barriers.
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdint>
#include <type_traits>
#include <utility>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include "irgl/gpu/schedule/body.h"
#include "irgl/gpu/schedule/frontier.cuh"
#include "irgl/gpu/schedule/index.h"
#include "irgl/gpu/schedule/instrument.cuh"

namespace irgl::gpu::schedule {

namespace cg = cooperative_groups;

// Combines accumulators (for cooperative_groups::reduce and CUB). Two
// template parameters, because cooperative_groups::reduce treats a
// one-parameter template functor as one of its own operators.
template <class Body, class Accum = typename Body::Accum>
struct CombineAccum {
  __device__ typename Body::Accum operator()(const typename Body::Accum& a,
                                             const typename Body::Accum& b) const {
    typename Body::Accum result = a;
    Body::combine(result, b);
    return result;
  }
};

// Applies `shuffle` (a shuffle of one 32-bit word) to every word of a
// trivially copyable value: cooperative groups' shuffles stop at 32 bytes.
template <class T, class Shuffle>
__device__ T shuffle_words(const T& value, Shuffle&& shuffle) {
  constexpr unsigned kWords = (sizeof(T) + 3) / 4;
  unsigned words[kWords] = {};
  memcpy(words, &value, sizeof(T));
#pragma unroll
  for (unsigned w = 0; w < kWords; ++w) words[w] = shuffle(words[w]);
  T result;
  memcpy(&result, words, sizeof(T));
  return result;
}

// Broadcasts a value of any size from lane `source` of a tile of at most 32
// threads.
template <class Tile, class T>
__device__ T shfl_any(const Tile& tile, const T& value, unsigned source) {
  if constexpr (sizeof(T) <= 32) return tile.shfl(value, source);
  else return shuffle_words(value, [&](unsigned word) { return tile.shfl(word, source); });
}

// Combines every lane's accumulator over a tile of at most 32 threads; all
// lanes get the total.
template <class Body, class Tile, class Accum = typename Body::Accum>
__device__ Accum reduce_any(const Tile& tile, Accum value) {
  if constexpr (sizeof(Accum) <= 32) {
    return cg::reduce(tile, value, CombineAccum<Body>());
  } else {
    for (unsigned offset = tile.size() / 2; offset > 0; offset /= 2)
      Body::combine(value, shuffle_words(value, [&](unsigned word) {
                      return tile.shfl_down(word, offset);
                    }));
    return shfl_any(tile, value, 0);
  }
}

// Bodies may define `template <int B> __device__ void begin()`: block-level
// set-up every thread runs before the Body's code (e.g. emptying a
// shared-memory push buffer). Optional, detected here.
template <class Body, int BlockThreads, class = void>
struct HasBegin : std::false_type {};
template <class Body, int BlockThreads>
struct HasBegin<Body, BlockThreads,
                std::void_t<decltype(std::declval<Body&>().template begin<BlockThreads>())>>
    : std::true_type {};

template <int BlockThreads, class Body>
__device__ void begin_body(Body& body) {
  if constexpr (HasBegin<Body, BlockThreads>::value) body.template begin<BlockThreads>();
}

// The end of every kernel (and of every step of a persistent kernel): the
// Body's reductions and pushes and the load counters, flushed per block.
template <int BlockThreads, class Body, class Counters>
__device__ void finish_body(Body& body, Counters& counters) {
  body.template flush<BlockThreads>();
  counters.template flush<BlockThreads>();
}

__device__ inline uint64_t global_thread() { return uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; }
__device__ inline uint64_t grid_threads() { return uint64_t(gridDim.x) * blockDim.x; }

// A vertex's whole edge loop run sequentially by the calling thread.
template <class Body, class Counters>
__device__ void run_edges_sequentially(Body& body, VertexId v, const typename Body::Closure& closure,
                                       Counters& counters) {
  typename Body::Accum accum = Body::identity();
  const uint64_t begin = body.edges_begin(v), end = body.edges_end(v);
  for (uint64_t e = begin; e < end; ++e) body.edge(v, e, closure, accum);
  counters.edges(end - begin);
  body.post(v, closure, accum);
}

//===----------------------------------------------------------------------===//
// Thread-mapped: a vertex per thread, its edges sequentially.
//===----------------------------------------------------------------------===//

template <int BlockThreads, class Body, class Frontier, class Counters>
__device__ void thread_mapped_tiles(Body& body, const Frontier& frontier, Counters& counters) {
  const uint64_t items = frontier.size();
  for (uint64_t i = global_thread(); i < items; i += grid_threads()) {
    const VertexId v = frontier[i];
    typename Body::Closure closure;
    if (!admit_item(body, frontier, v, closure)) continue;
    if constexpr (Body::kHasEdges) {
      counters.vertex(LoadPath::thread);
      run_edges_sequentially(body, v, closure, counters);
    }
  }
}

template <int BlockThreads, class Body, class Frontier, class Counters>
__global__ void __launch_bounds__(BlockThreads)
    thread_mapped_kernel(Body body, Frontier frontier, Counters counters) {
  begin_body<BlockThreads>(body);
  thread_mapped_tiles<BlockThreads>(body, frontier, counters);
  finish_body<BlockThreads>(body, counters);
}

//===----------------------------------------------------------------------===//
// Group-mapped: a vertex per group of GroupSize threads (cooperative groups;
// warp-mapped is GroupSize 32, block-mapped GroupSize == BlockThreads).
// The group's first thread runs pre() and post(); the closure is broadcast
// to the group, whose threads stride over the edges; accumulators are
// reduced over the group; post() runs after all of the vertex's edges.
//===----------------------------------------------------------------------===//

template <int BlockThreads, int GroupSize>
constexpr void check_group_size() {
  static_assert(GroupSize >= 2 && GroupSize <= BlockThreads && BlockThreads % GroupSize == 0 &&
                    (GroupSize & (GroupSize - 1)) == 0,
                "GroupSize: a power of two from 2 to the block size");
}

// Groups within a warp: shuffles and warp-level syncs.
template <int BlockThreads, int GroupSize, class Body, class Frontier, class Counters>
__device__ void group_mapped_tiles(Body& body, const Frontier& frontier, Counters& counters) {
  check_group_size<BlockThreads, GroupSize>();
  static_assert(GroupSize <= 32, "groups larger than a warp use block_group_kernel");
  const auto group = cg::tiled_partition<GroupSize>(cg::this_thread_block());
  const uint64_t items = frontier.size();
  const uint64_t groups = group_count(gridDim.x, BlockThreads, GroupSize);
  const bool leader = group.thread_rank() == 0;
  for (uint64_t i = group_of(blockIdx.x, threadIdx.x, BlockThreads, GroupSize); i < items;
       i += groups) {
    const VertexId v = frontier[i];
    typename Body::Closure closure;
    bool active = false;
    if (leader) active = admit_item(body, frontier, v, closure);
    if (!group.shfl(active, 0)) continue;
    closure = shfl_any(group, closure, 0);
    const uint64_t begin = body.edges_begin(v), end = body.edges_end(v);
    typename Body::Accum accum = Body::identity();
    for (uint64_t e = begin + group.thread_rank(); e < end; e += GroupSize) {
      body.edge(v, e, closure, accum);
      counters.edges(1);
    }
    if constexpr (Body::kHasAccum) accum = reduce_any<Body>(group, accum);
    else group.sync();  // post() comes after all of the vertex's edges
    if (leader) {
      counters.vertex(LoadPath::group);
      body.post(v, closure, accum);
    }
  }
}

template <int BlockThreads, int GroupSize, class Body, class Frontier, class Counters>
__global__ void __launch_bounds__(BlockThreads)
    group_mapped_kernel(Body body, Frontier frontier, Counters counters) {
  begin_body<BlockThreads>(body);
  group_mapped_tiles<BlockThreads, GroupSize>(body, frontier, counters);
  finish_body<BlockThreads>(body, counters);
}

// Combines each group's accumulators (GroupSize consecutive threads) through
// `scratch` (BlockThreads slots of shared memory) by a tree; the result is
// valid in the group's first thread. Every thread of the block calls it.
template <int BlockThreads, int GroupSize, class Body, class Accum = typename Body::Accum>
__device__ Accum reduce_groups_in_shared(const Accum& value, Accum* scratch) {
  const unsigned rank = threadIdx.x % GroupSize;
  scratch[threadIdx.x] = value;
  __syncthreads();
  for (unsigned half = GroupSize / 2; half > 0; half /= 2) {
    if (rank < half) {
      Accum combined = scratch[threadIdx.x];
      Body::combine(combined, scratch[threadIdx.x + half]);
      scratch[threadIdx.x] = combined;
    }
    __syncthreads();
  }
  return scratch[threadIdx.x - rank];
}

// Groups of several warps: the block's groups advance in lockstep rounds
// (each takes its next item, or idles), so that block-wide barriers order the
// closure broadcast, the accumulator reduction and post(): barriers every
// tool understands (compute-sanitizer's racecheck does not see cooperative
// groups' multi-warp syncs).
template <int BlockThreads, int GroupSize, class Body, class Frontier, class Counters>
__device__ void block_group_tiles(Body& body, const Frontier& frontier, Counters& counters) {
  check_group_size<BlockThreads, GroupSize>();
  using Closure = typename Body::Closure;
  using Accum = typename Body::Accum;
  constexpr unsigned kGroups = BlockThreads / GroupSize;
  __shared__ Closure group_closure[kGroups];
  __shared__ bool group_active[kGroups];
  __shared__ Accum group_accum[Body::kHasAccum ? BlockThreads : 1];
  const unsigned slot = threadIdx.x / GroupSize, rank = threadIdx.x % GroupSize;
  const uint64_t items = frontier.size();
  const uint64_t groups = group_count(gridDim.x, BlockThreads, GroupSize);
  for (uint64_t round = group_of(blockIdx.x, 0, BlockThreads, GroupSize); round < items;
       round += groups) {
    const uint64_t i = round + slot;  // this group's item of the round
    const VertexId v = i < items ? frontier[i] : 0;
    if (rank == 0) {
      Closure closure;
      group_active[slot] = i < items && admit_item(body, frontier, v, closure);
      group_closure[slot] = closure;
    }
    __syncthreads();
    const bool active = group_active[slot];
    const Closure closure = group_closure[slot];
    Accum accum = Body::identity();
    if (active) {
      const uint64_t begin = body.edges_begin(v), end = body.edges_end(v);
      for (uint64_t e = begin + rank; e < end; e += GroupSize) {
        body.edge(v, e, closure, accum);
        counters.edges(1);
      }
    }
    if constexpr (Body::kHasAccum)
      accum = reduce_groups_in_shared<BlockThreads, GroupSize, Body>(accum, group_accum);
    __syncthreads();  // post() comes after all of the vertex's edges
    if (rank == 0 && active) {
      counters.vertex(LoadPath::group);
      body.post(v, closure, accum);
    }
    __syncthreads();  // the shared slots are rewritten next round
  }
}

template <int BlockThreads, int GroupSize, class Body, class Frontier, class Counters>
__global__ void __launch_bounds__(BlockThreads)
    block_group_kernel(Body body, Frontier frontier, Counters counters) {
  begin_body<BlockThreads>(body);
  block_group_tiles<BlockThreads, GroupSize>(body, frontier, counters);
  finish_body<BlockThreads>(body, counters);
}

//===----------------------------------------------------------------------===//
// TWC (Merrill, Garland, Grimshaw), optionally with ALB's inspection.
//===----------------------------------------------------------------------===//

// TWC without ALB: no vertex is set aside.
struct NoHugeList {
  static constexpr bool kEnabled = false;
  static constexpr bool kHandsOver = false;
};

// ALB's huge-vertex worklist: vertices whose degree exceeds `threshold` are
// set aside with their closure (pre() already ran) for the edge-balanced
// kernel, instead of going through TWC, and so are the block-bin vertices a
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
};

// Each block takes a tile of frontier items, at most one per thread (index.h:
// twc_items_per_warp spreads small frontiers over every warp of the grid).
// Vertices with at least BlockThreads edges are processed one after another
// by the whole block, those with at least 32 by their warp, and the edges of
// the rest (fewer than 32 each) are packed over the block through a prefix
// sum of their degrees (each edge finds its vertex by binary search in
// shared memory). With ALB's huge list (and a Body without accumulators), a
// block whose election sees half of the grid done hands its remaining
// block-bin vertices over to the list (thread 0 reads the count of finished
// blocks while the block walks the previous vertex, so the read costs the
// election no latency).
//
// Barriers per tile: one for the block bin's election, three per block-bin
// vertex (one more for a hand-over), one in the scan and, when the tile has
// fine-grained edges, one before and one after their loop. The shared
// arrays a tile writes are read again only after the next tile's election
// barrier, so the tile needs no closing barrier.
template <int BlockThreads, class Body, class Frontier, class Huge, class Counters>
__device__ void twc_tiles(Body& body, const Frontier& frontier, const Huge& huge,
                          Counters& counters) {
  using Closure = typename Body::Closure;
  using Accum = typename Body::Accum;
  constexpr unsigned kWarps = BlockThreads / 32;
  // Fine-grained degrees are below 32, so a block's packed edges fit 32 bits.
  using BlockScan = cub::BlockScan<uint32_t, BlockThreads, cub::BLOCK_SCAN_WARP_SCANS>;
  using BlockReduce = cub::BlockReduce<Accum, BlockThreads>;
  __shared__ union {
    typename BlockScan::TempStorage scan;
    typename BlockReduce::TempStorage reduce;
  } temp;
  __shared__ uint32_t packed_offset[BlockThreads];
  __shared__ uint64_t packed_begin[BlockThreads];
  __shared__ VertexId packed_vertex[BlockThreads];
  __shared__ Closure packed_closure[BlockThreads];
  __shared__ Accum packed_accum[Body::kHasAccum ? BlockThreads : 1];
  // Each warp's block-bin candidates and, last, whether the block hands
  // them over; double-buffered: an election writes one buffer while slower
  // threads may still read the previous one.
  __shared__ unsigned block_candidates[2][kWarps + 1];
  __shared__ VertexId owner_vertex;
  __shared__ uint64_t owner_begin, owner_end;
  __shared__ Closure owner_closure;
  __shared__ Accum owner_accum;

  const auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  const unsigned warp_index = threadIdx.x / 32, lane = threadIdx.x % 32;
  const uint64_t items = frontier.size();
  const uint32_t per_warp = twc_items_per_warp(items, gridDim.x * kWarps);
  const uint32_t tile_items = per_warp * kWarps;
  unsigned election = 0;
  unsigned long long blocks_done = 0;  // thread 0's latest read (ALB)
  for (uint64_t base = uint64_t(blockIdx.x) * tile_items; base < items;
       base += uint64_t(gridDim.x) * tile_items) {
    if constexpr (Huge::kHandsOver)
      if (threadIdx.x == 0) blocks_done = huge.read_blocks_done();
    const uint64_t i = twc_tile_item(base, warp_index, lane, per_warp);
    VertexId v = 0;
    Closure closure{};
    uint64_t begin = 0, end = 0;
    bool pending = false;  // this thread's vertex still has to do its edges
    if (i < items) {
      v = frontier[i];
      if (admit_item(body, frontier, v, closure) && Body::kHasEdges) {
        begin = body.edges_begin(v);
        end = body.edges_end(v);
        pending = true;
      }
    }
    const uint64_t degree = end - begin;
    if constexpr (Huge::kEnabled) {
      if (pending && alb_is_huge(degree, huge.threshold) && huge.push(v, closure, begin, degree)) {
        counters.vertex(LoadPath::huge);
        pending = false;
      }
    }

    // Block bin: one vertex at a time, all threads over its edges; the
    // lowest-numbered candidate goes first.
    bool handed_over = false;  // at most one hand-over per tile (block-uniform)
    while (true) {
      unsigned* candidates = block_candidates[election++ & 1];
      const bool block_bin = pending && twc_bin(degree, BlockThreads) == TwcBin::block;
      const unsigned mine = warp.ballot(block_bin);
      if (lane == 0) candidates[warp_index] = mine;
      if constexpr (Huge::kHandsOver)
        if (threadIdx.x == 0)
          candidates[kWarps] = !handed_over && alb_hands_over(blocks_done, gridDim.x);
      __syncthreads();
      int owner = -1;
      for (unsigned w = 0; w < kWarps && owner < 0; ++w)
        if (candidates[w] != 0) owner = int(w * 32 + __ffs(candidates[w]) - 1);
      if (owner < 0) break;
      if constexpr (Huge::kHandsOver) {
        if (candidates[kWarps] != 0) {  // the grid spreads the rest; a full list leaves them here
          handed_over = true;
          if (block_bin && huge.push(v, closure, begin, degree)) {
            counters.vertex(LoadPath::huge);
            pending = false;
          }
          continue;
        }
      }
      if (threadIdx.x == unsigned(owner)) {
        owner_vertex = v;
        owner_begin = begin;
        owner_end = end;
        owner_closure = closure;
        pending = false;
      }
      __syncthreads();
      if constexpr (Huge::kHandsOver)
        if (threadIdx.x == 0) blocks_done = huge.read_blocks_done();
      Accum accum = Body::identity();
      for (uint64_t e = owner_begin + threadIdx.x; e < owner_end; e += BlockThreads) {
        body.edge(owner_vertex, e, owner_closure, accum);
        counters.edges(1);
      }
      if constexpr (Body::kHasAccum) {
        accum = BlockReduce(temp.reduce).Reduce(accum, CombineAccum<Body>());
        if (threadIdx.x == 0) owner_accum = accum;
      }
      __syncthreads();  // post() comes after all of the vertex's edges
      if (threadIdx.x == unsigned(owner)) {
        counters.vertex(LoadPath::block);
        body.post(v, closure, Body::kHasAccum ? owner_accum : Body::identity());
      }
    }

    // Warp bin: one vertex at a time per warp.
    while (true) {
      const unsigned candidates = warp.ballot(pending && twc_bin(degree, BlockThreads) == TwcBin::warp);
      if (candidates == 0) break;
      const unsigned leader = __ffs(candidates) - 1;
      const VertexId warp_vertex = warp.shfl(v, leader);
      const Closure warp_closure = shfl_any(warp, closure, leader);
      const uint64_t warp_begin = warp.shfl(begin, leader), warp_end = warp.shfl(end, leader);
      if (lane == leader) pending = false;
      Accum accum = Body::identity();
      for (uint64_t e = warp_begin + lane; e < warp_end; e += 32) {
        body.edge(warp_vertex, e, warp_closure, accum);
        counters.edges(1);
      }
      if constexpr (Body::kHasAccum) accum = reduce_any<Body>(warp, accum);
      else warp.sync();  // post() comes after all of the vertex's edges
      if (lane == leader) {
        counters.vertex(LoadPath::warp);
        body.post(v, closure, accum);
      }
    }

    // Fine-grained: the remaining edges packed over the block.
    uint32_t offset = 0, total = 0;
    BlockScan(temp.scan).ExclusiveSum(pending ? uint32_t(degree) : 0u, offset, total);
    if (total == 0) {  // the same in every thread: no barrier to meet
      if (pending) {
        counters.vertex(LoadPath::fine);
        body.post(v, closure, Body::identity());
      }
      continue;
    }
    packed_offset[threadIdx.x] = offset;
    packed_begin[threadIdx.x] = begin;
    packed_vertex[threadIdx.x] = v;
    packed_closure[threadIdx.x] = closure;
    if constexpr (Body::kHasAccum) packed_accum[threadIdx.x] = Body::identity();
    __syncthreads();
    for (uint32_t k = threadIdx.x; k < total; k += BlockThreads) {
      const uint64_t owner = owning_tile(packed_offset, BlockThreads, k);
      Accum accum = Body::identity();
      body.edge(packed_vertex[owner], packed_begin[owner] + (k - packed_offset[owner]),
                packed_closure[owner], accum);
      if constexpr (Body::kHasAccum) Body::atomic_combine(&packed_accum[owner], accum);
      counters.edges(1);
    }
    __syncthreads();  // post() comes after all of the vertex's edges
    if (pending) {
      counters.vertex(LoadPath::fine);
      body.post(v, closure, Body::kHasAccum ? packed_accum[threadIdx.x] : Body::identity());
    }
  }
  if constexpr (Huge::kHandsOver)
    if (threadIdx.x == 0) atomicAdd(huge.blocks_done(), 1ull);
}

template <int BlockThreads, class Body, class Frontier, class Huge, class Counters>
__global__ void __launch_bounds__(BlockThreads)
    twc_kernel(Body body, Frontier frontier, Huge huge, Counters counters) {
  begin_body<BlockThreads>(body);
  twc_tiles<BlockThreads>(body, frontier, huge, counters);
  finish_body<BlockThreads>(body, counters);
}

//===----------------------------------------------------------------------===//
// Edge-balanced schedules (LB, merge-path, ALB's huge vertices): a gather
// kernel runs pre() for every item and records its vertex, closure and
// degree; a prefix sum of the degrees (CUB) gives each item's first edge
// index; an edge kernel spreads the edges over all threads of the grid,
// combining accumulator partials into the items' accumulators with atomics;
// a post kernel then runs post() once per active item.
//===----------------------------------------------------------------------===//

// The per-item arrays these kernels share (device pointers).
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

// Frontier items [first, end) into items[0, end - first).
// ALB's huge list over `items`' arrays, counting in `count`.
template <class Body>
IRGL_HOST_DEVICE HugeList<Body> huge_list_over(const ItemArrays<Body>& items, uint64_t threshold,
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

template <int BlockThreads, class Body, class Frontier, class Counters>
__device__ void gather_items(Body& body, const Frontier& frontier, const ItemArrays<Body>& items,
                             uint64_t first, uint64_t end, Counters& counters) {
  for (uint64_t i = global_thread(); i < end - first; i += grid_threads()) {
    const VertexId v = frontier[first + i];
    typename Body::Closure closure;
    const bool active = admit_item(body, frontier, v, closure);
    items.vertices[i] = v;
    items.closures[i] = closure;
    items.active[i] = active;
    const uint64_t begin = active ? body.edges_begin(v) : 0;
    items.begins[i] = begin;
    items.degrees[i] = active ? body.edges_end(v) - begin : 0;
    if constexpr (Body::kHasAccum) items.accums[i] = Body::identity();
    if (active) counters.vertex(LoadPath::edge);
  }
}

template <int BlockThreads, class Body, class Frontier, class Counters>
__global__ void __launch_bounds__(BlockThreads)
    gather_kernel(Body body, Frontier frontier, ItemArrays<Body> items, Counters counters) {
  begin_body<BlockThreads>(body);
  gather_items<BlockThreads>(body, frontier, items, 0, frontier.size(), counters);
  finish_body<BlockThreads>(body, counters);
}

// Combines `value` over each run of consecutive lanes of the warp that hold
// the same `key` (a segmented scan by shuffles; every lane calls it). Returns
// true in the last lane of each run, whose value is then the run's total.
template <class Body, class Key, class Accum = typename Body::Accum>
__device__ bool combine_runs(const cg::thread_block_tile<32>& warp, Key key, Accum& value) {
  const unsigned lane = warp.thread_rank();
  const Key previous = warp.shfl_up(key, 1);
  const unsigned heads = warp.ballot(lane == 0 || previous != key);
  const unsigned run_start = 31 - __clz(heads & (0xffffffffu >> (31 - lane)));
  for (unsigned offset = 1; offset < 32; offset *= 2) {
    const Accum other = shfl_any(warp, value, lane >= offset ? lane - offset : lane);
    if (lane >= offset && lane - offset >= run_start) Body::combine(value, other);
  }
  return lane == 31 || ((heads >> (lane + 1)) & 1u) != 0;
}

// Folds a thread's partial accumulator for one item into the item's.
template <class Body>
struct PartialAccum {
  uint64_t item = ~uint64_t{0};
  typename Body::Accum value = Body::identity();

  __device__ void switch_to(uint64_t next, const ItemArrays<Body>& items) {
    if (next == item) return;
    flush(items);
    item = next;
  }
  __device__ void flush(const ItemArrays<Body>& items) {
    if constexpr (Body::kHasAccum) {
      if (item != ~uint64_t{0}) Body::atomic_combine(&items.accums[item], value);
      value = Body::identity();
    }
  }
  // A flush by all 32 lanes of the warp together: each run of consecutive
  // lanes holding the same item sums its partials (combine_runs) and its
  // last lane adds the sum, one atomic per run instead of per lane. A hub's
  // edges spread one or two per thread would otherwise end in as many
  // atomics on one accumulator, which the L2 serializes (RMAT 24 spmv under
  // ALB: about 0.25 ms).
  __device__ void flush_warp(const ItemArrays<Body>& items) {
    if constexpr (Body::kHasAccum) {
      const auto warp = cg::tiled_partition<32>(cg::this_thread_block());
      if (combine_runs<Body>(warp, item, value) && item != ~uint64_t{0})
        Body::atomic_combine(&items.accums[item], value);
      value = Body::identity();
    }
  }
};

enum class Distribution : uint8_t { cyclic, blocked };

// Each thread takes atoms (edge indices in [0, total)) cyclically or in one
// block and finds each atom's item by binary search in the prefix sum.
template <int BlockThreads, Distribution Dist, class Body, class Counters>
__device__ void edge_balanced_atoms(Body& body, const ItemArrays<Body>& items, uint64_t count,
                                    Counters& counters) {
  const uint64_t total = items.offsets[count];
  PartialAccum<Body> partial;
  auto process = [&](uint64_t item, uint64_t atom) {
    body.edge(items.vertices[item], items.begins[item] + (atom - items.offsets[item]),
              items.closures[item], partial.value);
    counters.edges(1);
  };
  if constexpr (Dist == Distribution::cyclic) {
    // A warp's lanes take consecutive atoms and step together; when one of
    // them moves to another item, the warp flushes its partials by runs
    // (flush_warp). Items of fewer edges than the grid has threads would
    // otherwise cost an atomic per thread and item, 32 per warp on one
    // accumulator.
    const auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    const CyclicAtoms atoms = cyclic_atoms(global_thread(), grid_threads(), total);
    for (uint64_t atom = atoms.begin(); warp.any(atoms.valid(atom)); atom = atoms.next(atom)) {
      const bool valid = atoms.valid(atom);
      const uint64_t item = valid ? owning_tile(items.offsets, count, atom) : partial.item;
      if constexpr (Body::kHasAccum)
        if (warp.any(item != partial.item)) partial.flush_warp(items);
      partial.item = item;
      if (valid) process(item, atom);
    }
  } else {
    const IndexRange atoms = blocked_atoms(global_thread(), grid_threads(), total);
    for (uint64_t atom = atoms.begin; atom < atoms.end; ++atom) {
      const uint64_t item = owning_tile(items.offsets, count, atom);
      partial.switch_to(item, items);
      process(item, atom);
    }
  }
  partial.flush_warp(items);  // every thread of the grid gets here
}

template <int BlockThreads, Distribution Dist, class Body, class Counters>
__global__ void __launch_bounds__(BlockThreads)
    edge_balanced_kernel(Body body, ItemArrays<Body> items, Counters counters) {
  begin_body<BlockThreads>(body);
  edge_balanced_atoms<BlockThreads, Dist>(body, items, items.stored(), counters);
  finish_body<BlockThreads>(body, counters);
}

// Merge-path: each thread takes an equal share of (items + edges) along the
// merge of the items' edge ranges, found by a 2-D binary search.
template <int BlockThreads, class Body, class Counters>
__device__ void merge_path_atoms(Body& body, const ItemArrays<Body>& items, uint64_t count,
                                 Counters& counters) {
  const uint64_t total = items.offsets[count];
  const IndexRange share = merge_path_share(global_thread(), grid_threads(), count, total);
  const uint64_t* ends = items.offsets + 1;
  MergeCoordinate at;
  if (share.size() > 0) at = merge_path_search(share.begin, ends, count, total);
  PartialAccum<Body> partial;
  // Threads with an empty share skip the walk but reach the same flushes
  // (block-wide barriers) as the others.
  for (uint64_t step = share.begin; step < share.end; ++step) {
    if (at.tile < count && at.atom < ends[at.tile]) {
      partial.switch_to(at.tile, items);
      body.edge(items.vertices[at.tile], items.begins[at.tile] + (at.atom - items.offsets[at.tile]),
                items.closures[at.tile], partial.value);
      counters.edges(1);
      ++at.atom;
    } else {
      ++at.tile;  // the end of an item
    }
  }
  partial.flush(items);
}

template <int BlockThreads, class Body, class Counters>
__global__ void __launch_bounds__(BlockThreads)
    merge_path_kernel(Body body, ItemArrays<Body> items, Counters counters) {
  begin_body<BlockThreads>(body);
  merge_path_atoms<BlockThreads>(body, items, items.stored(), counters);
  finish_body<BlockThreads>(body, counters);
}

// post() once per active item, after all edges are done.
template <class Body>
__device__ void post_items(Body& body, const ItemArrays<Body>& items, uint64_t count) {
  for (uint64_t i = global_thread(); i < count; i += grid_threads())
    if (items.active[i])
      body.post(items.vertices[i], items.closures[i],
                Body::kHasAccum ? items.accums[i] : Body::identity());
}

template <int BlockThreads, class Body>
__global__ void __launch_bounds__(BlockThreads) post_kernel(Body body, ItemArrays<Body> items) {
  begin_body<BlockThreads>(body);
  post_items(body, items, items.stored());
  body.template flush<BlockThreads>();
}

//===----------------------------------------------------------------------===//
// ALB's row tiles: topology-driven loops whose vertices accumulate over
// their edges (spmv, pull pagerank). The rows and their edges are cut into
// tiles of equal cost (a row kRowTileRowCost units, an edge one), so every
// tile holds about as much work whatever the degrees; a tile runs pre() for
// its rows, splits their edges over the block's threads in equal
// contiguous shares (row_share_walk), reduces each row's partials in
// shared memory and runs post(). A row longer than ALB's
// threshold goes to the huge list and the whole grid (schedules.cuh: Alb),
// so a tile's work is its units plus at most one long row. TWC would
// give each warp a row at a time: web graphs cluster rows of 100-250 edges,
// and one warp walking 32 of them one after another set the kernel's time
// (cnr-2000 spmv: 0.13 ms against row tiles' 0.049 and cuSPARSE's 0.027).
//===----------------------------------------------------------------------===//

// Bodies whose vertex v has the edges [edges_begin(v), edges_end(v)) with
// edges_end(v) == edges_begin(v + 1) (CSR or CSC order, as irglc's bodies)
// declare `static constexpr bool kContiguousEdges = true`,
// `__host__ __device__ uint64_t edge_count() const` (all vertices' edges)
// and `__host__ const void* edge_layout() const` (body.h); only they run
// row tiles, whose cut reads the rows' edge ends as one sorted sequence.
template <class Body, class = void>
struct HasContiguousEdges : std::false_type {};
template <class Body>
struct HasContiguousEdges<Body, std::enable_if_t<Body::kContiguousEdges>> : std::true_type {};

// Rows per thread of a row tile: up to 2, fewer where the closure and the
// accumulator would take the tile's shared memory past 24 KB. The walk's
// loads are not coalesced (row_share_walk): a thread's edges are re-read
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
// A row costs kRowTileRowCost units of a tile, an edge one: a tile of rows
// averaging d edges holds about units / (d + 4) rows, so that the per-row
// work (pre(), the scan, post()) and the per-tile barriers are spread over
// enough edges (with rows and edges one unit each, RMAT's tiles held 60
// rows of 16 edges, a few edges per thread per tile).
inline constexpr uint32_t kRowTileRowCost = 4;
// A tile's largest number of units (row_tile_units_for picks fewer on small
// graphs): its rows then number at most rows_per_thread * B.
template <int BlockThreads, class Body>
constexpr uint32_t row_tile_units() {
  return kRowTileRowCost * (BlockThreads * row_tile_rows_per_thread<BlockThreads, Body>() - 1);
}

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

// first_rows[t] for t in [0, tiles]: the first row of tile t (index.h:
// row_tile_first_row); first_rows[tiles] == rows. A thread per entry.
template <int BlockThreads, class Body>
__global__ void __launch_bounds__(BlockThreads)
    row_tile_starts_kernel(Body body, uint32_t rows, uint32_t units, uint64_t tiles,
                           uint32_t* first_rows) {
  const RowEnds<Body> ends{&body, body.edges_begin(0)};
  for (uint64_t t = global_thread(); t <= tiles; t += grid_threads())
    first_rows[t] =
        static_cast<uint32_t>(row_tile_first_row(t, units, kRowTileRowCost, ends, rows));
}

// Edges a thread of a row tile takes per step of its walk (row_share_walk):
// their edge() calls run back to back, so their loads overlap.
inline constexpr uint32_t kRowTileEdgeIlp = 4;

// A row tile's rows in shared memory (row_tiles): per row, its first edge
// among the tile's `total` packed edges, its first edge id, closure and
// accumulator.
template <class Body>
struct TileRows {
  VertexId first;  // the tile's first row
  uint32_t rows, total;
  const uint32_t* packed_offset;
  const uint64_t* begin;
  const typename Body::Closure* closure;
  typename Body::Accum* accum;

  __device__ uint32_t packed_end(uint32_t row) const {
    return row + 1 < rows ? packed_offset[row + 1] : total;
  }
  // The row holding packed edge k, past `row` (which held an earlier one).
  __device__ uint32_t row_after(uint32_t row, uint32_t k) const {
    if (row + 1 < rows && packed_end(row + 1) > k) return row + 1;  // the usual case
    return static_cast<uint32_t>(owning_tile(packed_offset, rows, k));  // past empty rows
  }
};

// Thread t of the block walks the tile's packed edges
// [t total / B, (t + 1) total / B) in order, summing a row's edges in a
// register (CUB's merge-based SpMV without its staging): a row it holds
// whole is stored to the row's accumulator, one it shares with a
// neighbouring thread (at most its first and its last) is combined by a
// shared atomic. A row costs a store, an edge no search and no shuffle.
// (Lanes on consecutive edges instead coalesce the loads but pay a search
// and a warp-wide combine whenever a lane changes rows: every step on rows
// of ~10 edges.) A step takes kRowTileEdgeIlp edges, whose edge() calls
// start from identity() and run back to back before they are folded in
// order: one edge at a time, each step waited for its loads.
template <int BlockThreads, class Body, class Counters>
__device__ void row_share_walk(Body& body, const TileRows<Body>& tile, Counters& counters) {
  using Accum = typename Body::Accum;
  const uint32_t share_begin = uint32_t(uint64_t(tile.total) * threadIdx.x / BlockThreads);
  const uint32_t share_end = uint32_t(uint64_t(tile.total) * (threadIdx.x + 1) / BlockThreads);
  if (share_begin >= share_end) return;
  // `row` is the row `partial` sums; `cursor` the row of the last edge taken.
  uint32_t row = static_cast<uint32_t>(owning_tile(tile.packed_offset, tile.rows, share_begin));
  uint32_t cursor = row, cursor_end = tile.packed_end(row);
  bool starts_here = tile.packed_offset[row] == share_begin;
  Accum partial = Body::identity();
  auto finish_row = [&](bool ends_here) {
    if constexpr (Body::kHasAccum) {
      if (starts_here && ends_here) tile.accum[row] = partial;
      else Body::atomic_combine(&tile.accum[row], partial);
      partial = Body::identity();
    }
  };
  auto step = [&](uint32_t k, auto full) {  // the share's edges [k, k + kRowTileEdgeIlp)
    uint32_t edge_row[kRowTileEdgeIlp];
    Accum edge_accum[kRowTileEdgeIlp];
#pragma unroll
    for (uint32_t j = 0; j < kRowTileEdgeIlp; ++j) {
      if ((full || k + j < share_end) && k + j >= cursor_end) {
        cursor = tile.row_after(cursor, k + j);
        cursor_end = tile.packed_end(cursor);
      }
      edge_row[j] = cursor;
    }
#pragma unroll
    for (uint32_t j = 0; j < kRowTileEdgeIlp; ++j) {
      edge_accum[j] = Body::identity();
      if (!full && k + j >= share_end) continue;
      const uint32_t r = edge_row[j];
      body.edge(tile.first + r, tile.begin[r] + (k + j - tile.packed_offset[r]), tile.closure[r],
                edge_accum[j]);
      counters.edges(1);
    }
#pragma unroll
    for (uint32_t j = 0; j < kRowTileEdgeIlp; ++j) {
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
  for (; k + kRowTileEdgeIlp <= share_end; k += kRowTileEdgeIlp) step(k, std::true_type{});
  if (k < share_end) step(k, std::false_type{});
  finish_row(cursor_end <= share_end);  // row == cursor now
}

// The tiles [0, tiles) cut by first_rows, grid-strided over the blocks.
// Rows above huge.threshold edges go to the huge list (Huge: HugeList, or
// NoHugeList where no row can be that long). The rows of a tile are
// RowsPerThread consecutive rows per thread (the scan's arrangement). Per
// tile: a barrier after the scan, one after the edges, one after post().
template <int BlockThreads, class Body, class Huge, class Counters>
__device__ void row_tiles(Body& body, const uint32_t* first_rows, uint64_t tiles, const Huge& huge,
                          Counters& counters) {
  using Closure = typename Body::Closure;
  using Accum = typename Body::Accum;
  constexpr uint32_t kRowsPerThread = row_tile_rows_per_thread<BlockThreads, Body>();
  constexpr uint32_t kRows = BlockThreads * kRowsPerThread;  // at most, per tile
  using BlockScan = cub::BlockScan<uint32_t, BlockThreads>;
  __shared__ typename BlockScan::TempStorage scan;
  // Per row of the tile: its first edge among the tile's packed edges (an
  // exclusive scan of the degrees of the rows that stay), its first edge id,
  // closure and accumulator. A tile's packed edges number fewer than its
  // units plus the edges of its first row: they fit 32 bits (rows of 2^32
  // edges less a tile would not).
  __shared__ uint32_t packed_offset[kRows];
  __shared__ uint64_t row_begin[kRows];
  __shared__ Closure row_closure[kRows];
  __shared__ Accum row_accum[Body::kHasAccum ? kRows : 1];

  for (uint64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const VertexId first = first_rows[tile];
    const uint32_t rows = first_rows[tile + 1] - first;
    uint32_t degree[kRowsPerThread];
    bool stays[kRowsPerThread];  // pre() passed and the row was not set aside
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
      row_begin[i] = begin;
      row_closure[i] = closure;
      if constexpr (Body::kHasAccum) row_accum[i] = Body::identity();
    }
    uint32_t total = 0;
    BlockScan(scan).ExclusiveSum(degree, degree, total);
#pragma unroll
    for (uint32_t j = 0; j < kRowsPerThread; ++j)
      if (threadIdx.x * kRowsPerThread + j < rows)
        packed_offset[threadIdx.x * kRowsPerThread + j] = degree[j];
    __syncthreads();

    row_share_walk<BlockThreads>(
        body, TileRows<Body>{first, rows, total, packed_offset, row_begin, row_closure, row_accum},
        counters);
    __syncthreads();  // post() comes after all of the rows' edges
#pragma unroll
    for (uint32_t j = 0; j < kRowsPerThread; ++j) {
      if (!stays[j]) continue;
      const uint32_t i = threadIdx.x * kRowsPerThread + j;
      counters.vertex(LoadPath::row);
      body.post(first + i, row_closure[i], Body::kHasAccum ? row_accum[i] : Body::identity());
    }
    __syncthreads();  // the next tile rewrites the shared rows
  }
}

template <int BlockThreads, class Body, class Huge, class Counters>
__global__ void __launch_bounds__(BlockThreads)
    row_tiles_kernel(Body body, const uint32_t* first_rows, uint64_t tiles, Huge huge,
                     Counters counters) {
  begin_body<BlockThreads>(body);
  row_tiles<BlockThreads>(body, first_rows, tiles, huge, counters);
  finish_body<BlockThreads>(body, counters);
}


}  // namespace irgl::gpu::schedule
