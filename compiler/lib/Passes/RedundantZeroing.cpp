//===- RedundantZeroing.cpp - NodeData written whole first is not zeroed --===//
//
// Every run of a program starts from zeroed NodeData: the driver resets each
// field (a memset on the GPU) before its first statement. A field whose
// first use is a launch, at the driver's top level (so it always runs), of
// an all-nodes kernel that assigns it at every vertex and reads it nowhere
// (Kernel::fields_written_whole, found by the front end) needs only sizing:
// the launch overwrites every element before anything can read one. In
// spmv, x and y are such fields; their memsets were two of a run's four
// operations. A driver with labels keeps every memset: a goto may jump over
// the launch.
//
//===----------------------------------------------------------------------===//

#include <cctype>
#include <set>

#include "irglc/Passes/Passes.h"

namespace irglc {

namespace {

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whether `text` holds `name` as a whole identifier.
bool names(const std::string& text, const std::string& name) {
  for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    const bool starts = at == 0 || !is_identifier_char(text[at - 1]);
    const size_t end = at + name.size();
    if (starts && (end == text.size() || !is_identifier_char(text[end]))) return true;
  }
  return false;
}

bool names(const CodeFragment& code, const std::string& name) {
  for (const CodeSegment& segment : code.segments)
    if (names(segment.text, name)) return true;
  return false;
}

bool args_name(const HostStmt& stmt, const std::string& name) {
  for (const std::string& arg : stmt.args)
    if (names(arg, name)) return true;
  return false;
}

// Whether a driver statement may use field `name`: a kernel it launches
// uses it, or its host code names it (conservatively, any mention).
bool uses(const Module& module, const HostStmt& stmt, const std::string& name) {
  if (names(stmt.code, name) || names(stmt.name, name) || names(stmt.init, name) ||
      names(stmt.condition, name) || names(stmt.increment, name) || args_name(stmt, name))
    return true;
  if (const Kernel* kernel = module.find_kernel(stmt.kernel))
    for (const std::string& field : kernel->fields_used)
      if (field == name) return true;
  for (const HostBlock* block : {&stmt.body, &stmt.else_body})
    for (const HostStmt& inner : *block)
      if (uses(module, inner, name)) return true;
  return false;
}

class RedundantZeroing : public Pass {
 public:
  const char* name() const override { return "redundant-zeroing"; }

  void run(Module& module, const PassOptions& options, DiagnosticPrinter&) override {
    // A goto may jump over the launch that writes a field whole; a part of
    // a multi-GPU run writes only its masters.
    if (module.driver.has_labels || options.many_gpus) return;
    std::set<std::string> used;  // by an earlier statement of the driver
    for (const HostStmt& stmt : module.driver.body) {
      const bool launches = stmt.kind == HostStmt::Kind::launch ||
                            stmt.kind == HostStmt::Kind::for_all_nodes;
      if (const Kernel* kernel = launches ? module.find_kernel(stmt.kernel) : nullptr)
        for (const std::string& written : kernel->fields_written_whole)
          if (!used.count(written) && !args_name(stmt, written)) skip_zeroing(module, written, stmt);
      for (const Field& field : module.fields)
        if (uses(module, stmt, field.name)) used.insert(field.name);
    }
  }

 private:
  static void skip_zeroing(Module& module, const std::string& name, const HostStmt& launch) {
    for (Field& field : module.fields)
      if (field.name == name && field.per_vertex) {
        field.zeroed_each_run = false;
        field.written_whole_by = launch.loc;
      }
  }
};

}  // namespace

std::unique_ptr<Pass> create_redundant_zeroing_pass() { return std::make_unique<RedundantZeroing>(); }

}  // namespace irglc
