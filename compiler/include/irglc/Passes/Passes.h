//===- Passes.h - Transformations of the IR --------------------*- C++ -*-===//
//
// Passes run between the front end and a backend, each on the whole Module.
// A pass that finds a problem reports it as "file:line:col: error: ..."
// (with the source line and a caret when the file is readable) and makes
// the pipeline fail.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "irglc/IR/IR.h"

namespace irglc {

// What the command line asks of the passes.
struct PassOptions {
  std::optional<Schedule> schedule;  // --schedule (default: the default schedule)
  std::optional<uint64_t> alb_threshold;
  std::optional<AlbDistribution> alb_distribution;
  unsigned block_threads = 256;  // --block-threads
  // --outline: off (never), automatic (every pipe loop that can be), on
  // (every pipe loop; one that cannot is an error).
  enum class Outline { off, automatic, on } outline = Outline::automatic;
  bool instrument_load = false;  // --instrument=load (records every launch)
  // Whether the code irglc writes can name a user's extern:NAME schedule:
  // a --schedule-header declares them (or the target has no schedules).
  bool extern_schedules_declared = false;
  // --gpus=many: one process per GPU, each on a part of the graph; the
  // parts synchronise after each kernel (docs/multi-gpu.md).
  bool many_gpus = false;
};

// Reports IR-level problems in Clang's style.
class DiagnosticPrinter {
 public:
  void error(const SourceLoc& loc, const std::string& message);
  // An error that belongs to the command line, not to a source position.
  void error(const std::string& message);
  bool has_errors() const { return errors_ > 0; }

 private:
  unsigned errors_ = 0;
};

class Pass {
 public:
  virtual ~Pass() = default;
  virtual const char* name() const = 0;
  virtual void run(Module& module, const PassOptions& options, DiagnosticPrinter& diagnostics) = 0;
};

// Decides the schedule of every edge loop: a `#pragma irgl schedule` on the
// loop, else --schedule, else the default (ALB); applies the ALB options.
std::unique_ptr<Pass> create_schedule_selection_pass();

// Iteration outlining: marks the `while (!pipe.empty())` loops whose rounds
// can run in one persistent kernel (a body of kernel launches and a final
// pipe.swap(), with loop-invariant arguments).
std::unique_ptr<Pass> create_iteration_outlining_pass();

// Marks the NodeData that need no zeroing at the start of a run: those whose
// first use is a top-level launch that writes all of them before any read
// (not with --gpus=many: a part's launches write only its masters).
std::unique_ptr<Pass> create_redundant_zeroing_pass();

// --gpus=many: decides, for every kernel, how the copies of each field it
// writes are combined and sent (Kernel::part_syncs), and reports the code
// that several GPUs cannot run with the single-GPU meaning.
std::unique_ptr<Pass> create_part_sync_pass();

class PassManager {
 public:
  void add(std::unique_ptr<Pass> pass) { passes_.push_back(std::move(pass)); }
  // Runs the passes in order, stopping after the first that reports errors.
  bool run(Module& module, const PassOptions& options, DiagnosticPrinter& diagnostics);

  // The standard pipeline.
  static PassManager standard();

 private:
  std::vector<std::unique_ptr<Pass>> passes_;
};

}  // namespace irglc
