//===- FrontendContext.cpp ----------------------------------------------===//

#include "FrontendContext.h"

#include <algorithm>

#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

namespace irglc {

using namespace clang;

namespace {
// Markers the Rewriter writes in place of hole keywords; fragment() splits
// the text at them. Control characters never occur in C++ source.
// (Split literals: "\x01E" would be the single character 0x1E.)
constexpr char kNextVertexMarker[] = "\x01" "V" "\x01";
constexpr char kNextEdgeMarker[] = "\x01" "E" "\x01";
constexpr char kRunArgumentMarker[] = "\x01" "R" "\x01";
constexpr size_t kMarkerLength = sizeof kNextVertexMarker - 1;
static_assert(sizeof kNextEdgeMarker - 1 == kMarkerLength, "markers of one length");
static_assert(sizeof kRunArgumentMarker - 1 == kMarkerLength, "markers of one length");

// The marker at `at` in `code`, as a segment kind.
CodeSegment::Kind marker_kind(const std::string& code, size_t at) {
  switch (code[at + 1]) {
    case 'V': return CodeSegment::Kind::next_vertex;
    case 'E': return CodeSegment::Kind::next_edge;
    default: return CodeSegment::Kind::run_argument;
  }
}
}  // namespace

FrontendContext::FrontendContext(ASTContext& ast, std::vector<SchedulePragma> pragmas)
    : ast_(ast),
      rewriter_(ast.getSourceManager(), ast.getLangOpts()),
      policy_(ast.getPrintingPolicy()),
      pragmas_(std::move(pragmas)) {
  policy_.SuppressTagKeyword = true;
  policy_.SuppressScope = false;
  policy_.FullyQualifiedName = false;
  policy_.PrintCanonicalTypes = false;
  DiagnosticsEngine& diags = ast.getDiagnostics();
  error_id_ = diags.getCustomDiagID(DiagnosticsEngine::Error, "%0");
  warning_id_ = diags.getCustomDiagID(DiagnosticsEngine::Warning, "%0");
  note_id_ = diags.getCustomDiagID(DiagnosticsEngine::Note, "%0");
}

void FrontendContext::error(SourceLocation where, const std::string& message) {
  // Code that two checks visit (a loop body and the kernel around it) is
  // reported once.
  if (!errors_reported_.insert({where.getRawEncoding(), message}).second) return;
  ast_.getDiagnostics().Report(where, error_id_) << message;
}

void FrontendContext::warning(SourceLocation where, const std::string& message) {
  ast_.getDiagnostics().Report(where, warning_id_) << message;
}

void FrontendContext::note(SourceLocation where, const std::string& message) {
  ast_.getDiagnostics().Report(where, note_id_) << message;
}

bool FrontendContext::has_errors() const { return ast_.getDiagnostics().hasErrorOccurred(); }

SourceLoc FrontendContext::loc(SourceLocation where) {
  SourceLoc result;
  const PresumedLoc presumed = sources().getPresumedLoc(sources().getExpansionLoc(where));
  if (presumed.isInvalid()) return result;
  result.file = presumed.getFilename();
  result.line = presumed.getLine();
  result.column = presumed.getColumn();
  return result;
}

bool FrontendContext::in_main_file(SourceLocation where) {
  return where.isValid() && sources().isInMainFile(sources().getExpansionLoc(where));
}

CharSourceRange FrontendContext::file_range(SourceRange range, bool include_semicolon) {
  CharSourceRange chars = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(range),
                                                   sources(), ast_.getLangOpts());
  if (chars.isInvalid()) {
    // Code produced by a macro: fall back to the expansion range.
    chars = sources().getExpansionRange(range);
    chars = Lexer::makeFileCharRange(chars, sources(), ast_.getLangOpts());
  }
  if (include_semicolon && chars.isValid()) {
    // Statement ranges stop before the ';' that ends them.
    const auto next =
        Lexer::findNextToken(chars.getEnd().getLocWithOffset(-1), sources(), ast_.getLangOpts());
    if (next && next->is(tok::semi)) chars.setEnd(next->getEndLoc());
  }
  return chars;
}

namespace {
// Whether a statement's source range stops just before the ';' ending it.
bool ends_before_semicolon(const Stmt* stmt) {
  if (!stmt) return false;
  if (isa<Expr>(stmt) || isa<ReturnStmt>(stmt) || isa<BreakStmt>(stmt) ||
      isa<ContinueStmt>(stmt) || isa<GotoStmt>(stmt) || isa<DoStmt>(stmt))
    return true;
  if (const auto* if_stmt = dyn_cast<IfStmt>(stmt))
    return ends_before_semicolon(if_stmt->getElse() ? if_stmt->getElse() : if_stmt->getThen());
  if (const auto* loop = dyn_cast<ForStmt>(stmt)) return ends_before_semicolon(loop->getBody());
  if (const auto* loop = dyn_cast<WhileStmt>(stmt)) return ends_before_semicolon(loop->getBody());
  if (const auto* loop = dyn_cast<CXXForRangeStmt>(stmt)) return ends_before_semicolon(loop->getBody());
  if (const auto* label = dyn_cast<LabelStmt>(stmt)) return ends_before_semicolon(label->getSubStmt());
  return false;
}
}  // namespace

CodeFragment FrontendContext::fragment(const Stmt* stmt) {
  CodeFragment result;
  result.loc = loc(stmt->getBeginLoc());
  result.indent_column = result.loc.column;
  const CharSourceRange range = file_range(stmt->getSourceRange(), ends_before_semicolon(stmt));
  std::string code = rewriter_.getRewrittenText(range);
  // Split at hole markers.
  size_t start = 0;
  while (start < code.size()) {
    const size_t at = std::min({code.find(kNextVertexMarker, start),
                                code.find(kNextEdgeMarker, start),
                                code.find(kRunArgumentMarker, start)});
    if (at == std::string::npos) {
      result.segments.push_back({CodeSegment::Kind::text, code.substr(start)});
      break;
    }
    if (at > start) result.segments.push_back({CodeSegment::Kind::text, code.substr(start, at - start)});
    result.segments.push_back({marker_kind(code, at), ""});
    start = at + kMarkerLength;
  }
  return result;
}

std::string FrontendContext::text(SourceRange range) {
  return rewriter_.getRewrittenText(file_range(range, false));
}

std::string FrontendContext::original_text(SourceRange range) {
  return Lexer::getSourceText(file_range(range, false), sources(), ast_.getLangOpts()).str();
}

void FrontendContext::mark_hole(const Stmt* stmt, CodeSegment::Kind kind) {
  const SourceLocation keyword = sources().getExpansionLoc(stmt->getBeginLoc());
  const unsigned length = isa<ContinueStmt>(stmt) ? 8 : 6;  // "continue" / "return"
  rewriter_.ReplaceText(keyword, length,
                        kind == CodeSegment::Kind::next_vertex ? kNextVertexMarker : kNextEdgeMarker);
}

void FrontendContext::mark_run_argument(SourceLocation paren) {
  const SourceLocation at = sources().getExpansionLoc(paren);
  if (run_arguments_.insert(at.getRawEncoding()).second)
    rewriter_.InsertTextBefore(at, kRunArgumentMarker);
}

void FrontendContext::replace(SourceRange range, const std::string& replacement) {
  rewriter_.ReplaceText(file_range(range, false), replacement);
}

std::string FrontendContext::type_name(QualType type) { return type.getAsString(policy_); }

std::string FrontendContext::declaration(QualType type, const std::string& name) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  type.print(stream, policy_, name);
  return stream.str();
}

}  // namespace irglc
