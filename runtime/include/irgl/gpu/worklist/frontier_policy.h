// How a pipe (lang::Pipe) represents each round's frontier, and the choice
// of representation per round. Plain C++ (no CUDA): the choice is made on the
// host from a few numbers, so it is unit-tested without a GPU.
//
//   form     pushes go to                   the next round reads
//   sparse   the queue (warp/block-aggr.)   the queue, duplicates included
//   unique   the queue, through a bitmap    the queue, each vertex once
//            filter (one push per vertex)
//   dense    a bitmap (one atomicOr each)   the bitmap compacted into the
//                                           queue: sorted, no duplicates
//   sweep    a bitmap                       every vertex, skipping those
//                                           whose bit is clear (no compaction)
//
// The bitmap forms cost, per round, a memset of |V|/8 bytes, a few launches
// and a read back, and dense a compaction pass over the bitmap: about
// 15 us + 3 ns per vertex on an H200, and sweep about twice that. A
// duplicate push costs its vertex's edges once more in the next round. On
// roads and grids (average degree 2.5-4, no hubs) the duplicates a round can
// make cost less than the bitmap; on power-law graphs a hub is pushed by many
// neighbours and each copy re-expands all its edges (RMAT 22 cc: 4.7x faster
// dense than sparse, docs/experiments/2026-11-21-frontier-forms.md). FrontierMode::automatic therefore
// picks per round:
//   - dense output when the input's total out-degree d (the edges the round
//     visits, a bound on its pushes) is at least dense_edges(): |V| plus
//     enough extra pushes that, at the average degree, their edges would
//     reach kDuplicateEdgesPerVertex per vertex (about the bitmap's cost),
//     and at least kDenseMinEdges; sparse otherwise. The degree sum is only
//     computed (a sampling kernel and a read back) when items x max
//     out-degree could reach that bound;
//   - after a bitmap output, sweep instead of compaction when at least
//     |V| / kSweepDivisor vertices are members.
// The fixed modes always take their form (sweep and dense only differ in
// how the next round reads the bitmap).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "irgl/gpu/schedule/index.h"
#include "irgl/support/host_device.h"

namespace irgl::gpu {

enum class FrontierForm : uint8_t { sparse, unique, dense, sweep };
enum class FrontierMode : uint8_t { automatic, sparse, unique, dense, sweep };

// Whether pushes of this form only set bits (dense, sweep): the round's
// queue stays empty and the swap turns the bitmap into the next input.
inline bool bitmap_only(FrontierForm form) {
  return form == FrontierForm::dense || form == FrontierForm::sweep;
}

// "sparse", "unique", "dense", "sweep"; "auto" for the mode.
const char* frontier_form_name(FrontierForm form);
const char* frontier_mode_name(FrontierMode mode);
// Parses "auto", "sparse", "unique", "dense" or "sweep".
std::optional<FrontierMode> parse_frontier_mode(const std::string& text);

// Whether `items` vertices of at most `max_degree` (> 0) edges each can hold
// `edges` edges: items * max_degree >= edges, without overflowing the
// product. The free test before a degree sum, on the host (needs_degree_sum)
// and in a persistent kernel (InputEdgesCheck).
IRGL_HD inline bool may_hold_edges(uint64_t items, uint64_t max_degree, uint64_t edges) {
  return items >= schedule::ceil_div(edges, max_degree);
}

// What the host knows about the graph and a round's input when it picks the
// output form.
struct FrontierInputs {
  uint64_t vertices = 0;     // |V|
  uint64_t edges = 0;        // |E| (out-edges)
  uint64_t max_degree = 0;   // the largest out-degree (0: unknown)
  uint64_t items = 0;        // the input's size (members, or queued items)
  // The input's total out-degree (estimated from a sample), or nullopt when
  // the size alone decided and the degree was not computed.
  std::optional<uint64_t> degree_sum;
};

struct FrontierPolicy {
  // A graph has hubs when its maximum out-degree is at least this many
  // times its average; without hubs every round is sparse.
  static constexpr uint64_t kHubDegreeRatio = 8;
  // The edge work per vertex that duplicates must be able to cost before a
  // bitmap pays (its ~3 ns per vertex against ~0.1 ns per edge).
  static constexpr uint64_t kDuplicateEdgesPerVertex = 32;
  // Dense output needs at least this many edges in the round.
  static constexpr uint64_t kDenseMinEdges = uint64_t{1} << 20;
  // Sweep instead of compacting when members >= |V| / this.
  static constexpr uint64_t kSweepDivisor = 8;

  // The degree sum from which automatic mode goes dense:
  // max(|V| + kDuplicateEdgesPerVertex * |V| / average degree, kDenseMinEdges).
  static uint64_t dense_edges(uint64_t vertices, uint64_t edges);
  // Whether the graph has hubs (see kHubDegreeRatio).
  static bool has_hubs(const FrontierInputs& inputs);
  // Whether any round of this graph may need a degree sum (auto mode, a
  // graph with hubs), whatever its items: then the pipe estimates the sum
  // ahead, at the same synchronization as the size.
  static bool may_need_degree_sum(FrontierMode mode, const FrontierInputs& inputs);
  // Whether the output form needs the input's degree sum: only when
  // `inputs.items` vertices of degree up to `inputs.max_degree` could reach
  // dense_edges() (else the output is sparse).
  static bool needs_degree_sum(FrontierMode mode, const FrontierInputs& inputs);
  // The form of the round's output worklist.
  static FrontierForm output_form(FrontierMode mode, const FrontierInputs& inputs);
  // The degree sum from which a round that a persistent kernel would run
  // (its outputs are queues) is left to the host, where output_form() can
  // make its output a bitmap: dense_edges() where may_need_degree_sum(),
  // else 0 (never).
  static uint64_t host_round_edges(FrontierMode mode, const FrontierInputs& inputs);
  // Whether a bitmap output may be swept at all: in modes sweep and auto,
  // unless `queue_only` (the next reader needs a queue: a persistent
  // kernel). Only then is the member count worth reading for sweep_input().
  static bool may_sweep(FrontierMode mode, bool queue_only);
  // After a bitmap output of `members` vertices: sweep it (true) or compact
  // it into the queue (false).
  static bool sweep_input(FrontierMode mode, uint64_t vertices, uint64_t members, bool queue_only);
};

// One round's choice, for the instrumentation (load report) and the
// per-run summary.
struct FrontierRecord {
  uint64_t round = 0;                 // the pipe's round
  uint64_t items = 0;                 // input size
  std::optional<uint64_t> degree_sum; // as the policy saw it
  FrontierForm output = FrontierForm::sparse;
  // Members of the bitmap output (dense and sweep; unique counts its pushes
  // in the next round's size).
  std::optional<uint64_t> members;
  bool swept_next = false;            // the next round sweeps that bitmap
};

// The rounds the pipes chose in the current run (host rounds only: rounds
// run inside a persistent kernel always use the sparse queue and are
// counted in device_rounds).
struct FrontierLog {
  std::vector<FrontierRecord> rounds;
  uint64_t device_rounds = 0;

  void clear() { *this = {}; }
  // The host rounds' inputs summed: the work the rounds took up.
  uint64_t items() const;
  // "frontier: auto, host rounds 5 sparse, ...": the rounds under `mode`, the
  // run's.
  std::string summary(FrontierMode mode) const;
  // A JSON array of the records.
  std::string json() const;
};

}  // namespace irgl::gpu
