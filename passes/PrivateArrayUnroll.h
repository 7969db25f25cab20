//===- PrivateArrayUnroll.h - Unroll loops over private arrays -*- C++ -*-===//
//
// nvcc fully unrolls a loop whose counter indexes a thread's private array
// (a register tile: `float acc[8][8]; for (i...) acc[i] += ...`), so that
// the array lives in registers; clang's default full-unroll threshold
// leaves many such loops rolled and the array in local memory (SGEMM_CUDA's
// tile kernels 25-34x slower than nvcc's build). This loop pass marks
// exactly those loops for full unrolling (llvm.loop.unroll.full) before
// clang's full unroller runs; every other loop keeps clang's default, so
// loops nvcc leaves rolled (over shared or global memory) stay rolled.
//
// Device code (NVPTX) only; registered by the plugin at the late loop
// optimizations extension point when -pasta-unroll-private-arrays is given
// (pasta-nvcc and the CMake launcher give it for device compiles).
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_PRIVATEARRAYUNROLL_H
#define PASTA_PASSES_PRIVATEARRAYUNROLL_H

#include "llvm/IR/PassManager.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"

namespace pasta {

// Whether -pasta-unroll-private-arrays was given.
bool privateArrayUnrollRequested();

class PrivateArrayUnrollPass
    : public llvm::PassInfoMixin<PrivateArrayUnrollPass> {
public:
  llvm::PreservedAnalyses run(llvm::Loop &L, llvm::LoopAnalysisManager &AM,
                              llvm::LoopStandardAnalysisResults &AR,
                              llvm::LPMUpdater &U);
};

} // namespace pasta

#endif
