// The frontier forms of lang::Pipe (gpu/worklist/frontier_policy.h): a BFS
// driven the way irglc's host loops drive it, under every form and every
// schedule (a swept input goes through each schedule's member test), against
// a CPU BFS; de-duplication; the log of choices; the statistics behind them.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
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

// A run with a fixed frontier mode and its own log of the pipes' choices.
struct TestRun {
  explicit TestRun(FrontierMode mode) {
    run.frontier = mode;
    run.frontier_log = &log;
  }
  TestRun(const TestRun&) = delete;  // run points into it
  gpu::FrontierLog log;
  CudaRun run;
};

// A run that names no mode lets the pipes choose (host code: no GPU needed).
TEST(FrontierForms, TheDefaultModeIsAuto) {
  EXPECT_EQ(CudaRun{}.frontier, FrontierMode::automatic);
}

// BFS rounds from `source` with host-launched rounds, as irglc's driver runs
// a pipe loop, under `run` (which logs the choices); returns the levels.
template <class Policy, class Push>
std::vector<uint32_t> pipe_bfs(const CsrGraph& host, const gpu::DeviceGraph& device,
                               VertexId source, const CudaRun& run,
                               std::vector<uint32_t>* edges_seen = nullptr,
                               const schedule::RunOptions& options = {},
                               std::vector<uint64_t>* round_sizes = nullptr) {
  const Graph graph = view_of(device);
  gpu::DeviceBuffer<uint32_t> level(host.num_vertices()), seen(host.num_vertices());
  start_levels(level, source);
  seen.zero();
  static schedule::State<ExpandBody<Push>> state;
  Pipe pipe(graph, run);
  pipe.push(source);
  while (!pipe.empty()) {
    if (round_sizes) round_sizes->push_back(pipe.size());
    const ExpandBody<Push> body{graph, pipe.in(), pipe.out(), {level.data()}, {seen.data()}};
    Policy::run(body, pipe.in().items(), state, options);
    pipe.swap();
  }
  if (edges_seen) *edges_seen = seen.download();
  return level.download();
}

// Auto records each host launch's pick in the run's log: on a graph without
// a degree above 32 a warp per vertex for rounds up to the warp line, TWC
// above it; one launch per round; the levels are the CPU's.
TEST(FrontierForms, AutoLogsThePickOfEachLaunch) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host =
      irgl::testing::random_graph("auto-log", 3000, 12000, WeightType::none, false, 3);
  const gpu::DeviceGraph device(host);
  const Graph graph = view_of(device);
  TestRun test_run(FrontierMode::sparse);
  schedule::AutoLog auto_log;
  test_run.run.out_degrees = run_for(device).out_degrees;
  ASSERT_LE(test_run.run.out_degrees.max_degree, 32u);
  test_run.run.auto_log = &auto_log;
  constexpr uint64_t kWarpLine = 100;
  test_run.run.auto_warp_items = kWarpLine;
  gpu::DeviceBuffer<uint32_t> level(host.num_vertices()), seen(host.num_vertices());
  start_levels(level, 0);
  seen.zero();
  static schedule::State<ExpandBody<>> state;
  Pipe pipe(graph, test_run.run);
  pipe.push(0);
  uint64_t warp_rounds = 0, twc_rounds = 0;
  while (!pipe.empty()) {
    (pipe.size() <= kWarpLine ? warp_rounds : twc_rounds) += 1;
    const ExpandBody<> body{graph, pipe.in(), pipe.out(), {level.data()}, {seen.data()}};
    schedule::Auto<kThreads>::run(body, pipe.in().items(), state, test_run.run.options("expand"));
    pipe.swap();
  }
  uint64_t rounds = 0;
  EXPECT_TRUE(vectors_equal(cpu_levels(host, 0, rounds), level.download()));
  EXPECT_EQ(warp_rounds + twc_rounds, rounds);
  ASSERT_GT(warp_rounds, 0u);
  ASSERT_GT(twc_rounds, 0u);
  EXPECT_EQ(auto_log.summary(), "schedule auto: expand " + std::to_string(warp_rounds) +
                                    " warp, " + std::to_string(twc_rounds) + " twc");
}

// Auto<B, Tuning> chooses by the tuning's rules: here block for every
// launch, at any size; the levels stay the CPU's.
struct BlockEverywhere : schedule::AutoTuning {
  static constexpr schedule::AutoRule kRules[] = {
      {schedule::kAnyPlace, -1, schedule::kAnyDegree, 0, schedule::kAnyMean, schedule::kAnyShare,
       schedule::AutoPick::block}};
  static constexpr uint64_t kBlockRoundItemsPerSm = uint64_t{1} << 40;
};

// BFS rounds from vertex 5 of the skewed graph under Auto<kThreads, Tuning>
// with the run's lines as `configure` sets them, checked against the CPU;
// returns auto's log and each round's size.
template <class Tuning>
std::string auto_bfs_log(const std::function<void(irgl::lang::CudaRun&)>& configure,
                         std::vector<uint64_t>& round_sizes) {
  const CsrGraph host = irgl::testing::skewed_graph();
  const gpu::DeviceGraph device(host);
  TestRun test_run(FrontierMode::sparse);
  schedule::AutoLog auto_log;
  test_run.run.out_degrees = run_for(device).out_degrees;
  test_run.run.auto_log = &auto_log;
  configure(test_run.run);
  const std::vector<uint32_t> levels = pipe_bfs<schedule::Auto<kThreads, Tuning>, StagedWorklist<0>>(
      host, device, 5, test_run.run, nullptr, test_run.run.options("expand"), &round_sizes);
  uint64_t rounds = 0;
  EXPECT_TRUE(vectors_equal(cpu_levels(host, 5, rounds), levels));
  EXPECT_EQ(round_sizes.size(), rounds);
  return auto_log.summary();
}

TEST(FrontierForms, AutoTakesTheRulesOfItsTuning) {
  IRGL_REQUIRE_GPU();
  std::vector<uint64_t> round_sizes;
  const std::string log = auto_bfs_log<BlockEverywhere>([](irgl::lang::CudaRun&) {}, round_sizes);
  EXPECT_EQ(log, "schedule auto: expand " + std::to_string(round_sizes.size()) + " block");
}

// Auto's log of BFS rounds of `round_sizes`, those `handed_over` run as
// `to`, the others as `from`, picks in AutoPick's order; some of each.
std::string handed_over_log(const std::vector<uint64_t>& round_sizes,
                            const std::function<bool(uint64_t)>& handed_over,
                            schedule::AutoPick from, schedule::AutoPick to) {
  const uint64_t rounds = round_sizes.size();
  const uint64_t handed = std::count_if(round_sizes.begin(), round_sizes.end(), handed_over);
  EXPECT_GT(handed, 0u);
  EXPECT_LT(handed, rounds);
  std::pair<uint64_t, schedule::AutoPick> first{handed, to}, second{rounds - handed, from};
  if (from < to) std::swap(first, second);
  return "schedule auto: expand " + std::to_string(first.first) + " " +
         schedule::to_string(first.second) + ", " + std::to_string(second.first) + " " +
         schedule::to_string(second.second);
}

// Block's rules with the default lines: rounds above the run's
// --auto-block-items run a warp per vertex, each launch logged; the levels
// stay the CPU's.
struct BlockRules : schedule::AutoTuning {
  static constexpr auto& kRules = BlockEverywhere::kRules;
};

TEST(FrontierForms, AutoHandsBlocksLargeRoundsToWarp) {
  IRGL_REQUIRE_GPU();
  constexpr uint64_t kBlockLine = 100;
  std::vector<uint64_t> round_sizes;
  const std::string log = auto_bfs_log<BlockRules>(
      [&](irgl::lang::CudaRun& run) { run.auto_block_items = kBlockLine; }, round_sizes);
  EXPECT_EQ(log, handed_over_log(
                     round_sizes, [&](uint64_t items) { return items > kBlockLine; },
                     schedule::AutoPick::block, schedule::AutoPick::warp));
}

// Merge-path for every launch: rounds of at most the run's
// --auto-merge-path-items run TWC, each launch logged; the levels stay the
// CPU's.
struct MergePathRules : schedule::AutoTuning {
  static constexpr schedule::AutoRule kRules[] = {
      {schedule::kAnyPlace, -1, schedule::kAnyDegree, 0, schedule::kAnyMean, schedule::kAnyShare,
       schedule::AutoPick::merge_path}};
};

TEST(FrontierForms, AutoHandsMergePathsSmallRoundsToTwc) {
  IRGL_REQUIRE_GPU();
  constexpr uint64_t kMergePathLine = 100;
  std::vector<uint64_t> round_sizes;
  const std::string log = auto_bfs_log<MergePathRules>(
      [&](irgl::lang::CudaRun& run) { run.auto_merge_path_items = kMergePathLine; }, round_sizes);
  EXPECT_EQ(log, handed_over_log(
                     round_sizes, [&](uint64_t items) { return items <= kMergePathLine; },
                     schedule::AutoPick::merge_path, schedule::AutoPick::twc));
}

// A graph whose BFS from vertex 5 has both tiny rounds and rounds reaching a
// large part of the graph.
const CsrGraph& test_graph() {
  static const CsrGraph graph = irgl::testing::skewed_graph();
  return graph;
}

// Copies the log of the frontier choices to `choices`, if given.
template <class Policy, class Push = StagedWorklist<0>>
void check_bfs(FrontierMode mode, const CsrGraph& host = test_graph(), VertexId source = 5,
               gpu::FrontierLog* choices = nullptr) {
  SCOPED_TRACE(gpu::frontier_mode_name(mode));
  const TestRun test_run(mode);
  const gpu::DeviceGraph device(host);
  uint64_t rounds = 0;
  const std::vector<uint32_t> expected = cpu_levels(host, source, rounds);
  std::vector<uint32_t> seen;
  EXPECT_TRUE(
      vectors_equal(expected, pipe_bfs<Policy, Push>(host, device, source, test_run.run, &seen)));
  // post() ran once per reached vertex, after all of its edges.
  for (VertexId v = 0; v < host.num_vertices(); ++v)
    if (expected[v] != kUnvisited)
      ASSERT_EQ(seen[v], host.out_offsets[v + 1] - host.out_offsets[v]) << "vertex " << v;

  const gpu::FrontierLog& log = test_run.log;
  if (choices) *choices = log;
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

TEST(FrontierForms, Paper002SchedulesBfsMatchTheCpu) {
  IRGL_REQUIRE_GPU();
  check_every_mode<schedule::MultiPhase<kThreads>>();
  check_every_mode<schedule::VirtualWarp<kThreads>>();
  check_every_mode<schedule::DynamicVirtualWarp<kThreads>>();
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

// The test graph, on the GPU.
struct TestGraph {
  const CsrGraph& host = test_graph();
  const gpu::DeviceGraph device{host};
  const Graph graph = view_of(device);
};

// The distinct targets of edges [first, end), in increasing order.
std::vector<VertexId> distinct_targets(const CsrGraph& graph, uint64_t first, uint64_t end) {
  std::vector<VertexId> targets(graph.out_targets.begin() + first,
                                graph.out_targets.begin() + end);
  std::sort(targets.begin(), targets.end());
  targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
  return targets;
}

// One round from vertex 5: its neighbours pushed to pipe.out(), no swap.
void push_from_five(Pipe& pipe, const Graph& graph) {
  pipe.push(5);
  push_neighbours<<<64, 256>>>(graph, pipe.in(), pipe.out());
}

// A pipe whose input is swept: the neighbours of vertex 5, after one round
// under --frontier=sweep.
class SweptInput : public ::testing::Test {
 protected:
  void SetUp() override {
    IRGL_REQUIRE_GPU();
    test_.emplace();
    pipe_.emplace(test_->graph, run_.run);
    push_from_five(*pipe_, test_->graph);
    pipe_->swap();
    ASSERT_NE(pipe_->in().members.words, nullptr);
  }
  const CsrGraph& host() const { return test_->host; }
  const Graph& graph() const { return test_->graph; }
  Pipe& pipe() { return *pipe_; }
  const gpu::FrontierLog& log() const { return run_.log; }

 private:
  TestRun run_{FrontierMode::sweep};
  std::optional<TestGraph> test_;
  std::optional<Pipe> pipe_;
};

TEST(FrontierForms, UniqueAndDensePushEachVertexOnce) {
  IRGL_REQUIRE_GPU();
  const TestGraph test;
  const CsrGraph& host = test.host;
  const Graph& graph = test.graph;
  const uint64_t distinct = distinct_targets(host, 0, host.num_edges()).size();
  for (FrontierMode mode : {FrontierMode::sparse, FrontierMode::unique, FrontierMode::dense}) {
    SCOPED_TRACE(gpu::frontier_mode_name(mode));
    const TestRun test_run(mode);
    Pipe pipe(graph, test_run.run);
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
  const CsrGraph host = irgl::testing::skewed_graph(200000, 3000000);
  gpu::FrontierLog log;
  check_bfs<schedule::Alb<kThreads>>(FrontierMode::automatic, host, 0, &log);
  const uint64_t n = host.num_vertices();
  uint64_t max_degree = 0;
  for (VertexId v = 0; v < n; ++v)
    max_degree = std::max<uint64_t>(max_degree, host.out_offsets[v + 1] - host.out_offsets[v]);
  bool saw_sparse = false, saw_dense = false;
  for (const gpu::FrontierRecord& record : log.rounds) {
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
TEST_F(SweptInput, IsCompactedWhereAQueueIsNeeded) {
  const std::vector<VertexId> expected =
      distinct_targets(host(), host().out_offsets[5], host().out_offsets[6]);
  EXPECT_EQ(pipe().size(), expected.size());

  const VertexId last = host().num_vertices() - 1;
  pipe().push(last);  // compacts, then appends
  EXPECT_EQ(pipe().in().members.words, nullptr);
  std::vector<VertexId> with_push = expected;
  with_push.push_back(last);
  EXPECT_EQ(pipe().storage().download_in(), with_push);

  // Once storage() was taken, a bitmap output is compacted at the swap (a
  // host round of an outlined loop starts with size()).
  EXPECT_EQ(pipe().size(), with_push.size());
  EXPECT_NE(pipe().out().pushed_bits.words, nullptr);
  push_neighbours<<<64, 256>>>(graph(), pipe().in(), pipe().out());
  pipe().swap();
  EXPECT_EQ(pipe().in().members.words, nullptr);
  EXPECT_FALSE(log().rounds.back().swept_next);
}

__global__ void record_size(Worklist worklist, unsigned long long* size) {
  if (blockIdx.x == 0 && threadIdx.x == 0) *size = worklist.size();
}

// Regression: a kernel's frontier.size() (allowed in .irgl kernels) read
// the unused queue of a swept input, 0, instead of its member count.
TEST_F(SweptInput, SizeOnTheDeviceIsTheMemberCount) {
  gpu::DeviceBuffer<unsigned long long> size(1);
  record_size<<<1, 32>>>(pipe().in(), size.data());
  EXPECT_EQ(size.download()[0], pipe().size());
  EXPECT_GT(pipe().size(), 0u);
}

// Regression (review): a later kernel of the same round iterating
// pipe.out() (irglc accepts it, codegen/Inputs/outline-steps.irgl) read the
// empty queue of a bitmap-only output and saw nothing.
TEST(FrontierForms, AnOutputIteratedInItsOwnRoundHasItsPushes) {
  IRGL_REQUIRE_GPU();
  const TestGraph test;
  const CsrGraph& host = test.host;
  const Graph& graph = test.graph;
  const uint64_t distinct =
      distinct_targets(host, host.out_offsets[5], host.out_offsets[6]).size();
  for (FrontierMode mode : {FrontierMode::unique, FrontierMode::dense, FrontierMode::sweep}) {
    SCOPED_TRACE(gpu::frontier_mode_name(mode));
    const TestRun test_run(mode);
    Pipe pipe(graph, test_run.run);
    push_from_five(pipe, graph);
    gpu::DeviceBuffer<unsigned long long> count(1);
    count.zero();
    static schedule::State<irgl::testing::CountingBody> state;
    schedule::ThreadMapped<kThreads>::run(irgl::testing::CountingBody{count.data()}, pipe.out().items(), state);
    EXPECT_EQ(count.download()[0], distinct);
    pipe.swap();
    EXPECT_EQ(pipe.size(), distinct);
  }
}

__global__ void push_one(Worklist worklist, Node v) { worklist.push(v); }

// Regression (review): pushes into a swept input (a kernel given pipe.in()
// after the swap) went to its unused queue and were lost.
TEST_F(SweptInput, PushesToItAreMembers) {
  const uint64_t members = pipe().size();
  std::vector<bool> member(host().num_vertices());
  for (uint64_t e = host().out_offsets[5]; e < host().out_offsets[6]; ++e)
    member[host().out_targets[e]] = true;
  VertexId outsider = 0;
  while (member[outsider]) ++outsider;
  push_one<<<1, 1>>>(pipe().in(), outsider);
  EXPECT_EQ(pipe().size(), members + 1);
  pipe().push(5);  // compacts: the queue holds every member, then 5
  const std::vector<VertexId> in = pipe().storage().download_in();
  EXPECT_EQ(in.size(), members + 2);
  EXPECT_TRUE(std::find(in.begin(), in.end(), outsider) != in.end());
}

// Regression (review): the outlined loop's set-up took pipe.out() before
// its first host round and paid a choice (a sync, maybe a degree sum) that
// the persistent kernel discards; and a size() between two out() calls of
// one round could change the round's form.
TEST(FrontierForms, AnOutlinedLoopChoosesOnlyInItsHostRounds) {
  IRGL_REQUIRE_GPU();
  const TestRun test_run(FrontierMode::dense);
  const TestGraph test;
  const CsrGraph& host = test.host;
  const Graph& graph = test.graph;
  Pipe pipe(graph, test_run.run);
  pipe.push_all();
  pipe.storage();
  EXPECT_EQ(pipe.out().pushed_bits.words, nullptr);  // the set-up's worklists
  pipe.storage();                                   // the loop starts
  EXPECT_EQ(pipe.size(), host.num_vertices());      // a host round
  const Worklist first = pipe.out();
  EXPECT_NE(first.pushed_bits.words, nullptr);
  EXPECT_EQ(pipe.size(), host.num_vertices());
  EXPECT_EQ(pipe.out().pushed_bits.words, first.pushed_bits.words);
  EXPECT_EQ(pipe.out().bits_only, first.bits_only);
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

// Every block of the kernel answers InputEdgesCheck::reached for the same
// queue; answers[b] is block b's.
__global__ void dense_check_kernel(gpu::InputEdgesCheck check, gpu::SparseQueueView queue,
                                   uint64_t size, uint8_t* answers) {
  const bool reached = check.reached<256>(queue, size);
  if (threadIdx.x == 0) answers[blockIdx.x] = reached;
}

// The persistent kernel's check samples fewer items than the host's
// estimate: exact up to its sample, and above it the mean of evenly spaced
// samples times the size (exact when every item has the same degree); all
// blocks agree.
TEST(InputEdgesCheck, SampledDegreeSumsDecideInEveryBlockAlike) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = irgl::testing::skewed_graph();
  const gpu::DeviceGraph device(host);
  const uint64_t* offsets = device.view().out.offsets;
  constexpr uint64_t kSample = gpu::InputEdgesCheck::samples_per_block<256>();
  constexpr unsigned kBlocks = 7;
  gpu::DeviceBuffer<uint8_t> answers(kBlocks);
  auto degree = [&](VertexId v) { return host.out_offsets[v + 1] - host.out_offsets[v]; };
  uint64_t max_degree = 0;
  for (VertexId v = 0; v < host.num_vertices(); ++v) max_degree = std::max(max_degree, degree(v));
  auto answer = [&](const std::vector<VertexId>& items, uint64_t edges) {
    gpu::SparseQueue queue(items.size());
    queue.assign(items);
    const gpu::InputEdgesCheck check{offsets, max_degree, edges};
    dense_check_kernel<<<kBlocks, 256>>>(check, queue.view(), items.size(), answers.data());
    IRGL_CUDA_CHECK(cudaGetLastError());
    const std::vector<uint8_t> all = answers.download();
    EXPECT_EQ(std::count(all.begin(), all.end(), all.front()), kBlocks);
    return all.front() != 0;
  };

  std::vector<VertexId> few = irgl::testing::random_vertex_set(host.num_vertices(), 0.1, 3);
  few.resize(std::min<uint64_t>(few.size(), kSample));
  uint64_t exact = 0;
  for (VertexId v : few) exact += degree(v);
  EXPECT_TRUE(answer(few, exact));
  EXPECT_FALSE(answer(few, exact + 1));

  const std::vector<VertexId> repeated(3 * kSample + 7, 5);  // vertex 5 is a hub
  const uint64_t sum = repeated.size() * degree(5);
  EXPECT_TRUE(answer(repeated, sum));
  EXPECT_FALSE(answer(repeated, sum + 1));
}

// The estimates a pipe takes with its size read equal the read-back ones
// (the degree sum sampled at the queue's device-side size), and the members
// counted together with their degrees equal the host's count.
TEST(FrontierStats, EstimatesTakenAheadEqualTheReadBackOnes) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = irgl::testing::skewed_graph();
  const gpu::DeviceGraph device(host);
  const uint64_t* offsets = device.view().out.offsets;
  gpu::FrontierStats stats;

  std::vector<VertexId> items = irgl::testing::random_vertex_set(host.num_vertices(), 0.5, 9);
  ASSERT_LT(items.size(), gpu::FrontierStats::kDegreeSamples);
  for (int copies = 0; items.size() < 5 * gpu::FrontierStats::kDegreeSamples; ++copies)
    items.push_back(static_cast<VertexId>((copies * 7919) % host.num_vertices()));
  gpu::SparseQueue queue(items.size());
  for (uint64_t size : {uint64_t{0}, uint64_t{1}, uint64_t{1000},
                        gpu::FrontierStats::kDegreeSamples, uint64_t{items.size()}}) {
    queue.assign(std::vector<VertexId>(items.begin(), items.begin() + size));
    stats.sample_degree_sum(queue.view(), offsets);
    IRGL_CUDA_CHECK(cudaStreamSynchronize(0));
    EXPECT_EQ(stats.sampled_degree_sum(size), stats.degree_sum(queue.view(), size, offsets))
        << size << " items";
  }

  // A bitmap whose last word is partial, with the hubs among its members.
  for (double density : {0.0, 0.01, 0.5, 1.0}) {
    std::vector<VertexId> members =
        irgl::testing::random_vertex_set(host.num_vertices(), density, 11);
    gpu::DenseBitmap bitmap(host.num_vertices());
    bitmap.assign(members);
    uint64_t exact_degrees = 0;
    for (VertexId v : members) exact_degrees += host.out_offsets[v + 1] - host.out_offsets[v];
    const gpu::FrontierStats::MembersAndDegrees counts =
        stats.members_and_degree_sum(bitmap.view(), offsets);
    EXPECT_EQ(counts.members, members.size()) << density;
    EXPECT_EQ(counts.degree_sum, exact_degrees) << density;
    EXPECT_EQ(stats.members(bitmap.view()), members.size()) << density;
    EXPECT_EQ(stats.degree_sum(bitmap.view(), offsets), exact_degrees) << density;
  }
}

}  // namespace
}  // namespace irgl::lang
