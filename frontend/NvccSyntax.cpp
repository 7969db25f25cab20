//===- NvccSyntax.cpp - What nvcc's front end reads and clang's does not --===//
//
// One scan of a source text: comments and literals are skipped as the lexer
// would; a launch is an opening `<< <` (or `<<<`) whose matching `>> >` (or
// `>>>`), at the same bracket depth and before any `;`, is followed by `(`;
// a braced grid or block in its configuration is named `::dim3`; a
// directive is a `#` first on its line; a `__shared__` libcu++
// synchronization object is the word `__shared__`, the type's qualified
// name, its balanced template arguments, one name, array bounds if any, and
// `;`. Edits are collected and applied at the end.
//
//===----------------------------------------------------------------------===//

#include "NvccSyntax.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace pasta {
namespace {

bool isSpace(char C) {
  return C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\f' ||
         C == '\v';
}

bool isIdentChar(char C) {
  return std::isalnum(static_cast<unsigned char>(C)) || C == '_';
}

class NvccSyntaxScanner {
public:
  explicit NvccSyntaxScanner(std::string_view Source) : S(Source) {}

  std::optional<std::string> run() {
    for (size_t I = 0; I < S.size();) {
      size_t Skipped = skipCommentOrLiteral(I);
      if (Skipped != I) {
        I = Skipped;
        continue;
      }
      if (S[I] == '#' && firstOnLine(I)) {
        I = rewriteDirectiveAt(I);
        continue;
      }
      if (S[I] == '_') {
        I = rewriteSharedSyncObjectAt(I);
        continue;
      }
      I = joinLaunchAt(I);
    }
    if (Edits.empty())
      return std::nullopt;
    return applyEdits();
  }

private:
  // Replace S[Start, Start + Length) with Text; kept in order of Start.
  struct Edit {
    size_t Start;
    size_t Length;
    std::string Text;
  };

  std::string_view S;
  std::vector<Edit> Edits;

  std::string applyEdits() const {
    std::string Out;
    Out.reserve(S.size() + 16 * Edits.size());
    size_t From = 0;
    for (const Edit &E : Edits) {
      Out.append(S.substr(From, E.Start - From));
      Out.append(E.Text);
      From = E.Start + E.Length;
    }
    Out.append(S.substr(From));
    return Out;
  }

  char at(size_t I) const { return I < S.size() ? S[I] : '\0'; }

  size_t skipSpace(size_t I) const {
    while (I < S.size() && isSpace(S[I]))
      ++I;
    return I;
  }

  // The end of a line splice at I (a backslash, spaces or tabs, then a
  // newline or CR LF, as clang's lexer splices), or 0 where none is.
  size_t spliceEnd(size_t I) const {
    if (at(I) != '\\')
      return 0;
    size_t J = I + 1;
    while (at(J) == ' ' || at(J) == '\t')
      ++J;
    if (at(J) == '\r')
      ++J;
    return at(J) == '\n' ? J + 1 : 0;
  }

  // Spaces and tabs, and line splices, which join a directive's lines.
  size_t skipLineSpace(size_t I) const {
    while (I < S.size()) {
      if (S[I] == ' ' || S[I] == '\t')
        ++I;
      else if (size_t Spliced = spliceEnd(I))
        I = Spliced;
      else
        break;
    }
    return I;
  }

  bool firstOnLine(size_t I) const {
    while (I > 0 && (S[I - 1] == ' ' || S[I - 1] == '\t'))
      --I;
    return I == 0 || S[I - 1] == '\n';
  }

  size_t identEnd(size_t I) const {
    while (I < S.size() && isIdentChar(S[I]))
      ++I;
    return I;
  }

  // The end of the directive whose text runs from I: its last line's
  // newline, continuation lines included.
  size_t lineEnd(size_t I) const {
    while (I < S.size() && S[I] != '\n') {
      size_t Spliced = spliceEnd(I);
      I = Spliced ? Spliced : I + 1;
    }
    return I;
  }

  // Past a // comment, continued lines included.
  size_t skipLineComment(size_t I) const {
    while (I < S.size() && S[I] != '\n') {
      size_t Spliced = spliceEnd(I);
      I = Spliced ? Spliced : I + 1;
    }
    return I;
  }

  size_t skipBlockComment(size_t I) const {
    size_t End = S.find("*/", I + 2);
    return End == std::string_view::npos ? S.size() : End + 2;
  }

  // Past a quoted literal whose opening quote is at I; a literal left open
  // at the end of its line ends there, as the lexer recovers.
  size_t skipQuoted(size_t I) const {
    char Quote = S[I];
    for (++I; I < S.size() && S[I] != Quote && S[I] != '\n'; ++I)
      if (S[I] == '\\')
        ++I;
    return I < S.size() ? I + 1 : I;
  }

  // R"delim( ... )delim", the quote at I.
  size_t skipRawString(size_t I) const {
    size_t Open = S.find('(', I);
    if (Open == std::string_view::npos)
      return S.size();
    std::string Close = ")";
    Close.append(S.substr(I + 1, Open - I - 1));
    Close.push_back('"');
    size_t End = S.find(Close, Open);
    return End == std::string_view::npos ? S.size() : End + Close.size();
  }

  // The identifier or number ending just before I starts with a digit:
  // a quote there is a digit separator (1'000), not a character literal.
  bool followsNumber(size_t I) const {
    size_t Start = I;
    while (Start > 0 && (isIdentChar(S[Start - 1]) || S[Start - 1] == '.'))
      --Start;
    return Start < I && std::isdigit(static_cast<unsigned char>(S[Start]));
  }

  bool followsRawPrefix(size_t I) const {
    if (I == 0 || S[I - 1] != 'R')
      return false;
    size_t Start = I - 1;
    while (Start > 0 && isIdentChar(S[Start - 1]))
      --Start;
    std::string_view Prefix = S.substr(Start, I - 1 - Start);
    return Prefix.empty() || Prefix == "u8" || Prefix == "u" || Prefix == "U" ||
           Prefix == "L";
  }

  size_t skipCommentOrLiteral(size_t I) const {
    char C = S[I];
    if (C == '/' && at(I + 1) == '/')
      return skipLineComment(I);
    if (C == '/' && at(I + 1) == '*')
      return skipBlockComment(I);
    if (C == '"')
      return followsRawPrefix(I) ? skipRawString(I) : skipQuoted(I);
    if (C == '\'' && !followsNumber(I))
      return skipQuoted(I);
    return I;
  }

  // `operator<< <T>(...)` names a function template, not a launch.
  bool followsOperatorKeyword(size_t I) const {
    while (I > 0 && isSpace(S[I - 1]))
      --I;
    size_t Start = I;
    while (Start > 0 && isIdentChar(S[Start - 1]))
      --Start;
    return S.substr(Start, I - Start) == "operator";
  }

  // End of three chevrons of kind C starting at I, whitespace between them
  // allowed, or 0 where there are not three.
  size_t chevronsEnd(size_t I, char C) const {
    for (int N = 0; N < 3; ++N) {
      if (N > 0)
        I = skipSpace(I);
      if (at(I) != C)
        return 0;
      ++I;
    }
    return I;
  }

  // The end of the closing chevrons matching an opening that ends at I, or
  // 0 where a `;`, an unbalanced bracket or the end comes first.
  size_t findClose(size_t I, size_t &CloseStart) const {
    int Depth = 0;
    while (I < S.size()) {
      size_t Skipped = skipCommentOrLiteral(I);
      if (Skipped != I) {
        I = Skipped;
        continue;
      }
      char C = S[I];
      if (C == '(' || C == '[' || C == '{') {
        ++Depth;
      } else if (C == ')' || C == ']' || C == '}') {
        if (--Depth < 0)
          return 0;
      } else if (C == ';' && Depth == 0) {
        return 0;
      } else if (C == '>' && Depth == 0) {
        size_t End = chevronsEnd(I, '>');
        if (End && at(End) != '>' && at(End) != '=') {
          CloseStart = I;
          return End;
        }
      }
      ++I;
    }
    return 0;
  }

  // Writes the three chevrons first and the whitespace found between them
  // after, over [Start, End): same length, same lines.
  void join(size_t Start, size_t End, char C) {
    if (End - Start == 3)
      return;
    std::string Text(3, C);
    for (size_t I = Start; I < End; ++I)
      if (S[I] != C)
        Text.push_back(S[I]);
    Edits.push_back({Start, End - Start, std::move(Text)});
  }

  // `_Pragma("TEXT")` for the pragma text S[Start, End): quotes and
  // backslashes escaped, continued lines joined by a space and their
  // backslash-newlines written after it, so that the file keeps its lines.
  std::string pragmaOperator(size_t Body, size_t Start, size_t End) const {
    std::string Text = "_Pragma(\"";
    for (size_t I = Start; I < End; ++I) {
      if (size_t Spliced = spliceEnd(I)) {
        Text.push_back(' ');
        I = Spliced - 1;
        continue;
      }
      if (S[I] == '\r')
        continue;
      if (S[I] == '"' || S[I] == '\\')
        Text.push_back('\\');
      Text.push_back(S[I]);
    }
    while (Text.back() == ' ' || Text.back() == '\t' || Text.back() == '\r')
      Text.pop_back();
    Text.append("\")");
    for (size_t I = Body; I < End; ++I)
      if (S[I] == '\n')
        Text.append("\\\n");
    return Text;
  }

  // Where the directive's text ends: before a comment that ends its line
  // (comment marks inside a quoted string are the pragma's text).
  size_t textEnd(size_t I, size_t End) const {
    while (I < End) {
      if (S[I] == '"' || S[I] == '\'')
        I = skipQuoted(I);
      else if (S[I] == '/' && (at(I + 1) == '/' || at(I + 1) == '*'))
        return I;
      else
        ++I;
    }
    return End;
  }

  // `#define NAME #pragma TEXT` (an object-like macro) gets the body
  // `_Pragma("TEXT")` and is passed over; in every other directive the
  // scan goes on after the `#` (a macro's body may hold a launch).
  size_t rewriteDirectiveAt(size_t Hash) {
    size_t I = skipLineSpace(Hash + 1);
    size_t WordEnd = identEnd(I);
    if (S.substr(I, WordEnd - I) != "define")
      return Hash + 1;
    I = skipLineSpace(WordEnd);
    size_t NameEnd = identEnd(I);
    if (NameEnd == I || at(NameEnd) == '(')
      return Hash + 1;
    size_t Body = skipLineSpace(NameEnd);
    if (at(Body) != '#')
      return Hash + 1;
    I = skipLineSpace(Body + 1);
    WordEnd = identEnd(I);
    if (S.substr(I, WordEnd - I) != "pragma")
      return Hash + 1;
    size_t End = lineEnd(Hash);
    size_t Text = skipLineSpace(WordEnd);
    size_t BodyEnd = textEnd(Text, End);
    Edits.push_back(
        {Body, BodyEnd - Body, pragmaOperator(Body, Text, BodyEnd)});
    return BodyEnd;
  }

  bool wordAt(size_t I, std::string_view Word) const {
    return S.substr(I, Word.size()) == Word &&
           !isIdentChar(at(I + Word.size())) &&
           (I == 0 || !isIdentChar(S[I - 1]));
  }

  // The identifier that ends just before I, spaces skipped.
  std::string_view wordBefore(size_t I) const {
    while (I > 0 && isSpace(S[I - 1]))
      --I;
    size_t Start = I;
    while (Start > 0 && isIdentChar(S[Start - 1]))
      --Start;
    return S.substr(Start, I - Start);
  }

  // Past `::` at I, spaces around it allowed, or 0 where none is.
  size_t scopeEnd(size_t I) const {
    I = skipSpace(I);
    return at(I) == ':' && at(I + 1) == ':' ? skipSpace(I + 2) : 0;
  }

  // Past the qualified name of a libcu++ synchronization object at I
  // (`cuda::barrier`, `cuda::std::barrier`, `cuda::pipeline_shared_state`,
  // optionally `::`-rooted), or 0: the classes whose defaulted constructors
  // clang does not count as empty.
  size_t syncObjectNameEnd(size_t I) const {
    if (size_t Rooted = at(I) == ':' ? scopeEnd(I) : 0)
      I = Rooted;
    if (!wordAt(I, "cuda") || !(I = scopeEnd(I + 4)))
      return 0;
    if (wordAt(I, "std") && !(I = scopeEnd(I + 3)))
      return 0;
    for (std::string_view Name : {"barrier", "pipeline_shared_state"})
      if (wordAt(I, Name))
        return I + Name.size();
    return 0;
  }

  // Past the bracketed text opening at I (`<...>` or `[...]`), nested
  // brackets of every kind balanced, or 0 where it does not close before a
  // `;` or a `{`.
  size_t bracketedEnd(size_t I) const {
    int Depth = 0;
    while (I < S.size()) {
      size_t Skipped = skipCommentOrLiteral(I);
      if (Skipped != I) {
        I = Skipped;
        continue;
      }
      char C = S[I++];
      if (C == '<' || C == '(' || C == '[')
        ++Depth;
      else if ((C == '>' || C == ')' || C == ']') && --Depth == 0)
        return I;
      else if (C == ';' || C == '{' || C == '}')
        return 0;
    }
    return 0;
  }

  // nvcc compiles a function's `__shared__ cuda::barrier<...> bar;` (the
  // CUDA programming guide's own form), warns that it will not run the
  // constructor (#20054-D) and leaves the object to `init()`; clang stops
  // ("initialization is not supported for __shared__ variables"). The
  // declaration becomes shared storage of the type's size and alignment and
  // a reference of the user's name to it, which is what nvcc builds:
  // `__shared__ T bar;` ->
  // `__shared__ __attribute__((aligned(alignof(T)))) unsigned char
  //  __pasta_shared_bar[sizeof(T)]; T (&bar) = *reinterpret_cast<T (*)>(
  //  __pasta_shared_bar);`, array bounds kept. Written on the
  // declaration's lines (its newlines after it); `extern`, several
  // declarators and an initializer are left as written.
  size_t rewriteSharedSyncObjectAt(size_t I) {
    constexpr std::string_view Shared = "__shared__";
    if (!wordAt(I, Shared) || wordBefore(I) == "extern")
      return I + 1;
    size_t TypeStart = skipSpace(I + Shared.size());
    size_t NameEnd = syncObjectNameEnd(TypeStart);
    size_t Args = skipSpace(NameEnd);
    size_t TypeEnd = NameEnd && at(Args) == '<' ? bracketedEnd(Args) : 0;
    size_t Var = skipSpace(TypeEnd);
    size_t VarEnd = TypeEnd ? identEnd(Var) : Var;
    if (VarEnd == Var)
      return I + Shared.size();
    size_t Bounds = skipSpace(VarEnd), BoundsEnd = Bounds;
    while (at(BoundsEnd) == '[' && (Bounds = bracketedEnd(BoundsEnd)))
      BoundsEnd = skipSpace(Bounds);
    if (at(BoundsEnd) != ';')
      return I + Shared.size();
    std::string Type = oneLine(TypeStart, TypeEnd);
    std::string Dims = oneLine(skipSpace(VarEnd), BoundsEnd);
    if (Type.empty() || (!Dims.empty() && Dims.front() != '['))
      return I + Shared.size();
    std::string VarName(S.substr(Var, VarEnd - Var));
    std::string Storage = "__pasta_shared_" + VarName;
    std::string Text = "__shared__ __attribute__((aligned(alignof(" + Type +
                       ")))) unsigned char " + Storage + "[sizeof(" + Type +
                       Dims + ")]; " + Type + " (&" + VarName + ")" + Dims +
                       " = *reinterpret_cast<" + Type + " (*)" + Dims + ">(" +
                       Storage + ");";
    Text.append(std::count(S.begin() + I, S.begin() + BoundsEnd, '\n'), '\n');
    Edits.push_back({I, BoundsEnd + 1 - I, std::move(Text)});
    return BoundsEnd + 1;
  }

  // S[Begin, End) with each run of whitespace one space, or nothing where
  // it holds a comment or a line splice (left to clang as written).
  std::string oneLine(size_t Begin, size_t End) const {
    std::string Text;
    for (size_t I = Begin; I < End; ++I) {
      if (S[I] == '/' || S[I] == '\\')
        return {};
      if (!isSpace(S[I]))
        Text.push_back(S[I]);
      else if (!Text.empty() && Text.back() != ' ')
        Text.push_back(' ');
    }
    while (!Text.empty() && Text.back() == ' ')
      Text.pop_back();
    return Text;
  }

  // Joins the launch whose opening chevrons start at I, if one does;
  // returns where to go on scanning.
  size_t joinLaunchAt(size_t I) {
    if (S[I] != '<' || (I > 0 && S[I - 1] == '<'))
      return I + 1;
    size_t OpenEnd = chevronsEnd(I, '<');
    if (!OpenEnd || at(OpenEnd) == '<' || at(OpenEnd) == '=' ||
        followsOperatorKeyword(I))
      return I + 1;
    size_t CloseStart = 0;
    size_t CloseEnd = findClose(OpenEnd, CloseStart);
    if (!CloseEnd || at(skipSpace(CloseEnd)) != '(')
      return I + 1;
    join(I, OpenEnd, '<');
    nameBracedDims(OpenEnd, CloseStart);
    join(CloseStart, CloseEnd, '>');
    return CloseEnd;
  }

  // The start of each of the first two arguments (grid and block) of the
  // launch configuration S[Begin, End): commas at bracket depth 0 part them.
  std::vector<size_t> dimArgumentStarts(size_t Begin, size_t End) const {
    std::vector<size_t> Starts{Begin};
    int Depth = 0;
    for (size_t I = Begin; I < End && Starts.size() < 2;) {
      size_t Skipped = skipCommentOrLiteral(I);
      if (Skipped != I) {
        I = Skipped;
        continue;
      }
      char C = S[I];
      if (C == '(' || C == '[' || C == '{')
        ++Depth;
      else if (C == ')' || C == ']' || C == '}')
        --Depth;
      else if (C == ',' && Depth == 0)
        Starts.push_back(I + 1);
      ++I;
    }
    return Starts;
  }

  // nvcc takes a braced list for the grid or the block,
  // `<<<grid, {32, 8, 1}>>>` (it initializes the dim3 parameter); clang's
  // parser reads only expressions there ("expected expression"). The list
  // is named `::dim3{...}`: the same list-initialization, so the same
  // narrowing rules; only that line's columns after it move.
  void nameBracedDims(size_t Begin, size_t End) {
    for (size_t Start : dimArgumentStarts(Begin, End)) {
      size_t First = skipSpace(Start);
      if (First < End && S[First] == '{')
        Edits.push_back({First, 0, "::dim3"});
    }
  }
};

} // namespace

std::optional<std::string> rewriteNvccSyntax(std::string_view Source) {
  return NvccSyntaxScanner(Source).run();
}

} // namespace pasta
