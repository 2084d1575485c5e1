//===- FrontendContext.h - State shared by the front end's parts -*- C++ -*-===//
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "SchedulePragma.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "irglc/IR/IR.h"

namespace irglc {

// Everything the front end's builders share while turning one translation
// unit into a Module: the AST, a Rewriter over the main file (edits made
// before a statement is copied show up in its text), diagnostics, and the
// file-scope declarations recognised so far.
class FrontendContext {
 public:
  FrontendContext(clang::ASTContext& ast, std::vector<SchedulePragma> pragmas);

  clang::ASTContext& ast() { return ast_; }
  clang::SourceManager& sources() { return ast_.getSourceManager(); }
  clang::Rewriter& rewriter() { return rewriter_; }

  // Diagnostics, printed by Clang as file:line:col with the line and a caret.
  void error(clang::SourceLocation where, const std::string& message);
  void warning(clang::SourceLocation where, const std::string& message);
  void note(clang::SourceLocation where, const std::string& message);
  bool has_errors() const;
  // Errors reported so far: a builder compares counts to see its own.
  size_t errors_reported() const { return errors_reported_.size(); }

  SourceLoc loc(clang::SourceLocation where);
  bool in_main_file(clang::SourceLocation where);

  // The (rewritten) text of a statement, including its terminating ';'.
  // Continue/return statements registered with mark_hole() come out as holes.
  CodeFragment fragment(const clang::Stmt* stmt);
  // The (rewritten) text of an expression or any token range.
  std::string text(clang::SourceRange range);
  // Original spelling of a token range (no rewrites), e.g. a loop header.
  std::string original_text(clang::SourceRange range);

  // Makes the keyword of `stmt` (a continue or return) a hole of `kind`.
  void mark_hole(const clang::Stmt* stmt, CodeSegment::Kind kind);
  // Marks the end of a Pipe's constructor arguments, just before `paren`
  // (its closing parenthesis or brace): a run_argument hole. Once per
  // place: host code may be checked more than once.
  void mark_run_argument(clang::SourceLocation paren);
  // Replaces a token range's text in the generated copy.
  void replace(clang::SourceRange range, const std::string& replacement);

  // How a type is spelled in generated code.
  std::string type_name(clang::QualType type);
  // A declaration of `name` with that type: "uint32_t counts[8]".
  std::string declaration(clang::QualType type, const std::string& name);

  // File-scope NodeData and reductions, by declaration.
  std::map<const clang::VarDecl*, std::string> fields;
  std::map<const clang::VarDecl*, std::string> reductions;
  std::set<const clang::FunctionDecl*> kernel_decls;
  const clang::FunctionDecl* program_decl = nullptr;

  std::vector<SchedulePragma>& pragmas() { return pragmas_; }

  // What the kernels need from the graph (filled while building kernels).
  GraphNeeds graph_needs;

 private:
  clang::CharSourceRange file_range(clang::SourceRange range, bool include_semicolon);

  clang::ASTContext& ast_;
  clang::Rewriter rewriter_;
  clang::PrintingPolicy policy_;
  unsigned error_id_;
  unsigned warning_id_;
  unsigned note_id_;
  std::vector<SchedulePragma> pragmas_;
  std::set<unsigned> run_arguments_;  // mark_run_argument's places (raw encodings)
  std::set<std::pair<unsigned, std::string>> errors_reported_;  // (place, message)
};

}  // namespace irglc
