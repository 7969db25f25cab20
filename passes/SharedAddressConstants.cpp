//===- SharedAddressConstants.cpp - Constants holding shared addresses ----===//
//
// On NVPTX, each module-local constant global whose initializer holds the
// address of a `__shared__` variable (addrspace 3) is replaced, in every
// function that reads it, by a local copy: an alloca in the entry block
// that the initializer's scalars are stored to, element by element (the
// shared addresses are then instruction operands, which PTX takes). The
// global goes once nothing uses it. Globals visible outside the module are
// left alone (another module may name them).
//
//===----------------------------------------------------------------------===//
#include "SharedAddressConstants.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

static constexpr unsigned SharedAddressSpace = 3;

// Whether C refers to a shared variable, through casts and offsets.
static bool holdsSharedAddress(const Constant *C,
                               SmallPtrSetImpl<const Constant *> &Seen) {
  if (!Seen.insert(C).second)
    return false;
  if (auto *GV = dyn_cast<GlobalValue>(C))
    return GV->getAddressSpace() == SharedAddressSpace;
  for (const Use &Op : C->operands())
    if (auto *OpC = dyn_cast<Constant>(Op.get()))
      if (holdsSharedAddress(OpC, Seen))
        return true;
  return false;
}

static bool isLocalConstantWithSharedAddress(const GlobalVariable &GV) {
  if (!GV.isConstant() || !GV.hasLocalLinkage() || !GV.hasInitializer())
    return false;
  SmallPtrSet<const Constant *, 16> Seen;
  return holdsSharedAddress(GV.getInitializer(), Seen);
}

// Stores the scalars of C, an element of type Ty at GEP indices Path in
// the object of type RootTy at Root, one by one.
static void storeElements(IRBuilder<> &B, Type *RootTy, Value *Root, Type *Ty,
                          Constant *C, SmallVectorImpl<Value *> &Path) {
  unsigned N = 0;
  if (auto *ST = dyn_cast<StructType>(Ty))
    N = ST->getNumElements();
  else if (auto *AT = dyn_cast<ArrayType>(Ty))
    N = AT->getNumElements();
  else if (auto *VT = dyn_cast<FixedVectorType>(Ty))
    N = VT->getNumElements();
  if (N == 0 || Ty->isVectorTy()) {
    B.CreateStore(C, B.CreateInBoundsGEP(RootTy, Root, Path));
    return;
  }
  for (unsigned I = 0; I < N; ++I) {
    Type *ElementTy = Ty->isStructTy() ? Ty->getStructElementType(I)
                                       : Ty->getArrayElementType();
    Path.push_back(B.getInt32(I));
    storeElements(B, RootTy, Root, ElementTy, C->getAggregateElement(I), Path);
    Path.pop_back();
  }
}

// The local copy of GV in F: an alloca in the entry block holding GV's
// initializer, as a pointer of GV's type.
static Value *localCopy(GlobalVariable &GV, Function &F) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
  Type *Ty = GV.getValueType();
  AllocaInst *Copy = B.CreateAlloca(Ty, DL.getAllocaAddrSpace(), nullptr,
                                    GV.getName() + ".local");
  Copy->setAlignment(GV.getAlign().value_or(DL.getPrefTypeAlign(Ty)));
  SmallVector<Value *, 4> Path{B.getInt32(0)};
  storeElements(B, Ty, Copy, Ty, GV.getInitializer(), Path);
  return B.CreateAddrSpaceCast(Copy, GV.getType());
}

static bool replaceWithLocalCopies(GlobalVariable &GV) {
  // Constant expressions over GV become instructions, so that each use
  // belongs to one function.
  convertUsersOfConstantsToInstructions({&GV});
  DenseMap<Function *, Value *> Copies;
  for (Use &U : make_early_inc_range(GV.uses())) {
    auto *I = dyn_cast<Instruction>(U.getUser());
    if (!I)
      continue;
    Function *F = I->getFunction();
    Value *&Copy = Copies[F];
    if (!Copy)
      Copy = localCopy(GV, *F);
    U.set(Copy);
  }
  GV.removeDeadConstantUsers();
  if (GV.use_empty())
    GV.eraseFromParent();
  return !Copies.empty();
}

PreservedAnalyses
pasta::SharedAddressConstantsPass::run(Module &M, ModuleAnalysisManager &) {
  if (!Triple(M.getTargetTriple()).isNVPTX())
    return PreservedAnalyses::all();
  SmallVector<GlobalVariable *, 4> Found;
  for (GlobalVariable &GV : M.globals())
    if (isLocalConstantWithSharedAddress(GV))
      Found.push_back(&GV);
  bool Changed = false;
  for (GlobalVariable *GV : Found)
    Changed |= replaceWithLocalCopies(*GV);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
