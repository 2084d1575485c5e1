// A schedule of your own, outside irglc (docs/schedules.md, "Your own
// schedule"): each thread takes a contiguous run of the frontier's vertices,
// each vertex's edges sequentially -- thread-mapped with a blocked rather
// than a cyclic assignment of vertices to threads. Any .irgl program runs
// its edge loops with it:
//
//   irglc bfs.irgl -o bfs.cu --schedule=extern:ext::BlockedThreads
//         --schedule-header=lang-examples/user-schedule/blocked_threads.cuh
//
// or '#pragma irgl schedule(extern:ext::BlockedThreads)' above one loop.
// A schedule is a class template over the block size B whose static run()
// takes a Body, a frontier, the launch site's State and its RunOptions, the
// same as the built-in ones (runtime/include/irgl/gpu/schedule/).
#pragma once

#include <irgl/gpu/schedule/schedules.cuh>

namespace ext {

namespace schedule = irgl::gpu::schedule;

// The block-level agent: what the threads of one block do with the frontier.
template <int B, class Body, class Counters>
struct BlockedThreadsAgent : schedule::AgentBase<B, Body, Counters> {
  using TempStorage = schedule::NoTempStorage;  // no shared memory
  using Base = schedule::AgentBase<B, Body, Counters>;
  using Base::body;
  using Base::counters;

#if defined(__CUDACC__)
  __device__ BlockedThreadsAgent(TempStorage&, Body& body, Counters& counters)
      : Base{body, counters} {}

  template <class Frontier>
  __device__ void run(const Frontier& frontier) {
    const uint64_t items = frontier.size();
    const uint64_t per_thread = schedule::ceil_div(items, schedule::grid_threads());
    const uint64_t first = schedule::global_thread() * per_thread;
    const uint64_t last = first + per_thread < items ? first + per_thread : items;
    for (uint64_t i = first; i < last; ++i) {
      const irgl::VertexId v = frontier[i];
      typename Body::Closure closure;
      if (!schedule::admit_item(body, frontier, v, closure)) continue;  // pre() said no
      counters.vertex(schedule::LoadPath::thread);
      schedule::run_edges_sequentially(body, v, closure, counters);  // edge()s, then post()
    }
  }
#endif
};

// The policy irglc names. EdgePolicy runs loops without an edge loop
// thread-mapped and hands the others to run_edges().
template <int B>
struct BlockedThreads : schedule::EdgePolicy<B, BlockedThreads<B>> {
  template <class Body, class Frontier, class StateT>
  static void run_edges(const Body& body, const Frontier& frontier, StateT& state,
                        const schedule::RunOptions& options) {
    using Agent = BlockedThreadsAgent<B, Body, typename StateT::Counters>;
    schedule::launch_agent<Agent>(state, options, "blocked-threads", body, frontier);
  }
};

}  // namespace ext
