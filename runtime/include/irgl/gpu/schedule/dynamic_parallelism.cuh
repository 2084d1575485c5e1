// Dynamic parallelism (paper 002): TWC (twc.cuh) whose inspection hands
// each vertex of degree above ALB's threshold to a child grid that the
// inspecting thread launches from the device, where ALB (alb.cuh) sets
// the same vertices aside and spreads their edges over the whole grid in
// a second phase. The child grids' edges are strided over their threads;
// their blocks combine the vertex's accumulators in the set-aside slot,
// and the last block to finish runs its post(). A launch starts at most
// DpTuning::kMaxChildGrids children; further huge vertices stay in TWC.
//
//   Dp<B>::run(body, frontier, state, options)           kernel launches
//   InGrid<Dp<B>>::run(grid, body, frontier, items)      ALB's persistent step
//
// Device-side launches need relocatable device code: compile with
// -rdc=true and link cudadevrt (irglc_add_program does it for SCHEDULE dp).
// A launch the device refuses, or one beyond kMaxChildGrids, leaves its
// vertex to TWC's block bin.
// The persistent form is ALB's: a running cooperative grid cannot wait for
// children it launched, so its next round could start before they finish.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>
#include <cub/block/block_reduce.cuh>

#include "irgl/gpu/schedule/alb.cuh"

namespace irgl::gpu::schedule {

// Tuning: a child grid gives each thread about kEdgesPerThread edges; a
// launch starts at most kMaxChildGrids children. The device keeps 2048
// launches pending by default (cudaLimitDevRuntimePendingLaunchCount),
// and a launch beyond that waits for a slot, which only a child that
// starts frees: with the parent's resident grid filling every SM, none
// can start, and the parent never ends (an H200 hung on 40,000 children).
struct DpTuning {
  static constexpr uint64_t kEdgesPerThread = 4;
  static constexpr uint64_t kMaxChildGrids = 1024;
};

// The blocks of a child grid over `degree` edges.
template <int B, class Tuning>
IRGL_HD unsigned child_grid_blocks(uint64_t degree) {
  const uint64_t per_block = uint64_t(B) * Tuning::kEdgesPerThread;
  const uint64_t blocks = (degree + per_block - 1) / per_block;
  return unsigned(blocks < 65535 ? blocks : 65535);
}

#if defined(__CUDACC__)

// A value another grid wrote, read from L2 (past this SM's L1, which may
// hold an older copy): a 32-bit word at a time, or a byte at a time for
// sizes that are not whole words (a volatile load would need T to have a
// volatile copy constructor, which structs do not).
template <class T>
__device__ T load_from_l2(const T* source) {
  using Unit = std::conditional_t<sizeof(T) % 4 == 0, unsigned, unsigned char>;
  constexpr unsigned kUnits = sizeof(T) / sizeof(Unit);
  const Unit* units = reinterpret_cast<const Unit*>(source);
  Unit copy[kUnits];
#pragma unroll
  for (unsigned u = 0; u < kUnits; ++u) copy[u] = __ldcg(units + u);
  T value;
  memcpy(&value, copy, sizeof(T));
  return value;
}

// One set-aside vertex's edges over a child grid. The list's `offsets`
// entry of the slot counts the grid's finished blocks (the list is never
// scanned under this schedule); the last block runs post().
template <int B, class Body, class Counters>
struct ChildEdgesAgent : AgentBase<B, Body, Counters> {
  using Base = AgentBase<B, Body, Counters>;
  using typename Base::Accum;
  using Base::body;
  using Base::counters;
  using BlockReduce = cub::BlockReduce<Accum, B>;
  struct TempStorage {
    typename BlockReduce::TempStorage reduce;
    bool last_block;
  };
  TempStorage& temp;

  __device__ ChildEdgesAgent(TempStorage& temp, Body& body, Counters& counters)
      : Base{body, counters}, temp(temp) {}

  __device__ void run(const ItemArrays<Body>& list, uint64_t slot) {
    const VertexId v = list.vertices[slot];
    const typename Body::Closure closure = list.closures[slot];
    const uint64_t begin = list.begins[slot], end = begin + list.degrees[slot];
    Accum partial = Body::identity();
    for (uint64_t e = begin + global_thread(); e < end; e += grid_threads()) {
      body.edge(v, e, closure, partial);
      counters.edges(1);
    }
    if constexpr (Body::kHasAccum) {
      const Accum total = BlockReduce(temp.reduce).Reduce(partial, CombineAccum<Body>());
      if (threadIdx.x == 0) Body::atomic_combine(&list.accums[slot], total);
    }
    if constexpr (Body::kHasPost || Body::kHasAccum) finish_vertex(list, slot, v, closure);
  }

 private:
  // The last block of the grid to get here runs the vertex's post().
  __device__ void finish_vertex(const ItemArrays<Body>& list, uint64_t slot, VertexId v,
                                const typename Body::Closure& closure) {
    if (threadIdx.x == 0) {
      __threadfence();  // this block's combine before its count
      auto* done = reinterpret_cast<unsigned long long*>(&list.offsets[slot]);
      temp.last_block = atomicAdd(done, 1ull) == gridDim.x - 1;
    }
    __syncthreads();
    if (!temp.last_block || threadIdx.x != 0) return;
    __threadfence();  // every block's combine is visible past its count
    typename Body::Accum accum = Body::identity();
    if constexpr (Body::kHasAccum) accum = load_from_l2(&list.accums[slot]);
    body.post(v, closure, accum);
  }
};
#endif  // __CUDACC__

// TWC's inspection target: set-aside vertices go to child grids. push()
// stores the vertex in ALB's list (its slot holds what the child reads)
// and launches; false when the list or the launch's quota of children is
// full or the launch was refused, and TWC's bin for its degree takes the
// vertex.
template <int B, class Body, class Tuning>
struct ChildGrids {
  static constexpr bool kEnabled = true;
  static constexpr bool kHandsOver = false;
  uint64_t threshold = 0;
  ItemArrays<Body> list;
  unsigned long long* count = nullptr;
  Body body;  // the launch's Body, as the host made it, for the children

#if defined(__CUDACC__)
  __device__ bool push(VertexId v, const typename Body::Closure& closure, uint64_t begin,
                       uint64_t degree) const {
#if defined(__CUDACC_RDC__)
    const unsigned long long slot = atomicAdd(count, 1ull);
    if (slot >= list.capacity || slot >= Tuning::kMaxChildGrids) return false;
    list.vertices[slot] = v;
    list.closures[slot] = closure;
    list.begins[slot] = begin;
    list.degrees[slot] = degree;
    list.offsets[slot] = 0;
    if constexpr (Body::kHasAccum) list.accums[slot] = Body::identity();
    using Child = ChildEdgesAgent<B, Body, NoLoadCounters>;
    // Fire-and-forget: each child runs on its own, and the parent grid
    // completes only once all of them have.
    agent_kernel<Child, ItemArrays<Body>, uint64_t>
        <<<child_grid_blocks<B, Tuning>(degree), B, 0, cudaStreamFireAndForget>>>(
            body, NoLoadCounters{}, list, uint64_t(slot));
    return cudaGetLastError() == cudaSuccess;
#else
    static_assert(sizeof(Body) == 0,
                  "schedule dp launches child grids from the device: compile with -rdc=true and "
                  "link cudadevrt (irglc_add_program(... SCHEDULE dp) does)");
    return false;
#endif
  }
#endif  // __CUDACC__
};

// Tuning: DpTuning's members (child grid sizes) and AlbTuning's (the
// threshold's cap).
template <int B, class Tuning = DpTuning, class AlbTuningT = AlbTuning>
struct Dp : EdgePolicy<B, Dp<B, Tuning, AlbTuningT>> {
  template <class Body, class Frontier, class StateT>
  static void run_edges(const Body& body, const Frontier& frontier, StateT& state,
                        const RunOptions& options) {
    using Children = ChildGrids<B, Body, Tuning>;
    const auto launch_children = [&](uint64_t threshold, const ItemArrays<Body>& items) {
      return Children{threshold, items, state.count(), body};
    };
    run_twc_setting_aside<B, AlbTuningT::kThresholdCap, Children>("dp", body, frontier, state,
                                                                  options, launch_children);
  }
};

template <int B, class Tuning, class AlbTuningT>
struct InGrid<Dp<B, Tuning, AlbTuningT>> : InGrid<Alb<B, AlbTuningT>> {};

}  // namespace irgl::gpu::schedule
