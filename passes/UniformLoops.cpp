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

#include "DivergenceVersioned.h"
#include "GridIndices.h"

#include "llvm/Analysis/CycleAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <algorithm>

using namespace llvm;
using namespace pasta;

// On by default since such a global access is a FullRow group whose rows
// of 16 may be apart (DivergenceMeasures.cpp, fullRowClamp): srad's clamped
// neighbours, measured by the general helper in every warp of its 16 x 16
// blocks before. (Off from 2026-11-29: lane-shaped behind an all-lanes test
// but still measured in those warps, srad_coeff ran slower, 5.17x and 5.20x
// against 4.82x and 4.90x on an H200.) The figures are the same either way.
// Off: a wrapped neighbour `(x + 1) % n` is measured by the general
// helper in every warp (Game of Life 5.1x plain on an H200).
static cl::opt<bool> WrapArms(
    "pasta-div-wraps", cl::init(true), cl::Hidden,
    cl::desc("Divergence copies: treat a lane-affine index taken modulo a "
             "warp-uniform value as lane-shaped where no lane wraps"));

static cl::opt<bool> ClampArms(
    "pasta-div-clamps", cl::init(true), cl::Hidden,
    cl::desc("Divergence copies: treat an index clamped against a "
             "warp-uniform bound as lane-shaped where every lane takes it"));

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

// The pointer a load, store or atomic accesses; null for anything else.
static const Value *accessedPointer(const Instruction &I) {
  if (const Value *Ptr = getLoadStorePointerOperand(&I))
    return Ptr;
  if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return RMW->getPointerOperand();
  if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    return CX->getPointerOperand();
  return nullptr;
}

UniformLoops::UniformLoops(Function &F, FunctionAnalysisManager &FAM) {
  if (simplifyLoops(F, FAM))
    FAM.invalidate(F, PreservedAnalyses::none());
  LI = &FAM.getResult<LoopAnalysis>(F);
  DT = &FAM.getResult<DominatorTreeAnalysis>(F);
  SE = &FAM.getResult<ScalarEvolutionAnalysis>(F);
  UI = &FAM.getResult<UniformityInfoAnalysis>(F);
  CI = &FAM.getResult<CycleAnalysis>(F);
  Expander = std::make_unique<SCEVExpander>(*SE, "pasta.div.start",
                                            /*PreserveLCSSA=*/false);
  // Conditions proven uniform beyond the analysis, found before anything
  // is added (the answers below hold for the function as it is now).
  for (BasicBlock &BB : F) {
    const Instruction *Term = BB.getTerminator();
    const auto *Br = dyn_cast_or_null<BranchInst>(Term);
    if (((Br && Br->isConditional()) || isa_and_nonnull<SwitchInst>(Term)) &&
        UI->hasDivergentTerminator(BB) &&
        provenUniform(Term->getOperand(0), BB))
      ProvenTerms.insert(Term);
  }
  for (Loop *L : LI->getLoopsInPreorder())
    proveByInduction(*L);
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (const Value *Ptr = accessedPointer(I))
        if (provenUniform(Ptr, BB))
          UniformAddresses.insert(&I);
  Proven.clear();
  for (Loop *L : LI->getLoopsInPreorder()) {
    BasicBlock *Preheader = L->getLoopPreheader();
    if (!Preheader || !L->hasDedicatedExits() ||
        std::any_of(L->block_begin(), L->block_end(),
                    [&](BasicBlock *B) { return divergentTerminator(*B); }))
      continue;
    if (std::any_of(L->block_begin(), L->block_end(), [&](BasicBlock *B) {
          return UI->hasDivergentTerminator(*B);
        }))
      ++LoopsBeyondAnalysis;
    UniformLoop &U = Uniform[L];
    U.L = L;
    U.PreheaderEnd = Preheader->getTerminator();
    L->getUniqueExitBlocks(U.Exits);
    U.Trips = tripsOf(*L);
  }
  for (Loop *L : LI->getLoopsInPreorder())
    if (lanesMeetInLoop(*L))
      LanesMeet.insert(L);
  for (Loop *L : LI->getLoopsInPreorder()) {
    if (Uniform.count(L) || !headerKeepsLanes(*L))
      continue;
    const SCEV *Trips = tripsOf(*L);
    if (!Trips)
      continue;
    UniformLoop &U = CountedHeaders[L];
    U.L = L;
    U.PreheaderEnd = L->getLoopPreheader()->getTerminator();
    L->getUniqueExitBlocks(U.Exits);
    U.Trips = Trips;
  }
  for (auto &[L, U] : CountedHeaders)
    findIntervalBranch(U);
  for (Loop *L : *LI)
    if (CI->getCycleDepth(L->getHeader()) == 1)
      if (unsigned Most = SE->getSmallConstantMaxTripCount(L))
        MostVisits[L->getHeader()] = Most;
  markDivergenceInLoops(F, FAM);
}

std::optional<uint64_t>
UniformLoops::mostVisits(const BasicBlock &Header) const {
  auto It = MostVisits.find(&Header);
  if (It == MostVisits.end())
    return std::nullopt;
  return It->second;
}

// The blocks of each loop from a divergent branch in it up to the branch's
// immediate post-dominator (or the loop's end).
void UniformLoops::markDivergenceInLoops(Function &F,
                                         FunctionAnalysisManager &FAM) {
  auto &PDT = FAM.getResult<PostDominatorTreeAnalysis>(F);
  for (BasicBlock &BB : F) {
    Loop *L = LI->getLoopFor(&BB);
    if (!L || !divergentTerminator(BB))
      continue;
    DomTreeNodeBase<BasicBlock> *Node = PDT.getNode(&BB);
    BasicBlock *Join =
        Node && Node->getIDom() ? Node->getIDom()->getBlock() : nullptr;
    SmallVector<BasicBlock *, 8> Work(successors(&BB));
    while (!Work.empty()) {
      BasicBlock *B = Work.pop_back_val();
      if (B == Join || !L->contains(B) || !DivergentInLoop.insert(B).second)
        continue;
      append_range(Work, successors(B));
    }
  }
}

bool UniformLoops::uniformCondition(const Instruction &Term) const {
  return !UI->isDivergentUse(Term.getOperandUse(0)) ||
         ProvenTerms.contains(&Term);
}

bool UniformLoops::uniformAddress(const Instruction &Access) const {
  return UniformAddresses.contains(&Access);
}

bool UniformLoops::uniformBeyondAnalysis(const Instruction &Term) const {
  return ProvenTerms.contains(&Term);
}

bool UniformLoops::divergentTerminator(const BasicBlock &BB) const {
  return UI->hasDivergentTerminator(BB) &&
         !ProvenTerms.contains(BB.getTerminator());
}

// The conditional branches and switches of a loop the analysis finds
// divergent, not proven uniform yet.
static SmallVector<const Instruction *, 4>
unprovenTerminators(const Loop &L, UniformityInfo &UI,
                    const SmallPtrSetImpl<const Instruction *> &Proven) {
  SmallVector<const Instruction *, 4> Terms;
  for (const BasicBlock *B : L.blocks())
    if (UI.hasDivergentTerminator(*B) && !Proven.contains(B->getTerminator()))
      Terms.push_back(B->getTerminator());
  return Terms;
}

// A loop whose exits the analysis takes as divergent only because of its
// inductions (`for (b = blockIdx.x; b < n; b += gridDim.x)`: a block index
// is a call to it, so the phi is divergent too): the header phis of L and
// its inner loops whose values entering and coming round are proven
// uniform when those phis are (the largest such set: drop the others until
// none goes), then L's branches with them. When all of those are uniform
// the lanes that enter L together go round together with equal inductions
// (by induction on the iterations), so the branches are.
void UniformLoops::proveByInduction(const Loop &L) {
  auto Terms = unprovenTerminators(L, *UI, ProvenTerms);
  if (Terms.empty())
    return;
  SmallPtrSet<const PHINode *, 8> Phis;
  for (const Loop *Sub : L.getLoopsInPreorder())
    for (const PHINode &P : Sub->getHeader()->phis())
      Phis.insert(&P);
  AssumedPhis = &Phis;
  for (bool Dropped = true; Dropped;) {
    Dropped = false;
    Proven.clear();
    for (const PHINode *P :
         SmallVector<const PHINode *, 8>(Phis.begin(), Phis.end()))
      for (unsigned K = 0; K < P->getNumIncomingValues(); ++K)
        if (!provenUniform(P->getIncomingValue(K), *P->getIncomingBlock(K))) {
          Phis.erase(P);
          Dropped = true;
          break;
        }
  }
  Proven.clear();
  bool All = all_of(Terms, [&](const Instruction *T) {
    return provenUniform(T->getOperand(0), *T->getParent());
  });
  AssumedPhis = nullptr;
  Proven.clear();
  if (!All)
    return;
  ProvenTerms.insert(Terms.begin(), Terms.end());
  InductionPhis.insert(Phis.begin(), Phis.end());
}

// Memory every lane sees alike at one address: global (1), shared (3) and
// constant (4) on both targets, not a thread's own (local, private: 5).
static bool sharedByLanes(unsigned AS) { return AS == 1 || AS == 3 || AS == 4; }

// Whether every object Ptr may point into is in memory all lanes share: a
// variable in such a space, or what a kernel's pointer parameter points to
// (global memory; not a by-value or by-reference parameter's copy).
static bool readsMemoryLanesShare(const Value *Ptr) {
  if (sharedByLanes(Ptr->getType()->getPointerAddressSpace()))
    return true;
  SmallVector<const Value *, 4> Objs;
  getUnderlyingObjects(Ptr, Objs);
  return !Objs.empty() && all_of(Objs, [](const Value *Obj) {
    if (const auto *GV = dyn_cast<GlobalVariable>(Obj))
      return sharedByLanes(GV->getAddressSpace());
    const auto *Arg = dyn_cast<Argument>(Obj);
    if (!Arg || Arg->hasByValAttr() || Arg->hasByRefAttr())
      return false;
    CallingConv::ID CC = Arg->getParent()->getCallingConv();
    return CC == CallingConv::PTX_Kernel || CC == CallingConv::AMDGPU_KERNEL;
  });
}

// Intrinsics whose result is the same in every lane that runs them: a
// block's index or size, the grid's size, a warp vote, a block-wide
// barrier's reduction.
static bool uniformIntrinsic(Intrinsic::ID ID) {
  GridIndex Index = gridRead(ID).Index;
  if (Index == GridIndex::Block || Index == GridIndex::BlockSize ||
      Index == GridIndex::GridSize)
    return true;
  switch (ID) {
  case Intrinsic::nvvm_read_ptx_sreg_warpsize:
  case Intrinsic::nvvm_vote_all:
  case Intrinsic::nvvm_vote_all_sync:
  case Intrinsic::nvvm_vote_any:
  case Intrinsic::nvvm_vote_any_sync:
  case Intrinsic::nvvm_vote_uni:
  case Intrinsic::nvvm_vote_uni_sync:
  case Intrinsic::nvvm_vote_ballot:
  case Intrinsic::nvvm_vote_ballot_sync:
  case Intrinsic::nvvm_barrier_cta_red_and_aligned_all:
  case Intrinsic::nvvm_barrier_cta_red_and_aligned_count:
  case Intrinsic::nvvm_barrier_cta_red_and_all:
  case Intrinsic::nvvm_barrier_cta_red_and_count:
  case Intrinsic::nvvm_barrier_cta_red_or_aligned_all:
  case Intrinsic::nvvm_barrier_cta_red_or_aligned_count:
  case Intrinsic::nvvm_barrier_cta_red_or_all:
  case Intrinsic::nvvm_barrier_cta_red_or_count:
  case Intrinsic::nvvm_barrier_cta_red_popc_aligned_all:
  case Intrinsic::nvvm_barrier_cta_red_popc_aligned_count:
  case Intrinsic::nvvm_barrier_cta_red_popc_all:
  case Intrinsic::nvvm_barrier_cta_red_popc_count:
    return true;
  default:
    return false;
  }
}

// Values looked through below a condition (bounds the time of huge
// expressions; each answer is kept).
static constexpr unsigned MaxUniformDepth = 12;

bool UniformLoops::provenUniform(const Value *V, const BasicBlock &At,
                                 unsigned Depth) const {
  const auto *I = dyn_cast<Instruction>(V);
  if (I) {
    const Loop *L = LI->getLoopFor(I->getParent());
    if (L && !L->contains(&At))
      return false;
  }
  if (UI->isUniform(V))
    return true;
  if (const auto *P = dyn_cast<PHINode>(V))
    return AssumedPhis ? AssumedPhis->contains(P) : InductionPhis.contains(P);
  if (!I || Depth > MaxUniformDepth)
    return false;
  auto [It, New] = Proven.try_emplace({V, &At}, false);
  if (!New)
    return It->second;
  const BasicBlock &Here = *I->getParent();
  bool Uniform = false;
  if (const auto *II = dyn_cast<IntrinsicInst>(I))
    Uniform = uniformIntrinsic(II->getIntrinsicID());
  else if (isFullWarpTrips(I)) // a versioned loop's trips, one per warp
    Uniform = true;
  else if (const auto *Load = dyn_cast<LoadInst>(I))
    Uniform = Load->isSimple() &&
              readsMemoryLanesShare(Load->getPointerOperand()) &&
              provenUniform(Load->getPointerOperand(), Here, Depth + 1);
  else if (isa<BinaryOperator, UnaryOperator, CastInst, CmpInst, SelectInst,
               GetElementPtrInst, FreezeInst, ExtractValueInst>(I))
    Uniform = all_of(I->operands(), [&](const Value *Op) {
      return provenUniform(Op, Here, Depth + 1);
    });
  Proven[{V, &At}] = Uniform; // the map may have grown: look it up again
  return Uniform;
}

bool UniformLoops::underDivergenceInLoop(const BasicBlock &BB) const {
  return DivergentInLoop.contains(&BB);
}

// Iterations per entry: the backedge-taken count plus one, when the latch
// is the only block that leaves the loop (so every block dominating it runs
// that many times) and the count can be computed at the preheader.
const SCEV *UniformLoops::tripsOf(Loop &L) {
  BasicBlock *Latch = L.getLoopLatch();
  if (!Latch || L.getExitingBlock() != Latch)
    return nullptr;
  Type *I64 = Type::getInt64Ty(L.getHeader()->getContext());
  const SCEV *Taken = SE->getBackedgeTakenCount(&L);
  const SCEV *Trips = isa<SCEVCouldNotCompute>(Taken)
                          ? countedTrips(L)
                          : SE->getAddExpr(SE->getNoopOrZeroExtend(Taken, I64),
                                           SE->getOne(I64));
  if (!Trips ||
      !Expander->isSafeToExpandAt(Trips, L.getLoopPreheader()->getTerminator()))
    return nullptr;
  return Trips;
}

// The iterations of a loop whose latch goes on while `next < bound` (signed
// or unsigned), next = {s,+,c}, c a positive constant, computed by an add
// that cannot wrap that way (nsw, nuw: a wrap would be poison reaching the
// branch): 1 + ceil(max(bound - s, 0) / c), in 64 bits from 32-bit values.
// Scalar evolution leaves e.g. `for (t = 0; t < n; t += 16)` uncounted when
// the add's flags do not reach its recurrence.
const SCEV *UniformLoops::countedTrips(Loop &L) {
  auto *Br = dyn_cast<BranchInst>(L.getLoopLatch()->getTerminator());
  auto *Cmp = Br && Br->isConditional() ? dyn_cast<ICmpInst>(Br->getCondition())
                                        : nullptr;
  if (!Cmp)
    return nullptr;
  CmpInst::Predicate Pred = Cmp->getPredicate();
  Value *Next = Cmp->getOperand(0), *Bound = Cmp->getOperand(1);
  if (Br->getSuccessor(0) != L.getHeader())
    Pred = CmpInst::getInversePredicate(Pred);
  if (L.isLoopInvariant(Next)) {
    std::swap(Next, Bound);
    Pred = CmpInst::getSwappedPredicate(Pred);
  }
  auto *Add = dyn_cast<BinaryOperator>(Next);
  bool Signed = Pred == CmpInst::ICMP_SLT;
  if (!Add || Add->getOpcode() != Instruction::Add ||
      !(Signed ? Add->hasNoSignedWrap()
               : Pred == CmpInst::ICMP_ULT && Add->hasNoUnsignedWrap()) ||
      !L.isLoopInvariant(Bound) || !Bound->getType()->isIntegerTy() ||
      Bound->getType()->getIntegerBitWidth() > 32)
    return nullptr;
  auto *AR = dyn_cast<SCEVAddRecExpr>(SE->getSCEV(Next));
  auto *C = AR && AR->getLoop() == &L && AR->isAffine()
                ? dyn_cast<SCEVConstant>(AR->getStepRecurrence(*SE))
                : nullptr;
  if (!C || !C->getAPInt().isStrictlyPositive())
    return nullptr;
  Type *I64 = Type::getInt64Ty(L.getHeader()->getContext());
  auto Wide = [&](const SCEV *S) {
    return Signed ? SE->getSignExtendExpr(S, I64)
                  : SE->getZeroExtendExpr(S, I64);
  };
  const SCEV *Left = SE->getSMaxExpr(
      SE->getMinusSCEV(Wide(SE->getSCEV(Bound)), Wide(AR->getStart())),
      SE->getZero(I64));
  const SCEV *Step = SE->getConstant(I64, C->getAPInt().getZExtValue());
  const SCEV *More = SE->getUDivExpr(
      SE->getAddExpr(Left, SE->getMinusSCEV(Step, SE->getOne(I64))), Step);
  return SE->getAddExpr(More, SE->getOne(I64));
}

// Not in a cycle inside U that loop analysis does not see (an irreducible
// one, which could run several times per iteration).
bool UniformLoops::runsEveryIteration(const UniformLoop &U,
                                      const BasicBlock &BB) {
  const auto *C = CI->getCycle(&BB);
  return U.Trips && C && C->isReducible() &&
         C->getHeader() == U.L->getHeader() &&
         DT->dominates(&BB, U.L->getLoopLatch());
}

Value *UniformLoops::tripsBefore(const UniformLoop &U, const UniformLoop *At) {
  if (At && At != &U)
    return Expander->expandCodeFor(U.Trips, U.Trips->getType(),
                                   At->PreheaderEnd);
  Value *&V = Trips[&U];
  if (!V)
    V = Expander->expandCodeFor(U.Trips, U.Trips->getType(), U.PreheaderEnd);
  return V;
}

UniformLoops::~UniformLoops() = default;

bool UniformLoops::inLoop(const BasicBlock &BB) const {
  return LI->getLoopFor(&BB) != nullptr;
}

bool UniformLoops::isBlockBarrier(const Instruction &I) {
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  return II && (II->getIntrinsicID() ==
                    Intrinsic::nvvm_barrier_cta_sync_aligned_all ||
                II->getIntrinsicID() == Intrinsic::amdgcn_s_barrier);
}

bool UniformLoops::inBarrierLoop(const BasicBlock &BB) const {
  const Loop *L = LI->getLoopFor(&BB);
  return L && any_of(L->blocks(), [](const BasicBlock *B) {
           return any_of(*B, isBlockBarrier);
         });
}

// The value S has at L's first iteration (First) or last (at BTC), where
// S is invariant in L or an affine recurrence of L that does not wrap as
// Signed says; null otherwise.
static const SCEV *atIteration(ScalarEvolution &SE, const SCEV *S,
                               const Loop &L, const SCEV *BTC, bool First,
                               bool Signed) {
  if (SE.isLoopInvariant(S, &L))
    return S;
  auto *AR = dyn_cast<SCEVAddRecExpr>(S);
  if (!AR || AR->getLoop() != &L || !AR->isAffine() ||
      !SE.isLoopInvariant(AR->getStepRecurrence(SE), &L) ||
      !AR->getNoWrapFlags(Signed ? SCEV::FlagNSW : SCEV::FlagNUW))
    return nullptr;
  return First ? AR->getStart() : AR->evaluateAtIteration(BTC, SE);
}

Value *UniformLoops::everyIterationBefore(Value *Cond, const Loop &L) {
  using namespace PatternMatch;
  if (!headerKeepsLanes(L))
    return nullptr;
  const SCEV *BTC = SE->getBackedgeTakenCount(&L);
  if (isa<SCEVCouldNotCompute>(BTC))
    return nullptr;
  Instruction *At = L.getLoopPreheader()->getTerminator();
  SmallVector<Value *, 4> Work{Cond}, Holds;
  while (!Work.empty()) {
    Value *V = Work.pop_back_val(), *A, *B;
    if (match(V, m_LogicalAnd(m_Value(A), m_Value(B)))) {
      Work.append({A, B});
      continue;
    }
    if (L.isLoopInvariant(V)) {
      Holds.push_back(V);
      continue;
    }
    auto *Cmp = dyn_cast<ICmpInst>(V);
    if (!Cmp || Cmp->isEquality() ||
        !Cmp->getOperand(0)->getType()->isIntegerTy())
      return nullptr;
    for (bool First : {true, false}) {
      Value *Ends[2];
      for (unsigned K = 0; K < 2; ++K) {
        const SCEV *S = atIteration(*SE, SE->getSCEV(Cmp->getOperand(K)), L,
                                    BTC, First, Cmp->isSigned());
        if (!S || !Expander->isSafeToExpandAt(S, At))
          return nullptr;
        Ends[K] = Expander->expandCodeFor(S, Cmp->getOperand(K)->getType(), At);
      }
      Holds.push_back(new ICmpInst(At->getIterator(), Cmp->getPredicate(),
                                   Ends[0], Ends[1], "pasta.div.ends"));
    }
  }
  IRBuilder<> B(At);
  Value *All = Holds.front();
  for (Value *H : drop_begin(Holds))
    All = B.CreateAnd(All, H);
  return All;
}

const Loop *UniformLoops::loopOf(const BasicBlock &BB) const {
  return LI->getLoopFor(&BB);
}

bool UniformLoops::headerKeepsLanes(const Loop &L) const {
  BasicBlock *Latch = L.getLoopLatch();
  return L.getLoopPreheader() && L.hasDedicatedExits() && Latch &&
         L.getExitingBlock() == Latch && !divergentTerminator(*Latch) &&
         LanesMeet.contains(&L);
}

const Loop *UniformLoops::latchOf(const BasicBlock &BB) const {
  const Loop *L = LI->getLoopFor(&BB);
  if (!L || L->getLoopLatch() != &BB || !L->getLoopPreheader() ||
      pred_size(L->getHeader()) != 2 || !LanesMeet.contains(L))
    return nullptr;
  return L;
}

bool UniformLoops::lanesMeetInLoop(const Loop &L) const {
  for (const Loop *Inner : L.getLoopsInPreorder()) {
    if (Inner == &L)
      continue;
    SmallVector<BasicBlock *, 4> Exiting;
    Inner->getExitingBlocks(Exiting);
    if (any_of(Exiting,
               [&](const BasicBlock *B) { return divergentTerminator(*B); }))
      return false;
  }
  for (const BasicBlock *B : L.blocks())
    for (const Instruction &I : *B)
      if (const auto *Call = dyn_cast<CallBase>(&I))
        if (!isa<IntrinsicInst>(Call))
          return false;
  return true;
}

const UniformLoops::UniformLoop *
UniformLoops::countedHeader(const BasicBlock &BB) const {
  const Loop *L = LI->getLoopFor(&BB);
  if (!L || L->getHeader() != &BB)
    return nullptr;
  auto It = CountedHeaders.find(L);
  return It == CountedHeaders.end() ? nullptr : &It->second;
}

void UniformLoops::findIntervalBranch(const UniformLoop &U) {
  using namespace PatternMatch;
  auto *Br = dyn_cast<BranchInst>(U.L->getHeader()->getTerminator());
  const auto *Trips = dyn_cast<SCEVConstant>(U.Trips);
  Value *X, *Bound;
  CmpPredicate Pred;
  if (!Br || !Br->isConditional() || !Trips || Trips->getAPInt().ugt(32) ||
      Trips->getAPInt().isZero() ||
      !match(Br->getCondition(), m_ICmp(Pred, m_Value(X), m_Value(Bound))))
    return;
  if (Pred == CmpInst::ICMP_UGT)
    std::swap(X, Bound);
  else if (Pred != CmpInst::ICMP_ULT)
    return;
  if (!X->getType()->isIntegerTy(32))
    return;
  const auto *AR = dyn_cast<SCEVAddRecExpr>(SE->getSCEV(X));
  const SCEV *B = SE->getSCEV(Bound);
  if (!AR || AR->getLoop() != U.L || !AR->isAffine() ||
      !AR->getStepRecurrence(*SE)->isOne() || !SE->isLoopInvariant(B, U.L) ||
      !Expander->isSafeToExpandAt(AR->getStart(), U.PreheaderEnd) ||
      !Expander->isSafeToExpandAt(B, U.PreheaderEnd))
    return;
  IntervalBranches[Br] = {&U, AR->getStart(), B,
                          uint32_t(Trips->getAPInt().getZExtValue())};
}

const UniformLoops::IntervalBranch *
UniformLoops::intervalBranch(const BranchInst &Br) const {
  auto It = IntervalBranches.find(&Br);
  return It == IntervalBranches.end() ? nullptr : &It->second;
}

Value *UniformLoops::expandBefore(const UniformLoop &U, const SCEV *S) {
  return Expander->expandCodeFor(S, S->getType(), U.PreheaderEnd);
}

bool UniformLoops::sameLoop(const BasicBlock &A, const BasicBlock &B) const {
  return LI->getLoopFor(&A) == LI->getLoopFor(&B);
}

const UniformLoops::UniformLoop *
UniformLoops::uniformLoop(const BasicBlock &BB) const {
  auto It = Uniform.find(LI->getLoopFor(&BB));
  return It == Uniform.end() ? nullptr : &It->second;
}

// Whether every active lane at At holds the value a loop L computed in the
// same iteration: At is inside L, or L and the loops around it up to At's
// are uniform (their lanes leave them together). After a loop with a
// divergent exit each lane holds its own last iteration's value, whatever
// the value was where it was computed.
bool UniformLoops::sameIterationAt(const Loop *L, const BasicBlock &At) const {
  for (; L && !L->contains(&At); L = L->getParentLoop())
    if (!Uniform.count(L))
      return false;
  return true;
}

bool UniformLoops::sameIterationAt(const Value *V, const BasicBlock &At) const {
  auto *I = dyn_cast<Instruction>(V);
  return !I || sameIterationAt(LI->getLoopFor(I->getParent()), At);
}

bool UniformLoops::isUniformStep(const SCEV *Step, const BasicBlock &At) {
  return !SCEVExprContains(Step, [&](const SCEV *S) {
    if (auto *AR = dyn_cast<SCEVAddRecExpr>(S))
      return !sameIterationAt(AR->getLoop(), At);
    auto *U = dyn_cast<SCEVUnknown>(S);
    return U && (UI->isDivergent(U->getValue()) ||
                 !sameIterationAt(U->getValue(), At));
  });
}

namespace {
// Rewrites each sign or zero extension of an affine recurrence of L (an
// int index, up to 32 bits) as a recurrence of the wide type, {ext s,+,
// sext d}, recording it: the two are equal while the narrow one does not
// wrap.
class ExtendRewriter : public SCEVRewriteVisitor<ExtendRewriter> {
public:
  ExtendRewriter(ScalarEvolution &SE, const Loop &L,
                 SmallVectorImpl<UniformLoops::NoWrap> &NoWraps)
      : SCEVRewriteVisitor(SE), L(L), NoWraps(NoWraps) {}

  const SCEV *visitSignExtendExpr(const SCEVSignExtendExpr *E) {
    if (const SCEV *R = widen(E, true))
      return R;
    return SCEVRewriteVisitor::visitSignExtendExpr(E);
  }
  const SCEV *visitZeroExtendExpr(const SCEVZeroExtendExpr *E) {
    if (const SCEV *R = widen(E, false))
      return R;
    return SCEVRewriteVisitor::visitZeroExtendExpr(E);
  }

private:
  const SCEV *widen(const SCEVIntegralCastExpr *E, bool Signed) {
    auto *AR = dyn_cast<SCEVAddRecExpr>(E->getOperand());
    if (!AR || AR->getLoop() != &L || !AR->isAffine() ||
        SE.getTypeSizeInBits(AR->getType()) > 32)
      return nullptr;
    Type *Wide = E->getType();
    const SCEV *Start = Signed ? SE.getSignExtendExpr(AR->getStart(), Wide)
                               : SE.getZeroExtendExpr(AR->getStart(), Wide);
    const SCEV *Step = SE.getSignExtendExpr(AR->getStepRecurrence(SE), Wide);
    NoWraps.push_back({AR, Signed});
    return SE.getAddRecExpr(Start, Step, &L, SCEV::FlagAnyWrap);
  }

  const Loop &L;
  SmallVectorImpl<UniformLoops::NoWrap> &NoWraps;
};
} // namespace

std::optional<UniformLoops::Repeat>
UniformLoops::repeatIn(const UniformLoop &U, Value *Ptr, uint64_t Granule) {
  const Loop &L = *U.L;
  const SCEV *Addr = SE->getSCEV(Ptr);
  SmallVector<NoWrap, 2> NoWraps;
  if (U.Trips && !isa<SCEVAddRecExpr>(Addr) && !SE->isLoopInvariant(Addr, &L))
    Addr = ExtendRewriter(*SE, L, NoWraps).visit(Addr);
  for (const NoWrap &W : NoWraps)
    if (!Expander->isSafeToExpandAt(W.Narrow->getStart(), U.PreheaderEnd) ||
        !Expander->isSafeToExpandAt(W.Narrow->getStepRecurrence(*SE),
                                    U.PreheaderEnd))
      return std::nullopt;
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
    return Repeat{Start, nullptr, NoWraps};
  if (!isUniformStep(Step, *L.getHeader()))
    return std::nullopt;
  bool Known =
      Granule <= 1 || SE->getMinTrailingZeros(Step) >= Log2_64(Granule);
  return Repeat{Start, Known ? nullptr : Step, NoWraps};
}

// The non-negative value a GEP's one index extends (`zext nneg`), or null.
static Value *nonNegativeIndex(const GEPOperator &G) {
  if (G.getNumIndices() != 1)
    return nullptr;
  auto *Z = dyn_cast<ZExtInst>(G.getOperand(1));
  return Z && Z->hasNonNeg() ? Z->getOperand(0) : nullptr;
}

// B's constant distance in bytes past A where both index one element type
// by a `zext nneg` index (nw's s[m - tx] and s[m - tx + 1]): scalar
// evolution keeps no sign for the extensions' operands, so zext(x + 1) -
// zext(x) is not a constant to it when x may be negative. With nneg both
// lie in [0, 2^(w-1)) (else the address is poison), so the extensions
// differ by the operands' difference read as a signed w-bit value.
std::optional<APInt> UniformLoops::indexDifference(Value *A, Value *B) {
  auto *GA = dyn_cast<GEPOperator>(A), *GB = dyn_cast<GEPOperator>(B);
  if (!GA || !GB || GA->getSourceElementType() != GB->getSourceElementType())
    return std::nullopt;
  Value *XA = nonNegativeIndex(*GA), *XB = nonNegativeIndex(*GB);
  if (!XA || !XB || XA->getType() != XB->getType() ||
      !SE->isSCEVable(XA->getType()))
    return std::nullopt;
  Value *PA = GA->getPointerOperand(), *PB = GB->getPointerOperand();
  auto *I = dyn_cast<Instruction>(A);
  if (!I || PA->getType() != PB->getType())
    return std::nullopt;
  std::optional<APInt> Bases =
      SE->computeConstantDifference(SE->getSCEV(PB), SE->getSCEV(PA));
  std::optional<APInt> Indices =
      SE->computeConstantDifference(SE->getSCEV(XB), SE->getSCEV(XA));
  if (!Bases || !Indices)
    return std::nullopt;
  const DataLayout &DL = I->getModule()->getDataLayout();
  TypeSize Size = DL.getTypeAllocSize(GA->getSourceElementType());
  if (Size.isScalable())
    return std::nullopt;
  unsigned Bits = Bases->getBitWidth();
  return *Bases + Indices->sext(Bits) * APInt(Bits, Size.getFixedValue());
}

bool UniformLoops::constantApart(Value *A, Value *B, uint64_t Granule) {
  std::optional<APInt> D =
      SE->computeConstantDifference(SE->getSCEV(B), SE->getSCEV(A));
  if (!D)
    D = indexDifference(A, B);
  return D && D->countr_zero() >= Log2_64(Granule);
}

// Whether S is invariant in W's loop and can be computed at its preheader.
bool UniformLoops::invariantBefore(const SCEV *S, const UniformLoop &W) {
  return SE->isLoopInvariant(S, W.L) &&
         Expander->isSafeToExpandAt(S, W.PreheaderEnd);
}

const UniformLoops::UniformLoop &
UniformLoops::outermostInvariant(const UniformLoop &L, const Repeat &R) {
  const UniformLoop *Best = &L;
  for (const Loop *P = L.L->getParentLoop(); P; P = P->getParentLoop()) {
    auto It = Uniform.find(P);
    if (It == Uniform.end())
      break;
    const UniformLoop &W = It->second;
    bool Invariant =
        invariantBefore(R.Start, W) &&
        (!R.StepToTest || invariantBefore(R.StepToTest, W)) &&
        (R.NoWraps.empty() || (L.Trips && invariantBefore(L.Trips, W)));
    for (const NoWrap &N : R.NoWraps)
      Invariant = Invariant && invariantBefore(N.Narrow->getStart(), W) &&
                  invariantBefore(N.Narrow->getStepRecurrence(*SE), W);
    if (!Invariant)
      break;
    Best = &W;
  }
  return *Best;
}

Value *UniformLoops::startBefore(const UniformLoop &U, Value *Ptr,
                                 const Repeat &R, const UniformLoop *At) {
  const UniformLoop &W = At ? *At : U;
  auto *I = dyn_cast<Instruction>(Ptr);
  if (SE->getSCEV(Ptr) == R.Start && (!I || !W.L->contains(I)))
    return Ptr; // computed before the loop already
  return Expander->expandCodeFor(R.Start, Ptr->getType(), W.PreheaderEnd);
}

Value *UniformLoops::stepIsMultiple(const UniformLoop &U, const Repeat &R,
                                    uint64_t Granule, const UniformLoop *At) {
  Instruction *Where = (At ? *At : U).PreheaderEnd;
  Value *Step =
      Expander->expandCodeFor(R.StepToTest, R.StepToTest->getType(), Where);
  IRBuilder<> B(Where);
  return B.CreateICmpEQ(
      B.CreateAnd(Step, ConstantInt::get(Step->getType(), Granule - 1)),
      ConstantInt::get(Step->getType(), 0), "pasta.div.step.ok");
}

namespace {
// Every SCEVUnknown (a value the step is computed from) taken as 0.
struct UnknownsAsZero : SCEVRewriteVisitor<UnknownsAsZero> {
  using SCEVRewriteVisitor::SCEVRewriteVisitor;
  const SCEV *visitUnknown(const SCEVUnknown *Expr) {
    return SE.getZero(Expr->getType());
  }
};
} // namespace

bool UniformLoops::stepOffWithAlignedValues(const Repeat &R, uint64_t Granule) {
  if (!R.StepToTest || Granule <= 1)
    return false;
  const SCEV *Fixed = UnknownsAsZero(*SE).visit(R.StepToTest);
  auto *C = dyn_cast<SCEVConstant>(Fixed);
  return C && (C->getAPInt().getZExtValue() & (Granule - 1)) != 0;
}

Value *UniformLoops::stepBefore(const UniformLoop &U, const Repeat &R,
                                const UniformLoop *At) {
  return Expander->expandCodeFor(R.StepToTest, R.StepToTest->getType(),
                                 (At ? *At : U).PreheaderEnd);
}

// Each narrow recurrence {s,+,d} of N bits stays in range over U's
// iterations when its last value, ext(s) + (trips - 1) * sext(d) computed in
// 64 bits, does (it moves monotonically); trips up to 2^32 keep that product
// from overflowing.
Value *UniformLoops::laneDoesNotWrap(const UniformLoop &U, const Repeat &R,
                                     const UniformLoop *At) {
  Instruction *Where = (At ? *At : U).PreheaderEnd;
  IRBuilder<> B(Where);
  Type *I64 = B.getInt64Ty();
  Value *Trips =
      At && At != &U
          ? Expander->expandCodeFor(U.Trips, U.Trips->getType(), Where)
          : tripsBefore(U);
  Value *Last = B.CreateSub(Trips, B.getInt64(1));
  Value *Ok = B.CreateICmpULT(Last, B.getInt64(1ull << 32));
  for (const NoWrap &W : R.NoWraps) {
    unsigned Bits = SE->getTypeSizeInBits(W.Narrow->getType());
    const SCEV *S = W.Signed ? SE->getSignExtendExpr(W.Narrow->getStart(), I64)
                             : SE->getZeroExtendExpr(W.Narrow->getStart(), I64);
    const SCEV *D =
        SE->getSignExtendExpr(W.Narrow->getStepRecurrence(*SE), I64);
    Value *Step = Expander->expandCodeFor(D, I64, Where);
    Value *End = B.CreateAdd(Expander->expandCodeFor(S, I64, Where),
                             B.CreateMul(Last, Step));
    int64_t Lo = W.Signed ? -(int64_t(1) << (Bits - 1)) : 0;
    int64_t Hi = W.Signed ? (int64_t(1) << (Bits - 1)) - 1
                          : int64_t((uint64_t(1) << Bits) - 1);
    Ok = B.CreateAnd(Ok, B.CreateICmpSGE(End, B.getInt64(Lo)));
    Ok = B.CreateAnd(Ok, B.CreateICmpSLE(End, B.getInt64(Hi)),
                     "pasta.div.nowrap");
  }
  return Ok;
}

static bool isThreadX(const Value *V) {
  auto *II = dyn_cast<IntrinsicInst>(V);
  return II && readsThreadX(II->getIntrinsicID());
}

// Indices every lane of a warp shares when its lanes follow x: every index
// of the grid but threadIdx.x.
static bool isWarpIndex(const Value *V) {
  auto *II = dyn_cast<IntrinsicInst>(V);
  return II && gridRead(II->getIntrinsicID()).Index != GridIndex::None &&
         !readsThreadX(II->getIntrinsicID());
}

// Uniform at At by the uniformity analysis, a warp index, or arithmetic on
// such.
bool UniformLoops::isWarpUniform(const Value *V, const BasicBlock &At,
                                 unsigned Depth) {
  if (!sameIterationAt(V, At))
    return false;
  if (UI->isUniform(V) || isWarpIndex(V) || isFullWarpTrips(V))
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 6 ||
      !(isa<BinaryOperator, CastInst, CmpInst, SelectInst>(I) ||
        isa<GetElementPtrInst>(I)))
    return false;
  return all_of(I->operands(), [&](const Value *Op) {
    return isWarpUniform(Op, At, Depth + 1);
  });
}

// Thread index x itself, through extensions (not an offset or multiple).
static bool isThreadXItself(const SCEV *S) {
  while (auto *E = dyn_cast<SCEVIntegralCastExpr>(S)) {
    if (isa<SCEVTruncateExpr>(E))
      return false;
    S = E->getOperand();
  }
  auto *U = dyn_cast<SCEVUnknown>(S);
  return U && isThreadX(U->getValue());
}

// x / 32 (a warp's index), x itself divided by a multiple of 32: the same
// in each row of lanes where the helpers take their fast paths (rows of 32
// holding x = 32k + lane, or rows narrower than 32); elsewhere they measure
// every lane anyway.
static bool isWarpIndex(const SCEVUDivExpr *D) {
  auto *K = dyn_cast<SCEVConstant>(D->getRHS());
  return K && !K->getValue()->isZero() && K->getAPInt().urem(32) == 0 &&
         isThreadXItself(D->getLHS());
}

// What xCoefficient and yCoefficient share: the coefficient of S from its
// operands' (Ops) for every kind but a leaf (SCEVUnknown, the caller's):
// sums add, a product keeps one moving factor times constants, a recurrence
// the start's where every active lane is in the same iteration (within the
// loop, or after a uniform one: the step must not move), extensions pass
// it on; none where the expression stops being linear in the index.
std::optional<int64_t> UniformLoops::operandsCoefficient(
    const SCEV *S, ArrayRef<std::optional<int64_t>> Ops, const BasicBlock &At) {
  bool AllKnown = all_of(Ops, [](auto &O) { return O.has_value(); });
  bool Moves = any_of(Ops, [](auto &O) { return O && *O != 0; });
  switch (S->getSCEVType()) {
  case scAddExpr: {
    if (!AllKnown)
      return std::nullopt;
    int64_t Sum = 0;
    for (auto &O : Ops)
      Sum += *O;
    return Sum;
  }
  case scMulExpr: {
    if (!AllKnown)
      return std::nullopt;
    if (!Moves)
      return 0;
    int64_t Product = 1;
    unsigned Moving = 0;
    for (auto [Op, O] : zip(cast<SCEVMulExpr>(S)->operands(), Ops)) {
      if (*O != 0) {
        ++Moving;
        Product *= *O;
      } else if (auto *K = dyn_cast<SCEVConstant>(Op)) {
        if (K->getAPInt().getSignificantBits() > 32)
          return std::nullopt;
        Product *= K->getAPInt().getSExtValue();
      } else {
        return std::nullopt;
      }
    }
    if (Moving == 1)
      return Product;
    return std::nullopt;
  }
  case scAddRecExpr:
    if (AllKnown && cast<SCEVAddRecExpr>(S)->isAffine() && *Ops[1] == 0 &&
        sameIterationAt(cast<SCEVAddRecExpr>(S)->getLoop(), At))
      return *Ops[0];
    return std::nullopt;
  case scTruncate: {
    // x & 15 is zext(trunc x to i4): not x. Only truncations to int or
    // wider keep the move (an index taken not to overflow, as above).
    unsigned Bits = SE->getTypeSizeInBits(S->getType());
    if (Ops[0] && (*Ops[0] == 0 || Bits >= 32))
      return Ops[0];
    return std::nullopt;
  }
  case scZeroExtend:
  case scSignExtend:
  case scPtrToInt:
    return Ops[0];
  default: // constants among them: no operands, no move
    if (AllKnown && !Moves)
      return 0;
    return std::nullopt;
  }
}

// The coefficient of S in x or (OfY) y, memoized per (S, At); its
// operands' first.
std::optional<int64_t> UniformLoops::coefficient(bool OfY, const SCEV *S,
                                                 const BasicBlock &At) {
  auto &Memo = OfY ? YCoefficients : Coefficients;
  auto It = Memo.find({S, &At});
  if (It != Memo.end())
    return It->second;
  SmallVector<std::optional<int64_t>, 4> Ops;
  for (const SCEV *Op : S->operands())
    Ops.push_back(coefficient(OfY, Op, At));
  std::optional<int64_t> C = OfY ? yTerm(S, Ops, At) : xTerm(S, Ops, At);
  return Memo[{S, &At}] = C;
}

std::optional<int64_t> UniformLoops::xCoefficient(const SCEV *S,
                                                  const BasicBlock &At) {
  return coefficient(false, S, At);
}

std::optional<int64_t> UniformLoops::yCoefficient(const SCEV *S,
                                                  const BasicBlock &At) {
  return coefficient(true, S, At);
}

// The coefficient of x in S from its operands' (Ops).
std::optional<int64_t> UniformLoops::xTerm(const SCEV *S,
                                           ArrayRef<std::optional<int64_t>> Ops,
                                           const BasicBlock &At) {
  if (auto *U = dyn_cast<SCEVUnknown>(S))
    return leafCoefficient(false, U->getValue(), At);
  if (auto *D = dyn_cast<SCEVUDivExpr>(S); D && isWarpIndex(D))
    return 0;
  std::optional<int64_t> C = operandsCoefficient(S, Ops, At);
  // x & 31 (x % 32, a lane's index): to 5 bits or more, x itself keeps
  // it in each row of lanes (32k + lane, k uniform).
  auto *T = dyn_cast<SCEVTruncateExpr>(S);
  if (!C && T && SE->getTypeSizeInBits(S->getType()) >= 5 &&
      isThreadXItself(T->getOperand()))
    C = 1;
  return C;
}

static bool isThreadY(const Value *V) {
  auto *II = dyn_cast<IntrinsicInst>(V);
  if (!II)
    return false;
  GridRead R = gridRead(II->getIntrinsicID());
  return R.Index == GridIndex::Thread && R.Dim == 1;
}

// Whether S is thread index y, extended but not truncated.
static bool isThreadYItself(const SCEV *S) {
  while (auto *E = dyn_cast<SCEVIntegralCastExpr>(S)) {
    if (isa<SCEVTruncateExpr>(E))
      return false;
    S = E->getOperand();
  }
  auto *U = dyn_cast<SCEVUnknown>(S);
  return U && isThreadY(U->getValue());
}

// Whether V is computed without thread index y (within a few steps;
// beyond, taken as not).
static bool freeOfThreadY(const Value *V, unsigned Depth = 0) {
  if (isThreadY(V))
    return false;
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return true;
  if (Depth > 8 || isa<PHINode>(I))
    return false;
  return all_of(I->operands(),
                [&](const Value *Op) { return freeOfThreadY(Op, Depth + 1); });
}

// The coefficient of x or (OfY) y in a value SCEV does not see into: 1
// for the index itself, 0 for a value uniform in the warp (for y: one
// computed without y; x, constant in a column of lanes, counts as 0).
std::optional<int64_t> UniformLoops::leafCoefficient(bool OfY, const Value *V,
                                                     const BasicBlock &At) {
  if (OfY ? isThreadY(V) : isThreadX(V))
    return 1;
  bool Free = OfY ? isThreadX(V) || (isWarpUniform(V, At) && freeOfThreadY(V))
                  : isWarpUniform(V, At);
  if (Free)
    return 0;
  return std::nullopt;
}

// The coefficient of thread index y in S, where S is a sum of terms
// constant times y, terms in x alone (coefficient 0 here: xCoefficient's)
// and warp-uniform terms without y; none otherwise.
std::optional<int64_t> UniformLoops::yTerm(const SCEV *S,
                                           ArrayRef<std::optional<int64_t>> Ops,
                                           const BasicBlock &At) {
  if (auto *U = dyn_cast<SCEVUnknown>(S))
    return leafCoefficient(true, U->getValue(), At);
  std::optional<int64_t> C = operandsCoefficient(S, Ops, At);
  // y truncated to 10 bits or more (hotspot's halo index, an i16 sum
  // 16 * y + x) is y itself: a block is at most 1,024 threads high.
  auto *T = dyn_cast<SCEVTruncateExpr>(S);
  if (!C && T && SE->getTypeSizeInBits(S->getType()) >= 10 &&
      isThreadYItself(T->getOperand()))
    C = 1;
  return C;
}

std::optional<int64_t> UniformLoops::rowStride(Value *Ptr,
                                               const BasicBlock &At) {
  return yCoefficient(SE->getSCEV(Ptr), At);
}

// Whether S is computed from constants and arguments the same in every lane
// (a kernel's) alone: a factor rowStep may keep.
bool UniformLoops::ofUniformArguments(const SCEV *S, const BasicBlock &At) {
  return !SCEVExprContains(S, [&](const SCEV *X) {
    if (isa<SCEVAddRecExpr>(X))
      return true;
    auto *U = dyn_cast<SCEVUnknown>(X);
    return U &&
           !(isa<Argument>(U->getValue()) && isWarpUniform(U->getValue(), At));
  });
}

// The coefficient of thread index y in S as an expression of S's integer
// type: yCoefficient's where a constant, else built the same way but for a
// product, which may keep factors of ofUniformArguments. Extensions are
// taken not to wrap, as yCoefficient takes them (a coefficient is signed).
const SCEV *UniformLoops::yStep(const SCEV *S, const BasicBlock &At) {
  Type *Ty = SE->getEffectiveSCEVType(S->getType());
  if (std::optional<int64_t> C = yCoefficient(S, At))
    return SE->getConstant(Ty, uint64_t(*C), /*isSigned=*/true);
  SmallVector<const SCEV *, 4> Steps;
  for (const SCEV *Op : S->operands()) {
    const SCEV *Step = yStep(Op, At);
    if (!Step)
      return nullptr;
    Steps.push_back(Step);
  }
  switch (S->getSCEVType()) {
  case scAddExpr:
    return SE->getAddExpr(Steps);
  case scMulExpr: {
    SmallVector<const SCEV *, 4> Factors;
    unsigned Moving = 0;
    for (auto [Op, Step] : zip(cast<SCEVMulExpr>(S)->operands(), Steps)) {
      if (!Step->isZero()) {
        ++Moving;
        Factors.push_back(Step);
      } else if (ofUniformArguments(Op, At)) {
        Factors.push_back(Op);
      } else {
        return nullptr;
      }
    }
    return Moving == 1 ? SE->getMulExpr(Factors) : nullptr;
  }
  case scSignExtend:
  case scZeroExtend:
  case scPtrToInt:
    return SE->getTruncateOrSignExtend(Steps[0], Ty);
  case scTruncate:
    // As yTerm: only truncations to int or wider keep the move.
    if (SE->getTypeSizeInBits(Ty) >= 32)
      return SE->getTruncateExpr(Steps[0], Ty);
    return nullptr;
  default: // yCoefficient answered every other kind it can
    return nullptr;
  }
}

const SCEV *UniformLoops::rowStep(Value *Ptr, const BasicBlock &At) {
  const SCEV *Step = yStep(SE->getSCEV(Ptr), At);
  if (!Step)
    return nullptr;
  return SE->getTruncateOrSignExtend(Step, Type::getInt64Ty(Ptr->getContext()));
}

Value *UniformLoops::expandRowStep(const SCEV *S, Instruction *At) {
  if (!Expander->isSafeToExpandAt(S, At))
    return nullptr;
  return Expander->expandCodeFor(S, S->getType(), At);
}

namespace {
// Rewrites an address's SCEV with each select whose condition varies
// between lanes, and whose two values move alike with thread index x,
// replaced by its true value; the conditions go to Conds.
class SelectArms : public SCEVRewriteVisitor<SelectArms> {
public:
  using CoefficientFn = function_ref<std::optional<int64_t>(const SCEV *)>;
  using UniformFn = function_ref<bool(const Value *)>;

  SelectArms(ScalarEvolution &SE, CoefficientFn Coefficient, UniformFn Uniform,
             SmallVectorImpl<Value *> &Conds,
             SmallVectorImpl<UniformLoops::LaneArm> &Arms, Value *Ptr)
      : SCEVRewriteVisitor(SE), Coefficient(Coefficient), Uniform(Uniform),
        Conds(Conds), Arms(Arms) {
    findClamps(Ptr, 0);
  }

  const SCEV *visitUnknown(const SCEVUnknown *U) {
    auto *Sel = dyn_cast<SelectInst>(U->getValue());
    if (!Sel || !SE.isSCEVable(Sel->getType()) ||
        Sel->getCondition()->getType()->isVectorTy())
      return U;
    const SCEV *T = SE.getSCEV(Sel->getTrueValue());
    const SCEV *F = SE.getSCEV(Sel->getFalseValue());
    std::optional<int64_t> CT = Coefficient(T), CF = Coefficient(F);
    if (!CT || !CF || *CT != *CF)
      return U;
    // A warp-uniform condition needs no test; a few others at most, each a
    // ballot at every execution.
    if (!Uniform(Sel->getCondition())) {
      if (Conds.size() + Arms.size() >= 2)
        return U;
      Conds.push_back(Sel->getCondition());
    }
    return visit(T);
  }

  // A clamp of a lane-affine value against a warp-uniform one (SCEV folds
  // the smax/smin/umax/umin intrinsics into these): the lane-affine
  // operand, where the clamp is an intrinsic of the address's.
  // `a % n` is a - (a /u n) * n to scalar evolution: where the quotient
  // is one value in each row of lanes (LaneArm's test), the remainder
  // moves as `a`; the quotient is taken as 0 here, its stride's.
  const SCEV *visitUDivExpr(const SCEVUDivExpr *E) {
    auto It = Rems.find(E);
    if (!WrapArms || It == Rems.end() || Conds.size() + Arms.size() >= 2)
      return SCEVRewriteVisitor::visitUDivExpr(E);
    BinaryOperator *Rem = It->second;
    std::optional<int64_t> Step = Coefficient(E->getLHS());
    unsigned Bits = Rem->getType()->getIntegerBitWidth();
    if (!Step || *Step <= 0 || (Bits < 64 && *Step >= (int64_t(1) << Bits)) ||
        !Uniform(Rem->getOperand(1)))
      return SCEVRewriteVisitor::visitUDivExpr(E);
    Arms.push_back({Rem, 0, *Step});
    return SE.getZero(E->getType());
  }

  const SCEV *visitSMaxExpr(const SCEVSMaxExpr *E) { return clamp(E); }
  const SCEV *visitSMinExpr(const SCEVSMinExpr *E) { return clamp(E); }
  const SCEV *visitUMaxExpr(const SCEVUMaxExpr *E) { return clamp(E); }
  const SCEV *visitUMinExpr(const SCEVUMinExpr *E) { return clamp(E); }

private:
  // The min/max intrinsics the address is computed from (a few steps up).
  void findClamps(Value *V, unsigned Depth) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || Depth > 12 || isa<PHINode>(I) || !Seen.insert(I).second)
      return;
    // Scalar evolution takes an extension into the clamp's operands
    // (sext(smin(a, b)) is smin(sext(a), sext(b))): that node is the
    // clamp's too, its lane-affine operand extended alike.
    if (auto *Rem = dyn_cast<BinaryOperator>(I);
        Rem && Rem->getOpcode() == Instruction::URem &&
        SE.isSCEVable(Rem->getType()))
      if (auto *D = dyn_cast<SCEVUDivExpr>(SE.getUDivExpr(
              SE.getSCEV(Rem->getOperand(0)), SE.getSCEV(Rem->getOperand(1)))))
        Rems.try_emplace(D, Rem);
    if (auto *MM = dyn_cast<MinMaxIntrinsic>(I))
      if (SE.isSCEVable(MM->getType())) {
        const SCEV *S = SE.getSCEV(MM);
        Clamps[S] = {MM, Instruction::CastOpsEnd};
        Type *I64 = Type::getInt64Ty(MM->getContext());
        if (SE.getTypeSizeInBits(MM->getType()) < 64) {
          Clamps.try_emplace(SE.getSignExtendExpr(S, I64), MM,
                             Instruction::SExt);
          Clamps.try_emplace(SE.getZeroExtendExpr(S, I64), MM,
                             Instruction::ZExt);
        }
      }
    for (Value *Op : I->operands())
      findClamps(Op, Depth + 1);
  }

  template <typename MinMaxExpr> const SCEV *clamp(const MinMaxExpr *E) {
    auto It = Clamps.find(E);
    if (!ClampArms || E->getNumOperands() != 2 || It == Clamps.end() ||
        Conds.size() + Arms.size() >= 2)
      return E;
    auto [MM, Ext] = It->second;
    for (unsigned Op = 0; Op < 2; ++Op) {
      const SCEV *Lane = SE.getSCEV(MM->getArgOperand(Op));
      if (Ext == Instruction::SExt)
        Lane = SE.getSignExtendExpr(Lane, E->getType());
      else if (Ext == Instruction::ZExt)
        Lane = SE.getZeroExtendExpr(Lane, E->getType());
      std::optional<int64_t> CL = Coefficient(Lane);
      if (!CL || *CL == 0 || !Uniform(MM->getArgOperand(1 - Op)))
        continue;
      Arms.push_back({MM, Op, 0});
      return visit(Lane);
    }
    return E;
  }

  CoefficientFn Coefficient;
  UniformFn Uniform;
  SmallVectorImpl<Value *> &Conds;
  SmallVectorImpl<UniformLoops::LaneArm> &Arms;
  // The clamp a node is, and the extension (CastOpsEnd: none) it is of it.
  DenseMap<const SCEV *, std::pair<IntrinsicInst *, unsigned>> Clamps;
  // The urem each quotient a / n of the address is the remainder's of.
  DenseMap<const SCEV *, BinaryOperator *> Rems;
  SmallPtrSet<const Instruction *, 16> Seen;
};
} // namespace

Value *UniformLoops::LaneArm::condition(IRBuilderBase &B) const {
  if (Op->getOpcode() == Instruction::URem)
    return B.CreateICmpUGE(Op, ConstantInt::get(Op->getType(), Step),
                           "pasta.div.nowrap");
  auto *MinMax = cast<IntrinsicInst>(Op);
  Value *Lane = MinMax->getArgOperand(Operand);
  Value *Bound = MinMax->getArgOperand(1 - Operand);
  switch (MinMax->getIntrinsicID()) {
  case Intrinsic::smax:
    return B.CreateICmpSGE(Lane, Bound, "pasta.div.arm");
  case Intrinsic::umax:
    return B.CreateICmpUGE(Lane, Bound, "pasta.div.arm");
  case Intrinsic::smin:
    return B.CreateICmpSLE(Lane, Bound, "pasta.div.arm");
  default:
    return B.CreateICmpULE(Lane, Bound, "pasta.div.arm");
  }
}

std::optional<int64_t>
UniformLoops::laneStrideIf(Value *Ptr, const BasicBlock &At,
                           SmallVectorImpl<Value *> &Conds,
                           SmallVectorImpl<LaneArm> &Arms) {
  if (std::optional<int64_t> C = laneStride(Ptr, At))
    return C;
  SmallVector<Value *, 2> Found;
  SmallVector<LaneArm, 2> FoundArms;
  auto Coefficient = [&](const SCEV *S) { return xCoefficient(S, At); };
  auto Uniform = [&](const Value *V) { return isWarpUniform(V, At); };
  SelectArms Rewrite(*SE, Coefficient, Uniform, Found, FoundArms, Ptr);
  const SCEV *Original = SE->getSCEV(Ptr);
  const SCEV *S = Rewrite.visit(Original);
  if (S == Original)
    return std::nullopt;
  std::optional<int64_t> C = xCoefficient(S, At);
  if (C) {
    Conds.append(Found.begin(), Found.end());
    Arms.append(FoundArms.begin(), FoundArms.end());
  }
  return C;
}

std::optional<int64_t> UniformLoops::laneStride(Value *Ptr,
                                                const BasicBlock &At) {
  return xCoefficient(SE->getSCEV(Ptr), At);
}
