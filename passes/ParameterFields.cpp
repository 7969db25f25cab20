//===- ParameterFields.cpp - Pointers inside by-value kernel parameters ---===//
//
// See ParameterFields.h.
//
//===----------------------------------------------------------------------===//
#include "ParameterFields.h"

#include "pasta/abi.h"

#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/DebugInfoMetadata.h"
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

// T without typedefs and cv-qualifiers.
static const DIType *strippedType(const DIType *T) {
  while (auto *D = dyn_cast_or_null<DIDerivedType>(T)) {
    unsigned Tag = D->getTag();
    if (Tag != dwarf::DW_TAG_typedef && Tag != dwarf::DW_TAG_const_type &&
        Tag != dwarf::DW_TAG_volatile_type &&
        Tag != dwarf::DW_TAG_restrict_type && Tag != dwarf::DW_TAG_atomic_type)
      break;
    T = D->getBaseType();
  }
  return T;
}

static bool isDIPointer(const DIType *T) {
  unsigned Tag = T->getTag();
  return (Tag == dwarf::DW_TAG_pointer_type ||
          Tag == dwarf::DW_TAG_reference_type ||
          Tag == dwarf::DW_TAG_rvalue_reference_type) &&
         (T->getSizeInBits() == 0 || T->getSizeInBits() == 64);
}

// The data members and bases of a struct, class or union, with their
// offsets in bytes; false where one is not laid out plainly (a virtual
// base).
static bool
layoutMembers(const DICompositeType *C,
              SmallVectorImpl<std::pair<const DIType *, uint64_t>> &Members) {
  for (const DINode *N : C->getElements()) {
    auto *M = dyn_cast_or_null<DIDerivedType>(N);
    if (!M || M->isStaticMember() ||
        (M->getTag() != dwarf::DW_TAG_member &&
         M->getTag() != dwarf::DW_TAG_inheritance))
      continue;
    if (M->isBitField())
      continue; // an integer
    if (M->isVirtual() || M->getOffsetInBits() % 8)
      return false;
    Members.push_back({M->getBaseType(), M->getOffsetInBits() / 8});
  }
  return true;
}

static bool appendDIPointers(const DIType *T, uint64_t Base,
                             SmallVectorImpl<uint64_t> &Offsets);

// A union's storage is one of its members: like clang's layout, the
// largest (the first of equals).
static bool appendUnionPointers(const DICompositeType *U, uint64_t Base,
                                SmallVectorImpl<uint64_t> &Offsets) {
  SmallVector<std::pair<const DIType *, uint64_t>, 4> Members;
  if (!layoutMembers(U, Members))
    return false;
  const DIType *Largest = nullptr;
  for (auto [M, Off] : Members)
    if (const DIType *S = strippedType(M);
        S && (!Largest || S->getSizeInBits() > Largest->getSizeInBits()))
      Largest = S;
  return !Largest || appendDIPointers(Largest, Base, Offsets);
}

static bool appendArrayPointers(const DICompositeType *A, uint64_t Base,
                                SmallVectorImpl<uint64_t> &Offsets) {
  const DIType *E = strippedType(A->getBaseType());
  if (!E || E->getSizeInBits() % 8)
    return false;
  uint64_t Count = 1;
  for (const DINode *N : A->getElements()) {
    auto *R = dyn_cast_or_null<DISubrange>(N);
    auto *C = R ? dyn_cast_if_present<ConstantInt *>(R->getCount()) : nullptr;
    if (!C || C->isNegative())
      return false;
    Count *= C->getZExtValue();
  }
  uint64_t Stride = E->getSizeInBits() / 8;
  for (uint64_t I = 0; I < Count && Offsets.size() < PASTA_WS_MAX_FIELDS; ++I)
    if (!appendDIPointers(E, Base + I * Stride, Offsets))
      return false;
  return true;
}

// Appends the offsets of T's pointers at Base, in offset order; false where
// T's layout is not fully described.
static bool appendDIPointers(const DIType *T, uint64_t Base,
                             SmallVectorImpl<uint64_t> &Offsets) {
  T = strippedType(T);
  if (!T || Offsets.size() >= PASTA_WS_MAX_FIELDS)
    return T != nullptr;
  if (isDIPointer(T)) {
    Offsets.push_back(Base);
    return true;
  }
  auto *C = dyn_cast<DICompositeType>(T);
  if (!C)
    return isa<DIBasicType>(T) || T->getTag() == dwarf::DW_TAG_enumeration_type;
  if (C->isForwardDecl())
    return false;
  switch (C->getTag()) {
  case dwarf::DW_TAG_union_type:
    return appendUnionPointers(C, Base, Offsets);
  case dwarf::DW_TAG_array_type:
    return appendArrayPointers(C, Base, Offsets);
  case dwarf::DW_TAG_structure_type:
  case dwarf::DW_TAG_class_type:
    break;
  default:
    return C->getTag() == dwarf::DW_TAG_enumeration_type;
  }
  SmallVector<std::pair<const DIType *, uint64_t>, 8> Members;
  if (!layoutMembers(C, Members))
    return false;
  llvm::sort(Members,
             [](const auto &L, const auto &R) { return L.second < R.second; });
  for (auto [M, Off] : Members)
    if (!appendDIPointers(M, Base + Off, Offsets))
      return false;
  return true;
}

Type *pointerLayoutOf(const DIType *T, LLVMContext &Ctx) {
  T = strippedType(T);
  auto *C = dyn_cast_or_null<DICompositeType>(T);
  SmallVector<uint64_t, 16> Offsets;
  if (!C || !appendDIPointers(C, 0, Offsets) || Offsets.empty())
    return nullptr;
  // Pointers at their offsets, bytes between them (a packed struct: the
  // device's numbering only reads the pointers' offsets).
  Type *Byte = Type::getInt8Ty(Ctx);
  SmallVector<Type *, 32> Elements;
  uint64_t At = 0;
  for (uint64_t Off : Offsets) {
    if (Off < At)
      return nullptr; // overlapping: not a layout the device would have
    if (Off > At)
      Elements.push_back(ArrayType::get(Byte, Off - At));
    Elements.push_back(PointerType::get(Ctx, 0));
    At = Off + 8;
  }
  return StructType::get(Ctx, Elements, /*isPacked=*/true);
}

} // namespace pasta
