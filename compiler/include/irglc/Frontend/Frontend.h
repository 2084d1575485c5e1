//===- Frontend.h - .irgl source to IR -------------------------*- C++ -*-===//
//
// Parses a .irgl file with Clang (C++17 plus the irgl prelude), checks what
// the language does not support, and builds the IR. Errors and warnings are
// printed the way Clang prints its own (file:line:col, the source line and a
// caret) on stderr.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "irglc/IR/IR.h"

namespace irglc {

struct FrontendOptions {
  std::string input;                      // the .irgl file
  std::vector<std::string> include_dirs;  // -I
  std::vector<std::string> defines;       // -D (NAME or NAME=VALUE)
  std::string prelude_dir;                // holds irgl.h
  std::string clang_resource_dir;         // Clang's builtin headers
};

// The module, or nothing when the program has errors (already reported).
std::optional<Module> parse_program(const FrontendOptions& options);

}  // namespace irglc
