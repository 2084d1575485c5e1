// What a launch of a schedule may be told at run time: the options object
// that travels from a generated program's command line (irgl/lang/cuda_run.h)
// through each launch site down to the agents. Nothing here is global: a
// launch sees only the RunOptions it is given. Plain C++ (host unit tests
// include it): the CUDA stream type is declared, not included.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "irgl/gpu/schedule/auto_pick.h"
#include "irgl/gpu/schedule/index.h"

struct CUstream_st;  // cudaStream_t is a CUstream_st*

namespace irgl::gpu::schedule {

class LoadLog;

// How the edge-balanced schedules spread atoms over threads (index.h):
// cyclic (consecutive threads, consecutive atoms) or blocked (a contiguous
// run per thread).
enum class Distribution : uint8_t { cyclic, blocked };

// ALB's path for loops over all vertices that accumulate over their edges
// (spmv, pull pagerank): row tiles (alb.cuh: RowTilesAgent) or TWC.
// `automatic` times each twice at the launch site and keeps the faster
// (path_choice.h): on an H100 row tiles took spmv and pr on the web graphs
// 1.5-2.6x faster than TWC, and were up to 1.37x slower on RMAT 22 and
// musae (docs/experiments/2026-11-22-alb-row-tiles.md).
enum class RowTiles : uint8_t { automatic, on, off };

// A run's overrides of the ALB parameters compiled into the launch sites
// (the generated programs' --alb-threshold, --alb-distribution and
// --alb-rows), so that one build can sweep them (tools/bench, the ALB
// threshold study).
struct AlbOverrides {
  std::optional<uint64_t> threshold;
  std::optional<Distribution> distribution;
  std::optional<RowTiles> row_tiles;
};

// How Multi-phase (multi_phase.cuh) finds the first item of each tile of
// edges in the prefix sum of the degrees: chosen from the graph's degrees
// (automatic), or fixed by the schedule's search= option.
enum class ItemSearch : uint8_t { automatic, binary, interpolation };

// How a pipe loop that irglc outlined runs (the generated programs'
// --outline option; outline.cuh).
enum class OutlineMode : uint8_t {
  automatic,   // "auto": light rounds in the persistent kernel, heavy ones from the host
  persistent,  // one cooperative kernel runs every round
  graph,       // a CUDA graph's conditional while-node launches each round
  off,         // a launch per kernel and round, the loop on the host
};
// "auto", "persistent", "graph", "off".
const char* to_string(OutlineMode mode);
// Parses a mode name; false when `text` names none.
bool parse_outline_mode(const std::string& text, OutlineMode& mode);

// Whether an outlined loop (a pipe's rounds, or iterations) may run a small
// graph's passes on one block with its arrays in shared memory, when they
// fit (--outline-shared; outline.cuh: OneBlockLoops, shared_placement.cuh).
enum class SharedLoops : uint8_t { automatic, off };

// One launch site's options: what irglc compiled into it and what the run
// overrides. ALB's parameters resolve in one place, alb_*_of() below.
struct RunOptions {
  CUstream_st* stream = nullptr;  // a cudaStream_t; none: the default stream
  // ALB: the degree above which a vertex is huge; by default the number of
  // threads the TWC kernel launches, capped in loops without accumulators
  // (index.h: alb_threshold).
  uint64_t alb_threshold = kAlbDefaultThreshold;
  // The compiler chose alb_threshold on purpose rather than as a default:
  // loops whose per-edge work varies get 0 (every vertex huge), and a run's
  // threshold override does not apply to them.
  bool alb_threshold_fixed = false;
  Distribution alb_distribution = Distribution::cyclic;
  RowTiles alb_row_tiles = RowTiles::automatic;
  AlbOverrides alb_overrides;    // the run's
  // The loop's edge body loops (irglc knows): edges of unequal cost.
  bool edge_work_varies = false;
  GraphShape graph;  // the run's graph: auto (auto_pick.h), vwarp, multi-phase
  ItemSearch item_search = ItemSearch::automatic;  // multi-phase's partition search
  // Auto: the largest worklist round a warp per vertex runs when auto picks
  // warp, larger ones run TWC, and a block per vertex when it picks block,
  // larger ones run a warp per vertex; the largest that runs TWC when it
  // picks merge-path; 0: the default (auto.cuh,
  // round_lines).
  uint64_t auto_warp_items = 0;
  uint64_t auto_block_items = 0;
  uint64_t auto_merge_path_items = 0;
  // Auto: the largest round on one block that runs a warp per vertex where
  // its pick there is a thread per item; 0: the default (round_lines).
  uint64_t one_block_warp_items = 0;
  // The edges from which a worklist round is heavy (heavy_round.h); 0: the
  // default.
  uint64_t heavy_round_edges = 0;
  const char* kernel_name = "";  // for the load log (instrumented States)
  LoadLog* load_log = nullptr;   // where instrumented States record; none: not recorded
  AutoLog* auto_log = nullptr;   // where auto records its picks (auto_pick.h); none: not recorded
};

// A launch's ALB parameters: the run's override, else the launch site's
// option; the default threshold is index.h's alb_threshold() (the threads
// the kernel launches, capped at the policy's AlbTuning::kThresholdCap
// where the Body does not accumulate). A
// threshold the compiler fixed (RunOptions::alb_threshold_fixed) is kept.
inline uint64_t alb_threshold_of(const RunOptions& options, uint64_t threads_launched,
                                 bool accumulates, uint64_t cap = AlbTuning::kThresholdCap) {
  const uint64_t requested = options.alb_threshold_fixed
                                 ? options.alb_threshold
                                 : options.alb_overrides.threshold.value_or(options.alb_threshold);
  return alb_threshold(requested, threads_launched, accumulates, cap);
}
inline Distribution alb_distribution_of(const RunOptions& options) {
  return options.alb_overrides.distribution.value_or(options.alb_distribution);
}
inline RowTiles alb_row_tiles_of(const RunOptions& options) {
  return options.alb_overrides.row_tiles.value_or(options.alb_row_tiles);
}

}  // namespace irgl::gpu::schedule
