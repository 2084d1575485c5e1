//===- DeviceCode.h - Driver code an outlined loop runs on the GPU -*- C++ -*-===//
//
// Iteration outlining moves a whole driver loop into one kernel: its
// launches, and the driver code between them, which then runs in every
// thread of the grid. That code must mean the same there: numbers computed
// from the program's options, the loop's own variables, constants and
// reductions' values; reductions reset; a break on a condition. These
// functions say what a piece of driver code is on the device (DeviceCode in
// IR.h), or why it must stay on the host.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "FrontendContext.h"
#include "clang/AST/Stmt.h"
#include "irglc/IR/IR.h"

namespace irglc {

// A statement of a loop body without launches: a local number, a reset, a
// break on a condition, or host code.
DeviceCode device_statement(const clang::Stmt* stmt, FrontendContext& context);
// A for loop's init: the declaration of its counter(s).
DeviceCode device_loop_init(const clang::Stmt* init, FrontendContext& context);
// A loop's condition (nothing written) or a for loop's increment (writes
// only variables; IterationOutlining checks they are the loop's own).
DeviceCode device_expression(const clang::Stmt* expr, FrontendContext& context,
                             bool may_write);

}  // namespace irglc
