// Thread-mapped and group-mapped (warp, block, group:N) schedules, simulated
// over every degree mix: each edge exactly once by the thread the schedule
// assigns, post() once after all of a vertex's edges.
#include <gtest/gtest.h>

#include <tuple>

#include "expectations.h"
#include "simulate.h"

namespace irgl::gpu::schedule::sim {
namespace {

// Grids smaller than the frontiers (threads take several items) and larger
// (some threads or groups take none).
const Grid kGrids[] = {{1, 64}, {3, 128}, {40, 256}};

class ThreadMapped : public ::testing::TestWithParam<Grid> {};

TEST_P(ThreadMapped, EveryEdgeOnceByTheItemsThread) {
  const Grid grid = GetParam();
  for (const Workload& work : standard_mixes(grid.block_threads, grid.threads())) {
    SCOPED_TRACE(work.name);
    Ledger ledger(work);
    thread_mapped_kernel(grid, ledger);
    Expectations expect;
    expect.path = [](VertexId, uint64_t) { return LoadPath::thread; };
    expect.thread_ok = [&](const EdgeRun& run) { return run.thread == run.item % grid.threads(); };
    EXPECT_TRUE(contract_holds(ledger, expect));
    EXPECT_TRUE(barriers_uniform(ledger));
    EXPECT_EQ(ledger.edges_run(), work.active_edges());
  }
}

INSTANTIATE_TEST_SUITE_P(Grids, ThreadMapped, ::testing::ValuesIn(kGrids),
                         [](const auto& info) {
                           return std::to_string(info.param.blocks) + "x" +
                                  std::to_string(info.param.block_threads);
                         });

// (group size, block size, blocks)
using GroupConfig = std::tuple<uint32_t, uint32_t, uint64_t>;

class GroupMapped : public ::testing::TestWithParam<GroupConfig> {};

TEST_P(GroupMapped, EveryEdgeOnceByTheItemsGroup) {
  const auto [group_size, block_threads, blocks] = GetParam();
  const Grid grid{blocks, block_threads};
  const uint64_t groups = grid.threads() / group_size;
  for (const Workload& work : standard_mixes(block_threads, grid.threads())) {
    SCOPED_TRACE(work.name);
    Ledger ledger(work);
    group_mapped_kernel(grid, group_size, ledger);
    // Item i goes to group i mod groups, its edge k to the group's lane k mod G.
    Expectations expect;
    expect.path = [](VertexId, uint64_t) { return LoadPath::group; };
    expect.thread_ok = [&, group_size = group_size](const EdgeRun& run) {
      const uint64_t rank = (run.edge - work.edge_begin[run.vertex]) % group_size;
      return run.thread == (run.item % groups) * group_size + rank;
    };
    EXPECT_TRUE(contract_holds(ledger, expect));
    EXPECT_TRUE(barriers_uniform(ledger));
  }
}

std::vector<GroupConfig> group_configs() {
  std::vector<GroupConfig> configs;
  for (uint32_t group_size : {2u, 4u, 8u, 32u, 64u, 256u})
    for (uint32_t block_threads : {64u, 128u, 256u, 512u, 1024u})
      if (group_size <= block_threads)
        for (uint64_t blocks : {2u, 24u}) configs.emplace_back(group_size, block_threads, blocks);
  return configs;
}

INSTANTIATE_TEST_SUITE_P(Sizes, GroupMapped, ::testing::ValuesIn(group_configs()),
                         [](const auto& info) {
                           return "group" + std::to_string(std::get<0>(info.param)) + "_" +
                                  std::to_string(std::get<2>(info.param)) + "x" +
                                  std::to_string(std::get<1>(info.param));
                         });

// Block-mapped is the group of the whole block; warp-mapped the group of 32.
TEST(GroupMapped, BlockAndWarpAreGroupsOfTheirSize) {
  const Workload work = mixes::power_law(2000, 5000, 3);
  for (uint32_t group_size : {32u, 256u}) {
    Ledger ledger(work);
    group_mapped_kernel({4, 256}, group_size, ledger);
    EXPECT_TRUE(contract_holds(ledger));
  }
}

// BUG (group_mapped.cuh, GroupMappedAgent): with a Body without an Accum, no
// collective follows the edge loop, so the leader runs post() while the
// group's other lanes (for groups of 64 and more, other warps) may still be
// running the vertex's edges: post() is not ordered after them (body.h
// promises it is). Fix: a group.sync() before the leader's post() when
// !Body::kHasAccum. This test fails until then.
TEST(GroupMapped, PostWithoutAccumIsOrderedAfterTheGroupsEdges) {
  const Workload work = mixes::uniform(300, 100);
  for (uint32_t group_size : {32u, 64u, 256u}) {
    SCOPED_TRACE("group size " + std::to_string(group_size));
    Ledger ledger(work, BodyTraits{false});
    group_mapped_kernel({2, 256}, group_size, ledger);
    EXPECT_TRUE(contract_holds(ledger));
  }
}

}  // namespace
}  // namespace irgl::gpu::schedule::sim
