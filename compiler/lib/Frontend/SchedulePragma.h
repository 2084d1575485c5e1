//===- SchedulePragma.h - #pragma irgl schedule(...) -----------*- C++ -*-===//
//
//   #pragma irgl schedule(twc)
//   #pragma irgl schedule(group:64)
//   #pragma irgl schedule(alb, threshold=4096, distribution=blocked)
//
// placed right before a vertex loop or its edge loop, picks the schedule of
// that loop nest, overriding --schedule.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Pragma.h"
#include "irglc/IR/IR.h"

namespace irglc {

struct SchedulePragma {
  clang::SourceLocation loc;  // of the schedule name
  Schedule schedule;
  bool used = false;  // attached to a loop
};

// Collects `#pragma irgl ...` directives while Clang preprocesses the file,
// reporting malformed ones (unknown directive, unknown schedule, bad option)
// as errors at the offending token.
class SchedulePragmaHandler : public clang::PragmaHandler {
 public:
  explicit SchedulePragmaHandler(std::vector<SchedulePragma>& out)
      : clang::PragmaHandler(""), out_(out) {}
  void HandlePragma(clang::Preprocessor& preprocessor, clang::PragmaIntroducer introducer,
                    clang::Token& first) override;

 private:
  std::vector<SchedulePragma>& out_;
};

}  // namespace irglc
