//===- PassManager.cpp -----------------------------------------------------===//

#include <fstream>
#include <iostream>

#include "irglc/Passes/Passes.h"

namespace irglc {

namespace {
// The source line `line` of `file`, or nothing when unreadable.
std::optional<std::string> source_line(const std::string& file, unsigned line) {
  std::ifstream in(file);
  std::string text;
  for (unsigned i = 0; i < line && std::getline(in, text); ++i) {
  }
  if (!in) return std::nullopt;
  return text;
}
}  // namespace

void DiagnosticPrinter::error(const SourceLoc& loc, const std::string& message) {
  ++errors_;
  std::cerr << loc.file << ":" << loc.line << ":" << loc.column << ": error: " << message << "\n";
  if (auto text = source_line(loc.file, loc.line)) {
    std::cerr << *text << "\n";
    std::string caret;
    for (unsigned i = 1; i < loc.column && i <= text->size(); ++i)
      caret += (*text)[i - 1] == '\t' ? '\t' : ' ';
    std::cerr << caret << "^\n";
  }
}

void DiagnosticPrinter::error(const std::string& message) {
  ++errors_;
  std::cerr << "irglc: error: " << message << "\n";
}

bool PassManager::run(Module& module, const PassOptions& options, DiagnosticPrinter& diagnostics) {
  for (const auto& pass : passes_) {
    pass->run(module, options, diagnostics);
    if (diagnostics.has_errors()) return false;
  }
  return true;
}

PassManager PassManager::standard() {
  PassManager manager;
  manager.add(create_schedule_selection_pass());
  manager.add(create_iteration_outlining_pass());
  manager.add(create_redundant_zeroing_pass());
  manager.add(create_part_sync_pass());
  return manager;
}

}  // namespace irglc
