//===- BlockInvariance.cpp - Blocks that run alike in every thread block --===//
//
// See BlockInvariance.h.
//
//===----------------------------------------------------------------------===//
#include "BlockInvariance.h"
#include "GridIndices.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace pasta;

namespace {

// Intrinsics whose result is the same in every thread block for a given
// thread index and operands: the thread's index within its block, the
// grid's shape, and pure integer arithmetic. The block index is not.
bool alikeIntrinsic(Intrinsic::ID ID) {
  switch (gridRead(ID).Index) {
  case GridIndex::Thread:
  case GridIndex::BlockSize:
  case GridIndex::GridSize:
    return true;
  case GridIndex::Block:
    return false;
  case GridIndex::None:
    break;
  }
  switch (ID) {
  case Intrinsic::nvvm_read_ptx_sreg_laneid:
  case Intrinsic::amdgcn_mbcnt_lo:
  case Intrinsic::amdgcn_mbcnt_hi:
  case Intrinsic::amdgcn_dispatch_ptr:
  case Intrinsic::amdgcn_implicitarg_ptr:
  case Intrinsic::smin:
  case Intrinsic::smax:
  case Intrinsic::umin:
  case Intrinsic::umax:
  case Intrinsic::abs:
  case Intrinsic::ctlz:
  case Intrinsic::cttz:
  case Intrinsic::ctpop:
  case Intrinsic::fshl:
  case Intrinsic::fshr:
  case Intrinsic::bswap:
  case Intrinsic::bitreverse:
    return true;
  default:
    return false;
  }
}

class Invariance {
public:
  Invariance(Function &F, const PostDominatorTree &PDT) : F(F), PDT(PDT) {}

  DenseSet<const BasicBlock *> run() {
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (Instruction &I : instructions(F))
        if (!Variant.count(&I) && variant(I)) {
          Variant.insert(&I);
          Changed = true;
        }
      for (BasicBlock &BB : F)
        if (const Value *Cond = condition(*BB.getTerminator());
            Cond && Variant.count(Cond) && Decided.insert(&BB).second) {
          markDecidedBy(BB);
          Changed = true;
        }
    }
    DenseSet<const BasicBlock *> Alike;
    for (BasicBlock &BB : F)
      if (!CountVariant.count(&BB))
        Alike.insert(&BB);
    return Alike;
  }

private:
  static const Value *condition(const Instruction &T) {
    if (const auto *Br = dyn_cast<BranchInst>(&T))
      return Br->isConditional() ? Br->getCondition() : nullptr;
    if (const auto *Sw = dyn_cast<SwitchInst>(&T))
      return Sw->getCondition();
    return nullptr;
  }

  bool operandVariant(const Instruction &I) const {
    return any_of(I.operands(),
                  [&](const Use &U) { return Variant.count(U.get()) != 0; });
  }

  bool variant(const Instruction &I) const {
    if (const auto *Phi = dyn_cast<PHINode>(&I))
      return Joins.count(Phi->getParent()) || operandVariant(I);
    if (const auto *L = dyn_cast<LoadInst>(&I))
      return !launchConstantLoad(*L) || operandVariant(I);
    if (const auto *II = dyn_cast<IntrinsicInst>(&I))
      return !alikeIntrinsic(II->getIntrinsicID()) || operandVariant(I);
    if (isa<BinaryOperator, UnaryOperator, CastInst, CmpInst, SelectInst,
            GetElementPtrInst, ExtractValueInst, InsertValueInst,
            ExtractElementInst, InsertElementInst, ShuffleVectorInst,
            FreezeInst>(I))
      return operandVariant(I);
    return !I.getType()->isVoidTy(); // calls, atomics, allocas: variant
  }

  // Blocks reachable from BB's successors before BB's post-dominator run
  // as its block-variant branch decides; phis there (and at the
  // post-dominator) merge what it decided.
  void markDecidedBy(BasicBlock &BB) {
    const DomTreeNode *Node = PDT.getNode(&BB);
    const DomTreeNode *IDom = Node ? Node->getIDom() : nullptr;
    const BasicBlock *Stop = IDom ? IDom->getBlock() : nullptr;
    SmallVector<const BasicBlock *, 16> Work(succ_begin(&BB), succ_end(&BB));
    DenseSet<const BasicBlock *> Seen;
    while (!Work.empty()) {
      const BasicBlock *X = Work.pop_back_val();
      if (!Seen.insert(X).second)
        continue;
      Joins.insert(X);
      if (X == Stop)
        continue;
      CountVariant.insert(X);
      append_range(Work, successors(X));
    }
  }

  Function &F;
  const PostDominatorTree &PDT;
  DenseSet<const Value *> Variant;
  DenseSet<const BasicBlock *> CountVariant, Joins, Decided;
};

} // namespace

DenseSet<const BasicBlock *>
pasta::blocksAlikeInEveryThreadBlock(Function &F,
                                     const PostDominatorTree &PDT) {
  return Invariance(F, PDT).run();
}

bool pasta::launchConstantLoad(const LoadInst &L) {
  if (L.isVolatile() || L.isAtomic())
    return false;
  unsigned AS = L.getPointerAddressSpace();
  if (AS == 4 || (AS == 101 && L.getModule()->getTargetTriple().isNVPTX()))
    return true;
  const Value *Obj = getUnderlyingObject(L.getPointerOperand());
  if (const auto *A = dyn_cast<Argument>(Obj))
    return A->hasByValAttr();
  if (const auto *II = dyn_cast<IntrinsicInst>(Obj))
    return II->getIntrinsicID() == Intrinsic::amdgcn_dispatch_ptr ||
           II->getIntrinsicID() == Intrinsic::amdgcn_implicitarg_ptr;
  return false;
}
