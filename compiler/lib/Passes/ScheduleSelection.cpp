//===- ScheduleSelection.cpp - Choose each edge loop's schedule ------------===//

#include "irglc/Passes/Passes.h"

namespace irglc {

namespace {

// The schedule irglc uses when neither the source nor the command line
// names one.
Schedule default_schedule() { return Schedule{}; }

class ScheduleSelection : public Pass {
 public:
  const char* name() const override { return "schedule-selection"; }

  void run(Module& module, const PassOptions& options, DiagnosticPrinter& diagnostics) override {
    Schedule global = options.schedule.value_or(default_schedule());
    if ((options.alb_threshold || options.alb_distribution) && global.kind != ScheduleKind::alb) {
      diagnostics.error("--alb-threshold and --alb-distribution need --schedule=alb");
      return;
    }
    if (options.alb_threshold) global.alb_threshold = options.alb_threshold;
    if (options.alb_distribution) global.alb_distribution = *options.alb_distribution;
    if (options.schedule && !schedule_implemented(global.kind)) {
      diagnostics.error("--schedule=" + global.name() +
                        ": this version of irglc implements only the 'thread' schedule");
      return;
    }
    for (Kernel& kernel : module.kernels) {
      if (!kernel.loop.edge_loop) continue;
      EdgeLoop& edge = *kernel.loop.edge_loop;
      if (edge.annotation && !schedule_implemented(edge.annotation->kind)) {
        diagnostics.error(edge.annotation_loc,
                          "schedule '" + edge.annotation->name() +
                              "': this version of irglc implements only the 'thread' schedule");
        continue;
      }
      edge.schedule = edge.annotation.value_or(global);
    }
  }
};

}  // namespace

std::unique_ptr<Pass> create_schedule_selection_pass() {
  return std::make_unique<ScheduleSelection>();
}

}  // namespace irglc
