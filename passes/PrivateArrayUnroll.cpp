//===- PrivateArrayUnroll.cpp - Unroll loops over a thread's arrays -------===//
//
// See PrivateArrayUnroll.h. A loop is marked when its trip count is a
// small constant, its unrolled size is bounded, and it loads or stores
// through an address into an alloca whose index is an add-recurrence of
// the loop itself (so that after unrolling every index is a constant and
// SROA can promote the array to registers).
//
//===----------------------------------------------------------------------===//
#include "PrivateArrayUnroll.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

using namespace llvm;

static cl::opt<bool> UnrollPrivateArraysFlag(
    "pasta-unroll-private-arrays",
    cl::desc("Fully unroll NVPTX loops whose counter indexes a thread's "
             "private array, as nvcc does (pasta-nvcc's device compiles)"),
    cl::init(false));

// Bounds on what is unrolled: nvcc's register tiles run up to 64 steps a
// loop; the size bound keeps a marked loop under the unroller's pragma
// threshold (16K), so the mark is always honoured.
static constexpr unsigned MaxTripCount = 64;
static constexpr unsigned MaxUnrolledSize = 8192;

bool pasta::privateArrayUnrollRequested() { return UnrollPrivateArraysFlag; }

// A loop with an unroll pragma of the user's keeps it.
static bool hasUnrollMetadata(const Loop &L) {
  for (const char *Name : {"llvm.loop.unroll.disable", "llvm.loop.unroll.full",
                           "llvm.loop.unroll.count", "llvm.loop.unroll.enable"})
    if (findStringMetadataForLoop(&L, Name))
      return true;
  return false;
}

static unsigned loopSize(const Loop &L) {
  unsigned Size = 0;
  for (const BasicBlock *BB : L.blocks())
    Size += BB->size();
  return Size;
}

// An index of the access's address that steps with L itself.
static bool hasIndexOfLoop(const GetElementPtrInst &GEP, const Loop &L,
                           ScalarEvolution &SE) {
  for (const Value *Idx : GEP.indices()) {
    if (isa<Constant>(Idx) || !SE.isSCEVable(Idx->getType()))
      continue;
    const auto *AR =
        dyn_cast<SCEVAddRecExpr>(SE.getSCEV(const_cast<Value *>(Idx)));
    if (AR && AR->getLoop() == &L)
      return true;
  }
  return false;
}

static bool indexesPrivateArray(const Loop &L, ScalarEvolution &SE) {
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB) {
      const auto *GEP =
          dyn_cast_or_null<GetElementPtrInst>(getLoadStorePointerOperand(&I));
      if (GEP && isa<AllocaInst>(getUnderlyingObject(GEP)) &&
          hasIndexOfLoop(*GEP, L, SE))
        return true;
    }
  return false;
}

static bool shouldUnroll(const Loop &L, ScalarEvolution &SE) {
  if (hasUnrollMetadata(L) || !L.isSafeToClone())
    return false;
  unsigned Trip = SE.getSmallConstantTripCount(&L);
  if (Trip == 0 || Trip > MaxTripCount || loopSize(L) * Trip > MaxUnrolledSize)
    return false;
  return indexesPrivateArray(L, SE);
}

PreservedAnalyses
pasta::PrivateArrayUnrollPass::run(Loop &L, LoopAnalysisManager &,
                                   LoopStandardAnalysisResults &AR,
                                   LPMUpdater &) {
  const Module &M = *L.getHeader()->getModule();
  if (!M.getTargetTriple().isNVPTX() || !shouldUnroll(L, AR.SE))
    return PreservedAnalyses::all();
  // Metadata only: LoopFullUnrollPass, later in the same loop pipeline,
  // does the unrolling.
  addStringMetadataToLoop(&L, "llvm.loop.unroll.full");
  return PreservedAnalyses::all();
}
