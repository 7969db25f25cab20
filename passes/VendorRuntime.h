//===- VendorRuntime.h - The CUDA and HIP calls PASTA uses ------*- C++ -*-===//
//
// CUDA and HIP agree on every signature PASTA uses, so one vendor layer
// serves both: the host runtime only ever sees struct pasta_vendor_ops,
// whose fields and functions pasta/abi.h lists once.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_VENDORRUNTIME_H
#define PASTA_PASSES_VENDORRUNTIME_H

#include "AbiTypes.h"

#include "llvm/IR/Constant.h"
#include "llvm/IR/Module.h"

#include <array>

namespace pasta {

struct VendorRuntime {
  const char *Prefix; // "cuda" or "hip": the program's calls start with it
  const char *RegisterFunction, *RegisterVar, *DeviceReset;
  const char *OpsName;
  // The function behind each function field of struct pasta_vendor_ops.
  std::array<const char *, abi::VendorOps::NumFunctions> Functions;
  uint64_t Vendor; // enum pasta_vendor
};

extern const VendorRuntime CUDARuntime, HIPRuntime;

// The module's struct pasta_vendor_ops for V (created on first use).
llvm::Constant *vendorOps(llvm::Module &M, const VendorRuntime &V);

} // namespace pasta

#endif
