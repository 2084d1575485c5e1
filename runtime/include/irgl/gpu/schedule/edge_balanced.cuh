// The edge-balanced schedules, LB and merge-path, and the phase ALB's huge
// vertices share with them: a gather phase runs pre() for every item and
// records its vertex, closure and degree; a prefix sum of the degrees (CUB)
// gives each item's first edge index; an edge phase spreads the edges over
// all threads of the grid, combining accumulator partials into the items'
// accumulators with atomics; a post phase then runs post() once per active
// item.
//   Lb<B>         each thread takes atoms cyclically (or in one block) and
//                 finds each atom's item by binary search in the prefix sum
//   MergePath<B>  each thread takes an equal share of items + edges along
//                 the merge path (a 2-D binary search)
//
//   Lb<B>::run(body, frontier, state, options)             kernel launches
//   InGrid<Lb<B>>::run(grid, body, frontier, items)        a persistent step
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "irgl/gpu/schedule/thread_mapped.cuh"

namespace irgl::gpu::schedule {

#if defined(__CUDACC__)

// Gather: frontier items [first, end) into items[0, end - first).
template <int B, class Body, class Counters>
struct GatherAgent : AgentBase<B, Body, Counters> {
  using TempStorage = NoTempStorage;
  using Base = AgentBase<B, Body, Counters>;
  using Base::body;
  using Base::counters;

  __device__ GatherAgent(TempStorage&, Body& body, Counters& counters) : Base{body, counters} {}

  template <class Frontier>
  __device__ void run(const Frontier& frontier, const ItemArrays<Body>& items) {
    run(frontier, items, 0, frontier.size());
  }
  template <class Frontier>
  __device__ void run(const Frontier& frontier, const ItemArrays<Body>& items, uint64_t first,
                      uint64_t end) {
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
};

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

// The edges of items[0, count), spread over the grid: each thread takes
// atoms (edge indices in [0, total)) cyclically or in one block and finds
// each atom's item by binary search in the prefix sum.
template <int B, class Body, class Counters, Distribution Dist>
struct EdgeBalancedAgent : AgentBase<B, Body, Counters> {
  using TempStorage = NoTempStorage;
  using Base = AgentBase<B, Body, Counters>;
  using Base::body;
  using Base::counters;

  __device__ EdgeBalancedAgent(TempStorage&, Body& body, Counters& counters)
      : Base{body, counters} {}

  __device__ void run(const ItemArrays<Body>& items) { run(items, items.stored()); }
  __device__ void run(const ItemArrays<Body>& items, uint64_t count) {
    const uint64_t total = items.offsets[count];
    PartialAccum<Body> partial;
    if constexpr (Dist == Distribution::cyclic) cyclic(items, count, total, partial);
    else blocked(items, count, total, partial);
    partial.flush_warp(items);  // every thread of the grid gets here
  }

 private:
  __device__ void process(const ItemArrays<Body>& items, uint64_t item, uint64_t atom,
                          PartialAccum<Body>& partial) {
    body.edge(items.vertices[item], items.begins[item] + (atom - items.offsets[item]),
              items.closures[item], partial.value);
    counters.edges(1);
  }

  // A warp's lanes take consecutive atoms and step together; when one of
  // them moves to another item, the warp flushes its partials by runs
  // (flush_warp). Items of fewer edges than the grid has threads would
  // otherwise cost an atomic per thread and item, 32 per warp on one
  // accumulator.
  __device__ void cyclic(const ItemArrays<Body>& items, uint64_t count, uint64_t total,
                         PartialAccum<Body>& partial) {
    const auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    const CyclicAtoms atoms = cyclic_atoms(global_thread(), grid_threads(), total);
    for (uint64_t atom = atoms.begin(); warp.any(atoms.valid(atom)); atom = atoms.next(atom)) {
      const bool valid = atoms.valid(atom);
      const uint64_t item = valid ? owning_tile(items.offsets, count, atom) : partial.item;
      if constexpr (Body::kHasAccum)
        if (warp.any(item != partial.item)) partial.flush_warp(items);
      partial.item = item;
      if (valid) process(items, item, atom, partial);
    }
  }

  __device__ void blocked(const ItemArrays<Body>& items, uint64_t count, uint64_t total,
                          PartialAccum<Body>& partial) {
    const IndexRange atoms = blocked_atoms(global_thread(), grid_threads(), total);
    for (uint64_t atom = atoms.begin; atom < atoms.end; ++atom) {
      const uint64_t item = owning_tile(items.offsets, count, atom);
      partial.switch_to(item, items);
      process(items, item, atom, partial);
    }
  }
};

// Merge-path: each thread takes an equal share of (items + edges) along the
// merge of the items' edge ranges, found by a 2-D binary search.
template <int B, class Body, class Counters>
struct MergePathAgent : AgentBase<B, Body, Counters> {
  using TempStorage = NoTempStorage;
  using Base = AgentBase<B, Body, Counters>;
  using Base::body;
  using Base::counters;

  __device__ MergePathAgent(TempStorage&, Body& body, Counters& counters) : Base{body, counters} {}

  __device__ void run(const ItemArrays<Body>& items) { run(items, items.stored()); }
  __device__ void run(const ItemArrays<Body>& items, uint64_t count) {
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
        body.edge(items.vertices[at.tile],
                  items.begins[at.tile] + (at.atom - items.offsets[at.tile]),
                  items.closures[at.tile], partial.value);
        counters.edges(1);
        ++at.atom;
      } else {
        ++at.tile;  // the end of an item
      }
    }
    partial.flush(items);
  }
};

// post() once per active item, after all edges are done.
template <int B, class Body, class Counters>
struct PostAgent : AgentBase<B, Body, Counters> {
  using TempStorage = NoTempStorage;
  using Base = AgentBase<B, Body, Counters>;
  using Base::body;

  __device__ PostAgent(TempStorage&, Body& body, Counters& counters) : Base{body, counters} {}

  __device__ void run(const ItemArrays<Body>& items) { run(items, items.stored()); }
  __device__ void run(const ItemArrays<Body>& items, uint64_t count) {
    for (uint64_t i = global_thread(); i < count; i += grid_threads())
      if (items.active[i])
        body.post(items.vertices[i], items.closures[i],
                  Body::kHasAccum ? items.accums[i] : Body::identity());
  }
};

// The phases after a gather in a persistent kernel: prefix sum of the
// degrees, `edges(count)` (the schedule's edge phase over items[0, count)),
// then post(). Every thread of the grid calls it; ends without a final
// barrier.
template <int B, class Body, class EdgePhase>
__device__ void item_phases_in_grid(GridScanStorage<B>& scan, const GridRound& grid, Body& body,
                                    const ItemArrays<Body>& items, uint64_t count,
                                    EdgePhase&& edges) {
  NoLoadCounters counters;
  NoTempStorage none;
  grid_exclusive_sum<B>(scan, grid, items.degrees, items.offsets, count);
  grid.sync();
  edges(count);
  if constexpr (Body::kHasPost || Body::kHasAccum) {
    grid.sync();
    PostAgent<B, Body, NoLoadCounters>(none, body, counters).run(items, count);
  }
}

// The edge-balanced phase over items[0, count) in a persistent kernel, as
// LB, merge-path and ALB's huge vertices run it.
template <int B, class Body>
__device__ void edge_balanced_in_grid(GridScanStorage<B>& scan, const GridRound& grid, Body& body,
                                      const ItemArrays<Body>& items, uint64_t count,
                                      bool merge_path, Distribution distribution) {
  item_phases_in_grid<B>(scan, grid, body, items, count, [&](uint64_t count) {
    NoLoadCounters counters;
    NoTempStorage none;
    if (merge_path)
      MergePathAgent<B, Body, NoLoadCounters>(none, body, counters).run(items, count);
    else if (distribution == Distribution::cyclic)
      EdgeBalancedAgent<B, Body, NoLoadCounters, Distribution::cyclic>(none, body, counters)
          .run(items, count);
    else
      EdgeBalancedAgent<B, Body, NoLoadCounters, Distribution::blocked>(none, body, counters)
          .run(items, count);
  });
}

// A frontier in chunks of the items' capacity inside a persistent kernel:
// each chunk gathered, then item_phases_in_grid with `edges`. One step of
// a round (grid_step); every thread of the grid calls it.
template <int B, class Body, class Frontier, class EdgePhase>
__device__ void chunked_items_in_grid(const GridRound& grid, Body& body, const Frontier& frontier,
                                      const ItemArrays<Body>& items, EdgePhase&& edges) {
  __shared__ GridScanStorage<B> scan;
  grid_step<B>(body, frontier, [&](NoLoadCounters& counters) {
    const uint64_t size = frontier.size();
    NoTempStorage none;
    for (uint64_t first = 0; first < size; first += items.capacity) {
      if (first > 0) grid.sync();  // the previous chunk is done with the arrays
      const uint64_t count = min(size - first, items.capacity);
      GatherAgent<B, Body, NoLoadCounters>(none, body, counters)
          .run(frontier, items, first, first + count);
      grid.sync();
      item_phases_in_grid<B>(scan, grid, body, items, count, edges);
    }
  });
}

#endif  // __CUDACC__

namespace detail {

#if defined(__CUDACC__)
// The phases after a gather, shared by the schedules that spread edges
// over the grid: scan the items' degrees, launch_edges() (the schedule's
// edge phase), then run post().
template <int B, class Body, class StateT, class LaunchEdges>
void run_item_phases(const Body& body, ItemArrays<Body> items, uint64_t count, StateT& state,
                     const RunOptions& options, LaunchEdges&& launch_edges) {
  state.prefix_sum(items, count, options.stream);
  launch_edges();
  // post() is not instrumented: no counters, no record.
  if (Body::kHasPost || Body::kHasAccum) {
    const auto kernel = agent_kernel<PostAgent<B, Body, NoLoadCounters>, ItemArrays<Body>>;
    launch_plain(state, options, kernel, B, body, NoLoadCounters{}, items);
  }
}

// The edge-balanced part shared by Lb, MergePath and Alb.
template <int B, class Body, class StateT>
void run_items(const Body& body, ItemArrays<Body> items, uint64_t count, StateT& state,
               const RunOptions& options, bool merge_path, Distribution distribution,
               const char* phase) {
  using Counters = typename StateT::Counters;
  run_item_phases<B>(body, items, count, state, options, [&] {
    if (merge_path)
      launch_agent<MergePathAgent<B, Body, Counters>>(state, options, phase, body, items);
    else if (distribution == Distribution::cyclic)
      launch_agent<EdgeBalancedAgent<B, Body, Counters, Distribution::cyclic>>(
          state, options, phase, body, items);
    else
      launch_agent<EdgeBalancedAgent<B, Body, Counters, Distribution::blocked>>(
          state, options, phase, body, items);
  });
}

// The frontier's items gathered into the State's arrays; their count, or
// 0 when the frontier is empty (nothing launched).
template <int B, class Body, class Frontier, class StateT>
uint64_t gather_items(const Body& body, const Frontier& frontier, StateT& state,
                      const RunOptions& options, ItemArrays<Body>& items) {
  const uint64_t count = frontier_size(frontier, options.stream);
  if (count == 0) return 0;
  items = state.items(count);
  store_count(state.count(), count, options.stream);
  launch_agent<GatherAgent<B, Body, typename StateT::Counters>>(state, options, "gather", body,
                                                                frontier, items);
  return count;
}
#endif

}  // namespace detail

// The edge-balanced schedules need the frontier's size on the host (known
// for topology-driven loops and for a pipe's input right after empty()).
template <int B, bool UseMergePath, Distribution Dist>
struct EdgeBalanced : EdgePolicy<B, EdgeBalanced<B, UseMergePath, Dist>> {
  template <class Body, class Frontier, class StateT>
  static void run_edges(const Body& body, const Frontier& frontier, StateT& state,
                        const RunOptions& options) {
    ItemArrays<Body> items;
    const uint64_t count = detail::gather_items<B>(body, frontier, state, options, items);
    if (count == 0) return;
    detail::run_items<B>(body, items, count, state, options, UseMergePath, Dist,
                         UseMergePath ? "merge-path" : "edges");
  }
};
template <int B>
using Lb = EdgeBalanced<B, false, Distribution::cyclic>;
template <int B>
using MergePath = EdgeBalanced<B, true, Distribution::cyclic>;

// LB and merge-path in a persistent kernel: the frontier in chunks of
// shape.chunk_items items, each gathered, scanned and spread over the grid.
template <int B, bool UseMergePath, Distribution Dist>
struct InGrid<EdgeBalanced<B, UseMergePath, Dist>> {
  template <class Body, class StateT>
  static GridItems<Body> items(const Body&, StateT& state, const RunOptions&,
                               const OutlineShape& shape) {
    GridItems<Body> grid_items;
    if constexpr (Body::kHasEdges) grid_items.items = state.items(shape.chunk_items);
    return grid_items;
  }

#if defined(__CUDACC__)
  template <class Body, class Frontier>
  __device__ static void run(const GridRound& grid, Body& body, const Frontier& frontier,
                             const GridItems<Body>& grid_items) {
    const ItemArrays<Body>& items = grid_items.items;
    chunked_items_in_grid<B>(grid, body, frontier, items, [&](uint64_t count) {
      NoLoadCounters counters;
      NoTempStorage none;
      if constexpr (UseMergePath)
        MergePathAgent<B, Body, NoLoadCounters>(none, body, counters).run(items, count);
      else
        EdgeBalancedAgent<B, Body, NoLoadCounters, Dist>(none, body, counters).run(items, count);
    });
  }
#endif
};

}  // namespace irgl::gpu::schedule
