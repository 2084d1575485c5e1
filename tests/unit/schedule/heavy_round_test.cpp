// The line between light and heavy worklist rounds (heavy_round.h): more
// items than a floor per SM (raised on sparse graphs to the edge line by
// the mean degree), and enough edges.

#include "irgl/gpu/schedule/heavy_round.h"

#include <gtest/gtest.h>

namespace irgl::gpu::schedule {
namespace {

constexpr unsigned kSms = 132;  // an H100

GraphShape shape(uint64_t vertices, uint64_t edges) {
  GraphShape graph;
  graph.vertices = vertices;
  graph.edges = edges;
  return graph;
}

TEST(HeavyRound, AnUnknownGraphHasTheFloor) {
  const HeavyRoundLine line = heavy_round_line(GraphShape{}, kSms);
  EXPECT_EQ(line.items, kHeavyRoundItemsPerSm * kSms);
  EXPECT_EQ(line.edges, kHeavyRoundEdgesPerSm * kSms);
  EXPECT_EQ(heavy_round_line(shape(10, 0), kSms).items, kHeavyRoundItemsPerSm * kSms);
}

TEST(HeavyRound, ASparseGraphRaisesTheItemsToTheEdgeLine) {
  // Mean degree 4: the items whose edges reach the edge line.
  const HeavyRoundLine line = heavy_round_line(shape(1000000, 4000000), kSms);
  EXPECT_EQ(line.items, kHeavyRoundEdgesPerSm * kSms / 4);
  EXPECT_GT(line.items, kHeavyRoundItemsPerSm * kSms);
  EXPECT_EQ(line.edges, kHeavyRoundEdgesPerSm * kSms);
}

TEST(HeavyRound, ADenseGraphKeepsTheFloor) {
  // Mean degree 64: the edge line's items are under the floor.
  EXPECT_EQ(heavy_round_line(shape(1000, 64000), kSms).items, kHeavyRoundItemsPerSm * kSms);
}

TEST(HeavyRound, TheEdgesCanBeOverridden) {
  const GraphShape grid = shape(1000000, 4000000);
  const HeavyRoundLine line = heavy_round_line(grid, kSms, 40000000);
  EXPECT_EQ(line.items, 10000000u);
  EXPECT_EQ(line.edges, 40000000u);
  // An override below the floor's edges leaves the floor.
  EXPECT_EQ(heavy_round_line(grid, kSms, 1).items, kHeavyRoundItemsPerSm * kSms);
}

TEST(HeavyRound, TheLineScalesWithTheSms) {
  const GraphShape grid = shape(1000000, 4000000);
  EXPECT_EQ(heavy_round_line(grid, 2 * kSms).items, 2 * heavy_round_line(grid, kSms).items);
  EXPECT_EQ(heavy_round_line(grid, 2 * kSms).edges, 2 * heavy_round_line(grid, kSms).edges);
}

}  // namespace
}  // namespace irgl::gpu::schedule
