//===- Backend.h - IR to C++ / CUDA ----------------------------*- C++ -*-===//
#pragma once

#include <string>
#include <vector>

#include "irglc/IR/IR.h"

namespace irglc {

enum class Target { cuda, cpu };
enum class EmitKind { program, library };

struct BackendOptions {
  Target target = Target::cuda;
  EmitKind emit = EmitKind::program;
  unsigned block_threads = 256;  // threads per block of every kernel
  std::string header_name;       // library mode: the header the source includes
  std::string command_line;      // how irglc was invoked, for the banner
  bool instrument_load = false;  // record per-block load (--instrument=load)
  bool coop = true;              // cooperative conversion of pushes (--no-coop: off)
  bool many_gpus = false;        // --gpus=many: a part per GPU (docs/multi-gpu.md)
  // #include'd by CUDA code after the runtime: the users' extern:NAME
  // schedules (--schedule-header), as the compiler of the .cu will find them.
  std::vector<std::string> schedule_headers;
};

struct GeneratedCode {
  std::string source;  // .cu or .cpp
  std::string header;  // library mode only
};

// A sequential C++ program: the reference the GPU code is checked against.
GeneratedCode generate_cpu(const Module& module, const BackendOptions& options);
// One .cu file (and in library mode a header declaring the entry point).
GeneratedCode generate_cuda(const Module& module, const BackendOptions& options);
// The library entry point's parameters, outputs and graph needs as JSON
// (--emit=signature), for bindings that call it.
std::string signature_json(const Module& module);

}  // namespace irglc
