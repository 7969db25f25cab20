//===- OwnBuiltins.cpp - A user's own function named as a target builtin --===//
//
// A raw lexer over the text (no preprocessing, comments and literals
// skipped by the lexer): a declaration is `TYPE NAME (`, where TYPE ends in
// an identifier or `>`; `return NAME(` and the other keywords that start an
// expression are calls.
//
//===----------------------------------------------------------------------===//

#include "OwnBuiltins.h"

#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>

using namespace clang;

namespace pasta {
namespace {

// Keywords after which a name followed by `(` is a call, not a declaration.
bool startsExpression(StringRef Word) {
  return llvm::StringSwitch<bool>(Word)
      .Cases({"return", "case", "else", "do", "throw", "co_return", "co_yield",
              "co_await", "new", "delete", "sizeof", "typeid", "decltype",
              "alignof", "noexcept", "goto", "and", "or", "not"},
             true)
      .Default(false);
}

} // namespace

std::vector<std::string> declaredFunctionNames(StringRef Source,
                                               const LangOptions &Lang) {
  std::vector<Token> Tokens;
  Lexer Raw(SourceLocation(), Lang, Source.begin(), Source.begin(),
            Source.end());
  Token T;
  for (Raw.LexFromRawLexer(T); T.isNot(tok::eof); Raw.LexFromRawLexer(T))
    Tokens.push_back(T);
  std::vector<std::string> Names;
  for (size_t I = 1; I + 1 < Tokens.size(); ++I) {
    const Token &Type = Tokens[I - 1];
    bool TypeBefore =
        Type.is(tok::greater) || (Type.is(tok::raw_identifier) &&
                                  !startsExpression(Type.getRawIdentifier()));
    if (!TypeBefore || Tokens[I].isNot(tok::raw_identifier) ||
        Tokens[I + 1].isNot(tok::l_paren))
      continue;
    std::string Name = Tokens[I].getRawIdentifier().str();
    if (std::find(Names.begin(), Names.end(), Name) == Names.end())
      Names.push_back(Name);
  }
  return Names;
}

} // namespace pasta
