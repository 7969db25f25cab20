//===- BlockBound.cpp - Block sizes that shared arrays allow --------------===//
//
// See BlockBound.h.
//
//===----------------------------------------------------------------------===//
#include "BlockBound.h"

#include "GridIndices.h"
#include "IRHelpers.h"

#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::opt<bool> PrintBlockBounds(
    "pasta-div-block-bounds", cl::init(false), cl::Hidden,
    cl::desc("PASTA: print the most threads a block of each kernel can hold "
             "by its shared arrays' bounds (BlockBound.h)"));

// The NVPTX address space of shared memory.
static constexpr unsigned SharedSpace = 3;

using pasta::isKernel;

// The calls reading F's thread index x; false when F reads another thread
// index (a block of two or three dimensions: x alone bounds no block).
static bool threadXReads(Function &F, SmallVectorImpl<Value *> &Reads) {
  for (Instruction &I : instructions(F))
    if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
      pasta::GridRead R = pasta::gridRead(II->getIntrinsicID());
      if (R.Index != pasta::GridIndex::Thread)
        continue;
      if (R.Dim != 0)
        return false;
      Reads.push_back(II);
    }
  return true;
}

// Whether BB runs in every thread that returns from F.
static bool runsInEveryThread(const BasicBlock &BB, const DominatorTree &DT) {
  bool Returns = false;
  for (const BasicBlock &R : *BB.getParent())
    if (isa<ReturnInst>(R.getTerminator())) {
      Returns = true;
      if (!DT.dominates(&BB, &R))
        return false;
    }
  return Returns;
}

// The bound on thread index x that access I (a load or store of a shared
// array, `Array + C * x + Rest`, C > 0, Rest >= 0) gives; none otherwise.
static std::optional<uint64_t>
threadXBound(Instruction &I, ArrayRef<Value *> XReads, ScalarEvolution &SE) {
  Value *Ptr = getLoadStorePointerOperand(&I);
  if (!Ptr)
    return std::nullopt;
  auto *Array = dyn_cast<GlobalVariable>(getUnderlyingObject(Ptr));
  if (!Array || Array->getAddressSpace() != SharedSpace ||
      !Array->getValueType()->isSized())
    return std::nullopt;
  const DataLayout &DL = I.getModule()->getDataLayout();
  uint64_t Bytes = DL.getTypeAllocSize(Array->getValueType());
  uint64_t Size = DL.getTypeStoreSize(getLoadStoreType(&I));
  const SCEV *Address = SE.getSCEV(Ptr);
  const SCEV *Offset = SE.getMinusSCEV(Address, SE.getPointerBase(Address));
  if (isa<SCEVCouldNotCompute>(Offset))
    return std::nullopt;
  // Rest: the offset at x = 0; C * x: the difference.
  ValueToSCEVMapTy AtZero;
  for (Value *X : XReads)
    AtZero[X] = SE.getZero(X->getType());
  const SCEV *Rest = SCEVParameterRewriter::rewrite(Offset, SE, AtZero);
  const auto *Term = dyn_cast<SCEVMulExpr>(SE.getMinusSCEV(Offset, Rest));
  if (!Term || Term->getNumOperands() != 2)
    return std::nullopt;
  const auto *C = dyn_cast<SCEVConstant>(Term->getOperand(0));
  const SCEV *X = Term->getOperand(1);
  if (const auto *Ext = dyn_cast<SCEVZeroExtendExpr>(X))
    X = Ext->getOperand();
  const auto *XUnknown = dyn_cast<SCEVUnknown>(X);
  if (!C || C->getAPInt().isNonPositive() || !XUnknown ||
      !is_contained(XReads, XUnknown->getValue()))
    return std::nullopt;
  APInt RestMin = SE.getSignedRangeMin(Rest);
  if (RestMin.isNegative() || RestMin.getZExtValue() + Size > Bytes)
    return std::nullopt;
  return (Bytes - Size - RestMin.getZExtValue()) / C->getAPInt().getZExtValue();
}

std::optional<unsigned> pasta::blockThreadsBound(Function &F,
                                                 FunctionAnalysisManager &FAM) {
  SmallVector<Value *, 4> XReads;
  if (!threadXReads(F, XReads) || XReads.empty())
    return std::nullopt;
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  std::optional<uint64_t> Least;
  for (BasicBlock &BB : F) {
    if (!runsInEveryThread(BB, DT))
      continue;
    for (Instruction &I : BB)
      if (std::optional<uint64_t> X = threadXBound(I, XReads, SE))
        Least = std::min(Least.value_or(*X), *X);
  }
  if (!Least || *Least >= 1024)
    return std::nullopt;
  return unsigned(*Least + 1);
}

void pasta::reportBlockBounds(ArrayRef<Function *> Kernels,
                              FunctionAnalysisManager &FAM) {
  if (!PrintBlockBounds)
    return;
  for (Function *F : Kernels) {
    if (!isKernel(*F))
      continue;
    if (std::optional<unsigned> Bound = blockThreadsBound(*F, FAM))
      errs() << "pasta: block bound: " << F->getName() << " <= " << *Bound
             << " threads\n";
    else
      errs() << "pasta: block bound: " << F->getName() << " none\n";
  }
}
