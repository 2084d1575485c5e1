// The frontier forms of lang::Pipe (gpu/worklist/frontier_policy.h): a BFS
// driven the way irglc's host loops drive it, under every form and every
// schedule (a swept input goes through each schedule's member test), against
// a CPU BFS; de-duplication; the log of choices; the statistics behind them.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "bfs_fixtures.h"
#include "gpu_test.h"
#include "gpu_test_util.h"
#include "graph_fixtures.h"
#include "irgl/gpu/device_graph.h"
#include "irgl/gpu/schedule/schedules.cuh"
#include "irgl/lang/cuda.cuh"

namespace irgl::lang {
namespace {

namespace schedule = irgl::gpu::schedule;
using gpu::FrontierForm;
using gpu::FrontierMode;
using irgl::testing::cpu_levels;
using irgl::testing::ExpandBody;
using irgl::testing::kUnvisited;
using irgl::testing::start_levels;
using irgl::testing::vectors_equal;

constexpr int kThreads = 256;

// Restores the process-wide mode after a test.
class FrontierModeScope {
 public:
  explicit FrontierModeScope(FrontierMode mode) : saved_(gpu::frontier_mode()) {
    gpu::frontier_mode() = mode;
  }
  ~FrontierModeScope() { gpu::frontier_mode() = saved_; }

 private:
  FrontierMode saved_;
};

// BFS rounds from `source` with host-launched rounds, as irglc's driver runs
// a pipe loop; returns the levels and leaves the log of choices in
// gpu::global_frontier_log().
template <class Policy, class Push>
std::vector<uint32_t> pipe_bfs(const CsrGraph& host, const gpu::DeviceGraph& device,
                               VertexId source, std::vector<uint32_t>* edges_seen = nullptr) {
  const Graph graph = view_of(device);
  gpu::DeviceBuffer<uint32_t> level(host.num_vertices()), seen(host.num_vertices());
  start_levels(level, source);
  seen.zero();
  gpu::global_frontier_log().clear();
  static schedule::State<ExpandBody<Push>> state;
  Pipe pipe(graph);
  pipe.push(source);
  while (!pipe.empty()) {
    const ExpandBody<Push> body{graph, pipe.in(), pipe.out(), {level.data()}, {seen.data()}};
    Policy::run(body, pipe.in().items(), state);
    pipe.swap();
  }
  if (edges_seen) *edges_seen = seen.download();
  return level.download();
}

// A graph whose BFS from vertex 5 has both tiny rounds and rounds reaching a
// large part of the graph.
const CsrGraph& test_graph() {
  static const CsrGraph graph = irgl::testing::skewed_graph();
  return graph;
}

template <class Policy, class Push = StagedWorklist<0>>
void check_bfs(FrontierMode mode, const CsrGraph& host = test_graph(), VertexId source = 5) {
  SCOPED_TRACE(gpu::frontier_mode_name(mode));
  const FrontierModeScope scope(mode);
  const gpu::DeviceGraph device(host);
  uint64_t rounds = 0;
  const std::vector<uint32_t> expected = cpu_levels(host, source, rounds);
  std::vector<uint32_t> seen;
  EXPECT_TRUE(vectors_equal(expected, pipe_bfs<Policy, Push>(host, device, source, &seen)));
  // post() ran once per reached vertex, after all of its edges.
  for (VertexId v = 0; v < host.num_vertices(); ++v)
    if (expected[v] != kUnvisited)
      ASSERT_EQ(seen[v], host.out_offsets[v + 1] - host.out_offsets[v]) << "vertex " << v;

  const gpu::FrontierLog& log = gpu::global_frontier_log();
  ASSERT_EQ(log.rounds.size(), rounds);
  for (const gpu::FrontierRecord& record : log.rounds) {
    SCOPED_TRACE("round " + std::to_string(record.round));
    switch (mode) {
      case FrontierMode::automatic:
        EXPECT_TRUE(record.output == FrontierForm::sparse || record.output == FrontierForm::dense);
        break;
      case FrontierMode::sparse: EXPECT_EQ(record.output, FrontierForm::sparse); break;
      case FrontierMode::unique: EXPECT_EQ(record.output, FrontierForm::unique); break;
      case FrontierMode::dense:
        EXPECT_EQ(record.output, FrontierForm::dense);
        EXPECT_FALSE(record.swept_next);
        break;
      case FrontierMode::sweep:
        EXPECT_EQ(record.output, FrontierForm::sweep);
        EXPECT_TRUE(record.swept_next);
        ASSERT_TRUE(record.members.has_value());
        break;
    }
  }
}

template <class Policy>
void check_every_mode() {
  for (FrontierMode mode : {FrontierMode::sparse, FrontierMode::unique, FrontierMode::dense,
                            FrontierMode::sweep, FrontierMode::automatic})
    check_bfs<Policy>(mode);
}

TEST(FrontierForms, ThreadMappedBfsMatchesTheCpu) {
  IRGL_REQUIRE_GPU();
  check_every_mode<schedule::ThreadMapped<kThreads>>();
}

TEST(FrontierForms, GroupMappedBfsMatchesTheCpu) {
  IRGL_REQUIRE_GPU();
  check_every_mode<schedule::Warp<kThreads>>();
  check_every_mode<schedule::Block<kThreads>>();
  check_every_mode<schedule::GroupMapped<kThreads, 64>>();
}

TEST(FrontierForms, TwcAndAlbBfsMatchTheCpu) {
  IRGL_REQUIRE_GPU();
  check_every_mode<schedule::Twc<kThreads>>();
  check_every_mode<schedule::Alb<kThreads>>();
}

TEST(FrontierForms, EdgeBalancedBfsMatchesTheCpu) {
  IRGL_REQUIRE_GPU();
  check_every_mode<schedule::Lb<kThreads>>();
  check_every_mode<schedule::MergePath<kThreads>>();
}

TEST(FrontierForms, EveryPushPolicyHonoursTheForm) {
  IRGL_REQUIRE_GPU();
  for (FrontierMode mode : {FrontierMode::sparse, FrontierMode::unique, FrontierMode::sweep}) {
    check_bfs<schedule::Twc<kThreads>, UncoalescedWorklist>(mode);
    check_bfs<schedule::Twc<kThreads>, Worklist>(mode);
  }
}

// Every vertex pushes all its neighbours: the sparse queue gets a vertex
// once per in-edge, the other forms once.
__global__ void push_neighbours(Graph g, Worklist frontier, Worklist next) {
  const uint64_t size = frontier.size();
  for (uint64_t i = blockIdx.x * blockDim.x + threadIdx.x; i < size; i += gridDim.x * blockDim.x)
    for (uint64_t e = g.out_begin(frontier[i]); e < g.out_end(frontier[i]); ++e)
      next.push(g.dst(e));
}

TEST(FrontierForms, UniqueAndDensePushEachVertexOnce) {
  IRGL_REQUIRE_GPU();
  const CsrGraph& host = test_graph();
  const gpu::DeviceGraph device(host);
  const Graph graph = view_of(device);
  std::vector<VertexId> targets(host.out_targets.begin(), host.out_targets.end());
  std::sort(targets.begin(), targets.end());
  const uint64_t distinct = std::unique(targets.begin(), targets.end()) - targets.begin();
  for (FrontierMode mode : {FrontierMode::sparse, FrontierMode::unique, FrontierMode::dense}) {
    SCOPED_TRACE(gpu::frontier_mode_name(mode));
    const FrontierModeScope scope(mode);
    Pipe pipe(graph);
    pipe.push_all();
    ASSERT_EQ(pipe.size(), host.num_vertices());
    push_neighbours<<<64, 256>>>(graph, pipe.in(), pipe.out());
    pipe.swap();
    const std::vector<VertexId> in = pipe.storage().download_in();
    if (mode == FrontierMode::sparse) {
      EXPECT_EQ(in.size(), host.num_edges());
    } else {
      EXPECT_EQ(in.size(), distinct);
      std::vector<VertexId> sorted = in;
      std::sort(sorted.begin(), sorted.end());
      EXPECT_TRUE(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
      if (mode == FrontierMode::dense) EXPECT_TRUE(std::is_sorted(in.begin(), in.end()));
    }
  }
}

// Automatic choice: rounds whose input cannot reach the dense bound stay
// sparse without the degree being computed; the others follow the degree
// rule; both happen on a graph whose middle rounds visit millions of edges.
TEST(FrontierForms, AutomaticFollowsThePolicy) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = irgl::testing::random_graph("frontier-auto", 200000, 3000000,
                                                    WeightType::none, false, 3);
  check_bfs<schedule::Alb<kThreads>>(FrontierMode::automatic, host, 0);
  const uint64_t n = host.num_vertices();
  uint64_t max_degree = 0;
  for (VertexId v = 0; v < n; ++v)
    max_degree = std::max<uint64_t>(max_degree, host.out_offsets[v + 1] - host.out_offsets[v]);
  bool saw_sparse = false, saw_dense = false;
  for (const gpu::FrontierRecord& record : gpu::global_frontier_log().rounds) {
    const gpu::FrontierInputs inputs{n, host.num_edges(), max_degree, record.items,
                                     record.degree_sum};
    EXPECT_EQ(record.degree_sum.has_value(),
              gpu::FrontierPolicy::needs_degree_sum(FrontierMode::automatic, inputs));
    EXPECT_EQ(record.output, gpu::FrontierPolicy::output_form(FrontierMode::automatic, inputs));
    saw_sparse |= record.output == FrontierForm::sparse;
    saw_dense |= record.output == FrontierForm::dense;
  }
  EXPECT_TRUE(saw_sparse);
  EXPECT_TRUE(saw_dense);
}

// A swept input becomes a queue again where a queue is needed: a host push,
// and storage() (the persistent kernel reads queues).
TEST(FrontierForms, SweptInputsAreCompactedWhenAQueueIsNeeded) {
  IRGL_REQUIRE_GPU();
  const FrontierModeScope scope(FrontierMode::sweep);
  const CsrGraph& host = test_graph();
  const gpu::DeviceGraph device(host);
  const Graph graph = view_of(device);
  Pipe pipe(graph);
  pipe.push(5);
  push_neighbours<<<64, 256>>>(graph, pipe.in(), pipe.out());
  pipe.swap();
  std::vector<VertexId> expected(host.out_targets.begin() + host.out_offsets[5],
                                 host.out_targets.begin() + host.out_offsets[6]);
  std::sort(expected.begin(), expected.end());
  expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
  ASSERT_NE(pipe.in().members.words, nullptr);
  EXPECT_EQ(pipe.size(), expected.size());

  pipe.push(host.num_vertices() - 1);  // compacts, then appends
  EXPECT_EQ(pipe.in().members.words, nullptr);
  std::vector<VertexId> with_push = expected;
  with_push.push_back(host.num_vertices() - 1);
  EXPECT_EQ(pipe.storage().download_in(), with_push);

  // Once storage() was taken, a bitmap output is compacted at the swap.
  push_neighbours<<<64, 256>>>(graph, pipe.in(), pipe.out());
  pipe.swap();
  EXPECT_EQ(pipe.in().members.words, nullptr);
  EXPECT_FALSE(gpu::global_frontier_log().rounds.back().swept_next);
}

__global__ void record_size(Worklist worklist, unsigned long long* size) {
  if (blockIdx.x == 0 && threadIdx.x == 0) *size = worklist.size();
}

// Regression: a kernel's frontier.size() (allowed in .irgl kernels) read
// the unused queue of a swept input, 0, instead of its member count.
TEST(FrontierForms, ASweptInputsSizeIsItsMemberCount) {
  IRGL_REQUIRE_GPU();
  const FrontierModeScope scope(FrontierMode::sweep);
  const CsrGraph& host = test_graph();
  const gpu::DeviceGraph device(host);
  const Graph graph = view_of(device);
  Pipe pipe(graph);
  pipe.push(5);
  push_neighbours<<<64, 256>>>(graph, pipe.in(), pipe.out());
  pipe.swap();
  ASSERT_NE(pipe.in().members.words, nullptr);
  gpu::DeviceBuffer<unsigned long long> size(1);
  record_size<<<1, 32>>>(pipe.in(), size.data());
  EXPECT_EQ(size.download()[0], pipe.size());
  EXPECT_GT(pipe.size(), 0u);
}

TEST(FrontierStats, MembersAndDegreeSums) {
  IRGL_REQUIRE_GPU();
  const CsrGraph& host = test_graph();
  const gpu::DeviceGraph device(host);
  const uint64_t* offsets = device.view().out.offsets;
  const std::vector<VertexId> members = irgl::testing::random_vertex_set(host.num_vertices(), 0.3, 5);
  uint64_t exact = 0;
  for (VertexId v : members) exact += host.out_offsets[v + 1] - host.out_offsets[v];

  gpu::FrontierStats stats;
  gpu::DenseBitmap bitmap(host.num_vertices());
  bitmap.assign(members);
  EXPECT_EQ(stats.members(bitmap.view()), members.size());
  EXPECT_EQ(stats.degree_sum(bitmap.view(), offsets), exact);

  gpu::SparseQueue queue(host.num_vertices());
  queue.assign(members);
  ASSERT_LE(members.size(), gpu::FrontierStats::kDegreeSamples);  // exact below the sample size
  EXPECT_EQ(stats.degree_sum(queue.view(), members.size(), offsets), exact);

  // Above it, the mean of evenly spaced samples times the size: exact when
  // every item has the same degree.
  const std::vector<VertexId> repeated(3 * gpu::FrontierStats::kDegreeSamples + 7, 5);
  gpu::SparseQueue many(repeated.size());
  many.assign(repeated);
  EXPECT_EQ(stats.degree_sum(many.view(), repeated.size(), offsets),
            repeated.size() * (host.out_offsets[6] - host.out_offsets[5]));
}

}  // namespace
}  // namespace irgl::lang
