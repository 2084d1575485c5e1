//===- CudaKernels.cpp - Kernels as schedule Bodies ------------------------===//

#include "CudaKernels.h"

#include <algorithm>

namespace irglc {

namespace {

const char* reduction_op_type(ReductionOp op) {
  switch (op) {
    case ReductionOp::sum: return "SumOp";
    case ReductionOp::min: return "MinOp";
    case ReductionOp::max: return "MaxOp";
  }
  return "SumOp";
}

}  // namespace

std::string body_name(const Kernel& kernel) { return kernel.name + "_body"; }

std::string policy(const Kernel& kernel, unsigned threads) {
  // A loop nest without an edge loop has no edges to balance.
  Schedule schedule;
  if (kernel.loop.edge_loop) schedule = kernel.loop.edge_loop->schedule;
  return schedule_policy(schedule, threads);
}

namespace {

std::string identity_of(const Accumulator& a) {
  const std::string& t = a.var.type;
  switch (a.op) {
    case AccumulatorOp::sum:
    case AccumulatorOp::bit_or: return "static_cast<" + t + ">(0)";
    case AccumulatorOp::min: return "std::numeric_limits<" + t + ">::max()";
    case AccumulatorOp::max: return "std::numeric_limits<" + t + ">::lowest()";
    case AccumulatorOp::bit_and: return "static_cast<" + t + ">(~static_cast<" + t + ">(0))";
  }
  return "{}";
}

// `into` combined with `from` for one accumulator, as a statement.
std::string combine_statement(const Accumulator& a, const std::string& into,
                              const std::string& from) {
  switch (a.op) {
    case AccumulatorOp::sum: return into + " += " + from + ";";
    case AccumulatorOp::bit_or: return into + " |= " + from + ";";
    case AccumulatorOp::bit_and: return into + " &= " + from + ";";
    case AccumulatorOp::min: return "if (" + from + " < " + into + ") " + into + " = " + from + ";";
    case AccumulatorOp::max: return "if (" + into + " < " + from + ") " + into + " = " + from + ";";
  }
  return "";
}

const char* atomic_of(AccumulatorOp op) {
  switch (op) {
    case AccumulatorOp::sum: return "atomic_add";
    case AccumulatorOp::min: return "atomic_min";
    case AccumulatorOp::max: return "atomic_max";
    case AccumulatorOp::bit_or: return "atomic_or";
    case AccumulatorOp::bit_and: return "atomic_and";
  }
  return "atomic_add";
}

// Index of `name` among the worklists the kernel pushes to, or -1.
int push_slot(const Kernel& kernel, const std::string& name) {
  for (size_t i = 0; i < kernel.worklists_pushed.size(); ++i)
    if (kernel.worklists_pushed[i] == name) return static_cast<int>(i);
  return -1;
}

// Worklists the kernel pushes to take the push policy of cooperative
// conversion (block-staged, or one atomic per push with --no-coop).
std::string worklist_type(const Kernel& kernel, const std::string& name,
                          const BackendOptions& options) {
  const int slot = push_slot(kernel, name);
  if (slot < 0) return "Worklist";
  if (!options.coop) return "UncoalescedWorklist";
  return "StagedWorklist<" + std::to_string(slot) + ">";
}

void write_members(CodeWriter& out, const Module& module, const Kernel& kernel,
                   const BackendOptions& options) {
  for (const KernelParam& param : kernel.params) {
    switch (param.kind) {
      case ParamKind::graph: out.line("Graph " + param.var.name + ";"); break;
      case ParamKind::worklist:
        out.line(worklist_type(kernel, param.var.name, options) + " " + param.var.name + ";");
        break;
      case ParamKind::scalar: out.line(param.var.type + " " + param.var.name + ";"); break;
      case ParamKind::task_pool:  // a task processor pushes through its spawner
        if (kernel.loop.domain != VertexDomain::tasks)
          out.line("TaskSeeds<" + param.var.type + "> " + param.var.name + ";");
        break;
    }
  }
  for (const std::string& name : kernel.fields_used)
    out.line("NodeArray<" + module.find_field(name)->element_type + "> " + name + ";");
  for (const std::string& name : kernel.reductions_used) {
    const Reduction* reduction = module.find_reduction(name);
    out.line(std::string("ReductionSlot<") + reduction->value_type + ", " +
             reduction_op_type(reduction->op) + "> " + name + ";");
  }
}

// The kernel's set-up statements, repeated where the Body's code needs them
// (they only compute per-thread values from the parameters).
void write_prologue(CodeWriter& out, const Kernel& kernel) {
  for (const CodeFragment& code : kernel.prologue) out.fragment(code);
  for (const std::string& var : kernel.prologue_vars) out.line("(void)" + var + ";");
}

void write_types(CodeWriter& out, const EdgeLoop* edge) {
  if (!edge || (edge->closure.empty() && edge->accumulators.empty())) {
    out.line("struct Closure {};");
  } else {
    out.comment("What the edge and post code need from the code before the edge loop.");
    out.open("struct Closure {");
    for (const Variable& v : edge->closure) out.line(v.type + " " + v.name + ";");
    for (const Accumulator& a : edge->accumulators)
      out.line(a.var.type + " " + a.var.name + ";  // initial value");
    out.close("};");
  }
  if (!edge || edge->accumulators.empty()) {
    out.line("using Accum = schedule::NoAccum;");
  } else {
    out.comment("Partial values of the accumulators, combined over the threads of a vertex.");
    out.open("struct Accum {");
    for (const Accumulator& a : edge->accumulators)
      out.line(a.var.type + " " + a.var.name + ";  // " + to_string(a.op));
    out.close("};");
  }
}

void write_pre(CodeWriter& out, const Kernel& kernel) {
  const VertexLoop& loop = kernel.loop;
  const EdgeLoop* edge = loop.edge_loop ? &*loop.edge_loop : nullptr;
  out.comment(where(loop.loc) + ": " + loop.header + (edge ? ", before the edge loop" : ""));
  out.open("__device__ bool pre(Node " + loop.vertex_var + ", Closure& irgl_closure) {");
  write_prologue(out, kernel);
  for (const PreStep& step : loop.pre) {
    if (step.kind == PreStep::Kind::code) {
      out.fragment(step.code, "return false", "return false");
    } else {
      out.line("if (!(" + out.expression(step.code, 6, "false", "false") + ")) return false;");
    }
  }
  if (edge) {
    for (const Variable& v : edge->closure) out.line("irgl_closure." + v.name + " = " + v.name + ";");
    for (const Accumulator& a : edge->accumulators)
      out.line("irgl_closure." + a.var.name + " = " + a.var.name + ";");
  }
  out.line("return true;");
  out.close();
}

void write_edge_range(CodeWriter& out, const Kernel& kernel) {
  const VertexLoop& loop = kernel.loop;
  if (!loop.edge_loop) {
    out.line("__device__ uint64_t edges_begin(Node) const { return 0; }");
    out.line("__device__ uint64_t edges_end(Node) const { return 0; }");
    out.line("IRGL_HD uint64_t max_degree() const { return 0; }");
    return;
  }
  const EdgeLoop& edge = *loop.edge_loop;
  const std::string dir = edge.direction == EdgeDirection::out ? "out" : "in";
  out.line("__device__ uint64_t edges_begin(Node v) const { return " + edge.graph + "." + dir +
           "_begin(v); }");
  out.line("__device__ uint64_t edges_end(Node v) const { return " + edge.graph + "." + dir +
           "_end(v); }");
  out.line("IRGL_HD uint64_t max_degree() const { return " + edge.graph + ".max_" + dir +
           "_degree(); }");
  out.comment("Edges in CSR / CSC order: ALB's row tiles cut them, once per offsets array.");
  out.line("static constexpr bool kContiguousEdges = true;");
  out.line("IRGL_HD uint64_t edge_count() const { return " + edge.graph + ".num_edges(); }");
  out.line("__host__ const void* edge_layout() const { return " + edge.graph + "." + dir +
           "().offsets; }");
}

void write_edge(CodeWriter& out, const Kernel& kernel) {
  const VertexLoop& loop = kernel.loop;
  if (!loop.edge_loop) {
    out.line("__device__ void edge(Node, Edge, const Closure&, Accum&) {}");
    return;
  }
  const EdgeLoop& edge = *loop.edge_loop;
  out.comment(where(edge.loc) + ": " + edge.header + "  [schedule: " + edge.schedule.name() + "]");
  out.open("__device__ void edge(Node " + loop.vertex_var + ", Edge " + edge.edge_var +
           ", const Closure& irgl_closure, Accum& irgl_accum) {");
  write_prologue(out, kernel);
  for (const Variable& v : edge.closure)
    out.line("[[maybe_unused]] const " + v.type + "& " + v.name + " = irgl_closure." + v.name + ";");
  for (const Accumulator& a : edge.accumulators)
    out.line(a.var.type + "& " + a.var.name + " = irgl_accum." + a.var.name + ";");
  for (const CodeFragment& code : edge.body) out.fragment(code, "return", "return");
  out.close();
}

void write_post(CodeWriter& out, const Kernel& kernel) {
  const VertexLoop& loop = kernel.loop;
  if (!loop.edge_loop) {
    out.line("__device__ void post(Node, const Closure&, const Accum&) {}");
    return;
  }
  const EdgeLoop& edge = *loop.edge_loop;
  out.comment("After the edge loop, once all of the vertex's edges are done.");
  out.open("__device__ void post(Node " + loop.vertex_var +
           ", const Closure& irgl_closure, const Accum& irgl_accum) {");
  if (!loop.post.empty()) {
    write_prologue(out, kernel);
    for (const Variable& v : edge.closure)
      out.line("[[maybe_unused]] " + v.type + " " + v.name + " = irgl_closure." + v.name + ";");
    for (const Accumulator& a : edge.accumulators) {
      out.line(a.var.type + " " + a.var.name + " = irgl_closure." + a.var.name + ";");
      out.line(combine_statement(a, a.var.name, "irgl_accum." + a.var.name));
    }
    for (const CodeFragment& code : loop.post) out.fragment(code, "return", "return");
  }
  out.close();
}

// `if (COND) break;` ended the edge loop: schedules may stop a vertex's
// edges once a thread's partial accumulators satisfy COND (schedule/body.h).
void write_settled(CodeWriter& out, const EdgeLoop& edge) {
  out.line("static constexpr bool kSettles = true;");
  out.comment(where(edge.settle->loc) + ": the loop's break: its edges may stop once a partial "
              "value holds it.");
  out.open("__device__ static bool settled(const Accum& irgl_accum) {");
  for (const Accumulator& a : edge.accumulators)
    out.line("[[maybe_unused]] const " + a.var.type + " " + a.var.name + " = irgl_accum." +
             a.var.name + ";");
  out.line("return " + out.expression(*edge.settle, 11) + ";");
  out.close();
}

void write_accumulator_operations(CodeWriter& out, const EdgeLoop* edge) {
  const bool any = edge && !edge->accumulators.empty();
  if (!any) {
    out.line("IRGL_HD static Accum identity() { return {}; }");
    out.line("__device__ static void combine(Accum&, const Accum&) {}");
    out.line("__device__ static void atomic_combine(Accum*, const Accum&) {}");
    return;
  }
  std::string identities;
  for (const Accumulator& a : edge->accumulators)
    identities += (identities.empty() ? "" : ", ") + identity_of(a);
  out.line("IRGL_HD static Accum identity() { return {" + identities + "}; }");
  out.open("__device__ static void combine(Accum& into, const Accum& from) {");
  for (const Accumulator& a : edge->accumulators)
    out.line(combine_statement(a, "into." + a.var.name, "from." + a.var.name));
  out.close();
  out.open("__device__ static void atomic_combine(Accum* into, const Accum& from) {");
  for (const Accumulator& a : edge->accumulators)
    out.line(std::string(atomic_of(a.op)) + "(into->" + a.var.name + ", from." + a.var.name + ");");
  out.close();
}

// chain_pushes(), for a kernel whose pushes may chain (Kernel::pushes_chain).
void write_chain_hook(CodeWriter& out, const Kernel& kernel) {
  if (!kernel.pushes_chain) return;
  out.comment("Each push follows a successful atomic_min on the pushed vertex: a warp may go on");
  out.comment("with it in the same round (schedule/body.h: chain_pushes; --chain).");
  out.line("__device__ void chain_pushes(Node* slot) { " + kernel.worklists_pushed.front() +
           ".chain = slot; }");
}

// begin() and flush(): the block-level set-up and flush of the staged
// pushes, and the flush of the reductions (every thread of the block calls
// them, at the start and the end of every kernel and persistent step).
void write_block_hooks(CodeWriter& out, const Kernel& kernel, const BackendOptions& options) {
  const bool staged = options.coop && !kernel.worklists_pushed.empty();
  if (staged) {
    out.line("template <int BlockThreads>");
    out.open("__device__ void begin() {");
    for (const std::string& name : kernel.worklists_pushed) out.line(name + ".begin<BlockThreads>();");
    out.close();
  }
  out.line("template <int BlockThreads>");
  if (kernel.reductions_used.empty() && !staged) {
    out.line("__device__ void flush() {}");
    return;
  }
  out.open("__device__ void flush() {");
  if (staged)
    for (const std::string& name : kernel.worklists_pushed) out.line(name + ".flush<BlockThreads>();");
  for (const std::string& name : kernel.reductions_used) out.line(name + ".flush<BlockThreads>();");
  out.close();
}

void write_body(CodeWriter& out, const Module& module, const Kernel& kernel,
                const BackendOptions& options) {
  const EdgeLoop* edge = kernel.loop.edge_loop ? &*kernel.loop.edge_loop : nullptr;
  out.line();
  out.comment(where(kernel.loc) + ": " +
              (kernel.from_for_all_nodes ? "for_all_nodes body" : "kernel " + kernel.name) +
              ", as the loop nest the schedules run (schedule/body.h)");
  out.open("struct " + body_name(kernel) + " {");
  write_members(out, module, kernel, options);
  out.line();
  write_types(out, edge);
  out.line(std::string("static constexpr bool kHasEdges = ") + (edge ? "true" : "false") + ";");
  out.line(std::string("static constexpr bool kHasAccum = ") +
           (edge && !edge->accumulators.empty() ? "true" : "false") + ";");
  out.line(std::string("static constexpr bool kHasPost = ") +
           (edge && !kernel.loop.post.empty() ? "true" : "false") + ";");
  if (edge && edge->settle) write_settled(out, *edge);
  out.line();
  write_pre(out, kernel);
  write_edge_range(out, kernel);
  out.line();
  write_edge(out, kernel);
  out.line();
  write_post(out, kernel);
  out.line();
  write_accumulator_operations(out, edge);
  write_chain_hook(out, kernel);
  write_block_hooks(out, kernel, options);
  out.close("};");
}

// The schedules that read the run's graph shape (RunOptions::graph): a
// loop over in-edges gives them the in-degrees.
bool reads_graph_shape(ScheduleKind kind) {
  return kind == ScheduleKind::automatic || kind == ScheduleKind::vwarp ||
         kind == ScheduleKind::multi_phase;
}

// A task kernel's processor pushes through its spawner, not the pool.
bool body_takes(const Kernel& kernel, const KernelParam& param) {
  return param.kind != ParamKind::task_pool || kernel.loop.domain != VertexDomain::tasks;
}

// The launch's arguments a Body keeps: the kernel's parameters but a task
// kernel's pool.
std::vector<std::string> body_arguments(const Kernel& kernel) {
  std::vector<std::string> args;
  for (const KernelParam& param : kernel.params)
    if (body_takes(kernel, param)) args.push_back(param.var.name);
  return args;
}

// The kernel's parameters as a launcher declares them (`with_pool`: a
// task kernel's pool too; the Body factory has none).
std::string launcher_params(const Kernel& kernel, bool with_pool = true) {
  std::string params;
  for (const KernelParam& param : kernel.params) {
    if (!body_takes(kernel, param) && !with_pool) continue;
    if (!params.empty()) params += ", ";
    switch (param.kind) {
      case ParamKind::graph: params += "const Graph& " + param.var.name; break;
      case ParamKind::worklist: params += "Worklist " + param.var.name; break;
      case ParamKind::scalar: params += param.var.type + " " + param.var.name; break;
      case ParamKind::task_pool: params += "TaskPool<" + param.var.type + ">& " + param.var.name; break;
    }
  }
  return params;
}

// make_<kernel>(args): the Body for a launch's arguments;
// <kernel>_options(run): its schedule options under the run's. The launcher and outlined loops (CudaBackend.cpp)
// both build their Bodies with them.
void write_body_factory(CodeWriter& out, const Kernel& kernel) {
  std::vector<std::string> members;
  for (const KernelParam& param : kernel.params) {
    if (!body_takes(kernel, param)) continue;
    // A vertex loop's pushes: room for a task per vertex of the graph.
    members.push_back(param.kind == ParamKind::task_pool
                          ? param.var.name + ".seeds(" + kernel.loop.graph + ".num_nodes())"
                          : param.var.name);
  }
  for (const std::string& name : kernel.fields_used) members.push_back(name + ".view()");
  for (const std::string& name : kernel.reductions_used) members.push_back(name + ".view()");
  const bool tasks = kernel.loop.domain == VertexDomain::tasks;  // no schedule options
  out.line();
  out.comment(where(kernel.loc) + ": the Body of " + kernel.name + " for its arguments" +
              (tasks ? "." : ", and its schedule options."));
  out.open(body_name(kernel) + " make_" + kernel.name + "(" + launcher_params(kernel, false) + ") {");
  out.line("return {" + comma_separated(members) + "};");
  out.close();
  if (tasks) return;
  const RunParameter& run = out.run();
  out.open("schedule::RunOptions " + kernel.name + "_options(" + run.type + " " + run.name + ") {");
  out.line("schedule::RunOptions options = " + run.name + ".options(\"" + kernel.name + "\");");
  const VertexLoop& loop = kernel.loop;
  if (loop.edge_loop && reads_graph_shape(loop.edge_loop->schedule.kind) &&
      loop.edge_loop->direction == EdgeDirection::in)
    out.line("options.graph = " + run.name + ".in_degrees;  // the loop walks in-edges");
  if (loop.edge_loop && loop.edge_loop->schedule.kind == ScheduleKind::automatic) {
    if (loop.edge_loop->work_per_edge_varies)
      out.line("options.edge_work_varies = true;  // " + where(loop.edge_loop->loc) + " loops per edge");
  }
  if (loop.edge_loop && (loop.edge_loop->schedule.kind == ScheduleKind::alb ||
                         loop.edge_loop->schedule.kind == ScheduleKind::dp ||
                         loop.edge_loop->schedule.kind == ScheduleKind::automatic)) {
    const Schedule& schedule = loop.edge_loop->schedule;
    if (schedule.alb_threshold_for_varying_work)
      out.comment(where(loop.edge_loop->loc) +
                  " loops per edge: every vertex is huge, its edges spread over the grid"
                  " (whatever the run's --alb-threshold).");
    if (schedule.alb_threshold)
      out.line("options.alb_threshold = " + std::to_string(*schedule.alb_threshold) + ";");
    if (schedule.alb_threshold_for_varying_work) out.line("options.alb_threshold_fixed = true;");
    if (schedule.alb_distribution == AlbDistribution::blocked)
      out.line("options.alb_distribution = schedule::Distribution::blocked;");
  }
  if (loop.edge_loop && loop.edge_loop->schedule.kind == ScheduleKind::multi_phase &&
      loop.edge_loop->schedule.item_search != ItemSearch::automatic)
    out.line(std::string("options.item_search = schedule::ItemSearch::") +
             (loop.edge_loop->schedule.item_search == ItemSearch::binary ? "binary;"
                                                                         : "interpolation;"));
  out.line("return options;");
  out.close();
}

void write_launcher(CodeWriter& out, const Kernel& kernel, const BackendOptions& options) {
  const std::string args = comma_separated(body_arguments(kernel));
  const VertexLoop& loop = kernel.loop;
  const bool masters = options.many_gpus && !kernel.runs_at_every_copy;
  const std::string frontier =
      loop.domain != VertexDomain::all_nodes ? loop.worklist + ".items()"
      : masters
          ? "schedule::AllNodes{" + loop.graph + ".owned_nodes(), " + loop.graph + ".first_owned()}"
          : "schedule::AllNodes{" + loop.graph + ".num_nodes()}";

  out.line();
  out.comment(where(kernel.loc) + ": runs " + body_name(kernel) + " over " +
              (loop.domain != VertexDomain::all_nodes ? "the worklist " + loop.worklist
               : masters                              ? "this GPU's masters"
               : options.many_gpus ? "all vertices, masters and copies alike"
                                   : "all vertices") +
              ", schedule " + kernel_schedule_name(kernel) + ".");
  out.open("void " + kernel.name + "(" + launcher_params(kernel) + out.run().parameter() + ") {");
  // irgl_state: a kernel parameter cannot have that name. One per GPU: a
  // library's calls may switch devices.
  out.line("static schedule::PerDevice<schedule::State<" + body_name(kernel) +
           (options.instrument_load ? ", schedule::LoadCounters" : "") + ">> irgl_state;");
  out.line(policy(kernel, options.block_threads) + "::run(make_" + kernel.name + "(" + args + "), " +
           frontier + ", irgl_state.current(), " + kernel.name + "_options(" + out.run().name +
           "));");
  out.close();
}

bool ends_task(const TaskStep& step) {
  return std::any_of(step.code.begin(), step.code.end(), [](const CodeFragment& code) {
    return code.holds(CodeSegment::Kind::next_vertex);
  });
}

// Whether a step other than the last may end the task (task code with a
// `continue`): then the other threads need irgl_task_ends.
bool ends_before_last_step(const VertexLoop& loop) {
  return std::any_of(loop.task_steps.begin(), loop.task_steps.end() - 1, [](const TaskStep& step) {
    return step.kind == TaskStep::Kind::code && ends_task(step);
  });
}

// A block task's steps, run by every thread of the block: task code on
// thread 0, parallel loops on all threads, a barrier between steps. The
// task variables live in block-shared memory; a `continue` in task code
// jumps past the step and, unless it is the last, sets irgl_task_ends,
// which every thread reads after the barrier (the same value: no thread
// returns alone).
void write_block_task_steps(CodeWriter& out, const VertexLoop& loop) {
  out.line("__shared__ alignas(TaskVariables) unsigned char irgl_task_storage[sizeof(TaskVariables)];");
  out.line("[[maybe_unused]] TaskVariables& irgl_task_variables = *reinterpret_cast<TaskVariables*>(irgl_task_storage);");
  std::vector<std::string> declared;
  for (size_t k = 0; k < loop.task_steps.size(); ++k) {
    const TaskStep& step = loop.task_steps[k];
    const bool last = k + 1 == loop.task_steps.size();
    const bool code = step.kind == TaskStep::Kind::code;
    const bool ends = code && ends_task(step);
    const std::string done = "irgl_step" + std::to_string(k + 1) + "_done";
    out.comment(where(step.loc) + (code ? ": task code, on thread 0" : ": a parallel loop, on every thread"));
    if (code) out.open("if (threadIdx.x == 0) {");
    if (ends && !last) out.line("irgl_task_variables.irgl_task_ends = true;");
    out.open("{");
    for (const std::string& name : declared)
      out.line("[[maybe_unused]] auto& " + name + " = irgl_task_variables." + name + ";");
    for (const CodeFragment& fragment : step.code) out.fragment(fragment, "goto " + done);
    out.close();
    if (ends && !last) out.line("irgl_task_variables.irgl_task_ends = false;");
    if (ends) out.line(done + ":;");
    if (code) out.close();
    if (!last) out.line("__syncthreads();");
    if (ends && !last) out.line("if (irgl_task_variables.irgl_task_ends) return;");
    declared.insert(declared.end(), step.declares.begin(), step.declares.end());
  }
}

// A task kernel's Body: the task processor of gpu/tasks/task_pool.cuh,
// run by one thread per task; `pool.push(t)` in the task code spawns.
void write_task_body(CodeWriter& out, const Module& module, const Kernel& kernel,
                     const BackendOptions& options) {
  const VertexLoop& loop = kernel.loop;
  const std::string& task = loop.task_type;
  out.line();
  out.comment(where(kernel.loc) + ": kernel " + kernel.name + ", as a task processor: " +
              (loop.block_task() ? "a task per block, its parallel loops over the block's threads"
                                 : "a task per thread") +
              " (gpu/tasks/task_pool.cuh)");
  out.open("struct " + body_name(kernel) + " {");
  write_members(out, module, kernel, options);
  if (loop.block_task()) {
    out.line();
    write_task_variables(out, loop, ends_before_last_step(loop));
  }
  out.line();
  out.comment(where(loop.loc) + ": " + loop.header);
  out.open("__device__ void operator()(const " + task + "& irgl_task, const TaskSpawner<" + task +
           ">& irgl_spawn) {");
  out.line("[[maybe_unused]] const TaskPush<" + task + "> " + loop.pool + "{irgl_spawn};");
  write_prologue(out, kernel);
  out.line("[[maybe_unused]] const " + task + " " + loop.vertex_var + " = irgl_task;");
  if (loop.block_task()) write_block_task_steps(out, loop);
  else
    for (const PreStep& step : loop.pre) out.fragment(step.code, "return", "return");
  out.close();
  if (!kernel.reductions_used.empty()) {
    out.comment("Each thread's partial reductions, flushed when its block leaves the pool.");
    out.line("template <int BlockThreads>");
    out.open("__device__ void flush() {");
    for (const std::string& name : kernel.reductions_used) out.line(name + ".flush<BlockThreads>();");
    out.close();
  }
  out.close("};");
}

void write_task_launcher(CodeWriter& out, const Kernel& kernel, const BackendOptions& options) {
  const VertexLoop& loop = kernel.loop;
  out.line();
  out.comment(where(kernel.loc) + ": runs the tasks of " + loop.pool +
              ", and every task they push, until none is left (the run's --task-pool scheme).");
  out.open("void " + kernel.name + "(" + launcher_params(kernel) + out.run().parameter() + ") {");
  out.comment("The pool's GPU memory, kept between runs (per GPU).");
  out.line("static schedule::PerDevice<TaskLauncher<" + loop.task_type + ">> irgl_tasks;");
  out.line("irgl_tasks.current().run<" + std::to_string(options.block_threads) +
           (loop.block_task() ? ", TaskWidth::block" : "") + ">(\"" + kernel.name +
           "\", " + loop.pool + ", make_" + kernel.name + "(" +
           comma_separated(body_arguments(kernel)) + "), " + out.run().name +
           ");");
  out.close();
}

}  // namespace

std::string kernel_schedule_name(const Kernel& kernel) {
  if (kernel.loop.domain == VertexDomain::tasks) return "tasks";
  return kernel.loop.edge_loop ? kernel.loop.edge_loop->schedule.name() : "thread";
}

void write_scheduled_kernel(CodeWriter& out, const Module& module, const Kernel& kernel,
                            const BackendOptions& options) {
  if (kernel.loop.domain == VertexDomain::tasks) {
    write_task_body(out, module, kernel, options);
    write_body_factory(out, kernel);
    write_task_launcher(out, kernel, options);
    return;
  }
  write_body(out, module, kernel, options);
  write_body_factory(out, kernel);
  write_launcher(out, kernel, options);
}

}  // namespace irglc
