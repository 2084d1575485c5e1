//===- CudaOutline.cpp - Outlined pipe loops in CUDA -----------------------===//

#include "CudaOutline.h"

#include "CudaKernels.h"

#include <algorithm>
#include <set>

namespace irglc {

namespace {

// One launch of an outlined loop's body: the member of the rounds struct
// that holds its Body.
struct Step {
  const HostStmt* launch;
  const Kernel* kernel;
  std::string name;    // the kernel's name and the step's number: expand_1
  std::string member;  // its Body's member: the name, prefixed in loops of iterations
};

// A loop of iterations prefixes its members with irgl_, a name the program
// cannot use (ReservedNames), since the driver's own text runs beside them.
std::vector<Step> steps_of(const Module& module, const HostStmt& loop) {
  const std::string prefix = loop.kind == HostStmt::Kind::loop ? "irgl_" : "";
  std::vector<Step> steps;
  for (const HostStmt& stmt : loop.body) {
    if (stmt.kind != HostStmt::Kind::launch && stmt.kind != HostStmt::Kind::for_all_nodes) continue;
    // Numbered, so that no two steps and none of round()'s names collide.
    const std::string name = stmt.kernel + "_" + std::to_string(steps.size() + 1);
    steps.push_back({&stmt, module.find_kernel(stmt.kernel), name, prefix + name});
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

// The driver code of a loop of iterations the device runs, in order:
// init, condition, increment, then the body's statements and the launch
// arguments it evaluates before each launch.
std::vector<const DeviceCode*> device_codes(const HostStmt& loop) {
  std::vector<const DeviceCode*> codes = {&loop.device_init, &loop.device_condition,
                                          &loop.device_increment};
  for (const HostStmt& stmt : loop.body) {
    if (stmt.kind == HostStmt::Kind::code) codes.push_back(&stmt.device);
    for (size_t a = 0; a < stmt.device_args.size(); ++a)
      if (argument_varies(loop, stmt, a)) codes.push_back(&stmt.device_args[a]);
  }
  return codes;
}

// The driver's variables the loop's code reads and does not declare: the
// members the host sets once.
std::vector<Variable> captured(const HostStmt& loop) {
  const std::set<std::string> own = loop_variables(loop);
  std::vector<Variable> vars;
  std::set<std::string> seen;
  for (const DeviceCode* code : device_codes(loop))
    for (const Variable& var : code->reads)
      if (!own.count(var.name) && seen.insert(var.name).second) vars.push_back(var);
  return vars;
}

// The reductions the loop's code resets or reads.
std::vector<std::string> reductions_of(const HostStmt& loop) {
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (const DeviceCode* code : device_codes(loop)) {
    if (code->kind == DeviceCode::Kind::reset && seen.insert(code->reduction).second)
      names.push_back(code->reduction);
    for (const std::string& name : code->reductions_read)
      if (seen.insert(name).second) names.push_back(name);
  }
  return names;
}

// The graph argument of a launch (kernels over all vertices take one).
std::string graph_argument(const Step& step) {
  for (size_t a = 0; a < step.kernel->params.size() && a < step.launch->args.size(); ++a)
    if (step.kernel->params[a].kind == ParamKind::graph) return step.launch->args[a];
  return step.kernel->loop.graph;
}

bool step_runs(const Step& step, ScheduleKind kind) {
  const auto& edge_loop = step.kernel->loop.edge_loop;
  return edge_loop && edge_loop->schedule.kind == kind;
}

// kRunsAlb and alb_inspects(): with an ALB (or auto) step the persistent
// kernel is built twice, and the host launches the one without ALB's
// inspection when no step can find a huge vertex (schedule/outline.cuh).
// kRunsAuto and auto_pick(): with an auto step, once more per schedule
// auto may pick in the kernel; all auto steps pick alike (schedule/auto.cuh),
// and a pipe loop's rounds on one block alike too (one_block_pick(); a
// loop of iterations keeps a thread per vertex there).
void write_schedule_members(CodeWriter& out, const std::vector<Step>& steps,
                            const BackendOptions& options, bool rounds) {
  std::string inspects, items, scratch;
  for (const Step& step : steps) {
    const bool automatic = step_runs(step, ScheduleKind::automatic);
    if (automatic && items.empty()) items = step.member + "_items";
    // dp's persistent form is ALB's (schedule/dynamic_parallelism.cuh).
    if (!automatic && !step_runs(step, ScheduleKind::alb) && !step_runs(step, ScheduleKind::dp))
      continue;
    if (!inspects.empty()) inspects += " || ";
    inspects += step.member + "_items.alb_inspects";
    scratch += std::string(scratch.empty() ? "" : ", ") +
               "schedule::alb_grid_scratch_bytes<" + std::to_string(options.block_threads) + ", " +
               body_name(*step.kernel) + ", schedule::" +
               (step.kernel->loop.domain == VertexDomain::all_nodes ? "AllNodes" : "WorklistItems") +
               ">()";
  }
  if (inspects.empty()) {
    out.line("static constexpr bool kRunsAlb = false;");
    return;
  }
  out.comment("A step runs ALB: its kernel without the inspection (TWC's code) runs when no vertex can be huge.");
  out.line("static constexpr bool kRunsAlb = true;");
  out.line("bool alb_inspects() const { return " + inspects + "; }");
  out.comment("The ALB steps share one shared-memory buffer, the largest any needs.");
  out.line("static constexpr size_t kAlbScratchBytes = std::max({" + scratch + "});");
  if (items.empty()) return;
  out.comment(rounds ? "An auto step: the kernel built for the schedule its graph picks runs, on the grid"
                     : "An auto step: the kernel built for the schedule its graph picks runs.");
  if (rounds) out.comment("and on one block.");
  out.line("static constexpr bool kRunsAuto = true;");
  out.line("schedule::AutoPick auto_pick() const { return " + items + ".auto_pick; }");
  if (rounds)
    out.line("schedule::AutoPick one_block_pick() const { return " + items + ".one_block_pick; }");
}

// The graph parameter of a step's kernel, or null.
const KernelParam* graph_param(const Step& step) {
  for (const KernelParam& param : step.kernel->params)
    if (param.kind == ParamKind::graph) return &param;
  return nullptr;
}

// Whether a step of the loop may write vertex data `field`: an update in a
// vertex loop (Kernel::field_accesses), or any prologue (not analysed).
bool steps_may_write(const std::vector<Step>& steps, const std::string& field) {
  return std::any_of(steps.begin(), steps.end(), [&](const Step& step) {
    const std::vector<FieldAccess>& accesses = step.kernel->field_accesses;
    return !step.kernel->prologue.empty() ||
           std::any_of(accesses.begin(), accesses.end(), [&](const FieldAccess& access) {
             return access.field == field && access.update != FieldUpdate::none;
           });
  });
}

// place(): the arrays the steps touch, so that a small graph's loop can run
// on one block with them in shared memory (schedule/shared_placement.cuh):
// each step's graph and the vertex data no step writes, read only, and the
// written vertex data and the reductions (the steps' and the loop code's
// `reductions`, one copy each), copied back after (Arrays, whose sizes the
// Body does not know, stay where they are). Every kernel takes the graph
// (the frontend requires it); without one the loop would have no place()
// and run on the grid.
void write_placement(CodeWriter& out, const Module& module, const std::vector<Step>& steps,
                     const std::vector<std::string>& reductions = {}) {
  for (const Step& step : steps)
    if (!graph_param(step)) return;
  out.line();
  out.comment("The arrays the steps touch, for a small graph's loop on one block in shared memory");
  out.comment("(schedule/shared_placement.cuh; --outline-shared).");
  out.line("template <class Place>");
  out.open("IRGL_HD void place(Place& place) {");
  for (const Step& step : steps) {
    const std::string graph = step.member + "." + graph_param(step)->var.name;
    out.line(graph + " = " + graph + ".placed(place);");
    for (const std::string& name : step.kernel->fields_used) {
      if (!module.find_field(name)->per_vertex) continue;
      const std::string view = step.member + "." + name + ".data";
      const char* access = steps_may_write(steps, name) ? "read_write" : "read_only";
      out.line(view + " = place." + access + "(" + view + ", " + graph + ".num_nodes());");
    }
    for (const std::string& name : step.kernel->reductions_used) {
      const std::string target = step.member + "." + name + ".target";
      out.line(target + " = place.read_write(" + target + ", 1);");
    }
  }
  for (const std::string& name : reductions)
    out.line(name + ".slot = place.read_write(" + name + ".slot, 1);");
  out.close();
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
  write_schedule_members(out, steps, options, /*rounds=*/true);
  write_placement(out, module, steps);
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

//===----------------------------------------------------------------------===//
// Loops of iterations (IterationOutlining: why_iterations_not_outlinable)
//===----------------------------------------------------------------------===//

// What a thread of the persistent kernel may not yet see since the last
// grid barrier: reductions read, reset or combined into by a kernel, and
// whether a kernel ran at all (the next one may read its vertex data).
struct Pending {
  std::set<std::string> read, reset, combined;
  bool launched = false;

  bool operator==(const Pending& other) const {
    return read == other.read && reset == other.reset && combined == other.combined &&
           launched == other.launched;
  }
  static bool meets(const std::set<std::string>& a, const std::vector<std::string>& b) {
    for (const std::string& name : b)
      if (a.count(name)) return true;
    return false;
  }
  // Whether a step needs a grid barrier before it: a reset after a read or
  // a combine of its reduction; a kernel after another kernel, or combining
  // into a reduction reset or read; a read of a reduction reset or
  // combined into.
  bool before_reset(const std::string& reduction) const {
    return read.count(reduction) || combined.count(reduction);
  }
  bool before_launch(const Kernel& kernel) const {
    return launched || meets(reset, kernel.reductions_used) || meets(read, kernel.reductions_used);
  }
  bool before_read(const std::vector<std::string>& reductions) const {
    return meets(reset, reductions) || meets(combined, reductions);
  }
};

// Writes (or, with `out` null, only simulates) one iteration's body from
// `pending`; returns what is pending at its end, a barrier before the
// loop's increment and condition included.
Pending write_iteration(CodeWriter* out, const Module& module, const HostStmt& loop,
                        const std::vector<Step>& steps, Pending pending,
                        const BackendOptions& options) {
  auto barrier = [&](bool needed) {
    if (!needed) return;
    if (out) out->line("irgl_grid.sync();");
    pending = Pending{};
  };
  auto note_read = [&](const std::vector<std::string>& reductions) {
    pending.read.insert(reductions.begin(), reductions.end());
  };
  size_t step = 0;
  bool leader_block = false;  // a reset's "if (irgl_leader) {" is open
  auto end_leader_block = [&] {
    if (leader_block && out) out->close();
    leader_block = false;
  };
  for (const HostStmt& stmt : loop.body) {
    if (stmt.kind == HostStmt::Kind::code && stmt.device.kind == DeviceCode::Kind::reset) {
      if (pending.before_reset(stmt.device.reduction) ||
          pending.before_read(stmt.device.reductions_read)) {
        end_leader_block();
        barrier(true);
      }
      if (!leader_block && out) out->open("if (irgl_leader) {  // one thread resets");
      leader_block = true;
      if (out) out->fragment(stmt.code);
      note_read(stmt.device.reductions_read);
      pending.reset.insert(stmt.device.reduction);
      continue;
    }
    end_leader_block();
    if (stmt.kind == HostStmt::Kind::code) {  // a local or a break
      barrier(pending.before_read(stmt.device.reductions_read));
      if (out) out->fragment(stmt.code);
      note_read(stmt.device.reductions_read);
      continue;
    }
    const Step& s = steps[step++];
    std::vector<size_t> varying;  // the arguments evaluated here, before the launch
    std::vector<std::string> arguments_read;
    for (size_t a = 0; a < s.launch->args.size() && a < s.kernel->params.size(); ++a) {
      if (!argument_varies(loop, *s.launch, a)) continue;
      varying.push_back(a);
      if (a < s.launch->device_args.size())
        for (const std::string& r : s.launch->device_args[a].reductions_read)
          arguments_read.push_back(r);
    }
    barrier(pending.before_read(arguments_read));
    if (varying.empty()) barrier(pending.before_launch(*s.kernel));  // above the launch's comment
    if (out) {
      out->comment(where(s.launch->loc) + ": " + launch_text(*s.launch));
      for (size_t a : varying)
        out->line(s.member + "." + s.kernel->params[a].var.name + " = " + s.launch->args[a] + ";");
    }
    note_read(arguments_read);
    barrier(pending.before_launch(*s.kernel));
    if (out)
      out->line("schedule::InGrid<" + policy(*s.kernel, options.block_threads) +
                ">::run(irgl_grid, " + s.member + ", " + grid_frontier(s, "") + ", " + s.member +
                "_items);");
    pending.launched = true;
    pending.combined.insert(s.kernel->reductions_used.begin(), s.kernel->reductions_used.end());
  }
  end_leader_block();
  std::vector<std::string> control_reads = loop.device_increment.reductions_read;
  control_reads.insert(control_reads.end(), loop.device_condition.reductions_read.begin(),
                       loop.device_condition.reductions_read.end());
  barrier(pending.before_read(control_reads));
  note_read(control_reads);
  return pending;
}

// What may be pending at the start of an iteration: the fixed point from
// "everything", and the reads of the loop's init (the first iteration
// starts after them, with nothing else pending).
Pending pending_at_start(const Module& module, const HostStmt& loop, const std::vector<Step>& steps,
                         const BackendOptions& options) {
  Pending all;
  all.launched = true;
  for (const Reduction& r : module.reductions) all.read.insert(r.name);
  all.reset = all.combined = all.read;
  for (;;) {
    Pending next = write_iteration(nullptr, module, loop, steps, all, options);
    if (next == all) break;
    all = next;
  }
  all.read.insert(loop.device_init.reductions_read.begin(), loop.device_init.reductions_read.end());
  return all;
}

void write_iterations_struct(CodeWriter& out, const Module& module, const HostStmt& loop,
                             const BackendOptions& options) {
  const std::vector<Step> steps = steps_of(module, loop);
  out.line();
  out.comment(where(loop.loc) + ": the loop's iterations, run by a persistent kernel");
  out.comment("(schedule/outline.cuh: OutlinedIterations) with the driver's code as it is, its");
  out.comment("variables and reductions members; grid barriers order resets, kernels and reads.");
  out.open("struct " + loop.outlined + "_iterations {");
  for (const Step& step : steps) {
    out.line(body_name(*step.kernel) + " " + step.member + ";  // " + where(step.launch->loc));
    out.line("schedule::GridItems<" + body_name(*step.kernel) + "> " + step.member + "_items;");
  }
  for (const Variable& var : captured(loop))
    out.line(var.type + " " + var.name + ";  // the driver's, the same in every iteration");
  const std::vector<std::string> reductions = reductions_of(loop);
  for (const std::string& name : reductions)
    out.line("ReductionValue<" + module.find_reduction(name)->value_type + "> " + name + ";");
  write_schedule_members(out, steps, options, /*rounds=*/false);
  write_placement(out, module, steps, reductions);
  out.line();
  out.line("template <int IrglBlockThreads, class IrglGrid>");
  out.open("__device__ void run(const IrglGrid& irgl_grid) {");
  out.line("[[maybe_unused]] const bool irgl_leader = schedule::global_thread() == 0;");
  const Pending start = pending_at_start(module, loop, steps, options);
  const std::string header = where(loop.loc);
  if (loop.form == HostStmt::LoopForm::do_while) out.open("do {  // " + header);
  else if (loop.form == HostStmt::LoopForm::for_loop)
    out.open("for (" + loop.init + "; " + loop.condition + "; " + loop.increment + ") {  // " + header);
  else out.open("while (" + loop.condition + ") {  // " + header);
  write_iteration(&out, module, loop, steps, start, options);
  if (loop.form == HostStmt::LoopForm::do_while) out.close("} while (" + loop.condition + ");");
  else out.close();
  out.close();
  out.close("};");
}

void visit_outlined(const HostBlock& block, const std::function<void(const HostStmt&)>& visit) {
  for (const HostStmt& stmt : block) {
    visit_outlined(stmt.body, visit);
    visit_outlined(stmt.else_body, visit);
    if (!stmt.outlined.empty()) visit(stmt);
  }
}

// Opens an outlined loop's device branch, `if (run.outline != off) {`,
// with its statics (kept between runs, per GPU): the loop's host side
// `host_class` and each step's State, then their references for this GPU.
void open_device_branch(CodeWriter& out, const std::vector<Step>& steps,
                        const std::string& host_class, const std::string& type,
                        const std::string& what, const BackendOptions& options) {
  out.open("if (" + out.run().name + ".outline != schedule::OutlineMode::off) {");
  out.comment(what);
  out.comment("Kept between runs, per GPU.");
  out.line("static schedule::PerDevice<schedule::" + host_class + "<" +
           std::to_string(options.block_threads) + ", " + type + ">> irgl_loops;");
  for (const Step& step : steps)
    out.line("static schedule::PerDevice<schedule::State<" + body_name(*step.kernel) + ">> irgl_" +
             step.name + "_states;");
  out.line("auto& irgl_loop = irgl_loops.current();");
  for (const Step& step : steps)
    out.line("auto& irgl_" + step.name + "_state = irgl_" + step.name + "_states.current();");
}

// Each step's Body, made from `args_of(step)`, and GridItems for the grid
// irgl_shape, as members of `holder`.
void write_step_items(CodeWriter& out, const std::vector<Step>& steps, const std::string& holder,
                      const std::function<std::string(const Step&)>& args_of,
                      const BackendOptions& options) {
  for (const Step& step : steps) {
    out.line(holder + "." + step.member + " = make_" + step.launch->kernel + "(" + args_of(step) +
             ");  // " + where(step.launch->loc));
    out.line(holder + "." + step.member + "_items = schedule::InGrid<" +
             policy(*step.kernel, options.block_threads) + ">::items(");
    out.line("    " + holder + "." + step.member + ", irgl_" + step.name + "_state, " +
             step.kernel->name + "_options(" + out.run().name + "), irgl_shape);");
    if (step.kernel->pushes_chain)
      out.line(holder + "." + step.member + "_items.chain = " + out.run().name + ".chain_length();");
  }
}

// The driver's device path of a loop of iterations, up to "} else {".
void write_iterations_loop(CodeWriter& out, const Module& module, const HostStmt& loop,
                           const BackendOptions& options) {
  const std::vector<Step> steps = steps_of(module, loop);
  const std::string type = loop.outlined + "_iterations";
  const std::string& run = out.run().name;
  open_device_branch(out, steps, "OutlinedIterations", type,
                     "The iterations in one kernel launch (" + type + ").", options);
  out.line("const schedule::OutlineShape irgl_shape = irgl_loop.shape(" +
           graph_argument(steps.front()) + ".num_nodes(), " + run + ".outline_blocks);");
  out.line("irgl_loop.set_shared_loops(" + run + ".outline_shared);");
  out.line(type + " irgl_iterations;");
  write_step_items(out, steps, "irgl_iterations", [&](const Step& step) {
    std::vector<std::string> args = step.launch->args;
    for (size_t a = 0; a < args.size() && a < step.kernel->params.size(); ++a)
      if (argument_varies(loop, *step.launch, a))
        args[a] = step.kernel->params[a].var.type + "{}";  // set on the device
    return comma_separated(args);
  }, options);
  for (const Variable& var : captured(loop))
    out.line("irgl_iterations." + var.name + " = " + var.name + ";");
  for (const std::string& name : reductions_of(loop))
    out.line("irgl_iterations." + name + " = " + name + ".device_value();");
  out.line("irgl_loop.run(irgl_iterations, " + steps.front().kernel->name + "_options(" + run +
           ").stream);");
  out.reopen("} else {  // a launch per kernel and iteration, the loop on the host");
}

void write_pipe_loop(CodeWriter& out, const Module& module, const HostStmt& loop,
                     const BackendOptions& options) {
  // Locals are prefixed irgl_ so that the launches' arguments (driver
  // variables) keep their meaning inside the block.
  const std::vector<Step> steps = steps_of(module, loop);
  const std::string rounds_type = loop.outlined + "_rounds";
  const std::string& run = out.run().name;
  open_device_branch(out, steps, "OutlinedLoop", rounds_type,
                     "The rounds in one kernel launch (" + rounds_type + "); the pipe is empty after.",
                     options);
  out.line("irgl_loop.set_shared_loops(" + run + ".outline_shared);");
  out.line("irgl_loop.set_one_block_items(" + run + ".one_block_items);");
  out.line("const schedule::OutlineShape irgl_shape = irgl_loop.shape(" + loop.name + ".storage(), " +
           loop.name + ".outline_grid());");
  out.line(rounds_type + " irgl_rounds;");
  write_step_items(out, steps, "irgl_rounds",
                   [](const Step& step) { return comma_separated(step.launch->args); }, options);
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

}  // namespace

void write_outlined_rounds(CodeWriter& out, const Module& module, const BackendOptions& options) {
  visit_outlined(module.driver.body, [&](const HostStmt& loop) {
    if (loop.kind == HostStmt::Kind::pipe_loop) write_rounds_struct(out, module, loop, options);
    else write_iterations_struct(out, module, loop, options);
  });
}

void write_outlined_loop(CodeWriter& out, const Module& module, const HostStmt& loop,
                         const BackendOptions& options) {
  if (loop.kind == HostStmt::Kind::pipe_loop) write_pipe_loop(out, module, loop, options);
  else write_iterations_loop(out, module, loop, options);
}

}  // namespace irglc
