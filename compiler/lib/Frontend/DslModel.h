//===- DslModel.h - What the irgl prelude's declarations mean --*- C++ -*-===//
//
// Recognises the language's types, functions and markers in Clang's AST by
// their declarations in the prelude (namespace irgl::lang).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "irglc/IR/IR.h"

namespace irglc::dsl {

// Declared inside namespace irgl::lang (the prelude)?
bool in_prelude(const clang::Decl* decl);

// The prelude class a type names (through references, const and typedefs),
// e.g. "NodeData", "Graph", "Worklist", "Pipe", "Sum"; empty otherwise.
std::string prelude_class(clang::QualType type);

bool is_graph(clang::QualType type);
bool is_worklist(clang::QualType type);
bool is_pipe(clang::QualType type);
bool is_task_pool(clang::QualType type);  // TaskPool<T>
bool is_node_data(clang::QualType type);
bool is_array(clang::QualType type);  // Array<T>: data that is not per vertex
std::optional<ReductionOp> reduction_op(clang::QualType type);

// The element type of NodeData<T> / value type of Sum<T> etc.
clang::QualType template_argument(clang::QualType type);

bool is_kernel(const clang::FunctionDecl* function);
bool is_program(const clang::FunctionDecl* function);

// The prelude function a call invokes ("atomic_min", "for_all_nodes",
// "output", ...), or empty when it calls something else.
std::string prelude_function(const clang::CallExpr* call);

// For `object.method(...)` on a prelude class: the class and method names.
struct MemberCall {
  std::string class_name;
  std::string method;
  const clang::Expr* object = nullptr;
};
std::optional<MemberCall> prelude_member_call(const clang::Expr* expr);

// Strips parentheses, implicit casts and temporaries.
const clang::Expr* strip(const clang::Expr* expr);

// The variable an expression names, if it is a plain reference to one.
const clang::VarDecl* referenced_var(const clang::Expr* expr);

// For `data[index]` with data a NodeData: the NodeData variable and index.
struct FieldAccess {
  const clang::VarDecl* field = nullptr;
  const clang::Expr* index = nullptr;
};
std::optional<FieldAccess> field_access(const clang::Expr* expr);

// For a range-for over `g.out_edges(v)` / `g.in_edges(v)`.
struct EdgeRangeInfo {
  const clang::VarDecl* graph = nullptr;
  const clang::Expr* vertex = nullptr;
  EdgeDirection direction = EdgeDirection::out;
};
std::optional<EdgeRangeInfo> edge_range(const clang::CXXForRangeStmt* loop);

// `for (T i : parallel(first, last))`: the call to the prelude's
// parallel(), else null. Such a loop, at the top level of a task loop's
// body, makes the task a block task (docs/language.md#tasks).
const clang::CallExpr* parallel_range(const clang::CXXForRangeStmt* loop);
// What irglc says where parallel(first, last) appears anywhere else.
extern const char* const kParallelPlacement;

// Runs `traverse` one level deeper in `depth` (a visitor's count of the
// loops, switches or functions it is inside); returns what it returns.
template <class F>
bool nested(int& depth, F&& traverse) {
  ++depth;
  const bool result = traverse();
  --depth;
  return result;
}

}  // namespace irglc::dsl
