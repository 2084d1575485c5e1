//===- CudaOutline.cpp - Outlined pipe loops in CUDA -----------------------===//

#include "CudaOutline.h"

#include "CudaKernels.h"

namespace irglc {

namespace {

// One launch of an outlined loop's body: the member of the rounds struct
// that holds its Body.
struct Step {
  const HostStmt* launch;
  const Kernel* kernel;
  std::string member;  // the kernel's name and the step's number: expand_1
};

std::vector<Step> steps_of(const Module& module, const HostStmt& loop) {
  std::vector<Step> steps;
  for (const HostStmt& stmt : loop.body) {
    if (stmt.kind != HostStmt::Kind::launch && stmt.kind != HostStmt::Kind::for_all_nodes) continue;
    // Numbered, so that no two steps and none of round()'s names collide.
    steps.push_back({&stmt, module.find_kernel(stmt.kernel),
                     stmt.kernel + "_" + std::to_string(steps.size() + 1)});
  }
  return steps;
}

const char* side_name(PipeSide side) { return side == PipeSide::in ? "in" : "out"; }

// The frontier a step's Body runs over inside round().
std::string grid_frontier(const Step& step, const std::string& pipe) {
  const VertexLoop& loop = step.kernel->loop;
  if (loop.domain == VertexDomain::all_nodes)
    return "schedule::AllNodes{" + step.member + "." + loop.graph + ".num_nodes()}";
  for (size_t a = 0; a < step.kernel->params.size(); ++a)
    if (step.kernel->params[a].var.name == loop.worklist)
      return std::string("schedule::WorklistItems{") +
             side_name(pipe_side(step.launch->args[a], pipe)) + "}";
  return "schedule::WorklistItems{in}";
}

bool step_runs(const Step& step, ScheduleKind kind) {
  const auto& edge_loop = step.kernel->loop.edge_loop;
  return edge_loop && edge_loop->schedule.kind == kind;
}

// kRunsAlb and alb_inspects(): with an ALB (or auto) step the persistent
// kernel is built twice, and the host launches the one without ALB's
// inspection when no step can find a huge vertex (schedule/outline.cuh).
// kRunsAuto and auto_pick(): with an auto step, once more per schedule
// auto may pick in the kernel; all auto steps pick alike (schedule/auto.cuh).
void write_schedule_members(CodeWriter& out, const std::vector<Step>& steps) {
  std::string inspects, pick;
  for (const Step& step : steps) {
    const bool automatic = step_runs(step, ScheduleKind::automatic);
    if (automatic && pick.empty()) pick = step.member + "_items.auto_pick";
    // dp's persistent form is ALB's (schedule/dynamic_parallelism.cuh).
    if (!automatic && !step_runs(step, ScheduleKind::alb) && !step_runs(step, ScheduleKind::dp))
      continue;
    if (!inspects.empty()) inspects += " || ";
    inspects += step.member + "_items.alb_inspects";
  }
  if (inspects.empty()) {
    out.line("static constexpr bool kRunsAlb = false;");
    return;
  }
  out.comment("A step runs ALB: its kernel without the inspection (TWC's code) runs when no vertex can be huge.");
  out.line("static constexpr bool kRunsAlb = true;");
  out.line("bool alb_inspects() const { return " + inspects + "; }");
  if (pick.empty()) return;
  out.comment("An auto step: the kernel built for the schedule its graph picks runs.");
  out.line("static constexpr bool kRunsAuto = true;");
  out.line("schedule::AutoPick auto_pick() const { return " + pick + "; }");
}

void write_rounds_struct(CodeWriter& out, const Module& module, const HostStmt& loop,
                         const BackendOptions& options) {
  const std::vector<Step> steps = steps_of(module, loop);
  out.line();
  out.comment(where(loop.loc) + ": one round of the loop over the pipe '" + loop.name +
              "', run by a persistent kernel");
  out.comment("(schedule/outline.cuh) with that round's worklists; kernels are separated by grid barriers.");
  out.open("struct " + loop.outlined + "_rounds {");
  for (const Step& step : steps) {
    out.line(body_name(*step.kernel) + " " + step.member + ";  // " + where(step.launch->loc));
    out.line("schedule::GridItems<" + body_name(*step.kernel) + "> " + step.member + "_items;");
  }
  write_schedule_members(out, steps);
  out.line();
  out.line("template <int BlockThreads, class Grid>");
  out.line("__device__ void round(const Grid& grid, const irgl::gpu::SparseQueueView& in,");
  out.open("                      const irgl::gpu::SparseQueueView& out) {");
  for (size_t s = 0; s < steps.size(); ++s) {
    const Step& step = steps[s];
    if (s > 0) out.line("grid.sync();");
    out.comment(where(step.launch->loc) + ": " + launch_text(*step.launch));
    for (size_t a = 0; a < step.kernel->params.size() && a < step.launch->args.size(); ++a) {
      if (step.kernel->params[a].kind != ParamKind::worklist) continue;
      const PipeSide side = pipe_side(step.launch->args[a], loop.name);
      if (side == PipeSide::none) {  // another pipe's out(), as the host built the Body
        out.comment(step.kernel->params[a].var.name + ": " + step.launch->args[a] +
                    ", collecting pushes across the rounds");
        continue;
      }
      out.line(step.member + "." + step.kernel->params[a].var.name + " = Worklist{" +
               side_name(side) + "};");
    }
    out.line("schedule::InGrid<" + policy(*step.kernel, options.block_threads) + ">::run(grid, " +
             step.member + ", " + grid_frontier(step, loop.name) + ", " + step.member + "_items);");
  }
  out.close();
  out.close("};");
}

void visit_outlined(const HostBlock& block, const std::function<void(const HostStmt&)>& visit) {
  for (const HostStmt& stmt : block) {
    visit_outlined(stmt.body, visit);
    visit_outlined(stmt.else_body, visit);
    if (stmt.kind == HostStmt::Kind::pipe_loop && !stmt.outlined.empty()) visit(stmt);
  }
}

}  // namespace

void write_outlined_rounds(CodeWriter& out, const Module& module, const BackendOptions& options) {
  visit_outlined(module.driver.body,
                 [&](const HostStmt& loop) { write_rounds_struct(out, module, loop, options); });
}

void write_outlined_loop(CodeWriter& out, const Module& module, const HostStmt& loop,
                         const BackendOptions& options) {
  // Locals are prefixed irgl_ so that the launches' arguments (driver
  // variables) keep their meaning inside the block.
  const std::vector<Step> steps = steps_of(module, loop);
  const std::string rounds_type = loop.outlined + "_rounds";
  const std::string threads = std::to_string(options.block_threads);
  const std::string& run = out.run().name;
  out.open("if (" + run + ".outline != schedule::OutlineMode::off) {");
  out.comment("The rounds in one kernel launch (" + rounds_type + "); the pipe is empty after.");
  out.comment("Kept between runs, per GPU.");
  out.line("static schedule::PerDevice<schedule::OutlinedLoop<" + threads + ", " + rounds_type +
           ">> irgl_loops;");
  for (const Step& step : steps)
    out.line("static schedule::PerDevice<schedule::State<" + body_name(*step.kernel) + ">> irgl_" +
             step.member + "_states;");
  out.line("auto& irgl_loop = irgl_loops.current();");
  for (const Step& step : steps)
    out.line("auto& irgl_" + step.member + "_state = irgl_" + step.member + "_states.current();");
  out.line("const schedule::OutlineShape irgl_shape = irgl_loop.shape(" + loop.name + ".storage());");
  out.line(rounds_type + " irgl_rounds;");
  for (const Step& step : steps) {
    out.line("irgl_rounds." + step.member + " = make_" + launch_text(*step.launch) + ";  // " +
             where(step.launch->loc));
    out.line("irgl_rounds." + step.member + "_items = schedule::InGrid<" +
             policy(*step.kernel, options.block_threads) + ">::items(");
    out.line("    irgl_rounds." + step.member + ", irgl_" + step.member + "_state, " +
             step.kernel->name + "_options(" + run + "), irgl_shape);");
  }
  out.comment("The rounds the kernel leaves to the host (--outline=auto: a heavy round, see");
  out.comment("heavy_round.h, or enough edges for a bitmap output), with a launch per kernel.");
  out.line("schedule::HostRounds irgl_host_rounds;");
  out.open("irgl_host_rounds.run = [&]() -> uint64_t {");
  out.line("const uint64_t irgl_size = " + loop.name + ".size();");
  out.line("if (irgl_size == 0) return 0;");
  for (const Step& step : steps)
    out.line(launch_text(*step.launch, out.run()) + ";  // " + where(step.launch->loc));
  out.line(loop.name + ".swap();");
  out.line("return irgl_size;");
  out.close("};");
  out.line("irgl_host_rounds.heavy_items = " + loop.name + ".heavy_round_items();");
  out.line("irgl_host_rounds.heavy_edges = " + loop.name + ".heavy_round_check();");
  out.line("irgl_host_rounds.dense = " + loop.name + ".dense_round_check();");
  out.line(loop.name + ".ran_on_device(irgl_loop.run(irgl_rounds, " + loop.name + ".storage(), " +
           run + ".outline, irgl_host_rounds));");
  out.reopen("} else {  // --outline=off: a launch per kernel and round");
}

}  // namespace irglc
