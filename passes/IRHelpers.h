//===- IRHelpers.h - Small questions the passes ask of the IR ---*- C++ -*-===//
//
// Whether a function is a kernel, the pointer an access goes through, the
// name a function's rows carry, whether a call may leave its caller's
// frame, a debug location's path, the line an instruction counts at: the
// general
// helpers of the passes, below every pass (header only, so that no pass
// calls into another for them; the reading of inline PTX is
// InlineAsmMemory's, itself below every pass).
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_IRHELPERS_H
#define PASTA_PASSES_IRHELPERS_H

#include "InlineAsmMemory.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Path.h"

#include <string>

namespace pasta {

// The pointer of one of clang's scoped atomics (atomicAdd_block,
// atomicCAS_system, ...: llvm.nvvm.atomic.<op>.gen.<i|f>.<cta|sys>, an
// intrinsic call on a generic pointer, not an atomicrmw or cmpxchg), or
// null for any other call.
inline llvm::Value *scopedAtomicPointer(const llvm::CallBase &Call) {
  const llvm::Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isIntrinsic() || Call.arg_size() == 0)
    return nullptr;
  llvm::StringRef Name = Callee->getName();
  if (!Name.starts_with("llvm.nvvm.atomic.") || !Name.contains(".gen."))
    return nullptr;
  return Call.getArgOperand(0);
}

// The pointer a tracked access goes through, or null for instructions that
// are not loads, stores or atomics on global or generic memory (address
// space 1 on both GPU targets; 0 is generic, resolved at run time), nor
// counted inline PTX with one such access (InlineAsmMemory.h: its global
// load or store, a cp.async's global source), nor a scoped atomic.
inline llvm::Value *trackedPointer(const llvm::Instruction &I) {
  const llvm::Value *Ptr = nullptr;
  if (auto *LI = llvm::dyn_cast<llvm::LoadInst>(&I))
    Ptr = LI->getPointerOperand();
  else if (auto *SI = llvm::dyn_cast<llvm::StoreInst>(&I))
    Ptr = SI->getPointerOperand();
  else if (auto *RMW = llvm::dyn_cast<llvm::AtomicRMWInst>(&I))
    Ptr = RMW->getPointerOperand();
  else if (auto *CX = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&I))
    Ptr = CX->getPointerOperand();
  else if (auto *Call = llvm::dyn_cast<llvm::CallBase>(&I)) {
    Ptr = asmTrackedAddress(*Call); // counted inline PTX (ld.global, ...)
    if (!Ptr)
      Ptr = scopedAtomicPointer(*Call);
  }
  if (!Ptr)
    return nullptr;
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  return AS == 0 || AS == 1 ? const_cast<llvm::Value *>(Ptr) : nullptr;
}

inline bool isKernel(const llvm::Function &F) {
  llvm::CallingConv::ID CC = F.getCallingConv();
  return CC == llvm::CallingConv::PTX_Kernel ||
         CC == llvm::CallingConv::AMDGPU_KERNEL;
}

// The suffix of the copy of a device function that kernels call directly
// (CalleeCounts.h).
inline constexpr const char *CalleeTwinSuffix = "__pasta_callee";

// The name a function's rows carry: such a copy's is its original's.
inline llvm::StringRef sourceName(const llvm::Function &F) {
  llvm::StringRef Name = F.getName();
  Name.consume_back(CalleeTwinSuffix);
  return Name;
}

// A call after which this frame may never reach a return of its own: it
// may unwind (C++ exceptions, pthread_exit's forced unwinding), exit the
// process, longjmp past this frame, or return twice (setjmp, vfork). Calls
// that will return and cannot unwind (most intrinsics, libm, functions the
// optimizer proved so) are not flush points; nor is inline assembly. Host
// functions flush their counts before it.
inline bool mayLeaveFrame(const llvm::CallBase &CB) {
  if (CB.isInlineAsm())
    return false;
  if (CB.isMustTailCall() || CB.hasFnAttr(llvm::Attribute::ReturnsTwice))
    return true;
  return !(CB.willReturn() && CB.doesNotThrow());
}

// Dir/File, or File alone when it is absolute or Dir is empty.
inline std::string joinPath(llvm::StringRef Dir, llvm::StringRef File) {
  if (File.empty() || File.starts_with("/") || Dir.empty())
    return File.str();
  return (Dir + "/" + File).str();
}

// Whether a header only wraps one operation for the user: clang's own
// (__clang_cuda_builtin_vars.h's threadIdx.x, __clang_cuda_math.h,
// __clang_hip_*.h), CUDA's and HIP's half, bfloat16 and fp8 types (__hadd,
// __hfma2, operator+ of __half), CUDA's atomic and intrinsic function
// headers (atomicAdd, __ldg). The user never wrote their lines.
inline bool isOperationWrapperHeader(llvm::StringRef Path) {
  llvm::StringRef Name = llvm::sys::path::filename(Path);
  for (llvm::StringRef Prefix :
       {"__clang_", "cuda_fp16.", "cuda_bf16.", "cuda_fp8.", "cuda_fp6.",
        "cuda_fp4.", "amd_hip_fp16.", "amd_hip_bf16.", "amd_hip_atomic.",
        "device_atomic_functions."})
    if (Name.starts_with(Prefix))
      return true;
  return Name.starts_with("sm_") &&
         (Name.contains("_atomic_functions.") || Name.contains("_intrinsics."));
}

// Where an instruction counts: its location, except that code inlined from
// an operation wrapper header counts at the line that used the wrapper, not
// as a row of its own for a header line the user never wrote.
inline const llvm::DILocation *userLocation(const llvm::Instruction &I) {
  const llvm::DILocation *L = I.getDebugLoc().get();
  while (L && L->getInlinedAt() && isOperationWrapperHeader(L->getFilename()))
    L = L->getInlinedAt();
  return L;
}

} // namespace pasta

#endif
