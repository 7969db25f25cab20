//===- RuntimeBinding.h - Find the host runtime at run time -----*- C++ -*-===//
//
// The last PASTA pass on a host module: every call it makes to the host
// runtime (a __pasta_* function) goes through a slot of the module's own,
// which a binder fills when the module is loaded, from the runtime linked
// in, the one already in the process, or one it loads; without any, the
// calls fall back to what the program would have done uninstrumented. So an
// instrumented object links wherever its uninstrumented twin links
// (RuntimeBinding.cpp says how).
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_RUNTIMEBINDING_H
#define PASTA_PASSES_RUNTIMEBINDING_H

#include "llvm/IR/PassManager.h"

#include <string>

namespace pasta {

// Binds a host module's runtime calls (nothing on GPU targets, nothing in a
// module that calls no runtime function). RuntimePath is the libpasta_rt.so
// the binder loads when the program has none; empty: the one beside the
// plugin (defaultRuntimePath).
class RuntimeBindingPass : public llvm::PassInfoMixin<RuntimeBindingPass> {
public:
  explicit RuntimeBindingPass(std::string RuntimePath = "")
      : RuntimePath(std::move(RuntimePath)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  std::string RuntimePath;
};

// The libpasta_rt.so in the directory of the plugin that runs (where the
// build puts both).
std::string defaultRuntimePath();

} // namespace pasta

#endif
