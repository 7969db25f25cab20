//===- NvccSyntax.h - What nvcc's front end reads and clang's does not -*-===//
//
// CUDA written for nvcc sometimes holds text nvcc's front end accepts and
// clang's stops at ("expected expression"). Two such forms, seen in public
// projects, are rewritten in memory before clang reads a file:
// - a launch written `kernel << <grid, block >> > (args)` (spaces inside
//   the chevrons, as some editors format launches): clang's lexer knows
//   `<<<` and `>>>` only as single tokens. The chevrons are joined in place:
//   the text keeps its length and lines, so every line and column a profile
//   names is still the user's;
// - an object-like macro whose body is a directive,
//   `#define PRAGMA_UNROLL #pragma unroll`: C++ needs the operator form,
//   `_Pragma("unroll")`, which is what nvcc makes of it (only that line's
//   length changes).
// Comments, string and character literals, `operator<< <T>` and nested
// templates' `>> >` are left as written.
//
//===----------------------------------------------------------------------===//

#ifndef PASTA_FRONTEND_NVCCSYNTAX_H
#define PASTA_FRONTEND_NVCCSYNTAX_H

#include <optional>
#include <string>
#include <string_view>

namespace pasta {

/// The source as clang can read it, or nothing where it has none of the
/// forms above.
std::optional<std::string> rewriteNvccSyntax(std::string_view Source);

} // namespace pasta

#endif
