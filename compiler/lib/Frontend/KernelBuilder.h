//===- KernelBuilder.h - Kernels from Clang's AST --------------*- C++ -*-===//
//
// Turns a `kernel` function, or the lambda of a driver's for_all_nodes, into
// an IR Kernel: its parameters, the statements before its vertex loop, and
// the vertex loop split into pre steps (code and guards), at most one
// parallel edge loop (with its closure and accumulators) and post code.
// Reports what would not be correct under parallel execution: writes that
// race, pushes to the worklist being iterated, break/return out of parallel
// loops, and edge-loop writes to vertex-loop variables other than
// accumulations.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <set>
#include <string>

#include "DeviceCodeChecker.h"
#include "FrontendContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

namespace irglc {

class KernelBuilder {
 public:
  KernelBuilder(FrontendContext& context, DeviceCodeChecker& checker)
      : context_(context), checker_(checker) {}

  std::optional<Kernel> build_kernel(const clang::FunctionDecl* function);

  // `for_all_nodes(graph, lambda)` in the driver, as kernel `name`; the
  // lambda's captured driver variables (other than the graph) become scalar
  // parameters, returned in `captured` in parameter order.
  std::optional<Kernel> build_for_all_nodes(const clang::CallExpr* call,
                                            const std::string& name,
                                            std::vector<std::string>& captured);

 private:
  // What the code of one vertex loop may see.
  struct Scope {
    const clang::VarDecl* vertex = nullptr;
    const clang::VarDecl* graph = nullptr;
    const clang::VarDecl* iterated_worklist = nullptr;  // data-driven loops
    bool is_lambda = false;  // a for_all_nodes body: `return` ends a vertex
    // Kernel parameters and prologue locals: one copy per thread, so writes
    // to them inside the loop depend on the thread mapping.
    std::set<const clang::VarDecl*> per_thread;
    // Variables declared in the vertex body before the edge loop.
    std::set<const clang::VarDecl*> vertex_locals;
    // Anything else declared there (types, aliases, structured bindings),
    // which the code in and after the edge loop cannot use.
    std::set<const clang::Decl*> pre_declarations;
    // The kernel's whole code (function or lambda body): where its reads
    // of NodeData are looked for.
    const clang::Stmt* kernel_code = nullptr;
  };

  bool build_vertex_loop(Scope& scope, const clang::Stmt* loop_stmt, const clang::Stmt* body,
                         VertexLoop& loop, Kernel& kernel);
  // A task loop whose body holds parallel loops: its steps and task
  // variables (VertexLoop::task_steps).
  bool build_block_task(Scope& scope, const std::vector<const clang::Stmt*>& statements,
                        VertexLoop& loop, Kernel& kernel);
  bool split_body(Scope& scope, const clang::Stmt* body, VertexLoop& loop,
                  std::vector<const clang::Stmt*>& pre, std::vector<const clang::Stmt*>& guards,
                  std::vector<const clang::Stmt*>& post, const clang::CXXForRangeStmt*& edge);
  // Kernel::fields_written_whole of a built all-nodes loop whose body
  // split into `pre` (guards included), `guards` and `post`.
  std::vector<std::string> fields_written_whole(const Scope& scope, const VertexLoop& loop,
                                                const std::vector<const clang::Stmt*>& pre,
                                                const std::vector<const clang::Stmt*>& guards,
                                                const std::vector<const clang::Stmt*>& post);
  bool build_edge_loop(Scope& scope, const clang::CXXForRangeStmt* loop, EdgeLoop& edge,
                       Kernel& kernel);
  // Reports a vertex-loop variable, used at `use` in or after the edge
  // loop, whose type a Closure cannot hold; false then.
  bool check_closure_var(const clang::VarDecl* var, const clang::DeclRefExpr* use);
  // Reports uses in `code` (in or after the edge loop) of what the code
  // before the edge loop declares other than variables, once per `reported`.
  void check_pre_declaration_uses(const Scope& scope, const clang::Stmt* code,
                                  std::set<const clang::Decl*>& reported);
  // How the Closure or Accum spells the type of a vertex-loop variable.
  std::string member_type_name(const clang::VarDecl* var);
  void attach_pragma(const clang::Stmt* vertex_loop, const clang::Stmt* edge_loop,
                     EdgeLoop* edge);

  FrontendContext& context_;
  DeviceCodeChecker& checker_;
};

}  // namespace irglc
