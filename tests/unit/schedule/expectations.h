// What the schedule tests expect, computed from first principles (not with
// index.h), and GoogleTest assertions over a Ledger.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <vector>

#include "ledger.h"
#include "simulate.h"

namespace irgl::gpu::schedule::sim {

// The ledger found no problem with the Body contract under `expect`.
::testing::AssertionResult contract_holds(Ledger& ledger, const Expectations& expect = {});
// Every block's threads passed the same barriers at the same call sites.
::testing::AssertionResult barriers_uniform(Ledger& ledger);

// TWC's bin of a vertex: block from block_threads edges, warp from 32.
LoadPath twc_path(uint64_t degree, uint32_t block_threads);

// The thread that owns unit `unit` of `units` split into contiguous runs over
// `threads` threads whose lengths differ by at most one, earlier runs longer.
uint64_t balanced_owner(uint64_t unit, uint64_t threads, uint64_t units);

// Per frontier item, the index of its first atom among the edges of active
// items in frontier order (what the edge-balanced prefix sum gives).
std::vector<uint64_t> atom_offsets(const Workload& work);

// Edges per thread of one launch, filled by an Expectations::thread_ok that
// counts (for balance checks): max - min over the launch's threads.
struct ThreadLoads {
  std::vector<uint64_t> edges;  // per thread
  void count(uint64_t thread, uint64_t threads);
  uint64_t spread() const;
};

// How GoogleTest prints test parameters.
void PrintTo(const Grid& grid, std::ostream* out);
void PrintTo(Distribution distribution, std::ostream* out);

}  // namespace irgl::gpu::schedule::sim
