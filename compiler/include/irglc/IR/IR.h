//===- IR.h - irglc's intermediate representation --------------*- C++ -*-===//
//
// The IR keeps the parallel structure of a program explicit and its leaf
// statements as C++ text: the front end (Clang) recognises kernels, vertex
// loops, edge loops, the values an edge loop needs from its vertex loop
// (closure), accumulations into vertex-loop variables, reductions, worklist
// operations and the driver's host loops, and copies everything else as code
// fragments. Passes rewrite the structure (e.g. choose and apply a schedule
// to an edge loop) without re-parsing C++; backends print it.
//
// The IR has no dependency on Clang.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace irglc {

struct SourceLoc {
  std::string file;  // as given on the command line
  unsigned line = 0;
  unsigned column = 0;

  bool valid() const { return line != 0; }
  // "file:line", the file as display_file_name() shows it
  std::string str() const;
};

// A piece of C++ copied from the program. Most of it is text; a `continue`
// that leaves a parallel loop is kept as a hole because backends implement
// those loops differently (a real loop on the CPU, a lambda in a schedule
// template on the GPU, where it becomes `return`).
//
// A run_argument segment sits before the closing parenthesis of a Pipe's
// constructor in the driver: the CUDA target passes the run's options there
// (", irgl_run"), the CPU target nothing.
struct CodeSegment {
  enum class Kind { text, next_vertex, next_edge, run_argument };
  Kind kind = Kind::text;
  std::string text;  // for Kind::text
};

struct CodeFragment {
  std::vector<CodeSegment> segments;
  SourceLoc loc;
  // Column of the fragment's first character in the source, used to re-indent
  // continuation lines.
  unsigned indent_column = 0;

  static CodeFragment text(std::string code, SourceLoc loc = {});
  bool empty() const { return segments.empty(); }
  // Whether the fragment holds a hole of `kind` (a `continue` leaving the
  // loop, say).
  bool holds(CodeSegment::Kind kind) const;
};

// A C++ variable: name and type as spelled for the generated code.
struct Variable {
  std::string name;
  std::string type;
};

//===----------------------------------------------------------------------===//
// Schedules
//===----------------------------------------------------------------------===//

// The schedules, one per row of Schedules.def.
enum class ScheduleKind {
#define IRGL_SCHEDULE(Id, Name, Policy, Argument, Summary) Id,
#include "irglc/IR/Schedules.def"
};

// What a schedule's name takes after ':' (Schedules.def).
enum class ScheduleArgument { none, group_size, policy };

enum class AlbDistribution { cyclic, blocked };
enum class ItemSearch { automatic, binary, interpolation };

struct Schedule {
  ScheduleKind kind = ScheduleKind::thread;
  unsigned group_size = 0;                  // for group
  std::string policy_name;                  // for extern: the user's "ext::Chunked"
  std::optional<uint64_t> alb_threshold;    // for alb; default: index.h alb_threshold()
  bool alb_threshold_for_varying_work = false;  // chosen by irglc (EdgeLoop::work_per_edge_varies)
  AlbDistribution alb_distribution = AlbDistribution::cyclic;
  ItemSearch item_search = ItemSearch::automatic;  // for multi-phase

  // "thread", "group:64", "alb", "extern:ext::Chunked", ...
  std::string name() const;
};

// Parses a schedule name of Schedules.def ("thread", "group:64", "alb", ...).
// Returns an error message (empty on success).
std::string parse_schedule_name(const std::string& text, Schedule& schedule);
// Applies one `key=value` option of Schedules.def to `schedule`; returns an
// error message or "".
std::string apply_schedule_option(const std::string& option, Schedule& schedule);
// A name followed by options, comma-separated ("alb,threshold=0"), as
// --schedule takes it. Returns an error message or "".
std::string parse_schedule_spec(const std::string& text, Schedule& schedule);
// The runtime policy of a schedule for blocks of `block_threads` threads, as
// generated code spells it ("schedule::Twc<256>", "schedule::GroupMapped<256,
// 64>", "::ext::Chunked<256>" for extern:ext::Chunked).
std::string schedule_policy(const Schedule& schedule, unsigned block_threads);
// One line per schedule and option, for --help.
std::string schedule_help();
// The names parse_schedule_name accepts, for messages.
std::string schedule_names();

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

enum class EdgeDirection { out, in };

enum class AccumulatorOp { sum, min, max, bit_or, bit_and };
const char* to_string(AccumulatorOp op);

// A vertex-loop variable that an edge loop combines values into
// (`sum += ...`, `best = min(best, ...)`); schedules that split a vertex's
// edges over several threads reduce the partial values before `post` runs.
struct Accumulator {
  Variable var;
  AccumulatorOp op = AccumulatorOp::sum;
  SourceLoc loc;
};

// `for (Edge e : g.out_edges(v)) body` directly inside a vertex loop.
struct EdgeLoop {
  SourceLoc loc;
  std::string header;       // the loop header as written, for comments
  std::string edge_var;     // e
  std::string graph;        // g
  std::string vertex;       // v (the enclosing vertex loop's variable)
  EdgeDirection direction = EdgeDirection::out;
  // Vertex-loop locals the body or the code after the loop reads (their
  // values must reach whichever thread runs that code).
  std::vector<Variable> closure;
  std::vector<Accumulator> accumulators;
  std::vector<CodeFragment> body;
  // Reductions and worklists the body uses (they need flushing in every
  // kernel that runs the body).
  std::vector<std::string> reductions_used;
  std::vector<std::string> worklists_pushed;
  // The body may loop (itself or in a helper it calls), so an edge's work
  // depends on the data: tc merges two adjacency lists per edge, and a
  // vertex's work grows with its degree squared.
  bool work_per_edge_varies = false;
  // The body ended with `if (settle) break;`: the condition fixes every
  // accumulator's value once it holds, and the body only accumulates, so
  // the loop may stop once a partial value satisfies it.
  std::optional<CodeFragment> settle;

  std::optional<Schedule> annotation;  // from `#pragma irgl schedule(...)`
  SourceLoc annotation_loc;
  Schedule schedule;                   // decided by the schedule pass
};

// One step of the part of a vertex loop that runs before its edge loop:
// either code, or a guard `if (cond)` that the rest of the body (edge loop
// and post included) sits under. A vertex whose guard fails does nothing more.
struct PreStep {
  enum class Kind { code, guard };
  Kind kind = Kind::code;
  CodeFragment code;  // for code: the statements; for guard: the condition
};

enum class VertexDomain { all_nodes, worklist, tasks };

// A variable declared at the top level of a block task's body: the task's
// parallel loops share it (GPU: block-shared memory), so it is a member of
// the task's variables and its declaration a copy into it.
struct TaskVariable {
  std::string name;
  std::string member;  // the member's declaration: "uint32_t counts[8]"
  SourceLoc loc;
};

// A step of a block task's body: code run once per task (GPU: by one
// thread), or a top-level `for (T i : parallel(first, last))` whose
// iterations the block's threads share. Steps run in order; a `continue`
// in task code ends the task.
struct TaskStep {
  enum class Kind { code, parallel };
  Kind kind = Kind::code;
  SourceLoc loc;
  std::vector<CodeFragment> code;     // the statements (parallel: the loop)
  std::vector<std::string> declares;  // task variables declared here
};

// `for (Node n : g.nodes())`, `for (Node n : worklist)`, or a task loop
// `for (Cell c : pool)` over a TaskPool parameter, which runs every task of
// the pool and every task pushed to it, until none is left. A task loop's
// body is sequential code per task: all of it is `pre` code (no guards,
// no parallel edge loop), or task_steps for a block task, and
// `vertex_var` is the task.
struct VertexLoop {
  SourceLoc loc;
  std::string header;
  VertexDomain domain = VertexDomain::all_nodes;
  std::string graph;      // for all_nodes
  std::string worklist;   // for worklist
  std::string pool;       // for tasks: the TaskPool parameter
  std::string task_type;  // for tasks: its element type, as the code spells it
  std::string vertex_var;
  std::vector<PreStep> pre;
  std::optional<EdgeLoop> edge_loop;
  std::vector<CodeFragment> post;  // after the edge loop, under the guards
  // A block task (a task loop whose body holds parallel loops): its body
  // as steps instead of `pre`, and the variables the steps share.
  std::vector<TaskStep> task_steps;
  std::vector<TaskVariable> task_variables;
  bool block_task() const { return !task_steps.empty(); }
};

// How a kernel's code updates vertex data, as a multi-GPU run combines
// the copies of a vertex (irglc --gpus=many, docs/multi-gpu.md).
enum class FieldUpdate {
  none,    // a read
  assign,  // f[x] = ...
  min,     // atomic_min
  max,     // atomic_max
  add,     // atomic_add / atomic_sub, +=, -=, ++, --
  claim,   // atomic_cas: the first writer wins
  other,   // anything else (atomic_exch, |=, ...)
};
const char* to_string(FieldUpdate update);

// One access to a NodeData in a kernel's vertex loop.
struct FieldAccess {
  std::string field;
  FieldUpdate update = FieldUpdate::none;
  bool at_loop_vertex = false;  // indexed by the loop's own vertex (n in f[n])
  // Indexed by the far end of the loop's out-edge: g.dst(e), directly or
  // through a const local initialised with it.
  bool at_out_edge_destination = false;
  bool result_used = false;     // an atomic whose old value the code reads
  std::string spelling;         // "atomic_sub", "=", "+=", ... for messages
  SourceLoc loc;
};

// What a multi-GPU run does after a kernel for one field it writes: the
// mirrors' changes combined into the masters with `op` (reduce), then the
// masters' changes sent to the mirrors (broadcast). Filled by the part
// synchronisation pass.
struct PartSync {
  std::string field;
  FieldUpdate op = FieldUpdate::assign;  // min, max, add or assign
  bool reduce = false, broadcast = false;
  // Every write that needs the reduce, and every push, lands at an
  // out-edge's destination: a partition that keeps each edge with its
  // destination's master (the incoming-edge cut) leaves no mirror written,
  // so the run may skip the reduce there (Gluon's structural invariants).
  bool writes_at_out_edge_destinations = false;
  // The kernel runs at every copy and computes the same value there (a
  // loop over every vertex that only assigns at its own vertex from what
  // every process has alike: the vertex id, a program parameter, a
  // constant): the copies agree without sending anything, and the run only
  // records the values as the last synced ones.
  bool copies_agree = false;
};

// task_pool: `TaskPool<T>& pool` of a task kernel (var.type is T).
enum class ParamKind { graph, worklist, scalar, task_pool };

struct KernelParam {
  ParamKind kind = ParamKind::scalar;
  Variable var;
};

struct Kernel {
  std::string name;
  SourceLoc loc;
  std::vector<KernelParam> params;
  // Statements before the vertex loop, run by every thread, and the
  // variables they declare.
  std::vector<CodeFragment> prologue;
  std::vector<std::string> prologue_vars;
  VertexLoop loop;
  // File-scope NodeData and reductions the kernel uses, in first-use order.
  std::vector<std::string> fields_used;
  std::vector<std::string> reductions_used;
  std::vector<std::string> worklists_pushed;
  // NodeData an all-nodes loop assigns at every vertex before reading any
  // (`f[n] = ...;` in the body, with no guard, continue or return before
  // it) and that the kernel reads nowhere: a launch writes all of it.
  std::vector<std::string> fields_written_whole;
  // Every access to vertex data in the vertex loop (reads and writes).
  std::vector<FieldAccess> field_accesses;
  // Whether the vertex loop's body names a Graph (its edges, degrees, size).
  bool loop_uses_graph = false;
  // Whether every Worklist push in the vertex loop pushes an out-edge's
  // destination (as FieldAccess::at_out_edge_destination); true without
  // pushes.
  bool pushes_at_out_edge_destinations = true;
  // Whether the loop's pushes may chain (runtime: schedule/body.h,
  // chain_pushes): it pushes to one worklist, each push follows a
  // successful atomic_min on the pushed out-edge destination
  // (`if (... && atomic_min(f[v], c) > c) out.push(v)`), and its only
  // writes to vertex data are such atomic_mins. Processing a pushed vertex
  // ahead of its turn then only repeats work: a later decrease pushes it
  // again (sssp, cc by label propagation; not bfs's first-visit claim).
  bool pushes_chain = false;
  // irglc --gpus=many: the synchronisation after each launch.
  std::vector<PartSync> part_syncs;
  // irglc --gpus=many: the loop runs at every vertex on every GPU instead
  // of at this GPU's masters (set with PartSync::copies_agree).
  bool runs_at_every_copy = false;
  // Set for kernels made from a driver's for_all_nodes(g, [&](Node n) {...}):
  // the lambda's captured driver variables became scalar params.
  bool from_for_all_nodes = false;
  // for_all_nodes kernels: whether every captured driver variable is the
  // same in every process of a multi-GPU run (a program parameter or a
  // constant), not a value the part computed (g.num_edges() is its own).
  bool captures_alike = true;
};

//===----------------------------------------------------------------------===//
// Program-level declarations
//===----------------------------------------------------------------------===//

// `NodeData<T> name;` at file scope, or `Array<T> name;` (per_vertex
// false: sized by the driver's `name.reset(count)`, empty at each run's
// start).
struct Field {
  Field() = default;
  Field(std::string name, std::string element_type, SourceLoc loc)
      : name(std::move(name)), element_type(std::move(element_type)), loc(std::move(loc)) {}

  std::string name;
  std::string element_type;
  SourceLoc loc;
  bool per_vertex = true;
  // Zeroed at the start of each run, unless the redundant-zeroing pass
  // found that a launch writes all of it before anything reads it (then
  // `written_whole_by`: the launch's source position).
  bool zeroed_each_run = true;
  SourceLoc written_whole_by;
};

enum class ReductionOp { sum, min, max };
const char* to_string(ReductionOp op);

// `Sum<T> name;` (or Min/Max) at file scope.
struct Reduction {
  std::string name;
  std::string value_type;
  ReductionOp op = ReductionOp::sum;
  SourceLoc loc;
};

// Declarations copied as they are (helper functions, structs, constants);
// functions are marked for the device by the backends.
struct UserDecl {
  CodeFragment code;
  bool is_function = false;
};

//===----------------------------------------------------------------------===//
// The host driver
//===----------------------------------------------------------------------===//

// A piece of driver code without launches (a statement, or a loop's init,
// condition or increment) as the device code of an outlined loop would
// run it (the frontend classifies; IterationOutlining decides).
struct DeviceCode {
  enum class Kind {
    host,        // stays on the host: `why` says why
    expression,  // a condition or increment: reads, and writes `writes`
    local,       // declares the number `declared` from what it reads
    reset,       // r = value, for the reduction `reduction`
    break_if,    // if (condition) break;
  };
  Kind kind = Kind::host;
  std::string why;                     // host
  Variable declared;                   // local (a loop's init too)
  std::string reduction;               // reset
  std::vector<Variable> reads;         // driver variables read (not declared here)
  std::vector<std::string> writes;     // variables an increment assigns
  std::vector<std::string> reductions_read;  // r.value()
};

struct HostStmt;
using HostBlock = std::vector<HostStmt>;

// A statement of the driver. Loops and ifs that contain kernel launches are
// kept structured (so later passes can outline them); anything else is code.
struct HostStmt {
  enum class Kind {
    code,            // opaque host code
    launch,          // kernel(args...);
    for_all_nodes,   // a for_all_nodes lambda, now the kernel `kernel`
    output,          // output(name);
    pipe_loop,       // while (!pipe.empty()) { ... }
    loop,            // another while / do-while / for holding launches
    if_else,         // if holding launches
  };
  enum class LoopForm { while_loop, do_while, for_loop };

  Kind kind = Kind::code;
  SourceLoc loc;
  CodeFragment code;                 // code: the statement
  std::string kernel;                // launch / for_all_nodes
  std::vector<std::string> args;     // launch / for_all_nodes (argument text)
  std::string name;                  // output: the field or reduction; pipe_loop: the pipe
  LoopForm form = LoopForm::while_loop;
  std::string init, condition, increment;  // loop/if pieces as text
  HostBlock body;                    // loops, if (then)
  HostBlock else_body;               // if
  // code: the statement on the device; loop: its init, condition and
  // increment there (outlined loops).
  DeviceCode device;
  DeviceCode device_init, device_condition, device_increment;
  // launch: each argument as device code (a loop of iterations evaluates
  // the ones that change on the GPU before each launch).
  std::vector<DeviceCode> device_args;
  // pipe_loop, loop: set by the outlining pass when all rounds (iterations)
  // run in one kernel; names the generated struct ("pipe_loop_line25",
  // "loop_line44").
  std::string outlined;
  // pipe_loop, loop: why the outlining pass left it on the host (a comment
  // in the generated code), or "".
  std::string kept_on_host;
};

// Which of a pipe's worklists a launch argument is: `pipe.in()`,
// `pipe.out()` (spaces allowed), or neither.
enum class PipeSide { none, in, out };
PipeSide pipe_side(const std::string& argument, const std::string& pipe);
// The pipe whose out() a launch argument is ("far" for `far.out()`, spaces
// allowed), or "".
std::string output_pipe(const std::string& argument);
// The identifiers of an argument's text, but members (after `.`, `->` or
// `::`).
std::vector<std::string> identifiers_in(const std::string& text);
// The variables a loop declares: a for loop's counter, its body's numbers
// (DeviceCode::Kind::local).
std::set<std::string> loop_variables(const HostStmt& loop);
// Whether argument `index` of `launch`, in `loop`'s body, changes from one
// iteration to the next: it reads one of the loop's variables or a
// reduction's value (launch.device_args; without them, by its text).
bool argument_varies(const HostStmt& loop, const HostStmt& launch, size_t index);

struct ProgramParam {
  Variable var;
  // How the value is parsed: u32, i32, u64, i64, f32, f64 or boolean.
  std::string value_kind;
  std::optional<std::string> default_value;  // as written
  bool is_node = false;                      // a vertex id (range-checked)
  SourceLoc loc;
  // "--max-iterations" for max_iterations
  std::string option_name() const;
};

// A field named by path_lengths_fit(f) in require(): it holds sums of edge
// weights along paths, so the program refuses graphs that could overflow it.
struct PathLengthField {
  std::string name;
  std::string element_type;
};

struct Driver {
  std::string name;
  SourceLoc loc;
  std::string graph_param;
  std::vector<ProgramParam> params;
  HostBlock body;
  bool uses_pipe = false;  // declares a Pipe (its worklists take GPU memory)
  // Holds a label: a goto may skip statements of its top level.
  bool has_labels = false;
  // require(g, ...): what the program assumes of its graph (the runtime's
  // irgl/lang/input.h): Input enumerator names, and path-length fields.
  std::vector<std::string> input_requirements;
  std::vector<PathLengthField> path_length_fields;
};

// What the graph must provide, inferred from the kernels.
struct GraphNeeds {
  bool in_edges = false;
  enum class Weights { none, int32, float32 } weights = Weights::none;
};

struct Module {
  std::string source_file;  // the .irgl path as given
  std::string program_name;  // the driver's name
  std::vector<std::string> includes;  // user #include lines (not irgl.h)
  std::vector<std::string> macros;    // user #define lines
  std::vector<Field> fields;
  std::vector<Reduction> reductions;
  std::vector<UserDecl> decls;
  std::vector<Kernel> kernels;
  Driver driver;
  GraphNeeds graph_needs;

  const Field* find_field(const std::string& name) const;
  const Reduction* find_reduction(const std::string& name) const;
  const Kernel* find_kernel(const std::string& name) const;
};

//===----------------------------------------------------------------------===//
// Printing helpers shared by the backends
//===----------------------------------------------------------------------===//

// Renders a fragment, turning holes into `next_vertex` / `next_edge` /
// `run_argument` text and re-indenting continuation lines to `indent`.
std::string render(const CodeFragment& fragment, const std::string& indent,
                   const std::string& next_vertex, const std::string& next_edge,
                   const std::string& run_argument = "");

// A readable dump of the IR (for --emit=ir and tests).
std::string dump(const Module& module);

// `text` as the inside of a C++ string literal: quotes, backslashes and
// control characters escaped, and no "??" left to form a trigraph.
std::string escape_string_literal(const std::string& text);
// A file name as comments and the IR show it: as it is when it holds only
// printable characters other than '"', '\' and "??", else as a quoted,
// escaped string literal, which no newline or backslash can end early.
std::string display_file_name(const std::string& name);

}  // namespace irglc
