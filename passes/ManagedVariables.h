//===- ManagedVariables.h - nvcc's __managed__ variables --------*- C++ -*-===//
//
// clang's CUDA mode ignores the `managed` attribute (HIP only), so a
// program's `__managed__` globals stop at "reference to __host__ variable
// in __device__ function". pasta-nvcc's header (driver/nvcc_host_compat.h)
// declares them `__device__` with the annotation "pasta.managed"; this
// pass gives them nvcc's meaning (ManagedVariables.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_MANAGEDVARIABLES_H
#define PASTA_PASSES_MANAGEDVARIABLES_H

#include "llvm/IR/PassManager.h"

namespace pasta {

// The annotation string pasta-nvcc's header puts on a __managed__ global.
inline constexpr const char *ManagedAnnotation = "pasta.managed";

class ManagedVariablesPass : public llvm::PassInfoMixin<ManagedVariablesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace pasta

#endif
