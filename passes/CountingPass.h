//===- CountingPass.h - Count block executions per thread -------*- C++ -*-===//
//
// The device-side (and, with PASTA_HOST=1, host-side) pass: counts every
// execution of a selected basic block by a thread and emits the module's
// tables (CountingPass.cpp says how the work is divided).
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_COUNTINGPASS_H
#define PASTA_PASSES_COUNTINGPASS_H

#include "Options.h"

#include "llvm/IR/PassManager.h"

namespace pasta {

// Instruments GPU kernels and device functions (and, with PASTA_HOST=1,
// host functions) so that every execution of a selected basic block by a
// thread is counted, and emits the module's site table.
class CountingPass : public llvm::PassInfoMixin<CountingPass> {
public:
  explicit CountingPass(Options Opts) : Opts(std::move(Opts)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  Options Opts;
};

} // namespace pasta

#endif
