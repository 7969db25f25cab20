//===- VendorRuntime.cpp - The CUDA and HIP runtime calls PASTA uses ------===//
//
// The two vendors' tables, and the struct pasta_vendor_ops a host module
// hands to the host runtime (see VendorRuntime.h).
//
//===----------------------------------------------------------------------===//
#include "VendorRuntime.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/GlobalVariable.h"

using namespace llvm;
using namespace pasta;

const VendorRuntime pasta::CUDARuntime = {
    "cuda",
    "__cudaRegisterFunction",
    "__cudaRegisterVar",
    "cudaDeviceReset",
    "__pasta_cuda_ops",
    {
#define PASTA_X(ret, name, params, cuda, hip) #cuda,
        PASTA_VENDOR_OPS_FUNCTIONS(PASTA_X)
#undef PASTA_X
    },
    PASTA_VENDOR_CUDA};

const VendorRuntime pasta::HIPRuntime = {"hip",
                                         "__hipRegisterFunction",
                                         "__hipRegisterVar",
                                         "hipDeviceReset",
                                         "__pasta_hip_ops",
                                         {
#define PASTA_X(ret, name, params, cuda, hip) #hip,
                                             PASTA_VENDOR_OPS_FUNCTIONS(PASTA_X)
#undef PASTA_X
                                         },
                                         PASTA_VENDOR_HIP};

Constant *pasta::vendorOps(Module &M, const VendorRuntime &V) {
  if (GlobalVariable *GV = M.getNamedGlobal(V.OpsName))
    return GV;
  LLVMContext &Ctx = M.getContext();
  abi::StructBuilder<abi::VendorOps> Ops(Ctx);
  for (unsigned I = 0; I < abi::VendorOps::NumFunctions; ++I) {
    auto F = static_cast<abi::VendorOps::Field>(I);
    FunctionCallee Fn =
        M.getOrInsertFunction(V.Functions[I], abi::vendorOpType(F, Ctx));
    Ops.set(F, cast<Constant>(Fn.getCallee()));
  }
  Ops.setInt(abi::VendorOps::vendor, V.Vendor);
  // The runtime of this ABI version defines it (pasta/abi.h).
  Ops.set(abi::VendorOps::abi,
          M.getOrInsertGlobal(PASTA_ABI_SYMBOL, Type::getInt8Ty(Ctx)));
  Constant *Init = Ops.get();
  return new GlobalVariable(M, Init->getType(), true,
                            GlobalValue::InternalLinkage, Init, V.OpsName);
}
