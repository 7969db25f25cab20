//===- SharedAddressConstants.h - Shared addresses in constants -*- C++ -*-===//
//
// A kernel's local array of pointers into shared memory,
// `float *buf[2] = {smem, smem + n};` indexed at run time, becomes in
// clang's code a constant global that holds the shared addresses (clang
// emits the initializer as `__const.<function>.buf` and InstCombine reads
// the array from it). PTX cannot initialize a global with a shared
// address: ptxas stops ("Variable used as initial value not in .global or
// .const state space"), with or without PASTA. nvcc keeps such an array in
// local memory; this pass does the same (SharedAddressConstants.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_SHAREDADDRESSCONSTANTS_H
#define PASTA_PASSES_SHAREDADDRESSCONSTANTS_H

#include "llvm/IR/PassManager.h"

namespace pasta {

class SharedAddressConstantsPass
    : public llvm::PassInfoMixin<SharedAddressConstantsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace pasta

#endif
