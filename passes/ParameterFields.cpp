//===- ParameterFields.cpp - Pointers inside by-value kernel parameters ---===//
//
// See ParameterFields.h.
//
//===----------------------------------------------------------------------===//
#include "ParameterFields.h"

#include "pasta/abi.h"

#include "llvm/IR/DerivedTypes.h"

using namespace llvm;

namespace pasta {

static bool isTrackedPointer(const Type *T, const DataLayout &DL) {
  auto *P = dyn_cast<PointerType>(T);
  return P && (P->getAddressSpace() == 0 || P->getAddressSpace() == 1) &&
         DL.getPointerSizeInBits(P->getAddressSpace()) == 64;
}

static bool holdsPointer(const Type *T, const DataLayout &DL) {
  if (isTrackedPointer(T, DL))
    return true;
  if (auto *S = dyn_cast<StructType>(T))
    return any_of(S->elements(),
                  [&](const Type *E) { return holdsPointer(E, DL); });
  if (auto *A = dyn_cast<ArrayType>(T))
    return holdsPointer(A->getElementType(), DL);
  return false;
}

// Appends the pointer fields of T at Base until Out is full.
static void appendFields(Type *T, uint64_t Base, unsigned Param,
                         const DataLayout &DL,
                         SmallVectorImpl<ParameterField> &Out) {
  if (Out.size() >= PASTA_WS_MAX_FIELDS || !holdsPointer(T, DL))
    return;
  if (isTrackedPointer(T, DL)) {
    if (Base + 8 <= UINT16_MAX) // the runtime keeps 16-bit offsets
      Out.push_back({Param, Base});
    return;
  }
  if (auto *S = dyn_cast<StructType>(T)) {
    if (S->isOpaque())
      return;
    const StructLayout *SL = DL.getStructLayout(S);
    for (unsigned I = 0; I < S->getNumElements(); ++I)
      appendFields(S->getElementType(I), Base + SL->getElementOffset(I), Param,
                   DL, Out);
    return;
  }
  auto *A = cast<ArrayType>(T);
  uint64_t Stride = DL.getTypeAllocSize(A->getElementType());
  for (uint64_t I = 0;
       I < A->getNumElements() && Out.size() < PASTA_WS_MAX_FIELDS; ++I)
    appendFields(A->getElementType(), Base + I * Stride, Param, DL, Out);
}

SmallVector<ParameterField, 16> pointerFields(ArrayRef<Type *> Aggregates,
                                              const DataLayout &DL) {
  SmallVector<ParameterField, 16> Fields;
  for (unsigned K = 0; K < Aggregates.size(); ++K)
    if (isFieldAggregate(Aggregates[K]))
      appendFields(Aggregates[K], 0, K, DL, Fields);
  return Fields;
}

} // namespace pasta
