// SharedPlacement's sizing pass (gpu/schedule/shared_placement.cuh), as the
// host runs it to decide whether a small graph's loop fits on one block:
// aligned sizes, one copy per array however often it is named, the array
// limit, and the largest degree of the graphs placed (outline.cuh keeps a
// loop with a vertex of more than OneBlockLoops::kMaxDegree edges on the
// grid). Plain C++, no GPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "irgl/gpu/schedule/shared_placement.cuh"
#include "irgl/lang/common.h"

namespace irgl::gpu::schedule {
namespace {

using irgl::lang::AdjacencyView;
using irgl::lang::Graph;
using irgl::lang::Node;

TEST(SharedPlacement, SizesEachArrayOnceAligned) {
  std::vector<uint32_t> dist(10), level(3);
  SharedPlacement plan;
  EXPECT_EQ(plan.read_write(dist.data(), dist.size()), dist.data());  // sizing: the array itself
  EXPECT_EQ(plan.read_only(dist.data(), dist.size()), dist.data());   // named again: no new copy
  plan.read_only(level.data(), level.size());
  EXPECT_EQ(plan.bytes(), SharedPlacement::aligned(40) + SharedPlacement::aligned(12));
  EXPECT_EQ(plan.bytes(), 48u + 16u);
  EXPECT_EQ(plan.read_only<uint32_t>(nullptr, 5), nullptr);  // absent arrays take nothing
  EXPECT_EQ(plan.bytes(), 64u);
  EXPECT_FALSE(plan.overflowed());
}

TEST(SharedPlacement, MoreArraysThanItHoldsOverflow) {
  std::vector<std::vector<uint32_t>> arrays(SharedPlacement::kMaxArrays + 1, std::vector<uint32_t>(4));
  SharedPlacement plan;
  for (unsigned i = 0; i < SharedPlacement::kMaxArrays; ++i) plan.read_only(arrays[i].data(), 4);
  EXPECT_FALSE(plan.overflowed());
  plan.read_only(arrays.back().data(), 4);
  EXPECT_TRUE(plan.overflowed());
}

TEST(SharedPlacement, LearnsTheLargestDegreeOfThePlacedGraphs) {
  const std::vector<uint64_t> offsets = {0, 2, 3, 3};
  const std::vector<Node> neighbors = {1, 2, 0};
  Graph g(3, 3, AdjacencyView{offsets.data(), neighbors.data(), nullptr}, AdjacencyView{});
  SharedPlacement plan;
  EXPECT_EQ(plan.largest_degree(), 0u);  // none known
  g.set_max_degrees(2, 40);              // the in-degree counts too
  const Graph placed = g.placed(plan);
  EXPECT_EQ(plan.largest_degree(), 40u);
  EXPECT_EQ(placed.out().offsets, offsets.data());
  EXPECT_EQ(plan.bytes(), SharedPlacement::aligned(4 * 8) + SharedPlacement::aligned(3 * 4));
  Graph small = g;
  small.set_max_degrees(3, 1);
  small.placed(plan);
  EXPECT_EQ(plan.largest_degree(), 40u);  // the largest of all
}

}  // namespace
}  // namespace irgl::gpu::schedule
