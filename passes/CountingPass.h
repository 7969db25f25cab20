//===- CountingPass.h - Count block executions per thread --------*- C++
//-*-===//
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

// In host modules of CUDA programs: registers each device module's PASTA
// descriptor with the CUDA runtime, hands it to the host runtime, and
// collects the counts when main returns.
class HostRegistrationPass : public llvm::PassInfoMixin<HostRegistrationPass> {
public:
  explicit HostRegistrationPass(Options Opts) : Opts(std::move(Opts)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  Options Opts;
};

// A stable identifier of a translation unit that the host and the device
// compilations of it both derive (from the source file name).
std::string moduleId(const llvm::Module &M);

} // namespace pasta

#endif
