// --schedule=auto's choice (auto_pick.h): the rules' first match, the
// graph's shape from CSR offsets, and the picks on the graph families the
// rules were fitted on.

#include "irgl/gpu/schedule/auto_pick.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace irgl::gpu::schedule {
namespace {

// A graph's shape; `hub_share`: the share of its edges on its top 1%.
GraphShape shape(uint64_t vertices, uint64_t edges, uint64_t max_degree, double hub_share = 1) {
  GraphShape graph;
  graph.vertices = vertices;
  graph.edges = edges;
  graph.max_degree = max_degree;
  graph.hub_share = hub_share;
  return graph;
}

LoopShape loop(LoopPlace place, bool varies = false) { return {place, false, varies}; }

TEST(AutoPick, AnUnknownGraphRunsAlb) {
  for (LoopPlace place : {LoopPlace::all_nodes, LoopPlace::light_round, LoopPlace::heavy_round})
    EXPECT_EQ(auto_pick(GraphShape{}, loop(place)), AutoPick::alb);
}

TEST(AutoPick, TheFirstMatchingRuleWins) {
  constexpr AutoRule rules[] = {
      {place_bit(LoopPlace::light_round), -1, 8, 0, kAnyMean, kAnyShare, AutoPick::warp},
      {kAnyPlace, 1, kAnyDegree, 0, kAnyMean, kAnyShare, AutoPick::lb},
      {kAnyPlace, -1, kAnyDegree, 2, 10, kAnyShare, AutoPick::thread},
      {kAnyPlace, -1, kAnyDegree, 0, kAnyMean, 0.5, AutoPick::block},
  };
  const GraphShape even = shape(100, 400, 8);        // mean 4, max 8
  GraphShape skewed = shape(100, 4000, 3000);  // mean 40
  EXPECT_EQ(auto_pick(even, loop(LoopPlace::light_round), rules), AutoPick::warp);
  EXPECT_EQ(auto_pick(even, loop(LoopPlace::light_round, true), rules), AutoPick::warp);
  EXPECT_EQ(auto_pick(even, loop(LoopPlace::heavy_round, true), rules), AutoPick::lb);
  EXPECT_EQ(auto_pick(even, loop(LoopPlace::all_nodes), rules), AutoPick::thread);
  EXPECT_EQ(auto_pick(skewed, loop(LoopPlace::light_round), rules), AutoPick::alb);  // no match
  skewed.hub_share = 0.5;
  EXPECT_EQ(auto_pick(skewed, loop(LoopPlace::light_round), rules), AutoPick::block);
}

TEST(AutoPick, TheRulesEndWithACatchAll) {
  const AutoRule& last = kAutoRules[sizeof(kAutoRules) / sizeof(kAutoRules[0]) - 1];
  EXPECT_EQ(last.places, kAnyPlace);
  EXPECT_EQ(last.edge_work_varies, -1);
  EXPECT_EQ(last.max_degree_at_most, kAnyDegree);
  EXPECT_EQ(last.mean_at_least, 0);
  EXPECT_EQ(last.mean_at_most, kAnyMean);
  EXPECT_EQ(last.hub_share_at_most, kAnyShare);
}

// The rules on the families they were fitted on (auto_pick.h): shapes of
// luxembourg_osm, bcsstk16, cnr-2000 and tc's view of a road graph.
TEST(AutoPick, FittedFamilies) {
  const GraphShape road = shape(114599, 239332, 6);
  const GraphShape matrix = shape(4884, 290378, 81);
  const GraphShape web = shape(325557, 3216152, 2716, 0.10);
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

// Graphs whose top 1% of vertices hold much of the edges (RMAT 16: 0.43,
// 0.37 as a simple graph; RMAT 22: 0.58) keep ALB, and so do sparse graphs
// with hubs; the web
// graphs' rounds merge their edges at any largest degree: musae (mean
// 7.7, max 6,809, 0.27) and the symmetrized uk-2007 (mean 60.9, max
// 55,372, 0.32), but not the share of an unmeasured graph.
TEST(AutoPick, GraphsWhoseHubsHoldMuchOfTheEdgesKeepAlb) {
  const GraphShape rmat16 = shape(65536, 1048576, 13130, 0.43);
  const GraphShape simple_rmat16 = shape(65536, 1817884, 9615, 0.37);
  const GraphShape rmat22 = shape(4194304, 67108864, 160111, 0.58);
  const GraphShape sparse = shape(100000, 500000, 3000, 0.1);  // mean 5
  const GraphShape unmeasured = shape(37700, 289003, 6809);
  for (const GraphShape& graph : {rmat16, simple_rmat16, rmat22, sparse, unmeasured})
    for (LoopPlace place : {LoopPlace::all_nodes, LoopPlace::light_round, LoopPlace::heavy_round})
      EXPECT_EQ(auto_pick(graph, loop(place)), AutoPick::alb);
  for (LoopPlace place : {LoopPlace::light_round, LoopPlace::heavy_round}) {
    EXPECT_EQ(auto_pick(shape(37700, 289003, 6809, 0.27), loop(place)), AutoPick::merge_path);
    EXPECT_EQ(auto_pick(shape(100000, 6086054, 55372, 0.32), loop(place)), AutoPick::merge_path);
  }
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

// Merge-path's rounds of at most its line run TWC, larger ones and those
// of unknown size merge their edges; passes over all vertices keep the
// rules' pick.
TEST(AutoPick, MergePathHandsSmallRoundsToTwc) {
  const GraphShape web = shape(325557, 3216152, 2716, 0.10);  // cnr-2000
  RoundLines lines;
  lines.merge_path_twc_items = 100;
  LoopShape round = loop(LoopPlace::light_round);
  round.items = 100;
  EXPECT_EQ(launch_pick(web, round, lines), AutoPick::twc);
  round.items = 101;
  EXPECT_EQ(launch_pick(web, round, lines), AutoPick::merge_path);
  EXPECT_EQ(launch_pick(web, loop(LoopPlace::heavy_round), lines), AutoPick::merge_path);
  LoopShape all = loop(LoopPlace::all_nodes);
  all.items = 10;
  EXPECT_EQ(launch_pick(web, all, lines), auto_pick(web, all));
}

// The hand-overs of round_pick, which a persistent kernel's rounds take as
// the host's launches do: each only to a step hands_rounds_to lets its
// kernel compile in, and a thread's only on one block.
TEST(AutoPick, RoundPickHandsOnlyToTheStepsItsKernelHas) {
  RoundLines lines;
  lines.warp_items = 100;
  lines.block_items = 100;
  lines.merge_path_twc_items = 100;
  lines.one_block_warp_items = 100;
  for (uint64_t items : {uint64_t{1}, uint64_t{100}, uint64_t{101}, ~uint64_t{0}})
    for (bool one_block : {false, true})
      for (unsigned p = 0; p < kAutoPicks; ++p) {
        const AutoPick from = AutoPick(p), to = round_pick(from, items, lines, one_block);
        EXPECT_TRUE(to == from || hands_rounds_to(from, to)) << to_string(from) << " " << items;
      }
  EXPECT_EQ(round_pick(AutoPick::thread, 100, lines, true), AutoPick::warp);
  EXPECT_EQ(round_pick(AutoPick::thread, 101, lines, true), AutoPick::thread);
  EXPECT_EQ(round_pick(AutoPick::thread, 100, lines, false), AutoPick::thread);
  EXPECT_EQ(round_pick(AutoPick::alb, 1, lines, true), AutoPick::alb);
  static_assert(round_pick(AutoPick::merge_path, 1, RoundLines{}, false) == AutoPick::merge_path,
                "no line: merge-path keeps its rounds");
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
  constexpr AutoRule kAlwaysWarp[] = {
      {kAnyPlace, -1, kAnyDegree, 0, kAnyMean, kAnyShare, AutoPick::warp}};
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
  EXPECT_DOUBLE_EQ(graph.hub_share, 0.5);  // the top 1%: one vertex, 4 of 8 edges
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
