//===- PrivateRefSelects.h - Reads through a chosen reference ---*- C++ -*-===//
//
// `(a < b) ? a : b` on references into a thread's private objects (CUB's
// and libcu++'s `minimum` of a tuple returns one of its arguments; a scan
// keeps its items in a private array) leaves clang with a pointer chosen by
// a select or a phi, and each field read through it at a constant offset:
// `load (gep (phi %items.3, %items.4, ...), 4)`. SROA speculates a load of
// a phi or select of safe pointers, but not through the GEP in between, so
// the whole array stays in local memory (a scan by key with a tuple
// minimum: clang's build 2.8x nvcc's, 1.6 GB of local stores a launch that
// nvcc's build does not make). This pass moves such GEPs into the phi's or
// select's operands, and runs SROA again where it did, so the array is
// promoted as nvcc's is.
//
// Device code (NVPTX) of nvcc-parity compiles only: registered with
// PrivateArrayUnroll when -pasta-unroll-private-arrays is given (pasta-nvcc
// and the CMake launcher give it).
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_PRIVATEREFSELECTS_H
#define PASTA_PASSES_PRIVATEREFSELECTS_H

#include "llvm/IR/PassManager.h"

namespace pasta {

class PrivateRefSelectsPass
    : public llvm::PassInfoMixin<PrivateRefSelectsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace pasta

#endif
