//===- NvccSyntax.h - What nvcc's front end reads and clang's does not -*-===//
//
// CUDA written for nvcc sometimes holds text nvcc's front end accepts and
// clang's stops at ("expected expression"). Four such forms, seen in public
// projects, are rewritten in memory before clang reads a file:
// - a launch written `kernel << <grid, block >> > (args)` (spaces inside
//   the chevrons, as some editors format launches): clang's lexer knows
//   `<<<` and `>>>` only as single tokens. The chevrons are joined in place:
//   the text keeps its length and lines, so every line and column a profile
//   names is still the user's;
// - an object-like macro whose body is a directive,
//   `#define PRAGMA_UNROLL #pragma unroll`: C++ needs the operator form,
//   `_Pragma("unroll")`, which is what nvcc makes of it (only that line's
//   length changes);
// - a launch whose grid or block is a braced list,
//   `k<<<grid, {32, 8, 1}>>>(args)`: nvcc initializes the `dim3` parameter
//   from it, clang reads only expressions there. The list is written
//   `::dim3{32, 8, 1}` (only that line's columns after it move);
// - a function's `__shared__ cuda::barrier<...> bar;` (also
//   `cuda::std::barrier`, `cuda::pipeline_shared_state`, arrays of them):
//   nvcc leaves the object to `init()` without running its constructor,
//   clang refuses the declaration ("initialization is not supported for
//   __shared__ variables"). It becomes `__shared__` storage of the type's
//   size and alignment and a reference of the same name to it, on the
//   declaration's lines (only their columns after it move).
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
