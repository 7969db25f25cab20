//===- WorkingSetLoops.cpp - Page flags of loop accesses, set before the loop//
//
// See WorkingSetLoops.h. What makes the call exact:
// - the access's block dominates the loop's latch and every exiting block,
//   and every instruction of the loop passes control on (no call that may
//   not return, e.g. an exit in inline assembly): each iteration runs it
//   once, the loop being its innermost and the function's control flow
//   reducible (an irreducible cycle inside the loop could run it again);
// - the loop's backedge-taken count is computable (scalar evolution's
//   count holds for every exit): the loop runs it + 1 times once entered,
//   and the preheader runs exactly when the loop is entered;
// - the address is {start, +, step} in that loop with a step invariant in
//   it, or invariant itself (step 0), and start, step and count can be
//   computed in the preheader;
// - where those operands do not change in an outer loop, the call is made
//   once per entry of that loop, until it returns nonzero: it does where
//   it only set flags (the same flags each time), not where it counted
//   accesses outside every allocation or hotness, which a repeat counts
//   again;
// - where only the address's base changes in the parent loop, by a step
//   (kmeans' centroids, row c at c * nfeatures), one call covers the whole
//   nest, made once per entry of the parent, if the loop runs in every
//   iteration of the parent or in none (every branch on the way to its
//   preheader tests the same in each iteration) with the same trip count,
//   and the parent's iterations all reach their latch, its only exit.
// A call made at every entry of its loop (not once per outer loop, not for a
// nest) costs more than the marks it saves where the loop runs a few times
// (a Thrust transform's per-thread loop of 1-4 trips had 4 calls per thread
// in front of it): under -pasta-ws-loop-min-trips, a constant count keeps
// the marks in the loop, and a count known at run time decides in front of
// it, between the loop (the call in front) and a copy of it marked in it.
//
//===----------------------------------------------------------------------===//
#include "WorkingSetLoops.h"
#include "DeviceRuntime.h"
#include "IRHelpers.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;
using namespace pasta;

#define DEBUG_TYPE "pasta"

// Off: every access is marked by its batch, in its loop (for measuring what
// the loop marks cost and save; the results are the same either way).
static cl::opt<bool>
    LoopMarks("pasta-ws-loop-marks", cl::init(true), cl::Hidden,
              cl::desc("Working-set copies: mark the accesses of counted "
                       "loops once, before the loop"));

// The fewest trips for which a loop's accesses are marked in front of it by
// a call at every entry of the loop (1: any count). With a test in every
// iteration (-pasta-ws-loop-versions=0), 8 cost bicg_s's long loop 1.50x
// against 0.78x on an H200: it kept the guarded marks'
// address casts and a branch in every iteration. With the loop versioned,
// the long entries run the loop as with 1 (not yet timed).
static cl::opt<unsigned> LoopMinTrips(
    "pasta-ws-loop-min-trips", cl::init(8), cl::Hidden,
    cl::desc("Working-set copies: mark a loop's accesses in front of it "
             "only where it runs at least this many times"));

// Off: a mark made once per entry of an outer loop (or for a whole nest) is
// made in front of its inner loop, in the outer loop's first iteration that
// reaches it, as before 2026-11-29.
static cl::opt<bool> LoopMarksAfter(
    "pasta-ws-loop-marks-after", cl::init(true), cl::Hidden,
    cl::desc("Working-set copies: make a loop's mark that covers an outer "
             "loop's iterations when that outer loop is left"));

// Where -pasta-ws-loop-min-trips decides at run time: on, the loop is
// versioned (a copy for the short entries, its accesses marked in it; the
// loop itself for the long ones, marked in front), chosen once in front of
// it; off, one loop whose marks run under a test in every iteration (which
// cost bicg_s's long loop 1.50x against 0.78x on an H200).
static cl::opt<bool> LoopVersions(
    "pasta-ws-loop-versions", cl::init(true), cl::Hidden,
    cl::desc("Working-set copies: a short copy of a loop whose count "
             "decides at run time, instead of a test in each iteration"));

// The fewest accesses of one run (below) marked by one call in front of
// them in a compact copy (0: none). A run is one block's loads (or stores)
// of one source line at constant distances a fixed step apart: an unrolled
// loop's, such as CUB's BlockLoad of a thread's items (16 loads 512 bytes
// apart in the radix sort's histogram kernel: 4 calls of the compact copy's
// batches, 1 for the run). The call's fast path costs about what 2 to 4
// batches' calls do (about 170 PTX instructions), hence 8.
static cl::opt<unsigned> RunMinAccesses(
    "pasta-ws-run-min", cl::init(8), cl::Hidden,
    cl::desc("Working-set compact copies: mark a run of at least this many "
             "accesses a fixed step apart by one call in front of it "
             "(0: off)"));

STATISTIC(NumMarkedRuns, "Accesses of working-set copies marked by one call "
                         "per run of accesses a fixed step apart");
STATISTIC(NumMarkedBeforeLoops, "Accesses of working-set copies whose page "
                                "flags are set in front of their loops");
STATISTIC(NumMarkedOnce, "Of those, marks set once per entry of an outer "
                         "loop in which they do not change");
STATISTIC(NumMarkedNests, "Of those, marks covering a loop nest, set once "
                          "per entry of the outer loop");
STATISTIC(NumMarkedAfter, "Of those, marks made where their outer loop is "
                          "left, not in it");
STATISTIC(NumVersioned, "Loops given a short copy, marked in it, chosen "
                        "in front of them by their count");
STATISTIC(NumGuarded, "Of those, marks made where the loop's count, known at "
                      "run time, reaches the minimum (else marked in it)");

namespace {

// Address(k) = Base + Scale * ext(A + k * B) in iteration k of the loop:
// ext sign- or zero-extends from Bits (64: none, A + k * B wraps as the
// address does). Int indices of 64-bit pointers have Bits 32: their
// extension keeps scalar evolution from seeing the address itself as a
// recurrence, and the runtime checks that A + k * B does not wrap before it
// treats the addresses as a progression (device_rt_ws.inc.c).
struct LoopAddress {
  const SCEV *Base, *A, *B; // Base a pointer; A, B integers of Bits
  uint64_t Scale = 1;
  unsigned Bits = 64;
  bool Signed = true;
};

// The rows of a loop nest: in iteration j of the outer loop the inner
// loop's base is Row.Base + Row.Scale * ext(Row.A + j * Row.B), or, where
// OneIndex, its index starts at Row.A + j * Row.B (a[c * n + f]: one
// extension of both, Row.Base the loop's base).
struct LoopRows {
  Loop *Outer;
  LoopAddress Row;
  const SCEV *Taken; // the outer loop's backedge-taken count
  bool OneIndex;
};

// An access whose flags one call in the loop's preheader sets.
struct LoopMark {
  Instruction *Access;
  uint32_t Site;
  BasicBlock *Preheader;
  // The outermost loop around the access's loop in which the call's
  // operands do not change (none: the call runs at every entry of the
  // loop). Within one entry of it, the call's first success suffices.
  Loop *Unchanged;
  LoopAddress Address;
  const SCEV *Taken; // the backedge-taken count
  // The whole nest, where one call covers it (made once per entry of
  // Rows->Outer); Unchanged is then none.
  std::optional<LoopRows> Rows;
};

// Whether every iteration of L that starts also ends: no instruction of
// the loop may stop the thread or fail to return (the runtime's own
// helpers, which the counting code calls, always return).
bool iterationsComplete(const Loop &L) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (const Function *Callee = CB->getCalledFunction();
            Callee && isRuntimeFunction(*Callee))
          continue;
      if (!isGuaranteedToTransferExecutionToSuccessor(&I))
        return false;
    }
  return true;
}

// Whether BB runs once in each iteration of L (its innermost loop).
bool runsEveryIteration(const BasicBlock *BB, const Loop &L,
                        const DominatorTree &DT) {
  const BasicBlock *Latch = L.getLoopLatch();
  if (!Latch || !DT.dominates(BB, Latch))
    return false;
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  return all_of(Exiting, [&](BasicBlock *E) { return DT.dominates(BB, E); });
}

// An affine recurrence of L whose step is invariant in it.
const SCEVAddRecExpr *recurrenceOf(const SCEV *S, const Loop &L,
                                   ScalarEvolution &SE) {
  auto *AR = dyn_cast<SCEVAddRecExpr>(S);
  if (!AR || AR->getLoop() != &L || !AR->isAffine() ||
      !SE.isLoopInvariant(AR->getStepRecurrence(SE), &L))
    return nullptr;
  return AR;
}

// C * ext(recurrence) or ext(recurrence): the part of an address that
// moves, with an extension from fewer than 64 bits.
bool matchExtendedIndex(const SCEV *S, const Loop &L, ScalarEvolution &SE,
                        LoopAddress &Out) {
  uint64_t Scale = 1;
  if (auto *Mul = dyn_cast<SCEVMulExpr>(S)) {
    auto *C = dyn_cast<SCEVConstant>(Mul->getOperand(0));
    if (Mul->getNumOperands() != 2 || !C || C->getAPInt().getActiveBits() > 32)
      return false;
    Scale = C->getAPInt().getZExtValue();
    S = Mul->getOperand(1);
  }
  auto *Ext = dyn_cast<SCEVIntegralCastExpr>(S);
  if (!Ext || !(isa<SCEVSignExtendExpr>(Ext) || isa<SCEVZeroExtendExpr>(Ext)))
    return false;
  const SCEVAddRecExpr *AR = recurrenceOf(Ext->getOperand(), L, SE);
  unsigned Bits = SE.getTypeSizeInBits(Ext->getOperand()->getType());
  if (!AR || Bits >= 64)
    return false;
  Out.A = AR->getStart();
  Out.B = AR->getStepRecurrence(SE);
  Out.Scale = Scale;
  Out.Bits = Bits;
  Out.Signed = isa<SCEVSignExtendExpr>(Ext);
  return true;
}

// The address of an access as a function of L's iteration, if it has one
// of the shapes LoopAddress describes.
std::optional<LoopAddress> loopAddress(const SCEV *Address, const Loop &L,
                                       ScalarEvolution &SE) {
  LoopAddress Out;
  Type *IndexTy = SE.getEffectiveSCEVType(Address->getType());
  // The runtime adds steps in 64 bits; a pointer of 32-bit offsets (shared
  // or local memory on NVIDIA GPUs) wraps at 2^32.
  if (SE.getTypeSizeInBits(IndexTy) < 64)
    return std::nullopt;
  if (SE.isLoopInvariant(Address, &L)) {
    Out.Base = Address;
    Out.A = Out.B = SE.getZero(IndexTy);
    return Out;
  }
  if (const SCEVAddRecExpr *AR = recurrenceOf(Address, L, SE)) {
    Out.Base = AR->getStart();
    Out.A = SE.getZero(IndexTy);
    Out.B = AR->getStepRecurrence(SE);
    return Out;
  }
  // Base + ... + C * ext(recurrence): one moving part, the rest invariant.
  auto *Add = dyn_cast<SCEVAddExpr>(Address);
  if (!Add)
    return std::nullopt;
  SmallVector<const SCEV *, 4> Invariant;
  bool Moving = false;
  for (const SCEV *Op : Add->operands()) {
    if (SE.isLoopInvariant(Op, &L))
      Invariant.push_back(Op);
    else if (Moving || !matchExtendedIndex(Op, L, SE, Out))
      return std::nullopt;
    else
      Moving = true;
  }
  Out.Base = SE.getAddExpr(Invariant);
  if (!Out.Base->getType()->isPointerTy())
    return std::nullopt;
  return Out;
}

// Whether Cond has the same value in every iteration of L.
bool invariantIn(Value *Cond, const Loop &L, ScalarEvolution &SE) {
  if (L.isLoopInvariant(Cond) || (SE.isSCEVable(Cond->getType()) &&
                                  SE.isLoopInvariant(SE.getSCEV(Cond), &L)))
    return true;
  auto *Cmp = dyn_cast<ICmpInst>(Cond);
  return Cmp && SE.isSCEVable(Cmp->getOperand(0)->getType()) &&
         SE.isLoopInvariant(SE.getSCEV(Cmp->getOperand(0)), &L) &&
         SE.isLoopInvariant(SE.getSCEV(Cmp->getOperand(1)), &L);
}

// Whether Inner's preheader PH runs in every iteration of Outer or in
// none: every branch of Outer from which PH can be reached within an
// iteration (not through Outer's header again) tests the same in each
// iteration. A loop inside Outer with one exit block is a box that always
// leaves to it: its own branches do not matter.
bool runsInAllOrNone(BasicBlock *PH, const Loop &Outer, LoopInfo &LI,
                     ScalarEvolution &SE) {
  SmallVector<BasicBlock *, 16> Work{PH};
  SmallPtrSet<BasicBlock *, 16> Seen{PH};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (BB == Outer.getHeader())
      continue;
    for (BasicBlock *Pred : predecessors(BB))
      if (Outer.contains(Pred) && Seen.insert(Pred).second)
        Work.push_back(Pred);
  }
  for (BasicBlock *BB : Seen) {
    Instruction *Term = BB->getTerminator();
    if (Term->getNumSuccessors() < 2)
      continue;
    Loop *Box = LI.getLoopFor(BB);
    if (Box != &Outer && Box->getExitBlock())
      continue; // inside a loop of Outer, which leaves to one block
    Value *Cond = nullptr;
    if (auto *Br = dyn_cast<BranchInst>(Term))
      Cond = Br->getCondition();
    else if (auto *Sw = dyn_cast<SwitchInst>(Term))
      Cond = Sw->getCondition();
    if (!Cond || !invariantIn(Cond, Outer, SE))
      return false;
  }
  return true;
}

// The rows of the nest around M's loop L, where one call can cover it: L
// runs in every iteration of its parent or in none, the same number of
// times, and only the base of M's address moves in the parent.
std::optional<LoopRows> planLoopRows(const LoopMark &M, Loop &L, LoopInfo &LI,
                                     ScalarEvolution &SE) {
  Loop *Outer = L.getParentLoop();
  if (!Outer || Outer->getExitingBlock() != Outer->getLoopLatch() ||
      !Outer->getExitingBlock() || !iterationsComplete(*Outer))
    return std::nullopt;
  const SCEV *Taken = SE.getBackedgeTakenCount(Outer);
  if (isa<SCEVCouldNotCompute>(Taken) ||
      SE.getTypeSizeInBits(Taken->getType()) > 64)
    return std::nullopt;
  const LoopAddress &A = M.Address;
  if (!SE.isLoopInvariant(M.Taken, Outer) || !SE.isLoopInvariant(A.B, Outer))
    return std::nullopt;
  // Either the base moves and the index's start stays, or the other way.
  bool BaseStays = SE.isLoopInvariant(A.Base, Outer);
  bool StartStays = SE.isLoopInvariant(A.A, Outer);
  std::optional<LoopAddress> Row;
  if (!BaseStays && StartStays) {
    Row = loopAddress(A.Base, *Outer, SE);
  } else if (BaseStays && !StartStays && A.Bits < 64) {
    if (const SCEVAddRecExpr *AR = recurrenceOf(A.A, *Outer, SE)) {
      Row = A;
      Row->A = AR->getStart();
      Row->B = AR->getStepRecurrence(SE);
    }
  }
  if (!Row || SE.getTypeSizeInBits(Row->B->getType()) > 64)
    return std::nullopt;
  SCEVExpander Check(SE, "pasta.ws.loop");
  const Instruction *At = M.Preheader->getTerminator();
  const SCEV *Operands[] = {Row->Base, Row->A, Row->B, Taken};
  if (!all_of(Operands,
              [&](const SCEV *S) { return Check.isSafeToExpandAt(S, At); }) ||
      !runsInAllOrNone(M.Preheader, *Outer, LI, SE))
    return std::nullopt;
  return LoopRows{Outer, *Row, Taken, BaseStays};
}

// Whether V is known before the kernel reads any memory the program wrote:
// the function's arguments and what is computed from them, the thread's and
// block's ids and sizes (intrinsics that read no memory), loads of by-value
// kernel parameters and of constant memory, phis of such values (an outer
// loop's induction: a phi met again on its own cycle adds nothing unknown).
// Depth-bounded. A load through __ldg (invariant, but of the program's
// data) is not known.
bool launchKnown(const Value *V, SmallPtrSetImpl<const PHINode *> &Phis,
                 unsigned Depth = 0) {
  if (isa<Argument>(V) || isa<Constant>(V))
    return true;
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 6)
    return false;
  if (const auto *Phi = dyn_cast<PHINode>(I))
    if (!Phis.insert(Phi).second)
      return true;
  if (const auto *Load = dyn_cast<LoadInst>(I)) {
    const Value *Object = getUnderlyingObject(Load->getPointerOperand());
    const auto *A = dyn_cast<Argument>(Object);
    return (A && (A->hasByValAttr() || A->hasByRefAttr())) ||
           Load->getPointerAddressSpace() == 4;
  }
  if (const auto *Call = dyn_cast<CallBase>(I))
    if (!Call->getCalledFunction() || !Call->doesNotAccessMemory())
      return false;
  return all_of(I->operands(), [&](const Use &U) {
    return isa<BasicBlock>(U.get()) || isa<Function>(U.get()) ||
           launchKnown(U.get(), Phis, Depth + 1);
  });
}

// Whether a loop's trip count follows from what is known at launch (kernel
// arguments, ids, sizes), not from data the kernel loads. A count loaded
// from memory is per element and often small (HeCBench unfold: a fold
// loop of about two iterations per element, behind 8 loop marks per
// thread, ran 5.4x against 2.1x with the marks in the loops); a call in
// front of such a loop costs more than the marks it saves.
bool tripCountLaunchKnown(const SCEV *Taken) {
  return !SCEVExprContains(Taken, [](const SCEV *S) {
    const auto *U = dyn_cast<SCEVUnknown>(S);
    SmallPtrSet<const PHINode *, 8> Phis;
    return U && !launchKnown(U->getValue(), Phis);
  });
}

std::optional<LoopMark> planLoopMark(Instruction *I, uint32_t Site,
                                     LoopInfo &LI, DominatorTree &DT,
                                     ScalarEvolution &SE) {
  Loop *L = LI.getLoopFor(I->getParent());
  if (!L || !runsEveryIteration(I->getParent(), *L, DT))
    return std::nullopt;
  const SCEV *Taken = SE.getBackedgeTakenCount(L);
  if (isa<SCEVCouldNotCompute>(Taken) ||
      SE.getTypeSizeInBits(Taken->getType()) > 64 ||
      !tripCountLaunchKnown(Taken))
    return std::nullopt;
  std::optional<LoopAddress> Address =
      loopAddress(SE.getSCEV(trackedPointer(*I)), *L, SE);
  if (!Address || SE.getTypeSizeInBits(Address->B->getType()) > 64)
    return std::nullopt;
  // Loops are not kept in simplified form this late (an unrolled loop's
  // entry is often a critical edge): the call needs a block of its own.
  BasicBlock *Preheader = L->getLoopPreheader();
  if (!Preheader)
    Preheader = InsertPreheaderForLoop(L, &DT, &LI, nullptr, false);
  if (!Preheader)
    return std::nullopt;
  // What the call is given: computed in the preheader, and the same in
  // every iteration of the outer loops where it does not change.
  const SCEV *Operands[] = {Address->Base, Address->A, Address->B, Taken};
  SCEVExpander Check(SE, "pasta.ws.loop");
  const Instruction *At = Preheader->getTerminator();
  if (!all_of(Operands,
              [&](const SCEV *S) { return Check.isSafeToExpandAt(S, At); }))
    return std::nullopt;
  Loop *Unchanged = nullptr;
  for (Loop *P = L->getParentLoop(); P; P = P->getParentLoop()) {
    if (!all_of(Operands,
                [&](const SCEV *S) { return SE.isLoopInvariant(S, P); }))
      break;
    if (!P->getLoopPreheader() &&
        !InsertPreheaderForLoop(P, &DT, &LI, nullptr, false))
      break;
    Unchanged = P;
  }
  LoopMark M{I, Site, Preheader, Unchanged, *Address, Taken, std::nullopt};
  if (!Unchanged)
    if (std::optional<LoopRows> Rows = planLoopRows(M, *L, LI, SE))
      if (Rows->Outer->getLoopPreheader() ||
          InsertPreheaderForLoop(Rows->Outer, &DT, &LI, nullptr, false))
        M.Rows = Rows;
  return M;
}

// A slot of the copy's own, set in Q's preheader to Init: a register once
// the runtime is linked (markRuntimeSlot).
AllocaInst *slotClearedInEachEntry(Function &F, Loop &Q, Constant *Init,
                                   const Twine &Name) {
  IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Slot = B.CreateAlloca(
      Init->getType(), F.getParent()->getDataLayout().getAllocaAddrSpace(),
      nullptr, Name);
  markRuntimeSlot(Slot);
  B.SetInsertPoint(Q.getLoopPreheader()->getTerminator());
  B.CreateStore(Init, Slot);
  return Slot;
}

// Moves Call under `if (Cond)`, Cond made in front of it by MakeCond.
Instruction *runOnlyIf(CallInst *Call,
                       function_ref<Value *(IRBuilder<> &)> MakeCond) {
  IRBuilder<> B(Call);
  Instruction *Then = SplitBlockAndInsertIfThen(MakeCond(B), Call, false);
  Call->moveBefore(Then->getIterator());
  return Then;
}

// Makes Call run only until it first succeeds (returns nonzero) in each
// entry of loop Q.
void onceUntilSuccess(CallInst *Call, Loop &Q) {
  Function &F = *Call->getFunction();
  AllocaInst *Done = slotClearedInEachEntry(
      F, Q, ConstantInt::getFalse(F.getContext()), "pasta.ws.loop.done");
  Type *I1 = Done->getAllocatedType();
  Instruction *Then = runOnlyIf(Call, [&](IRBuilder<> &B) {
    return B.CreateNot(B.CreateLoad(I1, Done));
  });
  IRBuilder<> B(Then);
  B.CreateStore(B.CreateICmpNE(Call, B.getInt32(0)), Done);
}

// Makes Nest (which covers loop nest Q) run once in each entry of Q, and
// Row (the same access's mark of one row, after Nest in Q's inner loop's
// preheader) in each iteration where Nest did not cover it: the state is 0
// (not tried), 1 (covered) or 2 (row by row).
void nestOrRows(CallInst *Nest, CallInst *Row, Loop &Q) {
  Function &F = *Nest->getFunction();
  Type *I8 = Type::getInt8Ty(F.getContext());
  AllocaInst *State =
      slotClearedInEachEntry(F, Q, ConstantInt::get(I8, 0), "pasta.ws.nest");
  Instruction *Then = runOnlyIf(Nest, [&](IRBuilder<> &B) {
    return B.CreateICmpEQ(B.CreateLoad(I8, State), B.getInt8(0));
  });
  IRBuilder<> B(Then);
  B.CreateStore(B.CreateSelect(B.CreateICmpNE(Nest, B.getInt32(0)),
                               B.getInt8(1), B.getInt8(2)),
                State);
  runOnlyIf(Row, [&](IRBuilder<> &B) {
    return B.CreateICmpEQ(B.CreateLoad(I8, State), B.getInt8(2));
  });
}

// The outer loop whose iterations M's call covers: the one in which its
// operands do not change, or its nest's outer loop (none: the call runs at
// every entry of its loop).
Loop *coveredLoop(const LoopMark &M) {
  return M.Rows ? M.Rows->Outer : M.Unchanged;
}

// Where M's call can be made once its covered loop Q is left (none: in
// front of its loop, as before): the flags need only be set before the
// thread ends, and there few of the kernel's values are live across the
// call (in Q's iterations, all of the loop's are: kmeans' copy). The block
// every exit of Q leads to, Q's only, made to
// have no other predecessor. The call must run whenever M's preheader ran:
// every iteration of Q that starts also ends (a thread that never leaves Q
// never ends, nor does its kernel), and Q leaves to that block alone. Its
// operands must not change in Q (they do not: Unchanged, or the nest's)
// and be computable there; a nest's loop's own base or start, which moves
// in Q, is not given (the nest's rows are).
BasicBlock *exitForMarkAfter(const LoopMark &M, DominatorTree &DT, LoopInfo &LI,
                             ScalarEvolution &SE) {
  Loop *Q = coveredLoop(M);
  if (!LoopMarksAfter || !Q || !Q->getUniqueExitBlock() ||
      !iterationsComplete(*Q))
    return nullptr;
  if (!Q->hasDedicatedExits())
    formDedicatedExitBlocks(Q, &DT, &LI, nullptr, false);
  BasicBlock *Exit = Q->getUniqueExitBlock();
  if (!Exit || !Q->hasDedicatedExits())
    return nullptr;
  const LoopAddress &A = M.Address;
  SmallVector<const SCEV *, 8> Operands{A.B, M.Taken};
  if (!M.Rows)
    Operands.append({A.Base, A.A});
  else
    Operands.append(
        {M.Rows->Row.Base, M.Rows->Row.A, M.Rows->Row.B, M.Rows->Taken});
  if (M.Rows && !M.Rows->OneIndex)
    Operands.push_back(A.A);
  SCEVExpander Check(SE, "pasta.ws.loop");
  const Instruction *At = &*Exit->getFirstInsertionPt();
  if (!all_of(Operands, [&](const SCEV *S) {
        return SE.isLoopInvariant(S, Q) && Check.isSafeToExpandAt(S, At);
      }))
    return nullptr;
  return Exit;
}

// Whether M's call would run at every entry of its loop (not once for an
// outer loop, not for a nest): then the loop's count decides.
bool callPerEntry(const LoopMark &M) { return !M.Unchanged && !M.Rows; }

// Whether M's loop runs fewer than the minimum of trips, for certain.
bool fewTrips(const LoopMark &M) {
  const auto *C = dyn_cast<SCEVConstant>(M.Taken);
  return LoopMinTrips > 1 && callPerEntry(M) && C &&
         C->getAPInt().ult(LoopMinTrips - 1);
}

// Whether M's loop's count is known only at run time and the minimum of
// trips applies: the count decides there.
bool decidesAtRunTime(const LoopMark &M) {
  return callPerEntry(M) && LoopMinTrips > 1 && !isa<SCEVConstant>(M.Taken);
}

// Versions L (its backedge-taken count Taken, known in its preheader): a
// copy of it, entered where it runs fewer than the minimum of trips, whose
// accesses (added to Accesses, with their sites) are marked in it; L itself
// runs the other entries. The test is made once, in L's preheader. Returns
// the copy's header (none: L is left as it is: more than one exit, or the
// count not computable there).
BasicBlock *versionShortLoop(Loop &L, const SCEV *Taken, LoopInfo &LI,
                             DominatorTree &DT, ScalarEvolution &SE,
                             DenseMap<Instruction *, uint32_t> &Accesses,
                             SmallPtrSetImpl<BasicBlock *> &ShortLoops,
                             SmallPtrSetImpl<BasicBlock *> &LongLoops) {
  BasicBlock *PH = L.getLoopPreheader();
  if (!PH || !L.getExitingBlock() || !L.getExitBlock() ||
      SE.getTypeSizeInBits(Taken->getType()) > 64 || !L.isSafeToClone())
    return nullptr;
  // The count may differ between lanes: a convergent operation (an AMD
  // ballot, a barrier) in the loop would run in two groups of lanes.
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (auto *Call = dyn_cast<CallBase>(&I); Call && Call->isConvergent())
        return nullptr;
  SCEVExpander Expander(SE, "pasta.ws.loop");
  if (!Expander.isSafeToExpandAt(Taken, PH->getTerminator()))
    return nullptr;
  if (!L.hasDedicatedExits())
    formDedicatedExitBlocks(&L, &DT, &LI, nullptr, false);
  // Values used after the loop get the exit's phis, those of its inner
  // loops too (not in LCSSA form this late in the pipeline: a value of an
  // inner loop used after L would not dominate its use from the copy).
  formLCSSARecursively(L, DT, &LI, &SE);
  BasicBlock *Exit = L.getExitBlock(), *Exiting = L.getExitingBlock();
  if (!Exit || !Exiting || !L.hasDedicatedExits())
    return nullptr;
  Value *Trips =
      Expander.expandCodeFor(Taken, Taken->getType(), PH->getTerminator());
  BasicBlock *LongPH = SplitBlock(PH, PH->getTerminator(), &DT, &LI, nullptr,
                                  L.getHeader()->getName() + ".long");
  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 8> Blocks;
  Loop *Short =
      cloneLoopWithPreheader(LongPH, PH, &L, VMap, ".short", &LI, &DT, Blocks);
  remapInstructionsInBlocks(Blocks, VMap);
  // Inner loops versioned before L: their copies in L's copy are versioned
  // alike (marked in the short one, in front of the long one).
  SmallVector<BasicBlock *, 4> ShortCopies, LongCopies;
  for (BasicBlock *BB : L.blocks()) {
    if (ShortLoops.count(BB))
      ShortCopies.push_back(cast<BasicBlock>(VMap[BB]));
    if (LongLoops.count(BB))
      LongCopies.push_back(cast<BasicBlock>(VMap[BB]));
  }
  ShortLoops.insert(ShortCopies.begin(), ShortCopies.end());
  LongLoops.insert(LongCopies.begin(), LongCopies.end());
  auto *ShortExiting = cast<BasicBlock>(VMap[Exiting]);
  for (PHINode &Phi : Exit->phis()) {
    Value *V = Phi.getIncomingValueForBlock(Exiting);
    Value *Mapped = VMap.lookup(V);
    Phi.addIncoming(Mapped ? Mapped : V, ShortExiting);
  }
  IRBuilder<> B(PH->getTerminator());
  Value *Count = B.CreateAdd(B.CreateZExtOrTrunc(Trips, B.getInt64Ty()),
                             B.getInt64(1), "pasta.ws.trips");
  Value *IsLong =
      B.CreateICmpUGE(Count, B.getInt64(LoopMinTrips), "pasta.ws.loop.long");
  Instruction *Old = PH->getTerminator();
  B.CreateCondBr(IsLong, LongPH, Short->getLoopPreheader());
  Old->eraseFromParent();
  DT.changeImmediateDominator(Exit, PH);
  SmallVector<std::pair<Instruction *, uint32_t>, 8> Copied;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (auto A = Accesses.find(&I); A != Accesses.end())
        Copied.push_back({cast<Instruction>(VMap[&I]), A->second});
  for (auto [I, Site] : Copied)
    Accesses[I] = Site;
  ++NumVersioned;
  return Short->getHeader();
}

} // namespace

void pasta::markLoopAccessesBeforeLoops(
    Function &Copy, Value *State, DenseMap<Instruction *, uint32_t> &Accesses,
    DenseMap<Instruction *, Value *> &Guarded,
    function_ref<Constant *(Instruction *, uint32_t, bool)> SiteConstant,
    FunctionAnalysisManager &FAM) {
  auto &LI = FAM.getResult<LoopAnalysis>(Copy);
  if (LI.empty() || !LoopMarks)
    return;
  // A block in an irreducible cycle inside a loop can run more than once
  // in one of the loop's iterations (LoopInfo sees no loop there): its
  // accesses would be counted once per iteration (outside, hotness).
  ReversePostOrderTraversal<Function *> Order(&Copy);
  if (containsIrreducibleCFG<const BasicBlock *>(Order, LI))
    return;
  LoopInfo *LIp = &LI;
  DominatorTree *DTp = &FAM.getResult<DominatorTreeAnalysis>(Copy);
  ScalarEvolution *SEp = &FAM.getResult<ScalarEvolutionAnalysis>(Copy);
  SmallVector<LoopMark, 8> Marks;
  // Headers of the short copies of versioned loops (marked in them) and of
  // the loops they were made from (marked in front, whatever their count).
  SmallPtrSet<BasicBlock *, 4> ShortLoops, LongLoops;
  auto Plan = [&] {
    Marks.clear();
    DenseMap<const Loop *, bool> Complete;
    // In program order: the calls in a preheader keep the accesses' order.
    for (Instruction &Inst : instructions(Copy)) {
      auto Access = Accesses.find(&Inst);
      const Loop *L = LIp->getLoopFor(Inst.getParent());
      if (Access == Accesses.end() || !L || ShortLoops.count(L->getHeader()))
        continue;
      auto [I, Site] = *Access;
      auto [It, New] = Complete.try_emplace(L, false);
      if (New)
        It->second = iterationsComplete(*L);
      if (!It->second)
        continue;
      if (std::optional<LoopMark> M = planLoopMark(I, Site, *LIp, *DTp, *SEp);
          M && !fewTrips(*M))
        Marks.push_back(*M);
    }
  };
  Plan();
  if (LoopVersions) {
    SmallVector<std::pair<Loop *, const SCEV *>, 4> ToVersion;
    for (const LoopMark &M : Marks)
      if (Loop *L = LIp->getLoopFor(M.Access->getParent());
          decidesAtRunTime(M) &&
          none_of(ToVersion, [&](auto &V) { return V.first == L; }))
        ToVersion.push_back({L, M.Taken});
    // Inner loops first: an outer loop's copy then holds their versions
    // (versioned outer first, the copy of an inner loop would be neither,
    // and test its count in every iteration).
    llvm::stable_sort(ToVersion, [](const auto &A, const auto &B) {
      return A.first->getLoopDepth() > B.first->getLoopDepth();
    });
    for (auto [L, Taken] : ToVersion)
      if (BasicBlock *Short = versionShortLoop(
              *L, Taken, *LIp, *DTp, *SEp, Accesses, ShortLoops, LongLoops)) {
        ShortLoops.insert(Short);
        LongLoops.insert(L->getHeader());
      }
    if (!ShortLoops.empty()) {
      FAM.invalidate(Copy, PreservedAnalyses::none());
      LIp = &FAM.getResult<LoopAnalysis>(Copy);
      DTp = &FAM.getResult<DominatorTreeAnalysis>(Copy);
      SEp = &FAM.getResult<ScalarEvolutionAnalysis>(Copy);
      Plan();
    }
  }
  DominatorTree &DT = *DTp;
  ScalarEvolution &SE = *SEp;
  if (Marks.empty()) {
    FAM.invalidate(Copy, PreservedAnalyses::none()); // preheaders made
    return;
  }
  Module &Mod = *Copy.getParent();
  LLVMContext &Ctx = Copy.getContext();
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  PointerType *Generic = PointerType::get(Ctx, 0);
  FunctionCallee MarkLoop = Mod.getOrInsertFunction(
      "__pasta_ws_mark_loop", I32, State->getType(), Generic, I64, I64, I64,
      I64, I32, State->getType());
  // The marks made where their covered loop is left: decided (and those
  // loops' exits made) before anything is expanded.
  SmallVector<BasicBlock *, 8> Exits;
  // Each exit's first instruction: its marks go in front of it, in order.
  DenseMap<BasicBlock *, Instruction *> ExitAt;
  for (const LoopMark &M : Marks) {
    Exits.push_back(exitForMarkAfter(M, DT, *LIp, SE));
    if (BasicBlock *Exit = Exits.back())
      ExitAt.try_emplace(Exit, &*Exit->getFirstInsertionPt());
  }
  SCEVExpander Expander(SE, "pasta.ws.loop");
  // Every call first (the expander reads the loops), then their guards.
  SmallVector<std::pair<CallInst *, Loop *>, 8> Once;
  // A mark made after its covered loop Outer (__pasta_ws_mark_loop_after,
  // __pasta_ws_mark_nest_after), where Preheader ran in one of its
  // iterations at least.
  struct AfterCall {
    CallInst *Call;
    Loop *Outer;
    BasicBlock *Preheader;
  };
  SmallVector<AfterCall, 8> After;
  struct NestCalls {
    CallInst *Nest, *Row;
    Loop *Outer;
  };
  SmallVector<NestCalls, 4> Nests;
  // Per preheader, whether its loop runs the minimum (one for its marks).
  DenseMap<BasicBlock *, Value *> Long;
  SmallVector<std::pair<CallInst *, Value *>, 8> IfLong;
  // The nests' marks made after their loops go last: their call needs the
  // most registers, and then no other mark's operands are live across it
  // (kmeans' copy 88 -> 74 registers). The order of the
  // marks does not change what they set or count.
  SmallVector<unsigned, 8> MarkOrder;
  for (bool NestsAfter : {false, true})
    for (unsigned I = 0; I < Marks.size(); ++I)
      if (bool(Exits[I] && Marks[I].Rows) == NestsAfter)
        MarkOrder.push_back(I);
  for (unsigned Idx : MarkOrder) {
    LoopMark &M = Marks[Idx];
    BasicBlock *Exit = Exits[Idx];
    Instruction *At = Exit ? ExitAt[Exit] : M.Preheader->getTerminator();
    IRBuilder<> B(At);
    auto Expand = [&](const SCEV *S) {
      return Expander.expandCodeFor(S, S->getType(), At);
    };
    auto ToGeneric = [&](Value *Base) {
      return Base->getType()->getPointerAddressSpace() == 0
                 ? Base
                 : B.CreateAddrSpaceCast(Base, Generic);
    };
    // x's or y's operands: start, step, count (backedges + 1), extension
    // (bits, and bit 8 for a sign extension), from their expansions.
    struct Operands {
      Value *Start, *Step, *Count, *Ext;
    };
    auto Widen = [&](const LoopAddress &A, Value *Start, Value *Step,
                     Value *Taken) {
      Value *Count = B.CreateAdd(B.CreateZExtOrTrunc(Taken, I64), B.getInt64(1),
                                 "pasta.ws.trips");
      Value *Start64 = A.Signed ? B.CreateSExtOrTrunc(Start, I64)
                                : B.CreateZExtOrTrunc(Start, I64);
      return Operands{Start64, B.CreateSExtOrTrunc(Step, I64), Count,
                      B.getInt32(A.Bits | (A.Signed ? 0x100u : 0u))};
    };
    const LoopAddress &A = M.Address;
    // After a nest's outer loop, the rows are given, not the loop's own
    // base (nor, with one index, its start), which move in it.
    bool RowsAfter = Exit && M.Rows;
    bool IsGeneric = A.Base->getType()->getPointerAddressSpace() == 0;
    Value *Base = RowsAfter ? nullptr : Expand(A.Base);
    Value *Start = RowsAfter && M.Rows->OneIndex
                       ? Constant::getNullValue(A.A->getType())
                       : Expand(A.A);
    Value *Step = Expand(A.B), *Taken = Expand(M.Taken);
    Value *Ptr = Base ? ToGeneric(Base) : nullptr;
    Operands X = Widen(A, Start, Step, Taken);
    CallInst *Nest = nullptr;
    if (M.Rows) {
      const LoopAddress &R = M.Rows->Row;
      Value *RowBase = ToGeneric(Expand(R.Base));
      Value *RowStart = Expand(R.A), *RowStep = Expand(R.B);
      Operands Y = Widen(R, RowStart, RowStep, Expand(M.Rows->Taken));
      // One index: the rows carry its start, extended with the loop's
      // (bit 9, device_rt_ws.inc.c).
      Value *NestStart = X.Start;
      if (M.Rows->OneIndex) {
        NestStart = B.getInt64(0);
        Y.Ext = B.getInt32(R.Bits | (R.Signed ? 0x100u : 0u) | 0x200u);
      }
      FunctionCallee MarkNest = Mod.getOrInsertFunction(
          "__pasta_ws_mark_nest", I32, State->getType(), Generic, I64, I64, I64,
          I64, I32, I64, I64, I64, I64, I32);
      Value *NestArgs[] = {
          State,   RowBase, B.getInt64(A.Scale), NestStart, X.Step,
          X.Count, X.Ext,   B.getInt64(R.Scale), Y.Start,   Y.Step,
          Y.Count, Y.Ext};
      if (RowsAfter) {
        SmallVector<Value *, 13> Args(std::begin(NestArgs), std::end(NestArgs));
        Args.push_back(SiteConstant(M.Access, M.Site, IsGeneric));
        FunctionCallee MarkNestAfter = Mod.getOrInsertFunction(
            "__pasta_ws_mark_nest_after", Type::getVoidTy(Ctx),
            State->getType(), Generic, I64, I64, I64, I64, I32, I64, I64, I64,
            I64, I32, State->getType());
        After.push_back(
            {B.CreateCall(MarkNestAfter, Args), M.Rows->Outer, M.Preheader});
      } else {
        Nest = B.CreateCall(MarkNest, NestArgs);
      }
    }
    if (Exit) {
      if (!RowsAfter) {
        // Its last operand, how many iterations of the covered loop ran the
        // preheader, is set with the guards (below).
        FunctionCallee MarkLoopAfter = Mod.getOrInsertFunction(
            "__pasta_ws_mark_loop_after", Type::getVoidTy(Ctx),
            State->getType(), Generic, I64, I64, I64, I64, I32,
            State->getType(), I64);
        After.push_back(
            {B.CreateCall(MarkLoopAfter,
                          {State, Ptr, B.getInt64(A.Scale), X.Start, X.Step,
                           X.Count, X.Ext,
                           SiteConstant(M.Access, M.Site, IsGeneric),
                           PoisonValue::get(I64)}),
             M.Unchanged, M.Preheader});
      }
      ++NumMarkedBeforeLoops;
      ++NumMarkedAfter;
      Accesses.erase(M.Access);
      continue;
    }
    // Where the count decides at run time, the access keeps its mark in the
    // loop for the entries with fewer trips (one test per preheader).
    Value *IsLong = nullptr;
    if (decidesAtRunTime(M) &&
        !LongLoops.count(LIp->getLoopFor(M.Access->getParent())->getHeader())) {
      Value *&Made = Long[M.Preheader];
      if (!Made)
        Made = B.CreateICmpUGE(X.Count, B.getInt64(LoopMinTrips),
                               "pasta.ws.loop.long");
      IsLong = Made;
    }
    CallInst *Row = B.CreateCall(
        MarkLoop, {State, Ptr, B.getInt64(A.Scale), X.Start, X.Step, X.Count,
                   X.Ext, SiteConstant(M.Access, M.Site, IsGeneric)});
    ++NumMarkedBeforeLoops;
    if (Nest)
      Nests.push_back({Nest, Row, M.Rows->Outer});
    else if (M.Unchanged)
      Once.push_back({Row, M.Unchanged});
    if (!IsLong) {
      Accesses.erase(M.Access);
      continue;
    }
    IfLong.push_back({Row, IsLong});
    Guarded[M.Access] = IsLong;
    ++NumGuarded;
  }
  for (auto [Call, Unchanged] : Once) {
    onceUntilSuccess(Call, *Unchanged);
    ++NumMarkedOnce;
  }
  for (const NestCalls &N : Nests) {
    nestOrRows(N.Nest, N.Row, *N.Outer);
    ++NumMarkedNests;
  }
  // Per covered loop and inner preheader, how many of the loop's iterations
  // ran that preheader (a nest's: all or none of them).
  DenseMap<std::pair<BasicBlock *, Loop *>, AllocaInst *> Reached;
  for (const AfterCall &D : After) {
    AllocaInst *&Slot = Reached[{D.Preheader, D.Outer}];
    if (!Slot) {
      Slot = slotClearedInEachEntry(Copy, *D.Outer, ConstantInt::get(I64, 0),
                                    "pasta.ws.loop.reached");
      IRBuilder<> B(D.Preheader->getTerminator());
      B.CreateStore(B.CreateAdd(B.CreateLoad(I64, Slot), B.getInt64(1)), Slot);
    }
    runOnlyIf(D.Call, [&](IRBuilder<> &B) {
      Value *Times = B.CreateLoad(I64, Slot);
      if (D.Call->arg_size() == 9) // __pasta_ws_mark_loop_after's count
        D.Call->setArgOperand(8, Times);
      return B.CreateICmpNE(Times, B.getInt64(0));
    });
  }
  for (auto [Call, IsLong] : IfLong)
    runOnlyIf(Call, [IsLong = IsLong](IRBuilder<> &) { return IsLong; });
  FAM.invalidate(Copy, PreservedAnalyses::none());
}

namespace {

// One block's accesses that may form a run: same kind, pointer type and
// source location (an unrolled loop's copies differ only in their
// discriminators).
struct RunKey {
  unsigned Opcode;
  Type *PtrTy;
  const DILocation *Loc;
  bool operator==(const RunKey &O) const {
    return Opcode == O.Opcode && PtrTy == O.PtrTy &&
           Loc->getLine() == O.Loc->getLine() &&
           Loc->getColumn() == O.Loc->getColumn() &&
           Loc->getScope() == O.Loc->getScope() &&
           Loc->getInlinedAt() == O.Loc->getInlinedAt();
  }
};

// An access of a run, at Offset bytes from the address of the run's first
// access in block order.
struct RunAccess {
  Instruction *Access;
  int64_t Offset;
};

} // namespace

// Of Accesses (in block order), those at a constant distance from the
// first's address, if they are a progression of distinct offsets a fixed
// step apart: sorted by offset.
static SmallVector<RunAccess, 16>
progressionOf(ArrayRef<Instruction *> Accesses, ScalarEvolution &SE) {
  SmallVector<RunAccess, 16> Run;
  const SCEV *First = SE.getSCEV(trackedPointer(*Accesses.front()));
  for (Instruction *I : Accesses) {
    auto *D = dyn_cast<SCEVConstant>(
        SE.getMinusSCEV(SE.getSCEV(trackedPointer(*I)), First));
    if (!D || D->getAPInt().getSignificantBits() > 48) // far apart: not one
      return {};
    Run.push_back({I, D->getAPInt().getSExtValue()});
  }
  llvm::sort(Run, [](const RunAccess &L, const RunAccess &R) {
    return L.Offset < R.Offset;
  });
  int64_t Step = Run[1].Offset - Run[0].Offset;
  for (size_t I = 1; I < Run.size(); ++I)
    if (Step <= 0 || Run[I].Offset - Run[I - 1].Offset != Step)
      return {};
  return Run;
}

// Whether every instruction of BB from First up to Last passes control on
// (the runtime's helpers always return): where First runs, so does Last.
static bool runsThrough(Instruction *First, Instruction *Last) {
  for (Instruction *I = First; I != Last; I = I->getNextNode()) {
    if (auto *CB = dyn_cast<CallBase>(I))
      if (const Function *Callee = CB->getCalledFunction();
          Callee && isRuntimeFunction(*Callee))
        continue;
    if (!isGuaranteedToTransferExecutionToSuccessor(I))
      return false;
  }
  return true;
}

void pasta::markAccessRuns(
    Function &Copy, Value *State, DenseMap<Instruction *, uint32_t> &Accesses,
    const DenseMap<Instruction *, Value *> &Guarded,
    function_ref<Constant *(Instruction *, uint32_t, bool)> SiteConstant,
    FunctionAnalysisManager &FAM) {
  if (RunMinAccesses < 2)
    return;
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(Copy);
  LLVMContext &Ctx = Copy.getContext();
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  PointerType *Generic = PointerType::get(Ctx, 0);
  bool Changed = false;
  for (BasicBlock &BB : Copy) {
    // Candidates in block order, by key (few per block: a linear search).
    SmallVector<std::pair<RunKey, SmallVector<Instruction *, 16>>, 4> Groups;
    for (Instruction &I : BB) {
      if (!Accesses.count(&I) || Guarded.count(&I) ||
          !(isa<LoadInst>(I) || isa<StoreInst>(I)) || !I.getDebugLoc())
        continue;
      RunKey Key{I.getOpcode(), trackedPointer(I)->getType(),
                 I.getDebugLoc().get()};
      auto It = find_if(Groups, [&](const auto &G) { return G.first == Key; });
      if (It == Groups.end())
        It = Groups.insert(Groups.end(), {Key, {}});
      It->second.push_back(&I);
    }
    for (auto &[Key, Group] : Groups) {
      if (Group.size() < RunMinAccesses ||
          !runsThrough(Group.front(), Group.back()))
        continue;
      SmallVector<RunAccess, 16> Run = progressionOf(Group, SE);
      if (Run.empty())
        continue;
      // In front of the run's first access, from its address, with the
      // flags, outside counts and hotness counts of the accesses one by one
      // (the runtime's loop mark: offset_0 + k * step, k < the run's
      // length).
      Instruction *First = Group.front();
      IRBuilder<> B(First);
      Value *Ptr = trackedPointer(*First);
      bool IsGeneric = Ptr->getType()->getPointerAddressSpace() == 0;
      if (!IsGeneric)
        Ptr = B.CreateAddrSpaceCast(Ptr, Generic);
      FunctionCallee MarkLoop = Copy.getParent()->getOrInsertFunction(
          "__pasta_ws_mark_loop", I32, State->getType(), Generic, I64, I64, I64,
          I64, I32, State->getType());
      B.CreateCall(MarkLoop,
                   {State, Ptr, B.getInt64(1), B.getInt64(Run.front().Offset),
                    B.getInt64(Run[1].Offset - Run[0].Offset),
                    B.getInt64(Run.size()), B.getInt32(64),
                    SiteConstant(First, Accesses.lookup(First), IsGeneric)});
      for (const RunAccess &A : Run)
        Accesses.erase(A.Access);
      NumMarkedRuns += Run.size();
      Changed = true;
    }
  }
  if (Changed)
    FAM.invalidate(Copy, PreservedAnalyses::none());
}
