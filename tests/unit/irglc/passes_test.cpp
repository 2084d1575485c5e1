// The schedule-selection and iteration-outlining passes and the pass manager
// on hand-built modules;
// diagnostics are read from stderr.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <functional>
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

TEST(irglcScheduleSelection, DefaultsToAuto) {
  Module module;
  module.kernels.push_back(kernel_with_edge_loop("a", {"x.irgl", 3, 5}));
  Kernel no_edges;
  no_edges.name = "b";
  module.kernels.push_back(no_edges);
  const PassRun run = run_standard(module, {});
  EXPECT_TRUE(run.ok);
  EXPECT_EQ(run.stderr_text, "");
  const Schedule& schedule = module.kernels[0].loop.edge_loop->schedule;
  EXPECT_EQ(schedule.name(), "auto");
  EXPECT_FALSE(schedule.alb_threshold.has_value());
  EXPECT_EQ(schedule.alb_distribution, AlbDistribution::cyclic);
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

TEST(irglcScheduleSelection, AppliesEveryScheduleOfTheOption) {
  for (const char* name :
       {"thread", "warp", "block", "group:2", "group:256", "twc", "lb", "merge-path", "alb"}) {
    Module module;
    module.kernels.push_back(kernel_with_edge_loop("a", {"x.irgl", 3, 5}));
    PassOptions options;
    options.schedule = schedule_named(name);
    const PassRun run = run_standard(module, options);
    EXPECT_TRUE(run.ok) << name;
    EXPECT_EQ(run.stderr_text, "") << name;
    EXPECT_EQ(module.kernels[0].loop.edge_loop->schedule.name(), name);
  }
}

TEST(irglcScheduleSelection, RejectsAnOptionGroupLargerThanTheBlock) {
  Module module;
  module.kernels.push_back(kernel_with_edge_loop("a", {"x.irgl", 3, 5}));
  PassOptions options;
  options.schedule = schedule_named("group:512");
  PassRun run = run_standard(module, options);
  EXPECT_FALSE(run.ok);
  EXPECT_EQ(run.stderr_text,
            "irglc: error: --schedule=group:512: groups of 512 threads do not fit in blocks of "
            "256 (--block-threads)\n");
  // Blocks of 512 threads hold it.
  options.block_threads = 512;
  run = run_standard(module, options);
  EXPECT_TRUE(run.ok) << run.stderr_text;
  EXPECT_EQ(module.kernels[0].loop.edge_loop->schedule.name(), "group:512");
}

TEST(irglcScheduleSelection, RejectsEveryAnnotatedGroupLargerThanTheBlockAtItsPragma) {
  Module module;
  module.kernels.push_back(kernel_with_edge_loop("a", {"x.irgl", 3, 5}));
  module.kernels.push_back(kernel_with_edge_loop("b", {"x.irgl", 9, 5}));
  module.kernels.push_back(kernel_with_edge_loop("c", {"x.irgl", 15, 5}));
  module.kernels[0].loop.edge_loop->annotation = schedule_named("group:64");
  module.kernels[0].loop.edge_loop->annotation_loc = {"no-such-dir/x.irgl", 2, 23};
  module.kernels[1].loop.edge_loop->annotation = schedule_named("group:32");
  module.kernels[2].loop.edge_loop->annotation = schedule_named("group:1024");
  module.kernels[2].loop.edge_loop->annotation_loc = {"no-such-dir/x.irgl", 14, 23};
  PassOptions options;
  options.block_threads = 32;
  const PassRun run = run_standard(module, options);
  EXPECT_FALSE(run.ok);
  // Both are reported (the file is unreadable, so without a source line).
  EXPECT_EQ(run.stderr_text,
            "no-such-dir/x.irgl:2:23: error: schedule 'group:64': groups of 64 threads do not "
            "fit in blocks of 32 (--block-threads)\n"
            "no-such-dir/x.irgl:14:23: error: schedule 'group:1024': groups of 1024 threads do "
            "not fit in blocks of 32 (--block-threads)\n");
  EXPECT_EQ(module.kernels[1].loop.edge_loop->schedule.name(), "group:32");
}

TEST(irglcScheduleSelection, AlbOptionsNeedTheAlbSchedule) {
  PassOptions distribution;
  distribution.schedule = schedule_named("twc");
  distribution.alb_distribution = AlbDistribution::blocked;
  Module module;
  module.kernels.push_back(kernel_with_edge_loop("a", {"x.irgl", 3, 5}));
  const PassRun run = run_standard(module, distribution);
  EXPECT_FALSE(run.ok);
  EXPECT_EQ(run.stderr_text,
            "irglc: error: --alb-threshold and --alb-distribution apply only to schedules 'alb' "
            "and 'auto' (the default), not --schedule=twc\n");
}

TEST(irglcScheduleSelection, AlbOptionsConfigureTheOptionsAndTheDefaultSchedule) {
  PassOptions threshold;  // no --schedule: the default, auto
  threshold.alb_threshold = 4096;
  PassOptions both;
  both.schedule = schedule_named("alb");
  both.alb_threshold = 100;
  both.alb_distribution = AlbDistribution::blocked;
  for (const PassOptions& options : {threshold, both}) {
    Module module;
    module.kernels.push_back(kernel_with_edge_loop("a", {"x.irgl", 3, 5}));
    // An annotated ALB loop keeps its own options.
    module.kernels.push_back(kernel_with_edge_loop("b", {"x.irgl", 9, 5}));
    module.kernels[1].loop.edge_loop->annotation = schedule_named("alb");
    const PassRun run = run_standard(module, options);
    ASSERT_TRUE(run.ok) << run.stderr_text;
    const Schedule& schedule = module.kernels[0].loop.edge_loop->schedule;
    EXPECT_EQ(schedule.kind, options.schedule ? ScheduleKind::alb : ScheduleKind::automatic);
    EXPECT_EQ(schedule.alb_threshold, options.alb_threshold);
    EXPECT_EQ(schedule.alb_distribution,
              options.alb_distribution.value_or(AlbDistribution::cyclic));
    const Schedule& annotated = module.kernels[1].loop.edge_loop->schedule;
    EXPECT_FALSE(annotated.alb_threshold.has_value());
    EXPECT_EQ(annotated.alb_distribution, AlbDistribution::cyclic);
  }
}

// An ALB loop whose work per edge varies gets threshold 0 (every edge
// spread) unless one is named; other loops and schedules keep theirs.
TEST(irglcScheduleSelection, VaryingWorkPerEdgeSpreadsEveryEdgeUnderAlb) {
  PassOptions defaults;
  defaults.block_threads = 128;
  PassOptions named = defaults;
  named.alb_threshold = 4096;
  PassOptions twc = defaults;
  twc.schedule = schedule_named("twc");
  for (const PassOptions* options : {&defaults, &named, &twc}) {
    Module module;
    module.kernels.push_back(kernel_with_edge_loop("varies", {"x.irgl", 3, 5}));
    module.kernels[0].loop.edge_loop->work_per_edge_varies = true;
    module.kernels.push_back(kernel_with_edge_loop("fixed", {"x.irgl", 9, 5}));
    const PassRun run = run_standard(module, *options);
    ASSERT_TRUE(run.ok) << run.stderr_text;
    const Schedule& varies = module.kernels[0].loop.edge_loop->schedule;
    const Schedule& fixed = module.kernels[1].loop.edge_loop->schedule;
    EXPECT_EQ(fixed.alb_threshold, options->alb_threshold);
    EXPECT_FALSE(fixed.alb_threshold_for_varying_work);
    if (options == &defaults) {
      EXPECT_EQ(varies.alb_threshold, 0u);
      EXPECT_TRUE(varies.alb_threshold_for_varying_work);
    } else {
      EXPECT_EQ(varies.alb_threshold, options->alb_threshold);
      EXPECT_FALSE(varies.alb_threshold_for_varying_work);
    }
  }
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

// A driver `while (!pipe.empty()) { expand(g, <args>); <last>; }` around
// the kernel expand(graph, scalar, worklist in, worklist out).
Module pipe_loop_module(const std::vector<std::string>& args, const std::string& last) {
  Module module;
  Kernel kernel = kernel_with_edge_loop("expand", {"bfs.irgl", 8, 1});
  kernel.params = {{ParamKind::graph, {"g", "Graph"}},
                   {ParamKind::scalar, {"step", "uint32_t"}},
                   {ParamKind::worklist, {"in", "Worklist"}},
                   {ParamKind::worklist, {"out", "Worklist"}}};
  kernel.loop.domain = VertexDomain::worklist;  // for (Node n : in), pushing to out
  kernel.loop.worklist = "in";
  kernel.worklists_pushed = {"out"};
  module.kernels.push_back(kernel);
  HostStmt loop;
  loop.kind = HostStmt::Kind::pipe_loop;
  loop.name = "pipe";
  loop.loc = {"bfs.irgl", 25, 3};
  HostStmt launch;
  launch.kind = HostStmt::Kind::launch;
  launch.kernel = "expand";
  launch.args = args;
  launch.loc = {"bfs.irgl", 26, 5};
  loop.body.push_back(launch);
  HostStmt swap;
  swap.kind = HostStmt::Kind::code;
  swap.code = CodeFragment::text(last);
  swap.loc = {"bfs.irgl", 27, 5};
  loop.body.push_back(swap);
  module.driver.body.push_back(loop);
  return module;
}

TEST(irglcIterationOutlining, OutlinesALoopOfLaunchesAndTheSwap) {
  Module module = pipe_loop_module({"g", "1", "pipe.in()", "pipe . out ()"}, "pipe.swap();");
  const PassRun run = run_standard(module, {});
  EXPECT_TRUE(run.ok) << run.stderr_text;
  EXPECT_EQ(module.driver.body[0].outlined, "pipe_loop_line25");
}

// Another pipe's out() that the rounds push to (a near-far pile) keeps the
// loop outlinable.
TEST(irglcIterationOutlining, OutlinesPushesToAnotherPipesOutput) {
  Module module = pipe_loop_module({"g", "step", "pipe.in()", "far.out()"}, "pipe.swap();");
  PassOptions on;
  on.outline = PassOptions::Outline::on;
  const PassRun run = run_standard(module, on);
  EXPECT_TRUE(run.ok) << run.stderr_text;
  EXPECT_EQ(module.driver.body[0].outlined, "pipe_loop_line25");
}

TEST(irglcIterationOutlining, OffOutlinesNothingAndInstrumentationKeepsHostLoops) {
  Module module = pipe_loop_module({"g", "step", "pipe.in()", "pipe.out()"}, "pipe.swap();");
  PassOptions off;
  off.outline = PassOptions::Outline::off;
  EXPECT_TRUE(run_standard(module, off).ok);
  EXPECT_EQ(module.driver.body[0].outlined, "");
  PassOptions instrumented;
  instrumented.instrument_load = true;
  EXPECT_TRUE(run_standard(module, instrumented).ok);
  EXPECT_EQ(module.driver.body[0].outlined, "");
}

TEST(irglcIterationOutlining, OnReportsWhyALoopCannotBeOutlined) {
  struct Case {
    std::vector<std::string> args;
    std::string last, why;
  };
  const Case cases[] = {
      {{"g", "step + 1", "pipe.in()", "pipe.out()"}, "pipe.swap();",
       "the argument 'step + 1' of expand is an expression"},
      {{"g", "step", "other.in()", "pipe.out()"}, "pipe.swap();",
       "the worklist argument 'other.in()' of expand is not pipe.in(), pipe.out() or another "
       "pipe's out()"},
      {{"g", "step", "other.out()", "pipe.out()"}, "pipe.swap();",
       "expand iterates over other.out(), which is not a round of pipe"},
      {{"g", "step", "pipe.in()", "pipe.out()"}, "rounds++;",
       "its body does not end with pipe.swap()"},
  };
  for (const Case& c : cases) {
    Module module = pipe_loop_module(c.args, c.last);
    PassOptions on;
    on.outline = PassOptions::Outline::on;
    const PassRun run = run_standard(module, on);
    EXPECT_FALSE(run.ok) << c.why;
    EXPECT_NE(run.stderr_text.find("bfs.irgl:25:3: error: cannot outline this pipe loop "
                                   "(--outline=on): " + c.why),
              std::string::npos)
        << run.stderr_text;
    Module automatic = pipe_loop_module(c.args, c.last);
    EXPECT_TRUE(run_standard(automatic, {}).ok);  // auto: the loop stays on the host
    EXPECT_EQ(automatic.driver.body[0].outlined, "");
  }
}

// A driver `for (int i = 0; i < rounds; ++i) { total = 0; <local>;
// pull(g, base, <round>); if (total.value() == 0) break; }` around the
// kernel pull(graph, scalar base, scalar round) over all vertices; the
// DeviceCode is what the frontend would record.
Module iterations_module(const std::string& round_arg) {
  Module module;
  module.reductions.push_back({"total", "double", ReductionOp::sum, {"pr.irgl", 3, 1}});
  Kernel kernel = kernel_with_edge_loop("pull", {"pr.irgl", 8, 1});
  kernel.params = {{ParamKind::graph, {"g", "Graph"}},
                   {ParamKind::scalar, {"base", "float"}},
                   {ParamKind::scalar, {"round", "uint32_t"}}};
  kernel.loop.domain = VertexDomain::all_nodes;
  kernel.reductions_used = {"total"};
  module.kernels.push_back(kernel);
  HostStmt loop;
  loop.kind = HostStmt::Kind::loop;
  loop.form = HostStmt::LoopForm::for_loop;
  loop.loc = {"pr.irgl", 33, 3};
  loop.device_init.kind = DeviceCode::Kind::local;
  loop.device_init.declared = {"i", "int"};
  loop.device_condition.kind = DeviceCode::Kind::expression;
  loop.device_condition.reads = {{"i", "int"}, {"rounds", "int"}};
  loop.device_increment.kind = DeviceCode::Kind::expression;
  loop.device_increment.writes = {"i"};
  auto code = [](unsigned line, DeviceCode device) {
    HostStmt stmt;
    stmt.kind = HostStmt::Kind::code;
    stmt.loc = {"pr.irgl", line, 5};
    stmt.device = std::move(device);
    return stmt;
  };
  DeviceCode reset;
  reset.kind = DeviceCode::Kind::reset;
  reset.reduction = "total";
  loop.body.push_back(code(34, reset));
  DeviceCode local;
  local.kind = DeviceCode::Kind::local;
  local.declared = {"base", "const float"};
  local.reductions_read = {"total"};
  loop.body.push_back(code(35, local));
  HostStmt launch;
  launch.kind = HostStmt::Kind::launch;
  launch.kernel = "pull";
  launch.args = {"g", "base", round_arg};
  launch.loc = {"pr.irgl", 36, 5};
  for (const std::string& arg : launch.args) {  // as the frontend reads them
    DeviceCode code;
    code.kind = arg == "g" ? DeviceCode::Kind::host : DeviceCode::Kind::expression;
    if (arg == "g") code.why = "'g' is not a number";
    for (const std::string& name : identifiers_in(arg)) code.reads.push_back({name, "int"});
    launch.device_args.push_back(code);
  }
  loop.body.push_back(launch);
  DeviceCode exit;
  exit.kind = DeviceCode::Kind::break_if;
  exit.reductions_read = {"total"};
  loop.body.push_back(code(37, exit));
  module.driver.body.push_back(loop);
  return module;
}

TEST(irglcIterationOutlining, OutlinesALoopOfKernelsOverAllVertices) {
  for (const char* round : {"i + 1", "i", "7", "rounds", "i + rounds"}) {
    Module module = iterations_module(round);
    const PassRun run = run_standard(module, {});
    EXPECT_TRUE(run.ok) << run.stderr_text;
    const HostStmt& loop = module.driver.body[0];
    EXPECT_EQ(loop.outlined, "loop_line33") << round;
    EXPECT_EQ(loop.kept_on_host, "") << round;
    // Evaluated on the device each iteration when it reads the counter.
    EXPECT_EQ(argument_varies(loop, loop.body[2], 2), std::string(round).find('i') == 0) << round;
  }
  // An argument reading a reduction's value changes too.
  Module module = iterations_module("n");
  module.driver.body[0].body[2].device_args[2].reductions_read = {"total"};
  EXPECT_TRUE(run_standard(module, {}).ok);
  EXPECT_EQ(module.driver.body[0].outlined, "loop_line33");
  EXPECT_TRUE(argument_varies(module.driver.body[0], module.driver.body[0].body[2], 2));
}

TEST(irglcIterationOutlining, KeepsOtherLoopsOfIterationsOnTheHostAndSaysWhy) {
  struct Case {
    std::function<void(Module&)> change;
    std::string why;
  };
  auto loop_of = [](Module& module) -> HostStmt& { return module.driver.body[0]; };
  const Case cases[] = {
      {[&](Module& m) {
         loop_of(m).body[1].device = {};
         loop_of(m).body[1].device.why = "'f(x)' calls a host function";
       },
       "line 35 stays on the host: 'f(x)' calls a host function"},
      {[&](Module& m) { loop_of(m).device_increment.writes = {"done"}; },
       "its increment assigns 'done', which the loop does not declare"},
      {[&](Module& m) {
         loop_of(m).device_init = {};
         loop_of(m).device_init.why = "does not declare the loop's counter";
       },
       "its init does not declare the loop's counter"},
      {[&](Module& m) {
         loop_of(m).body[2].args[2] = "f(x)";
         loop_of(m).body[2].device_args[2] = {};
         loop_of(m).body[2].device_args[2].why = "'f(x)' calls a host function";
       },
       "the argument 'f(x)' of pull stays on the host: 'f(x)' calls a host function"},
      {[&](Module& m) { loop_of(m).body[2].args[0] = "i"; },
       "the argument 'i' of pull is a graph the loop declares"},
      {[&](Module& m) {
         HostStmt local = loop_of(m).body[1];
         local.device.declared = {"rounds", "int"};
         local.loc.line = 38;
         loop_of(m).body.push_back(local);
       },
       "line 38 declares 'rounds', a name the loop also reads from the program"},
      {[&](Module& m) { m.kernels[0].loop.domain = VertexDomain::worklist; },
       "pull does not run over all vertices"},
      {[&](Module& m) {
         HostStmt inner;
         inner.kind = HostStmt::Kind::if_else;
         inner.loc = {"pr.irgl", 38, 5};
         loop_of(m).body.push_back(inner);
       },
       "line 38 is a loop, an if or an output; outlined iterations hold launches and plain "
       "statements only"},
  };
  for (const Case& c : cases) {
    Module module = iterations_module("i + 1");
    c.change(module);
    PassOptions on;  // --outline=on asks for pipe loops only: no error
    on.outline = PassOptions::Outline::on;
    const PassRun run = run_standard(module, on);
    EXPECT_TRUE(run.ok) << run.stderr_text;
    EXPECT_EQ(loop_of(module).outlined, "") << c.why;
    EXPECT_EQ(loop_of(module).kept_on_host, c.why);
  }
  Module instrumented = iterations_module("i + 1");
  PassOptions options;
  options.instrument_load = true;
  EXPECT_TRUE(run_standard(instrumented, options).ok);
  EXPECT_EQ(loop_of(instrumented).outlined, "");
  Module wide = iterations_module("i + 1");
  options = {};
  options.block_threads = 1024;
  EXPECT_TRUE(run_standard(wide, options).ok);
  EXPECT_EQ(loop_of(wide).outlined, "");
  EXPECT_EQ(loop_of(wide).kept_on_host,
            "above 256 threads per block (--block-threads) its persistent kernel's shared memory "
            "may exceed 48 KB");
  Module off = iterations_module("i + 1");
  options = {};
  options.outline = PassOptions::Outline::off;
  EXPECT_TRUE(run_standard(off, options).ok);
  EXPECT_EQ(loop_of(off).outlined, "");
  EXPECT_EQ(loop_of(off).kept_on_host, "");
}

TEST(irglcIterationOutlining, IdentifiersOfAnArgumentSkipMembersAndNumbers) {
  EXPECT_EQ(identifiers_in("a.b + c->d + ns::e + 0x1fu + 1.5e3f + f_2(g)"),
            (std::vector<std::string>{"a", "c", "ns", "f_2", "g"}));
}

}  // namespace
}  // namespace irglc
