// Iteration outlining (irgl/gpu/schedule/outline.cuh): a BFS pipe loop run
// in one persistent kernel and as a CUDA graph, under every schedule,
// against a CPU BFS; the grid-wide prefix sum; overflow reporting.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "bfs_fixtures.h"
#include "gpu_test.h"
#include "gpu_test_util.h"
#include "graph_fixtures.h"
#include "irgl/gpu/device_graph.h"
#include "irgl/gpu/schedule/load_log.h"
#include "irgl/gpu/schedule/outline.cuh"
#include "irgl/graph/generators.h"
#include "irgl/lang/cuda.cuh"

namespace irgl::gpu::schedule {
namespace {

using irgl::lang::Graph;
using irgl::lang::Node;
using irgl::lang::NodeArray;
using irgl::lang::Worklist;
using irgl::testing::clustered_hubs_graph;
using irgl::testing::cpu_levels;
using irgl::testing::kUnvisited;
using irgl::testing::skewed_graph;
using irgl::testing::start_levels;
using irgl::testing::vectors_equal;
using ExpandBody = irgl::testing::ExpandBody<>;
// Without accumulators: ALB's hand-over applies.
using PlainExpandBody = irgl::testing::ExpandBody<irgl::lang::StagedWorklist<0>, false>;
constexpr int kThreads = 256;

template <class Policy, class Body = ExpandBody>
struct ExpandRounds {
  Body expand;
  GridItems<Body> items;

  static constexpr bool kRunsAuto = std::is_same_v<Policy, Auto<kThreads>>;
  static constexpr bool kRunsAlb = std::is_same_v<Policy, Alb<kThreads>> || kRunsAuto;
  bool alb_inspects() const { return items.alb_inspects; }
  AutoPick auto_pick() const { return items.auto_pick; }
  AutoPick one_block_pick() const { return items.one_block_pick; }

  template <int B, class Grid>
  __device__ void round(const Grid& grid, const SparseQueueView& in, const SparseQueueView& out) {
    expand.frontier = Worklist{in};
    expand.next = Worklist{out};
    InGrid<Policy>::run(grid, expand, WorklistItems{in}, items);
  }
};

// ExpandRounds that name their arrays (shared_placement.cuh): a small
// graph's loop runs on one block in shared memory.
template <class Policy, class Body = ExpandBody>
struct SharedExpandRounds : ExpandRounds<Policy, Body> {
  template <class Place>
  IRGL_HD void place(Place& place) {
    Body& expand = this->expand;
    expand.g = expand.g.placed(place);
    expand.level.data = place.read_write(expand.level.data, expand.g.num_nodes());
    expand.edges_seen.data = place.read_write(expand.edges_seen.data, expand.g.num_nodes());
  }
};

struct Case {
  const char* name;
  OutlineMode mode;
  uint64_t alb_threshold;
  Distribution distribution;
  uint64_t chunk_items;  // 0: the default
  OutlineGrid grid{};    // the persistent kernel's blocks; default: all resident
};

// Runs the outlined bfs twice and checks its levels, rounds and edges;
// returns the rounds of the last run on one block in shared memory (the
// most items a round there may take: one_block_items, or the default).
template <class Policy, class Body = ExpandBody,
          template <class, class> class RoundsOf = ExpandRounds>
uint64_t check_outlined_bfs(const Case& c, const CsrGraph& host = skewed_graph(), VertexId source = 5,
                            SharedLoops shared = SharedLoops::automatic,
                            std::optional<uint64_t> one_block_items = std::nullopt) {
  using Rounds = RoundsOf<Policy, Body>;
  SCOPED_TRACE(c.name);
  SCOPED_TRACE(to_string(c.mode));
  SCOPED_TRACE(host.name);
  const DeviceGraph device(host);
  const Graph graph = irgl::lang::view_of(device);
  DeviceBuffer<uint32_t> level(host.num_vertices()), edges_seen(host.num_vertices());
  start_levels(level, source);
  edges_seen.zero();
  Pipe pipe(host.num_edges() + host.num_vertices());
  pipe.reset({source});

  static OutlinedLoop<kThreads, Rounds> loop;
  static State<Body> state;
  loop.set_shared_loops(shared);
  loop.set_one_block_items(one_block_items);
  OutlineShape shape = loop.shape(pipe, c.grid);
  if (c.chunk_items) shape.chunk_items = c.chunk_items;
  RunOptions options;
  options.alb_threshold = c.alb_threshold;
  options.alb_distribution = c.distribution;
  options.graph = shape_of_degrees(host.out_offsets.data(), host.num_vertices());
  Rounds rounds;
  rounds.expand = Body{graph, Worklist{pipe.in()}, Worklist{pipe.out()}, {level.data()},
                       {edges_seen.data()}};
  rounds.items = InGrid<Policy>::items(rounds.expand, state, options, shape);
  uint64_t expected_rounds = 0;
  const std::vector<uint32_t> expected = cpu_levels(host, source, expected_rounds);
  for (int run = 0; run < 2; ++run) {  // the second run reuses the loop (and its graph)
    if (run == 1) {
      start_levels(level, source);
      edges_seen.zero();
      pipe.reset({source});
    }
    EXPECT_EQ(loop.run(rounds, pipe, c.mode), expected_rounds);
    EXPECT_TRUE(vectors_equal(expected, level.download()));
    EXPECT_EQ(pipe.read_sizes().in.size, 0u);
  }
  const std::vector<uint32_t> seen = edges_seen.download();
  for (VertexId v = 0; v < host.num_vertices(); ++v)
    if (expected[v] != kUnvisited)
      EXPECT_EQ(seen[v], host.out_offsets[v + 1] - host.out_offsets[v]) << "vertex " << v;
  return loop.shared_rounds();
}

constexpr Case kPersistent{"default", OutlineMode::persistent, kAlbDefaultThreshold,
                           Distribution::cyclic, 0};
constexpr Case kGraph{"default", OutlineMode::graph, kAlbDefaultThreshold, Distribution::cyclic, 0};

TEST(Outline, ThreadMappedBfsMatchesTheCpu) {
  IRGL_REQUIRE_GPU();
  check_outlined_bfs<ThreadMapped<kThreads>>(kPersistent);
  check_outlined_bfs<ThreadMapped<kThreads>>(kGraph);
}

TEST(Outline, GroupMappedBfsMatchesTheCpu) {
  IRGL_REQUIRE_GPU();
  check_outlined_bfs<Warp<kThreads>>(kPersistent);
  check_outlined_bfs<Block<kThreads>>(kPersistent);
  check_outlined_bfs<GroupMapped<kThreads, 64>>(kGraph);
}

TEST(Outline, TwcBfsMatchesTheCpu) {
  IRGL_REQUIRE_GPU();
  check_outlined_bfs<Twc<kThreads>>(kPersistent);
  check_outlined_bfs<Twc<kThreads>>(kGraph);
}

// A small graph without hubs (largest degree 12): its loop's rounds run
// on one block.
CsrGraph small_graph(uint64_t n = 1500) {
  return irgl::testing::random_graph("outline", n, 4 * n, WeightType::none, false, 7);
}

// A small graph's loop whose Rounds name their arrays runs on one block
// with the graph, the levels and the queues in shared memory, under every
// kind of schedule (auto's steps a thread per item there); the same
// levels, rounds and edges as the CPU. Off, too large, or with a vertex of
// more than OneBlockLoops::kMaxDegree edges (skewed_graph's hubs), it runs
// on the grid.
TEST(Outline, SmallGraphLoopRunsInSharedMemory) {
  IRGL_REQUIRE_GPU();
  const CsrGraph small = small_graph();
  EXPECT_TRUE((check_outlined_bfs<ThreadMapped<kThreads>, ExpandBody, SharedExpandRounds>(
      kPersistent, small)));
  EXPECT_TRUE((check_outlined_bfs<Warp<kThreads>, ExpandBody, SharedExpandRounds>(kPersistent, small)));
  EXPECT_TRUE((check_outlined_bfs<Twc<kThreads>, ExpandBody, SharedExpandRounds>(kPersistent, small)));
  EXPECT_TRUE((check_outlined_bfs<Auto<kThreads>, ExpandBody, SharedExpandRounds>(kPersistent, small)));
  EXPECT_TRUE((check_outlined_bfs<Alb<kThreads>, PlainExpandBody, SharedExpandRounds>(
      kPersistent, small)));
  EXPECT_FALSE((check_outlined_bfs<Twc<kThreads>, ExpandBody, SharedExpandRounds>(
      kPersistent, small, 5, SharedLoops::off)));
  const CsrGraph large = small_graph(20000);
  EXPECT_FALSE((check_outlined_bfs<Twc<kThreads>, ExpandBody, SharedExpandRounds>(
      kPersistent, large, 5, SharedLoops::off)));
  EXPECT_FALSE((check_outlined_bfs<Auto<kThreads>, ExpandBody, SharedExpandRounds>(
      kPersistent, skewed_graph(1500, 6000))));
  // Under OutlineMode::graph the rounds stay launches of the grid's kernel.
  EXPECT_FALSE((check_outlined_bfs<Twc<kThreads>, ExpandBody, SharedExpandRounds>(kGraph, small)));
  EXPECT_FALSE((check_outlined_bfs<Twc<kThreads>, ExpandBody, SharedExpandRounds>(kGraph, large)));
}

// Auto's rounds on one block run a warp per vertex on a graph of at least
// AutoTuning::kOneBlockWarpMeanDegree edges a vertex (8 here), a thread per
// item on a sparser one (small_graph: 4); the CPU's levels either way.
TEST(Outline, AutoRoundsOnOneBlockTakeWarpOnDenserGraphs) {
  IRGL_REQUIRE_GPU();
  using Rounds = SharedExpandRounds<Auto<kThreads>, ExpandBody>;
  using Kernels = PipeRoundKernels<kThreads, Rounds>;
  const CsrGraph dense =
      irgl::testing::random_graph("dense", 600, 8 * 600, WeightType::none, false, 11);
  const CsrGraph sparse = small_graph();
  Rounds rounds;
  rounds.items.one_block_pick = one_block_round_pick<AutoTuning>(
      shape_of_degrees(dense.out_offsets.data(), dense.num_vertices()));
  EXPECT_EQ(Kernels::shared(rounds), reinterpret_cast<const void*>(
                                         outlined_pipe_shared_kernel<kThreads, Rounds, AutoPick::warp>));
  rounds.items.one_block_pick = one_block_round_pick<AutoTuning>(
      shape_of_degrees(sparse.out_offsets.data(), sparse.num_vertices()));
  EXPECT_EQ(Kernels::shared(rounds), reinterpret_cast<const void*>(
                                         outlined_pipe_shared_kernel<kThreads, Rounds, AutoPick::thread>));
  EXPECT_GT((check_outlined_bfs<Auto<kThreads>, ExpandBody, SharedExpandRounds>(kPersistent, dense)),
            0u);
  EXPECT_GT((check_outlined_bfs<Auto<kThreads>, ExpandBody, SharedExpandRounds>(kPersistent, sparse)),
            0u);
}

// The rounds of a BFS from `source` that run on one block when it takes
// inputs of at most one_block_items and the grid hands back inputs of at
// most a quarter of that (OutlinedLoop::run_small): round r's input is
// level r.
uint64_t one_block_rounds(const CsrGraph& graph, VertexId source, uint64_t one_block_items) {
  uint64_t rounds = 0;
  const std::vector<uint32_t> levels = cpu_levels(graph, source, rounds);
  std::vector<uint64_t> sizes(rounds, 0);
  for (uint32_t level : levels)
    if (level != kUnvisited) ++sizes[level];
  bool on_one_block = true;
  uint64_t count = 0;
  for (uint64_t size : sizes) {
    if (on_one_block && size > one_block_items) on_one_block = false;
    else if (!on_one_block && size <= one_block_items / 4) on_one_block = true;
    count += on_one_block;
  }
  return count;
}

// A round of more items than one block takes runs on the grid, which hands
// the rounds back once they are light: small_graph()'s levels from vertex
// 5 hold 1, 3, 9, 32, 127, 396, 606, 272, 28 and 1 vertices, so that with
// 200 items a round, rounds 0-4, 8 and 9 run on one block. A first round
// too large for one block copies nothing into shared memory.
TEST(Outline, SmallGraphLoopMovesBetweenOneBlockAndTheGrid) {
  IRGL_REQUIRE_GPU();
  const CsrGraph small = small_graph();
  EXPECT_EQ(one_block_rounds(small, 5, 200), 7u);
  EXPECT_EQ((check_outlined_bfs<Auto<kThreads>, ExpandBody, SharedExpandRounds>(
                kPersistent, small, 5, SharedLoops::automatic, 200)),
            7u);
  EXPECT_EQ((check_outlined_bfs<Twc<kThreads>, ExpandBody, SharedExpandRounds>(
                kPersistent, small, 5, SharedLoops::automatic, 16)),
            one_block_rounds(small, 5, 16));
  EXPECT_EQ((check_outlined_bfs<ThreadMapped<kThreads>, ExpandBody, SharedExpandRounds>(
                kPersistent, small, 5, SharedLoops::automatic, 0)),
            0u);
  EXPECT_EQ((check_outlined_bfs<Auto<kThreads>, ExpandBody, SharedExpandRounds>(kPersistent, small)),
            one_block_rounds(small, 5, 16 * kThreads));
}

// A graph whose arrays do not fit in shared memory runs its light rounds
// on one block with them in global memory (an item a thread by default),
// and moves between one block and the grid as a small graph's loop does;
// without place() (ExpandRounds), with a hub, or off, none does.
TEST(Outline, LargeGraphLightRoundsRunOnOneBlock) {
  IRGL_REQUIRE_GPU();
  const CsrGraph large = small_graph(20000);
  const uint64_t expected = one_block_rounds(large, 5, kThreads);
  EXPECT_GT(expected, 2u);
  EXPECT_EQ((check_outlined_bfs<Twc<kThreads>, ExpandBody, SharedExpandRounds>(kPersistent, large)),
            expected);
  EXPECT_EQ((check_outlined_bfs<Auto<kThreads>, ExpandBody, SharedExpandRounds>(
                kPersistent, large, 5, SharedLoops::automatic, 100)),
            one_block_rounds(large, 5, 100));
  EXPECT_EQ((check_outlined_bfs<Alb<kThreads>, PlainExpandBody, SharedExpandRounds>(
                kPersistent, large, 5, SharedLoops::automatic, 3000)),
            one_block_rounds(large, 5, 3000));
  EXPECT_EQ((check_outlined_bfs<Twc<kThreads>>(kPersistent, large)), 0u);
  EXPECT_EQ((check_outlined_bfs<Twc<kThreads>, ExpandBody, SharedExpandRounds>(
                kPersistent, skewed_graph(30000, 120000))),
            0u);
}

// Label-correcting BFS: a level only falls (atomicMin) and a vertex is
// pushed when its level fell, so its pushes may chain (body.h:
// chain_pushes): a vertex processed ahead of its turn is pushed again when
// its level falls later.
struct MinLevelBody {
  Graph g;
  Worklist frontier;
  irgl::lang::StagedWorklist<0> next;
  NodeArray<uint32_t> level;

  struct Closure {
    uint32_t next_level;
  };
  using Accum = NoAccum;
  static constexpr bool kHasEdges = true;
  static constexpr bool kHasAccum = false;
  static constexpr bool kHasPost = false;

  __device__ bool pre(Node n, Closure& closure) {
    closure.next_level = level[n] + 1;
    return true;
  }
  __device__ uint64_t edges_begin(Node v) const { return g.out_begin(v); }
  __device__ uint64_t edges_end(Node v) const { return g.out_end(v); }
  IRGL_HD uint64_t max_degree() const { return g.max_out_degree(); }
  __device__ void edge(Node, uint64_t e, const Closure& closure, Accum&) {
    const Node v = g.dst(e);
    if (closure.next_level < level[v] && atomicMin(&level[v], closure.next_level) > closure.next_level)
      next.push(v);
  }
  __device__ void post(Node, const Closure&, const Accum&) {}
  IRGL_HD static Accum identity() { return {}; }
  __device__ static void combine(Accum&, const Accum&) {}
  __device__ static void atomic_combine(Accum*, const Accum&) {}
  template <int B>
  __device__ void begin() {
    next.template begin<B>();
  }
  template <int B>
  __device__ void flush() {
    next.template flush<B>();
  }
  __device__ void chain_pushes(Node* slot) { next.chain = slot; }
};

template <class Policy>
struct MinLevelRounds {
  MinLevelBody body;
  GridItems<MinLevelBody> items;
  static constexpr bool kRunsAuto = std::is_same_v<Policy, Auto<kThreads>>;
  static constexpr bool kRunsAlb = kRunsAuto;
  bool alb_inspects() const { return items.alb_inspects; }
  AutoPick auto_pick() const { return items.auto_pick; }
  AutoPick one_block_pick() const { return items.one_block_pick; }

  template <int B, class Grid>
  __device__ void round(const Grid& grid, const SparseQueueView& in, const SparseQueueView& out) {
    body.frontier = Worklist{in};
    body.next = Worklist{out};
    InGrid<Policy>::run(grid, body, WorklistItems{in}, items);
  }
};

// The rounds of a label-correcting BFS from `source` with chains of
// `chain` vertices; its levels must be the CPU's.
template <class Policy>
uint64_t chained_bfs_rounds(const CsrGraph& host, VertexId source, unsigned chain) {
  SCOPED_TRACE(host.name);
  SCOPED_TRACE(chain);
  const DeviceGraph device(host);
  DeviceBuffer<uint32_t> level(host.num_vertices());
  start_levels(level, source);
  Pipe pipe(host.num_edges() + host.num_vertices());
  pipe.reset({source});
  static OutlinedLoop<kThreads, MinLevelRounds<Policy>> loop;
  static State<MinLevelBody> state;
  RunOptions options;
  options.graph = shape_of_degrees(host.out_offsets.data(), host.num_vertices());
  MinLevelRounds<Policy> rounds;
  rounds.body = MinLevelBody{irgl::lang::view_of(device), Worklist{pipe.in()}, Worklist{pipe.out()},
                             {level.data()}};
  rounds.items = InGrid<Policy>::items(rounds.body, state, options, loop.shape(pipe));
  rounds.items.chain = chain;
  const uint64_t done = loop.run(rounds, pipe, OutlineMode::persistent);
  uint64_t bfs_rounds = 0;
  EXPECT_TRUE(vectors_equal(cpu_levels(host, source, bfs_rounds), level.download()));
  return done;
}

// A warp per vertex whose Body chains its pushes goes on with the first
// vertex it pushed: the same levels in fewer rounds on a grid (a long
// diameter), with chains of 2 to 32, under Warp and under auto's in-kernel
// warp; on a random graph, and with hubs (auto's ALB, TWC: no chains), the
// same levels. Other schedules ignore the chain.
TEST(Outline, ChainedWarpRoundsMatchTheCpuInFewerRounds) {
  IRGL_REQUIRE_GPU();
  const CsrGraph grid = build_csr(generate_grid(GridParams{60, 60}), BuildOptions{});
  uint64_t unchained = 0;
  const uint64_t plain = chained_bfs_rounds<Warp<kThreads>>(grid, 0, 1);
  cpu_levels(grid, 0, unchained);
  EXPECT_EQ(plain, unchained);
  for (unsigned chain : {2u, 8u, 32u})
    EXPECT_LT(chained_bfs_rounds<Warp<kThreads>>(grid, 0, chain), plain) << "chain " << chain;
  // From a corner every path down or right is shortest: a chain of 4 walks
  // 4 levels a round.
  EXPECT_LE(chained_bfs_rounds<Warp<kThreads>>(grid, 0, 4) * 2, plain);
  EXPECT_LT(chained_bfs_rounds<Auto<kThreads>>(grid, 0, 4), plain);
  EXPECT_EQ(chained_bfs_rounds<ThreadMapped<kThreads>>(grid, 0, 4), plain);
  for (unsigned chain : {1u, 4u}) {
    chained_bfs_rounds<Warp<kThreads>>(small_graph(), 5, chain);
    chained_bfs_rounds<Auto<kThreads>>(skewed_graph(), 5, chain);
  }
}

// --chain auto chains on a graph of fewer than 3 edges a vertex on average
// (roads), not on others or on a graph it knows nothing of; a set --chain
// wins (host code: no GPU needed).
TEST(Outline, ChainLengthFollowsTheOptionOrTheMeanDegree) {
  irgl::lang::CudaRun run;
  EXPECT_EQ(run.chain_length(), 1u);
  run.out_degrees = GraphShape{114599, 239332, 6, 0.5};  // luxembourg_osm
  EXPECT_EQ(run.chain_length(), 4u);
  run.out_degrees = GraphShape{1000000, 3996000, 4, 0.1};  // a 1000 x 1000 grid
  EXPECT_EQ(run.chain_length(), 1u);
  run.chain = 2;
  EXPECT_EQ(run.chain_length(), 2u);
}

// Each vertex's label becomes the smallest label among its out-neighbours
// and its own, a pass over all vertices with an accumulator and post();
// `changed` counts the labels a pass lowered.
struct MinLabelBody {
  Graph g;
  NodeArray<uint32_t> label;
  irgl::lang::ReductionSlot<unsigned long long, irgl::lang::SumOp> changed;

  struct Closure {};
  struct Accum {
    uint32_t low;
  };
  static constexpr bool kHasEdges = true;
  static constexpr bool kHasAccum = true;
  static constexpr bool kHasPost = true;

  __device__ bool pre(Node, Closure&) { return true; }
  __device__ uint64_t edges_begin(Node v) const { return g.out_begin(v); }
  __device__ uint64_t edges_end(Node v) const { return g.out_end(v); }
  IRGL_HD uint64_t max_degree() const { return g.max_out_degree(); }
  __device__ void edge(Node, uint64_t e, const Closure&, Accum& accum) {
    accum.low = min(accum.low, label[g.dst(e)]);
  }
  __device__ void post(Node n, const Closure&, const Accum& accum) {
    if (accum.low < label[n]) {
      atomicMin(&label[n], accum.low);
      changed += 1;
    }
  }
  IRGL_HD static Accum identity() { return {~0u}; }
  __device__ static void combine(Accum& into, const Accum& from) { into.low = min(into.low, from.low); }
  __device__ static void atomic_combine(Accum* into, const Accum& from) { atomicMin(&into->low, from.low); }
  template <int B>
  __device__ void flush() {
    changed.template flush<B>();
  }
};

// Records the thread of its block that walks each edge: under a warp per
// vertex, edge e of vertex v is lane (e - out_begin(v)) % 32's; under a
// block per vertex of at most B edges, thread e - out_begin(v)'s.
struct LaneBody {
  Graph g;
  uint32_t* lanes;

  struct Closure {};
  struct Accum {};
  static constexpr bool kHasEdges = true;
  static constexpr bool kHasAccum = false;
  static constexpr bool kHasPost = false;

  __device__ bool pre(Node, Closure&) { return true; }
  __device__ uint64_t edges_begin(Node v) const { return g.out_begin(v); }
  __device__ uint64_t edges_end(Node v) const { return g.out_end(v); }
  IRGL_HD uint64_t max_degree() const { return g.max_out_degree(); }
  __device__ void edge(Node, uint64_t e, const Closure&, Accum&) { lanes[e] = threadIdx.x; }
  __device__ void post(Node, const Closure&, const Accum&) {}
  IRGL_HD static Accum identity() { return {}; }
  __device__ static void combine(Accum&, const Accum&) {}
  __device__ static void atomic_combine(Accum*, const Accum&) {}
  template <int B>
  __device__ void flush() {}
};

// One pass of LaneBody over all vertices under auto, in a persistent kernel.
struct LanePass {
  LaneBody pass;
  GridItems<LaneBody> items;
  static constexpr bool kRunsAuto = true;
  static constexpr bool kRunsAlb = true;
  bool alb_inspects() const { return items.alb_inspects; }
  AutoPick auto_pick() const { return items.auto_pick; }

  template <int B, class Grid>
  __device__ void run(const Grid& grid) {
    InGrid<Auto<kThreads>>::run(grid, pass, AllNodes{pass.g.num_nodes()}, items);
  }
};

// Where auto picks warp for a pass over all vertices, the persistent kernel
// runs a warp per vertex however many vertices there are, as the host's
// launch_pick does; only worklist rounds above the line go to TWC
// (regression: passes of more vertices than the line ran TWC, pr on
// bcsstk16 1.55x slower than the warp build).
TEST(Outline, AutoWarpKeepsItsPassesOverAllVertices) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host =
      irgl::testing::random_graph("lanes", 50000, 6 * 50000, WeightType::none, false, 5);
  const DeviceGraph device(host);
  DeviceBuffer<uint32_t> lanes(host.num_edges());
  static OutlinedIterations<kThreads, LanePass> loop;
  static State<LaneBody> state;
  const OutlineShape shape = loop.shape(host.num_vertices());
  RunOptions options;
  options.graph = shape_of_degrees(host.out_offsets.data(), host.num_vertices());
  LanePass pass;
  pass.pass = {irgl::lang::view_of(device), lanes.data()};
  pass.items = InGrid<Auto<kThreads>>::items(pass.pass, state, options, shape);
  ASSERT_EQ(pass.items.auto_pick, AutoPick::warp);
  ASSERT_GT(host.num_vertices(), pass.items.auto_lines.warp_items);  // a round this large goes to TWC
  loop.run(pass, nullptr);
  const std::vector<uint32_t> seen = lanes.download();
  uint64_t elsewhere = 0;
  for (VertexId v = 0; v < host.num_vertices(); ++v)
    for (uint64_t e = host.out_offsets[v]; e < host.out_offsets[v + 1]; ++e)
      elsewhere += seen[e] % 32 != (e - host.out_offsets[v]) % 32;
  EXPECT_EQ(elsewhere, 0u);
}

// One round of LaneBody over a worklist, under auto in a persistent kernel.
struct LaneRound {
  LaneBody lanes;
  GridItems<LaneBody> items;
  static constexpr bool kRunsAuto = true;
  static constexpr bool kRunsAlb = true;
  bool alb_inspects() const { return items.alb_inspects; }
  AutoPick auto_pick() const { return items.auto_pick; }
  AutoPick one_block_pick() const { return items.one_block_pick; }

  template <int B, class Grid>
  __device__ void round(const Grid& grid, const SparseQueueView& in, const SparseQueueView&) {
    InGrid<Auto<kThreads>>::run(grid, lanes, WorklistItems{in}, items);
  }
};

// The lane (threadIdx.x) that walked each edge of `host` in one round of
// every vertex under auto in a persistent kernel, with the run's lines as
// `configure` sets them; auto's pick for the kernel is `pick`.
std::vector<uint32_t> lanes_of_a_round(const CsrGraph& host, AutoPick pick,
                                       const std::function<void(RunOptions&)>& configure) {
  static OutlinedLoop<kThreads, LaneRound> loop;
  static State<LaneBody> state;
  const DeviceGraph device(host);
  DeviceBuffer<uint32_t> lanes(host.num_edges());
  std::vector<VertexId> every(host.num_vertices());
  std::iota(every.begin(), every.end(), 0);
  Pipe pipe(host.num_vertices());
  RunOptions options;
  options.graph = shape_of_degrees(host.out_offsets.data(), host.num_vertices());
  configure(options);
  LaneRound round;
  round.lanes = {irgl::lang::view_of(device), lanes.data()};
  round.items = InGrid<Auto<kThreads>>::items(round.lanes, state, options, loop.shape(pipe));
  EXPECT_EQ(round.items.auto_pick, pick);
  pipe.reset(every);
  EXPECT_EQ(loop.run(round, pipe, OutlineMode::persistent), 1u);
  return lanes.download();
}

// Where auto picks block (dense rows without hubs), a persistent kernel's
// round of more items than the block line runs a warp per vertex, as
// launch_pick does on the host (cc on bcsstk16: block's rounds 1.5x slower
// than warp's, H200); a round within the line keeps a block per vertex.
TEST(Outline, AutoBlockHandsLargeRoundsToWarp) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host =
      irgl::testing::random_graph("rows", 3000, 48 * 3000, WeightType::none, false, 11);
  ASSERT_LE(shape_of_degrees(host.out_offsets.data(), host.num_vertices()).max_degree,
            uint64_t(kThreads));
  // The vertices whose edges a block per vertex walked: thread e - begin
  // walked edge e (a warp's lanes are those of one warp of the block).
  auto rows_walked_by_a_block = [&](uint64_t block_items) {
    const std::vector<uint32_t> seen =
        lanes_of_a_round(host, AutoPick::block,
                         [&](RunOptions& options) { options.auto_block_items = block_items; });
    uint64_t by_block = 0, off_lane = 0;
    for (VertexId v = 0; v < host.num_vertices(); ++v) {
      bool block = true;
      for (uint64_t e = host.out_offsets[v]; e < host.out_offsets[v + 1]; ++e) {
        block = block && seen[e] == e - host.out_offsets[v];
        off_lane += seen[e] % 32 != (e - host.out_offsets[v]) % 32;
      }
      by_block += block;
    }
    EXPECT_EQ(off_lane, 0u);
    return by_block;
  };
  EXPECT_EQ(rows_walked_by_a_block(host.num_vertices()), host.num_vertices());
  EXPECT_LT(rows_walked_by_a_block(host.num_vertices() - 1), host.num_vertices() / 2);
}

// A web graph's shape: random edges, mean degree about 41, and a hub of
// 2,999 out-edges, whose top 1% hold under a tenth of the edges.
CsrGraph web_like_graph() {
  EdgeList edges = irgl::testing::random_edges("web-like", 3000, 40 * 3000, WeightType::none, 17);
  for (VertexId v = 1; v < 3000; ++v) {
    edges.sources.push_back(0);
    edges.targets.push_back(v);
  }
  return build_csr(std::move(edges), BuildOptions{});
}

// Where auto picks merge-path (web graphs), a persistent kernel's round of
// at most the merge-path line's items runs TWC, as launch_pick does on the
// host: the edges of a vertex of 32 or more on successive lanes of a warp
// (or of its block, for the hub); a larger round merges its edges over the
// grid, each thread taking its share of the items and edges in turn.
TEST(Outline, AutoMergePathHandsSmallRoundsToTwc) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = web_like_graph();
  ASSERT_LT(shape_of_degrees(host.out_offsets.data(), host.num_vertices()).hub_share, 0.1);
  // Of the vertices of 32 edges or more, those whose edges ran on
  // successive lanes, and how many there are.
  auto rows_walked_by_a_warp = [&](uint64_t merge_path_items) {
    const std::vector<uint32_t> seen =
        lanes_of_a_round(host, AutoPick::merge_path, [&](RunOptions& options) {
          options.auto_merge_path_items = merge_path_items;
        });
    std::pair<uint64_t, uint64_t> by_warp_of_rows{0, 0};
    for (VertexId v = 0; v < host.num_vertices(); ++v) {
      const uint64_t begin = host.out_offsets[v], end = host.out_offsets[v + 1];
      if (end - begin < 32) continue;
      bool warp = true;
      for (uint64_t e = begin; e < end; ++e) warp = warp && seen[e] % 32 == (e - begin) % 32;
      by_warp_of_rows.first += warp;
      by_warp_of_rows.second += 1;
    }
    return by_warp_of_rows;
  };
  const auto within = rows_walked_by_a_warp(host.num_vertices());
  EXPECT_EQ(within.first, within.second);
  const auto above = rows_walked_by_a_warp(host.num_vertices() - 1);
  EXPECT_LT(above.first, above.second / 2);
}

// LaneRound whose arrays are named: a small graph's round runs on one
// block in shared memory.
struct SharedLaneRound : LaneRound {
  uint64_t edges = 0;
  template <class Place>
  IRGL_HD void place(Place& place) {
    lanes.g = lanes.g.placed(place);
    lanes.lanes = place.read_write(lanes.lanes, edges);
  }
};

// Where a round on one block runs a thread per item (auto on a graph of
// mean degree below 6), a round of at most the line's items runs a warp per
// vertex: each of its vertices' edges on the next lane; a larger round
// keeps a thread per item: all of a vertex's edges on one thread.
TEST(Outline, AutoSmallRoundsOnOneBlockRunAWarpPerVertex) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host =
      irgl::testing::random_graph("small-lanes", 2000, 4 * 2000, WeightType::none, false, 13);
  const DeviceGraph device(host);
  DeviceBuffer<uint32_t> lanes(host.num_edges());
  static OutlinedLoop<kThreads, SharedLaneRound> loop;
  static State<LaneBody> state;
  constexpr uint64_t kItems = 40;
  std::vector<VertexId> first(kItems);
  std::iota(first.begin(), first.end(), 0);
  Pipe pipe(host.num_vertices());
  // Of the first kItems vertices with two edges or more, those whose edges
  // ran on successive lanes (a warp per vertex) and on one thread.
  auto walked = [&](uint64_t warp_items) {
    RunOptions options;
    options.graph = shape_of_degrees(host.out_offsets.data(), host.num_vertices());
    options.one_block_warp_items = warp_items;
    SharedLaneRound round;
    round.lanes = {irgl::lang::view_of(device), lanes.data()};
    round.edges = host.num_edges();
    round.items = InGrid<Auto<kThreads>>::items(round.lanes, state, options, loop.shape(pipe));
    EXPECT_EQ(round.items.one_block_pick, AutoPick::thread);
    pipe.reset(first);
    EXPECT_EQ(loop.run(round, pipe, OutlineMode::persistent), 1u);
    EXPECT_TRUE(loop.ran_shared());
    const std::vector<uint32_t> seen = lanes.download();
    std::pair<uint64_t, uint64_t> by_warp_and_thread{0, 0};
    for (VertexId v = 0; v < kItems; ++v) {
      const uint64_t begin = host.out_offsets[v], end = host.out_offsets[v + 1];
      if (end - begin < 2) continue;
      bool warp = true, thread = true;
      for (uint64_t e = begin; e < end; ++e) {
        warp = warp && seen[e] % 32 == (e - begin) % 32;
        thread = thread && seen[e] == seen[begin];
      }
      by_warp_and_thread.first += warp;
      by_warp_and_thread.second += thread;
    }
    return by_warp_and_thread;
  };
  const auto under_the_line = walked(kItems);
  EXPECT_GT(under_the_line.first, kItems / 2);
  EXPECT_EQ(under_the_line.second, 0u);
  const auto above_the_line = walked(kItems - 1);
  EXPECT_EQ(above_the_line.first, 0u);
  EXPECT_GT(above_the_line.second, kItems / 2);
}

// A loop of iterations as irglc writes it (OutlinedIterations): passes of
// MinLabelBody until one changes nothing.
template <class Policy>
struct LabelIterations {
  MinLabelBody pass;
  GridItems<MinLabelBody> items;
  irgl::lang::ReductionValue<unsigned long long> changed;

  static constexpr bool kRunsAuto = std::is_same_v<Policy, Auto<kThreads>>;
  static constexpr bool kRunsAlb = std::is_same_v<Policy, Alb<kThreads>> || kRunsAuto;
  bool alb_inspects() const { return items.alb_inspects; }
  AutoPick auto_pick() const { return items.auto_pick; }

  template <int B, class Grid>
  __device__ void run(const Grid& grid) {
    const bool leader = global_thread() == 0;
    do {
      grid.sync();
      if (leader) changed = 0;
      grid.sync();
      InGrid<Policy>::run(grid, pass, AllNodes{pass.g.num_nodes()}, items);
      grid.sync();
    } while (changed.value() > 0);
  }
};

// LabelIterations that name their arrays and reductions: a small graph's
// loop runs on one block in shared memory.
template <class Policy>
struct SharedLabelIterations : LabelIterations<Policy> {
  template <class Place>
  IRGL_HD void place(Place& place) {
    MinLabelBody& pass = this->pass;
    pass.g = pass.g.placed(place);
    pass.label.data = place.read_write(pass.label.data, pass.g.num_nodes());
    pass.changed.target = place.read_write(pass.changed.target, 1);
    this->changed.slot = place.read_write(this->changed.slot, 1);
  }
};

// Runs the label loop twice and checks the labels against the CPU's fixed
// point (the smallest label each vertex reaches); returns whether the last
// run was on one block.
template <class Policy, template <class> class LoopOf = SharedLabelIterations>
bool check_label_iterations(const CsrGraph& host, SharedLoops shared = SharedLoops::automatic,
                            std::optional<uint64_t> one_block_items = std::nullopt) {
  using Loop = LoopOf<Policy>;
  SCOPED_TRACE(host.name);
  const uint32_t n = host.num_vertices();
  std::vector<uint32_t> start(n), expected(n);
  for (uint32_t v = 0; v < n; ++v) start[v] = n - v;
  expected = start;
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t v = 0; v < n; ++v)
      for (uint64_t e = host.out_offsets[v]; e < host.out_offsets[v + 1]; ++e)
        if (expected[host.out_targets[e]] < expected[v]) {
          expected[v] = expected[host.out_targets[e]];
          changed = true;
        }
  }
  const DeviceGraph device(host);
  DeviceBuffer<uint32_t> label(n);
  DeviceBuffer<unsigned long long> changed(1);
  static OutlinedIterations<kThreads, Loop> loop;
  static State<MinLabelBody> state;
  loop.set_shared_loops(shared);
  loop.set_one_block_items(one_block_items);
  const OutlineShape shape = loop.shape(n);
  RunOptions options;
  options.graph = shape_of_degrees(host.out_offsets.data(), n);
  Loop iterations;
  iterations.pass = {irgl::lang::view_of(device), {label.data()}, {changed.data()}};
  iterations.changed.slot = changed.data();
  iterations.items = InGrid<Policy>::items(iterations.pass, state, options, shape);
  for (int run = 0; run < 2; ++run) {
    label.upload(start.data(), n);
    loop.run(iterations, nullptr);
    EXPECT_TRUE(vectors_equal(expected, label.download()));
  }
  return loop.ran_shared();
}

// A small graph's loop of iterations whose Loop names its arrays and
// reductions runs on one block in shared memory, under every kind of
// schedule; the same labels as the CPU. Off, of more vertices than
// OneBlockLoops::items() (4 a thread), with hubs, or without place(), it
// runs on the grid.
TEST(Outline, SmallGraphIterationsRunInSharedMemory) {
  IRGL_REQUIRE_GPU();
  const CsrGraph small = small_graph(800);
  EXPECT_TRUE(check_label_iterations<ThreadMapped<kThreads>>(small));
  EXPECT_TRUE(check_label_iterations<Warp<kThreads>>(small));
  EXPECT_TRUE(check_label_iterations<Twc<kThreads>>(small));
  EXPECT_TRUE(check_label_iterations<Auto<kThreads>>(small));
  EXPECT_TRUE(check_label_iterations<Alb<kThreads>>(small));
  EXPECT_TRUE(check_label_iterations<MergePath<kThreads>>(small));
  EXPECT_FALSE(check_label_iterations<Twc<kThreads>>(small, SharedLoops::off));
  EXPECT_FALSE(check_label_iterations<Twc<kThreads>>(small, SharedLoops::automatic, 500));
  EXPECT_FALSE((check_label_iterations<Twc<kThreads>, LabelIterations>(small)));
  EXPECT_FALSE(check_label_iterations<Auto<kThreads>>(small_graph(2000)));
  EXPECT_FALSE(check_label_iterations<Auto<kThreads>>(skewed_graph(800, 3200)));
}

TEST(Outline, EdgeBalancedBfsMatchesTheCpuInChunks) {
  IRGL_REQUIRE_GPU();
  check_outlined_bfs<Lb<kThreads>>(kPersistent);
  check_outlined_bfs<MergePath<kThreads>>(kGraph);
  // Frontiers larger than the chunk: several gather/scan/spread passes per round.
  check_outlined_bfs<Lb<kThreads>>({"chunks of 100", OutlineMode::persistent,
                                    kAlbDefaultThreshold, Distribution::cyclic, 100});
  check_outlined_bfs<MergePath<kThreads>>({"chunks of 7", OutlineMode::persistent,
                                           kAlbDefaultThreshold, Distribution::cyclic, 7});
}

TEST(Outline, Paper002SchedulesBfsMatchTheCpu) {
  IRGL_REQUIRE_GPU();
  check_outlined_bfs<MultiPhase<kThreads>>(kPersistent);
  check_outlined_bfs<MultiPhase<kThreads>>({"chunks of 100", OutlineMode::persistent,
                                            kAlbDefaultThreshold, Distribution::cyclic, 100});
  check_outlined_bfs<VirtualWarp<kThreads>>(kPersistent);
  check_outlined_bfs<DynamicVirtualWarp<kThreads>>(kPersistent);
  check_outlined_bfs<DynamicVirtualWarp<kThreads>>(kGraph);
}

// A small graph's kernel runs on fewer blocks (OutlineGrid), down to one,
// whose barriers are the block's: every schedule, and ALB's grid-wide
// huge-vertex phase, keep the CPU's levels.
TEST(Outline, EverySchedulesBfsMatchesTheCpuOnFewBlocks) {
  IRGL_REQUIRE_GPU();
  for (unsigned blocks : {1u, 2u, 3u}) {
    SCOPED_TRACE(blocks);
    const OutlineGrid grid{~uint64_t{0}, 1, blocks};
    const Case few{"few blocks", OutlineMode::persistent, kAlbDefaultThreshold,
                   Distribution::cyclic, 0, grid};
    const Case chunks{"few blocks, chunks of 7", OutlineMode::persistent, kAlbDefaultThreshold,
                      Distribution::cyclic, 7, grid};
    check_outlined_bfs<ThreadMapped<kThreads>>(few);
    check_outlined_bfs<Warp<kThreads>>(few);
    check_outlined_bfs<Twc<kThreads>>(few);
    check_outlined_bfs<Lb<kThreads>>(chunks);
    check_outlined_bfs<MergePath<kThreads>>(chunks);
    check_outlined_bfs<MultiPhase<kThreads>>(chunks);
    check_outlined_bfs<DynamicVirtualWarp<kThreads>>(few);
    check_outlined_bfs<Alb<kThreads>>({"few blocks, threshold 8", OutlineMode::persistent, 8,
                                       Distribution::cyclic, 0, grid});
    check_outlined_bfs<Alb<kThreads>>({"few blocks, threshold 0, graph", OutlineMode::graph, 0,
                                       Distribution::blocked, 0, grid});
  }
  static OutlinedLoop<kThreads, ExpandRounds<Twc<kThreads>>> sized;
  Pipe pipe(16);
  EXPECT_EQ(sized.shape(pipe, OutlineGrid{10}).grid_threads, uint64_t(kThreads));
  EXPECT_EQ(sized.shape(pipe, OutlineGrid{10, 1, 2}).grid_threads, uint64_t(2 * kThreads));
  // No more blocks than 3,000 threads fill: 12.
  check_outlined_bfs<Twc<kThreads>>({"a thread per vertex", OutlineMode::persistent,
                                     kAlbDefaultThreshold, Distribution::cyclic, 0,
                                     OutlineGrid{skewed_graph().num_vertices()}});
}

// The blocks a persistent kernel runs on: resident, no more than its
// threads fill and at least min_blocks (and one); or the run's request,
// up to those resident.
TEST(OutlineGrid, BlocksAreResidentAndNeededOrRequested) {
  EXPECT_EQ(OutlineGrid{}.blocks(1056, 256), 1056u);
  EXPECT_EQ(OutlineGrid{0}.blocks(1056, 256), 1u);
  EXPECT_EQ((OutlineGrid{0, 0}).blocks(1056, 256), 1u);
  EXPECT_EQ(OutlineGrid{256}.blocks(1056, 256), 1u);
  EXPECT_EQ(OutlineGrid{257}.blocks(1056, 256), 2u);
  EXPECT_EQ(OutlineGrid{2642}.blocks(1056, 256), 11u);
  EXPECT_EQ((OutlineGrid{2642, 264}).blocks(1056, 256), 264u);
  EXPECT_EQ((OutlineGrid{2642, 5000}).blocks(1056, 256), 1056u);
  EXPECT_EQ(OutlineGrid{uint64_t{1} << 40}.blocks(1056, 256), 1056u);
  EXPECT_EQ((OutlineGrid{~uint64_t{0}, 1, 7}).blocks(1056, 256), 7u);
  EXPECT_EQ((OutlineGrid{2642, 264, 4}).blocks(1056, 256), 4u);
  EXPECT_EQ((OutlineGrid{10, 1, 5000}).blocks(1056, 256), 1056u);
}

// Iterations take a thread per vertex and a block per SM at least; a pipe
// loop's light rounds a thread per two vertices and two blocks per SM at
// least; a request wins.
TEST(OutlineGrid, LoopsOfEachKindSizeTheirGrids) {
  EXPECT_EQ(iterations_grid(2642, 132).blocks(1056, 256), 132u);     // minnesota
  EXPECT_EQ(iterations_grid(129164, 132).blocks(1056, 256), 505u);   // usroads
  EXPECT_EQ(iterations_grid(2642, 132, 3).blocks(1056, 256), 3u);
  EXPECT_EQ(iterations_grid(uint64_t{1} << 24, 132).blocks(1056, 256), 1056u);
  EXPECT_EQ(pipe_loop_grid(2642, 132).blocks(1056, 256), 264u);      // minnesota
  EXPECT_EQ(pipe_loop_grid(129164, 132).blocks(1056, 256), 264u);    // usroads
  EXPECT_EQ(pipe_loop_grid(325557, 132).blocks(1056, 256), 636u);    // cnr-2000
  EXPECT_EQ(pipe_loop_grid(uint64_t{1} << 24, 132).blocks(1056, 256), 1056u);
  EXPECT_EQ(pipe_loop_grid(2642, 132, 9).blocks(1056, 256), 9u);
  EXPECT_EQ(pipe_loop_grid(0, 132).blocks(100, 256), 100u);  // two per SM, but resident first
}

TEST(Outline, AlbBfsSetsHugeVerticesAsideInTheSameKernel) {
  IRGL_REQUIRE_GPU();
  check_outlined_bfs<Alb<kThreads>>(kPersistent);
  check_outlined_bfs<Alb<kThreads>>({"threshold 8, cyclic", OutlineMode::persistent, 8,
                                     Distribution::cyclic, 0});
  check_outlined_bfs<Alb<kThreads>>({"threshold 8, blocked", OutlineMode::persistent, 8,
                                     Distribution::blocked, 0});
  check_outlined_bfs<Alb<kThreads>>({"threshold 0", OutlineMode::graph, 0, Distribution::cyclic, 0});
  // The same loop back to the kernel without the inspection (the graph's node changes kernel).
  check_outlined_bfs<Alb<kThreads>>(kGraph);
}

// A loop with an ALB step launches the kernel built without ALB's
// inspection (TWC's code) when no vertex can be huge, the full one when
// some can; other loops have only the former.
TEST(Outline, AlbRunsTheLeanKernelWhenNoVertexCanBeHuge) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = skewed_graph();
  const DeviceGraph device(host);
  Pipe pipe(host.num_edges() + host.num_vertices());
  using AlbRounds = ExpandRounds<Alb<kThreads>>;
  static OutlinedLoop<kThreads, AlbRounds> loop;
  static State<ExpandBody> state;
  AlbRounds rounds;
  rounds.expand.g = irgl::lang::view_of(device);
  const auto kernel = [](bool inspects) {
    return inspects ? reinterpret_cast<const void*>(outlined_pipe_kernel<kThreads, AlbRounds, true>)
                    : reinterpret_cast<const void*>(outlined_pipe_kernel<kThreads, AlbRounds, false>);
  };
  RunOptions options;
  for (uint64_t threshold : {uint64_t{8}, kAlbDefaultThreshold}) {
    SCOPED_TRACE(threshold);
    options.alb_threshold = threshold;
    rounds.items = InGrid<Alb<kThreads>>::items(rounds.expand, state, options, loop.shape(pipe));
    const bool can_be_huge = rounds.expand.max_degree() > threshold;
    EXPECT_EQ(rounds.items.alb_inspects, can_be_huge);
    EXPECT_EQ(loop.kernel_for(rounds), kernel(can_be_huge));
  }
  using TwcRounds = ExpandRounds<Twc<kThreads>>;
  static OutlinedLoop<kThreads, TwcRounds> twc_loop;
  EXPECT_EQ(twc_loop.kernel_for(TwcRounds{}),
            reinterpret_cast<const void*>(outlined_pipe_kernel<kThreads, TwcRounds, false>));
}

// --schedule=auto in a persistent kernel: the rounds run the kernel built
// for the graph's pick (a warp per vertex where no degree exceeds 32, ALB
// with hubs), and the levels are the CPU's under either.
TEST(Outline, AutoRunsTheKernelBuiltForItsPick) {
  IRGL_REQUIRE_GPU();
  const CsrGraph even =
      irgl::testing::random_graph("even", 3000, 12000, WeightType::none, false, 3);
  const CsrGraph skewed = skewed_graph();
  using AutoRounds = ExpandRounds<Auto<kThreads>>;
  static OutlinedLoop<kThreads, AutoRounds> loop;
  static State<ExpandBody> state;
  for (const CsrGraph* host : {&even, &skewed}) {
    SCOPED_TRACE(host->name);
    check_outlined_bfs<Auto<kThreads>>(kPersistent, *host);
    check_outlined_bfs<Auto<kThreads>>(kGraph, *host);
    const DeviceGraph device(*host);
    Pipe pipe(host->num_edges() + host->num_vertices());
    AutoRounds rounds;
    rounds.expand.g = irgl::lang::view_of(device);
    RunOptions options;
    options.graph = shape_of_degrees(host->out_offsets.data(), host->num_vertices());
    AutoLog log;
    options.auto_log = &log;
    options.kernel_name = "expand";
    rounds.items = InGrid<Auto<kThreads>>::items(rounds.expand, state, options, loop.shape(pipe));
    const bool low_degrees = options.graph.max_degree <= 32;
    EXPECT_EQ(low_degrees, host == &even);
    EXPECT_EQ(rounds.items.auto_pick, low_degrees ? AutoPick::warp : AutoPick::alb);
    EXPECT_EQ(log.summary(), std::string("schedule auto: expand in a persistent kernel 1 ") +
                                 (low_degrees ? "warp" : "alb"));
    EXPECT_EQ(loop.kernel_for(rounds),
              low_degrees
                  ? reinterpret_cast<const void*>(
                        outlined_pipe_kernel<kThreads, AutoRounds, false, AutoPick::warp>)
                  : reinterpret_cast<const void*>(
                        outlined_pipe_kernel<kThreads, AutoRounds, false, AutoPick::alb>));
  }
}

// A step whose edges cost unalike (RunOptions::edge_work_varies) takes
// the in-kernel pick for that shape: merge-path on a graph with hubs, where
// the host launches LB, and it keeps its small rounds (regression: they
// went to TWC, which walks a hub's edges on one block).
TEST(Outline, AutoInKernelFollowsTheEdgeCost) {
  IRGL_REQUIRE_GPU();
  const CsrGraph skewed = skewed_graph();
  using AutoRounds = ExpandRounds<Auto<kThreads>>;
  static OutlinedLoop<kThreads, AutoRounds> loop;
  static State<ExpandBody> state;
  const DeviceGraph device(skewed);
  Pipe pipe(skewed.num_edges() + skewed.num_vertices());
  AutoRounds rounds;
  rounds.expand.g = irgl::lang::view_of(device);
  RunOptions options;
  options.graph = shape_of_degrees(skewed.out_offsets.data(), skewed.num_vertices());
  options.edge_work_varies = true;
  rounds.items = InGrid<Auto<kThreads>>::items(rounds.expand, state, options, loop.shape(pipe));
  EXPECT_EQ(rounds.items.auto_pick, AutoPick::merge_path);
  EXPECT_EQ(rounds.items.auto_lines.merge_path_twc_items, 0u);  // no hub on one block
  EXPECT_EQ(loop.kernel_for(rounds),
            reinterpret_cast<const void*>(
                outlined_pipe_kernel<kThreads, AutoRounds, false, AutoPick::merge_path>));
}

// The in-kernel pick is the rules' pick for the loop's shape where a
// kernel is built for it: a pass over all vertices of a road graph runs
// thread, its light rounds a warp per vertex; hubs run ALB, or merge-path
// in place of LB where edges cost unalike (cc_afforest's links). Needs no
// GPU.
TEST(AutoInKernel, PicksTheRulesScheduleForTheLoopsShape) {
  GraphShape road;
  road.vertices = 129164;
  road.edges = 330870;
  road.max_degree = 7;
  road.deviation = 1.0;
  const LoopShape pass{LoopPlace::all_nodes};
  const LoopShape light{LoopPlace::light_round};
  LoopShape uneven_pass = pass;
  uneven_pass.edge_work_varies = true;
  EXPECT_EQ(in_kernel_pick(road, pass), AutoPick::thread);
  EXPECT_EQ(in_kernel_pick(road, light), AutoPick::warp);
  EXPECT_EQ(in_kernel_pick(road, uneven_pass), AutoPick::thread);
  GraphShape hubs = road;
  hubs.max_degree = 100000;
  hubs.deviation = 300;
  EXPECT_EQ(in_kernel_pick(hubs, pass), AutoPick::alb);
  ASSERT_EQ(auto_pick(hubs, uneven_pass), AutoPick::lb);  // the host's pick
  EXPECT_EQ(in_kernel_pick(hubs, uneven_pass), AutoPick::merge_path);
  EXPECT_EQ(in_kernel_pick(GraphShape{}, pass), AutoPick::alb);  // unknown graph
}

// Alb<B, Tuning> caps the default threshold at its tuning's kThresholdCap
// (a loop without accumulators on a grid larger than the cap).
struct SmallCap : AlbTuning {
  static constexpr uint64_t kThresholdCap = 1000;
};

TEST(Outline, AlbTakesTheThresholdCapOfItsTuning) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = skewed_graph();
  const DeviceGraph device(host);
  static State<PlainExpandBody> state;
  Pipe pipe(host.num_edges() + host.num_vertices());
  PlainExpandBody body{};
  body.g = irgl::lang::view_of(device);
  OutlineShape shape;
  shape.grid_threads = 1u << 20;
  shape.pipe_capacity = pipe.capacity();
  using DefaultAlb = InGrid<Alb<kThreads>>;
  using SmallCapAlb = InGrid<Alb<kThreads, SmallCap>>;
  EXPECT_EQ(DefaultAlb::items(body, state, RunOptions{}, shape).alb_threshold,
            AlbTuning::kThresholdCap);
  EXPECT_EQ(SmallCapAlb::items(body, state, RunOptions{}, shape).alb_threshold, 1000u);
}

// Hubs side by side in the frontier, below the threshold: the blocks whose
// tiles hold them hand them over to the grid once half of it is done; every
// edge is still seen once (edges_seen) and the levels are the CPU's.
TEST(Outline, AlbHandsClusteredBlockBinVerticesOver) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = clustered_hubs_graph();
  check_outlined_bfs<Alb<kThreads>, PlainExpandBody>(
      {"threshold 30000", OutlineMode::persistent, 30000, Distribution::cyclic, 0}, host, 0);
  check_outlined_bfs<Alb<kThreads>, PlainExpandBody>(
      {"threshold 30000", OutlineMode::graph, 30000, Distribution::blocked, 0}, host, 0);
}

// One ALB launch from the host (Alb::run, instrumented) over the second
// round of clustered_hubs_graph() (vertices 1..40000), threshold 30000:
// checks that each vertex's edges were all seen once and returns how many
// vertices took the huge path (vertex 0 is not in the frontier, so only
// handed-over hubs can).
template <class Body>
uint64_t handed_over_hubs(const CsrGraph& host) {
  const DeviceGraph device(host);
  DeviceBuffer<uint32_t> level(host.num_vertices()), edges_seen(host.num_vertices());
  start_levels(level, 0);
  edges_seen.zero();
  std::vector<VertexId> second_round(40000);
  std::iota(second_round.begin(), second_round.end(), VertexId{1});
  Pipe pipe(host.num_edges() + host.num_vertices());
  pipe.reset(second_round);
  static State<Body, LoadCounters> state;
  RunOptions options;
  options.alb_threshold = 30000;
  LoadLog load_log;
  options.load_log = &load_log;
  const Body body{irgl::lang::view_of(device), Worklist{pipe.in()}, Worklist{pipe.out()},
                  {level.data()}, {edges_seen.data()}};
  Alb<kThreads>::run(body, WorklistItems{pipe.in()}, state, options);
  uint64_t huge_vertices = 0;
  for (const LoadRecord& record : load_log.records())
    if (record.phase == "twc") huge_vertices += record.path_vertices[int(LoadPath::huge)];
  const std::vector<uint32_t> seen = edges_seen.download();
  for (VertexId v = 1; v <= 40000; ++v)
    EXPECT_EQ(seen[v], host.out_offsets[v + 1] - host.out_offsets[v]) << "vertex " << v;
  return huge_vertices;
}

// The second round's hubs (5000 edges, under the threshold) take the huge
// path, so some block handed them over. A hub tile keeps its block for
// thousands of block-bin steps where every other block has a few items, so
// the hand-over does not depend on luck in the blocks' timing. A Body with
// accumulators never hands over.
TEST(AlbHandOver, AHostLaunchHandsClusteredBlockBinVerticesOver) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = clustered_hubs_graph();
  const uint64_t handed_over = handed_over_hubs<PlainExpandBody>(host);
  EXPECT_GT(handed_over, 0u);
  EXPECT_LE(handed_over, 200u);  // only hubs are in the block bin
  EXPECT_EQ(handed_over_hubs<ExpandBody>(host), 0u);
}

// A BFS from vertex 5 of the skewed graph as an outlined ALB loop, for the
// tests of OutlineMode::automatic: the loop's rounds, and a round from the
// host (standalone TWC launches) as a host_round runs it.
struct AutoModeBfs {
  // Few enough vertices for InputEdgesCheck's sample to be exact.
  CsrGraph host = skewed_graph(500, 2000);
  DeviceGraph device;
  DeviceBuffer<uint32_t> level, edges_seen;
  Pipe pipe;
  ExpandRounds<Alb<kThreads>> rounds;

  template <class Loop>
  AutoModeBfs(Loop& loop, State<ExpandBody>& state)
      : device(host),
        level(host.num_vertices()),
        edges_seen(host.num_vertices()),
        pipe(host.num_edges() + host.num_vertices()) {
    start_levels(level, 5);
    pipe.reset({5});
    rounds.expand = ExpandBody{irgl::lang::view_of(device), Worklist{pipe.in()},
                               Worklist{pipe.out()}, {level.data()}, {edges_seen.data()}};
    rounds.items = InGrid<Alb<kThreads>>::items(rounds.expand, state, {}, loop.shape(pipe));
  }

  // Runs the round whose input has `size` items, then swaps the pipe.
  void host_round(uint64_t size, State<ExpandBody>& state) {
    ExpandBody body = rounds.expand;
    body.frontier = Worklist{pipe.in(), size};
    body.next = Worklist{pipe.out()};
    Twc<kThreads>::run(body, WorklistItems{pipe.in(), size}, state);
    pipe.swap();
  }
};

// OutlineMode::automatic: rounds with more items than the heavy limit go to
// the host, and the rounds return to the device once a round had at most
// half that many; the answer and the number of rounds stay the same, and
// both sides ran some.
TEST(Outline, AutoModeHandsHeavyRoundsToTheHostAndBack) {
  IRGL_REQUIRE_GPU();
  static OutlinedLoop<kThreads, ExpandRounds<Alb<kThreads>>> loop;
  static State<ExpandBody> state, host_state;
  loop.set_heavy_items(40);
  AutoModeBfs bfs(loop, state);
  uint64_t host_rounds = 0;
  std::vector<uint64_t> host_sizes;
  auto host_round = [&]() -> uint64_t {
    const uint64_t size = bfs.pipe.read_sizes().in.size;
    if (size == 0) return 0;
    bfs.host_round(size, host_state);
    ++host_rounds;
    host_sizes.push_back(size);
    return size;
  };
  const uint64_t device_rounds =
      loop.run(bfs.rounds, bfs.pipe, OutlineMode::automatic, HostRounds{host_round});
  uint64_t expected_rounds = 0;
  EXPECT_TRUE(vectors_equal(cpu_levels(bfs.host, 5, expected_rounds), bfs.level.download()));
  EXPECT_EQ(device_rounds + host_rounds, expected_rounds);
  EXPECT_GT(host_rounds, 0u);
  EXPECT_GT(device_rounds, 0u);
  EXPECT_GT(host_sizes.front(), 40u);  // the host only gets heavy rounds first
  EXPECT_EQ(bfs.pipe.read_sizes().in.size, 0u);
}

// The edges of each BFS level's vertices, and a host round that records
// the edges of its input, for the tests of the edge checks.
struct LevelEdges {
  explicit LevelEdges(const AutoModeBfs& bfs) : host(bfs.host) {
    levels = cpu_levels(host, 5, rounds);
    per_level.assign(rounds, 0);
    for (VertexId v = 0; v < host.num_vertices(); ++v)
      if (levels[v] != kUnvisited) per_level[levels[v]] += degree(v);
    heaviest = *std::max_element(per_level.begin(), per_level.end());
  }
  uint64_t degree(VertexId v) const { return host.out_offsets[v + 1] - host.out_offsets[v]; }
  std::function<uint64_t()> host_round(AutoModeBfs& bfs, State<ExpandBody>& state) {
    return [this, &bfs, &state]() -> uint64_t {
      const std::vector<VertexId> in = bfs.pipe.download_in();
      if (in.empty()) return 0;
      uint64_t in_edges = 0;
      for (VertexId v : in) in_edges += degree(v);
      host_round_edges.push_back(in_edges);
      bfs.host_round(in.size(), state);
      return in.size();
    };
  }
  InputEdgesCheck check(const AutoModeBfs& bfs, uint64_t edges) const {
    const Graph graph = irgl::lang::view_of(bfs.device);
    return {graph.out().offsets, graph.max_out_degree(), edges};
  }

  const CsrGraph& host;
  uint64_t rounds = 0;
  std::vector<uint32_t> levels;
  std::vector<uint64_t> per_level;
  uint64_t heaviest = 0;
  std::vector<uint64_t> host_round_edges;
};

// OutlineMode::automatic with a dense InputEdgesCheck: exactly the rounds
// whose input has at least its edges go to the host (where a lang::Pipe
// writes their output as a bitmap); the others, the rounds after them
// included, run on the device, and the answer stays the same.
TEST(Outline, AutoModeHandsRoundsWithManyEdgesToTheHost) {
  IRGL_REQUIRE_GPU();
  static OutlinedLoop<kThreads, ExpandRounds<Alb<kThreads>>> loop;
  static State<ExpandBody> state, host_state;
  AutoModeBfs bfs(loop, state);
  LevelEdges levels(bfs);
  // The heaviest round and any as heavy go to the host: fewer than all.
  const uint64_t heavy_levels =
      std::count(levels.per_level.begin(), levels.per_level.end(), levels.heaviest);
  ASSERT_LT(heavy_levels, levels.rounds);
  ASSERT_LE(bfs.host.num_vertices(), InputEdgesCheck::samples_per_block<kThreads>());  // exact sums

  HostRounds host{levels.host_round(bfs, host_state)};
  host.dense = levels.check(bfs, levels.heaviest);
  const uint64_t device_rounds = loop.run(bfs.rounds, bfs.pipe, OutlineMode::automatic, host);
  EXPECT_TRUE(vectors_equal(levels.levels, bfs.level.download()));
  EXPECT_EQ(device_rounds + levels.host_round_edges.size(), levels.rounds);
  EXPECT_EQ(levels.host_round_edges, std::vector<uint64_t>(heavy_levels, levels.heaviest));
  EXPECT_EQ(bfs.pipe.read_sizes().in.size, 0u);
}

// OutlineMode::automatic with a heavy-edge check: a round with more items
// than the heavy size goes to the host only once its input has the edges
// too; the host keeps the rounds until one has at most half the heavy
// size (here: none), and the answer stays the same.
TEST(Outline, AutoModeCountsTheEdgesOfAHeavyRound) {
  IRGL_REQUIRE_GPU();
  static OutlinedLoop<kThreads, ExpandRounds<Alb<kThreads>>> loop;
  static State<ExpandBody> state, host_state;
  AutoModeBfs bfs(loop, state);
  LevelEdges levels(bfs);
  const uint64_t first_heaviest =
      std::find(levels.per_level.begin(), levels.per_level.end(), levels.heaviest) -
      levels.per_level.begin();
  ASSERT_GT(first_heaviest, 0u);
  loop.set_heavy_items(1);
  HostRounds host{levels.host_round(bfs, host_state)};
  host.heavy_edges = levels.check(bfs, levels.heaviest);
  const uint64_t device_rounds = loop.run(bfs.rounds, bfs.pipe, OutlineMode::automatic, host);
  loop.set_heavy_items(0);
  EXPECT_TRUE(vectors_equal(levels.levels, bfs.level.download()));
  EXPECT_EQ(device_rounds, first_heaviest);
  ASSERT_EQ(levels.host_round_edges.size(), levels.rounds - first_heaviest);
  EXPECT_EQ(levels.host_round_edges.front(), levels.heaviest);
  EXPECT_EQ(bfs.pipe.read_sizes().in.size, 0u);
}

// Every thread of a cooperative grid calls grid_exclusive_sum.
__global__ void exclusive_sum_kernel(const uint64_t* in, uint64_t* out, uint64_t count,
                                     uint64_t* block_sums) {
  __shared__ GridScanStorage<kThreads> storage;
  const GridRound grid{block_sums};
  grid_exclusive_sum<kThreads>(storage, grid, in, out, count);
}

TEST(Outline, GridExclusiveSumMatchesTheCpu) {
  IRGL_REQUIRE_GPU();
  const unsigned blocks = resident_grid(reinterpret_cast<const void*>(exclusive_sum_kernel), kThreads);
  DeviceBuffer<uint64_t> block_sums(blocks);
  for (uint64_t count : {0ull, 1ull, 255ull, 4097ull, 3000001ull}) {
    SCOPED_TRACE(count);
    std::vector<uint64_t> values(count);
    for (uint64_t i = 0; i < count; ++i) values[i] = (i * 2654435761u) % 1000;
    std::vector<uint64_t> expected(count + 1, 0);
    std::partial_sum(values.begin(), values.end(), expected.begin() + 1);
    DeviceBuffer<uint64_t> in(std::max<uint64_t>(count, 1)), out(count + 1);
    if (count) in.upload(values.data(), count);
    const uint64_t* in_ptr = in.data();
    uint64_t* out_ptr = out.data();
    uint64_t* sums_ptr = block_sums.data();
    void* args[] = {&in_ptr, &out_ptr, &count, &sums_ptr};
    IRGL_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(exclusive_sum_kernel),
                                                blocks, kThreads, args, 0, 0));
    IRGL_CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_TRUE(vectors_equal(expected, out.download()));
  }
}

// A round that pushes more than a queue holds stops the loop and is
// reported like the host loop's overflow, never dropped silently.
TEST(Outline, AnOverflowingRoundIsAnError) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = skewed_graph();
  const DeviceGraph device(host);
  DeviceBuffer<uint32_t> level(host.num_vertices()), edges_seen(host.num_vertices());
  start_levels(level, 5);
  Pipe pipe(64);  // vertex 5 alone reaches 600 vertices
  pipe.reset({5});
  for (OutlineMode mode : {OutlineMode::persistent, OutlineMode::graph}) {
    static OutlinedLoop<kThreads, ExpandRounds<Twc<kThreads>>> loop;
    static State<ExpandBody> state;
    ExpandRounds<Twc<kThreads>> rounds;
    rounds.expand = ExpandBody{irgl::lang::view_of(device), Worklist{pipe.in()}, Worklist{pipe.out()},
                               {level.data()}, {edges_seen.data()}};
    try {
      loop.run(rounds, pipe, mode);
      ADD_FAILURE() << "no error in mode " << to_string(mode);
    } catch (const std::runtime_error& error) {
      EXPECT_NE(std::string(error.what()).find("worklist overflow"), std::string::npos) << error.what();
    }
    start_levels(level, 5);
    pipe.reset({5});
  }
}

// A push past the queues on one block in shared memory is the same error.
TEST(Outline, AnOverflowingRoundInSharedMemoryIsAnError) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = small_graph();
  const DeviceGraph device(host);
  DeviceBuffer<uint32_t> level(host.num_vertices()), edges_seen(host.num_vertices());
  start_levels(level, 5);
  Pipe pipe(16);  // vertex 5's fourth level holds 32 vertices
  pipe.reset({5});
  static OutlinedLoop<kThreads, SharedExpandRounds<Twc<kThreads>>> loop;
  SharedExpandRounds<Twc<kThreads>> rounds;
  rounds.expand = ExpandBody{irgl::lang::view_of(device), Worklist{pipe.in()}, Worklist{pipe.out()},
                             {level.data()}, {edges_seen.data()}};
  try {
    loop.run(rounds, pipe, OutlineMode::persistent);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("worklist overflow"), std::string::npos) << error.what();
  }
  EXPECT_TRUE(loop.ran_shared());
}

}  // namespace
}  // namespace irgl::gpu::schedule
