// A BFS expansion Body as irglc writes it, with the CPU reference and a
// skewed test graph, shared by the GPU tests of pipes and outlined loops.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <deque>
#include <type_traits>
#include <vector>

#include "graph_fixtures.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/schedule/body.h"
#include "irgl/lang/cuda.cuh"

namespace irgl::testing {

using irgl::lang::Graph;
using irgl::lang::Node;
using irgl::lang::NodeArray;
using irgl::lang::Worklist;
using irgl::gpu::DeviceBuffer;

constexpr uint32_t kUnvisited = ~0u;

// BFS expansion as irglc writes it, plus an accumulator and post() (each
// expanded vertex records how many edges its threads saw), so that the
// edge-balanced phases' post step runs too. Push: the worklist type pushed
// to (block-staged by default, as irglc's cooperative conversion). Without
// Accumulates, no accumulator and no post(): each edge adds itself to its
// vertex's edges_seen (bodies without accumulators are scheduled
// differently: ALB's hand-over).
template <class Push = irgl::lang::StagedWorklist<0>, bool Accumulates = true>
struct ExpandBody {
  Graph g;
  Worklist frontier;
  Push next;
  NodeArray<uint32_t> level;
  NodeArray<uint32_t> edges_seen;

  struct Closure {
    uint32_t next_level;
  };
  struct Accum {
    uint32_t edges;
  };
  static constexpr bool kHasEdges = true;
  static constexpr bool kHasAccum = Accumulates;
  static constexpr bool kHasPost = Accumulates;

  __device__ bool pre(Node n, Closure& closure) {
    closure.next_level = level[n] + 1;
    return true;
  }
  __device__ uint64_t edges_begin(Node v) const { return g.out_begin(v); }
  __device__ uint64_t edges_end(Node v) const { return g.out_end(v); }
  IRGL_HD uint64_t max_degree() const { return g.max_out_degree(); }
  __device__ void edge(Node n, uint64_t e, const Closure& closure, Accum& accum) {
    if constexpr (Accumulates) ++accum.edges;
    else atomicAdd(&edges_seen[n], 1u);
    const Node v = g.dst(e);
    if (level[v] == kUnvisited && atomicCAS(&level[v], kUnvisited, closure.next_level) == kUnvisited)
      next.push(v);
  }
  __device__ void post(Node n, const Closure&, const Accum& accum) {
    if constexpr (Accumulates) edges_seen[n] = accum.edges;
  }
  IRGL_HD static Accum identity() { return {0}; }
  __device__ static void combine(Accum& into, const Accum& from) { into.edges += from.edges; }
  __device__ static void atomic_combine(Accum* into, const Accum& from) {
    atomicAdd(&into->edges, from.edges);
  }
  template <int B>
  __device__ void begin() {
    if constexpr (kStaged) next.template begin<B>();
  }
  template <int B>
  __device__ void flush() {
    if constexpr (kStaged) next.template flush<B>();
  }

 private:
  static constexpr bool kStaged = !std::is_same_v<Push, Worklist> &&
                                  !std::is_same_v<Push, irgl::lang::UncoalescedWorklist>;
};

// Counts the vertices a schedule admits (a vertex loop without edges).
struct CountingBody {
  unsigned long long* count;
  struct Closure {};
  using Accum = irgl::gpu::schedule::NoAccum;
  static constexpr bool kHasEdges = false;
  static constexpr bool kHasAccum = false;
  static constexpr bool kHasPost = false;
  __device__ bool pre(Node, Closure&) {
    atomicAdd(count, 1ull);
    return true;
  }
  __device__ uint64_t edges_begin(Node) const { return 0; }
  __device__ uint64_t edges_end(Node) const { return 0; }
  IRGL_HD uint64_t max_degree() const { return 0; }
  __device__ void edge(Node, uint64_t, const Closure&, Accum&) {}
  __device__ void post(Node, const Closure&, const Accum&) {}
  IRGL_HD static Accum identity() { return {}; }
  __device__ static void combine(Accum&, const Accum&) {}
  __device__ static void atomic_combine(Accum*, const Accum&) {}
  template <int B>
  __device__ void flush() {}
};

inline std::vector<uint32_t> cpu_levels(const CsrGraph& graph, VertexId source, uint64_t& rounds) {
  std::vector<uint32_t> levels(graph.num_vertices(), kUnvisited);
  std::deque<VertexId> pending{source};
  levels[source] = 0;
  uint32_t deepest = 0;
  while (!pending.empty()) {
    const VertexId v = pending.front();
    pending.pop_front();
    deepest = std::max(deepest, levels[v]);
    for (uint64_t e = graph.out_offsets[v]; e < graph.out_offsets[v + 1]; ++e)
      if (levels[graph.out_targets[e]] == kUnvisited) {
        levels[graph.out_targets[e]] = levels[v] + 1;
        pending.push_back(graph.out_targets[e]);
      }
  }
  rounds = deepest + 1;  // one round per level
  return levels;
}

// A graph with a few hubs (vertices 5, 6 and 7, of degree n/5 to n/7) among
// n vertices with m random edges, so that ALB with a small threshold sets
// vertices aside and every TWC bin is used.
inline CsrGraph skewed_graph(uint32_t n = 3000, uint64_t m = 12000) {
  EdgeList edges = irgl::testing::random_edges("outline", n, m, WeightType::none, 7);
  for (VertexId hub : {5u, 6u, 7u})
    for (VertexId v = 0; v < n; v += hub) {
      edges.sources.push_back(hub);
      edges.targets.push_back(v);
    }
  BuildOptions options;
  return build_csr(std::move(edges), options);
}

// Vertex 0 points to 1..fan; the first `hubs` of those have `hub_degree`
// edges each (to vertices past fan), the rest one. From 0, the second
// round's frontier holds the hubs side by side, in a few tiles whose blocks
// TWC's block bin keeps busy long after the rest of the grid is done (ALB's
// hand-over case); vertex 0 itself (degree fan) is above a threshold
// between hub_degree and fan, so ALB inspects.
inline CsrGraph clustered_hubs_graph(uint32_t fan = 40000, uint32_t hubs = 200,
                                     uint32_t hub_degree = 5000) {
  const uint32_t leaves = 20000, n = fan + 1 + leaves;
  EdgeList edges;
  edges.name = "clustered-hubs";
  edges.num_vertices = n;
  auto add = [&edges](VertexId u, VertexId v) {
    edges.sources.push_back(u);
    edges.targets.push_back(v);
  };
  for (VertexId v = 1; v <= fan; ++v) add(0, v);
  for (VertexId v = 1; v <= fan; ++v) {
    const uint32_t degree = v <= hubs ? hub_degree : 1;
    for (uint32_t k = 0; k < degree; ++k) add(v, fan + 1 + (v * 7919u + k) % leaves);
  }
  return build_csr(std::move(edges), BuildOptions{});
}

// All vertices unvisited except `source` (level 0).
inline void start_levels(DeviceBuffer<uint32_t>& level, VertexId source) {
  level.fill(kUnvisited);
  const uint32_t zero = 0;
  IRGL_CUDA_CHECK(cudaMemcpy(level.data() + source, &zero, sizeof zero, cudaMemcpyHostToDevice));
}

}  // namespace irgl::testing
