// What one run of an irglc CUDA program may choose without recompiling, in
// one object: the generated program's command line fills it (CudaTarget),
// and the driver hands it to every launch, pipe and outlined loop. The
// defaults are what irglc compiled; library callers pass CudaRun{}.
#pragma once

#include "irgl/gpu/schedule/load_log.h"
#include "irgl/gpu/schedule/options.h"
#include "irgl/gpu/worklist/frontier_policy.h"

namespace irgl::lang {

struct CudaRun {
  gpu::schedule::AlbOverrides alb;  // --alb-threshold, --alb-distribution, --alb-rows
  gpu::schedule::OutlineMode outline = gpu::schedule::OutlineMode::automatic;  // --outline
  gpu::FrontierMode frontier = gpu::FrontierMode::automatic;                   // --frontier
  // Where the run records its launches (programs built with --instrument=load)
  // and its pipes' frontier choices; none: not recorded.
  gpu::schedule::LoadLog* load_log = nullptr;
  gpu::FrontierLog* frontier_log = nullptr;

  // A launch site's options under this run, before the site adds what irglc
  // compiled into it.
  gpu::schedule::RunOptions options(const char* kernel_name) const {
    gpu::schedule::RunOptions options;
    options.kernel_name = kernel_name;
    options.alb_overrides = alb;
    options.load_log = load_log;
    return options;
  }
};

}  // namespace irgl::lang
