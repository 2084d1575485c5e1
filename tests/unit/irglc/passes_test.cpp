// The schedule-selection pass and the pass manager on hand-built modules;
// diagnostics are read from stderr.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <memory>

#include "irglc/Passes/Passes.h"

namespace irglc {
namespace {

// A kernel `name` whose vertex loop has an edge loop at `loc`.
Kernel kernel_with_edge_loop(const std::string& name, SourceLoc loc) {
  Kernel kernel;
  kernel.name = name;
  kernel.loop.vertex_var = "n";
  kernel.loop.graph = "g";
  EdgeLoop edge;
  edge.edge_var = "e";
  edge.vertex = "n";
  edge.loc = loc;
  kernel.loop.edge_loop = edge;
  return kernel;
}

Schedule schedule_named(const std::string& name) {
  Schedule schedule;
  EXPECT_EQ(parse_schedule_name(name, schedule), "");
  return schedule;
}

struct PassRun {
  bool ok;
  std::string stderr_text;
};

PassRun run_standard(Module& module, const PassOptions& options) {
  DiagnosticPrinter diagnostics;
  testing::internal::CaptureStderr();
  const bool ok = PassManager::standard().run(module, options, diagnostics);
  return {ok, testing::internal::GetCapturedStderr()};
}

TEST(irglcScheduleSelection, DefaultsToThread) {
  Module module;
  module.kernels.push_back(kernel_with_edge_loop("a", {"x.irgl", 3, 5}));
  Kernel no_edges;
  no_edges.name = "b";
  module.kernels.push_back(no_edges);
  const PassRun run = run_standard(module, {});
  EXPECT_TRUE(run.ok);
  EXPECT_EQ(run.stderr_text, "");
  EXPECT_EQ(module.kernels[0].loop.edge_loop->schedule.name(), "thread");
  EXPECT_FALSE(module.kernels[1].loop.edge_loop.has_value());
}

TEST(irglcScheduleSelection, AnnotationOverridesTheOption) {
  Module module;
  module.kernels.push_back(kernel_with_edge_loop("annotated", {"x.irgl", 3, 5}));
  module.kernels.push_back(kernel_with_edge_loop("plain", {"x.irgl", 9, 5}));
  // The annotation is taken as written (this group size is how the test
  // tells it from the option's schedule).
  Schedule annotation;
  annotation.group_size = 7;
  module.kernels[0].loop.edge_loop->annotation = annotation;
  PassOptions options;
  options.schedule = schedule_named("thread");
  const PassRun run = run_standard(module, options);
  ASSERT_TRUE(run.ok) << run.stderr_text;
  EXPECT_EQ(module.kernels[0].loop.edge_loop->schedule.group_size, 7u);
  EXPECT_EQ(module.kernels[1].loop.edge_loop->schedule.group_size, 0u);
  EXPECT_EQ(module.kernels[1].loop.edge_loop->schedule.kind, ScheduleKind::thread);
}

TEST(irglcScheduleSelection, RejectsAnUnimplementedOption) {
  for (const char* name : {"warp", "block", "group:64", "twc", "lb", "merge-path", "alb"}) {
    Module module;
    module.kernels.push_back(kernel_with_edge_loop("a", {"x.irgl", 3, 5}));
    PassOptions options;
    options.schedule = schedule_named(name);
    const PassRun run = run_standard(module, options);
    EXPECT_FALSE(run.ok) << name;
    EXPECT_EQ(run.stderr_text, std::string("irglc: error: --schedule=") + name +
                                   ": this version of irglc implements only the 'thread' "
                                   "schedule\n");
  }
}

TEST(irglcScheduleSelection, RejectsEveryUnimplementedAnnotationAtItsPragma) {
  Module module;
  module.kernels.push_back(kernel_with_edge_loop("a", {"x.irgl", 3, 5}));
  module.kernels.push_back(kernel_with_edge_loop("b", {"x.irgl", 9, 5}));
  module.kernels.push_back(kernel_with_edge_loop("c", {"x.irgl", 15, 5}));
  module.kernels[0].loop.edge_loop->annotation = schedule_named("twc");
  module.kernels[0].loop.edge_loop->annotation_loc = {"no-such-dir/x.irgl", 2, 23};
  module.kernels[2].loop.edge_loop->annotation = schedule_named("group:32");
  module.kernels[2].loop.edge_loop->annotation_loc = {"no-such-dir/x.irgl", 14, 23};
  const PassRun run = run_standard(module, {});
  EXPECT_FALSE(run.ok);
  // Both are reported (the file is unreadable, so without a source line).
  EXPECT_EQ(run.stderr_text,
            "no-such-dir/x.irgl:2:23: error: schedule 'twc': this version of irglc implements "
            "only the 'thread' schedule\n"
            "no-such-dir/x.irgl:14:23: error: schedule 'group:32': this version of irglc "
            "implements only the 'thread' schedule\n");
  EXPECT_EQ(module.kernels[1].loop.edge_loop->schedule.name(), "thread");
}

TEST(irglcScheduleSelection, AlbOptionsNeedTheAlbSchedule) {
  PassOptions threshold;
  threshold.alb_threshold = 4096;
  PassOptions distribution;
  distribution.schedule = schedule_named("twc");
  distribution.alb_distribution = AlbDistribution::blocked;
  for (const PassOptions& options : {threshold, distribution}) {
    Module module;
    module.kernels.push_back(kernel_with_edge_loop("a", {"x.irgl", 3, 5}));
    const PassRun run = run_standard(module, options);
    EXPECT_FALSE(run.ok);
    EXPECT_EQ(run.stderr_text,
              "irglc: error: --alb-threshold and --alb-distribution need --schedule=alb\n");
  }
  // With ALB they are accepted; ALB itself is not implemented yet.
  PassOptions alb;
  alb.schedule = schedule_named("alb");
  alb.alb_threshold = 4096;
  alb.alb_distribution = AlbDistribution::blocked;
  Module module;
  const PassRun run = run_standard(module, alb);
  EXPECT_EQ(run.stderr_text,
            "irglc: error: --schedule=alb: this version of irglc implements only the 'thread' "
            "schedule\n");
}

TEST(irglcDiagnosticPrinter, ShowsTheSourceLineAndACaret) {
  const std::string path = testing::TempDir() + "irglc_diagnostic_test.irgl";
  {
    std::ofstream file(path);
    file << "line one\n\tkernel x;\n";
  }
  DiagnosticPrinter diagnostics;
  EXPECT_FALSE(diagnostics.has_errors());
  testing::internal::CaptureStderr();
  diagnostics.error({path, 2, 3}, "bad thing");
  const std::string text = testing::internal::GetCapturedStderr();
  EXPECT_TRUE(diagnostics.has_errors());
  // The caret line keeps the tab, so it lines up under the source.
  EXPECT_EQ(text, path + ":2:3: error: bad thing\n\tkernel x;\n\t ^\n");
  std::remove(path.c_str());
}

// Counts its runs; reports an error when told to.
class ProbePass : public Pass {
 public:
  ProbePass(int& runs, bool fails) : runs_(runs), fails_(fails) {}
  const char* name() const override { return "probe"; }
  void run(Module&, const PassOptions&, DiagnosticPrinter& diagnostics) override {
    ++runs_;
    if (fails_) diagnostics.error("probe failed");
  }

 private:
  int& runs_;
  bool fails_;
};

TEST(irglcPassManager, StopsAfterThePassThatReportsErrors) {
  int first = 0, second = 0, third = 0;
  PassManager passes;
  passes.add(std::make_unique<ProbePass>(first, false));
  passes.add(std::make_unique<ProbePass>(second, true));
  passes.add(std::make_unique<ProbePass>(third, false));
  Module module;
  DiagnosticPrinter diagnostics;
  testing::internal::CaptureStderr();
  EXPECT_FALSE(passes.run(module, {}, diagnostics));
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "irglc: error: probe failed\n");
  EXPECT_EQ(first, 1);
  EXPECT_EQ(second, 1);
  EXPECT_EQ(third, 0);
}

}  // namespace
}  // namespace irglc
