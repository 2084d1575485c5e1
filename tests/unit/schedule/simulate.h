// Host mirrors of the schedules' agents (runtime/include/irgl/gpu/schedule/:
// thread_mapped.cuh, group_mapped.cuh, twc.cuh, edge_balanced.cuh, alb.cuh)
// and of the policies that launch them (the same headers). Each
// mirror keeps its kernel's loops, bounds, index.h calls and phase order,
// and runs the threads of a simulated grid against a Ledger, which records
// and checks what every thread did. Lockstep groups (a warp, a cooperative
// group, a block between barriers) are simulated phase by phase, with the
// barriers the kernel has at the same places.
//
// The simulated Body has reductions (or the kernel is instrumented), so each
// kernel's final flush is a block barrier; ledger.traits().has_accum says
// whether it has an Accum (Body::kHasAccum).
//
// Keep these in step with the schedule headers: a change there needs the same change
// here, or these tests check the old code.
#pragma once

#include <cstdint>
#include <vector>

#include "irgl/gpu/schedule/index.h"
#include "ledger.h"

namespace irgl::gpu::schedule::sim {

// state.cuh's Distribution (CUDA-only header).
enum class Distribution { cyclic, blocked };
const char* to_string(Distribution distribution);

// ItemArrays: the per-item arrays of the edge-balanced kernels.
struct ItemArrays {
  explicit ItemArrays(uint64_t capacity);
  std::vector<VertexId> vertices;
  std::vector<uint64_t> begins, degrees;
  std::vector<uint8_t> active;
  std::vector<Accum> accums;
  std::vector<uint64_t> offsets;  // capacity + 1 entries
  uint64_t count = 0;             // the device item counter
};

// HugeList: ALB's huge vertices, pushed into `items` by the TWC kernel, and
// the count of blocks that finished their tiles (the hand-over's input).
// What a block reads of that count depends on when blocks run: with
// `blocks_in_order` each block runs after the previous one finished (and
// sees them), else all run at once and see 0 (no block is done before the
// others' elections).
struct HugeList {
  uint64_t threshold = 0;
  ItemArrays* items = nullptr;
  bool blocks_in_order = false;
  uint64_t blocks_done = 0;
};

//===----------------------------------------------------------------------===//
// Kernels (the agents of the schedule headers)
//===----------------------------------------------------------------------===//

void thread_mapped_kernel(const Grid& grid, Ledger& ledger);
void group_mapped_kernel(const Grid& grid, uint32_t group_size, Ledger& ledger);
// With `huge`, ALB's inspecting TWC kernel (HugeList), else plain TWC (NoHugeList).
void twc_kernel(const Grid& grid, HugeList* huge, Ledger& ledger);
void gather_kernel(const Grid& grid, ItemArrays& items, Ledger& ledger);
// `path` labels the edges for the ledger (LoadPath::edge for LB and
// merge-path, LoadPath::huge for ALB); the kernels themselves do not know it.
void edge_balanced_kernel(const Grid& grid, Distribution distribution, ItemArrays& items,
                          LoadPath path, Ledger& ledger);
void merge_path_kernel(const Grid& grid, ItemArrays& items, LoadPath path, Ledger& ledger);
void post_kernel(const Grid& grid, const ItemArrays& items, LoadPath path, Ledger& ledger);

// State::prefix_sum: offsets[0..count] = exclusive prefix sum of degrees.
void prefix_sum(ItemArrays& items);

//===----------------------------------------------------------------------===//
// Policies (schedules.cuh); every kernel runs on `grid`
//===----------------------------------------------------------------------===//

// Lb (cyclic) and its blocked variant, and MergePath: EdgeBalanced::run.
void edge_balanced_schedule(const Grid& grid, bool merge_path, Distribution distribution,
                            Ledger& ledger);

struct AlbOptions {
  uint64_t threshold = kAlbDefaultThreshold;
  Distribution distribution = Distribution::cyclic;
  bool blocks_in_order = false;  // HugeList::blocks_in_order
};
struct AlbRun {
  uint64_t threshold = 0;    // the threshold used
  bool inspected = false;    // false: plain TWC (max degree <= threshold)
  uint64_t huge_count = 0;   // vertices set aside
  std::vector<VertexId> huge_vertices;
};
// Alb::run with index.h's alb_threshold() and alb_inspects() (see
// docs/schedules.md on how schedules.cuh reads RunOptions::alb_threshold).
AlbRun alb_schedule(const Grid& grid, const AlbOptions& options, Ledger& ledger);

}  // namespace irgl::gpu::schedule::sim
