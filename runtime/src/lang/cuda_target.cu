// The command-line options of CUDA programs (irgl/lang/cuda_target.cuh):
// each fills a field of the run's CudaRun.

#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "irgl/lang/cuda_target.cuh"
#include "irgl/options/unsigned_option.h"

namespace irgl::lang {

namespace {

namespace schedule = gpu::schedule;

// "'text' is not a, b or c" for a value outside `names`.
std::string not_one_of(const std::string& text, const char* names) {
  return "'" + text + "' is not " + names;
}

// Also dp's: the degree above which a vertex gets a child grid.
TargetOption alb_threshold_option(CudaRun& run) {
  return {"alb-threshold",
          "override the ALB threshold the kernels were compiled with (degree above which a "
          "vertex is huge; 0: every vertex); kernels whose per-edge work varies keep irglc's 0",
          [&run](const std::string& text) {
            // The largest value means "the default" (index.h: kAlbDefaultThreshold).
            run.alb.threshold = parse_unsigned(text, "--alb-threshold", UINT64_MAX - 1);
            return "alb threshold: " + std::to_string(*run.alb.threshold);
          }};
}

std::vector<TargetOption> alb_options(CudaRun& run) {
  return {
      alb_threshold_option(run),
      {"alb-distribution", "override the ALB huge-edge distribution: cyclic or blocked",
       [&run](const std::string& text) {
         if (text != "cyclic" && text != "blocked")
           throw InputError::in("--alb-distribution", not_one_of(text, "cyclic or blocked"));
         run.alb.distribution =
             text == "blocked" ? schedule::Distribution::blocked : schedule::Distribution::cyclic;
         return "alb distribution: " + text;
       }},
      {"alb-rows",
       "ALB's path for loops over all vertices that accumulate over their edges (spmv, pr): on "
       "(row tiles), off (TWC) or auto (the default: time each twice, keep the faster)",
       [&run](const std::string& text) {
         if (text != "on" && text != "off" && text != "auto")
           throw InputError::in("--alb-rows", not_one_of(text, "on, off or auto"));
         run.alb.row_tiles = text == "on"    ? schedule::RowTiles::on
                             : text == "off" ? schedule::RowTiles::off
                                             : schedule::RowTiles::automatic;
         return "alb rows: " + text;
       }},
  };
}

TargetOption outline_option(CudaRun& run) {
  return {"outline",
          "how pipe loops run: auto (the default: rounds in one cooperative kernel, except "
          "heavy rounds, which are launched from the host: more items than the kernel has "
          "threads, at least 1280 per SM, and more edges than --heavy-round-edges), "
          "persistent (every round in the kernel), graph (a CUDA graph launches a kernel per "
          "round), off (a launch per kernel and round, from the host). Loops of iterations "
          "over all vertices that irglc outlined (PageRank's) run in one cooperative kernel "
          "unless off",
          [&run](const std::string& text) {
            if (!schedule::parse_outline_mode(text, run.outline))
              throw InputError::in("--outline", not_one_of(text, "auto, persistent, graph or off"));
            return "outline: " + text;
          }};
}

// --NAME N for a count from 1 to `largest`, handed to `set` and announced
// as "ANNOUNCED: N".
TargetOption count_option(const char* name, const char* help, const char* announced,
                          std::function<void(uint64_t)> set, uint64_t largest = UINT64_MAX) {
  const std::string option = std::string("--") + name;
  return {name, help, [option, announced, set, largest](const std::string& text) {
            const uint64_t value = parse_unsigned(text, option, largest);
            if (value == 0) throw InputError::in(option, "'0' is not at least 1");
            set(value);
            return std::string(announced) + ": " + std::to_string(value);
          }};
}
TargetOption count_option(const char* name, const char* help, const char* announced,
                          std::optional<uint64_t>& count) {
  return count_option(name, help, announced, [&count](uint64_t value) { count = value; });
}

// --schedule=auto's round lines a run may override (auto_pick.h:
// AutoTuning).
std::vector<TargetOption> auto_line_options(CudaRun& run) {
  struct Line {
    const char* name;
    const char* help;
    const char* announced;
    std::optional<uint64_t> CudaRun::*count;
  };
  static const Line kLines[] = {
      {"auto-warp-items",
       "--schedule=auto: the largest worklist round a warp per vertex runs where auto picks warp "
       "(low degrees); larger rounds run TWC (default: 128 per SM)",
       "auto warp items", &CudaRun::auto_warp_items},
      {"auto-block-items",
       "--schedule=auto: the largest worklist round a block per vertex runs where auto picks "
       "block (dense rows); larger rounds run a warp per vertex (default: 8 per SM)",
       "auto block items", &CudaRun::auto_block_items},
      {"auto-merge-path-items",
       "--schedule=auto: the largest worklist round that runs TWC where auto picks merge-path "
       "(web graphs); larger rounds merge their edges over the grid (default: 32 per SM)",
       "auto merge path items", &CudaRun::auto_merge_path_items},
      {"one-block-warp-items",
       "--schedule=auto: the largest round on one block that runs a warp per vertex where auto "
       "runs a thread per item there (default: 8 per out-edge a vertex has on average)",
       "one block warp items", &CudaRun::one_block_warp_items},
  };
  std::vector<TargetOption> options;
  for (const Line& line : kLines)
    options.push_back(count_option(line.name, line.help, line.announced, run.*line.count));
  return options;
}

TargetOption heavy_round_option(CudaRun& run) {
  return count_option("heavy-round-edges",
                      "the edges from which a worklist round of many items is heavy, counted "
                      "from a sample of its vertices' degrees: --outline=auto launches it from "
                      "the host (default: 65536 per SM)",
                      "heavy round edges", run.heavy_round_edges);
}

TargetOption outline_blocks_option(CudaRun& run) {
  return count_option("outline-blocks",
                      "the blocks an outlined loop's kernel runs on, up to those resident at "
                      "once (default: a pipe loop two per SM, or a thread per two vertices of "
                      "a larger graph; a loop of iterations a thread per vertex, one per SM at "
                      "least)",
                      "outline blocks",
                      [&run](uint64_t blocks) { run.outline_blocks = unsigned(blocks); },
                      UINT32_MAX);
}

TargetOption outline_shared_option(CudaRun& run) {
  return {"outline-shared",
          "auto (the default): on a graph without a vertex of more than 32 edges, an outlined "
          "loop (a pipe's rounds, or iterations over at most 4 vertices a thread) whose arrays "
          "fit in one block's shared memory runs there, on one block, and another pipe loop's "
          "light rounds run on one block with its arrays in global memory; off: on the grid",
          [&run](const std::string& text) {
            if (text == "auto") run.outline_shared = schedule::SharedLoops::automatic;
            else if (text == "off") run.outline_shared = schedule::SharedLoops::off;
            else throw InputError::in("--outline-shared", not_one_of(text, "auto or off"));
            return "outline shared: " + text;
          }};
}

TargetOption one_block_items_option(CudaRun& run) {
  return count_option("one-block-items",
                      "under --outline-shared=auto, the largest round of a pipe loop that runs "
                      "on one block (default: 16 a thread when the graph's arrays fit in shared "
                      "memory, else 1 a thread: 256)",
                      "one block items", run.one_block_items);
}

TargetOption chain_option(CudaRun& run) {
  return {"chain",
          "in an outlined loop whose pushes follow a successful atomic_min (sssp, label "
          "propagation), the vertices a warp processes in a row in a round, going on with the "
          "first vertex it pushed: auto (the default: 4 on graphs of fewer than 3 edges a vertex "
          "on average, such as roads, else 1), or N from 1 (none) to 1024",
          [&run](const std::string& text) {
            run.chain = text == "auto" ? 0 : unsigned(parse_unsigned(text, "--chain", 1024));
            if (text != "auto" && run.chain == 0)
              throw InputError::in("--chain", "'0' is not auto or at least 1");
            return "chain: " + text;
          }};
}

TargetOption frontier_option(CudaRun& run) {
  return {"frontier",
          "the form of each round's frontier: auto (the default: chosen per round from the "
          "graph and the input's size and degree), sparse (a queue), unique (a queue, each "
          "vertex pushed once per round), dense (a bitmap, compacted into a sorted queue), "
          "sweep (a bitmap; the next round visits every vertex and skips non-members)",
          [&run](const std::string& text) {
            const std::optional<gpu::FrontierMode> mode = gpu::parse_frontier_mode(text);
            if (!mode)
              throw InputError::in("--frontier",
                                   not_one_of(text, "auto, sparse, unique, dense or sweep"));
            run.frontier = *mode;
            return "frontier mode: " + text;
          }};
}

// --task-pool's help: each scheme and what it does (the first is the default).
std::string task_pool_help() {
  std::string help = "how task kernels run their pools:";
  for (const gpu::tasks::PoolSchemeName& entry : gpu::tasks::kPoolSchemes)
    help += std::string(&entry == gpu::tasks::kPoolSchemes ? " " : ", ") + entry.name + " (" +
            entry.help + (&entry == gpu::tasks::kPoolSchemes ? "; the default)" : ")");
  return help;
}

// --task-pool, --task-slots, --task-blocks: how task kernels run their pools.
std::vector<TargetOption> task_pool_options(CudaRun& run) {
  return {
      {"task-pool", task_pool_help(),
       [&run](const std::string& text) {
         if (!gpu::tasks::parse_pool_scheme(text, run.task_pool.scheme))
           throw InputError::in("--task-pool",
                                not_one_of(text, gpu::tasks::pool_scheme_names().c_str()));
         return "task pool: " + text;
       }},
      count_option("task-slots",
                   "task slots per block (default 4096): each block's deque (work stealing), "
                   "its share of each array (static) or of the queue and its own spawns' room "
                   "(queues); a run that needs more stops with an error",
                   "task slots",
                   [&run](uint64_t slots) { run.task_pool.slots_per_block = uint32_t(slots); },
                   UINT32_MAX),
      count_option("task-chain",
                   "work stealing and queues: the tasks a thread may run in a row in one step, each the "
                   "first its predecessor pushed (default 1: every push goes through the pool; "
                   "traversals such as bfs gain from 8)",
                   "task chain", [&run](uint64_t chain) { run.task_pool.chain = unsigned(chain); },
                   1u << 20),
      count_option("task-blocks", "blocks of a task pool (default: as many as are resident at once)",
                   "task blocks", [&run](uint64_t blocks) { run.task_pool.blocks = unsigned(blocks); },
                   UINT32_MAX),
  };
}

// Whether a kernel of the program runs schedule `name` (its schedules read
// "expand: alb, count: thread").
bool runs_schedule(const ProgramDescription& description, const std::string& name) {
  const std::string& schedules = description.schedules;
  for (size_t at = schedules.find(": " + name); at != std::string::npos;
       at = schedules.find(": " + name, at + 1)) {
    const size_t end = at + 2 + name.size();
    if (end == schedules.size() || schedules[end] == ',' || schedules[end] == ' ') return true;
  }
  return false;
}

}  // namespace

std::vector<TargetOption> cuda_run_options(CudaRun& run, const ProgramDescription& description,
                                           bool chooses_frontiers) {
  std::vector<TargetOption> options;
  const bool automatic = runs_schedule(description, "auto");
  if (automatic || runs_schedule(description, "alb")) options = alb_options(run);  // auto may run ALB
  else if (runs_schedule(description, "dp")) options.push_back(alb_threshold_option(run));
  if (automatic)
    for (TargetOption& option : auto_line_options(run)) options.push_back(std::move(option));
  if (description.outlined_loops) {
    options.push_back(outline_option(run));
    options.push_back(heavy_round_option(run));
    options.push_back(outline_blocks_option(run));
    options.push_back(outline_shared_option(run));
    options.push_back(one_block_items_option(run));
    options.push_back(chain_option(run));
  }
  if (chooses_frontiers) options.push_back(frontier_option(run));
  if (description.task_pools)
    for (TargetOption& option : task_pool_options(run)) options.push_back(std::move(option));
  return options;
}

}  // namespace irgl::lang
