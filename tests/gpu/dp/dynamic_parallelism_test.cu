// The dp schedule (irgl/gpu/schedule/dynamic_parallelism.cuh): a BFS pipe
// loop whose huge vertices go to child grids launched from the device,
// against a CPU BFS: every level, and every reached vertex's post() once
// after all of its edges (the last child block's), with and without
// accumulators, at thresholds from "every vertex" to "none".
#include <gtest/gtest.h>

#include <vector>

#include "bfs_fixtures.h"
#include "gpu_test.h"
#include "graph_fixtures.h"
#include "irgl/gpu/device_graph.h"
#include "irgl/gpu/schedule/dynamic_parallelism.cuh"
#include "irgl/lang/cuda.cuh"

namespace irgl::gpu::schedule {
namespace {

using irgl::lang::CudaRun;
using irgl::lang::Node;
using irgl::lang::Pipe;
using irgl::lang::StagedWorklist;
using irgl::testing::clustered_hubs_graph;
using irgl::testing::cpu_levels;
using irgl::testing::kUnvisited;
using irgl::testing::skewed_graph;
using irgl::testing::start_levels;
constexpr int kThreads = 256;

// A pipe BFS from `source` under Dp with ALB threshold `threshold`;
// checks the levels and each reached vertex's count of edges seen.
template <bool Accumulates>
void check_dp_bfs(const CsrGraph& host, VertexId source, uint64_t threshold) {
  using Body = irgl::testing::ExpandBody<StagedWorklist<0>, Accumulates>;
  SCOPED_TRACE(std::string(Accumulates ? "accumulating" : "plain") + " body, threshold " +
               (threshold == kAlbDefaultThreshold ? "default" : std::to_string(threshold)));
  const DeviceGraph device(host);
  const irgl::lang::Graph graph = irgl::lang::view_of(device);
  DeviceBuffer<uint32_t> level(host.num_vertices()), seen(host.num_vertices());
  start_levels(level, source);
  seen.zero();
  RunOptions options;
  options.alb_threshold = threshold;
  static State<Body> state;
  const CudaRun run;
  Pipe pipe(graph, run);
  pipe.push(source);
  while (!pipe.empty()) {
    const Body body{graph, pipe.in(), pipe.out(), {level.data()}, {seen.data()}};
    Dp<kThreads>::run(body, pipe.in().items(), state, options);
    pipe.swap();
  }
  uint64_t rounds = 0;
  const std::vector<uint32_t> expected = cpu_levels(host, source, rounds);
  const std::vector<uint32_t> levels = level.download(), edges_seen = seen.download();
  ASSERT_EQ(levels, expected);
  for (VertexId v = 0; v < host.num_vertices(); ++v)
    if (expected[v] != kUnvisited)
      ASSERT_EQ(edges_seen[v], host.out_offsets[v + 1] - host.out_offsets[v]) << "vertex " << v;
}

template <bool Accumulates>
void check_thresholds(const CsrGraph& host, VertexId source) {
  for (uint64_t threshold : {uint64_t{0}, uint64_t{8}, uint64_t{600}, kAlbDefaultThreshold})
    check_dp_bfs<Accumulates>(host, source, threshold);
}

// Hubs of degree n/5 to n/7 among random edges: a few children per round,
// and with threshold 0 one per frontier vertex.
TEST(DynamicParallelism, SkewedGraphBfsMatchesTheCpu) {
  IRGL_REQUIRE_GPU();
  check_thresholds<true>(skewed_graph(), 5);
  check_thresholds<false>(skewed_graph(), 5);
}

// A round of 40,000 frontier vertices, 200 of degree 5,000: at threshold 0
// far more huge vertices than a launch may give children (regression: with
// more than the device keeps pending, the launch hung), so the rest go
// through TWC's bins.
TEST(DynamicParallelism, ClusteredHubsBfsMatchesTheCpu) {
  IRGL_REQUIRE_GPU();
  check_thresholds<true>(clustered_hubs_graph(), 0);
  check_thresholds<false>(clustered_hubs_graph(), 0);
}

// A Body with a post() and no accumulators (Accum is NoAccum, one byte):
// post() records, once per vertex, how many of its edges had run by then.
struct PostOnlyBody {
  irgl::lang::Graph g;
  uint32_t* edges_seen;
  uint32_t* seen_at_post;
  uint32_t* posts;
  struct Closure {};
  using Accum = NoAccum;
  static constexpr bool kHasEdges = true;
  static constexpr bool kHasAccum = false;
  static constexpr bool kHasPost = true;
  __device__ bool pre(Node, Closure&) { return true; }
  __device__ uint64_t edges_begin(Node v) const { return g.out_begin(v); }
  __device__ uint64_t edges_end(Node v) const { return g.out_end(v); }
  IRGL_HD uint64_t max_degree() const { return g.max_out_degree(); }
  __device__ void edge(Node v, uint64_t, const Closure&, Accum&) { atomicAdd(&edges_seen[v], 1u); }
  __device__ void post(Node v, const Closure&, const Accum&) {
    seen_at_post[v] = atomicAdd(&edges_seen[v], 0u);
    atomicAdd(&posts[v], 1u);
  }
  IRGL_HD static Accum identity() { return {}; }
  __device__ static void combine(Accum&, const Accum&) {}
  __device__ static void atomic_combine(Accum*, const Accum&) {}
  template <int B>
  __device__ void flush() {}
};

// Regression: a Body whose Accum is smaller than a word did not compile
// (the last child block read it through a volatile copy).
TEST(DynamicParallelism, PostWithoutAccumulatorsRunsOnceAfterTheEdges) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = skewed_graph();
  const DeviceGraph device(host);
  const uint32_t n = host.num_vertices();
  DeviceBuffer<uint32_t> seen(n), at_post(n), posts(n);
  seen.zero();
  at_post.zero();
  posts.zero();
  RunOptions options;
  options.alb_threshold = 8;
  static State<PostOnlyBody> state;
  const PostOnlyBody body{irgl::lang::view_of(device), seen.data(), at_post.data(), posts.data()};
  Dp<kThreads>::run(body, AllNodes{n}, state, options);
  const std::vector<uint32_t> seen_at_post = at_post.download(), post_counts = posts.download();
  for (VertexId v = 0; v < n; ++v) {
    ASSERT_EQ(post_counts[v], 1u) << "vertex " << v;
    ASSERT_EQ(seen_at_post[v], host.out_offsets[v + 1] - host.out_offsets[v]) << "vertex " << v;
  }
}

// A child grid gives each thread about four edges, at most 65,535 blocks.
TEST(DynamicParallelism, ChildGridSizes) {
  EXPECT_EQ((child_grid_blocks<256, DpTuning>(1)), 1u);
  EXPECT_EQ((child_grid_blocks<256, DpTuning>(1024)), 1u);
  EXPECT_EQ((child_grid_blocks<256, DpTuning>(1025)), 2u);
  EXPECT_EQ((child_grid_blocks<256, DpTuning>(uint64_t{1} << 40)), 65535u);
}

}  // namespace
}  // namespace irgl::gpu::schedule
