//===- VendorRuntime.h - The CUDA and HIP runtime calls PASTA uses -*- C++
//-*-===//
//
// CUDA and HIP agree on every signature PASTA uses, so one vendor layer
// serves both: the host runtime only ever sees struct pasta_vendor_ops.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_VENDORRUNTIME_H
#define PASTA_PASSES_VENDORRUNTIME_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Constant.h"
#include "llvm/IR/Module.h"

namespace pasta {

struct VendorRuntime {
  const char *Prefix; // "cuda" or "hip": the program's calls start with it
  const char *RegisterFunction, *RegisterVar, *DeviceReset;
  const char *OpsName;
  // struct pasta_vendor_ops, field by field.
  const char *MemcpyFromSymbol, *Memcpy, *GetErrorString, *DeviceSynchronize;
  const char *GetDeviceCount, *GetDevice, *SetDevice;
  const char *Malloc, *Free, *Memset, *StreamSynchronize, *GetLastError;
  const char *EventCreate, *EventRecord, *EventSynchronize, *EventElapsedTime;
  const char *EventDestroy, *StreamIsCapturing;
  const char *MemcpyAsync, *MemsetAsync, *HostAlloc, *FreeHost;
  const char *DeviceGetAttribute;
  const char *GraphGetNodes, *GraphNodeGetType, *GraphKernelNodeGetParams;
  const char *GraphChildGraphNodeGetGraph;
  uint64_t Vendor; // enum pasta_vendor
};

extern const VendorRuntime CUDARuntime, HIPRuntime;

// The module's struct pasta_vendor_ops for V (created on first use).
llvm::Constant *vendorOps(llvm::Module &M, const VendorRuntime &V);

// Routes the program's launch, allocation, copy, set and synchronisation
// calls through the host runtime's wrappers (HostInterception.cpp).
bool interceptRuntimeCalls(llvm::Module &M);

} // namespace pasta

#endif
