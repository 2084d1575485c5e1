#include "expectations.h"

#include <algorithm>

namespace irgl::gpu::schedule::sim {

namespace {

::testing::AssertionResult no_problems(const std::vector<std::string>& problems) {
  if (problems.empty()) return ::testing::AssertionSuccess();
  ::testing::AssertionResult failure = ::testing::AssertionFailure();
  for (const std::string& problem : problems) failure << "\n  " << problem;
  return failure;
}

}  // namespace

::testing::AssertionResult contract_holds(Ledger& ledger, const Expectations& expect) {
  return no_problems(ledger.problems(expect));
}

::testing::AssertionResult barriers_uniform(Ledger& ledger) {
  return no_problems(ledger.barrier_problems());
}

LoadPath twc_path(uint64_t degree, uint32_t block_threads) {
  if (degree >= block_threads) return LoadPath::block;
  if (degree >= 32) return LoadPath::warp;
  return LoadPath::fine;
}

uint64_t balanced_owner(uint64_t unit, uint64_t threads, uint64_t units) {
  const uint64_t shorter = units / threads, longer_runs = units % threads;
  const uint64_t in_longer = longer_runs * (shorter + 1);
  if (unit < in_longer) return unit / (shorter + 1);
  return longer_runs + (unit - in_longer) / shorter;
}

std::vector<uint64_t> atom_offsets(const Workload& work) {
  std::vector<uint64_t> offsets(work.items());
  uint64_t atoms = 0;
  for (uint64_t i = 0; i < work.items(); ++i) {
    offsets[i] = atoms;
    const VertexId v = work.frontier[i];
    if (work.active[v]) atoms += work.degree[v];
  }
  return offsets;
}

void ThreadLoads::count(uint64_t thread, uint64_t threads) {
  if (edges.size() < threads) edges.resize(threads, 0);
  ++edges[thread];
}

uint64_t ThreadLoads::spread() const {
  if (edges.empty()) return 0;
  const auto [low, high] = std::minmax_element(edges.begin(), edges.end());
  return *high - *low;
}

void PrintTo(const Grid& grid, std::ostream* out) {
  *out << grid.blocks << "x" << grid.block_threads;
}

void PrintTo(Distribution distribution, std::ostream* out) { *out << to_string(distribution); }

}  // namespace irgl::gpu::schedule::sim
