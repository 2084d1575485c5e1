// The per-round frontier choice of pipes (irgl/gpu/worklist/frontier_policy.h):
// the rules, the mode names, and the log's summary and JSON.
#include "irgl/gpu/worklist/frontier_policy.h"

#include <gtest/gtest.h>

namespace irgl::gpu {
namespace {

constexpr uint64_t kVertices = 1 << 22;
constexpr uint64_t kEdges = 16 * kVertices;  // average degree 16

// The inputs of a round of `items` items on that graph, max degree 1000.
FrontierInputs round_of(uint64_t items, std::optional<uint64_t> degree_sum = std::nullopt,
                        uint64_t max_degree = 1000) {
  return {kVertices, kEdges, max_degree, items, degree_sum};
}

TEST(FrontierPolicy, ModesParseAndPrint) {
  for (const char* name : {"auto", "sparse", "unique", "dense", "sweep"}) {
    const std::optional<FrontierMode> mode = parse_frontier_mode(name);
    ASSERT_TRUE(mode.has_value()) << name;
    EXPECT_STREQ(frontier_mode_name(*mode), name);
  }
  EXPECT_FALSE(parse_frontier_mode("bitmap").has_value());
  EXPECT_FALSE(parse_frontier_mode("").has_value());
  EXPECT_FALSE(parse_frontier_mode("Auto").has_value());
}

TEST(FrontierPolicy, FixedModesTakeTheirFormWithoutStatistics) {
  for (FrontierMode mode :
       {FrontierMode::sparse, FrontierMode::unique, FrontierMode::dense, FrontierMode::sweep}) {
    EXPECT_FALSE(FrontierPolicy::needs_degree_sum(mode, round_of(kVertices)));
    const FrontierForm form = FrontierPolicy::output_form(mode, round_of(1));
    EXPECT_STREQ(frontier_form_name(form), frontier_mode_name(mode));
  }
}

// |V| + 32 |V| / average degree, at least 2^20: duplicates of cheap vertices
// (low average degree) must be many before a bitmap pays.
TEST(FrontierPolicy, TheDenseBoundFollowsTheAverageDegree) {
  EXPECT_EQ(FrontierPolicy::dense_edges(kVertices, kEdges), 3 * kVertices);
  EXPECT_EQ(FrontierPolicy::dense_edges(kVertices, 4 * kVertices), 9 * kVertices);  // a grid
  EXPECT_EQ(FrontierPolicy::dense_edges(1000, 16000), FrontierPolicy::kDenseMinEdges);
  EXPECT_EQ(FrontierPolicy::dense_edges(kVertices, 0), ~uint64_t{0});
  EXPECT_EQ(FrontierPolicy::dense_edges(uint64_t{1} << 34, 1), ~uint64_t{0});  // no overflow
}

// The free test the host's policy and the device's InputEdgesCheck share.
TEST(FrontierPolicy, MayHoldEdgesIsItemsTimesMaxDegreeWithoutOverflow) {
  EXPECT_TRUE(may_hold_edges(10, 10, 100));
  EXPECT_FALSE(may_hold_edges(9, 10, 100));
  EXPECT_TRUE(may_hold_edges(10, 10, 91));
  EXPECT_FALSE(may_hold_edges(9, 10, 91));
  EXPECT_TRUE(may_hold_edges(0, 1, 0));
  EXPECT_TRUE(may_hold_edges(uint64_t{1} << 40, uint64_t{1} << 40, ~uint64_t{0}));
  EXPECT_FALSE(may_hold_edges(1, uint64_t{1} << 40, ~uint64_t{0}));
}

// The degree sum is read only when items x max degree could reach the bound.
TEST(FrontierPolicy, TheDegreeIsComputedOnlyWhenDenseIsPossible) {
  const uint64_t bound = FrontierPolicy::dense_edges(kVertices, kEdges);
  const auto needs = [](uint64_t items, uint64_t max_degree) {
    return FrontierPolicy::needs_degree_sum(FrontierMode::automatic,
                                            round_of(items, std::nullopt, max_degree));
  };
  const uint64_t enough = (bound + 999) / 1000;  // items x 1000 >= bound
  EXPECT_TRUE(needs(enough, 1000));
  EXPECT_FALSE(needs(enough - 1, 1000));
  EXPECT_TRUE(needs(1, bound));
  EXPECT_FALSE(needs(0, bound));
  EXPECT_FALSE(needs(kVertices, 0));  // degree unknown: stay sparse
  EXPECT_TRUE(needs(uint64_t{1} << 40, uint64_t{1} << 40));  // no overflow
  EXPECT_EQ(FrontierPolicy::output_form(FrontierMode::automatic, round_of(bound / 8)),
            FrontierForm::sparse);
}

// Without hubs (a grid, a road network, a uniform random graph) a duplicate
// costs a few edges: always sparse, and no degree sum is read.
TEST(FrontierPolicy, GraphsWithoutHubsStaySparse) {
  const uint64_t average = kEdges / kVertices;
  EXPECT_TRUE(FrontierPolicy::has_hubs(round_of(1, std::nullopt, 8 * average)));
  EXPECT_FALSE(FrontierPolicy::has_hubs(round_of(1, std::nullopt, 8 * average - 1)));
  const FrontierInputs grid{kVertices, 4 * kVertices, 4, 3 * kVertices, 12 * kVertices};
  EXPECT_FALSE(FrontierPolicy::needs_degree_sum(FrontierMode::automatic, grid));
  EXPECT_FALSE(FrontierPolicy::may_need_degree_sum(FrontierMode::automatic, grid));
  EXPECT_EQ(FrontierPolicy::output_form(FrontierMode::automatic, grid), FrontierForm::sparse);
}

// The pipe estimates a degree sum ahead only where some round may need one.
TEST(FrontierPolicy, DegreeSumsAreEstimatedAheadOnlyInAutomaticModeWithHubs) {
  const FrontierInputs hubs = round_of(0, std::nullopt, kVertices);
  EXPECT_TRUE(FrontierPolicy::may_need_degree_sum(FrontierMode::automatic, hubs));
  for (FrontierMode fixed : {FrontierMode::sparse, FrontierMode::unique, FrontierMode::dense,
                             FrontierMode::sweep})
    EXPECT_FALSE(FrontierPolicy::may_need_degree_sum(fixed, hubs));
  EXPECT_FALSE(FrontierPolicy::may_need_degree_sum(FrontierMode::automatic,
                                                   round_of(0, std::nullopt, 0)));
}

// A persistent kernel leaves to the host the rounds whose output auto may
// make a bitmap, and no others (its own outputs are queues).
TEST(FrontierPolicy, PersistentKernelsLeaveBitmapRoundsToTheHostInAutomaticMode) {
  const FrontierInputs hubs = round_of(0, std::nullopt, kVertices);
  EXPECT_EQ(FrontierPolicy::host_round_edges(FrontierMode::automatic, hubs),
            FrontierPolicy::dense_edges(kVertices, kEdges));
  for (FrontierMode fixed : {FrontierMode::sparse, FrontierMode::unique, FrontierMode::dense,
                             FrontierMode::sweep})
    EXPECT_EQ(FrontierPolicy::host_round_edges(fixed, hubs), 0u);
  const FrontierInputs grid{kVertices, 4 * kVertices, 4, 0, std::nullopt};
  EXPECT_EQ(FrontierPolicy::host_round_edges(FrontierMode::automatic, grid), 0u);
}

TEST(FrontierPolicy, AutomaticGoesDenseFromTheDegreeSum) {
  const uint64_t bound = FrontierPolicy::dense_edges(kVertices, kEdges);
  EXPECT_EQ(FrontierPolicy::output_form(FrontierMode::automatic, round_of(10, bound - 1)),
            FrontierForm::sparse);
  EXPECT_EQ(FrontierPolicy::output_form(FrontierMode::automatic, round_of(10, bound)),
            FrontierForm::dense);
  // A small graph still needs kDenseMinEdges edges in the round.
  const FrontierInputs small{16, 64, 8, 16, FrontierPolicy::kDenseMinEdges - 1};
  EXPECT_EQ(FrontierPolicy::output_form(FrontierMode::automatic, small), FrontierForm::sparse);
}

TEST(FrontierPolicy, SweepOnlyWhereTheNextReaderTakesABitmap) {
  const uint64_t enough = kVertices / FrontierPolicy::kSweepDivisor;
  EXPECT_TRUE(FrontierPolicy::sweep_input(FrontierMode::automatic, kVertices, enough, false));
  EXPECT_FALSE(FrontierPolicy::sweep_input(FrontierMode::automatic, kVertices, enough - 1, false));
  EXPECT_FALSE(FrontierPolicy::sweep_input(FrontierMode::automatic, kVertices, enough, true));
  EXPECT_TRUE(FrontierPolicy::sweep_input(FrontierMode::sweep, kVertices, 0, false));
  EXPECT_FALSE(FrontierPolicy::sweep_input(FrontierMode::sweep, kVertices, kVertices, true));
  EXPECT_FALSE(FrontierPolicy::sweep_input(FrontierMode::dense, kVertices, kVertices, false));
  // Only sweep and auto ever read the member count, and never for a queue.
  EXPECT_TRUE(FrontierPolicy::may_sweep(FrontierMode::automatic, false));
  EXPECT_TRUE(FrontierPolicy::may_sweep(FrontierMode::sweep, false));
  EXPECT_FALSE(FrontierPolicy::may_sweep(FrontierMode::sweep, true));
  EXPECT_FALSE(FrontierPolicy::may_sweep(FrontierMode::dense, false));
  EXPECT_TRUE(bitmap_only(FrontierForm::dense));
  EXPECT_TRUE(bitmap_only(FrontierForm::sweep));
  EXPECT_FALSE(bitmap_only(FrontierForm::unique));
  EXPECT_FALSE(bitmap_only(FrontierForm::sparse));
}

TEST(FrontierLog, SummaryAndJson) {
  FrontierLog log;
  log.rounds.push_back({0, 1, std::nullopt, FrontierForm::sparse, std::nullopt, false});
  log.rounds.push_back({1, 70000, 900000, FrontierForm::dense, 600000, true});
  log.device_rounds = 12;
  EXPECT_EQ(log.summary(FrontierMode::automatic),
            "frontier: auto, host rounds 1 sparse, 0 unique, 1 dense, 0 sweep (1 read by a "
            "sweep), 12 rounds in the persistent kernel (sparse); 70001 items in the host rounds");
  EXPECT_EQ(log.json(),
            "[\n  {\"round\":0,\"items\":1,\"degree_sum\":null,\"output\":\"sparse\","
            "\"members\":null,\"swept_next\":false},\n  {\"round\":1,\"items\":70000,"
            "\"degree_sum\":900000,\"output\":\"dense\",\"members\":600000,\"swept_next\":"
            "true}\n]");
  log.clear();
  EXPECT_EQ(log.json(), "[]");
  EXPECT_EQ(log.summary(FrontierMode::dense),
            "frontier: dense, host rounds 0 sparse, 0 unique, 0 dense, 0 sweep (0 read by a "
            "sweep), 0 rounds in the persistent kernel (sparse); 0 items in the host rounds");
}

}  // namespace
}  // namespace irgl::gpu
