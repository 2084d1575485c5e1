//===- ScheduleSelection.cpp - Choose each edge loop's schedule ------------===//

#include "irglc/Passes/Passes.h"

namespace irglc {

namespace {

// The schedule irglc uses when neither the source nor the command line
// names one: auto, which picks per launch from the graph's degrees. On an
// H100 it was 1.24x faster than ALB by geomean over 153 graph x app pairs,
// and ALB's own code where the graph has hubs
// (docs/experiments/2026-11-26-auto-schedule.md).
Schedule default_schedule() {
  Schedule schedule;
  schedule.kind = ScheduleKind::automatic;
  return schedule;
}

// ALB's threshold for an edge loop whose work per edge varies (its body
// loops), unless the program or the command line names one: 0, every
// vertex huge, every edge its own atom of the grid-wide distribution. TWC's
// bins group a vertex's edges on one thread, warp or block, which balances
// edges of equal cost; tc's edge (u, v) costs about deg(u) + deg(v), so
// any grouping by u's degree leaves the edges to hubs v on a few threads
// (tc on cnr-2000, H100: 856 ms at the default threshold, 99.6 at 256, 20.3
// at 0; LB 15.6; docs/experiments/2026-11-21-real-graphs-h100.md).
constexpr uint64_t kVaryingWorkAlbThreshold = 0;

// Whether a schedule may run ALB, and so takes ALB's options: ALB, and
// auto, which picks it on most graphs.
bool runs_alb(const Schedule& schedule) {
  return schedule.kind == ScheduleKind::alb || schedule.kind == ScheduleKind::automatic;
}

// Why a schedule cannot run with blocks of `block_threads` threads, or "".
std::string unusable(const Schedule& schedule, unsigned block_threads) {
  if (schedule.kind == ScheduleKind::group && schedule.group_size > block_threads)
    return "groups of " + std::to_string(schedule.group_size) +
           " threads do not fit in blocks of " + std::to_string(block_threads) +
           " (--block-threads)";
  return "";
}

class ScheduleSelection : public Pass {
 public:
  const char* name() const override { return "schedule-selection"; }

  void run(Module& module, const PassOptions& options, DiagnosticPrinter& diagnostics) override {
    Schedule global = options.schedule.value_or(default_schedule());
    if ((options.alb_threshold || options.alb_distribution) && !runs_alb(global)) {
      diagnostics.error("--alb-threshold and --alb-distribution apply only to schedules 'alb' "
                        "and 'auto' (the default), not --schedule=" + global.name());
      return;
    }
    if (options.alb_threshold) global.alb_threshold = options.alb_threshold;
    if (options.alb_distribution) global.alb_distribution = *options.alb_distribution;
    if (options.schedule) {
      if (std::string problem = unusable(global, options.block_threads); !problem.empty()) {
        diagnostics.error("--schedule=" + global.name() + ": " + problem);
        return;
      }
    }
    for (Kernel& kernel : module.kernels) {
      if (!kernel.loop.edge_loop) continue;
      EdgeLoop& edge = *kernel.loop.edge_loop;
      if (edge.annotation) {
        if (std::string problem = unusable(*edge.annotation, options.block_threads);
            !problem.empty()) {
          diagnostics.error(edge.annotation_loc,
                            "schedule '" + edge.annotation->name() + "': " + problem);
          continue;
        }
      }
      edge.schedule = edge.annotation.value_or(global);
      if (edge.schedule.kind == ScheduleKind::user && !options.extern_schedules_declared) {
        diagnostics.error(edge.annotation ? edge.annotation_loc : edge.loc,
                          "schedule '" + edge.schedule.name() +
                              "' is your own: name the header that declares it with "
                              "--schedule-header=FILE");
        continue;
      }
      if (runs_alb(edge.schedule) && !edge.schedule.alb_threshold && edge.work_per_edge_varies) {
        edge.schedule.alb_threshold = kVaryingWorkAlbThreshold;
        edge.schedule.alb_threshold_for_varying_work = true;
      }
    }
  }
};

}  // namespace

std::unique_ptr<Pass> create_schedule_selection_pass() {
  return std::make_unique<ScheduleSelection>();
}

}  // namespace irglc
