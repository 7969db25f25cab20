//===- OwnBuiltins.h - A user's own function named as a target builtin -*-===//
//
// gcc declares some x86 intrinsics in its headers (`__rdtsc` is an inline
// function of ia32intrin.h), clang makes them builtins of the target. Code
// written for gcc that defines its own, without those headers
// (VanitySearch's `static uint64_t inline __rdtsc()` in Int.h, which nvcc
// hands to g++), stops clang: "static declaration of '__rdtsc' follows
// non-static declaration", on the host side and again in the device
// compile (the host target is its auxiliary one). nvcc takes it.
//
// ownedBuiltinNames finds where a text declares or defines such a
// function: a name followed by `(` whose previous token is a type (an
// identifier other than a keyword that starts an expression, or `>`), not
// an operator, `::` or `.` (calls). Comments and literals are skipped.
// The plugin then takes the builtin meaning off those names, target
// builtins only, so the user's declaration is an ordinary one and every
// call reaches it.
//
//===----------------------------------------------------------------------===//

#ifndef PASTA_FRONTEND_OWNBUILTINS_H
#define PASTA_FRONTEND_OWNBUILTINS_H

#include "clang/Basic/LangOptions.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace pasta {

/// The names `Source` declares as functions, each once, in order: every
/// candidate, builtin or not (the caller asks clang which are).
std::vector<std::string> declaredFunctionNames(llvm::StringRef Source,
                                               const clang::LangOptions &Lang);

} // namespace pasta

#endif
