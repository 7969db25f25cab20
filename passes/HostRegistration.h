//===- HostRegistration.h - Hand device modules to the host -----*- C++ -*-===//
//
// The host-side pass: registers each device module's PASTA descriptor with
// the vendor runtime, hands it to the host runtime, routes the program's
// runtime calls (HostInterception.h) and collects the counts when main
// returns.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_HOSTREGISTRATION_H
#define PASTA_PASSES_HOSTREGISTRATION_H

#include "Options.h"

#include "llvm/IR/PassManager.h"

namespace pasta {

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

} // namespace pasta

#endif
