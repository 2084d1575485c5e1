// Group-mapped: a vertex per group of G threads (cooperative groups;
// Warp<B> is G = 32, Block<B> is G = B). The group's first thread runs
// pre() and post(); the closure is broadcast to the group, whose threads
// stride over the edges; accumulators are reduced over the group; post()
// runs after all of the vertex's edges.
//
//   GroupMapped<B, G>::run(body, frontier, state, options)   a kernel launch
//   InGrid<GroupMapped<B, G>>::run(grid, body, frontier, items)  a persistent step
#pragma once

#include <cstdint>
#include <type_traits>

#include "irgl/gpu/schedule/thread_mapped.cuh"

namespace irgl::gpu::schedule {

template <int BlockThreads, int GroupSize>
constexpr void check_group_size() {
  static_assert(GroupSize >= 2 && GroupSize <= BlockThreads && BlockThreads % GroupSize == 0 &&
                    (GroupSize & (GroupSize - 1)) == 0,
                "GroupSize: a power of two from 2 to the block size");
}

// Groups of several warps share their closures and reduce their
// accumulators in shared memory; groups within a warp use shuffles.
template <int B, int G, class Body>
struct MultiWarpGroupStorage {
  static constexpr unsigned kGroups = B / G;
  typename Body::Closure group_closure[kGroups];
  bool group_active[kGroups];
  typename Body::Accum group_accum[Body::kHasAccum ? B : 1];
};

#if defined(__CUDACC__)
// One vertex of a group of at most 32 threads: its first thread runs pre()
// (after the frontier's membership test, for an item of the frontier) and
// post(); the closure is broadcast, the edges strided over the group, the
// accumulators reduced by shuffles.
template <class Tile, class Body, class Frontier, class Counters>
__device__ void run_group_item(const Tile& group, Body& body, const Frontier& frontier, VertexId v,
                               bool from_frontier, Counters& counters) {
  const bool leader = group.thread_rank() == 0;
  typename Body::Closure closure;
  bool active = false;
  if (leader) active = from_frontier ? admit_item(body, frontier, v, closure) : body.pre(v, closure);
  if (!group.shfl(active, 0)) return;
  closure = shfl_any(group, closure, 0);
  const uint64_t begin = body.edges_begin(v), end = body.edges_end(v);
  typename Body::Accum accum = Body::identity();
  run_edges_strided(group, body, v, closure, begin, end, accum, counters);
  if constexpr (Body::kHasAccum) accum = reduce_any<Body>(group, accum);
  else group.sync();  // post() comes after all of the vertex's edges
  if (leader) {
    counters.vertex(LoadPath::group);
    body.post(v, closure, accum);
  }
}

// The frontier's items a vertex per group of at most 32 threads (a
// cooperative-groups tile or a VirtualWarpTile): group `first` of `groups`
// takes items first, first + groups, ... (run_group_item). With `chain` > 1
// and a Body that chains its pushes (ChainsPushes), a warp goes on with the
// first vertex it pushed, kept in a shared slot instead of the queue, up to
// `chain` vertices an item: a road graph's Bellman-Ford then takes a few
// times fewer rounds, each dependent step a warp's trip instead of a
// round's (docs/experiments/2026-11-30-one-block-global.md).
template <class Tile, class Body, class Frontier, class Counters>
__device__ void run_group_items(const Tile& group, uint64_t first, uint64_t groups, Body& body,
                                const Frontier& frontier, Counters& counters, unsigned chain = 1) {
  const uint64_t items = frontier.size();
  if constexpr (ChainsPushes<Body>::value) {
    __shared__ VertexId slots[32];  // a warp's each, at most 1,024 threads a block
    if (chain > 1 && group.size() == 32) {
      VertexId* slot = &slots[threadIdx.x / 32];
      for (uint64_t i = first; i < items; i += groups) {
        VertexId v = frontier[i];
        for (unsigned step = 1;; ++step) {
          const bool chains = step < chain;
          group.sync();  // every thread has read the slot of the step before
          if (chains && group.thread_rank() == 0) *slot = kNoChainedVertex;
          group.sync();
          body.chain_pushes(chains ? slot : nullptr);
          run_group_item(group, body, frontier, v, step == 1, counters);
          group.sync();  // the slot holds the vertex's first push, if any
          const VertexId next = *slot;
          if (!chains || next == kNoChainedVertex) break;
          v = next;
        }
      }
      body.chain_pushes(nullptr);
      return;
    }
  }
  for (uint64_t i = first; i < items; i += groups)
    run_group_item(group, body, frontier, frontier[i], true, counters);
}
#endif

template <int B, int G, class Body, class Counters>
struct GroupMappedAgent : AgentBase<B, Body, Counters> {
  using TempStorage =
      std::conditional_t<(G <= 32), NoTempStorage, MultiWarpGroupStorage<B, G, Body>>;
  using Base = AgentBase<B, Body, Counters>;
  using typename Base::Accum;
  using typename Base::Closure;
  using Base::body;
  using Base::counters;

#if defined(__CUDACC__)
  TempStorage& temp;

  __device__ GroupMappedAgent(TempStorage& temp, Body& body, Counters& counters)
      : Base{body, counters}, temp(temp) {
    check_group_size<B, G>();
  }

  // `chain`: run_group_items' (groups of a warp; larger groups do not chain).
  template <class Frontier>
  __device__ void run(const Frontier& frontier, unsigned chain = 1) {
    if constexpr (G <= 32) warp_groups(frontier, chain);
    else multi_warp_groups(frontier);
  }

 private:
  // Groups within a warp: shuffles and warp-level syncs.
  template <class Frontier>
  __device__ void warp_groups(const Frontier& frontier, unsigned chain) {
    const auto group = cg::tiled_partition<G <= 32 ? G : 32>(cg::this_thread_block());
    run_group_items(group, group_of(blockIdx.x, threadIdx.x, B, G), group_count(gridDim.x, B, G),
                    body, frontier, counters, chain);
  }

  // Combines each group's accumulators (G consecutive threads) through
  // shared memory by a tree; the result is valid in the group's first
  // thread. Every thread of the block calls it.
  __device__ Accum reduce_in_shared(const Accum& value) {
    const unsigned rank = threadIdx.x % G;
    Accum* scratch = temp.group_accum;
    scratch[threadIdx.x] = value;
    __syncthreads();
    for (unsigned half = G / 2; half > 0; half /= 2) {
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
  // (each takes its next item, or idles), so that block-wide barriers order
  // the closure broadcast, the accumulator reduction and post(): barriers
  // every tool understands (compute-sanitizer's racecheck does not see
  // cooperative groups' multi-warp syncs).
  template <class Frontier>
  __device__ void multi_warp_groups(const Frontier& frontier) {
    const unsigned slot = threadIdx.x / G, rank = threadIdx.x % G;
    const uint64_t items = frontier.size();
    const uint64_t groups = group_count(gridDim.x, B, G);
    for (uint64_t round = group_of(blockIdx.x, 0, B, G); round < items; round += groups) {
      const uint64_t i = round + slot;  // this group's item of the round
      const VertexId v = i < items ? frontier[i] : 0;
      if (rank == 0) {
        Closure closure;
        temp.group_active[slot] = i < items && admit_item(body, frontier, v, closure);
        temp.group_closure[slot] = closure;
      }
      __syncthreads();
      const bool active = temp.group_active[slot];
      const Closure closure = temp.group_closure[slot];
      Accum accum = Body::identity();
      if (active) {
        const uint64_t begin = body.edges_begin(v), end = body.edges_end(v);
        for (uint64_t e = begin + rank; e < end; e += G) {
          body.edge(v, e, closure, accum);
          counters.edges(1);
        }
      }
      if constexpr (Body::kHasAccum) accum = reduce_in_shared(accum);
      __syncthreads();  // post() comes after all of the vertex's edges
      if (rank == 0 && active) {
        counters.vertex(LoadPath::group);
        body.post(v, closure, accum);
      }
      __syncthreads();  // the shared slots are rewritten next round
    }
  }
#endif
};

template <int B, int G>
struct GroupMapped : EdgePolicy<B, GroupMapped<B, G>> {
  template <class Body, class Frontier, class StateT>
  static void run_edges(const Body& body, const Frontier& frontier, StateT& state,
                        const RunOptions& options) {
    using Agent = GroupMappedAgent<B, G, Body, typename StateT::Counters>;
    launch_agent<Agent>(state, options, "group", body, frontier);
  }
};
template <int B>
using Warp = GroupMapped<B, 32>;
template <int B>
using Block = GroupMapped<B, B>;

template <int B, int G>
struct InGrid<GroupMapped<B, G>> : InGridWithoutItems<GroupMapped<B, G>> {
#if defined(__CUDACC__)
  template <class Body, class Frontier>
  __device__ static void run(const GridRound&, Body& body, const Frontier& frontier,
                             const GridItems<Body>& items) {
    using Agent = GroupMappedAgent<B, G, Body, NoLoadCounters>;
    __shared__ typename Agent::TempStorage temp;
    grid_step<B>(body, frontier, [&](NoLoadCounters& counters) {
      Agent(temp, body, counters).run(frontier, items.chain);
    });
  }
#endif
};

}  // namespace irgl::gpu::schedule
