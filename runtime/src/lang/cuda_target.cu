// The command-line options of CUDA programs (irgl/lang/cuda_target.cuh):
// each fills a field of the run's CudaRun.

#include "irgl/lang/cuda_target.cuh"
#include "irgl/options/unsigned_option.h"

namespace irgl::lang {

namespace {

namespace schedule = gpu::schedule;

// "'text' is not a, b or c" for a value outside `names`.
std::string not_one_of(const std::string& text, const char* names) {
  return "'" + text + "' is not " + names;
}

std::vector<TargetOption> alb_options(CudaRun& run) {
  return {
      {"alb-threshold",
       "override the ALB threshold the kernels were compiled with (degree above which a vertex "
       "is huge; 0: every vertex); kernels whose per-edge work varies keep irglc's 0",
       [&run](const std::string& text) {
         // The largest value means "the default" (index.h: kAlbDefaultThreshold).
         run.alb.threshold = parse_unsigned(text, "--alb-threshold", UINT64_MAX - 1);
         return "alb threshold: " + std::to_string(*run.alb.threshold);
       }},
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
          "rounds with more items than it has threads (at least 1280 per SM), which are "
          "launched from the host), "
          "persistent (every round in the kernel), graph (a CUDA graph launches a kernel per "
          "round), off (a launch per kernel and round, from the host)",
          [&run](const std::string& text) {
            if (!schedule::parse_outline_mode(text, run.outline))
              throw InputError::in("--outline", not_one_of(text, "auto, persistent, graph or off"));
            return "outline: " + text;
          }};
}

TargetOption auto_warp_option(CudaRun& run) {
  return {"auto-warp-items",
          "--schedule=auto: the largest worklist round a warp per vertex runs where auto "
          "picks warp (low degrees); larger rounds run TWC (default: 32 per SM)",
          [&run](const std::string& text) {
            const uint64_t items = parse_unsigned(text, "--auto-warp-items", UINT64_MAX);
            if (items == 0) throw InputError::in("--auto-warp-items", "'0' is not at least 1");
            run.auto_warp_items = items;
            return "auto warp items: " + std::to_string(*run.auto_warp_items);
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

}  // namespace

std::vector<TargetOption> cuda_run_options(CudaRun& run, const ProgramDescription& description,
                                           bool chooses_frontiers) {
  std::vector<TargetOption> options;
  const bool automatic = description.schedules.find("auto") != std::string::npos;
  if (automatic || description.schedules.find("alb") != std::string::npos)
    options = alb_options(run);  // auto may run ALB
  if (automatic) options.push_back(auto_warp_option(run));
  if (description.outlined_loops) options.push_back(outline_option(run));
  if (chooses_frontiers) options.push_back(frontier_option(run));
  return options;
}

}  // namespace irgl::lang
