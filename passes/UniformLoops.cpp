//===- UniformLoops.cpp - Loops a warp runs in step, addresses in them ----===//
//
// See UniformLoops.h. A loop is uniform when no block of it (its inner loops
// included) ends in a branch or switch the uniformity analysis finds
// divergent: its exits are then taken by all of its lanes at once, and no
// lane skips a block the others run. A step is warp-uniform when every
// value scalar evolution could not see into is uniform.
//
//===----------------------------------------------------------------------===//
#include "UniformLoops.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <algorithm>

using namespace llvm;
using namespace pasta;

// A preheader and dedicated exits for every loop of F (simplifyLoop walks
// each top-level loop's inner loops itself).
static bool simplifyLoops(Function &F, FunctionAnalysisManager &FAM) {
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  bool Changed = false;
  for (Loop *L : LI)
    Changed |= simplifyLoop(L, &DT, &LI, nullptr, nullptr, nullptr, false);
  return Changed;
}

UniformLoops::UniformLoops(Function &F, FunctionAnalysisManager &FAM) {
  if (simplifyLoops(F, FAM))
    FAM.invalidate(F, PreservedAnalyses::none());
  LI = &FAM.getResult<LoopAnalysis>(F);
  DT = &FAM.getResult<DominatorTreeAnalysis>(F);
  SE = &FAM.getResult<ScalarEvolutionAnalysis>(F);
  UI = &FAM.getResult<UniformityInfoAnalysis>(F);
  Expander = std::make_unique<SCEVExpander>(*SE, "pasta.div.start",
                                            /*PreserveLCSSA=*/false);
  for (Loop *L : LI->getLoopsInPreorder()) {
    BasicBlock *Preheader = L->getLoopPreheader();
    if (!Preheader || !L->hasDedicatedExits() ||
        std::any_of(L->block_begin(), L->block_end(), [&](BasicBlock *B) {
          return UI->hasDivergentTerminator(*B);
        }))
      continue;
    UniformLoop &U = Uniform[L];
    U.L = L;
    U.PreheaderEnd = Preheader->getTerminator();
    L->getUniqueExitBlocks(U.Exits);
    U.Trips = tripsOf(*L);
  }
}

// Iterations per entry: the backedge-taken count plus one, when the latch
// is the only block that leaves the loop (so every block dominating it runs
// that many times) and the count can be computed at the preheader.
const SCEV *UniformLoops::tripsOf(Loop &L) {
  BasicBlock *Latch = L.getLoopLatch();
  if (!Latch || L.getExitingBlock() != Latch)
    return nullptr;
  const SCEV *Taken = SE->getBackedgeTakenCount(&L);
  if (isa<SCEVCouldNotCompute>(Taken) ||
      !Expander->isSafeToExpandAt(Taken, L.getLoopPreheader()->getTerminator()))
    return nullptr;
  Type *I64 = Type::getInt64Ty(L.getHeader()->getContext());
  return SE->getAddExpr(SE->getNoopOrZeroExtend(Taken, I64), SE->getOne(I64));
}

bool UniformLoops::runsEveryIteration(const UniformLoop &U,
                                      const BasicBlock &BB) {
  return U.Trips && DT->dominates(&BB, U.L->getLoopLatch());
}

Value *UniformLoops::tripsBefore(const UniformLoop &U) {
  Value *&V = Trips[&U];
  if (!V)
    V = Expander->expandCodeFor(U.Trips, U.Trips->getType(), U.PreheaderEnd);
  return V;
}

UniformLoops::~UniformLoops() = default;

bool UniformLoops::inLoop(const BasicBlock &BB) const {
  return LI->getLoopFor(&BB) != nullptr;
}

const UniformLoops::UniformLoop *
UniformLoops::uniformLoop(const BasicBlock &BB) const {
  auto It = Uniform.find(LI->getLoopFor(&BB));
  return It == Uniform.end() ? nullptr : &It->second;
}

bool UniformLoops::isUniformStep(const SCEV *Step) {
  return !SCEVExprContains(Step, [&](const SCEV *S) {
    auto *U = dyn_cast<SCEVUnknown>(S);
    return U && UI->isDivergent(U->getValue());
  });
}

std::optional<UniformLoops::Repeat>
UniformLoops::repeatIn(const UniformLoop &U, Value *Ptr, uint64_t Granule) {
  const Loop &L = *U.L;
  const SCEV *Addr = SE->getSCEV(Ptr);
  const SCEV *Start = Addr, *Step = nullptr;
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(Addr); AR && AR->getLoop() == &L) {
    if (!AR->isAffine())
      return std::nullopt;
    Start = AR->getStart();
    Step = AR->getStepRecurrence(*SE);
  } else if (!SE->isLoopInvariant(Addr, &L)) {
    return std::nullopt;
  }
  if (isa<SCEVCouldNotCompute>(Start) || !SE->isLoopInvariant(Start, &L) ||
      !Expander->isSafeToExpandAt(Start, U.PreheaderEnd))
    return std::nullopt;
  if (!Step || Step->isZero())
    return Repeat{Start, nullptr};
  if (!isUniformStep(Step))
    return std::nullopt;
  bool Known =
      Granule <= 1 || SE->getMinTrailingZeros(Step) >= Log2_64(Granule);
  return Repeat{Start, Known ? nullptr : Step};
}

bool UniformLoops::constantApart(Value *A, Value *B, uint64_t Granule) {
  std::optional<APInt> D =
      SE->computeConstantDifference(SE->getSCEV(B), SE->getSCEV(A));
  return D && D->countr_zero() >= Log2_64(Granule);
}

Value *UniformLoops::startBefore(const UniformLoop &U, Value *Ptr,
                                 const Repeat &R) {
  auto *I = dyn_cast<Instruction>(Ptr);
  if (SE->getSCEV(Ptr) == R.Start && (!I || !U.L->contains(I)))
    return Ptr; // computed before the loop already
  return Expander->expandCodeFor(R.Start, Ptr->getType(), U.PreheaderEnd);
}

Value *UniformLoops::stepIsMultiple(const UniformLoop &U, const Repeat &R,
                                    uint64_t Granule) {
  Value *Step = Expander->expandCodeFor(R.StepToTest, R.StepToTest->getType(),
                                        U.PreheaderEnd);
  IRBuilder<> B(U.PreheaderEnd);
  return B.CreateICmpEQ(
      B.CreateAnd(Step, ConstantInt::get(Step->getType(), Granule - 1)),
      ConstantInt::get(Step->getType(), 0), "pasta.div.step.ok");
}
