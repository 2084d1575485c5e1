// ALB simulated: the inspection (which vertices go huge for a threshold, and
// whether ALB inspects at all), then TWC for the rest and the huge vertices'
// edges spread over the grid (cyclic or blocked), each edge once, post()
// after all of a vertex's edges, in a later kernel for huge vertices.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "expectations.h"
#include "simulate.h"

namespace irgl::gpu::schedule::sim {
namespace {

// The active frontier vertices whose degree exceeds the threshold.
std::set<VertexId> expected_huge(const Workload& work, uint64_t threshold) {
  std::set<VertexId> huge;
  for (VertexId v : work.frontier)
    if (work.active[v] && work.degree[v] > threshold) huge.insert(v);
  return huge;
}

// Huge vertices' edges go through the huge path, the rest through TWC's
// bins. A huge edge's atom is its index among the huge vertices' edges in
// push order, and goes to the thread the distribution names.
Expectations alb_expectations(const Workload& work, const Grid& grid, const AlbRun& run,
                              Distribution distribution, ThreadLoads& huge_loads) {
  std::map<VertexId, uint64_t> first_atom;
  uint64_t atoms = 0;
  for (VertexId v : run.huge_vertices) {
    first_atom[v] = atoms;
    atoms += work.degree[v];
  }
  Expectations expect;
  expect.path = [&work, grid, first_atom](VertexId v, uint64_t) {
    if (first_atom.count(v)) return LoadPath::huge;
    return twc_path(work.degree[v], grid.block_threads);
  };
  expect.thread_ok = [&work, &huge_loads, first_atom, atoms, distribution](const EdgeRun& run) {
    const auto huge = first_atom.find(run.vertex);
    if (huge == first_atom.end()) return true;  // TWC's bins: see twc_test.cpp
    const uint64_t threads = run.grid.threads();
    huge_loads.count(run.thread, threads);
    const uint64_t atom = huge->second + run.edge - work.edge_begin[run.vertex];
    return run.thread == (distribution == Distribution::cyclic
                              ? atom % threads
                              : balanced_owner(atom, threads, atoms));
  };
  return expect;
}

void expect_alb_run(const Workload& work, const Grid& grid, const AlbOptions& options) {
  Ledger ledger(work);
  const AlbRun run = alb_schedule(grid, options, ledger);
  const uint64_t threshold =
      options.threshold == kAlbDefaultThreshold ? grid.threads() : options.threshold;
  EXPECT_EQ(run.threshold, threshold);
  EXPECT_EQ(run.inspected, work.max_degree() > threshold);
  const std::set<VertexId> huge(run.huge_vertices.begin(), run.huge_vertices.end());
  EXPECT_EQ(huge.size(), run.huge_vertices.size()) << "a vertex set aside twice";
  if (run.inspected) EXPECT_EQ(huge, expected_huge(work, threshold));
  else EXPECT_TRUE(huge.empty());
  ThreadLoads huge_loads;
  EXPECT_TRUE(
      contract_holds(ledger, alb_expectations(work, grid, run, options.distribution, huge_loads)));
  EXPECT_TRUE(barriers_uniform(ledger));
  EXPECT_LE(huge_loads.spread(), 1u) << "huge edges per thread differ by more than one";
}

// (threshold, distribution); kAlbDefaultThreshold: the threads launched.
using AlbConfig = std::tuple<uint64_t, Distribution>;

class Alb : public ::testing::TestWithParam<AlbConfig> {};

TEST_P(Alb, HugeVerticesSpreadOverTheGridTheRestThroughTwc) {
  const auto [threshold, distribution] = GetParam();
  for (const Grid& grid : {Grid{2, 256}, Grid{6, 128}}) {
    for (const Workload& work : standard_mixes(grid.block_threads, grid.threads())) {
      SCOPED_TRACE(work.name + " on " + std::to_string(grid.blocks) + "x" +
                   std::to_string(grid.block_threads));
      expect_alb_run(work, grid, {threshold, distribution});
    }
  }
}

// 0: every vertex with an edge is huge; 1; the default (threads launched);
// 30000: above every degree but the one huge vertex's (10^6).
INSTANTIATE_TEST_SUITE_P(Thresholds, Alb,
                         ::testing::Combine(::testing::Values(uint64_t{0}, uint64_t{1},
                                                              kAlbDefaultThreshold,
                                                              uint64_t{30000}),
                                            ::testing::Values(Distribution::cyclic,
                                                              Distribution::blocked)),
                         [](const auto& info) {
                           const uint64_t t = std::get<0>(info.param);
                           return (t == kAlbDefaultThreshold ? std::string("default")
                                                             : "threshold" + std::to_string(t)) +
                                  "_" + to_string(std::get<1>(info.param));
                         });

TEST(AlbInspection, DefaultThresholdIsTheThreadsLaunched) {
  const Grid grid{4, 256};
  const Workload work = mixes::bin_boundaries(256, grid.threads());  // degrees 1024, 1025
  Ledger ledger(work);
  const AlbRun run = alb_schedule(grid, {}, ledger);
  EXPECT_EQ(run.threshold, 1024u);
  EXPECT_TRUE(run.inspected);
  for (VertexId v : run.huge_vertices) EXPECT_EQ(work.degree[v], 1025u);
  EXPECT_EQ(run.huge_count, 3u);  // one 1025 per repeat
  EXPECT_TRUE(contract_holds(ledger));
}

// Grids of more threads than the cap (an H100 launches 270,336) use the cap
// for loops without accumulators; accumulating loops keep the threads
// launched (a hub's spread edges would each end in an atomic on its
// accumulator).
TEST(AlbInspection, DefaultThresholdIsCappedOnLargeGridsWithoutAccumulators) {
  const Grid grid{80, 256};  // 20,480 threads
  const Workload work = mixes::bin_boundaries(256, AlbTuning::kThresholdCap);
  for (bool has_accum : {false, true}) {
    Ledger ledger(work, BodyTraits{has_accum});
    const AlbRun run = alb_schedule(grid, {}, ledger);
    const uint64_t threshold = has_accum ? grid.threads() : AlbTuning::kThresholdCap;
    EXPECT_EQ(run.threshold, threshold) << "accumulator " << has_accum;
    for (VertexId v : run.huge_vertices) EXPECT_GT(work.degree[v], threshold);
    EXPECT_EQ(run.huge_count, has_accum ? 0u : 3u);
    EXPECT_TRUE(contract_holds(ledger));
  }
}

TEST(AlbInspection, SkippedWhenNoVertexCanBeHuge) {
  const Grid grid{4, 256};
  for (const Workload& work : {mixes::all_tiles_empty(500), mixes::uniform(800, 1024),
                               mixes::power_law(3000, 1024, 2)}) {
    SCOPED_TRACE(work.name);
    Ledger ledger(work);
    const AlbRun run = alb_schedule(grid, {}, ledger);
    EXPECT_FALSE(run.inspected);
    EXPECT_EQ(run.huge_count, 0u);
    EXPECT_TRUE(contract_holds(ledger));
  }
  // Threshold 0 on a graph without edges: still nothing to inspect.
  const Workload empty = mixes::all_tiles_empty(10);
  Ledger ledger(empty);
  EXPECT_FALSE(alb_schedule(grid, {0, Distribution::cyclic}, ledger).inspected);
}

TEST(AlbInspection, ThresholdAboveTheMaxDegreeIsPlainTwc) {
  const Workload work = mixes::one_huge(500, 1000000);
  Ledger ledger(work);
  const AlbRun run = alb_schedule({2, 256}, {1000000, Distribution::cyclic}, ledger);
  EXPECT_FALSE(run.inspected);
  EXPECT_TRUE(contract_holds(ledger));
}

// The inspection runs (the graph has a huge vertex) but the frontier holds
// none of them: no huge kernel.
TEST(AlbInspection, HugeVertexOutsideTheFrontier) {
  Workload work = mixes::one_huge(500, 100000);
  work.frontier.erase(std::find(work.frontier.begin(), work.frontier.end(), VertexId{250}));
  Ledger ledger(work);
  const AlbRun run = alb_schedule({2, 256}, {}, ledger);
  EXPECT_TRUE(run.inspected);
  EXPECT_EQ(run.huge_count, 0u);
  EXPECT_TRUE(contract_holds(ledger));
}

TEST(AlbInspection, ThresholdZeroSetsAsideEveryVertexWithEdges) {
  const Workload work = make_workload("zeros-and-ones", {0, 1, 0, 2, 0, 0, 3}, 0);
  Ledger ledger(work);
  const AlbRun run = alb_schedule({1, 64}, {0, Distribution::cyclic}, ledger);
  EXPECT_EQ(std::set<VertexId>(run.huge_vertices.begin(), run.huge_vertices.end()),
            (std::set<VertexId>{1, 3, 6}));
  // Zero-degree vertices stay in TWC, whose fine bin runs their post().
  Expectations expect;
  expect.path = [&work](VertexId v, uint64_t) {
    return work.degree[v] > 0 ? LoadPath::huge : LoadPath::fine;
  };
  EXPECT_TRUE(contract_holds(ledger, expect));
}

// The block that owns frontier item i under twc_tiles' tile map.
uint64_t owning_block(const Grid& grid, uint64_t items, uint64_t i) {
  const uint32_t per_warp = twc_items_per_warp(items, grid.blocks * (grid.block_threads / 32));
  const uint64_t tile_items = uint64_t(per_warp) * (grid.block_threads / 32);
  return (i / tile_items) % grid.blocks;
}

// Blocks that run one after another, each seeing those before it done:
// from the block that sees half of the grid finished on, every block hands
// the block-bin vertices of its tiles (degree >= B) to the huge list, whose
// edges the grid shares like a huge vertex's; the others keep TWC's bins.
// Every edge is still done once, and post() follows a vertex's edges. The
// Body has no accumulators (those never hand over: next test).
TEST(AlbHandOver, BlocksThatSeeHalfTheGridDoneSetTheirBlockBinAside) {
  uint64_t handed_over_runs = 0;
  for (const Grid& grid : {Grid{4, 256}, Grid{5, 128}}) {
    for (const Workload& work : standard_mixes(grid.block_threads, 4096)) {
      SCOPED_TRACE(work.name + " on " + std::to_string(grid.blocks) + "x" +
                   std::to_string(grid.block_threads));
      Ledger ledger(work, BodyTraits{false});
      const AlbRun run = alb_schedule(grid, {4096, Distribution::cyclic, true}, ledger);
      std::set<VertexId> expected;
      if (run.inspected) {
        for (uint64_t i = 0; i < work.items(); ++i) {
          const VertexId v = work.frontier[i];
          const bool handed_over = alb_hands_over(owning_block(grid, work.items(), i), grid.blocks) &&
                                   work.degree[v] >= grid.block_threads;
          if (work.active[v] && (work.degree[v] > 4096 || handed_over)) expected.insert(v);
        }
      }
      const std::set<VertexId> huge(run.huge_vertices.begin(), run.huge_vertices.end());
      EXPECT_EQ(huge.size(), run.huge_vertices.size()) << "a vertex set aside twice";
      EXPECT_EQ(huge, expected);
      if (expected.size() > expected_huge(work, 4096).size()) ++handed_over_runs;
      ThreadLoads huge_loads;
      EXPECT_TRUE(contract_holds(
          ledger, alb_expectations(work, grid, run, Distribution::cyclic, huge_loads)));
      EXPECT_TRUE(barriers_uniform(ledger));
    }
  }
  EXPECT_GE(handed_over_runs, 4u);  // the power-law and bin-boundary mixes, with and without guards
}

// No hand-over with every block running at once (none is done at an
// election), nor for a Body with accumulators, whatever the blocks see.
TEST(AlbHandOver, NoneWhileEveryBlockRunsNorWithAccumulators) {
  const Grid grid{4, 256};
  const Workload work = mixes::power_law(3000, 20000, 7);
  for (const auto& [has_accum, in_order] : {std::pair{false, false}, std::pair{true, true}}) {
    SCOPED_TRACE(std::string(has_accum ? "accumulators" : "no accumulators") +
                 (in_order ? ", blocks in order" : ", blocks at once"));
    Ledger ledger(work, BodyTraits{has_accum});
    const AlbRun run = alb_schedule(grid, {4096, Distribution::cyclic, in_order}, ledger);
    EXPECT_TRUE(run.inspected);
    EXPECT_EQ(std::set<VertexId>(run.huge_vertices.begin(), run.huge_vertices.end()),
              expected_huge(work, 4096));
    EXPECT_TRUE(contract_holds(ledger));
  }
}

}  // namespace
}  // namespace irgl::gpu::schedule::sim
