//===- CodeWriter.h - Indented code, and what both backends share -*- C++ -*-===//
#pragma once

#include <functional>
#include <sstream>
#include <string>

#include "irglc/Backend/Backend.h"
#include "irglc/IR/IR.h"

namespace irglc {

// The run's options a target's driver hands on (the CUDA target's
// irgl::lang::CudaRun): a parameter of the driver and of each launcher, an
// argument of each launch and of each Pipe's constructor. The CPU target
// has none (both empty).
struct RunParameter {
  std::string type;  // "const irgl::lang::CudaRun&"
  std::string name;  // "irgl_run"
  bool empty() const { return name.empty(); }
  // ", irgl_run", or "" without one: appended to an argument list.
  std::string argument() const { return empty() ? "" : ", " + name; }
  // ", const irgl::lang::CudaRun& irgl_run", or "".
  std::string parameter() const { return empty() ? "" : ", " + type + " " + name; }
};

class CodeWriter;

// What a target adds to the driver's text (the multi-GPU program's
// synchronisation, CudaParts.h); every hook is optional.
struct DriverHooks {
  std::function<void(CodeWriter&)> prologue;  // after the resets at the start of a run
  std::function<void(CodeWriter&, const HostStmt&)> after_launch;  // launch or for_all_nodes
  // The call for output(f): "output(f)" by default.
  std::function<std::string(const CodeWriter&, const std::string& field)> output_call;
};

// Accumulates generated code with indentation.
class CodeWriter {
 public:
  void set_driver_hooks(DriverHooks hooks) { hooks_ = std::move(hooks); }
  const DriverHooks& driver_hooks() const { return hooks_; }
  // The driver's run parameter (none by default).
  void set_run(RunParameter run) { run_ = std::move(run); }
  const RunParameter& run() const { return run_; }

  void line(const std::string& text = "");
  // Writes `text` and indents what follows.
  void open(const std::string& text);
  // Unindents, then writes `text`.
  void close(const std::string& text = "}");
  // Unindents, writes `text` and indents again: "} else {".
  void reopen(const std::string& text);
  // "// <text>" at the current indentation.
  void comment(const std::string& text);
  // A copied fragment; holes become `next_vertex` / `next_edge`.
  void fragment(const CodeFragment& code, const std::string& next_vertex = "continue",
                const std::string& next_edge = "continue");
  // A copied expression for a line of the current indentation where it
  // starts after `column` characters ("if (" is 4): continuation lines keep
  // their place relative to its first character. No trailing newline.
  std::string expression(const CodeFragment& code, size_t column,
                         const std::string& next_vertex = "continue",
                         const std::string& next_edge = "continue") const;
  std::string indent() const { return std::string(2 * depth_, ' '); }
  std::string str() const { return out_.str(); }

 private:
  std::ostringstream out_;
  unsigned depth_ = 0;
  RunParameter run_;
  DriverHooks hooks_;
};

// "a, b, c": the items that are not empty, comma-separated.
std::string comma_separated(const std::vector<std::string>& items);
// The driver's options as parameters ("uint32_t depth", with `with_defaults`
// "uint32_t depth = 4"), in order.
std::vector<std::string> option_parameters(const Driver& driver, bool with_defaults);

// "irglc_bfs": the namespace of everything generated for a program.
std::string program_namespace(const Module& module);
// "bfs.irgl:12" for comments.
std::string where(const SourceLoc& loc);
// The first line of every generated file.
void write_banner(CodeWriter& out, const Module& module, const BackendOptions& options,
                  const std::string& description);
// The user's #include and #define lines.
void write_user_includes(CodeWriter& out, const Module& module);
// The file-scope declarations in source order: vertex data, reductions and
// the user's declarations (vertex data may hold the user's types, so the
// order matters).
void write_file_scope_declarations(CodeWriter& out, const Module& module);

// Writes the device path of an outlined pipe loop, up to and including
// "} else {" before the host loop, which write_driver writes after it.
using OutlinedLoopWriter = std::function<void(CodeWriter& out, const HostStmt& loop)>;

// The driver function (same text for every target: kernels are called by
// their launchers' names). Outlined pipe loops go through `outlined` when
// the target has them.
void write_driver(CodeWriter& out, const Module& module, bool with_defaults,
                  const OutlinedLoopWriter& outlined = {});
// A launch or for_all_nodes statement as a call: "expand(g, pipe.in(), pipe.out())",
// with `run`'s argument last when there is one.
std::string launch_text(const HostStmt& launch, const RunParameter& run = {});
// Whether the outlining pass marked some pipe loop of the driver.
bool has_outlined_loops(const Module& module);
// The driver's signature: "void bfs(const Graph& g, Node source)", with
// `run`'s parameter last when there is one.
std::string driver_signature(const Module& module, bool with_defaults,
                             const RunParameter& run = {});

// The body of a vertex loop as sequential code: pre steps (guards become
// nested ifs), the edge loop as a plain for loop, post code.
void write_sequential_vertex_body(CodeWriter& out, const VertexLoop& loop,
                                  const std::string& next_vertex);
// A block task's variables, `struct TaskVariables { ... };`, and
// `irgl_task_ends` when `with_end_flag` (the GPU's task code tells the
// block's other threads that a `continue` ended the task).
void write_task_variables(CodeWriter& out, const VertexLoop& loop, bool with_end_flag);
// "for (Edge e : g.out_edges(n))"
std::string edge_loop_header(const EdgeLoop& edge);

// The constants irgl_largest_path_in_FIELD of path_lengths_fit(FIELD).
void write_path_length_bounds(CodeWriter& out, const Module& module);
// Whether the program states any require() of its graph.
bool has_requirements(const Module& module);
// Statements that add the program's require() to the ProgramDescription
// named `description` (with a comment saying where they come from).
void write_graph_requirements(CodeWriter& out, const Module& module,
                              const std::string& description);
// For --emit=program, in the program's namespace: the path-length bounds
// and struct irgl_parameters, the driver's parameters with their defaults
// (evaluated there, where the program's own names are), which main() reads
// the options into.
void write_program_parameters(CodeWriter& out, const Module& module);
// main() for --emit=program: the ProgramDescription and a call to
// run_program with `target_expression` (a ProgramTarget).
void write_program_main(CodeWriter& out, const Module& module, const std::string& target_name,
                        const std::string& target_setup, const std::string& target_expression,
                        const std::string& schedules);

}  // namespace irglc
