// Virtual warps (Hong et al.) and dynamic virtual warps (Busato et al.),
// as paper 002 compares them: a vertex per virtual warp of 2 to 32 lanes,
// its edges strided over the lanes, like group:N but with the size chosen
// at run time (agent.cuh: VirtualWarpTile):
//   VirtualWarp<B>         per graph: the smallest power of two covering the
//                          graph's mean degree (index.h: virtual_warp_width)
//   DynamicVirtualWarp<B>  per launch: the same rule over the mean degree of
//                          32 of the launch's frontier items, sampled evenly
//                          by every block (the same sample, so the blocks
//                          agree), so the size follows a traversal's rounds
//
//   VirtualWarp<B>::run(body, frontier, state, options)           a kernel launch
//   InGrid<VirtualWarp<B>>::run(grid, body, frontier, items)      a persistent step
#pragma once

#include <cstdint>

#include "irgl/gpu/schedule/group_mapped.cuh"

namespace irgl::gpu::schedule {

// The virtual warp of a run's graph: 32 lanes when the graph is unknown.
inline unsigned graph_virtual_warp_width(const RunOptions& options) {
  return options.graph.known() ? virtual_warp_width(options.graph.mean()) : 32;
}

#if defined(__CUDACC__)

// The mean degree of up to 32 members of the frontier taken at even
// spacing, as a virtual warp size. The 32 lanes of one warp call it; all
// get the size.
template <class Body, class Frontier>
__device__ unsigned sampled_virtual_warp_width(Body& body, const Frontier& frontier) {
  const uint64_t items = frontier.size();
  const unsigned lane = threadIdx.x % 32;
  const uint64_t samples = items < 32 ? items : 32;
  uint64_t degree = 0;
  unsigned members = 0;
  if (lane < samples) {
    const VertexId v = frontier[lane * items / samples];
    if (frontier.contains(v)) {
      degree = body.edges_end(v) - body.edges_begin(v);
      members = 1;
    }
  }
  for (unsigned offset = 16; offset > 0; offset /= 2) {
    degree += __shfl_xor_sync(~0u, degree, offset);
    members += __shfl_xor_sync(~0u, members, offset);
  }
  return virtual_warp_width(members ? double(degree) / members : 0.0);
}

// A vertex per virtual warp of `width` lanes (0: sampled from the
// frontier at the start of the launch).
template <int B, class Body, class Counters>
struct VirtualWarpAgent : AgentBase<B, Body, Counters> {
  static_assert(B % 32 == 0, "virtual warps need blocks of whole warps");
  struct TempStorage {
    unsigned width;
  };
  using Base = AgentBase<B, Body, Counters>;
  using Base::body;
  using Base::counters;
  TempStorage& temp;

  __device__ VirtualWarpAgent(TempStorage& temp, Body& body, Counters& counters)
      : Base{body, counters}, temp(temp) {}

  template <class Frontier>
  __device__ void run(const Frontier& frontier, unsigned width) {
    if (width == 0) {
      if (threadIdx.x < 32) {
        const unsigned sampled = sampled_virtual_warp_width(body, frontier);
        if (threadIdx.x == 0) temp.width = sampled;
      }
      __syncthreads();
      width = temp.width;
    }
    const VirtualWarpTile group = VirtualWarpTile::of_this_thread(width);
    run_group_items(group, global_thread() / width, grid_threads() / width, body, frontier,
                    counters);
  }
};

#endif  // __CUDACC__

// Virtual warps of a size per graph (Dynamic = false) or per launch.
template <int B, bool Dynamic>
struct VirtualWarps : EdgePolicy<B, VirtualWarps<B, Dynamic>> {
  static unsigned width(const RunOptions& options) {
    return Dynamic ? 0 : graph_virtual_warp_width(options);
  }
  template <class Body, class Frontier, class StateT>
  static void run_edges(const Body& body, const Frontier& frontier, StateT& state,
                        const RunOptions& options) {
    using Agent = VirtualWarpAgent<B, Body, typename StateT::Counters>;
    launch_agent<Agent>(state, options, Dynamic ? "dvwarp" : "vwarp", body, frontier,
                        width(options));
  }
};
template <int B>
using VirtualWarp = VirtualWarps<B, false>;
template <int B>
using DynamicVirtualWarp = VirtualWarps<B, true>;

template <int B, bool Dynamic>
struct InGrid<VirtualWarps<B, Dynamic>> {
  template <class Body, class StateT>
  static GridItems<Body> items(const Body&, StateT&, const RunOptions& options,
                               const OutlineShape&) {
    GridItems<Body> grid_items;
    grid_items.virtual_warp_width = VirtualWarps<B, Dynamic>::width(options);
    return grid_items;
  }

#if defined(__CUDACC__)
  template <class Body, class Frontier>
  __device__ static void run(const GridRound&, Body& body, const Frontier& frontier,
                             const GridItems<Body>& grid_items) {
    using Agent = VirtualWarpAgent<B, Body, NoLoadCounters>;
    __shared__ typename Agent::TempStorage temp;
    grid_step<B>(body, frontier, [&](NoLoadCounters& counters) {
      __syncthreads();  // the previous step's width is read
      Agent(temp, body, counters).run(frontier, grid_items.virtual_warp_width);
    });
  }
#endif
};

}  // namespace irgl::gpu::schedule
