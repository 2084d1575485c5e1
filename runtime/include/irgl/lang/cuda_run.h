// What one run of an irglc CUDA program may choose without recompiling, in
// one object: the generated program's command line fills it (CudaTarget),
// and the driver hands it to every launch, pipe and outlined loop. The
// defaults are what irglc compiled; library callers pass CudaRun{}.
#pragma once

#include <cstdint>
#include <optional>

#include "irgl/gpu/schedule/load_log.h"
#include "irgl/gpu/schedule/options.h"
#include "irgl/gpu/tasks/pool.cuh"
#include "irgl/gpu/worklist/frontier_policy.h"

namespace irgl::lang {

class PartExchange;  // part_exchange.h

struct CudaRun {
  gpu::schedule::AlbOverrides alb;  // --alb-threshold, --alb-distribution, --alb-rows
  gpu::schedule::OutlineMode outline = gpu::schedule::OutlineMode::automatic;  // --outline
  gpu::FrontierMode frontier = gpu::FrontierMode::automatic;                   // --frontier
  // --outline-blocks: the blocks an outlined loop's kernel launches, up to
  // those resident; 0: by the loop's kind and graph (gpu/schedule/grid.cuh:
  // iterations_grid, pipe_loop_grid).
  unsigned outline_blocks = 0;
  // --outline-shared: whether an outlined loop's light rounds may run on
  // one block (a small graph's with its arrays in shared memory).
  gpu::schedule::SharedLoops outline_shared = gpu::schedule::SharedLoops::automatic;
  // --one-block-items: the largest round a pipe loop runs on one block
  // (none: OneBlockLoops' defaults, gpu/schedule/outline.cuh).
  std::optional<uint64_t> one_block_items;
  // --chain: the vertices a warp processes in a row in an outlined loop's
  // rounds whose pushes may chain (schedule/body.h: chain_pushes); 1: none;
  // 0: automatic (chain_length()).
  unsigned chain = 0;
  // Where the run records its launches (programs built with --instrument=load)
  // and its pipes' frontier choices; none: not recorded.
  gpu::schedule::LoadLog* load_log = nullptr;
  gpu::FrontierLog* frontier_log = nullptr;
  gpu::schedule::AutoLog* auto_log = nullptr;  // what --schedule=auto ran
  // The graph's out- and in-degrees, for --schedule=auto (run_for() in
  // cuda.cuh: CudaTarget and library entry points fill them). Unknown: auto
  // runs ALB.
  gpu::schedule::GraphShape out_degrees, in_degrees;
  std::optional<uint64_t> auto_warp_items;   // --auto-warp-items
  std::optional<uint64_t> auto_block_items;  // --auto-block-items
  std::optional<uint64_t> auto_merge_path_items;  // --auto-merge-path-items
  std::optional<uint64_t> one_block_warp_items;  // --one-block-warp-items
  // --heavy-round-edges: the edges from which a worklist round is heavy
  // (gpu/schedule/heavy_round.h: heavy_round_line).
  std::optional<uint64_t> heavy_round_edges;
  // How task kernels run their pools (--task-pool, --task-slots,
  // --task-blocks), and where the runs are recorded.
  gpu::tasks::PoolOptions task_pool;
  gpu::tasks::PoolLog* pool_log = nullptr;
  // A multi-GPU run's other parts (docs/multi-gpu.md), which pipes share
  // their rounds with; null on one GPU.
  PartExchange* parts = nullptr;

  // A launch site's options under this run, before the site adds what irglc
  // compiled into it.
  gpu::schedule::RunOptions options(const char* kernel_name) const {
    gpu::schedule::RunOptions options;
    options.kernel_name = kernel_name;
    options.alb_overrides = alb;
    options.load_log = load_log;
    options.auto_log = auto_log;
    options.graph = out_degrees;  // a loop over in-edges takes in_degrees
    options.auto_warp_items = auto_warp_items.value_or(0);
    options.auto_block_items = auto_block_items.value_or(0);
    options.auto_merge_path_items = auto_merge_path_items.value_or(0);
    options.one_block_warp_items = one_block_warp_items.value_or(0);
    options.heavy_round_edges = heavy_round_edges.value_or(0);
    return options;
  }

  // The chain of --chain, or automatically: 4 on a graph of fewer than 3
  // out-edges a vertex on average (roads), else none. H200, sssp: 1.06-1.63x
  // faster on four roads (mean degree 1.1-2.6), none on RMAT 20 and
  // cnr-2000, 1.25x slower on a 1000 x 1000 grid (mean 4), whose many paths
  // of equal length a chain runs ahead on and relaxes again
  // (docs/experiments/2026-11-30-one-block-global.md).
  unsigned chain_length() const {
    if (chain != 0) return chain;
    return out_degrees.known() && out_degrees.mean() < 3.0 ? 4 : 1;
  }
};

}  // namespace irgl::lang
