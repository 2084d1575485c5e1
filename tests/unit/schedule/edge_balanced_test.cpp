// The edge-balanced schedules simulated over every degree mix: LB (cyclic)
// and its blocked variant, and merge-path. A gather kernel runs pre(), the
// prefix sum gives each item its first atom, the edge kernel spreads the
// atoms over the grid (each thread finds an atom's item by binary search,
// with zero-degree items in the prefix sum), and post() runs in a later
// kernel. Each atom must go to the thread the distribution names.
#include <gtest/gtest.h>

#include <tuple>

#include "expectations.h"
#include "simulate.h"

namespace irgl::gpu::schedule::sim {
namespace {

const Grid kGrids[] = {{1, 64}, {4, 256}, {40, 256}, {3, 1024}};

std::string grid_name(const Grid& grid) {
  return std::to_string(grid.blocks) + "x" + std::to_string(grid.block_threads);
}

// Which edge kernel thread must run atom `atom` of `atoms`, and count loads.
struct Distributed {
  explicit Distributed(const Workload& work)
      : work(work), first_atom(atom_offsets(work)), atoms(work.active_edges()) {}

  const Workload& work;
  std::vector<uint64_t> first_atom;
  uint64_t atoms;
  ThreadLoads loads;

  Expectations expect(std::function<bool(uint64_t atom, uint64_t item, uint64_t thread,
                                         uint64_t threads)> owner_ok) {
    Expectations expect;
    expect.path = [](VertexId, uint64_t) { return LoadPath::edge; };
    expect.thread_ok = [this, owner_ok](const EdgeRun& run) {
      const uint64_t atom = first_atom[run.item] + run.edge - work.edge_begin[run.vertex];
      loads.count(run.thread, run.grid.threads());
      return owner_ok(atom, run.item, run.thread, run.grid.threads());
    };
    return expect;
  }
};

using EdgeConfig = std::tuple<Grid, Distribution>;

class Lb : public ::testing::TestWithParam<EdgeConfig> {};

TEST_P(Lb, EveryAtomOnceByItsThread) {
  const auto [grid, distribution] = GetParam();
  for (Workload work : standard_mixes(grid.block_threads, grid.threads())) {
    for (bool worklist : {false, true}) {
      if (worklist) work = with_shuffled_frontier(work, work.items() / 2, 4);
      SCOPED_TRACE(work.name);
      Ledger ledger(work);
      edge_balanced_schedule(grid, false, distribution, ledger);
      Distributed atoms{work};
      const uint64_t total = atoms.atoms;
      const Expectations expect =
          distribution == Distribution::cyclic
              ? atoms.expect([](uint64_t atom, uint64_t, uint64_t thread, uint64_t threads) {
                  return thread == atom % threads;
                })
              : atoms.expect([total](uint64_t atom, uint64_t, uint64_t thread, uint64_t threads) {
                  return thread == balanced_owner(atom, threads, total);
                });
      EXPECT_TRUE(contract_holds(ledger, expect));
      EXPECT_TRUE(barriers_uniform(ledger));
      EXPECT_LE(atoms.loads.spread(), 1u) << "edges per thread differ by more than one";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Grids, Lb,
                         ::testing::Combine(::testing::ValuesIn(kGrids),
                                            ::testing::Values(Distribution::cyclic,
                                                              Distribution::blocked)),
                         [](const auto& info) {
                           return grid_name(std::get<0>(info.param)) + "_" +
                                  to_string(std::get<1>(info.param));
                         });

class MergePath : public ::testing::TestWithParam<Grid> {};

// Atom k of item i is unit k + i of the merge (i items ended before it), and
// units are split over the threads in runs differing by at most one.
TEST_P(MergePath, EveryAtomOnceByTheThreadOwningItsDiagonal) {
  const Grid grid = GetParam();
  for (const Workload& work : standard_mixes(grid.block_threads, grid.threads())) {
    SCOPED_TRACE(work.name);
    Ledger ledger(work);
    edge_balanced_schedule(grid, true, Distribution::cyclic, ledger);
    Distributed atoms{work};
    const uint64_t units = work.items() + atoms.atoms;
    const Expectations expect =
        atoms.expect([units](uint64_t atom, uint64_t item, uint64_t thread, uint64_t threads) {
          return thread == balanced_owner(atom + item, threads, units);
        });
    EXPECT_TRUE(contract_holds(ledger, expect));
  }
}

INSTANTIATE_TEST_SUITE_P(Grids, MergePath, ::testing::ValuesIn(kGrids),
                         [](const auto& info) { return grid_name(info.param); });

// BUG (edge_balanced.cuh, MergePathAgent): a thread with an empty share returns
// early after calling body.flush() and counters.flush(), whose
// __syncthreads() are then other call sites than the rest of the block's:
// __syncthreads() in divergent code is undefined behaviour in CUDA (it works
// on sm_70+, which counts arrivals per thread, but is not promised). Empty
// shares happen whenever items + edges < threads launched. Fix: no early
// return; walk the (empty) share and flush at the end like the others.
TEST(MergePath, AllThreadsOfABlockReachTheSameBarriers) {
  const Workload work = mixes::uniform(100, 3);  // 400 units, 1024 threads
  Ledger ledger(work);
  edge_balanced_schedule({4, 256}, true, Distribution::cyclic, ledger);
  EXPECT_TRUE(contract_holds(ledger));
  EXPECT_TRUE(barriers_uniform(ledger));
}

// Totals not a multiple of the thread count: loads still within one.
TEST(Lb, PrimeTotalsSpreadEvenly) {
  const Workload work = mixes::prime_total(997);
  for (Distribution distribution : {Distribution::cyclic, Distribution::blocked}) {
    Ledger ledger(work);
    const Grid grid{3, 128};
    edge_balanced_schedule(grid, false, distribution, ledger);
    Distributed atoms{work};
    EXPECT_NE(atoms.atoms % grid.threads(), 0u);
    EXPECT_TRUE(contract_holds(
        ledger, atoms.expect([](uint64_t, uint64_t, uint64_t, uint64_t) { return true; })));
    EXPECT_LE(atoms.loads.spread(), 1u) << to_string(distribution);
    EXPECT_EQ(atoms.loads.edges.size(), grid.threads());
  }
}

}  // namespace
}  // namespace irgl::gpu::schedule::sim
