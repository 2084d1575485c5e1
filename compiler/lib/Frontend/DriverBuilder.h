//===- DriverBuilder.h - The host driver from Clang's AST ------*- C++ -*-===//
//
// Turns the `program` function into the IR's Driver: its command-line
// parameters, and its body as host statements where kernel launches,
// for_all_nodes (which becomes a kernel), outputs, pipe loops and the loops
// and ifs around launches are explicit; require() calls become the driver's
// input requirements. Reports host code that would touch GPU data directly.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <vector>

#include "FrontendContext.h"
#include "KernelBuilder.h"

namespace irglc {

class DriverBuilder {
 public:
  DriverBuilder(FrontendContext& context, KernelBuilder& kernels)
      : context_(context), kernels_(kernels) {}

  // The driver; kernels made from for_all_nodes bodies are appended to
  // `new_kernels`.
  std::optional<Driver> build(const clang::FunctionDecl* program, std::vector<Kernel>& new_kernels);

 private:
  HostBlock build_block(const clang::Stmt* body);
  HostStmt build_stmt(const clang::Stmt* stmt);
  bool build_call(const clang::Stmt* stmt, HostStmt& out);
  bool build_requirement(const clang::Stmt* stmt, bool top_level);
  void add_path_length_field(const clang::CallExpr* call);
  void check_host_code(const clang::Stmt* stmt);

  FrontendContext& context_;
  KernelBuilder& kernels_;
  std::vector<Kernel>* new_kernels_ = nullptr;
  Driver* driver_ = nullptr;             // the driver being built
  const clang::Stmt* program_body_ = nullptr;
  bool uses_pipe_ = false;
};

}  // namespace irglc
