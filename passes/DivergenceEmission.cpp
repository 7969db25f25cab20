//===- DivergenceEmission.cpp - Divergence copies of kernels --------------===//
//
// See Divergence.h: createDivergenceVariants. The copies are clones
// (KernelVariants.h) of the instrumented functions; the planned
// instructions are found in them through the clone's value map and handed
// to each copy's CopyMeasures (DivergenceMeasures.h). Then the counting
// code's first-block flush is made every warp's, and NVPTX kernels' copies
// get a register cap (and an uncapped twin).
//
//===----------------------------------------------------------------------===//
#include "BlockBound.h"
#include "DeviceRuntime.h"
#include "Divergence.h"
#include "DivergenceMeasures.h"
#include "DivergenceOneLane.h"
#include "DivergenceVersioned.h"
#include "KernelVariants.h"
#include "Selection.h"

#include "pasta/abi.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/InstructionSimplify.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

#include <map>
#include <memory>
#include <string>

using namespace llvm;
using namespace pasta;

#define DEBUG_TYPE "pasta"

static constexpr const char *DivAccessName = "__pasta_div_access";
static constexpr const char *DivBranchName = "__pasta_div_branch";
static constexpr const char *DivSwitchName = "__pasta_div_switch";
static constexpr const char *DivBlockName = "__pasta_div_block";
static constexpr const char *DivBranchAddName = "__pasta_div_branch_add";
static constexpr const char *DivSwitchAddName = "__pasta_div_switch_add";
static constexpr const char *DivBlockAddName = "__pasta_div_block_add";
static constexpr const char *DivCountLaunchName = "__pasta_div_count_launch";
static constexpr const char *DivAddName = "__pasta_div_add";
static constexpr const char *DivAllLanesName = "__pasta_div_all_lanes";
static constexpr const char *DivUniformName = "__pasta_div_uniform";
static constexpr const char *DivAccessLanesName = "__pasta_div_access_lanes";
static constexpr const char *DivAccessLanesColdName =
    "__pasta_div_access_lanes_cold";
static constexpr const char *DivRowWidthName = "__pasta_div_row_width";
static constexpr const char *DivAccessOutName = "__pasta_div_access_out";
static constexpr const char *DivAccessLanesOutName =
    "__pasta_div_access_lanes_out";
static constexpr const char *DivAccessBatchOutName =
    "__pasta_div_access_batch_out";

// On by default: hotspot's copy ran its halo loop's count through the
// out-of-line flush in every warp, some 58 of its 731 SASS instructions per
// warp (its SASS page on an H200); inline, a full warp of small counts
// takes one warp sum (scale 1 folds), the others still call it.
static cl::opt<bool> InlineWarpFlush(
    "pasta-div-inline-warp-flush", cl::Hidden, cl::init(true),
    cl::desc("PASTA: divergence copies flush the counts alike in every block "
             "per warp through the flush's inline fast path for full warps, "
             "not an out-of-line call"));

// The inline form of an out-of-line flush of counts alike in every block
// (CounterEmission.cpp, flushAlikeFromFirstBlock): the same arguments and
// sums, with the call left for partial warps and large counts.
static void inlineWarpFlush(CallInst &Flush) {
  Function *Callee = Flush.getCalledFunction();
  if (!InlineWarpFlush || !Callee)
    return;
  StringRef Inline =
      Callee->getName() == FlushScaledName       ? FlushScaledInlineName
      : Callee->getName() == FlushBitsScaledName ? FlushBitsScaledInlineName
                                                 : StringRef();
  if (Inline.empty())
    return;
  Module &M = *Flush.getModule();
  Flush.setCalledFunction(
      M.getOrInsertFunction(Inline, Flush.getFunctionType()));
}

// On by default: the per-warp flush of counts alike in every block was
// 105-109 of bpnn_layerforward's 355 warp instructions a warp on an H200
// (its SASS: six bit counters' two `REDUX.SUM`s, lane 0's
// `red`s, the bank row from %smid), in every warp of every block; the
// first block's flush costs the others a test of the block index:
// layerforward+hidden 2.98x -> 2.57x, hotspot 3.20x -> 3.11x, profiles
// equal. The copies got register caps after flushAlikePerWarp was made
// (2626d51): what the first block's flush costs now is spills, not
// resident blocks, and it added none to a capped copy of the bundled
// programs.
static cl::opt<bool> AlikeFirstBlock(
    "pasta-div-alike-first-block", cl::init(true),
    cl::desc("PASTA: divergence copies keep the counting code's flush of "
             "counts alike in every thread block in the first block alone, "
             "times the grid's blocks, as counting copies do (in its inline "
             "form); off: every warp flushes them (flushAlikePerWarp)"));

// Copy's direct calls of the runtime function named Name, in order.
static SmallVector<CallInst *, 4> callsNamed(Function &Copy, StringRef Name) {
  SmallVector<CallInst *, 4> Calls;
  for (Instruction &I : instructions(Copy))
    if (auto *Call = dyn_cast<CallInst>(&I))
      if (Function *Callee = Call->getCalledFunction())
        if (Callee->getName() == Name)
          Calls.push_back(Call);
  return Calls;
}

// The counting code's first-block flushes (__pasta_flush_scaled,
// __pasta_flush_bits_scaled) in their inline form for full warps
// (inlineWarpFlush), the scale left as it is: the first thread block adds
// its counts times the grid's blocks, the other blocks skip them.
static void flushAlikeFromFirstBlock(ArrayRef<CallInst *> Scales) {
  for (CallInst *Scale : Scales)
    for (User *U : Scale->users())
      if (auto *Flush = dyn_cast<CallInst>(U))
        inlineWarpFlush(*Flush);
}

// The counting code's first-block flush of counts alike in every block
// (CounterEmission.cpp) made every warp's again in a divergence copy: row
// 0's slots become the warp's bank row's, the scale 1. Its code raised
// matmul_tiled's copy from 80 to 85 registers (past an allocation step of
// 8: a thread block fewer per SM), inline or out of line, when the copies
// had no register cap. With -pasta-div-alike-first-block (the default) the
// first block's flush stays (flushAlikeFromFirstBlock).
static void flushAlikePerWarp(Function &Copy, ModuleTables &T,
                              FunctionCallee BankRow) {
  SmallVector<CallInst *, 4> Scales = callsNamed(Copy, FirstBlockScaleName);
  if (AlikeFirstBlock)
    return flushAlikeFromFirstBlock(Scales);
  const DataLayout &DL = Copy.getDataLayout();
  for (CallInst *Scale : Scales) {
    IRBuilder<> B(Scale);
    Value *Row = B.CreateCall(BankRow, {T.Counters, B.getInt32(T.NumCounters),
                                        B.getInt32(T.numBanks())});
    for (User *U : make_early_inc_range(Scale->users())) {
      auto *Flush = dyn_cast<CallInst>(U);
      if (!Flush)
        continue;
      IRBuilder<> FB(Flush);
      for (Use &Arg : Flush->args()) {
        if (!Arg->getType()->isPointerTy())
          continue;
        APInt Offset(DL.getIndexTypeSizeInBits(Arg->getType()), 0);
        Value *Base = Arg->stripAndAccumulateConstantOffsets(DL, Offset, false);
        if (Base == T.Counters)
          Arg.set(FB.CreateConstInBoundsGEP1_64(FB.getInt8Ty(), Row,
                                                Offset.getZExtValue()));
      }
      inlineWarpFlush(*Flush);
    }
    SmallVector<BasicBlock *, 2> Tests;
    for (User *U : Scale->users())
      if (auto *Test = dyn_cast<Instruction>(U); Test && !isa<CallInst>(Test))
        Tests.push_back(Test->getParent());
    Scale->replaceAllUsesWith(ConstantInt::get(Scale->getType(), 1));
    Scale->eraseFromParent();
    for (BasicBlock *BB : Tests) // `scale != 0` is true now
      for (Instruction &I : make_early_inc_range(*BB))
        if (Value *V = simplifyInstruction(&I, {DL})) {
          I.replaceAllUsesWith(V);
          I.eraseFromParent();
        }
    for (BasicBlock *BB : Tests)
      ConstantFoldTerminator(BB);
  }
}

// On by default: each call of __pasta_bank_row reads %smid and the block
// index again (volatile, so that no row stays live across a kernel's
// loops: a grid-stride loop took 38 registers against 32), and a copy
// computes it where it adds figures and again at each flush. A loop-free
// kernel copy computes it once: 8 PTX instructions a warp fewer in 15
// kernels' copies of 10 bundled programs, no register, spill or stack
// byte more in any; on an H200 reduce_f32's copy ran 7 warp instructions
// a warp fewer (-3% time), srad_coeff's one more (no time change), every
// profile equal.
static cl::opt<bool> OneBankRow(
    "pasta-div-one-row", cl::init(true),
    cl::desc("PASTA: a loop-free divergence copy of a kernel computes its "
             "counters' bank row once, where every use of it is dominated "
             "(off: at each flush and add again)"));

// Every bank row of a loop-free Copy taken from one call, made in the
// nearest block that dominates them all (before the first of them when
// that block holds one). Any row is right (the host adds the banks up);
// the row only spreads the `red`s of warps that flush at the same time.
static void liveBankRow(Function &Copy);

static void oneBankRow(Function &Copy) {
  if (!OneBankRow)
    return;
  SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 4> Backedges;
  FindFunctionBackedges(Copy, Backedges);
  SmallVector<CallInst *, 4> Rows = callsNamed(Copy, BankRowName);
  if (!Backedges.empty())
    return liveBankRow(Copy);
  if (Rows.size() < 2)
    return;
  DominatorTree DT(Copy);
  // Unreachable code has no dominator: its calls stay as they are; so do
  // the rows of another counter array (a callee's counting code inlined
  // into the copy reads its own array's row).
  const CallInst *First = Rows.front();
  erase_if(Rows, [&](CallInst *Row) {
    return !DT.isReachableFromEntry(Row->getParent()) ||
           !equal(Row->args(), First->args());
  });
  if (Rows.size() < 2)
    return;
  BasicBlock *Common = Rows.front()->getParent();
  for (CallInst *Row : Rows)
    Common = DT.findNearestCommonDominator(Common, Row->getParent());
  Instruction *At = Common->getTerminator();
  for (Instruction &I : *Common)
    if (is_contained(Rows, &I)) {
      At = &I;
      break;
    }
  auto *Kept = cast<CallInst>(Rows.front()->clone());
  Kept->insertBefore(At->getIterator());
  for (CallInst *Row : Rows) {
    Row->replaceAllUsesWith(Kept);
    Row->eraseFromParent();
  }
}

// Off by default (measured on bfs only): in a copy with loops, a bank row
// computed again where the entry's row is live anyway (used at or after
// the later call: bfs_expand's return block adds its warp count through
// the entry's row, then the counting flush reads %smid and the block index
// again) is taken from the entry's: no register held longer.
static cl::opt<bool> LiveBankRow(
    "pasta-div-live-row", cl::init(false), cl::Hidden,
    cl::desc("PASTA: in a divergence copy with loops, a bank row computed "
             "again where the entry's is live takes the entry's"));

static void liveBankRow(Function &Copy) {
  if (!LiveBankRow)
    return;
  SmallVector<CallInst *, 4> Rows = callsNamed(Copy, BankRowName);
  if (Rows.size() < 2 || Rows.front()->getParent() != &Copy.getEntryBlock())
    return;
  CallInst *Entry = Rows.front();
  DominatorTree DT(Copy);
  for (CallInst *Row : drop_begin(Rows)) {
    if (!equal(Row->args(), Entry->args()) || !DT.dominates(Entry, Row))
      continue;
    // Live into Row's block (a use there) or beyond it.
    bool LiveThere = any_of(Entry->users(), [&](const User *U) {
      auto *I = cast<Instruction>(U);
      return I->getParent() == Row->getParent() || DT.dominates(Row, I);
    });
    if (!LiveThere)
      continue;
    Row->replaceAllUsesWith(Entry);
    Row->eraseFromParent();
  }
}

// On by default: the four bundled copies that take them ran faster than
// without on an H200 (adjust_weights 3.45x -> 2.72x, layerforward 5.55x ->
// 4.45x, gaussian 4.68x -> 4.35x, lud 3.15x -> 2.82x: 32 registers instead
// of 48). Their first runtime walked each row's lanes one by one in full
// warps of unaligned rows, and ran 2-5x slower than without.
static cl::opt<bool> Rows16Bodies(
    "pasta-div-rows16", cl::init(true),
    cl::desc("PASTA: give the divergence copies of kernels for blocks of two "
             "dimensions that get a body for rows of 32 one for rows of 16 "
             "too (addRows32Body; off: no such copy gets either)"));

static cl::opt<bool> Rows32Bodies(
    "pasta-div-rows32", cl::init(true),
    cl::desc("PASTA: give a kernel's divergence copy whose measured accesses "
             "are all proven in warps of one 32-lane row a body for rows of "
             "32, the rest called as a function, and a cap of 32 registers "
             "(addRows32Body; off: one body, for comparisons)"));

// On by default: the test of the row width at a copy's entry made its body
// for rows of 32 call the general function elsewhere, whose call took
// registers and a stack frame in every warp (axpy's copy 32 registers and
// 48 bytes against 24 and none without the test: 1.13x -> 1.09x the plain
// kernel on an H200).
static cl::opt<bool> HostGeneral(
    "pasta-div-host-general", cl::init(true),
    cl::desc("PASTA: a divergence copy with a body for rows of 32 (and none "
             "for rows of 16) is that body alone, and the copy as it was a "
             "kernel of its own (PASTA_DIV_GENERAL_SUFFIX) that the runtime "
             "launches for other block shapes; off: the copy tests the row "
             "width at its entry and calls the general function"));

static cl::opt<bool> RareApart(
    "pasta-div-rare-apart", cl::init(true), cl::Hidden,
    cl::desc("PASTA: a kernel's divergence copy with groups measured only "
             "in rare warps runs them in a function of its own, called by "
             "those warps (addRareApart; off: one body)"));

static cl::opt<bool>
    DivStats("pasta-div-stats",
             cl::desc("PASTA: print what the divergence copies of each "
                      "module measure and what they take as proven"),
             cl::init(false));

namespace {
// What the copies of a module measure and what they take as proven
// (-pasta-div-stats): branches (not derived from an earlier one) never
// measured because their condition is warp-uniform (UniformLoops.h), of
// them those proven beyond LLVM's uniformity analysis; loops whose every
// branch is uniform (their figures taken once per entry); access groups,
// those lane-shaped (their figures derived at read-back but for a measured
// correction), those not measured at all (one naturally aligned
// address in every lane: every figure derived), those measured only in
// warps that are not one row of 32 lanes (LaneAffine.h), and the global
// ones taken by arithmetic in full warps of one row (AccessGroup::FullRow);
// bodies whose warp executions their branch counts (DivergencePlan::
// NoneTaken: block 0's times the grid's blocks, or derived at read-back);
// the lane-shaped groups behind a clamp or a wrap (UniformLoops::LaneArm), the
// groups whose space is their callers' (DivergencePlan::Access), the shared
// ones whose full warps of 16-wide rows add their bank conflicts from their
// strides (AccessGroup::GapConflicts), and the kernels whose copy has a
// body for rows of 32 (addRows32Body).
struct DivergenceStats {
  unsigned Branches = 0, Uniform = 0, Beyond = 0;
  unsigned LoopsUniform = 0, LoopsBeyond = 0;
  unsigned AccessGroups = 0, LaneShaped = 0, ProvenGroups = 0, RowsProven = 0,
           Stacked = 0, FullRow = 0, Clamped = 0, CallersSpace = 0, Gaps = 0,
           Twins = 0, LaunchDerived = 0;
  unsigned Bodies = 0, Rows32 = 0, Rows16 = 0, Versioned = 0;

  void addBranch(const UniformLoops &Loops, const Instruction &Term) {
    ++Branches;
    if (Loops.uniformLoop(*Term.getParent()) || Loops.uniformCondition(Term))
      ++Uniform;
    if (Loops.uniformBeyondAnalysis(Term))
      ++Beyond;
  }
  void print(const Module &M) const {
    errs() << "pasta: div-stats: " << M.getTargetTriple().str() << " "
           << M.getSourceFileName() << ": branches " << Branches
           << " (uniform, not measured: " << Uniform << ", " << Beyond
           << " beyond LLVM's uniformity analysis); uniform loops "
           << LoopsUniform << " (" << LoopsBeyond
           << " beyond the analysis); access groups " << AccessGroups
           << " (lane-shaped: " << LaneShaped
           << ", not measured: one aligned address in every lane: "
           << ProvenGroups
           << "; measured only where rows of lanes are not 32 wide: "
           << RowsProven << ", of them in rows stacked in y too: " << Stacked
           << "; global ones taken by arithmetic in full 32-lane rows: "
           << FullRow << "); bodies counted at their branch: " << Bodies
           << "; lane-shaped behind a clamp or a wrap: " << Clamped
           << "; groups in their callers' space: " << CallersSpace
           << "; shared ones taken by their strides in full warps of "
              "16-wide rows: "
           << Gaps << "; measured with a twin's base: " << Twins
           << "; whose full warps' figures read-back derives per launch "
              "class: "
           << LaunchDerived
           << "; kernels with a body for rows of 32: " << Rows32
           << " (of them with one for rows of 16 too: " << Rows16
           << "); loops whose full warps' trips run unmeasured: " << Versioned
           << "\n";
  }
};
} // namespace

static Instruction *inCopy(ValueToValueMapTy &VMap, Value *Original) {
  auto It = VMap.find(Original);
  return It == VMap.end() ? nullptr : dyn_cast<Instruction>(It->second);
}

static Value *accessPointer(Instruction *I) {
  if (Value *Ptr = getLoadStorePointerOperand(I))
    return Ptr;
  if (auto *RMW = dyn_cast<AtomicRMWInst>(I))
    return RMW->getPointerOperand();
  return cast<AtomicCmpXchgInst>(I)->getPointerOperand();
}

// Whether F or a function it calls has a loop (the runtime's helpers are
// still declarations here, so only the program's own code counts).
static bool reachesLoop(const Function &F,
                        SmallPtrSetImpl<const Function *> &Seen) {
  if (F.isDeclaration() || !Seen.insert(&F).second)
    return false;
  SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 4> Backedges;
  FindFunctionBackedges(F, Backedges);
  if (!Backedges.empty())
    return true;
  for (const Instruction &I : instructions(F))
    if (const auto *Call = dyn_cast<CallBase>(&I))
      if (const Function *Callee = Call->getCalledFunction())
        if (reachesLoop(*Callee, Seen))
          return true;
  return false;
}

// A loop-free copy that stages data through a shared tile (a block barrier
// and shared loads or stores: the transposes) gets 32, not 48: its
// measurements of two tiles' accesses, global and shared, kept
// transpose_padded's copy at 48 registers, 5 blocks of 256 threads an SM
// against the kernel's 8; at 32 (1,264 bytes of spills, once a thread) it
// ran 1.78x the plain kernel against 2.13x, transpose_conflicts 1.42x
// against 1.51x, profiles equal (H200).
static cl::opt<bool> TileCap32(
    "pasta-div-tile-cap32", cl::init(true),
    cl::desc("PASTA: cap a loop-free divergence copy whose kernel has a "
             "block barrier and shared-memory loads or stores at 32 "
             "registers (off: 48, as other loop-free copies)"));

// Whether F (the kernel, uninstrumented) has a block barrier and loads or
// stores shared memory.
static bool stagesSharedTile(const Function &F) {
  bool Barrier = false, Shared = false;
  for (const Instruction &I : instructions(F)) {
    if (const auto *II = dyn_cast<IntrinsicInst>(&I))
      Barrier |=
          II->getIntrinsicID() == Intrinsic::nvvm_barrier_cta_sync_aligned_all;
    if (const Value *Ptr = getLoadStorePointerOperand(&I))
      Shared |= Ptr->getType()->getPointerAddressSpace() == PASTA_DIV_SHARED ||
                getUnderlyingObject(Ptr)->getType()->getPointerAddressSpace() ==
                    PASTA_DIV_SHARED;
  }
  return Barrier && Shared;
}

// The cap of a copy whose kernel loops only over data it loaded (bfs's
// edges of its node: row_ptr[u] to row_ptr[u + 1]). Most warps of such a
// kernel (a frontier's) run few trips or none and wait on the entry's loads
// and the return's atomics, which more resident warps hide. bfs_expand's
// copy at 48: 4/8 bytes of spills, 5 blocks of 256 threads an SM instead of
// 4; on an H200 its launch took 83.1 us against 90.7 at 64 (achieved
// occupancy 43% against 36%; 40: 82.3 us with 156/68 bytes of spills, 32:
// 90.0 us with 800/288). A loop over an index range keeps 64: kmeans's copy
// ran 17% slower at 48 (444/304 bytes of spills in its cluster loop).
static constexpr unsigned DataLoopCap = 48;

// Whether F has a loop and each of its loops has an exit test that
// depends on a value loaded from memory (not from a local variable).
static bool onlyDataLoops(Function &F) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  if (LI.empty())
    return false;
  auto FromLoad = [](Value *V) {
    SmallVector<Value *, 16> Work{V};
    SmallPtrSet<Value *, 32> Seen;
    while (!Work.empty()) {
      auto *I = dyn_cast<Instruction>(Work.pop_back_val());
      if (!I || Seen.size() > 64 || !Seen.insert(I).second)
        continue;
      if (auto *Load = dyn_cast<LoadInst>(I)) {
        if (!isa<AllocaInst>(getUnderlyingObject(Load->getPointerOperand())))
          return true;
        continue;
      }
      append_range(Work, I->operands());
    }
    return false;
  };
  return all_of(LI.getLoopsInPreorder(), [&](Loop *L) {
    SmallVector<BasicBlock *, 4> Exiting;
    L->getExitingBlocks(Exiting);
    return any_of(Exiting, [&](BasicBlock *BB) {
      auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
      return Br && Br->isConditional() && FromLoad(Br->getCondition());
    });
  });
}

// Loops of at most this many trips a call count as straight-line code for
// a copy's register cap (onlyFewTripLoops).
static cl::opt<unsigned> FewTripsCap(
    "pasta-div-few-trips-cap", cl::init(2), cl::Hidden,
    cl::desc("PASTA: a kernel whose loops all run at most this many trips a "
             "call (a constant bound) gets the register cap of a kernel "
             "without loops (0: never)"));

// Whether F has loops, each runs at most FewTripsCap trips a call (scalar
// evolution's constant bound: hotspot's halo loop, `k < 324` in steps of
// 256 from k < 256, 2), and the functions F calls have none: what the cap
// spills then costs about as in straight-line code.
static bool onlyFewTripLoops(Function &F, FunctionAnalysisManager &FAM) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  if (!FewTripsCap || LI.empty())
    return false;
  ScalarEvolution SE(F, FAM.getResult<TargetLibraryAnalysis>(F),
                     FAM.getResult<AssumptionAnalysis>(F), DT, LI);
  for (const Loop *L : LI.getLoopsInPreorder()) {
    unsigned Most = SE.getSmallConstantMaxTripCount(L);
    if (!Most || Most > FewTripsCap)
      return false;
  }
  for (const Instruction &I : instructions(F))
    if (const auto *Call = dyn_cast<CallBase>(&I))
      if (const Function *Callee = Call->getCalledFunction()) {
        SmallPtrSet<const Function *, 8> Seen;
        if (reachesLoop(*Callee, Seen))
          return false;
      }
  return true;
}

// The register cap Kernel carries of its own (nvvm.maxnreg), or 0.
static unsigned ownRegisterCap(const Function &Kernel) {
  unsigned Own = 0;
  if (!Kernel.hasFnAttribute("nvvm.maxnreg") ||
      Kernel.getFnAttribute("nvvm.maxnreg")
          .getValueAsString()
          .getAsInteger(10, Own))
    return 0;
  return Own;
}

// The register cap of an NVPTX kernel's divergence copy (ptxas's
// .maxnreg). The measuring code holds figures and addresses the kernel
// does not, and ptxas gives the copies 50 to 170 registers where the
// kernels take 10 to 40: too few warps stay resident to hide memory
// latency. What the cap spills costs once per thread in a kernel without
// loops, once per iteration in one with them, so by default the first
// gets 48 registers and the second 64 (the best of 32, 40, 48, 64 and no
// cap when the bundled programs were timed with each on an H200), or 48
// when every loop's trips are data it loaded (onlyDataLoops), or when
// every loop runs at most FewTripsCap trips (onlyFewTripLoops: hotspot's
// halo loop, 2; on an H200 its copy ran 2.50x plain at 48 against 2.69x at
// 64, 5 blocks of 256 an SM instead of 4, 7% more instructions). Requested
// sets every kernel's (0: none). A lower cap of the kernel's own is kept,
// and launch bounds with a minimum of blocks per SM are the program's own
// word on its occupancy (CUB gives its single-block kernels 1), so such a
// copy gets none. A copy with bodies for rows of 32 (addRows32Body) gets 32,
// or 40 with loops (-pasta-div-rows-loops: matmul_tiled's body took 40
// without a spill): its general function spills then, in launches of other
// row widths only. One whose loops measure a scattered shared atomic
// (Scattered: histogram's) gets 32 with loops too: its loop holds the
// atomic's collectives and the loads' one-row arithmetic, no spill at 32,
// and 32 keeps 8 blocks of 256 threads on an SM (40: 6). A copy whose
// common body is one for rows of 32 (RareRows32: addRareApart's, pathfinder)
// gets 32 too: that body took 32 uncapped; its `_rare` function, run by a
// grid's edge warps only, spills under it (pathfinder on an H200, profiles
// equal: 1.95x the plain kernel at 32, 2.18x at 40, 2.94x at 64).
static void capRegisters(Function &Kernel, int Requested, bool Rows32,
                         bool Scattered, bool RareRows32, bool DataLoops,
                         bool FewTrips = false, bool SharedTile = false) {
  if (!Requested || Kernel.hasFnAttribute("nvvm.minctasm"))
    return;
  unsigned Cap = Requested;
  if (Requested < 0) {
    SmallPtrSet<const Function *, 8> Seen;
    bool Loops = reachesLoop(Kernel, Seen);
    Cap = RareRows32                ? 32
          : Rows32                  ? (Loops && !Scattered ? 40 : 32)
          : Loops                   ? (DataLoops || FewTrips ? DataLoopCap : 64)
          : SharedTile && TileCap32 ? 32
                                    : 48;
  }
  if (unsigned Own = ownRegisterCap(Kernel); Own && Own <= Cap)
    return;
  Kernel.addFnAttr("nvvm.maxnreg", std::to_string(Cap));
}

// The divergence copy of Kernel as it is before its cap, named Kernel +
// PASTA_DIV_UNCAPPED_SUFFIX: a grid that fits in one wave of it gains
// nothing from the cap's extra resident warps and would only pay for its
// spills, so the runtime launches this one then (host_rt/launch.c). Made
// for every NVPTX kernel when caps are on, so that the host, which cannot
// see the device code, can register it by name.
static void addUncappedCopy(const Function &Kernel, Function &Copy) {
  ValueToValueMapTy VMap;
  Function *Uncapped = CloneFunction(&Copy, VMap);
  Uncapped->setName(Kernel.getName() + PASTA_DIV_UNCAPPED_SUFFIX);
}

// Off above this many out-of-line access calls (docs/design.md, "The
// uncapped twin"): ptxas compiles a twin, and again every device
// function's copy it calls, whole-program, at about 20 ms per such call
// (myocyte 12: 18.7 s of its 44 s). Such a copy spills under
// or without the cap alike.
static cl::opt<unsigned> UncappedMaxCalls(
    "pasta-div-uncapped-max-calls", cl::init(0),
    cl::desc("PASTA: give a kernel's divergence copy an uncapped twin only "
             "when the copy and the functions it calls make at most this "
             "many out-of-line access calls; else the twin is a stub the "
             "runtime never launches"));

// The calls of functions IsCounted names that F and the functions it
// reaches make, each function counted once (the runtime's helpers are
// still declarations here).
static unsigned callsReached(const Function &F,
                             SmallPtrSetImpl<const Function *> &Seen,
                             function_ref<bool(StringRef)> IsCounted) {
  if (F.isDeclaration() || !Seen.insert(&F).second)
    return 0;
  unsigned Calls = 0;
  for (const Instruction &I : instructions(F))
    if (const auto *Call = dyn_cast<CallBase>(&I))
      if (const Function *Callee = Call->getCalledFunction()) {
        if (IsCounted(Callee->getName()))
          ++Calls;
        else
          Calls += callsReached(*Callee, Seen, IsCounted);
      }
  return Calls;
}

// Off above this many calls of the divergence helpers (docs/design.md, "The
// uncapped twin"): they are inlined, so ptxas's time on a copy grows with
// them, and a twin costs as much again (39-57% of the divergence build's
// ptxas time in the bundled programs). The twin pays only for grids of
// one wave. Above 50: every kernel of the seven bundled programs whose
// divergence builds took over 3x the plain compile but one (27 calls).
static cl::opt<unsigned> UncappedMaxMeasures(
    "pasta-div-uncapped-max-measures", cl::init(50),
    cl::desc("PASTA: give a kernel's divergence copy an uncapped twin only "
             "when the copy and the functions it calls make at most this "
             "many calls of the divergence helpers; else the twin is a "
             "stub the runtime never launches"));

// Whether Copy is too costly to compile twice (above either limit). Its
// general kernel (addRows32Body), where it has one, counts with it: that
// was a function the copy called, and the limits were set so.
static bool twinTooCostly(const Function &Copy, const Function *General) {
  auto Reached = [&](function_ref<bool(StringRef)> IsCounted) {
    SmallPtrSet<const Function *, 8> Seen;
    unsigned Calls = callsReached(Copy, Seen, IsCounted);
    return General ? Calls + callsReached(*General, Seen, IsCounted) : Calls;
  };
  auto IsOutOfLineAccess = [](StringRef Name) {
    return Name == DivAccessOutName || Name == DivAccessLanesOutName ||
           Name == DivAccessBatchOutName;
  };
  if (Reached(IsOutOfLineAccess) > UncappedMaxCalls)
    return true;
  // The return's flush (__pasta_div_flush_*) is not a measurement.
  auto IsDivHelper = [](StringRef Name) {
    return Name.starts_with("__pasta_div_") &&
           !Name.starts_with("__pasta_div_flush_");
  };
  return Reached(IsDivHelper) > UncappedMaxMeasures;
}

// In place of the twin of a copy too costly to compile twice: a kernel of
// the copy's type that returns at once, under the twin's name (the host
// registers that name whatever the device code holds), and whose largest
// block is one thread (.maxntid 1), which tells the runtime that it is no
// twin: it launches the capped copy (host_rt/launch.c).
static void addUncappedStub(const Function &Kernel, Function &Copy) {
  createOneThreadStub(Copy, Kernel.getName() + PASTA_DIV_UNCAPPED_SUFFIX);
}

// The name of Kernel's general divergence copy (addRows32Body).
static std::string generalCopyName(const Function &Kernel) {
  return (Kernel.getName() + PASTA_DIV_GENERAL_SUFFIX).str();
}

// Kernel's general divergence copy: the one addRows32Body made, capped as
// a copy without a body for rows of 32 (the launches it runs are not rows
// of 32), or in its place a stub of one-thread blocks (the host registers
// the name whatever the device code holds) that tells the runtime to
// launch the copy for every block shape (host_rt/launch.c).
static void addGeneralCopy(Function &Kernel, Function &Copy, int MaxRegisters,
                           bool Scattered) {
  Function *General = Kernel.getParent()->getFunction(generalCopyName(Kernel));
  if (!General) {
    createOneThreadStub(Copy, generalCopyName(Kernel));
    return;
  }
  capRegisters(*General, MaxRegisters, /*Rows32=*/false, Scattered,
               /*RareRows32=*/false, onlyDataLoops(Kernel));
}

// Above this many calls of __pasta_div_access_lanes in one function, they
// call __pasta_div_access_lanes_cold: the same figures, with the helper's
// general path (a misaligned address, rows other than one aligned row or
// two full ones) out of line, once per module. Inline, that path was most
// of each measurement's PTX and so of ptxas's time (lud's perimeter copy:
// most of its 14,700 lines), while warps rarely take it. But the calls cost
// registers around them: on an H200, with 4 as the limit, lud ran 1.5%
// faster and loop kernels up to 63% slower (transpose_padded; kmeans
// +56%, dgemm and syrk +24%, nw_tile +10%, each with 6-15 such calls). So
// only a copy past every bundled loop kernel's count takes it: lud's
// perimeter (27); nw_tile has 15.
static cl::opt<unsigned> ColdGeneralAbove(
    "pasta-div-cold-general-above", cl::init(20),
    cl::desc("PASTA: a function of more than this many lane-shaped access "
             "measurements calls their general path out of line"));

// A copy left uncapped (UncappedBlockThreads) pays for the calls in
// registers it has: above this many, its general path is out of line too
// (nw_tile's 15: 74 -> 96 registers, no spill; lud's ptxas 22% shorter,
// its divergence build 3.33x -> 2.90x the plain compile).
static cl::opt<unsigned> ColdGeneralAboveUncapped(
    "pasta-div-cold-general-above-uncapped", cl::init(13), cl::Hidden,
    cl::desc("PASTA: the same for copies left without a register cap"));

// A kernel whose shared arrays bound its blocks to this many threads or
// fewer (BlockBound.h) is held to 32 blocks an SM before registers could
// limit it: a cap on its divergence copy would only make it spill
// (lud_perimeter: 896/1,040 B under 64; uncapped 59.7 -> 48.0 us a launch
// on an H200, lud 2.14x -> 2.01x the plain build, profiles equal).
// Such a copy gets no cap and no uncapped twin.
static cl::opt<unsigned> UncappedBlockThreads(
    "pasta-div-uncapped-block-threads", cl::init(16), cl::Hidden,
    cl::desc("PASTA: divergence copies of kernels whose shared arrays hold "
             "their blocks to at most this many threads get no register "
             "cap (0: every copy is capped)"));

// The bound is on thread index x alone: a kernel that reads no other may
// still be launched with blocks of more dimensions (dim3(16, 64): 1,024
// threads), which its uncapped copy's registers may not allow. With this
// option such a copy keeps its cap and its twin is the uncapped code, which
// the runtime launches wherever the cap gains nothing (host_rt/launch.c,
// div_copy_for); without it the runtime runs the counting copy for a block
// the uncapped copy cannot take, and says so. Off: the twin compiles the
// copy a second time (lud's divergence build 2.9x -> over
// 3x the plain compile).
static cl::opt<bool> SmallBlockTwin(
    "pasta-div-small-block-twin", cl::init(false), cl::Hidden,
    cl::desc("PASTA: divergence copies of kernels whose shared arrays bound "
             "thread index x (-pasta-div-uncapped-block-threads) keep their "
             "register cap and get a real uncapped twin"));

// The kernels of Fns whose copies UncappedBlockThreads leaves uncapped.
static SmallPtrSet<const Function *, 4>
smallBlockKernels(ArrayRef<Function *> Fns, FunctionAnalysisManager &FAM,
                  const ModuleTables &T, int MaxRegisters) {
  SmallPtrSet<const Function *, 4> Small;
  if (T.Target != PASTA_TARGET_NVPTX || MaxRegisters >= 0 ||
      !UncappedBlockThreads)
    return Small;
  for (Function *F : Fns)
    if (isKernel(*F))
      if (std::optional<unsigned> Bound = blockThreadsBound(*F, FAM);
          Bound && *Bound <= UncappedBlockThreads)
        Small.insert(F);
  return Small;
}

// Whether capRegisters gives Kernel's copy a cap of its own choice: the
// automatic cap (MaxRegisters < 0), no launch bounds with a minimum of
// blocks per SM, no lower cap of the kernel's own, and a copy that is
// capped at all (not one of smallBlockKernels' without a twin).
static bool automaticCap(Function &Kernel, int MaxRegisters, unsigned Below,
                         FunctionAnalysisManager &FAM) {
  if (MaxRegisters >= 0 || Kernel.hasFnAttribute("nvvm.minctasm"))
    return false;
  if (unsigned Own = ownRegisterCap(Kernel); Own && Own <= Below)
    return false;
  if (UncappedBlockThreads && !SmallBlockTwin)
    if (std::optional<unsigned> Bound = blockThreadsBound(Kernel, FAM);
        Bound && *Bound <= UncappedBlockThreads)
      return false;
  return true;
}

bool pasta::tileCappedKernel(Function &Kernel, int MaxRegisters,
                             FunctionAnalysisManager &FAM) {
  SmallPtrSet<const Function *, 8> Seen;
  return TileCap32 && stagesSharedTile(Kernel) && !reachesLoop(Kernel, Seen) &&
         automaticCap(Kernel, MaxRegisters, 32, FAM);
}

static void
coldGeneralPaths(Module &M, const SmallPtrSetImpl<const Function *> &Uncapped) {
  Function *Lanes = M.getFunction(DivAccessLanesName);
  if (!Lanes)
    return;
  MapVector<Function *, SmallVector<CallInst *, 16>> CallsIn;
  for (User *U : Lanes->users())
    if (auto *CI = dyn_cast<CallInst>(U);
        CI && CI->getCalledFunction() == Lanes)
      CallsIn[CI->getFunction()].push_back(CI);
  for (auto &[F, Calls] : CallsIn) {
    unsigned Above =
        Uncapped.contains(F)
            ? std::min<unsigned>(ColdGeneralAbove, ColdGeneralAboveUncapped)
            : ColdGeneralAbove;
    if (Calls.size() <= Above)
      continue;
    FunctionCallee Cold =
        M.getOrInsertFunction(DivAccessLanesColdName, Lanes->getFunctionType());
    for (CallInst *CI : Calls)
      CI->setCalledFunction(Cold);
  }
}

void pasta::createDivergenceVariants(
    Module &M, ArrayRef<Function *> Fns, const DivergencePlan &Plan,
    ModuleTables &T, FunctionAnalysisManager &FAM, int MaxRegisters,
    uint32_t DrainVisits, const SmallPtrSetImpl<Function *> &Serial) {
  reportBlockBounds(Fns, FAM);
  SmallPtrSet<const Function *, 4> SmallBlocks =
      smallBlockKernels(Fns, FAM, T, MaxRegisters);
  LLVMContext &Ctx = M.getContext();
  Type *Void = Type::getVoidTy(Ctx), *I32 = Type::getInt32Ty(Ctx),
       *I64 = Type::getInt64Ty(Ctx);
  PointerType *Generic = PointerType::get(Ctx, 0);
  PointerType *Private =
      PointerType::get(Ctx, M.getDataLayout().getAllocaAddrSpace());
  SmallVector<Type *, 13> AccessParams{Generic, I32, I32, I32, I32};
  AccessParams.append(8, Private);
  DivHelpers H;
  H.Access = M.getOrInsertFunction(DivAccessName,
                                   FunctionType::get(I32, AccessParams, false));
  H.Branch = M.getOrInsertFunction(DivBranchName, Void, I32, Private, Private);
  H.Switch = M.getOrInsertFunction(DivSwitchName, Void, I64, Private, Private);
  H.Block = M.getOrInsertFunction(DivBlockName, Void, I32, Private, Private);
  H.BranchBody = M.getOrInsertFunction("__pasta_div_branch_body", Void, I32,
                                       Private, Private, Private);
  H.IntervalBody =
      M.getOrInsertFunction("__pasta_div_interval_body", Void, I32, I32, I32,
                            I32, Private, Private, Private);
  H.IntervalConflicts =
      M.getOrInsertFunction("__pasta_div_interval_conflicts", I32, I32, I32,
                            I32, I32, I32, I32, I32, Private);
  H.LanesTrips =
      M.getOrInsertFunction("__pasta_div_lanes_trips", I32, Generic, I64, I64,
                            I32, I32, I32, I32, I32, Private, Private, Private);
  H.LanesTripsOut =
      M.getOrInsertFunction("__pasta_div_lanes_trips_out", I32, Generic, I64,
                            I64, I32, I32, I32, I32, I32, Private);
  PointerType *Global = PointerType::get(Ctx, 1);
  H.Add = M.getOrInsertFunction(DivAddName, Void, Global, I64);
  H.BranchAdd = M.getOrInsertFunction(DivBranchAddName, Void, I32, Global);
  H.SwitchAdd = M.getOrInsertFunction(DivSwitchAddName, Void, I64, Global);
  H.BlockAdd =
      M.getOrInsertFunction(DivBlockAddName, Void, Global, Global, I32);
  H.BranchNoneAdd =
      M.getOrInsertFunction("__pasta_div_branch_none_add", I32, I32, Global,
                            Global, I32, Global, I32);
  H.BranchLaunchAdd = M.getOrInsertFunction("__pasta_div_branch_launch_add",
                                            Void, I32, Global, Global, I32);
  H.BranchSplitAdd = M.getOrInsertFunction("__pasta_div_branch_split_add", Void,
                                           I32, Global, Global, I32);
  H.CountLaunch =
      M.getOrInsertFunction(DivCountLaunchName, Void, Global, Global);
  H.ReturnAdd = M.getOrInsertFunction("__pasta_div_return_add", Void, Global);
  H.CountLaunchWarps = M.getOrInsertFunction("__pasta_div_count_launch_warps",
                                             Void, I32, Global);
  H.AllLanes = M.getOrInsertFunction(DivAllLanesName, I32, I32);
  H.Uniform = M.getOrInsertFunction(DivUniformName, I32, I32);
  SmallVector<Type *, 14> LanesParams{Generic, I32, I32, I32, I32, I32};
  LanesParams.append(8, Private);
  H.AccessLanes = M.getOrInsertFunction(
      DivAccessLanesName, FunctionType::get(I32, LanesParams, false));
  // The bins helper takes the atomic's shared-memory pointer itself: it
  // makes it generic only where a warp is not full (its general path).
  SmallVector<Type *, 14> BinsParams(LanesParams);
  BinsParams.front() = PointerType::get(Ctx, PASTA_DIV_SHARED);
  H.AccessBins = M.getOrInsertFunction(
      "__pasta_div_access_bins", FunctionType::get(I32, BinsParams, false));
  H.BinsWarp = M.getOrInsertFunction("__pasta_div_bins_warp", I32);
  H.RowWidth = M.getOrInsertFunction(DivRowWidthName, I32);
  H.StackedWidth = M.getOrInsertFunction("__pasta_div_stacked_width", I32);
  H.AccessOut = M.getOrInsertFunction(DivAccessOutName, I32, Generic, I32, I32,
                                      I32, I32, Private);
  H.AccessLanesOut = M.getOrInsertFunction(DivAccessLanesOutName, I32, Generic,
                                           I32, I32, I32, I32, I32, Private);
  H.AccessBatchOut = M.getOrInsertFunction(DivAccessBatchOutName, I32, I32, I32,
                                           Private, Global, I32, Private);
  H.BankRow = M.getOrInsertFunction(BankRowName, Global, Global, I32, I32);
  H.FullRow = M.getOrInsertFunction("__pasta_div_full_row", I32, I32);
  H.RowSectors =
      M.getOrInsertFunction("__pasta_div_row_sectors", I32, Generic, I32, I32);
  H.AccessRow32 =
      M.getOrInsertFunction("__pasta_div_access_row32", I32, Generic, I32, I32,
                            I32, I32, Private, Private, Private);
  H.AccessRows16 = M.getOrInsertFunction(
      "__pasta_div_access_rows16", I32, Generic, I32, I32, I32, I32, Private,
      Private, Private, Private, Private, Private, Private, Private);

  ValueToValueMapTy VMap;
  DenseMap<Function *, Function *> CopyOf =
      createCopies(M, Fns, PASTA_DIV_SUFFIX, VMap);
  // Full warps' trips of one-block loops, versioned before any
  // measurement goes in (the clones are in no plan: never measured).
  // Every walk over the copies goes in the kernels' order (Fns), not a
  // map's by address: the counters and derived rows they add must come out
  // the same in every build (texsurf's divergence build swapped two
  // groups of rows between compiles when its copies were walked by
  // address).
  unsigned Versioned = 0;
  for (Function *F : Fns)
    Versioned += versionFullWarpLoops(*CopyOf.at(F), Plan, VMap, T, FAM);
  // Loops are simplified and analyzed before any code goes in.
  std::map<Function *, std::unique_ptr<UniformLoops>> LoopsOf;
  for (Function *F : Fns)
    LoopsOf[CopyOf.at(F)] = std::make_unique<UniformLoops>(*CopyOf.at(F), FAM);
  std::map<Function *, CopyMeasures> Measures;
  auto MeasuresOf = [&](Instruction *I) -> CopyMeasures & {
    Function *F = I->getFunction();
    auto [It, New] =
        Measures.try_emplace(F, *F, T, *LoopsOf.at(F), H, DrainVisits);
    if (New)
      It->second.setLaunchClasses(Plan.LaunchClasses);
    return It->second;
  };

  for (const DivergencePlan::Block &Planned : Plan.Blocks) {
    auto It = VMap.find(Planned.BB);
    if (It == VMap.end())
      continue;
    auto *BB = cast<BasicBlock>(It->second);
    MeasuresOf(&*BB->getFirstInsertionPt()).addBlock(*BB, Planned);
  }
  for (const DivergencePlan::Segment &Seg : Plan.Segments)
    if (Instruction *Call = inCopy(VMap, Seg.After))
      MeasuresOf(Call).addSegment(*Call, Seg.Warps);
  DivergenceStats Stats;
  DenseMap<const Instruction *, const DivergencePlan::NoneTaken *> NoneOf;
  for (const DivergencePlan::NoneTaken &NT : Plan.NoneTakens)
    NoneOf[NT.Term] = &NT;
  for (const DivergencePlan::Branch &Br : Plan.Branches)
    if (Instruction *I = inCopy(VMap, Br.Term)) {
      const DivergencePlan::NoneTaken *NT = NoneOf.lookup(Br.Term);
      Stats.Bodies += NT != nullptr;
      // Its divergent executions: never measured on a uniform condition
      // (a proof), else measured (here, or by the branch it repeats).
      const UniformLoops &Loops = *LoopsOf.at(I->getFunction());
      bool Uniform = !Br.Repeated && (Loops.uniformLoop(*I->getParent()) ||
                                      Loops.uniformCondition(*I));
      pasta_div_row &R = T.DivRows[Br.Row];
      (Uniform ? R.proven : R.measured) |= 1u << PASTA_DIV_DIVERGENT;
      if (!Br.Repeated)
        Stats.addBranch(Loops, *I);
      if (!Br.Repeated || NT)
        MeasuresOf(I).addBranch(*I, Br.Row, NT, !Br.Repeated);
    }
  // Accesses by block, in order (the plan lists them so).
  MapVector<BasicBlock *, SmallVector<AccessSite, 8>> SitesOf;
  for (const DivergencePlan::Access &A : Plan.Accesses)
    if (Instruction *I = inCopy(VMap, A.I))
      SitesOf[I->getParent()].push_back({&A, I, accessPointer(I)});
  for (auto &[BB, Sites] : SitesOf)
    MeasuresOf(Sites.front().I).planAccesses(Sites);
  // The FullRow groups' calls, tracked: later steps may drop some.
  std::map<Function *, SmallVector<WeakTrackingVH, 8>> FullRowCallsOf;
  for (Function *Orig : Fns) {
    Function *F = CopyOf.at(Orig);
    auto Found = Measures.find(F);
    if (Found == Measures.end())
      continue;
    CopyMeasures &CM = Found->second;
    CM.measureAccesses();
    for (CallInst *CI : CM.fullRowCalls())
      FullRowCallsOf[F].push_back(CI);
    CM.emitFlushes();
    auto [Groups, LaneShaped, Proven, RowsProven, StackedRows, FullRow, Clamped,
          CallersSpace, Gaps, Twins, LaunchDerived] = CM.accessGroups();
    Stats.AccessGroups += Groups;
    Stats.LaneShaped += LaneShaped;
    Stats.ProvenGroups += Proven;
    Stats.RowsProven += RowsProven;
    Stats.Stacked += StackedRows;
    Stats.FullRow += FullRow;
    Stats.Clamped += Clamped;
    Stats.CallersSpace += CallersSpace;
    Stats.Gaps += Gaps;
    Stats.Twins += Twins;
    Stats.LaunchDerived += LaunchDerived;
  }
  for (Function *F : Fns)
    flushAlikePerWarp(*CopyOf.at(F), T, H.BankRow);
  // In the kernels' order, so that the module's order is the same each time.
  SmallPtrSet<const Function *, 8> Rows32, Scattered;
  // Copies whose common body (addRareApart) is one for rows of 32.
  SmallPtrSet<const Function *, 8> RareRows32;
  // Only under a cap: the body's registers are what the cap gains.
  if (T.Target == PASTA_TARGET_NVPTX && Rows32Bodies && MaxRegisters)
    for (Function *F : Fns) {
      Function *Copy = CopyOf.at(F);
      SmallPtrSet<const Function *, 8> Seen;
      auto It = Measures.find(Copy);
      // Launch bounds with a minimum of blocks keep the copy uncapped.
      // A copy measuring a scattered shared atomic gets the body with loops
      // too: its general access path in the loop held histogram's copy at
      // 61 registers (4 blocks of 256 threads per SM), its body for rows
      // of 32 takes 32 with no spill in the loop.
      if (!isKernel(*F) || It == Measures.end() ||
          F->hasFnAttribute("nvvm.minctasm") ||
          (!It->second.rowsInLoops() &&
           !It->second.measuresScatteredAtomics() && reachesLoop(*Copy, Seen)))
        continue;
      if (It->second.measuresScatteredAtomics())
        Scattered.insert(Copy);
      if (auto Calls16 = Rows16Bodies ? It->second.rows16Calls() : std::nullopt;
          Calls16) {
        // A kernel for blocks of two dimensions: rows of 32 take the
        // body for rows of 32, rows of 16 the one for rows of 16.
        auto Calls = It->second.rows32Calls(/*AnyRowTerm=*/true);
        if (Calls && addRows32Body(*Copy, *Calls, H, *Calls16)) {
          Rows32.insert(Copy);
          ++Stats.Rows16;
        }
      } else if (auto Calls = It->second.rows32Calls();
                 Calls && addRows32Body(*Copy, *Calls, H, {},
                                        HostGeneral ? generalCopyName(*F)
                                                    : std::string()))
        Rows32.insert(Copy);
    }
  if (T.Target == PASTA_TARGET_NVPTX)
    for (Function *F : Fns)
      if (isKernel(*F)) {
        addTwinsApart(*CopyOf.at(F), Rows32.contains(CopyOf.at(F)),
                      generalCopyName(*F));
        if (RareApart && !Rows32.contains(CopyOf.at(F))) {
          SmallVector<CallInst *, 8> FullRowCalls;
          for (WeakTrackingVH &V : FullRowCallsOf[CopyOf.at(F)])
            if (auto *CI = dyn_cast_or_null<CallInst>(V);
                CI && CI->getCalledOperand() == H.AccessLanes.getCallee())
              FullRowCalls.push_back(CI);
          bool CommonRows32 = false;
          if (addRareApart(*CopyOf.at(F), H, FullRowCalls, CommonRows32) &&
              CommonRows32)
            RareRows32.insert(CopyOf.at(F));
        }
      }
  if (DivStats) {
    for (auto &[F, Loops] : LoopsOf) {
      Stats.LoopsUniform += Loops->uniformLoops();
      Stats.LoopsBeyond += Loops->uniformLoopsBeyondAnalysis();
    }
    Stats.Rows32 = Rows32.size();
    Stats.Versioned = Versioned;
    Stats.print(M);
  }
  // After the splits: the functions they call keep their rows where they
  // are (rare paths, whose spills a longer-lived row raised).
  for (Function *F : Fns)
    if (isKernel(*F))
      oneBankRow(*CopyOf.at(F));
  SmallPtrSet<const Function *, 4> UncappedCopies;
  for (const Function *F : SmallBlocks)
    UncappedCopies.insert(CopyOf.at(const_cast<Function *>(F)));
  coldGeneralPaths(M, UncappedCopies);
  for (auto &[F, Copy] : CopyOf)
    FAM.invalidate(*Copy, PreservedAnalyses::none());
  if (T.Target == PASTA_TARGET_NVPTX && MaxRegisters)
    for (Function *F : Fns)
      if (isKernel(*F)) {
        bool Small = SmallBlocks.contains(F);
        bool Costly =
            twinTooCostly(*CopyOf.at(F), M.getFunction(generalCopyName(*F)));
        bool Twin = Small ? SmallBlockTwin.getValue() : !Costly;
        if (Twin)
          addUncappedCopy(*F, *CopyOf.at(F));
        else
          addUncappedStub(*F, *CopyOf.at(F));
        addGeneralCopy(*F, *CopyOf.at(F), MaxRegisters,
                       Scattered.contains(CopyOf.at(F)));
        // A copy too costly to compile twice gets no one-lane clone either
        // (the `setup 100` shape of bench/gen_compile_shapes.py, guarded to
        // one thread: its divergence build 18.5 -> 32.6 CPU s with one).
        addOneLaneCopy(*F, *CopyOf.at(F), Serial.contains(F) && !Costly);
        if (!Small || SmallBlockTwin)
          capRegisters(*CopyOf.at(F), MaxRegisters,
                       Rows32.contains(CopyOf.at(F)),
                       Scattered.contains(CopyOf.at(F)),
                       RareRows32.contains(CopyOf.at(F)), onlyDataLoops(*F),
                       onlyFewTripLoops(*F, FAM), stagesSharedTile(*F));
      }
}
