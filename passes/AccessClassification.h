//===- AccessClassification.h - How an access's address moves ---*- C++ -*-===//
//
// The C.A.T.S. access view, computed statically with scalar evolution. The
// offset of an access is SCEV(pointer) minus its pointer base, in bytes; k
// below is a change of the offset divided by the store size of the accessed
// type (the element size). An access is, checking in this order:
//
//  - indirect: the offset depends on a value loaded from memory (a SCEVUnknown
//    in it is, through operations scalar evolution could not see into, a
//    load, an atomic or a memory-reading intrinsic), or the base pointer is
//    itself loaded in the function. Loads of kernel parameters (byval/byref
//    arguments, the AMDGPU kernarg, implicit-argument and dispatch pointers)
//    do not count: they are arguments, not data.
//  - stride-1 / stride-k along a loop: the innermost loop containing the
//    access that changes its offset decides. If the offset moves by a
//    constant k elements per iteration of it, the access is stride-1 for
//    |k| == 1 (Stride = k) and stride-k otherwise (Stride = k). A step that is
//    symbolic, not a whole number of elements, or not affine in the loop
//    gives stride-k with Stride = 0.
//  - stride-1 / stride-k across threads: no enclosing loop changes the offset
//    but it depends on the thread index in x (llvm.nvvm.read.ptx.sreg.tid.x,
//    llvm.amdgcn.workitem.id.x); the same rule applies to its coefficient,
//    so a coefficient of one element is stride-1 (coalesced across lanes).
//    Extensions and truncations are taken not to wrap.
//  - constant: the offset is invariant in every enclosing loop and depends on
//    neither tid.x nor the lane id (it may depend on arguments, the block
//    index, tid.y/z, ...): the same address in every iteration and, when
//    blockDim.x is a multiple of the warp size, in every lane of a warp.
//  - unknown: anything else, e.g. offsets that vary through values scalar
//    evolution cannot analyze (also loads of private variables, as in -O0
//    code), or with the lane id (llvm.nvvm.read.ptx.sreg.laneid,
//    llvm.amdgcn.mbcnt.*) but not tid.x.
//
// Pure analysis: it never changes the IR.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_ACCESSCLASSIFICATION_H
#define PASTA_PASSES_ACCESSCLASSIFICATION_H

#include "pasta/abi.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"

#include <cstdint>
#include <string>

namespace llvm {
class Instruction;
class LoopInfo;
class ModuleSlotTracker;
class ScalarEvolution;
class Value;
class raw_ostream;
} // namespace llvm

namespace pasta {

struct AccessPattern {
  pasta_access_class Class = PASTA_ACCESS_UNKNOWN;
  // In elements, for STRIDE1 (1 or -1) and STRIDEK (0 if not a constant);
  // 0 for the other classes.
  int32_t Stride = 0;
  // The offset in bytes from the base pointer, e.g. "4*i<loop> + 8" (i<loop>
  // counts the iterations of the loop with header `loop`) or
  // "4*tid.x + 4*%n"; at most 100 characters.
  std::string Offset;
};

// Classifies the access I makes through Ptr. MST numbers the unnamed values
// of I's function in the offset: a tracker of its module that has
// incorporated the function, one for all of the function's accesses while
// the function does not change.
AccessPattern classifyAccess(llvm::Instruction &I, llvm::Value *Ptr,
                             llvm::ScalarEvolution &SE, llvm::LoopInfo &LI,
                             llvm::ModuleSlotTracker &MST);

// "constant", "stride-1", "stride-k", "indirect" or "unknown".
llvm::StringRef accessClassName(pasta_access_class Class);

// pasta-print-access-classes: one line per load, store and atomic,
//   pasta: access <function> <line>:<col> <r|w> <class> stride=<k> offset=<e>
class AccessClassPrinterPass
    : public llvm::PassInfoMixin<AccessClassPrinterPass> {
public:
  explicit AccessClassPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &OS;
};

} // namespace pasta

#endif
