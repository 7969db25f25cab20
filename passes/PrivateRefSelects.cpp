//===- PrivateRefSelects.cpp - Fields read through a chosen reference -----===//
//
// See PrivateRefSelects.h. A GEP with constant indices whose pointer is a
// phi or select of pointers, each into an alloca of the function, and whose
// users are all loads (or phis and selects), becomes a phi or select of the
// same GEP on each operand (placed after the operand's definition, or at
// the end of the phi's incoming block). A GEP on a select that feeds the
// new phi is then handled the same way in the next round. Then each load
// through a phi or select of such pointers becomes a phi or select of
// loads, and SROA runs again.
//
//===----------------------------------------------------------------------===//
#include "PrivateRefSelects.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/Loads.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Scalar/SROA.h"

using namespace llvm;

#define DEBUG_TYPE "pasta-private-ref-selects"

STATISTIC(NumMovedGEPs, "GEPs moved into a phi's or select's operands");
STATISTIC(NumSpeculatedLoads, "loads through a chosen pointer speculated");

// Whether every object V may point into is an alloca of the function.
static bool pointsIntoAllocas(const Value *V) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(V, Objects, /*LI=*/nullptr, /*MaxLookup=*/16);
  return !Objects.empty() &&
         all_of(Objects, [](const Value *O) { return isa<AllocaInst>(O); });
}

// A GEP worth moving: constant indices, on a phi or select of pointers
// into allocas, read only by loads (or chosen among again).
static bool isFieldOfChosenRef(const GetElementPtrInst &GEP) {
  const Value *Base = GEP.getPointerOperand();
  if (!(isa<PHINode>(Base) || isa<SelectInst>(Base)) ||
      !GEP.hasAllConstantIndices() || GEP.user_empty())
    return false;
  // Loads, or a phi or select choosing among such GEPs (the one this pass
  // put into a phi's operand, on a select there).
  // Not a pointer induction (the GEP feeding its own phi): moved, it would
  // come back each round.
  if (!all_of(GEP.users(), [&](const User *U) {
        if (isa<PHINode>(U) || isa<SelectInst>(U))
          return U != Base;
        const auto *L = dyn_cast<LoadInst>(U);
        return L && L->isSimple() && L->getPointerOperand() == &GEP;
      }))
    return false;
  return pointsIntoAllocas(Base);
}

// The same GEP on one operand, built at IP.
static Value *sameGEPOn(const GetElementPtrInst &GEP, Value *Base,
                        BasicBlock::iterator IP) {
  IRBuilder<> B(IP->getParent(), IP);
  SmallVector<Value *, 4> Indices(GEP.indices());
  return B.CreateGEP(GEP.getSourceElementType(), Base, Indices,
                     GEP.getName() + ".moved", GEP.getNoWrapFlags());
}

// Where a value defined by V (or at the top of F) may be used from on.
static BasicBlock::iterator afterDefinition(Value *V, Function &F) {
  if (auto *I = dyn_cast<Instruction>(V)) {
    if (isa<PHINode>(I))
      return I->getParent()->getFirstInsertionPt();
    return std::next(I->getIterator());
  }
  return F.getEntryBlock().getFirstInsertionPt();
}

// A phi beside Phi of Ty whose value from each incoming block is Make's
// of that block's incoming value, made before the block's terminator; a
// block that comes in twice (a switch's two cases) gives one value.
static PHINode *
phiOfIncoming(PHINode &Phi, Type *Ty, const Twine &Name,
              function_ref<Value *(Value *, BasicBlock::iterator)> Make) {
  PHINode *New = PHINode::Create(Ty, Phi.getNumIncomingValues(), Name);
  New->insertBefore(Phi.getIterator());
  SmallDenseMap<BasicBlock *, Value *, 4> Made;
  for (unsigned K = 0; K < Phi.getNumIncomingValues(); ++K) {
    BasicBlock *From = Phi.getIncomingBlock(K);
    Value *&V = Made[From];
    if (!V)
      V = Make(Phi.getIncomingValue(K), From->getTerminator()->getIterator());
    New->addIncoming(V, From);
  }
  return New;
}

static void moveIntoPhi(GetElementPtrInst &GEP, PHINode &Phi) {
  PHINode *New = phiOfIncoming(Phi, GEP.getType(), GEP.getName() + ".phi",
                               [&](Value *In, BasicBlock::iterator IP) {
                                 return sameGEPOn(GEP, In, IP);
                               });
  GEP.replaceAllUsesWith(New);
  GEP.eraseFromParent();
}

static void moveIntoSelect(GetElementPtrInst &GEP, SelectInst &Sel,
                           Function &F) {
  Value *T = sameGEPOn(GEP, Sel.getTrueValue(),
                       afterDefinition(Sel.getTrueValue(), F));
  Value *E = sameGEPOn(GEP, Sel.getFalseValue(),
                       afterDefinition(Sel.getFalseValue(), F));
  IRBuilder<> B(Sel.getParent(), std::next(Sel.getIterator()));
  Value *New =
      B.CreateSelect(Sel.getCondition(), T, E, GEP.getName() + ".select");
  GEP.replaceAllUsesWith(New);
  GEP.eraseFromParent();
}

// Whether a load of Ty from Ptr may run wherever Ptr is defined: Ptr, or
// each operand of a select Ptr is, points inside an alloca.
static bool loadableAnywhere(Value *Ptr, Type *Ty, Align A,
                             const DataLayout &DL) {
  if (auto *Sel = dyn_cast<SelectInst>(Ptr))
    return loadableAnywhere(Sel->getTrueValue(), Ty, A, DL) &&
           loadableAnywhere(Sel->getFalseValue(), Ty, A, DL);
  return isa<AllocaInst>(getUnderlyingObject(Ptr)) &&
         isSafeToLoadUnconditionally(Ptr, Ty, A, DL, /*ScanFrom=*/nullptr);
}

// The value a load of Ty from Ptr gives, read at IP: a select of the
// operands' loads where Ptr is a select.
static Value *loadAt(Value *Ptr, LoadInst &Like, BasicBlock::iterator IP) {
  if (auto *Sel = dyn_cast<SelectInst>(Ptr)) {
    Value *T = loadAt(Sel->getTrueValue(), Like, IP);
    Value *E = loadAt(Sel->getFalseValue(), Like, IP);
    IRBuilder<> B(IP->getParent(), IP);
    return B.CreateSelect(Sel->getCondition(), T, E, Like.getName() + ".sel");
  }
  IRBuilder<> B(IP->getParent(), IP);
  LoadInst *L = B.CreateAlignedLoad(Like.getType(), Ptr, Like.getAlign(),
                                    Like.getName() + ".spec");
  L->copyMetadata(Like);
  return L;
}

// Nothing between the top of L's block and L writes memory.
static bool firstReadOfBlock(const LoadInst &L) {
  for (const Instruction &I : *L.getParent()) {
    if (&I == &L)
      return true;
    if (I.mayWriteToMemory())
      return false;
  }
  return false;
}

// A load through a phi or select of pointers into allocas (what the GEPs
// moved above leave, SROA's own speculation stopping at a select that
// feeds a phi): read each operand instead, at the end of the phi's
// incoming block or where the load is, and choose among the values.
static bool speculateLoad(LoadInst &L, const DataLayout &DL) {
  Value *Ptr = L.getPointerOperand();
  if (!L.isSimple() || !pointsIntoAllocas(Ptr))
    return false;
  if (auto *Sel = dyn_cast<SelectInst>(Ptr)) {
    if (!loadableAnywhere(Sel, L.getType(), L.getAlign(), DL))
      return false;
    L.replaceAllUsesWith(loadAt(Sel, L, L.getIterator()));
    L.eraseFromParent();
    return true;
  }
  auto *Phi = dyn_cast<PHINode>(Ptr);
  if (!Phi || Phi->getParent() != L.getParent() || !firstReadOfBlock(L) ||
      !all_of(Phi->incoming_values(), [&](Value *V) {
        return loadableAnywhere(V, L.getType(), L.getAlign(), DL);
      }))
    return false;
  PHINode *New = phiOfIncoming(
      *Phi, L.getType(), L.getName() + ".phi",
      [&](Value *In, BasicBlock::iterator IP) { return loadAt(In, L, IP); });
  L.replaceAllUsesWith(New);
  L.eraseFromParent();
  return true;
}

PreservedAnalyses
pasta::PrivateRefSelectsPass::run(Function &F, FunctionAnalysisManager &AM) {
  if (!Triple(F.getParent()->getTargetTriple()).isNVPTX() || F.isDeclaration())
    return PreservedAnalyses::all();
  bool Changed = false;
  // Each round moves the GEPs found one level down (a phi's operand that
  // is itself a select is handled next round); a few rounds suffice.
  for (unsigned Round = 0; Round < 4; ++Round) {
    SmallVector<GetElementPtrInst *, 16> Work;
    for (Instruction &I : instructions(F))
      if (auto *GEP = dyn_cast<GetElementPtrInst>(&I);
          GEP && isFieldOfChosenRef(*GEP))
        Work.push_back(GEP);
    if (Work.empty())
      break;
    for (GetElementPtrInst *GEP : Work) {
      Value *Base = GEP->getPointerOperand();
      if (auto *Phi = dyn_cast<PHINode>(Base))
        moveIntoPhi(*GEP, *Phi);
      else
        moveIntoSelect(*GEP, *cast<SelectInst>(Base), F);
      ++NumMovedGEPs;
      Changed = true;
    }
  }
  SmallVector<LoadInst *, 16> Loads;
  for (Instruction &I : instructions(F))
    if (auto *L = dyn_cast<LoadInst>(&I);
        L && (isa<PHINode>(L->getPointerOperand()) ||
              isa<SelectInst>(L->getPointerOperand())))
      Loads.push_back(L);
  const DataLayout &DL = F.getDataLayout();
  for (LoadInst *L : Loads)
    if (speculateLoad(*L, DL)) {
      ++NumSpeculatedLoads;
      Changed = true;
    }
  if (!Changed)
    return PreservedAnalyses::all();
  // The allocas are now read only at constant offsets: SROA, which has run
  // already at this point of the pipeline, promotes them.
  PreservedAnalyses PA = PreservedAnalyses::none();
  PA.preserveSet<CFGAnalyses>();
  AM.invalidate(F, PA);
  PreservedAnalyses Promoted = SROAPass(SROAOptions::PreserveCFG).run(F, AM);
  Promoted.intersect(PA);
  return Promoted;
}
