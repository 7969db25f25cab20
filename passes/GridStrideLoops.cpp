//===- GridStrideLoops.cpp - Loops whose runs one thread can count --------===//
//
// See GridStrideLoops.h.
//
//===----------------------------------------------------------------------===//
#include "GridStrideLoops.h"

#include "ThreadExits.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;
using namespace pasta;

namespace {

enum class Width { None, Wrap32, Exact64 };

bool isRegister(Value *V, Intrinsic::ID ID) {
  auto *II = dyn_cast<IntrinsicInst>(V);
  return II && II->getIntrinsicID() == ID;
}

// V is register ID, zero-extended to 64 bits when Wide.
bool isRegisterOf(Value *V, Intrinsic::ID ID, bool Wide) {
  if (Wide && !match(V, m_ZExt(m_Value(V))))
    return false;
  return isRegister(V, ID);
}

// V is the product of registers A and B, either way round.
bool isProduct(Value *V, Intrinsic::ID A, Intrinsic::ID B, bool Wide) {
  Value *X, *Y;
  if (!match(V, m_Mul(m_Value(X), m_Value(Y))))
    return false;
  return (isRegisterOf(X, A, Wide) && isRegisterOf(Y, B, Wide)) ||
         (isRegisterOf(X, B, Wide) && isRegisterOf(Y, A, Wide));
}

// A thread's start: ctaid.x * ntid.x + tid.x, in 32 bits then extended, or
// in 64 bits from extended registers.
Width startWidth(Value *V) {
  auto Start = [](Value *Sum, bool Wide) {
    Value *X, *Y;
    if (!match(Sum, m_Add(m_Value(X), m_Value(Y))))
      return false;
    auto Is = [&](Value *Product, Value *Tid) {
      return isRegisterOf(Tid, Intrinsic::nvvm_read_ptx_sreg_tid_x, Wide) &&
             isProduct(Product, Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
                       Intrinsic::nvvm_read_ptx_sreg_ntid_x, Wide);
    };
    return Is(X, Y) || Is(Y, X);
  };
  Value *In;
  if (V->getType()->isIntegerTy(32)) // an `int` index
    return Start(V, false) ? Width::Wrap32 : Width::None;
  if (match(V, m_ZExt(m_Value(In))) && In->getType()->isIntegerTy(32) &&
      Start(In, false))
    return Width::Wrap32;
  return Start(V, true) ? Width::Exact64 : Width::None;
}

// The grid's stride: nctaid.x * ntid.x, the same two ways.
Width strideWidth(Value *V) {
  Value *In;
  if (V->getType()->isIntegerTy(32))
    return isProduct(V, Intrinsic::nvvm_read_ptx_sreg_nctaid_x,
                     Intrinsic::nvvm_read_ptx_sreg_ntid_x, false)
               ? Width::Wrap32
               : Width::None;
  if (match(V, m_ZExt(m_Value(In))) && In->getType()->isIntegerTy(32) &&
      isProduct(In, Intrinsic::nvvm_read_ptx_sreg_nctaid_x,
                Intrinsic::nvvm_read_ptx_sreg_ntid_x, false))
    return Width::Wrap32;
  return isProduct(V, Intrinsic::nvvm_read_ptx_sreg_nctaid_x,
                   Intrinsic::nvvm_read_ptx_sreg_ntid_x, true)
             ? Width::Exact64
             : Width::None;
}

// Br's condition as `Lhs Pred Rhs` for taking successor To (its inverse
// for the other successor), with Lhs being Want when either operand is.
bool testFor(BranchInst *Br, BasicBlock *To, Value *Want,
             CmpInst::Predicate &Pred, Value *&Rhs) {
  if (!Br || !Br->isConditional())
    return false;
  auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  if (!Cmp || (Br->getSuccessor(0) == To) == (Br->getSuccessor(1) == To))
    return false;
  Pred = Br->getSuccessor(0) == To ? Cmp->getPredicate()
                                   : Cmp->getInversePredicate();
  Value *L = Cmp->getOperand(0), *R = Cmp->getOperand(1);
  if (R == Want) {
    std::swap(L, R);
    Pred = CmpInst::getSwappedPredicate(Pred);
  }
  Rhs = R;
  return L == Want;
}

// No thread ends inside the kernel but at its returns: no call but
// intrinsics, inline assembly and the runtime's, none ending the thread.
bool threadsEndAtReturns(Function &F) {
  if (!threadEnds(F).empty())
    return false;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I)) {
      const Function *Callee = Call->getCalledFunction();
      if (!isa<IntrinsicInst>(Call) && !Call->isInlineAsm() &&
          !(Callee && Callee->getName().starts_with("__pasta_")))
        return false;
    }
  return true;
}

} // namespace

std::optional<GridStrideLoop>
pasta::gridStrideLoop(BasicBlock &BB, LoopInfo &LI, PostDominatorTree &PDT) {
  Loop *L = LI.getLoopFor(&BB);
  if (!L || L->getHeader() != &BB || L->getParentLoop())
    return std::nullopt;
  // Entered from Pre, the loop's one predecessor outside it: a preheader
  // whose one predecessor is the guard, or the guard itself.
  BasicBlock *Latch = L->getLoopLatch();
  BasicBlock *Pre = L->getLoopPredecessor();
  if (!Latch || L->getExitingBlock() != Latch || !Pre)
    return std::nullopt;
  BasicBlock *Guard =
      Pre->getSingleSuccessor() ? Pre->getSinglePredecessor() : Pre;
  BasicBlock *Entered = Guard == Pre ? &BB : Pre;
  Function &F = *BB.getParent();
  if (!Guard || LI.getLoopFor(Guard) ||
      !PDT.dominates(Guard, &F.getEntryBlock()) || !threadsEndAtReturns(F))
    return std::nullopt;
  auto *Back = dyn_cast<BranchInst>(Latch->getTerminator());
  auto *Enter = dyn_cast<BranchInst>(Guard->getTerminator());
  for (PHINode &Phi : BB.phis()) {
    // A 64-bit index, or an `int` one (signed: its starts and stride wrap
    // to negative values in grids of 2^31 threads or more, which the
    // runtime sums as such).
    bool Int = Phi.getType()->isIntegerTy(32);
    if (!(Int || Phi.getType()->isIntegerTy(64)) ||
        Phi.getNumIncomingValues() != 2)
      continue;
    Value *Start = Phi.getIncomingValueForBlock(Pre);
    auto *Next = dyn_cast<BinaryOperator>(Phi.getIncomingValueForBlock(Latch));
    if (!Next || Next->getOpcode() != Instruction::Add ||
        !(Next->hasNoUnsignedWrap() || Next->hasNoSignedWrap()))
      continue;
    Value *Stride = Next->getOperand(0) == &Phi   ? Next->getOperand(1)
                    : Next->getOperand(1) == &Phi ? Next->getOperand(0)
                                                  : nullptr;
    Width W = Stride ? startWidth(Start) : Width::None;
    if (W == Width::None || strideWidth(Stride) != W)
      continue;
    // Runs again while next < bound; entered only where start < bound.
    CmpInst::Predicate Again, EnteredIf;
    Value *Bound, *GuardBound;
    if (!testFor(Back, &BB, Next, Again, Bound) ||
        !testFor(Enter, Entered, Start, EnteredIf, GuardBound) ||
        GuardBound != Bound || Again != EnteredIf ||
        (Again != CmpInst::ICMP_ULT && Again != CmpInst::ICMP_SLT) ||
        (Int && (Again != CmpInst::ICMP_SLT || !Next->hasNoSignedWrap())) ||
        !(isa<Argument>(Bound) || isa<ConstantInt>(Bound)))
      continue;
    uint32_t Flags = (Again == CmpInst::ICMP_SLT ? GridStrideSigned : 0) |
                     (W == Width::Wrap32 ? GridStrideWrap32 : 0) |
                     (Int ? GridStrideInt32 : 0);
    return GridStrideLoop{Bound, Flags};
  }
  return std::nullopt;
}
