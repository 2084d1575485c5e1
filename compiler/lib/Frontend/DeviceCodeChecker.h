//===- DeviceCodeChecker.h - What GPU code may contain ---------*- C++ -*-===//
//
// Kernels, for_all_nodes bodies and the helper functions they call run on the
// GPU. This checker reports what they cannot do there, as errors at the
// offending expression: exceptions, new/delete, virtual calls, static locals,
// inline assembly, calls to host functions (I/O included), use of host
// variables, helpers that touch NodeData, and recursion.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <map>
#include <set>
#include <vector>

#include "FrontendContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

namespace irglc {

class DeviceCodeChecker {
 public:
  explicit DeviceCodeChecker(FrontendContext& context) : context_(context) {}

  // Checks code that runs on the GPU as part of a kernel (fields and
  // reductions allowed), and every helper it calls.
  void check_kernel_code(const clang::Stmt* body);

  // Reports recursion among the helpers checked so far (call once at the end).
  void check_recursion();

  // Helper functions that kernels call (they are emitted for the device).
  const std::set<const clang::FunctionDecl*>& device_helpers() const { return helpers_; }

  // Whether a kernel body or helper uses in-edges or weights (filled while
  // checking; merged into the module's GraphNeeds).
  GraphNeeds needs;

 private:
  friend class DeviceCodeVisitor;
  void check_helper(const clang::FunctionDecl* helper);
  void record_call(const clang::FunctionDecl* caller, const clang::FunctionDecl* callee,
                   const clang::CallExpr* call);

  FrontendContext& context_;
  std::set<const clang::FunctionDecl*> helpers_;
  // helpers_ in the order they were first called, so that the recursion
  // search (and which call of a cycle it reports) does not depend on
  // pointer values.
  std::vector<const clang::FunctionDecl*> helpers_in_call_order_;
  struct CallSite {
    const clang::FunctionDecl* callee;
    const clang::CallExpr* call;
  };
  std::map<const clang::FunctionDecl*, std::vector<CallSite>> calls_;
};

}  // namespace irglc
