// --schedule=auto's choice (auto_pick.h): the rules' first match, the
// graph's shape from CSR offsets, and the picks on the graph families the
// rules were fitted on.

#include "irgl/gpu/schedule/auto_pick.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace irgl::gpu::schedule {
namespace {

GraphShape shape(uint64_t vertices, uint64_t edges, uint64_t max_degree) {
  GraphShape graph;
  graph.vertices = vertices;
  graph.edges = edges;
  graph.max_degree = max_degree;
  return graph;
}

LoopShape loop(LoopPlace place, bool varies = false) { return {place, false, varies}; }

TEST(AutoPick, AnUnknownGraphRunsAlb) {
  for (LoopPlace place : {LoopPlace::all_nodes, LoopPlace::light_round, LoopPlace::heavy_round})
    EXPECT_EQ(auto_pick(GraphShape{}, loop(place)), AutoPick::alb);
}

TEST(AutoPick, TheFirstMatchingRuleWins) {
  constexpr AutoRule rules[] = {
      {place_bit(LoopPlace::light_round), -1, 8, 0, kAnyMean, AutoPick::warp},
      {kAnyPlace, 1, kAnyDegree, 0, kAnyMean, AutoPick::lb},
      {kAnyPlace, -1, kAnyDegree, 2, 10, AutoPick::thread},
  };
  const GraphShape even = shape(100, 400, 8);        // mean 4, max 8
  const GraphShape skewed = shape(100, 4000, 3000);  // mean 40
  EXPECT_EQ(auto_pick(even, loop(LoopPlace::light_round), rules), AutoPick::warp);
  EXPECT_EQ(auto_pick(even, loop(LoopPlace::light_round, true), rules), AutoPick::warp);
  EXPECT_EQ(auto_pick(even, loop(LoopPlace::heavy_round, true), rules), AutoPick::lb);
  EXPECT_EQ(auto_pick(even, loop(LoopPlace::all_nodes), rules), AutoPick::thread);
  EXPECT_EQ(auto_pick(skewed, loop(LoopPlace::light_round), rules), AutoPick::alb);  // no match
}

TEST(AutoPick, TheRulesEndWithACatchAll) {
  const AutoRule& last = kAutoRules[sizeof(kAutoRules) / sizeof(kAutoRules[0]) - 1];
  EXPECT_EQ(last.places, kAnyPlace);
  EXPECT_EQ(last.edge_work_varies, -1);
  EXPECT_EQ(last.max_degree_at_most, kAnyDegree);
  EXPECT_EQ(last.mean_at_least, 0);
  EXPECT_EQ(last.mean_at_most, kAnyMean);
}

// The rules on the families they were fitted on (auto_pick.h): shapes of
// luxembourg_osm, bcsstk16, cnr-2000 and tc's view of a road graph.
TEST(AutoPick, FittedFamilies) {
  const GraphShape road = shape(114599, 239332, 6);
  const GraphShape matrix = shape(4884, 290378, 81);
  const GraphShape web = shape(325557, 3216152, 2716);
  const LoopShape accumulating{LoopPlace::all_nodes, true, false};
  EXPECT_EQ(auto_pick(road, loop(LoopPlace::light_round)), AutoPick::warp);
  EXPECT_EQ(auto_pick(road, loop(LoopPlace::heavy_round)), AutoPick::warp);
  EXPECT_EQ(auto_pick(road, accumulating), AutoPick::thread);
  EXPECT_EQ(auto_pick(road, loop(LoopPlace::all_nodes, true)), AutoPick::thread);
  EXPECT_EQ(auto_pick(matrix, loop(LoopPlace::light_round)), AutoPick::block);
  EXPECT_EQ(auto_pick(matrix, accumulating), AutoPick::warp);
  EXPECT_EQ(auto_pick(matrix, loop(LoopPlace::all_nodes, true)), AutoPick::warp);
  EXPECT_EQ(auto_pick(web, loop(LoopPlace::light_round)), AutoPick::merge_path);
  EXPECT_EQ(auto_pick(web, loop(LoopPlace::heavy_round)), AutoPick::merge_path);
  EXPECT_EQ(auto_pick(web, loop(LoopPlace::all_nodes)), AutoPick::alb);
  EXPECT_EQ(auto_pick(web, accumulating), AutoPick::alb);
  EXPECT_EQ(auto_pick(web, loop(LoopPlace::all_nodes, true)), AutoPick::lb);
}

// Hubs beyond a few thousand edges (RMAT 16: mean 16, max 13,130; RMAT
// 22: max 160,111) keep ALB, and so do sparse graphs with hubs; musae's
// shape (mean 7.7, max 6,809) merges its rounds.
TEST(AutoPick, LargeHubsKeepAlb) {
  const GraphShape rmat16 = shape(65536, 1048576, 13130);
  const GraphShape rmat22 = shape(4194304, 67108864, 160111);
  const GraphShape sparse = shape(100000, 500000, 3000);  // mean 5
  EXPECT_EQ(auto_pick(shape(37700, 289003, 6809), loop(LoopPlace::light_round)),
            AutoPick::merge_path);
  for (const GraphShape& graph : {rmat16, rmat22, sparse})
    for (LoopPlace place : {LoopPlace::all_nodes, LoopPlace::light_round, LoopPlace::heavy_round})
      EXPECT_EQ(auto_pick(graph, loop(place)), AutoPick::alb);
}

RoundLines warp_line(uint64_t items) {
  RoundLines lines;
  lines.warp_items = items;
  return lines;
}

// A launch's pick: warp's rounds above the line (or of unknown size) run
// TWC; loops over every vertex keep warp; other picks are the rules'.
TEST(AutoPick, WarpHandsLargeRoundsToTwc) {
  const GraphShape mesh = shape(100000, 1000000, 20);  // warp's family: mean 10, max 20
  const RoundLines lines = warp_line(100);
  LoopShape round = loop(LoopPlace::light_round);
  round.items = 100;
  EXPECT_EQ(launch_pick(mesh, round, lines), AutoPick::warp);
  round.items = 101;
  EXPECT_EQ(launch_pick(mesh, round, lines), AutoPick::twc);
  EXPECT_EQ(launch_pick(mesh, loop(LoopPlace::heavy_round), lines), AutoPick::twc);  // unknown size
  LoopShape all = loop(LoopPlace::all_nodes);
  all.items = 1000000;
  EXPECT_EQ(launch_pick(mesh, all, lines), AutoPick::warp);
  const GraphShape web = shape(100000, 1000000, 20000);  // hubs: ALB at any size
  EXPECT_EQ(launch_pick(web, round, lines), AutoPick::alb);
}

// Block's rounds above its line run a warp per vertex, however large (a
// warp's rows of dozens of edges leave few lanes idle, TWC's bins do not
// pay); passes over all vertices keep block.
TEST(AutoPick, BlockHandsLargeRoundsToWarp) {
  const GraphShape fem = shape(4884, 290378, 81);  // bcsstk16: block's family, mean 59
  RoundLines lines;
  lines.warp_items = 100;
  lines.block_items = 10;
  LoopShape round = loop(LoopPlace::light_round);
  round.items = 10;
  EXPECT_EQ(launch_pick(fem, round, lines), AutoPick::block);
  round.items = 11;
  EXPECT_EQ(launch_pick(fem, round, lines), AutoPick::warp);
  round.items = 1000;  // above warp's line too
  EXPECT_EQ(launch_pick(fem, round, lines), AutoPick::warp);
  EXPECT_EQ(launch_pick(fem, loop(LoopPlace::heavy_round), lines), AutoPick::warp);  // unknown size
  LoopShape all = loop(LoopPlace::all_nodes);
  all.items = 4884;
  EXPECT_EQ(launch_pick(fem, all, lines), auto_pick(fem, all));
  EXPECT_NE(auto_pick(fem, all), AutoPick::block);  // the rules' warp over all vertices
}

// A tuning's own rules replace kAutoRules (Auto<B, Tuning>).
TEST(AutoPick, ATuningBringsItsOwnRules) {
  constexpr AutoRule kAlwaysWarp[] = {{kAnyPlace, -1, kAnyDegree, 0, kAnyMean, AutoPick::warp}};
  const GraphShape web = shape(100000, 1000000, 20000);  // kAutoRules: ALB
  LoopShape round = loop(LoopPlace::light_round);
  round.items = 10;
  EXPECT_EQ(launch_pick(web, round, warp_line(100)), AutoPick::alb);
  EXPECT_EQ(launch_pick(web, round, warp_line(100), kAlwaysWarp), AutoPick::warp);
  round.items = 1000;
  EXPECT_EQ(launch_pick(web, round, warp_line(100), kAlwaysWarp), AutoPick::twc);
  EXPECT_EQ(&AutoTuning::kRules[0], &kAutoRules[0]);
}

struct WarpFromFour : AutoTuning {
  static constexpr double kOneBlockWarpMeanDegree = 4.0;
};

// A pipe loop's rounds on one block: a warp per vertex from the tuning's
// mean degree on, a thread per item below it and on an unknown graph.
TEST(AutoPick, OneBlockRoundsTakeWarpFromTheTuningsMeanDegree) {
  EXPECT_EQ(one_block_round_pick<AutoTuning>(shape(1000, 2500, 5)), AutoPick::thread);  // road
  EXPECT_EQ(one_block_round_pick<AutoTuning>(shape(1590, 8521, 14)), AutoPick::thread);  // monaco, cc
  EXPECT_EQ(one_block_round_pick<AutoTuning>(shape(100, 599, 25)), AutoPick::thread);
  EXPECT_EQ(one_block_round_pick<AutoTuning>(shape(100, 600, 25)), AutoPick::warp);
  EXPECT_EQ(one_block_round_pick<AutoTuning>(GraphShape{}), AutoPick::thread);
  EXPECT_EQ(one_block_round_pick<WarpFromFour>(shape(100, 450, 25)), AutoPick::warp);
}

TEST(AutoPick, ShapeOfDegrees) {
  // Degrees 0, 2, 4, 2: mean 2, deviation sqrt(2), max 4.
  const std::vector<uint64_t> offsets = {10, 10, 12, 16, 18};
  const GraphShape graph = shape_of_degrees(offsets.data(), 4);
  EXPECT_EQ(graph.vertices, 4u);
  EXPECT_EQ(graph.edges, 8u);
  EXPECT_EQ(graph.max_degree, 4u);
  EXPECT_DOUBLE_EQ(graph.mean(), 2.0);
  EXPECT_NEAR(graph.deviation, std::sqrt(2.0), 1e-12);
  EXPECT_FALSE(shape_of_degrees(nullptr, 4).known());
  EXPECT_FALSE(shape_of_degrees(offsets.data(), 0).known());
}

// The run summary's line: sites in the order of their first launch, picks
// in AutoPick's order, persistent kernels apart from launches.
TEST(AutoLog, SummarizesThePicksPerSite) {
  AutoLog log;
  EXPECT_TRUE(log.empty());
  EXPECT_EQ(log.summary(), "");
  log.record_launch("relax", AutoPick::twc);
  log.record_launch("seed", AutoPick::thread);
  log.record_launch("relax", AutoPick::warp);
  log.record_launch("relax", AutoPick::twc);
  log.record_persistent("relax", AutoPick::warp);
  EXPECT_EQ(log.summary(),
            "schedule auto: relax 1 warp, 2 twc; seed 1 thread; relax in a persistent kernel 1 warp");
  log.clear();
  EXPECT_TRUE(log.empty());
}

TEST(AutoPick, Names) {
  EXPECT_STREQ(to_string(AutoPick::merge_path), "merge-path");
  EXPECT_STREQ(to_string(AutoPick::alb), "alb");
  EXPECT_STREQ(to_string(AutoPick::thread), "thread");
}

}  // namespace
}  // namespace irgl::gpu::schedule
