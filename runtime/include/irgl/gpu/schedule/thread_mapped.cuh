// Thread-mapped: a vertex per thread, its edges sequentially by that thread.
// The schedule of loops without an edge loop, whatever their policy
// (EdgePolicy below), and the fastest where degrees are small and even.
//
//   ThreadMapped<B>::run(body, frontier, state, options)   a kernel launch
//   InGrid<ThreadMapped<B>>::run(grid, body, frontier, items)  a persistent step
#pragma once

#include <cstdint>

#include "irgl/gpu/schedule/agent.cuh"
#include "irgl/gpu/schedule/grid.cuh"
#include "irgl/gpu/schedule/state.cuh"

namespace irgl::gpu::schedule {

template <int B, class Body, class Counters>
struct ThreadMappedAgent : AgentBase<B, Body, Counters> {
  using TempStorage = NoTempStorage;
  using Base = AgentBase<B, Body, Counters>;
  using Base::body;
  using Base::counters;

#if defined(__CUDACC__)
  __device__ ThreadMappedAgent(TempStorage&, Body& body, Counters& counters)
      : Base{body, counters} {}

  template <class Frontier>
  __device__ void run(const Frontier& frontier) {
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
#endif
};

template <int B>
struct ThreadMapped {
  template <class Body, class Frontier, class StateT>
  static void run(const Body& body, const Frontier& frontier, StateT& state,
                  const RunOptions& options = {}) {
    using Agent = ThreadMappedAgent<B, Body, typename StateT::Counters>;
    launch_agent<Agent>(state, options, "thread", body, frontier);
  }
};

// The policies that distribute edges derive from EdgePolicy: a loop nest
// without an edge loop has nothing to distribute and runs thread-mapped.
// Each defines run_edges() with run()'s parameters.
template <int B, class Policy>
struct EdgePolicy {
  template <class Body, class Frontier, class StateT>
  static void run(const Body& body, const Frontier& frontier, StateT& state,
                  const RunOptions& options = {}) {
    if constexpr (Body::kHasEdges) Policy::run_edges(body, frontier, state, options);
    else ThreadMapped<B>::run(body, frontier, state, options);
  }
};

#if defined(__CUDACC__)
// The frontier thread-mapped by the calling thread's block, inside a
// persistent kernel (no shared memory, no load counters).
template <int B, class Body, class Frontier>
__device__ void run_thread_mapped(Body& body, const Frontier& frontier, NoLoadCounters& counters) {
  NoTempStorage temp;
  ThreadMappedAgent<B, Body, NoLoadCounters>(temp, body, counters).run(frontier);
}

// One step of a round of a persistent kernel: the Body's block set-up,
// `edges` (the policy's work; a Body without an edge loop runs
// thread-mapped instead), the block's flush. Every thread of the grid
// calls it.
template <int B, class Body, class Frontier, class EdgeWork>
__device__ void grid_step(Body& body, const Frontier& frontier, EdgeWork&& edges) {
  NoLoadCounters counters;
  begin_body<B>(body);
  if constexpr (Body::kHasEdges) edges(counters);
  else run_thread_mapped<B>(body, frontier, counters);
  finish_body<B>(body, counters);
}
#endif

template <int B>
struct InGrid<ThreadMapped<B>> : InGridWithoutItems<ThreadMapped<B>> {
#if defined(__CUDACC__)
  template <class Body, class Frontier>
  __device__ static void run(const GridRound&, Body& body, const Frontier& frontier,
                             const GridItems<Body>&) {
    grid_step<B>(body, frontier, [&](NoLoadCounters& counters) {
      run_thread_mapped<B>(body, frontier, counters);
    });
  }
#endif
};

}  // namespace irgl::gpu::schedule
