// ALB's row tiles (alb.cuh: RowTilesAgent): a loop over all vertices that
// accumulates over their edges, as spmv, against a CPU sum. Rows shorter
// and longer than a tile, empty rows, rows whose pre() fails, thresholds
// that set most rows aside, both distributions of the huge rows, and the
// instrumented State, which reads the huge list's size on the host.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bfs_fixtures.h"
#include "gpu_test.h"
#include "graph_fixtures.h"
#include "irgl/gpu/device_graph.h"
#include "irgl/gpu/schedule/load_log.h"
#include "irgl/gpu/schedule/schedules.cuh"
#include "irgl/lang/cuda.cuh"

namespace irgl::gpu::schedule {
namespace {

using irgl::lang::Graph;
using irgl::lang::Node;
constexpr int kThreads = 256;

// Row v (unless v % 11 == 3, whose pre() fails) sums (v % 5 + 1) * (dst + 1)
// over its out-edges, and counts them; post() stores both and counts its
// own calls. Integer sums: exact in any order.
struct RowSumBody {
  Graph g;
  unsigned long long* sums;
  uint32_t* edges_seen;
  uint32_t* posts;
  const void* layout;  // edge_layout(): the graph's offsets unless a test names another

  struct Closure {
    uint32_t weight;
  };
  struct Accum {
    unsigned long long sum;
    uint32_t edges;
  };
  static constexpr bool kHasEdges = true;
  static constexpr bool kHasAccum = true;
  static constexpr bool kHasPost = true;
  static constexpr bool kContiguousEdges = true;

  __device__ bool pre(Node v, Closure& closure) {
    closure.weight = v % 5 + 1;
    return v % 11 != 3;
  }
  __device__ uint64_t edges_begin(Node v) const { return g.out_begin(v); }
  __device__ uint64_t edges_end(Node v) const { return g.out_end(v); }
  IRGL_HD uint64_t max_degree() const { return g.max_out_degree(); }
  IRGL_HD uint64_t edge_count() const { return g.num_edges(); }
  __host__ const void* edge_layout() const { return layout ? layout : g.out().offsets; }
  __device__ void edge(Node, uint64_t e, const Closure& closure, Accum& accum) {
    accum.sum += uint64_t(closure.weight) * (g.dst(e) + 1);
    ++accum.edges;
  }
  __device__ void post(Node v, const Closure&, const Accum& accum) {
    sums[v] = accum.sum;
    edges_seen[v] = accum.edges;
    atomicAdd(&posts[v], 1u);
  }
  IRGL_HD static Accum identity() { return {0, 0}; }
  __device__ static void combine(Accum& into, const Accum& from) {
    into.sum += from.sum;
    into.edges += from.edges;
  }
  __device__ static void atomic_combine(Accum* into, const Accum& from) {
    atomicAdd(&into->sum, from.sum);
    atomicAdd(&into->edges, from.edges);
  }
  template <int B>
  __device__ void flush() {}
};
// Read here as well as by ALB's SFINAE, which nvcc does not count as a use (#177).
static_assert(RowSumBody::kContiguousEdges, "row tiles cut the rows in CSR order");

static_assert(HasContiguousEdges<RowSumBody>::value, "RowSumBody runs row tiles");

struct Case {
  const char* name;
  uint64_t threshold = kAlbDefaultThreshold;
  Distribution distribution = Distribution::cyclic;
  RowTiles row_tiles = RowTiles::on;  // RunOptions::alb_row_tiles
  const void* layout = nullptr;  // RowSumBody::layout
};

// Runs RowSumBody under ALB over every vertex of `host` and checks every
// row against the CPU. Returns the rows the huge path took, from the load
// log when Counters is LoadCounters (0 otherwise), and leaves the log in
// `load_log` if given.
template <class Counters = NoLoadCounters>
uint64_t check_row_sums(const CsrGraph& host, const Case& test,
                        State<RowSumBody, Counters>* own_state = nullptr,
                        LoadLog* load_log = nullptr) {
  SCOPED_TRACE(std::string(host.name) + ", " + test.name);
  const DeviceGraph device(host);
  const uint32_t n = host.num_vertices();
  DeviceBuffer<unsigned long long> sums(n);
  DeviceBuffer<uint32_t> edges_seen(n), posts(n);
  sums.fill(~0ull);
  edges_seen.zero();
  posts.zero();
  static State<RowSumBody, Counters> shared_state;
  State<RowSumBody, Counters>& state = own_state ? *own_state : shared_state;
  RunOptions options;
  options.alb_threshold = test.threshold;
  options.alb_distribution = test.distribution;
  options.alb_row_tiles = test.row_tiles;
  LoadLog own_log;
  options.load_log = load_log ? load_log : &own_log;
  options.load_log->clear();
  const RowSumBody body{irgl::lang::view_of(device), sums.data(), edges_seen.data(), posts.data(),
                        test.layout};
  Alb<kThreads>::run(body, AllNodes{n}, state, options);
  IRGL_CUDA_CHECK(cudaDeviceSynchronize());

  const std::vector<unsigned long long> got = sums.download();
  const std::vector<uint32_t> seen = edges_seen.download(), post_calls = posts.download();
  uint64_t wrong = 0;
  for (VertexId v = 0; v < n && wrong < 5; ++v) {
    const bool active = v % 11 != 3;
    EXPECT_EQ(post_calls[v], active ? 1u : 0u) << "post() calls of row " << v;
    if (!active) continue;
    unsigned long long expected = 0;
    for (uint64_t e = host.out_offsets[v]; e < host.out_offsets[v + 1]; ++e)
      expected += uint64_t(v % 5 + 1) * (host.out_targets[e] + 1);
    const uint64_t degree = host.out_offsets[v + 1] - host.out_offsets[v];
    if (got[v] != expected || seen[v] != degree) ++wrong;
    EXPECT_EQ(got[v], expected) << "row " << v;
    EXPECT_EQ(seen[v], degree) << "edges of row " << v;
  }
  uint64_t huge_rows = 0;
  for (const LoadRecord& record : options.load_log->records()) {
    if (test.row_tiles != RowTiles::automatic)  // the path asked for
      EXPECT_NE(record.phase, test.row_tiles == RowTiles::on ? "twc" : "rows");
    if (record.phase == "rows") huge_rows += record.path_vertices[int(LoadPath::huge)];
  }
  return huge_rows;
}

// Rows of about 10 random edges, three of 2,786-3,900 (longer than a tile,
// shorter than the default threshold) and 500 empty rows at the end.
CsrGraph long_rows_graph() {
  EdgeList edges = irgl::testing::random_edges("long-rows", 20000, 200000, WeightType::none, 3, 500);
  for (VertexId hub : {5u, 6u, 7u})
    for (VertexId v = 0; v < 19500; v += hub) {
      edges.sources.push_back(hub);
      edges.targets.push_back(v);
    }
  return build_csr(std::move(edges), BuildOptions{});
}

TEST(AlbRowTiles, EveryRowFitsItsTile) {
  IRGL_REQUIRE_GPU();
  check_row_sums(
      irgl::testing::random_graph("short-rows", 30000, 240000, WeightType::none, false, 5),
      {"default threshold"});
}

// Rows longer than a tile (a few hundred units here: one tile per block)
// stay in the tile that holds their end unless they are above the
// threshold.
TEST(AlbRowTiles, RowsLongerThanATile) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = long_rows_graph();
  EXPECT_EQ(check_row_sums<LoadCounters>(host, {"default threshold"}), 0u);
  check_row_sums(host, {"default threshold, no huge phase"});
  EXPECT_EQ(check_row_sums<LoadCounters>(host, {"threshold 2000", 2000}), 3u);
  check_row_sums(host, {"threshold 2000, cooperative huge phase", 2000});
  check_row_sums(host, {"threshold 2000, blocked", 2000, Distribution::blocked});
}

// Clustered: a row of 40,000 edges, then 200 rows of 5,000 side by side,
// 39,800 of one edge and 20,000 empty rows.
TEST(AlbRowTiles, ClusteredLongRows) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = irgl::testing::clustered_hubs_graph();
  check_row_sums(host, {"default threshold"});
  uint64_t active_long_rows = 0;
  for (VertexId v = 0; v <= 200; ++v) active_long_rows += v % 11 != 3;
  EXPECT_EQ(check_row_sums<LoadCounters>(host, {"threshold 4000", 4000}), active_long_rows);
  check_row_sums(host, {"threshold 4000, cooperative huge phase", 4000});
}

// Low thresholds set most rows aside; threshold 0 every row with an edge.
TEST(AlbRowTiles, ThresholdsBelowATile) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = long_rows_graph();
  EXPECT_GT(check_row_sums<LoadCounters>(host, {"threshold 8", 8}), 1000u);
  check_row_sums(host, {"threshold 8", 8});
  check_row_sums(host, {"threshold 0", 0});
  check_row_sums(host, {"threshold 0, blocked", 0, Distribution::blocked});
}

// RowTiles::off runs such loops through TWC.
TEST(AlbRowTiles, OffRunsTwc) {
  IRGL_REQUIRE_GPU();
  check_row_sums<LoadCounters>(long_rows_graph(),
                               {"row tiles off", 2000, Distribution::cyclic, RowTiles::off});
}

// RowTiles::automatic, the default: the first four launches alternate TWC
// and row tiles, all timed; once their times are in (check_row_sums
// synchronizes), the path of the best time runs for good. Every launch
// sums every row.
TEST(AlbRowTiles, AutomaticTimesBothPathsThenKeepsTheFaster) {
  IRGL_REQUIRE_GPU();
  EXPECT_EQ(RunOptions{}.alb_row_tiles, RowTiles::automatic);
  const CsrGraph host = long_rows_graph();
  State<RowSumBody, LoadCounters> state;
  const Case automatic{"automatic", kAlbDefaultThreshold, Distribution::cyclic,
                       RowTiles::automatic};
  std::vector<std::string> phases;  // the first phase each launch recorded
  for (int launch = 0; launch < PathChoice::kTrials + 2; ++launch) {
    LoadLog load_log;
    check_row_sums(host, automatic, &state, &load_log);
    ASSERT_FALSE(load_log.empty());
    phases.push_back(load_log.records().front().phase);
  }
  for (int trial = 0; trial < PathChoice::kTrials; ++trial)
    EXPECT_EQ(phases[trial], PathChoice::path_of(trial) == 1 ? "rows" : "twc") << trial;
  const PathChoice& choice = state.path_choice();
  ASSERT_NE(choice.chosen(), -1);
  EXPECT_GT(choice.best(0), 0.0f);
  EXPECT_GT(choice.best(1), 0.0f);
  const std::string kept = choice.chosen() == 1 ? "rows" : "twc";
  EXPECT_EQ(phases[PathChoice::kTrials], kept);
  EXPECT_EQ(phases[PathChoice::kTrials + 1], kept);
}

// The State keeps the cut while the layout, rows and edges stay the same;
// a cut made for other degrees only balances worse: another graph of as
// many rows and edges under the same layout key still sums every row.
TEST(AlbRowTiles, AStaleCutStillSumsEveryRow) {
  IRGL_REQUIRE_GPU();
  const CsrGraph hubs_first = long_rows_graph();
  EdgeList reversed;
  reversed.name = "long-rows-reversed";
  reversed.num_vertices = hubs_first.num_vertices();
  for (VertexId v = 0; v < hubs_first.num_vertices(); ++v)
    for (uint64_t e = hubs_first.out_offsets[v]; e < hubs_first.out_offsets[v + 1]; ++e) {
      reversed.sources.push_back(hubs_first.num_vertices() - 1 - v);
      reversed.targets.push_back(hubs_first.out_targets[e]);
    }
  const CsrGraph hubs_last = build_csr(std::move(reversed), BuildOptions{});
  ASSERT_EQ(hubs_last.num_edges(), hubs_first.num_edges());
  static const int key = 0;
  Case stale{"one layout key for both graphs"};
  stale.layout = &key;
  check_row_sums(hubs_first, stale);
  check_row_sums(hubs_last, stale);  // runs on hubs_first's cut
  check_row_sums(hubs_first, stale);
}

TEST(AlbRowTiles, GraphsWithoutEdges) {
  IRGL_REQUIRE_GPU();
  EdgeList none;
  none.name = "no-edges";
  none.num_vertices = 100;
  check_row_sums(build_csr(std::move(none), BuildOptions{}), {"no edges"});
}

}  // namespace
}  // namespace irgl::gpu::schedule
