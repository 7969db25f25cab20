//===- LaneAffine.cpp - Accesses whose figures follow from their shape ----===//
//
// See LaneAffine.h.
//
//===----------------------------------------------------------------------===//
#include "LaneAffine.h"

#include "pasta/abi.h"
#include "pasta/div_proofs.h"

#include "llvm/IR/Instructions.h"

using namespace llvm;
using namespace pasta;

bool pasta::exactInRowsOf32(const DivergencePlan::Access &A, int64_t Stride,
                            ArrayRef<const Instruction *> Is) {
  bool Aligned = true;
  for (const Instruction *I : Is)
    if (isa<LoadInst, StoreInst>(I))
      Aligned &= getLoadStoreAlignment(I).value() >= A.Size;
  return pasta_div_mask_free(A.Size, Stride, A.Space, A.Sectored, Aligned);
}

std::optional<LaneAffine> pasta::laneAffine(UniformLoops &Loops,
                                            const DivergencePlan::Access &A,
                                            Instruction &I, Value *Ptr) {
  std::optional<int64_t> Stride = Loops.laneStride(Ptr, *I.getParent());
  if (!Stride)
    return std::nullopt;
  const Instruction *Is[] = {&I};
  return LaneAffine{*Stride, exactInRowsOf32(A, *Stride, Is)};
}
