//===- ReservedNames.h - Names the generated code keeps for itself -*- C++ -*-===//
//
// The generated code puts the program's file-scope declarations in one
// namespace (irglc_<program>) beside what irglc defines for the program
// (each kernel's Body struct, make_<kernel>, <kernel>_options, ...), refers
// to the runtime's types and functions there by their plain names, and
// copies kernel code into member functions of the Body structs, whose other
// members then hide file-scope names of the same spelling. A name of the
// program that would collide with any of these is an error where it is
// declared (or, for the Body's own members, where kernel code uses it);
// docs/language.md lists the names.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <set>
#include <string>
#include <vector>

#include "FrontendContext.h"
#include "clang/AST/Decl.h"

namespace irglc {

// Where a name is declared, which decides what it may collide with.
enum class NameScope {
  file,           // file scope (kernels and the program included)
  file_data,      // file-scope vertex data and reductions, also Body members
  body_member,    // a member of Body structs: kernel parameters, driver
                  // values a for_all_nodes body captures
  program_param,  // a parameter of the program (and of the library's run())
  driver_local,   // a variable of the driver
  kernel_local,   // a variable of a kernel or for_all_nodes body
};

// The members every Body struct has (runtime/include/irgl/gpu/schedule/
// body.h): kernel code cannot use file-scope names spelled like them.
bool is_body_member_name(const std::string& name);

class ReservedNames {
 public:
  // The program's kernels (their Body structs and helpers are named after
  // them), its name, vertex data and reductions.
  ReservedNames(std::vector<std::string> kernels, std::string program,
                std::set<std::string> data);

  // Why `name` (of a function, or not) cannot be declared in `scope` (""
  // when it can), completing "'name' is reserved: ...".
  std::string problem(const std::string& name, NameScope scope, bool function = false) const;
  // Reports `name`, declared at `where` in `scope`, if it is reserved.
  void check(FrontendContext& context, clang::SourceLocation where, const std::string& name,
             NameScope scope, bool function = false) const;

  // Checks the names the main file declares at file scope.
  void check_file_scope(FrontendContext& context, const clang::TranslationUnitDecl* unit) const;
  // Checks the parameters and local variables of the kernels and the program.
  void check_program(FrontendContext& context,
                     const std::vector<const clang::FunctionDecl*>& kernels,
                     const clang::FunctionDecl* program) const;

 private:
  std::string generated_problem(const std::string& name) const;

  std::vector<std::string> kernels_;
  std::string program_;
  std::set<std::string> data_;
};

}  // namespace irglc
