//===- CudaOutline.h - Outlined pipe loops in CUDA -------------*- C++ -*-===//
//
// A pipe loop the outlining pass marked (HostStmt::outlined) becomes a
// "rounds" struct whose round() runs the loop's kernels once, in order, with
// the round's worklists, inside the persistent kernel of
// runtime/include/irgl/gpu/schedule/outline.cuh; the driver runs it unless
// the program's --outline=off, and keeps the host loop for that case.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "CodeWriter.h"
#include "irglc/Backend/Backend.h"

namespace irglc {

// The rounds structs of every outlined loop of the driver.
void write_outlined_rounds(CodeWriter& out, const Module& module, const BackendOptions& options);

// The driver's device path of one outlined loop, up to "} else {".
void write_outlined_loop(CodeWriter& out, const Module& module, const HostStmt& loop,
                         const BackendOptions& options);

}  // namespace irglc
