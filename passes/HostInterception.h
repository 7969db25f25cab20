//===- HostInterception.h - Route CUDA/HIP runtime calls --------*- C++ -*-===//
//
// Routes a host module's launch, allocation, copy, set and synchronisation
// calls through the host runtime's wrappers (HostInterception.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_HOSTINTERCEPTION_H
#define PASTA_PASSES_HOSTINTERCEPTION_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class Module;
}

namespace pasta {

// Whether anything was rerouted.
bool interceptRuntimeCalls(llvm::Module &M);

// Whether Name is one of the host runtime's wrappers, which take the
// function they wrap as their second-to-last argument.
bool isRuntimeWrapper(llvm::StringRef Name);

} // namespace pasta

#endif
