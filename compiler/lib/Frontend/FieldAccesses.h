//===- FieldAccesses.h - How a vertex loop reads and writes vertex data -*- C++ -*-===//
//
// Every access to a NodeData in a kernel's vertex loop, with how it updates
// the field (assignment, an atomic's reduction, an increment) and where
// (at the loop's own vertex or elsewhere). A multi-GPU program
// (irglc --gpus=many) synchronises the fields from this (PartSync.cpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <vector>

#include "FrontendContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "irglc/IR/IR.h"

namespace irglc {

// The accesses in `body`, where `vertex` is the loop's variable.
std::vector<FieldAccess> field_accesses(FrontendContext& context, const clang::Stmt* body,
                                        const clang::VarDecl* vertex);

}  // namespace irglc
