//===- IterationOutlining.cpp - Driver loops as one persistent kernel ------===//
//
// A driver loop `while (!pipe.empty()) { k1(...); k2(...); pipe.swap(); }`
// costs a launch per kernel and a host round trip (the pipe's size) per
// round; on a road graph with thousands of tiny rounds that is most of the
// time. When the loop's body is nothing but launches and the final swap,
// and every argument is the same in every round (a variable, a literal, or
// the pipe's in() / out(), which rotate on the device, or another pipe's
// out() that no kernel iterates), the CUDA backend runs all rounds in one
// cooperative kernel (runtime/include/irgl/gpu/
// schedule/outline.cuh), ALB's huge-vertex phase included.
//
// Other driver loops holding launches (PageRank's iterations, a do-while
// over a reduction) pay the same per iteration, and more: each reset and
// read of a reduction is a host round trip. When the body is launches of
// kernels over all vertices and driver code the GPU can run (numbers
// declared from options, constants and reductions' values, resets, `if
// (c) break;`: DeviceCode), the whole loop runs in one cooperative kernel
// too, on graphs where an iteration is light (OutlinedIterations).
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cctype>
#include <set>

#include "irglc/Passes/Passes.h"

namespace irglc {

namespace {

bool is_identifier(const std::string& text) {
  if (text.empty() || !(std::isalpha(static_cast<unsigned char>(text[0])) || text[0] == '_'))
    return false;
  for (char c : text)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

bool is_number(const std::string& text) {
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return false;
  for (char c : text)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '\'')) return false;
  return true;
}

std::string compact_text(const CodeFragment& code) {
  std::string text;
  for (const CodeSegment& segment : code.segments)
    for (char c : segment.text)
      if (!std::isspace(static_cast<unsigned char>(c))) text += c;
  return text;
}

// Why the worklist argument `arg` of `launch`, another pipe's out(), keeps
// `loop` on the host, or "". Such a worklist collects pushes across the
// rounds (a near-far pile, say): its pushes and its size() read after a
// grid barrier are what they would be after a launch, and its pipe swaps
// on the host after the loop. It is not a round's frontier, so no kernel
// may iterate over it.
std::string other_pipe_problem(const HostStmt& loop, const HostStmt& launch, const Kernel& kernel,
                               const KernelParam& param, const std::string& arg) {
  const std::string other = output_pipe(arg);
  if (other.empty() || !is_identifier(other) || other == loop.name)
    return "the worklist argument '" + arg + "' of " + launch.kernel + " is not " + loop.name +
           ".in(), " + loop.name + ".out() or another pipe's out()";
  if (kernel.loop.domain == VertexDomain::worklist && kernel.loop.worklist == param.var.name)
    return launch.kernel + " iterates over " + arg + ", which is not a round of " + loop.name;
  return "";
}

// Why argument `a` of `launch` (of `kernel`) keeps `loop` on the host, or "".
// Worklists must be the pipe's, or another pipe's out() not iterated, and
// nothing may push to the round's input: every thread decides from its
// size whether the round runs in the kernel, so it must not change during
// the round. Other arguments are evaluated once, before the first round:
// variables and literals, but not reductions, whose value the kernels
// change from round to round.
std::string argument_problem(const Module& module, const HostStmt& loop, const HostStmt& launch,
                             const Kernel& kernel, size_t a) {
  const std::string& arg = launch.args[a];
  const KernelParam& param = kernel.params[a];
  const std::string where = "the argument '" + arg + "' of " + launch.kernel;
  if (param.kind == ParamKind::task_pool)
    return kernel.loop.domain == VertexDomain::tasks
               ? launch.kernel + " runs a task pool, a kernel of its own"
               : launch.kernel + " pushes to the task pool '" + arg +
                     "', whose room the host grants at each launch";
  if (param.kind == ParamKind::worklist) {
    const PipeSide side = pipe_side(arg, loop.name);
    if (side == PipeSide::none) return other_pipe_problem(loop, launch, kernel, param, arg);
    bool pushed = false;
    for (const std::string& name : kernel.worklists_pushed) pushed |= name == param.var.name;
    if (pushed && side == PipeSide::in)
      return launch.kernel + " pushes to " + loop.name +
             ".in(), the input of the round it runs in";
    if (pushed && kernel.loop.domain == VertexDomain::worklist) {
      for (size_t b = 0; b < kernel.params.size() && b < launch.args.size(); ++b)
        if (kernel.params[b].var.name == kernel.loop.worklist && b != a &&
            pipe_side(launch.args[b], loop.name) == side)
          return launch.kernel + " pushes to the worklist it iterates over";
    }
    return "";
  }
  if (module.find_reduction(arg))
    return where + " is a reduction, which the host loop reads again every round";
  if (!is_identifier(arg) && !is_number(arg))
    return where + " is an expression; outlined rounds take variables and literals, evaluated once";
  return "";
}

// Why the kernel a launch runs has no place in a persistent kernel, or "".
std::string kernel_problem(const Kernel* kernel, const HostStmt& launch) {
  if (!kernel) return "it launches an unknown kernel '" + launch.kernel + "'";
  if (kernel->loop.edge_loop && kernel->loop.edge_loop->schedule.kind == ScheduleKind::user)
    return kernel->name + " runs your own schedule '" + kernel->loop.edge_loop->schedule.name() +
           "', which has no persistent form irglc knows of";
  return "";
}

// Why the rounds of `loop` cannot run in one kernel, or "" when they can.
std::string why_not_outlinable(const Module& module, const HostStmt& loop) {
  const HostBlock& body = loop.body;
  if (body.empty() || body.back().kind != HostStmt::Kind::code ||
      compact_text(body.back().code) != loop.name + ".swap();")
    return "its body does not end with " + loop.name + ".swap()";
  for (size_t i = 0; i + 1 < body.size(); ++i) {
    const HostStmt& stmt = body[i];
    if (stmt.kind != HostStmt::Kind::launch && stmt.kind != HostStmt::Kind::for_all_nodes)
      return "line " + std::to_string(stmt.loc.line) +
             " is host code; only kernel launches and the final swap can run on the device";
    const Kernel* kernel = module.find_kernel(stmt.kernel);
    if (std::string problem = kernel_problem(kernel, stmt); !problem.empty()) return problem;
    for (size_t a = 0; a < stmt.args.size() && a < kernel->params.size(); ++a) {
      if (std::string problem = argument_problem(module, loop, stmt, *kernel, a); !problem.empty())
        return problem;
    }
  }
  return "";
}

// Why argument `a` of `launch` keeps a loop of iterations on the host, or
// "". `own`: the variables the loop declares (its counter, its body's
// locals). An argument that reads none of them and no reduction is the
// same in every iteration and is evaluated once, before the kernel; any
// other is evaluated on the device before each launch. Either way it must
// be code the device could run (DeviceCode): a host call would run once
// instead of once per iteration.
std::string iteration_argument_problem(const HostStmt& launch, const Kernel& kernel, size_t a,
                                       const std::set<std::string>& own) {
  const std::string& arg = launch.args[a];
  const KernelParam& param = kernel.params[a];
  const std::string where = "the argument '" + arg + "' of " + launch.kernel;
  if (param.kind == ParamKind::worklist || param.kind == ParamKind::task_pool)
    return launch.kernel + " takes the worklist or task pool '" + arg +
           "'; outlined iterations run kernels over all vertices";
  size_t reads_own = 0;
  const std::vector<std::string> names = identifiers_in(arg);
  for (const std::string& name : names) reads_own += own.count(name);
  if (param.kind == ParamKind::graph)
    return reads_own ? where + " is a graph the loop declares" : "";
  if (a < launch.device_args.size()) {  // a kernel's launch
    const DeviceCode& code = launch.device_args[a];
    if (code.kind == DeviceCode::Kind::host)
      return where + " stays on the host: " + code.why;
    return "";
  }
  // for_all_nodes: the variables its body captures, by name.
  if (reads_own && !(param.kind == ParamKind::scalar && own.count(arg)))
    return where + " changes from one iteration to the next and reads more than the loop's "
                   "variables";
  return "";
}

// Why the iterations of `loop`, a for, while or do-while holding launches,
// cannot run in one kernel, or "" when they can: its body must be launches
// of kernels over all vertices and driver code the device can run
// (DeviceCode), and only its increment may assign, only its own counter.
std::string why_iterations_not_outlinable(const Module& module, const HostStmt& loop) {
  const std::pair<const DeviceCode*, const char*> control[] = {
      {&loop.device_init, "init"}, {&loop.device_condition, "condition"},
      {&loop.device_increment, "increment"}};
  for (const auto& [code, part] : control)
    if (code->kind == DeviceCode::Kind::host)
      return std::string("its ") + part + " " +
             (code->why.empty() ? "is not code the GPU can run" : code->why);
  std::set<std::string> own;
  if (loop.device_init.kind == DeviceCode::Kind::local) own.insert(loop.device_init.declared.name);
  for (const std::string& name : loop.device_increment.writes)
    if (!own.count(name))
      return "its increment assigns '" + name + "', which the loop does not declare";
  // The driver's variables the loop reads: they become members of the
  // loop's struct, so no local of the body may take one's name (the
  // condition and increment see the driver's, not the body's).
  std::set<std::string> outer;
  auto note_reads = [&](const DeviceCode& code) {
    for (const Variable& var : code.reads)
      if (!own.count(var.name)) outer.insert(var.name);
  };
  note_reads(loop.device_condition);
  note_reads(loop.device_increment);
  for (const HostStmt& stmt : loop.body) {
    const std::string line = "line " + std::to_string(stmt.loc.line);
    if (stmt.kind == HostStmt::Kind::code) {
      if (stmt.device.kind == DeviceCode::Kind::host)
        return line + " stays on the host: " + stmt.device.why;
      note_reads(stmt.device);
      if (stmt.device.kind == DeviceCode::Kind::local) {
        if (outer.count(stmt.device.declared.name))
          return line + " declares '" + stmt.device.declared.name +
                 "', a name the loop also reads from the program";
        own.insert(stmt.device.declared.name);
      }
      continue;
    }
    for (const DeviceCode& arg : stmt.device_args) note_reads(arg);
    if (stmt.kind != HostStmt::Kind::launch && stmt.kind != HostStmt::Kind::for_all_nodes)
      return line + " is a loop, an if or an output; outlined iterations hold launches and "
                    "plain statements only";
    const Kernel* kernel = module.find_kernel(stmt.kernel);
    if (std::string problem = kernel_problem(kernel, stmt); !problem.empty()) return problem;
    if (kernel->loop.domain != VertexDomain::all_nodes)
      return stmt.kernel + " does not run over all vertices";
    for (size_t a = 0; a < stmt.args.size() && a < kernel->params.size(); ++a)
      if (std::string problem = iteration_argument_problem(stmt, *kernel, a, own);
          !problem.empty())
        return problem;
  }
  return "";
}

constexpr const char* kInstrumented =
    "--instrument=load records every launch; outlined rounds have one";
// A persistent kernel holds every step's shared memory at once; at 1,024
// threads coloring's (two steps, auto's warp pick) took 79 KB of the 48 KB
// static shared memory allows. Loops of iterations, which ran as host
// loops before irglc outlined them, keep doing so above 256 threads.
constexpr unsigned kIterationsMaxBlockThreads = 256;
constexpr const char* kTooManyThreads =
    "above 256 threads per block (--block-threads) its persistent kernel's shared memory may "
    "exceed 48 KB";

class IterationOutlining : public Pass {
 public:
  const char* name() const override { return "iteration-outlining"; }

  void run(Module& module, const PassOptions& options, DiagnosticPrinter& diagnostics) override {
    if (options.outline == PassOptions::Outline::off) return;
    visit(module, module.driver.body, options, diagnostics);
  }

 private:
  void visit(const Module& module, HostBlock& block, const PassOptions& options,
             DiagnosticPrinter& diagnostics) {
    for (HostStmt& stmt : block) {
      visit(module, stmt.body, options, diagnostics);
      visit(module, stmt.else_body, options, diagnostics);
      if (stmt.kind == HostStmt::Kind::loop) {
        // Never an error: --outline=on asks for pipe loops.
        stmt.kept_on_host = options.instrument_load ? kInstrumented
                            : options.block_threads > kIterationsMaxBlockThreads
                                ? kTooManyThreads
                                : why_iterations_not_outlinable(module, stmt);
        if (stmt.kept_on_host.empty())
          stmt.outlined = unique_name("loop_line" + std::to_string(stmt.loc.line), stmt.loc);
        continue;
      }
      if (stmt.kind != HostStmt::Kind::pipe_loop) continue;
      std::string problem = why_not_outlinable(module, stmt);
      if (problem.empty() && options.instrument_load) problem = kInstrumented;
      stmt.kept_on_host = problem;
      if (!problem.empty()) {
        if (options.outline == PassOptions::Outline::on)
          diagnostics.error(stmt.loc, "cannot outline this pipe loop (--outline=on): " + problem);
        continue;
      }
      stmt.outlined = unique_name("pipe_loop_line" + std::to_string(stmt.loc.line), stmt.loc);
    }
  }

  std::string unique_name(std::string name, const SourceLoc& loc) {
    for (const std::string& used : names_)
      if (used == name) name += "_col" + std::to_string(loc.column);
    names_.push_back(name);
    return name;
  }

  std::vector<std::string> names_;
};

}  // namespace

std::unique_ptr<Pass> create_iteration_outlining_pass() {
  return std::make_unique<IterationOutlining>();
}

}  // namespace irglc
