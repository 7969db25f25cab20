//===- InstrumentationMD.h - PASTA's own branches ---------------*- C++ -*-===//
//
// The mark on the branches PASTA itself adds (e.g. the counting flush's fast
// and slow paths): they are not scopes of the program. Counter emission sets
// it; scope discovery (Scopes.h) skips what carries it. Neither needs the
// other, only this.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_INSTRUMENTATIONMD_H
#define PASTA_PASSES_INSTRUMENTATIONMD_H

#include "llvm/IR/Instruction.h"
#include "llvm/IR/Metadata.h"

namespace pasta {

inline constexpr const char *InstrumentationMD = "pasta.instrumentation";

// Marks Branch as PASTA's own.
inline void markInstrumentation(llvm::Instruction *Branch) {
  Branch->setMetadata(InstrumentationMD,
                      llvm::MDNode::get(Branch->getContext(), {}));
}

inline bool isInstrumentation(const llvm::Instruction *Branch) {
  return Branch->getMetadata(InstrumentationMD) != nullptr;
}

} // namespace pasta

#endif
