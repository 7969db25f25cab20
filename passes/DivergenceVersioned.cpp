//===- DivergenceVersioned.cpp - Full warps' trips of measured loops ------===//
//
// See DivergenceVersioned.h.
//
//===----------------------------------------------------------------------===//
#include "DivergenceVersioned.h"

#include "DeviceRuntime.h"
#include "DivergenceFigures.h"
#include "ThreadExits.h"
#include "UniformLoops.h"
#include "pasta/abi.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;
using namespace pasta;

static cl::opt<bool> ApartLanes(
    "pasta-div-versioned-apart", cl::init(true), cl::Hidden,
    cl::desc("Divergence copies: version a uniform loop whose accesses have "
             "a lane stride known only at run time, where it is 32 bytes or "
             "more (the clone adds those accesses' figures)"));

static cl::opt<bool> VersionedLoops(
    "pasta-div-versioned-loops", cl::init(true), cl::Hidden,
    cl::desc("Divergence copies: run a measured one-block loop's trips that "
             "every lane of a full warp takes in an unmeasured clone"));

// Off: on an H200 kmeans ran 2.19x plain with it against 1.94x without (the
// same run), though 2.3% fewer instructions (the sum held in registers
// across the cluster loop, under the copy's cap of 64): measured, not
// taken.
static cl::opt<bool> TripsAtOuterExits(
    "pasta-div-versioned-outer-sum", cl::init(false), cl::Hidden,
    cl::desc("Divergence copies: a loop versioned whole inside other loops "
             "sums its clone's trips in a register, added where the "
             "outermost loop is left (off: added at each clone's exit)"));

// Not named __pasta_div_*: they measure nothing, and the copies' count of
// measuring calls (twinTooCostly) stays as it was.
static constexpr const char *FullTripsName = "__pasta_ver_trips";

namespace {

// What the plan measures in one block of a copy.
struct PlannedIn {
  const DivergencePlan::Block *Block = nullptr;
  SmallVector<const DivergencePlan::Access *, 4> Accesses;
  unsigned Branches = 0, Others = 0;
};

// The plan's entries whose code is in the copy's block BB.
PlannedIn plannedIn(const BasicBlock &BB, const DivergencePlan &Plan,
                    ValueToValueMapTy &VMap) {
  auto InCopy = [&](const Value *V) -> const Value * {
    auto It = VMap.find(V);
    return It == VMap.end() ? nullptr : It->second;
  };
  auto InBB = [&](const Instruction *I) {
    const auto *C = dyn_cast_or_null<Instruction>(InCopy(I));
    return C && C->getParent() == &BB;
  };
  PlannedIn P;
  for (const DivergencePlan::Block &B : Plan.Blocks)
    if (InCopy(B.BB) == &BB)
      P.Block = &B;
  for (const DivergencePlan::Access &A : Plan.Accesses)
    if (InBB(A.I))
      P.Accesses.push_back(&A);
  for (const DivergencePlan::Branch &Br : Plan.Branches)
    P.Branches += InBB(Br.Term);
  for (const DivergencePlan::Segment &S : Plan.Segments)
    P.Others += InBB(S.After);
  for (const DivergencePlan::NoneTaken &NT : Plan.NoneTakens)
    P.Others += InBB(NT.Term);
  return P;
}

// Whether every measured figure of A in a full warp of one row of 32 lanes
// is the one read-back derives (deriveLaneShaped, deriveFromBlock), so
// that its measurement adds nothing there, wherever the row's base lies: a
// global load or store of a power-of-2 size up to 32, aligned to it, at a
// lane stride of 0 (one element, in one sector) or of 32 bytes or more (an
// element, in a sector of its own, per lane). With RowAligned, also at a
// stride of its size (the row's elements side by side), whose figures are
// the derived ones where the row starts on a 32-byte boundary: the caller
// tests that at run time.
bool fullWarpDerived(const DivergencePlan::Access &A, int64_t Stride,
                     bool RowAligned = false) {
  bool Side = RowAligned && Stride == int64_t(A.Size) && A.Size < 32;
  return A.Space == PASTA_DIV_GLOBAL && A.Sectored && !A.CallersSpace &&
         isPowerOf2_32(A.Size) && A.Size <= 32 &&
         getLoadStoreAlignment(A.I).value() >= A.Size &&
         (Stride == 0 || Stride >= 32 || Side) && lanesHelperTakes(A, Stride);
}

// A loop of the copy to version: its measured block, and whether all its
// trips go to the clone (Whole: a uniform loop, every lane takes them)
// rather than the trips every lane takes (its exit diverges). Aligned: the
// pointers, with their element sizes, of the accesses at a lane stride of
// their size, whose rows must start on a 32-byte boundary in every trip.
// Apart: the pointers and plan entries of the accesses whose lane stride is
// not a constant (bicg_q's A[i * n + j], 4n bytes), measured in full by the
// copy: the clone runs where their lanes are 32 bytes or more apart, and
// adds their figures itself (addApartFigures).
struct Candidate {
  Loop *L = nullptr;
  const DivergencePlan::Block *Planned = nullptr;
  bool Whole = false;
  SmallVector<std::pair<Value *, uint64_t>, 2> Aligned;
  SmallVector<std::pair<Value *, const DivergencePlan::Access *>, 2> Apart;
  // A whole loop inside others: the exit blocks of the outermost, where
  // the clone's trips are added (tripsAtOuterExits); none: at its exit.
  SmallVector<BasicBlock *, 2> OuterExits = {};
};

// Whether A, in a uniform loop versioned whole, may be an Apart access: a
// global load or store of a power-of-2 size up to 32, aligned to it, whose
// figures a full warp of lanes at least 32 bytes apart gives in closed form
// (a sector per lane, none shared: __pasta_ver_lanes_apart), the same in
// every trip where the address moves by a warp-uniform step (repeatIn with
// no granule: the lanes keep their distances).
bool apartCandidate(const DivergencePlan::Access &A) {
  return A.Space == PASTA_DIV_GLOBAL && A.Sectored && !A.CallersSpace &&
         isPowerOf2_32(A.Size) && A.Size <= 32 &&
         getLoadStoreAlignment(A.I).value() >= A.Size;
}

// Whether L, a loop of the copy, is one whose full warps' trips may run
// unmeasured: one block, its latch's test the one way out, no call but
// intrinsics without side effects, nothing measured in it but the block,
// its latch's branch and accesses that a full warp of one row adds nothing
// to. Either its exit diverges and it is at the function's outermost level
// (the trips every lane takes), or it is a uniform loop (a uniform loop's
// figures are folded per entry, but its trips still test each fold and
// count visits: all its trips, at any depth), where an access at a lane
// stride of its size is admitted when its rows' alignment can be tested
// before the loop (UniformLoops::repeatIn).
std::optional<Candidate> versionable(Loop &L, const DivergencePlan &Plan,
                                     ValueToValueMapTy &VMap,
                                     UniformLoops &Loops, ScalarEvolution &SE) {
  BasicBlock *H = L.getHeader();
  if (L.getNumBlocks() != 1 || !L.getLoopPreheader() || !L.getExitBlock())
    return std::nullopt;
  const UniformLoops::UniformLoop *U = Loops.uniformLoop(*H);
  bool Whole = U && U->L == &L && U->Trips;
  if (!Whole && (U || L.getParentLoop()))
    return std::nullopt;
  auto *Br = dyn_cast<BranchInst>(H->getTerminator());
  if (!Br || !Br->isConditional())
    return std::nullopt;
  for (Instruction &I : *H)
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (!isa<IntrinsicInst>(CB) || CB->mayHaveSideEffects() ||
          CB->isConvergent())
        return std::nullopt;
  PlannedIn P = plannedIn(*H, Plan, VMap);
  if (!P.Block || !P.Block->Measured || P.Block->Launch || P.Others ||
      P.Branches > 1 || (!Whole && P.Branches != 1))
    return std::nullopt;
  Candidate C{&L, P.Block, Whole, {}, {}};
  for (const DivergencePlan::Access *A : P.Accesses) {
    Value *Ptr = getLoadStorePointerOperand(cast<Instruction>(VMap[A->I]));
    if (!Ptr)
      return std::nullopt;
    SmallVector<Value *, 2> Conds;
    SmallVector<UniformLoops::LaneArm, 1> Arms;
    std::optional<int64_t> Stride = Loops.laneStrideIf(Ptr, *H, Conds, Arms);
    if (!Stride && Whole && ApartLanes && apartCandidate(*A) &&
        Loops.repeatIn(*U, Ptr, 1)) {
      C.Apart.push_back({Ptr, A});
      continue;
    }
    if (!Stride || !Conds.empty() || !Arms.empty() ||
        !fullWarpDerived(*A, *Stride, Whole))
      return std::nullopt;
    if (*Stride == int64_t(A->Size) && A->Size < 32) { // Whole only
      if (!Loops.repeatIn(*U, Ptr, figureGranule(*A)))
        return std::nullopt;
      C.Aligned.push_back({Ptr, A->Size});
    }
  }
  // The block's counters its own (no block shares them).
  if (std::count_if(Plan.Blocks.begin(), Plan.Blocks.end(),
                    [&](const DivergencePlan::Block &B) {
                      return B.Warps == P.Block->Warps;
                    }) != 1)
    return std::nullopt;
  if (Whole)
    return C;
  const SCEV *Backedges = SE.getBackedgeTakenCount(&L);
  SCEVExpander Expander(SE, "pasta.div.ver");
  if (isa<SCEVCouldNotCompute>(Backedges) ||
      Backedges->getType()->getIntegerBitWidth() > 64 ||
      !Expander.isSafeToExpandAt(Backedges,
                                 L.getLoopPreheader()->getTerminator()))
    return std::nullopt;
  return C;
}

// The helpers of device_rt/device_rt_div_versioned.inc.c.
struct VersionHelpers {
  FunctionCallee FullTrips, TripsAdd, BankRow, LanesApart;
};

// What the copy measures of an Apart access A (requests and bytes are
// derived from its block's counters) in n trips of a full warp whose lanes
// are 32 bytes or more apart, each element aligned to its size
// (__pasta_ver_lanes_apart): per trip 32 elements in 32 sectors of their
// own, none overlapping, so 32 x size distinct bytes, 32 sectors and
// ceil(32 x size / 32) = size ideal sectors (the general helper's figures,
// pasta_div_access_figures), added to A's line's counters in Row.
void addApartFigures(IRBuilder<> &DB, Value *Row,
                     const DivergencePlan::Access &A, Value *N, ModuleTables &T,
                     const VersionHelpers &VH) {
  Type *I64 = DB.getInt64Ty();
  uint32_t Line = T.DivRows[A.Row].counter;
  auto Add = [&](unsigned Figure, uint64_t PerTrip) {
    DB.CreateCall(VH.TripsAdd,
                  {DB.CreateConstInBoundsGEP1_32(I64, Row, Line + Figure),
                   DB.CreateMul(N, DB.getInt64(PerTrip))});
  };
  Add(PASTA_DIV_DISTINCT_GLOBAL, 32 * uint64_t(A.Size));
  Add(PASTA_DIV_SECTORS, 32);
  Add(PASTA_DIV_IDEAL_SECTORS, A.Size);
}

// addCloneTrips's adds at DB, for N trips (extended to 64 bits after the
// row, as the code was before tripsAtOuterExits).
void addTripsAt(
    IRBuilder<> &DB, const DivergencePlan::Block &Planned, Value *N,
    ModuleTables &T, const VersionHelpers &VH,
    ArrayRef<std::pair<Value *, const DivergencePlan::Access *>> Apart) {
  Type *I64 = DB.getInt64Ty();
  Value *Row =
      DB.CreateCall(VH.BankRow, {T.Counters, DB.getInt32(T.NumCounters),
                                 DB.getInt32(T.numBanks())});
  N = DB.CreateZExt(N, I64);
  DB.CreateCall(VH.TripsAdd,
                {DB.CreateConstInBoundsGEP1_32(I64, Row, Planned.Warps), N});
  if (Planned.OwnThreads)
    DB.CreateCall(VH.TripsAdd,
                  {DB.CreateConstInBoundsGEP1_32(I64, Row, Planned.Threads),
                   DB.CreateShl(N, 5)});
  for (auto [Ptr, A] : Apart)
    addApartFigures(DB, Row, *A, N, T, VH);
}

// At the end of Done (where a clone's warp leaves it): its n trips
// (Trips, warp-uniform) added to the versioned block's counters once, n
// warp executions and, where the copy counts the block's lanes itself, 32 n
// lanes (only full warps run a clone). Then each Apart access's figures
// for those n trips (addApartFigures).
void addCloneTrips(
    BasicBlock &Done, const DivergencePlan::Block &Planned, Value *Trips,
    DebugLoc Loc, ModuleTables &T, const VersionHelpers &VH,
    ArrayRef<std::pair<Value *, const DivergencePlan::Access *>> Apart = {}) {
  IRBuilder<> DB(&Done);
  DB.SetCurrentDebugLocation(Loc);
  addTripsAt(DB, Planned, Trips, T, VH, Apart);
}

// Removes Phi of the clone Body and its step (Phi plus something) when
// nothing else uses them: the clone's copy of a counter whose value after
// the clone is computed at its preheader.
void dropDeadCounter(PHINode &Phi, BasicBlock &Body) {
  auto *Step = dyn_cast<Instruction>(Phi.getIncomingValueForBlock(&Body));
  if (!Step || !Phi.hasOneUse() || !Step->hasOneUse() ||
      Phi.user_back() != Step || Step->user_back() != &Phi)
    return;
  Step->replaceAllUsesWith(PoisonValue::get(Step->getType()));
  Step->eraseFromParent();
  Phi.eraseFromParent();
}

// Pre -> Check -> Merge -> H: Check is where a warp chooses between a loop's
// clone and the loop (both versioning paths).
std::pair<BasicBlock *, BasicBlock *> splitBeforeLoop(BasicBlock *Pre,
                                                      BasicBlock *H) {
  BasicBlock *Check = SplitEdge(Pre, H);
  Check->setName("pasta.div.ver.check");
  BasicBlock *Merge = SplitBlock(Check, Check->getTerminator());
  Merge->setName("pasta.div.ver.merge");
  return {Check, Merge};
}

// Check's way on: to the clone where the warp has trips for it (Trips, 0
// where it has none), else to Merge and the measured loop.
void branchToClone(BasicBlock &Check, Value *Trips, BasicBlock &Clone,
                   BasicBlock &Merge, const DebugLoc &Loc) {
  Instruction *CheckTerm = Check.getTerminator();
  IRBuilder<> B(CheckTerm);
  B.SetCurrentDebugLocation(Loc);
  B.CreateCondBr(B.CreateICmpNE(Trips, ConstantInt::get(Trips->getType(), 0)),
                 &Clone, &Merge);
  CheckTerm->eraseFromParent();
}

// A loop header's clone made to use the clone's values (and the blocks
// CloneMap maps), its debug records too.
void remapClone(BasicBlock &Clone, ValueToValueMapTy &CloneMap) {
  for (Instruction &I : Clone) {
    RemapInstruction(&I, CloneMap,
                     RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
    RemapDbgRecordRange(Clone.getModule(), I.getDbgRecordRange(), CloneMap,
                        RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
  }
}

// Before L's preheader: a warp whose 32 lanes are all in it, in one row
// of 32, takes the backedges that every lane takes (the fewest, n) in a
// clone of L without any measurement, adds those n trips to L's block's
// counters (n warp executions, 32 n lanes where the copy counts them
// itself) and enters L for the rest; other warps (n = 0) enter L as
// before. In those n trips the block runs with all 32 lanes, the latch's
// branch does not diverge, and every access's figures are the derived ones
// (versionable): what L would have measured is the n trips' warp
// executions and lanes. The loop's entry count (at its preheader) then
// counts the full warps' trip n + 1 instead of trip 1.
// L's recurrences with a constant step start at start + n * step, computed
// in the preheader (n is warp-uniform: isFullWarpTrips), not joined after
// the clone: L's addresses keep the lane stride the plan gave them.
void versionLoop(Loop &L, const DivergencePlan::Block &Planned,
                 ScalarEvolution &SE, ModuleTables &T,
                 const VersionHelpers &VH) {
  BasicBlock *H = L.getHeader(), *Pre = L.getLoopPreheader();
  Function &F = *H->getParent();
  LLVMContext &Ctx = F.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  DebugLoc Loc = H->getTerminator()->getDebugLoc();

  // In the preheader, before any block is added (scalar evolution and its
  // expander see the function as analysed): each lane's backedges, the
  // warp's clone trips n, each recurrence's start after n trips.
  IRBuilder<> B(Pre->getTerminator());
  B.SetCurrentDebugLocation(Loc);
  SCEVExpander Expander(SE, "pasta.div.ver");
  const SCEV *BackedgesS = SE.getBackedgeTakenCount(&L);
  Value *Backedges = Expander.expandCodeFor(BackedgesS, BackedgesS->getType(),
                                            Pre->getTerminator());
  Value *Trips =
      B.CreateCall(VH.FullTrips, {B.CreateZExtOrTrunc(Backedges, I64)});
  const SCEV *TripsS = SE.getSCEV(Trips);
  DenseMap<PHINode *, Value *> StartAfter;
  for (PHINode &Phi : H->phis()) {
    auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&Phi));
    if (!AR || AR->getLoop() != &L || !AR->isAffine() ||
        !isa<SCEVConstant>(AR->getStepRecurrence(SE)))
      continue;
    const SCEV *Step = AR->getStepRecurrence(SE);
    const SCEV *After = SE.getAddExpr(
        AR->getStart(),
        SE.getMulExpr(SE.getTruncateOrZeroExtend(TripsS, Step->getType()),
                      Step));
    StartAfter[&Phi] =
        Expander.expandCodeFor(After, Phi.getType(), Pre->getTerminator());
  }

  auto [Check, Merge] = splitBeforeLoop(Pre, H);

  // The clone: its phis take the preheader's values from Check, its latch
  // counts n trips (a uniform count ptxas may unroll as the plain loop).
  ValueToValueMapTy CloneMap;
  BasicBlock *Clone = CloneBasicBlock(H, CloneMap, ".pasta.div.ver", &F);
  BasicBlock *Done = BasicBlock::Create(Ctx, "pasta.div.ver.done", &F, Merge);
  remapClone(*Clone, CloneMap);
  SmallVector<std::pair<PHINode *, PHINode *>, 8> Phis;
  for (PHINode &Phi : H->phis())
    Phis.push_back({&Phi, cast<PHINode>(CloneMap[&Phi])});
  for (auto [Phi, Cloned] : Phis)
    for (unsigned K = 0; K < Cloned->getNumIncomingValues(); ++K)
      Cloned->setIncomingBlock(K, Cloned->getIncomingBlock(K) == Merge ? Check
                                                                       : Clone);
  IRBuilder<> CB(Clone, Clone->getFirstNonPHIIt());
  CB.SetCurrentDebugLocation(Loc);
  PHINode *Trip = CB.CreatePHI(Trips->getType(), 2, "pasta.div.ver.trip");
  CB.SetInsertPoint(Clone->getTerminator());
  Value *Next = CB.CreateAdd(Trip, ConstantInt::get(Trips->getType(), 1));
  Trip->addIncoming(ConstantInt::get(Trips->getType(), 0), Check);
  Trip->addIncoming(Next, Clone);
  Instruction *OldTerm = Clone->getTerminator();
  Value *OldCond = cast<BranchInst>(OldTerm)->getCondition();
  CB.CreateCondBr(CB.CreateICmpULT(Next, Trips), Clone, Done)
      ->copyMetadata(*OldTerm, {LLVMContext::MD_loop});
  OldTerm->eraseFromParent();
  RecursivelyDeleteTriviallyDeadInstructions(OldCond);

  // Check: full warps with a trip to spare go to the clone.
  branchToClone(*Check, Trips, *Clone, *Merge, Loc);

  // Done: the n trips' counts, then L with the values the clone left.
  addCloneTrips(*Done, Planned, Trips, Loc, T, VH);
  BranchInst::Create(Merge, Done);
  IRBuilder<> MB(Merge, Merge->getFirstNonPHIIt());
  for (auto [Phi, Cloned] : Phis) {
    if (Value *After = StartAfter.lookup(Phi)) {
      Phi->setIncomingValueForBlock(Merge, After);
      continue;
    }
    PHINode *In = MB.CreatePHI(Phi->getType(), 2, Phi->getName() + ".ver");
    In->addIncoming(Phi->getIncomingValueForBlock(Merge), Check);
    In->addIncoming(Cloned->getIncomingValueForBlock(Clone), Done);
    Phi->setIncomingValueForBlock(Merge, In);
  }
  for (auto [Phi, Cloned] : Phis)
    dropDeadCounter(*Cloned, *Clone);
}

// The outermost uniform loop around U (U itself where there is none) at
// whose preheader every test of wholeTrips can be made: each access's
// first-trip row and step (UniformLoops::outermostInvariant) and U's trips
// invariant there. Its lanes are U's (no branch between diverges), so the
// test is made once for all of U's entries in it (kmeans: once a thread,
// not once per cluster).
const UniformLoops::UniformLoop &
testedAt(const UniformLoops::UniformLoop &U,
         ArrayRef<UniformLoops::Repeat> Repeats, UniformLoops &Loops,
         ScalarEvolution &SE) {
  if (Repeats.empty())
    return U;
  const UniformLoops::UniformLoop *W = nullptr;
  for (const UniformLoops::Repeat &R : Repeats) {
    const UniformLoops::UniformLoop &M = Loops.outermostInvariant(U, R);
    if (!W || M.L->getLoopDepth() > W->L->getLoopDepth())
      W = &M;
  }
  SCEVExpander Expander(SE, "pasta.div.ver");
  if (W != &U && (!SE.isLoopInvariant(U.Trips, W->L) ||
                  !Expander.isSafeToExpandAt(U.Trips, W->PreheaderEnd)))
    return U;
  return *W;
}

// In a uniform loop's preheader, or testedAt's (before any block is
// split): the clone's trips for this warp, all of L's trips where the warp
// is full, one row of 32 lanes, and every access at a lane stride of its
// size (C.Aligned) starts its row on a 32-byte boundary in every trip (the
// first trip's row, a step a multiple of 32 bytes, no index wrapping: what
// the fold of a repeating access tests, UniformLoops::repeatIn); else 0.
Value *wholeTrips(const Candidate &C, UniformLoops &Loops, ScalarEvolution &SE,
                  const VersionHelpers &VH) {
  const UniformLoops::UniformLoop &U = *Loops.uniformLoop(*C.L->getHeader());
  SmallVector<UniformLoops::Repeat, 2> Repeats;
  for (auto [Ptr, Size] : C.Aligned)
    Repeats.push_back(*Loops.repeatIn(U, Ptr, 32));
  for (auto [Ptr, A] : C.Apart)
    Repeats.push_back(*Loops.repeatIn(U, Ptr, 1));
  const UniformLoops::UniformLoop &W = testedAt(U, Repeats, Loops, SE);
  const UniformLoops::UniformLoop *At = &W == &U ? nullptr : &W;
  IRBuilder<> B(W.PreheaderEnd);
  B.SetCurrentDebugLocation(C.L->getHeader()->getTerminator()->getDebugLoc());
  Type *I64 = B.getInt64Ty();
  Value *Trips = At ? SCEVExpander(SE, "pasta.div.ver")
                          .expandCodeFor(U.Trips, I64, W.PreheaderEnd)
                    : Loops.tripsBefore(U);
  // Trips past the helper's cap go to the measured loop.
  Value *Ok = B.CreateICmpULE(Trips, B.getInt64(0x7fffffff));
  for (size_t K = 0; K < C.Aligned.size(); ++K) {
    const UniformLoops::Repeat &R = Repeats[K];
    auto [Ptr, Size] = C.Aligned[K];
    if (R.StepToTest)
      Ok = B.CreateAnd(Ok, Loops.stepIsMultiple(U, R, 32, At));
    if (!R.NoWraps.empty())
      Ok = B.CreateAnd(Ok, Loops.laneDoesNotWrap(U, R, At));
    // Lane i holds the row's element i: the row starts Size * i before.
    Value *Lane = B.CreateZExt(
        B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid, {}), I64);
    Value *Start = B.CreatePtrToInt(Loops.startBefore(U, Ptr, R, At), I64);
    Value *RowStart = B.CreateSub(Start, B.CreateMul(Lane, B.getInt64(Size)));
    Ok = B.CreateAnd(
        Ok,
        B.CreateICmpEQ(B.CreateAnd(RowStart, B.getInt64(31)), B.getInt64(0)),
        "pasta.div.ver.ok");
  }
  // Apart: each lane's first-trip address on its warp's line of lanes 32
  // bytes or more apart; the step moves every lane alike (no index wraps).
  for (size_t K = 0; K < C.Apart.size(); ++K) {
    const UniformLoops::Repeat &R = Repeats[C.Aligned.size() + K];
    auto [Ptr, A] = C.Apart[K];
    if (!R.NoWraps.empty())
      Ok = B.CreateAnd(Ok, Loops.laneDoesNotWrap(U, R, At));
    Value *Start = B.CreatePtrToInt(Loops.startBefore(U, Ptr, R, At), I64);
    Value *Apart = B.CreateCall(VH.LanesApart, {Start, B.getInt32(A->Size)});
    Ok = B.CreateAnd(Ok, B.CreateICmpNE(Apart, B.getInt32(0)),
                     "pasta.div.ver.apart");
  }
  return B.CreateCall(VH.FullTrips, {B.CreateSelect(Ok, Trips, B.getInt64(0))},
                      "pasta.div.ver.n");
}

// A clone's trips summed in a register of each lane (Done adds them) and
// added to the counters where the lane leaves the outermost loop around
// it (C.OuterExits), then zeroed there: one add of lane 0's sum a warp,
// where addCloneTrips adds at every clone's exit (kmeans' feature loop:
// a `red` at each of its cluster loop's trips). Exact: only full warps
// run a clone, so lane 0 ran every clone its warp ran and holds the
// warp's sum; an exit block lies in no loop, so it runs at most once a
// call from each way in, and the zero stops a second add where one exit
// block leads to another.
void tripsAtOuterExits(const Candidate &C, Value *Trips, BasicBlock &Done,
                       DebugLoc Loc, ModuleTables &T,
                       const VersionHelpers &VH) {
  Function &F = *Done.getParent();
  Type *I64 = Type::getInt64Ty(F.getContext());
  IRBuilder<> EB(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Sum = EB.CreateAlloca(I64, nullptr, "pasta.div.ver.sum");
  markRuntimeSlot(Sum); // a register once the helpers are inlined
  EB.CreateStore(EB.getInt64(0), Sum);
  IRBuilder<> DB(&Done);
  DB.SetCurrentDebugLocation(Loc);
  DB.CreateStore(
      DB.CreateAdd(DB.CreateLoad(I64, Sum), DB.CreateZExt(Trips, I64)), Sum);
  for (BasicBlock *Exit : C.OuterExits) {
    IRBuilder<> XB(&*Exit->getFirstInsertionPt());
    XB.SetCurrentDebugLocation(Loc);
    Value *N = XB.CreateLoad(I64, Sum);
    XB.CreateStore(XB.getInt64(0), Sum);
    addTripsAt(XB, *C.Planned, N, T, VH, C.Apart);
  }
}

// The exit blocks of the outermost loop around L, a loop versioned whole,
// where its clone's trips are added (tripsAtOuterExits); none where L is
// outermost, the option is off, or a thread may end inside (ThreadExits.h).
SmallVector<BasicBlock *, 2> outerExits(const Loop &L) {
  SmallVector<BasicBlock *, 2> Exits;
  const Loop *Outer = L.getOutermostLoop();
  if (!TripsAtOuterExits || Outer == &L ||
      !threadEnds(*L.getHeader()->getParent()).empty())
    return Exits;
  Outer->getUniqueExitBlocks(Exits);
  return Exits;
}

// Before L, a uniform loop (every lane takes its n trips, whose branches
// are warp-uniform and whose accesses' figures read-back derives from its
// block's counts in a full warp of one row: versionable, wholeTrips): a
// warp with Trips = n != 0 runs all of them in a clone of L without any
// measurement, adds them to L's block's counters and leaves to L's exit
// block; other warps run L as before. What L would have measured in those
// trips: the block's n warp executions of 32 lanes (its figures folded at
// L's preheader: the same), no divergent branch, the accesses' derived
// figures (the fold tests pass). L is put in LCSSA form first, so that its
// exit block's phis are the only uses of its values after it.
void versionWholeLoop(const Candidate &C, Value *Trips, ModuleTables &T,
                      const VersionHelpers &VH) {
  Loop &L = *C.L;
  BasicBlock *H = L.getHeader(), *Pre = L.getLoopPreheader();
  BasicBlock *Exit = L.getExitBlock();
  Function &F = *H->getParent();
  LLVMContext &Ctx = F.getContext();
  DebugLoc Loc = H->getTerminator()->getDebugLoc();

  auto [Check, Merge] = splitBeforeLoop(Pre, H);

  // The clone, latch and loop metadata as L's; its way out to Done.
  ValueToValueMapTy CloneMap;
  BasicBlock *Clone = CloneBasicBlock(H, CloneMap, ".pasta.div.ver", &F);
  BasicBlock *Done = BasicBlock::Create(Ctx, "pasta.div.ver.done", &F, Exit);
  CloneMap[H] = Clone;
  CloneMap[Exit] = Done;
  CloneMap[Merge] = Check;
  remapClone(*Clone, CloneMap);

  branchToClone(*Check, Trips, *Clone, *Merge, Loc);

  if (C.OuterExits.empty())
    addCloneTrips(*Done, *C.Planned, Trips, Loc, T, VH, C.Apart);
  else
    tripsAtOuterExits(C, Trips, *Done, Loc, T, VH);
  BranchInst::Create(Exit, Done);
  for (PHINode &Phi : Exit->phis()) {
    Value *V = Phi.getIncomingValueForBlock(H);
    Value *Cloned = CloneMap.lookup(V);
    Phi.addIncoming(Cloned ? Cloned : V, Done);
  }
}

} // namespace

bool pasta::isFullWarpTrips(const Value *V) {
  const auto *Call = dyn_cast<CallInst>(V);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  return Callee && Callee->getName() == FullTripsName;
}

unsigned pasta::versionFullWarpLoops(Function &Copy, const DivergencePlan &Plan,
                                     ValueToValueMapTy &VMap, ModuleTables &T,
                                     FunctionAnalysisManager &FAM) {
  if (!VersionedLoops || T.Target != PASTA_TARGET_NVPTX)
    return 0;
  // The shape first (cheap): the analysis below is the copy's second.
  LoopInfo &Shapes = FAM.getResult<LoopAnalysis>(Copy);
  SmallVector<Loop *, 4> All = Shapes.getLoopsInPreorder();
  if (std::none_of(All.begin(), All.end(), [](Loop *L) {
        return L->getNumBlocks() == 1 && L->getExitBlock();
      }))
    return 0;
  SmallVector<Candidate, 2> Chosen;
  {
    UniformLoops Loops(Copy, FAM);
    auto &LI = FAM.getResult<LoopAnalysis>(Copy);
    auto &DT = FAM.getResult<DominatorTreeAnalysis>(Copy);
    auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(Copy);
    for (Loop *L : LI.getLoopsInPreorder())
      if (std::optional<Candidate> C = versionable(*L, Plan, VMap, Loops, SE)) {
        if (C->Whole)
          C->OuterExits = outerExits(*C->L);
        Chosen.push_back(std::move(*C));
      }
    if (Chosen.empty())
      return 0;
    Module &M = *Copy.getParent();
    LLVMContext &Ctx = M.getContext();
    Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
    PointerType *Global = PointerType::get(Ctx, 1);
    VersionHelpers VH;
    VH.FullTrips = M.getOrInsertFunction(FullTripsName, I32, I64);
    VH.TripsAdd = M.getOrInsertFunction("__pasta_ver_trips_add",
                                        Type::getVoidTy(Ctx), Global, I64);
    VH.BankRow = M.getOrInsertFunction(BankRowName, Global, Global, I32, I32);
    VH.LanesApart = M.getOrInsertFunction("__pasta_ver_lanes_apart", I32, I64,
                                          I32); // shuffles: convergent
    cast<Function>(VH.LanesApart.getCallee())->addFnAttr(Attribute::Convergent);
    // Code only in the preheaders first (the analyses see the function as
    // it was), then the blocks.
    SmallVector<Value *, 2> WholeTrips;
    for (Candidate &C : Chosen)
      if (C.Whole) {
        formLCSSA(*C.L, DT, &LI, &SE);
        WholeTrips.push_back(wholeTrips(C, Loops, SE, VH));
      }
    // A test may use a value of an earlier versioned loop (the pointer a
    // later loop starts from, or one the expander reused): through that
    // loop's exit phis again, which its clone's path, added below, reaches
    // too. Used directly, the value would not dominate the test once that
    // path skips the loop's header.
    for (Candidate &C : Chosen)
      if (C.Whole)
        formLCSSA(*C.L, DT, &LI, &SE);
    for (Candidate &C : Chosen)
      if (!C.Whole)
        versionLoop(*C.L, *C.Planned, SE, T, VH);
    auto Trips = WholeTrips.begin();
    for (Candidate &C : Chosen)
      if (C.Whole)
        versionWholeLoop(C, *Trips++, T, VH);
  }
  FAM.invalidate(Copy, PreservedAnalyses::none());
  return Chosen.size();
}
