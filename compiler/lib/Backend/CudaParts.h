//===- CudaParts.h - The synchronisation of a multi-GPU program -*- C++ -*-===//
//
// irglc --gpus=many: the driver of a multi-GPU program syncs the fields
// each launch wrote (Kernel::part_syncs, from the part-sync pass) right
// after it, combines reductions over the GPUs and gathers outputs
// (runtime: irgl/lang/cuda_parts.cuh).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "CodeWriter.h"

namespace irglc {

// The copies' state of every synchronised field, at file scope.
void write_part_copies(CodeWriter& out, const Module& module);
// The driver's additions (CodeWriter::set_driver_hooks).
DriverHooks part_sync_hooks(const Module& module);
// main()'s target: a PartsTarget with the program's `footprint` (the
// DeviceFootprint initialiser CudaTarget takes).
std::string parts_target_setup(const Module& module, const std::string& footprint);

}  // namespace irglc
