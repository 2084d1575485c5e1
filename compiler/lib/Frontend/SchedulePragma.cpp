//===- SchedulePragma.cpp - #pragma irgl schedule(...) ---------------------===//

#include "SchedulePragma.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Lex/Preprocessor.h"

namespace irglc {

using namespace clang;

namespace {

void report(Preprocessor& preprocessor, SourceLocation where, const std::string& message) {
  DiagnosticsEngine& diags = preprocessor.getDiagnostics();
  diags.Report(where, diags.getCustomDiagID(DiagnosticsEngine::Error, "%0")) << message;
}

// Skips the rest of the directive. `token` is the last token read: when it
// already ends the directive, discarding more would read past it (into the
// rest of the file).
void finish_directive(Preprocessor& preprocessor, const Token& token) {
  if (token.isNot(tok::eod)) preprocessor.DiscardUntilEndOfDirective();
}

// Reads tokens up to ',' or ')' at depth 0 and glues their spellings, so
// `merge-path` and `group:64` come back as one word.
std::string read_word(Preprocessor& preprocessor, Token& token) {
  std::string word;
  while (token.isNot(tok::comma) && token.isNot(tok::r_paren) && token.isNot(tok::eod)) {
    word += preprocessor.getSpelling(token);
    preprocessor.Lex(token);
  }
  return word;
}

}  // namespace

void SchedulePragmaHandler::HandlePragma(Preprocessor& preprocessor, PragmaIntroducer,
                                         Token& first) {
  // `first` is the directive's name: PragmaNamespace has already read the
  // token after `#pragma irgl` to choose this handler.
  Token token = first;
  if (token.isNot(tok::identifier) || preprocessor.getSpelling(token) != "schedule") {
    report(preprocessor, token.getLocation(),
           "unknown '#pragma irgl' directive (expected 'schedule(...)')");
    finish_directive(preprocessor, token);
    return;
  }
  preprocessor.Lex(token);
  if (token.isNot(tok::l_paren)) {
    report(preprocessor, token.getLocation(), "expected '(' after '#pragma irgl schedule'");
    finish_directive(preprocessor, token);
    return;
  }
  preprocessor.Lex(token);
  SchedulePragma pragma;
  pragma.loc = token.getLocation();
  const std::string name = read_word(preprocessor, token);
  if (std::string problem = parse_schedule_name(name, pragma.schedule); !problem.empty()) {
    report(preprocessor, pragma.loc, problem);
    finish_directive(preprocessor, token);
    return;
  }
  while (token.is(tok::comma)) {
    preprocessor.Lex(token);
    const SourceLocation option_loc = token.getLocation();
    if (std::string problem = apply_schedule_option(read_word(preprocessor, token), pragma.schedule);
        !problem.empty()) {
      report(preprocessor, option_loc, problem);
      finish_directive(preprocessor, token);
      return;
    }
  }
  if (token.isNot(tok::r_paren)) {
    report(preprocessor, token.getLocation(), "expected ')' to end '#pragma irgl schedule'");
    finish_directive(preprocessor, token);
    return;
  }
  finish_directive(preprocessor, token);
  out_.push_back(pragma);
}

}  // namespace irglc
