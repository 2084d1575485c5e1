//===- CudaKernels.h - Kernels as schedule Bodies --------------*- C++ -*-===//
//
// Each kernel becomes a Body struct (runtime/include/irgl/gpu/schedule/
// body.h): its parameters, vertex data and reductions as members, the
// vertex code before the edge loop as pre(), the edge loop's body as edge(),
// the code after it as post(), with the closure and accumulators as structs.
// Its launcher, which has the kernel's .irgl name, runs the Body with the
// schedule policy the schedule pass chose.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>

#include "CodeWriter.h"
#include "irglc/Backend/Backend.h"

namespace irglc {

void write_scheduled_kernel(CodeWriter& out, const Module& module, const Kernel& kernel,
                            const BackendOptions& options);

// The schedule a kernel runs with ("alb", "thread", ...).
std::string kernel_schedule_name(const Kernel& kernel);
// "expand_body": the kernel's Body struct.
std::string body_name(const Kernel& kernel);
// The kernel's schedule policy type (runtime/include/irgl/gpu/schedule/
// schedules.cuh), "schedule::Alb<256>".
std::string policy(const Kernel& kernel, unsigned threads);

}  // namespace irglc
