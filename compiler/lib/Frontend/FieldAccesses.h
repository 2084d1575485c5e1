//===- FieldAccesses.h - How a vertex loop reads and writes vertex data -*- C++ -*-===//
//
// Every access to a NodeData in a kernel's vertex loop, with how it updates
// the field (assignment, an atomic's reduction, an increment) and where
// (at the loop's own vertex, at an out-edge's destination, or elsewhere),
// and where the loop pushes to worklists. A multi-GPU program
// (irglc --gpus=many) synchronises the fields from this (PartSync.cpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <vector>

#include "FrontendContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "irglc/IR/IR.h"

namespace irglc {

struct LoopAccesses {
  std::vector<FieldAccess> fields;
  bool pushes_at_out_edge_destinations = true;  // as Kernel's
  bool uses_graph = false;                       // Kernel::loop_uses_graph
  // Every push follows a successful atomic_min on the pushed destination
  // (and there is one): a part of Kernel::pushes_chain.
  bool pushes_follow_min_decrease = false;
};

// The accesses in `body`, where `vertex` is the loop's variable and
// `edge_loop` its edge loop (null without one).
LoopAccesses loop_accesses(FrontendContext& context, const clang::Stmt* body,
                           const clang::VarDecl* vertex, const clang::CXXForRangeStmt* edge_loop);

}  // namespace irglc
