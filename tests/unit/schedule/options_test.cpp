// The run options of a launch (options.h): where ALB's parameters resolve,
// from what irglc compiled into the launch site and what the run overrides.

#include "irgl/gpu/schedule/options.h"

#include <gtest/gtest.h>

namespace irgl::gpu::schedule {
namespace {

TEST(RunOptions, TheDefaultThresholdIsTheThreadsLaunchedCappedWithoutAccumulators) {
  const RunOptions options;
  EXPECT_EQ(alb_threshold_of(options, 5000, false), 5000u);
  EXPECT_EQ(alb_threshold_of(options, 1u << 20, false), AlbTuning::kThresholdCap);
  EXPECT_EQ(alb_threshold_of(options, 1u << 20, true), 1u << 20);
}

TEST(RunOptions, TheRunOverridesWhatTheLaunchSiteWasCompiledWith) {
  RunOptions options;
  options.alb_threshold = 64;
  options.alb_distribution = Distribution::blocked;
  EXPECT_EQ(alb_threshold_of(options, 5000, false), 64u);
  EXPECT_EQ(alb_distribution_of(options), Distribution::blocked);
  EXPECT_EQ(alb_row_tiles_of(options), RowTiles::automatic);
  options.alb_overrides.threshold = 1000;
  options.alb_overrides.distribution = Distribution::cyclic;
  options.alb_overrides.row_tiles = RowTiles::off;
  EXPECT_EQ(alb_threshold_of(options, 5000, false), 1000u);
  EXPECT_EQ(alb_distribution_of(options), Distribution::cyclic);
  EXPECT_EQ(alb_row_tiles_of(options), RowTiles::off);
}

// Regression: a run's --alb-threshold used to replace the 0 irglc gives
// loops whose per-edge work varies, silently undoing that choice.
TEST(RunOptions, AThresholdTheCompilerFixedIsKept) {
  RunOptions options;
  options.alb_threshold = 0;
  options.alb_threshold_fixed = true;
  options.alb_overrides.threshold = 1000;
  EXPECT_EQ(alb_threshold_of(options, 5000, true), 0u);
}

TEST(RunOptions, OutlineModesParseByName) {
  for (OutlineMode mode :
       {OutlineMode::automatic, OutlineMode::persistent, OutlineMode::graph, OutlineMode::off}) {
    OutlineMode parsed = mode == OutlineMode::off ? OutlineMode::automatic : OutlineMode::off;
    ASSERT_TRUE(parse_outline_mode(to_string(mode), parsed));
    EXPECT_EQ(parsed, mode);
  }
  OutlineMode untouched = OutlineMode::graph;
  EXPECT_FALSE(parse_outline_mode("on", untouched));
  EXPECT_EQ(untouched, OutlineMode::graph);
}

}  // namespace
}  // namespace irgl::gpu::schedule
