// Settling bodies (schedule/body.h: kSettles, settled()): an edge loop
// that may stop once its OR has been set, as a pull bfs's search for a
// parent. Every schedule must give the CPU's answer; the ones that stop
// early (thread, warp, group:8, block, TWC's bins) must read fewer edges
// than the graph has, the others may read all.
#include <gtest/gtest.h>

#include <cstdint>
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "gpu_test.h"
#include "graph_fixtures.h"
#include "irgl/gpu/device_graph.h"
#include "irgl/gpu/schedule/schedules.cuh"
#include "irgl/lang/cuda.cuh"

namespace irgl::gpu::schedule {
namespace {

using irgl::lang::Graph;
using irgl::lang::Node;
constexpr int kThreads = 256;

// Does vertex v (unless v % 9 == 4, whose pre() fails) have an out-edge to
// a marked vertex (dst % 13 == 0)? post() stores 1 or 0; `reads` counts the
// edges the schedule looked at (a test-only effect).
struct AnyMarkedBody {
  Graph g;
  uint32_t* found;
  unsigned long long* reads;

  struct Closure {};
  struct Accum {
    uint32_t any;
  };
  static constexpr bool kHasEdges = true;
  static constexpr bool kHasAccum = true;
  static constexpr bool kHasPost = true;
  static constexpr bool kSettles = true;

  __device__ bool pre(Node v, Closure&) { return v % 9 != 4; }
  __device__ uint64_t edges_begin(Node v) const { return g.out_begin(v); }
  __device__ uint64_t edges_end(Node v) const { return g.out_end(v); }
  IRGL_HD uint64_t max_degree() const { return g.max_out_degree(); }
  __device__ void edge(Node, uint64_t e, const Closure&, Accum& accum) {
    atomicAdd(reads, 1ull);
    accum.any |= g.dst(e) % 13 == 0 ? 1u : 0u;
  }
  __device__ static bool settled(const Accum& partial) { return partial.any != 0; }
  __device__ void post(Node v, const Closure&, const Accum& accum) { found[v] = accum.any; }
  IRGL_HD static Accum identity() { return {0}; }
  __device__ static void combine(Accum& into, const Accum& from) { into.any |= from.any; }
  __device__ static void atomic_combine(Accum* into, const Accum& from) {
    atomicOr(&into->any, from.any);
  }
  template <int B>
  __device__ void flush() {}
};
static_assert(kBodySettles<AnyMarkedBody>, "the trait reads kSettles");

// Runs the body under Policy over every vertex; checks every answer and
// returns the edges read.
template <class Policy>
uint64_t check_any_marked(const CsrGraph& host, const char* schedule,
                          const RunOptions& options = {}) {
  SCOPED_TRACE(std::string(host.name) + ", " + schedule);
  const DeviceGraph device(host);
  const uint32_t n = host.num_vertices();
  DeviceBuffer<uint32_t> found(n);
  DeviceBuffer<unsigned long long> reads(1);
  found.fill(7u);  // neither answer
  reads.zero();
  static State<AnyMarkedBody> state;
  const AnyMarkedBody body{irgl::lang::view_of(device), found.data(), reads.data()};
  Policy::run(body, AllNodes{n}, state, options);
  IRGL_CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<uint32_t> got = found.download();
  uint64_t wrong = 0;
  for (VertexId v = 0; v < n; ++v) {
    uint32_t expected = 7u;
    if (v % 9 != 4) {
      expected = 0;
      for (uint64_t e = host.out_offsets[v]; e < host.out_offsets[v + 1]; ++e)
        expected |= host.out_targets[e] % 13 == 0;
    }
    if (got[v] != expected && ++wrong <= 5) ADD_FAILURE() << "vertex " << v << ": " << got[v];
  }
  EXPECT_EQ(wrong, 0u);
  return reads.download()[0];
}

// The edges a schedule reads when groups of `stride` threads share a
// vertex and stop after the stride where the first marked edge lies
// (stride 1: a thread alone); 0 for a stride that never stops early.
uint64_t reads_stopping_after(const CsrGraph& host, uint64_t stride) {
  uint64_t reads = 0;
  for (VertexId v = 0; v < host.num_vertices(); ++v) {
    if (v % 9 == 4) continue;
    const uint64_t begin = host.out_offsets[v], degree = host.out_offsets[v + 1] - begin;
    uint64_t first = degree;  // the first marked edge's index, or none
    for (uint64_t i = 0; i < degree && first == degree; ++i)
      if (host.out_targets[begin + i] % 13 == 0) first = i;
    reads += stride == 0 || first == degree ? degree : std::min(degree, (first / stride + 1) * stride);
  }
  return reads;
}

// Random degrees (about 40) and hubs of 4,700-6,400 edges to unmarked
// vertices (never settled), so TWC's thread, warp and block bins and
// ALB's huge path all run.
CsrGraph settling_graph() {
  EdgeList edges = irgl::testing::random_edges("settling", 20000, 800000, WeightType::none, 5, 100);
  for (VertexId hub : {11u, 12u, 13u})
    for (VertexId v = 1; v < 19000; v += hub / 3) {
      edges.sources.push_back(hub);
      edges.targets.push_back(v % 13 == 0 ? v + 1 : v);
    }
  return build_csr(std::move(edges), BuildOptions{});
}

TEST(SettlingBodies, EverySchedulesAnswersAndTheEarlyOnesReadLess) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = settling_graph();
  const uint64_t all = reads_stopping_after(host, 0);  // every active vertex's edges
  ASSERT_LT(reads_stopping_after(host, 1), all / 2);  // the test means something
  EXPECT_EQ(check_any_marked<ThreadMapped<kThreads>>(host, "thread"), reads_stopping_after(host, 1));
  EXPECT_EQ(check_any_marked<Warp<kThreads>>(host, "warp"), reads_stopping_after(host, 32));
  using GroupOf8 = GroupMapped<kThreads, 8>;
  EXPECT_EQ(check_any_marked<GroupOf8>(host, "group:8"), reads_stopping_after(host, 8));
  EXPECT_LT(check_any_marked<Twc<kThreads>>(host, "twc"), all);
  EXPECT_LT(check_any_marked<Alb<kThreads>>(host, "alb"), all);
  // Schedules that spread a vertex's edges, and groups of several warps,
  // read them all.
  EXPECT_EQ(check_any_marked<Block<kThreads>>(host, "block"), all);
  EXPECT_EQ(check_any_marked<Lb<kThreads>>(host, "lb"), all);
  EXPECT_EQ(check_any_marked<MergePath<kThreads>>(host, "merge-path"), all);
}

// The run's graph, as a generated program passes it, with the mean degree
// replaced by `mean` (vwarp's size follows it).
RunOptions with_mean_degree(const CsrGraph& host, double mean) {
  RunOptions options;
  options.graph = shape_of_degrees(host.out_offsets.data(), host.num_vertices());
  options.graph.edges = uint64_t(mean * double(options.graph.vertices));
  return options;
}

// The width dvwarp samples over every vertex (virtual_warp.cuh).
unsigned sampled_width(const CsrGraph& host) {
  const uint64_t n = host.num_vertices();
  uint64_t degrees = 0;
  for (uint64_t lane = 0; lane < 32; ++lane)
    degrees += host.out_offsets[lane * n / 32 + 1] - host.out_offsets[lane * n / 32];
  return virtual_warp_width(double(degrees) / 32);
}

// Multi-phase with small tiles, windows and batches.
struct SmallTiles : MultiPhaseTuning {
  static constexpr unsigned kAtomsPerThread = 1;
  static constexpr unsigned kWindowItems = 4;
  static constexpr unsigned kTilesPerBatch = 2;
};

TEST(SettlingBodies, Paper002Schedules) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = settling_graph();
  const uint64_t all = reads_stopping_after(host, 0);
  // Multi-phase spreads edges: it reads them all, whichever search.
  RunOptions binary, interpolation;
  binary.item_search = ItemSearch::binary;
  interpolation.item_search = ItemSearch::interpolation;
  EXPECT_EQ(check_any_marked<MultiPhase<kThreads>>(host, "multi-phase binary", binary), all);
  EXPECT_EQ(check_any_marked<MultiPhase<kThreads>>(host, "multi-phase interpolation", interpolation),
            all);
  // A block partitions its tiles in several batches, a tile spans several
  // windows.
  using SmallTiled = MultiPhase<kThreads, SmallTiles>;
  EXPECT_EQ(check_any_marked<SmallTiled>(host, "multi-phase small tiles", interpolation), all);
  // Virtual warps stop like groups of their width: 32 lanes for the mean
  // degree of about 40, 8 for a mean of 6, 2 for 1.5, and 32 for an
  // unknown graph.
  for (const auto& [mean, width] : {std::pair{0.0, 32u}, std::pair{1.5, 2u}, std::pair{6.0, 8u}}) {
    const RunOptions options = mean > 0 ? with_mean_degree(host, mean) : RunOptions{};
    EXPECT_EQ(check_any_marked<VirtualWarp<kThreads>>(host, "vwarp", options),
              reads_stopping_after(host, width))
        << "mean " << mean;
  }
  EXPECT_EQ(check_any_marked<VirtualWarp<kThreads>>(host, "vwarp", with_mean_degree(host, 40.1)),
            reads_stopping_after(host, 32));
  const unsigned sampled = sampled_width(host);
  EXPECT_EQ(check_any_marked<DynamicVirtualWarp<kThreads>>(host, "dvwarp"),
            reads_stopping_after(host, sampled))
      << "sampled width " << sampled;
}

}  // namespace
}  // namespace irgl::gpu::schedule
