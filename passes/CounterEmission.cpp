//===- CounterEmission.cpp - The counting code of planned functions -------===//
//
// See CounterEmission.h. The host half (flush points, adds, thread-local
// counts) is in CounterEmissionHost.cpp.
//
//===----------------------------------------------------------------------===//
#include "CounterEmission.h"
#include "AtomicLoops.h"
#include "DeviceRuntime.h"
#include "InlineAsmMemory.h"
#include "InstrumentationMD.h"
#include "ThreadExits.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <array>
#include <map>
#include <optional>
#include <vector>

using namespace llvm;
using namespace pasta;
using namespace llvm::PatternMatch;

#define DEBUG_TYPE "pasta"

STATISTIC(NumFunctions, "Functions instrumented");
STATISTIC(NumGuardedLoops,
          "Unbounded loops with 32-bit counters and a wrap guard");
STATISTIC(NumGuardedCounters, "Counters of unbounded loops kept in 32 bits");
STATISTIC(NumInlineFlushes, "Device flush points flushing inline");
STATISTIC(NumOutOfLineFlushes,
          "Device flush points calling the runtime's out-of-line flush");
STATISTIC(NumCountReturns, "Returns handing counts back to the caller");
STATISTIC(NumTripCounts,
          "Loop blocks counted by their loop's trip count at its exit");
STATISTIC(NumCountersInLocalMemory,
          "Loop blocks' counters kept in local memory, beyond the budget");
STATISTIC(NumAtomicLoopCounters,
          "Counters of loops waiting for global atomics kept in local memory");
STATISTIC(NumInvariantTripCounts,
          "Loop blocks under branches their loop does not change, counted "
          "by its trip count at its exit");
STATISTIC(NumCalleeAccumulators,
          "Registers accumulating counts returned by callees");
STATISTIC(
    NumSharedCounters,
    "Block counters added to the register of a block with the same sites");

// Whether the source lane of an inline-PTX shuffle (AsmArithmetic's) was
// in range, as PTX defines shfl.sync's predicate output: with b the lane
// operand, c the clamp, segmask = c[12:8], maxLane = (lane & segmask) |
// (c[4:0] & ~segmask), minLane = lane & segmask: up: lane - b >= maxLane;
// down: lane + b <= maxLane; bfly: (lane ^ b) <= maxLane; idx: minLane |
// (b & ~segmask) <= maxLane.
static Value *shuffleSourceInRange(IRBuilder<> &B, const AsmArithmetic &A) {
  Value *Lane = B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid, {});
  Value *Src = B.CreateAnd(A.Lane, 31);
  Value *Seg = B.CreateAnd(B.CreateLShr(A.Clamp, 8), 31);
  Value *NotSeg = B.CreateXor(Seg, 31);
  Value *Min = B.CreateAnd(Lane, Seg);
  Value *Max = B.CreateOr(Min, B.CreateAnd(A.Clamp, NotSeg));
  switch (A.Mode) {
  case AsmShuffleMode::Up:
    return B.CreateICmpSGE(B.CreateSub(Lane, Src), Max);
  case AsmShuffleMode::Down:
    return B.CreateICmpULE(B.CreateAdd(Lane, Src), Max);
  case AsmShuffleMode::Bfly:
    return B.CreateICmpULE(B.CreateXor(Lane, Src), Max);
  case AsmShuffleMode::Idx:
    return B.CreateICmpULE(B.CreateOr(Min, B.CreateAnd(Src, NotSeg)), Max);
  }
  llvm_unreachable("shuffle mode");
}

// Flush points with at most this many counters live (a site's eight
// run-time address-space counters count as one) flush each inline, in
// registers: a warp sum and a branch per counter, on the fast path and again
// on the general one. Larger ones stage their counts in local memory and
// call the runtime once (__pasta_flush_indexed, with the same fast path);
// bits go from their masks by a loop (__pasta_flush_bits, inlined: as a call
// it raised the kernel's registers). ptxas's time grew with the
// inline flushes, repeated in the working-set copy (a kernel inlining five
// loops: 32 counters, 264 PTX blocks against 67 plain; issue [overhead-3]);
// the bundled kernels flush at most 6 (the reductions, bfs_expand), which
// stay inline: in short kernels the flush is a visible part of the time.
// Without counter placement (PASTA_PLACE_COUNTERS=0) every block and every
// run-time counter counts: 32.
static constexpr uint32_t UnplacedInlineFlushLimit = 32;
static cl::opt<unsigned> InlineFlushLimit(
    "pasta-inline-flush-limit", cl::Hidden, cl::init(8),
    cl::desc("PASTA: device flush points with more counters than this flush "
             "out of line"));

// With N > 0, a kernel's inline exit flush of at least N run-time
// address-space groups takes its general path (partial warps, large counts)
// out of line: the live counters staged, one __pasta_flush_indexed call.
// Written out, that path repeats each group's flush loop after the fast
// path's own in every copy of the kernel (counting, capped, working-set):
// at 8, `generic 14` (14 groups) took 1.07 -> 0.61 s of ptxas, its PTX
// 13,567 -> 7,937 lines. Off by default: on an H200 its fast path ran as
// before, but its launches with a partial warp in every block 7% slower
// and its register-capped copy 46% slower (1,024-thread blocks), which now
// keeps the inline path (splitOnRegisterCap). Device functions keep theirs
// inline.
static cl::opt<unsigned> GroupsOutOfLine(
    "pasta-flush-groups-out-of-line", cl::Hidden, cl::init(0),
    cl::desc("PASTA: a kernel's exit flush of at least this many run-time "
             "address-space groups takes its general path out of line "
             "(0, the default: never)"));

static cl::opt<unsigned> OutOfLineGeneralPath(
    "pasta-flush-general-out-of-line", cl::Hidden, cl::init(5),
    cl::desc("PASTA: the general path of an inline device flush (partial "
             "warps, large counts) of at least this many counters that are "
             "not bits calls the out-of-line flush (0: never)"));

// The grid's first thread asks L2 for the lines of the kernel's counters at
// entry (in bank row 0 and its own block's row), so that the `red`s at exit
// find them there. Only that thread runs it, in the branch to the launch
// count. Off by default: on an H200 under ncu (caches flushed) one-block
// kernels were no faster with it (CUB's single-tile reduction 4.19 us with
// and without; a hand-written one-block sum slower with it).
static cl::opt<bool> PrefetchCounterRows(
    "pasta-prefetch-counter-rows", cl::Hidden, cl::init(false),
    cl::desc("PASTA: the grid's first thread prefetches the lines of the "
             "kernel's counters into L2 at entry"));

// The first thread's launch count inline in its branch instead of an
// out-of-line call (device_rt.c, __pasta_count_launch_inline). On by
// default: no copy's registers pass 32 with it, and one-block kernels end
// sooner without the call (`=0`: the call).
static cl::opt<bool> InlineLaunchCount(
    "pasta-inline-launch-count", cl::Hidden, cl::init(true),
    cl::desc("PASTA: the grid's first thread counts the launch inline, not "
             "through an out-of-line call"));

// The first block's flush of counts alike in every block inline for full
// warps (device_rt.c, __pasta_flush_{bits_,}scaled_inline) instead of a
// call: 1 (the default) its bit counters, 2 its 64-bit counters too (not
// the default: dgemm's counting copy 32 -> 40 registers), 0 neither. In a
// one-block kernel every warp ends in that flush.
static cl::opt<unsigned> InlineFirstBlockFlush(
    "pasta-inline-first-block-flush", cl::Hidden, cl::init(1),
    cl::desc("PASTA: the first thread block flushes the counts alike in "
             "every block inline in full warps (1: bit counters, 2: all), "
             "not through an out-of-line call"));

// Below =2, each 64-bit count of the first block's flush goes through a
// warp's test of it before the out-of-line call (device_rt.c,
// __pasta_flush_scaled_nonzero): the call's own first test, inline. CUB's
// single-tile reduction ends every warp of its one block in six such calls,
// one per tile loop of its two template instantiations, of which only one
// instantiation's loops run (Thrust's test, by ncu's instruction counts:
// three calls of zeros a warp).
static cl::opt<bool> TestScaledFlush(
    "pasta-test-scaled-flush", cl::Hidden, cl::init(true),
    cl::desc("PASTA: a warp whose first-block 64-bit count is zero in every "
             "lane skips the out-of-line flush's call"));

// The grid's first thread counts the launch at its exit (each return, and
// each instruction that ends the thread: ThreadExits.h) instead of at entry.
// Every thread leaves through exactly one of them, once, so the count is
// the same. Why: in a one-block kernel the entry `red` to the counter
// array, a line apart from the kernel's data, delays the first warp and,
// through the block's barriers, every other (on an H200, with caches kept,
// +0.24 us for a `red` at entry against +0.05 us at exit). Off: with caches
// flushed (ncu) the single-tile reduction was 0.16-0.2 us slower with it,
// the `red` waiting for its line at the kernel's very end. Counting builds
// only.
static cl::opt<bool> LaunchCountAtExit(
    "pasta-launch-count-at-exit", cl::Hidden, cl::init(false),
    cl::desc("PASTA: the grid's first thread counts the launch where it "
             "ends, not at the kernel's entry"));

static cl::opt<bool> FirstBlockFastFlush(
    "pasta-first-block-fast-flush", cl::Hidden, cl::init(true),
    cl::desc("PASTA: the first block's flush of two or more counts alike "
             "in every block sums them inline in a full warp of small "
             "counts (__pasta_flush_scaled_fast), calls the flush elsewhere"));

// A full warp's fast flush of small counts sums them all first and then
// adds them from lane 0 in one branch (emitLaneZeroAdds), for the first
// block's 32-bit counts alike in every block and, in counting builds, for
// bit counters. Off: each sum and its own lane-0 branch in turn (ptxas keeps
// each branch with its reconvergence, so the warp waits for every reduction
// in a row). The counts are the same.
static cl::opt<bool> BatchedLaneAdds(
    "pasta-batched-lane-adds", cl::Hidden, cl::init(true),
    cl::desc("PASTA: a full warp's fast flush takes all its warp sums first, "
             "then lane 0 adds them in one branch"));

// At most this many counts a lane-0 branch (emitLaneZeroAdds): each count
// is live from its sum to its add, so a larger batch holds more registers
// there (backprop's bpnn_hidden_kernel, nine alike bits: 31 registers
// before, 36 in batches of 8, 28 in batches of 4).
static cl::opt<unsigned> LaneAddsBatch(
    "pasta-lane-adds-batch", cl::Hidden, cl::init(4),
    cl::desc("PASTA: the most counts a batched flush sums before lane 0's "
             "branch adds them"));

// A batched flush's adds (emitLaneZeroAdds) on NVIDIA GPUs as `red`s
// predicated on lane 0 and a non-zero sum (__pasta_add_from_lane_zero), with
// no branch in the PTX, so that the warp need not wait for a batch's sums
// before its next one. Off by default: ptxas makes each such `red` a branch
// with a reconvergence region of its own, and on an H200 CUB's short
// kernels were no faster (docs/lab/2026-12-01-overhead3-97-short-kernels.md).
// The counts are the same.
static cl::opt<bool> PredicatedLaneAdds(
    "pasta-predicated-lane-adds", cl::Hidden, cl::init(false),
    cl::desc("PASTA: on NVIDIA GPUs a batched flush's adds are predicated "
             "on lane 0, with no branch"));

// The inline flush's fast path in counting builds on NVIDIA GPUs: its
// counters' warp sums first (__pasta_warp_sum_small), then lane 0's
// predicated adds (emitLaneZeroAdds), as the bits' ballots are, instead of
// __pasta_flush_counter_fast per counter, each a sum and a lane-0 branch
// with its reconvergence region, which the warp waited for in turn. Off:
// the per-counter calls. Takes -pasta-predicated-lane-adds too; off by
// default with it (no faster on an H200). The counts are the same.
static cl::opt<bool> BatchedCounterAdds(
    "pasta-batched-counter-adds", cl::Hidden, cl::init(false),
    cl::desc("PASTA: the inline flush's fast path sums its counters first, "
             "then lane 0 adds them under a predicate (counting builds, "
             "NVIDIA GPUs, with -pasta-predicated-lane-adds)"));

static cl::opt<bool> AsmAccessesReturn(
    "pasta-asm-accesses-return", cl::Hidden, cl::init(true),
    cl::desc("PASTA: counted inline-PTX loads and stores return, for the "
             "trip counts and narrowing of the loops holding them"));

static cl::opt<bool> NarrowCounters(
    "pasta-narrow-counters", cl::Hidden, cl::init(true),
    cl::desc("PASTA: keep a loop block's counter in 32 bits where scalar "
             "evolution bounds its runs per call below 2^32"));

// Whether a call may end the thread inside its callee (which the kernel's
// exits do not see): any call but an intrinsic, inline assembly (where it
// ends the thread it is one of the kernel's exits: ThreadExits.h) and the
// runtime's own functions.
static bool mayEndThreadInCallee(const CallBase &Call) {
  if (isa<IntrinsicInst>(Call) || Call.isInlineAsm())
    return false;
  const Function *Callee = Call.getCalledFunction();
  return !Callee || !Callee->getName().starts_with("__pasta_");
}

// Whether kernel P's launch is counted at its exits, not at entry: device
// kernels of counting builds with -pasta-launch-count-at-exit that call no
// function where the first thread could end without reaching one of them
// (those keep the count at entry).
bool CounterEmitter::countsLaunchAtExit(const FunctionPlan &P) const {
  if (!LaunchCountAtExit || !CountingBuild || P.Kind != PASTA_FUNC_KERNEL ||
      T.Target == PASTA_TARGET_HOST)
    return false;
  for (const Instruction &I : instructions(*P.F))
    if (const auto *Call = dyn_cast<CallBase>(&I);
        Call && mayEndThreadInCallee(*Call))
      return false;
  return true;
}

// The launch count of kernel P at B's insertion point: the grid's first
// thread adds 1 to counter 0 (and the launch's threads to P.ThreadsCounter
// where a derived count needs them), prefetching the counter rows first
// when Prefetch is set.
void CounterEmitter::emitLaunchCount(IRBuilder<> &B, const FunctionPlan &P,
                                     bool Prefetch) {
  Type *I32 = B.getInt32Ty();
  Type *I64 = B.getInt64Ty();
  PointerType *Global = PointerType::get(Ctx, 1);
  auto BankZero = [&](uint32_t Local) {
    return B.CreateConstInBoundsGEP1_32(I64, T.Counters,
                                        P.FirstCounter + Local);
  };
  // The row's stride and banks, and how many counters from the first to
  // prefetch (0: none).
  Value *Rows[] = {B.getInt32(T.NumCounters), B.getInt32(T.numBanks()),
                   B.getInt32(Prefetch ? P.NumCounters : 0)};
  bool Inline = InlineLaunchCount && CountingBuild;
  if (P.ThreadsCounter != PASTA_NONE)
    B.CreateCall(
        M.getOrInsertFunction(Inline ? CountLaunchThreadsInlineName
                                     : CountLaunchThreadsName,
                              B.getVoidTy(), Global, Global, I32, I32, I32),
        {BankZero(0), BankZero(P.ThreadsCounter), Rows[0], Rows[1], Rows[2]});
  else
    B.CreateCall(
        M.getOrInsertFunction(Inline ? CountLaunchInlineName : CountLaunchName,
                              B.getVoidTy(), Global, I32, I32, I32),
        {BankZero(0), Rows[0], Rows[1], Rows[2]});
}

// The local counters that can be non-zero when the function leaves through
// Exit: those counted in blocks from which Exit is reachable (a block that
// cannot reach Exit never ran on a path that ends there), and the call
// counter (not for kernels, whose launches the first thread counts apart,
// nor for twins whose calls the host derives: CalleeCounts.h).
SmallVector<uint32_t, 16> CounterEmitter::liveCounters(const FunctionPlan &P,
                                                       BasicBlock *Exit) const {
  SmallPtrSet<BasicBlock *, 32> Reaching{Exit};
  SmallVector<BasicBlock *, 32> Work{Exit};
  while (!Work.empty())
    for (BasicBlock *Pred : predecessors(Work.pop_back_val()))
      if (Reaching.insert(Pred).second)
        Work.push_back(Pred);
  SmallVector<uint32_t, 16> Live;
  if (P.Kind != PASTA_FUNC_KERNEL &&
      !(Returned && Returned->CallsCounterDerived.count(P.F)))
    Live.push_back(0);
  for (const CountedBlock &CB : P.Blocks) {
    if (!Reaching.count(CB.BB))
      continue;
    if (CB.Measured && !InPlace.count(CB.Counter))
      Live.push_back(CB.Counter);
    for (uint32_t Dyn : CB.DynCounters)
      for (uint32_t I = 0; I < PASTA_DYN_NUM; ++I)
        Live.push_back(Dyn + I);
    append_range(Live, CB.BytesCounters);
  }
  llvm::sort(Live); // blocks sharing a counter (shareLikeCounters): once
  Live.erase(std::unique(Live.begin(), Live.end()), Live.end());
  for (uint32_t I = 0; I < Carried.size(); ++I) // always live, maybe zero
    Live.push_back(NumOwn + I);
  return Live;
}

// The module counter a counter of the function being emitted adds to: its
// own, or one it accumulates for a function it calls.
uint32_t CounterEmitter::globalIndex(const FunctionPlan &P,
                                     uint32_t Counter) const {
  return Counter < NumOwn ? P.FirstCounter + Counter
                          : Carried[Counter - NumOwn];
}

// After each call of a function that returns its counts: one more call of
// it, and its counts, added to this function's registers.
void CounterEmitter::addCalleeCounts(const FunctionPlan &P) {
  if (!Returned)
    return;
  auto Calls = Returned->CallsIn.find(P.F);
  if (Calls == Returned->CallsIn.end())
    return;
  auto LocalOf = [&](uint32_t Global) {
    return NumOwn +
           static_cast<uint32_t>(find(Carried, Global) - Carried.begin());
  };
  for (CallInst *CI : Calls->second) {
    const CountReturn &CR =
        Returned->Returns.find(CI->getCalledFunction())->second;
    IRBuilder<> B(CI->getNextNode());
    auto Add = [&](uint32_t Global, Value *V) {
      AllocaInst *Slot = Slots[LocalOf(Global)];
      B.CreateStore(B.CreateAdd(B.CreateLoad(B.getInt64Ty(), Slot), V), Slot);
    };
    if (!Returned->CallsDerived.count(CI))
      Add(CR.CallsCounter, B.getInt64(1));
    SmallVector<size_t, 8> Cold = addColdCarriedCounts(
        CI, CR, [&](uint32_t Global) { return Slots[LocalOf(Global)]; });
    for (size_t K = 0; K < CR.Global.size(); ++K)
      if (!is_contained(Cold, K))
        Add(CR.Global[K], B.CreateExtractValue(CI, CR.firstCount() + K));
  }
}

// The counter of the function being emitted that adds to the module
// counter Global: its own, or one it keeps for a callee.
uint32_t CounterEmitter::localIndex(const FunctionPlan &P,
                                    uint32_t Global) const {
  if (Global >= P.FirstCounter && Global < P.FirstCounter + NumOwn)
    return Global - P.FirstCounter;
  return NumOwn +
         static_cast<uint32_t>(find(Carried, Global) - Carried.begin());
}

// The frame parameter Frame at B, in the local address space on NVPTX
// (the frame is in the caller's local memory: local loads and stores, not
// generic ones).
static Value *localFrame(IRBuilder<> &B, Value *Frame, pasta_target Target) {
  if (Target == PASTA_TARGET_NVPTX &&
      Frame->getType()->getPointerAddressSpace() == 0)
    return B.CreateAddrSpaceCast(Frame, PointerType::get(B.getContext(), 5));
  return Frame;
}

// Frame[K] += V.
static void addToSlot(IRBuilder<> &B, Type *FrameTy, Value *Frame, size_t K,
                      Value *V) {
  Value *Slot = B.CreateConstInBoundsGEP2_32(FrameTy, Frame, 0, K);
  B.CreateStore(B.CreateAdd(B.CreateLoad(B.getInt64Ty(), Slot), V), Slot);
}

// Each bit (frame slot, bit) of a run group gets Runs where Mask has it.
static void settleRuns(IRBuilder<> &B, Type *FrameTy, Value *Frame,
                       ArrayRef<std::pair<size_t, int>> Bits, Value *Mask,
                       Value *Runs) {
  for (auto [K, Bit] : Bits)
    addToSlot(B, FrameTy, Frame, K,
              B.CreateMul(B.CreateAnd(B.CreateLShr(Mask, Bit), 1), Runs));
}

// A return of a frame twin (CalleeCounts.h, step 3): each count that may be
// non-zero there added into its slot of the caller's frame; with run groups
// (CountFrame), the bits of each mask as one run of that mask.
void CounterEmitter::addToFrame(ReturnInst *RI, const FunctionPlan &P,
                                const CountFrame &Frame) {
  SmallVector<uint32_t, 16> Live = liveCounters(P, RI->getParent());
  IRBuilder<> B(RI);
  Function &F = *P.F;
  Value *Base = localFrame(B, F.getArg(F.arg_size() - 1), T.Target);
  size_t N = Frame.Global.size();
  Type *FrameTy = ArrayType::get(B.getInt64Ty(), N + 2 * Frame.RunGroups);
  MapVector<AllocaInst *, SmallVector<std::pair<size_t, int>, 32>> Groups;
  // Every return groups every bit, live there or not (a bit of a block
  // that does not reach it is zero there): the same groups in the same
  // slots at each return and in Settle.
  for (size_t K = 0; K < N; ++K) {
    uint32_t C = localIndex(P, Frame.Global[K]);
    if (BitOf[C] >= 0 &&
        (Groups.count(Slots[C]) || Groups.size() < Frame.RunGroups))
      Groups[Slots[C]].push_back({K, BitOf[C]});
    else if (is_contained(Live, C))
      addToSlot(B, FrameTy, Base, K, loadCount(B, C));
  }
  unsigned G = 0;
  for (auto &[Mask, Bits] : Groups) {
    size_t MaskAt = N + 2 * G++;
    uint64_t Used = 0;
    for (auto [K, Bit] : Bits)
      Used |= uint64_t(1) << Bit;
    Value *M =
        B.CreateAnd(B.CreateZExt(B.CreateLoad(Mask->getAllocatedType(), Mask),
                                 B.getInt64Ty()),
                    Used);
    Value *MaskSlot = B.CreateConstInBoundsGEP2_32(FrameTy, Base, 0, MaskAt);
    Value *RunsSlot =
        B.CreateConstInBoundsGEP2_32(FrameTy, Base, 0, MaskAt + 1);
    Value *Pending = B.CreateLoad(B.getInt64Ty(), MaskSlot);
    Value *Runs = B.CreateLoad(B.getInt64Ty(), RunsSlot);
    Instruction *Same, *Other;
    SplitBlockAndInsertIfThenElse(B.CreateICmpEQ(M, Pending), RI->getIterator(),
                                  &Same, &Other);
    markInstrumentation(
        Same->getParent()->getSinglePredecessor()->getTerminator());
    IRBuilder<> S(Same);
    S.CreateStore(S.CreateAdd(Runs, S.getInt64(1)), RunsSlot);
    IRBuilder<> O(Other);
    settleRuns(O, FrameTy, Base, Bits, Pending, Runs);
    O.CreateStore(M, MaskSlot);
    O.CreateStore(O.getInt64(1), RunsSlot);
    B.SetInsertPoint(RI);
  }
  if (!Frame.Settle || !isa<ReturnInst>(Frame.Settle->getEntryBlock().front()))
    return; // no run groups, or filled at another return
  // At the owner's exit: the pending runs of each group added to its bits.
  IRBuilder<> E(Frame.Settle->getEntryBlock().getTerminator());
  Value *Owned = localFrame(E, Frame.Settle->getArg(0), T.Target);
  G = 0;
  for (auto &[Mask, Bits] : Groups) {
    size_t MaskAt = N + 2 * G++;
    Value *Pending =
        E.CreateLoad(E.getInt64Ty(),
                     E.CreateConstInBoundsGEP2_32(FrameTy, Owned, 0, MaskAt));
    Value *Runs = E.CreateLoad(
        E.getInt64Ty(),
        E.CreateConstInBoundsGEP2_32(FrameTy, Owned, 0, MaskAt + 1));
    settleRuns(E, FrameTy, Owned, Bits, Pending, Runs);
  }
}

// At Exit, one of P.F's exits (emitFlush runs at no other point): each
// frame it owns (CalleeCounts.h, step 3) goes to the runtime's indexed
// flush itself, with its slots' counter indices: no copy of its counts in
// registers or staging (ptxas loads such copies together, as in
// flushArrayDirectly: AutoDock's gradient_minAD, 64 registers, spilled
// 264 B more with them).
void CounterEmitter::flushFrames(Instruction *Exit) {
  if (!Returned || Returned->Frames.empty())
    return;
  IRBuilder<> B(Exit);
  SmallPtrSet<Value *, 4> Flushed;
  for (Instruction &I : instructions(*Exit->getFunction())) {
    auto *CI = dyn_cast<CallInst>(&I);
    auto It = CI ? Returned->Frames.find(CI->getCalledFunction())
                 : Returned->Frames.end();
    if (It == Returned->Frames.end())
      continue;
    Value *Frame = CI->getArgOperand(CI->arg_size() - 1);
    if (!Flushed.insert(Frame).second)
      continue;
    if (Function *Settle = It->second.Settle)
      B.CreateCall(Settle, {Frame});
    ArrayRef<uint32_t> Global = It->second.Global;
    FunctionCallee Flush = M.getOrInsertFunction(
        DeviceFlushIndexedName, B.getVoidTy(), PointerType::get(Ctx, 1),
        B.getInt32Ty(), B.getInt32Ty(), B.getInt32Ty(),
        PointerType::get(Ctx, 0), PointerType::get(Ctx, 1), B.getInt32Ty());
    B.CreateCall(Flush, {T.Counters, B.getInt32(T.NumCounters),
                         B.getInt32(T.numBanks()), B.getInt32(0),
                         B.CreatePointerCast(Frame, PointerType::get(Ctx, 0)),
                         indexTable(Global, "__pasta_flush_indices"),
                         B.getInt32(Global.size())});
  }
}

// A return of a function that returns its counts: after its value, its own
// counts that may be non-zero there (zero for the others), then those it
// accumulated for its callees.
void CounterEmitter::returnCounts(ReturnInst *RI, const FunctionPlan &P,
                                  const CountReturn &CR) {
  if (CR.Global.empty() && !CR.HasValue)
    return; // it stayed void (CalleeCounts.cpp, retype)
  SmallVector<uint32_t, 16> Live = liveCounters(P, RI->getParent());
  IRBuilder<> B(RI);
  Value *Agg = RI->getReturnValue();
  unsigned Pos = CR.firstCount();
  for (uint32_t C : CR.Own)
    Agg = B.CreateInsertValue(
        Agg, is_contained(Live, C) ? loadCount(B, C) : B.getInt64(0), Pos++);
  for (uint32_t I = 0; I < Carried.size(); ++I)
    Agg = B.CreateInsertValue(Agg, loadCount(B, NumOwn + I), Pos++);
  assert(Pos == CR.firstCount() + CR.Global.size() && "returned counts");
  RI->setOperand(0, Agg);
  ++NumCountReturns;
}

// The count Slot holds, with its part parked after its loop, if any
// (parkCountsAfterLoops).
Value *CounterEmitter::loadWhole(IRBuilder<> &B, AllocaInst *Slot) const {
  Value *V = B.CreateLoad(Slot->getAllocatedType(), Slot);
  if (AllocaInst *Park = ParkedOf.lookup(Slot))
    V = B.CreateAdd(V, B.CreateLoad(Park->getAllocatedType(), Park));
  return V;
}

// A counter's value, 64 bits wide (from its bit, for blocks counted in one).
Value *CounterEmitter::loadCount(IRBuilder<> &B, uint32_t Counter) const {
  AllocaInst *Slot = Slots[Counter];
  Value *V = loadWhole(B, Slot);
  if (BitOf[Counter] >= 0)
    V = B.CreateAnd(B.CreateLShr(V, BitOf[Counter]), 1);
  return B.CreateZExt(V, B.getInt64Ty());
}

// Counts one more execution of Counter's block.
void CounterEmitter::emitIncrement(IRBuilder<> &B, uint32_t Counter) {
  AllocaInst *Slot = Slots[Counter];
  Type *Ty = Slot->getAllocatedType();
  Value *Old = B.CreateLoad(Ty, Slot);
  Value *New = BitOf[Counter] >= 0
                   ? B.CreateOr(Old, ConstantInt::get(Ty, 1u << BitOf[Counter]))
                   : B.CreateAdd(Old, ConstantInt::get(Ty, 1));
  B.CreateStore(New, Slot);
}

// The bits of Live whose block one lane of a warp runs (OneLane) are
// flushed at Exit by that lane itself: a test of its bit and, if set, a
// `red` of 1, with no warp sum, no full-warp test and no vote. The warp
// sum cost more than the count: in the reductions, warps 1-7 leave with one
// bit (`lane == 0`'s store of the warp's partial), and its flush (the warp's
// or of the mask, a ballot, a population count, lane 0's test) was most of
// what those warps ran beyond the plain kernel. Exact in any warp, full or
// partial: each lane adds its own. Returns the bank row where it made one
// (Rest, the other counters, flush from the same row), with Rest filled.
Value *CounterEmitter::flushOwnLanes(Instruction *Exit, const FunctionPlan &P,
                                     ArrayRef<uint32_t> Live,
                                     SmallVectorImpl<uint32_t> &Rest) {
  SmallVector<uint32_t, 8> Own;
  for (uint32_t C : Live)
    (BitOf[C] >= 0 && OneLane.count(C) ? Own : Rest).push_back(C);
  if (Own.empty())
    return nullptr;
  IRBuilder<> B(Exit);
  Type *I32 = B.getInt32Ty();
  PointerType *Global = PointerType::get(Ctx, 1);
  Value *Row = B.CreateCall(
      M.getOrInsertFunction(BankRowName, Global, Global, I32, I32),
      {T.Counters, B.getInt32(T.NumCounters), B.getInt32(T.numBanks())});
  FunctionCallee Flush =
      M.getOrInsertFunction(FlushBitLaneName, B.getVoidTy(), Global, I32, I32);
  for (uint32_t C : Own)
    B.CreateCall(Flush, {B.CreateConstInBoundsGEP1_32(B.getInt64Ty(), Row,
                                                      globalIndex(P, C)),
                         B.CreateLoad(I32, Slots[C]),
                         B.getInt32(static_cast<uint32_t>(BitOf[C]))});
  return Row;
}

// The counters of P's run-time address-space groups that no site adds to:
// a group's four store counters where its sites only load, its four load
// counters where they only store. They stay zero: no flush sums them (a warp
// sum of a constant zero is not folded: moderngpu's segreduce twin summed
// four zeros at every return, after every warp's vote found its loads).
static DenseSet<uint32_t> neverAdded(const FunctionPlan &P) {
  DenseMap<uint32_t, std::pair<bool, bool>> LoadsStores; // by group start
  for (const CountedBlock &CB : P.Blocks)
    for (const GenericSite &G : CB.Generic) {
      auto &[Loads, Stores] = LoadsStores[G.Dyn];
      (G.What.IsStore ? Stores : Loads) = true;
    }
  DenseSet<uint32_t> Never;
  for (const CountedBlock &CB : P.Blocks)
    for (uint32_t Dyn : CB.DynCounters) {
      auto [Loads, Stores] = LoadsStores.lookup(Dyn);
      for (uint32_t I = 0; I < PASTA_DYN_NUM; ++I)
        if (!(I < PASTA_DYN_ST_SHARED ? Loads : Stores))
          Never.insert(Dyn + I);
    }
  return Never;
}

// Inline device flush of the counters Live at Exit. Where only cold edges
// are counted, a warp with nothing to flush skips it all. One test picks the
// fast path for the usual case, a full warp whose counts are all small: then
// each counter costs one warp sum and, if non-zero, one `red` by lane 0, and
// the counters kept in bits of one mask share a warp sum four at a time (a warp
// sum is what costs most in short kernels). Bits never make a count large,
// so only the other counters enter the test. The general path handles
// partial warps and large counts.
void CounterEmitter::emitInlineFlush(Instruction *Exit, FunctionPlan &P,
                                     ArrayRef<uint32_t> AllLive, Value *Row) {
  ++NumInlineFlushes;
  SmallVector<uint32_t, 16> Live;
  Value *Base = flushOwnLanes(Exit, P, AllLive, Live);
  if (!Base)
    Base = Row;
  if (Live.empty())
    return;
  if (countsOnlyColdEdges(P, Live))
    Exit = skipIfAllZero(Exit, Live); // the flush goes before its branch
  IRBuilder<> B(Exit);
  Type *I64 = B.getInt64Ty(), *I32 = B.getInt32Ty();
  PointerType *Global = PointerType::get(Ctx, 1);
  Value *Any = nullptr;
  for (uint32_t I : Live)
    if (BitOf[I] < 0) {
      Value *V = loadCount(B, I);
      Any = Any ? B.CreateOr(Any, V) : V;
    }
  if (!Base)
    Base = B.CreateCall(
        M.getOrInsertFunction(BankRowName, Global, Global, I32, I32),
        {T.Counters, B.getInt32(T.NumCounters), B.getInt32(T.numBanks())});
  Value *FastTest =
      Any ? B.CreateCall(M.getOrInsertFunction(FlushIsFastName, I64, I64),
                         {Any})
          : B.CreateCall(M.getOrInsertFunction(FlushIsFullWarpName, I64));
  Value *Fast = B.CreateICmpNE(FastTest, B.getInt64(0));
  Instruction *FastT, *SlowT;
  SplitBlockAndInsertIfThenElse(Fast, Exit->getIterator(), &FastT, &SlowT);
  markInstrumentation(
      FastT->getParent()->getSinglePredecessor()->getTerminator());
  auto SlotOf = [&](IRBuilder<> &FB, uint32_t Counter) {
    return FB.CreateConstInBoundsGEP1_32(I64, Base, globalIndex(P, Counter));
  };
  // The run-time address-space counters of a site come in groups of
  // PASTA_DYN_NUM that are almost always all zero: one test skips a group.
  static_assert(PASTA_DYN_NUM == 8, "the group flush takes 8 values");
  DenseSet<uint32_t> GroupStarts;
  for (const CountedBlock &CB : P.Blocks)
    GroupStarts.insert(CB.DynCounters.begin(), CB.DynCounters.end());
  DenseSet<uint32_t> Never = neverAdded(P);
  FunctionCallee FlushAny = M.getOrInsertFunction(FlushAnyName, I64, I64);
  auto FlushAll = [&](Instruction *At, const char *One, const char *Group,
                      const char *Half, bool PackBits) {
    IRBuilder<> FB(At);
    FunctionCallee FlushOne =
        M.getOrInsertFunction(One, FB.getVoidTy(), Global, I64);
    SmallVector<Type *, 9> GroupArgs{Global};
    GroupArgs.append(PASTA_DYN_NUM, I64);
    FunctionCallee FlushGroup = M.getOrInsertFunction(
        Group, FunctionType::get(FB.getVoidTy(), GroupArgs, false));
    // A group's half that its sites add to (four counters in a row): one
    // vote skips it, as the group flush skips all eight. At a kernel's exit
    // (once per thread) the runtime's loop flushes the four: written out,
    // they doubled ptxas's time on kernels with many such groups (the ray
    // tracer's render). At a device function's return, run at every call,
    // they stay written out: the loop made cities' lbs_segreduce, whose
    // segreduce twin flushes at each return, 2% slower on the H200.
    SmallVector<Type *, 5> HalfArgs{Global};
    HalfArgs.append(PASTA_DYN_NUM / 2, I64);
    FunctionCallee FlushHalf = M.getOrInsertFunction(
        Half, FunctionType::get(FB.getVoidTy(), HalfArgs, false));
    auto FlushHalfInline = [&](ArrayRef<uint32_t> Counters) {
      Value *Any = nullptr;
      for (uint32_t C : Counters) {
        Value *V = loadCount(FB, C);
        Any = Any ? FB.CreateOr(Any, V) : V;
      }
      Instruction *Next = &*FB.GetInsertPoint();
      Instruction *Then = SplitBlockAndInsertIfThen(
          FB.CreateICmpNE(FB.CreateCall(FlushAny, {Any}), FB.getInt64(0)),
          Next->getIterator(), /*Unreachable=*/false);
      markInstrumentation(
          Then->getParent()->getSinglePredecessor()->getTerminator());
      IRBuilder<> TB(Then);
      for (uint32_t C : Counters)
        TB.CreateCall(FlushOne, {SlotOf(TB, C), loadCount(TB, C)});
      FB.SetInsertPoint(Next); // now in the block after the test
    };
    MapVector<AllocaInst *, SmallVector<uint32_t, 8>> BitsByMask;
    // The fast path's counters, summed first and added together where
    // their adds are predicated (BatchedCounterAdds).
    bool Batched = PackBits && BatchedCounterAdds && BatchedLaneAdds &&
                   PredicatedLaneAdds && CountingBuild &&
                   T.Target == PASTA_TARGET_NVPTX;
    SmallVector<uint32_t, 8> Summed;
    for (size_t K = 0; K < Live.size(); ++K) {
      uint32_t C = Live[K];
      if (PackBits && BitOf[C] >= 0) {
        BitsByMask[Slots[C]].push_back(C);
        continue;
      }
      if (!GroupStarts.count(C)) {
        if (Batched)
          Summed.push_back(C);
        else
          FB.CreateCall(FlushOne, {SlotOf(FB, C), loadCount(FB, C)});
        continue;
      }
      ArrayRef<uint32_t> Members(&Live[K], PASTA_DYN_NUM);
      K += PASTA_DYN_NUM - 1;
      SmallVector<uint32_t, 8> Added;
      copy_if(Members, std::back_inserter(Added),
              [&](uint32_t D) { return !Never.count(D); });
      if (Added.size() < Members.size()) {
        if (Added.empty())
          continue; // nothing adds to the group: nothing to flush
        // The runtime's loop takes one half, four counters in a row (a
        // group's sites add to its load or its store half); anything else
        // is written out, as at a device function's return.
        bool OneHalf = Added.size() == PASTA_DYN_NUM / 2 &&
                       Added.back() == Added.front() + PASTA_DYN_NUM / 2 - 1;
        assert(OneHalf && "a group's sites add to its load or its store half");
        if (P.Kind != PASTA_FUNC_KERNEL || !OneHalf) {
          FlushHalfInline(Added);
          continue;
        }
        SmallVector<Value *, 5> Args{SlotOf(FB, Added.front())};
        for (uint32_t D : Added)
          Args.push_back(loadCount(FB, D));
        FB.CreateCall(FlushHalf, Args);
        continue;
      }
      SmallVector<Value *, 9> Args{SlotOf(FB, C)};
      for (uint32_t D : Members)
        Args.push_back(loadCount(FB, D));
      FB.CreateCall(FlushGroup, Args);
    }
    if (!Summed.empty()) {
      FunctionCallee WarpSum =
          M.getOrInsertFunction(WarpSumSmallName, I32, I64);
      emitLaneZeroAdds(
          FB, Summed.size(),
          [&](IRBuilder<> &CB, size_t K) {
            return CB.CreateCall(WarpSum, {loadCount(CB, Summed[K])});
          },
          [&](IRBuilder<> &CB, size_t K) { return SlotOf(CB, Summed[K]); },
          nullptr);
    }
    for (auto &[Mask, Counters] : BitsByMask)
      emitBitFlushFast(FB, Mask, Counters, SlotOf);
  };
  FlushAll(FastT, FlushCounterFastName, FlushGroupFastName, FlushHalfFastName,
           true);
  // The general path out of line where there are many counts: inline, it
  // shared the counters' 64-bit values and their slots' addresses with the
  // fast path, which ptxas computed ahead of the branch (HeCBench
  // stencil3d's counting copy, 6 counts: 56 registers, 48 so, plain 40).
  // Partial warps and large counts take it, rarely. Not for few counts: a
  // call costs ptxas's calling convention (at least 32 registers) and a
  // stack frame, and the reductions' copies went 23 -> 32 registers.
  // Many groups (GroupsOutOfLine): out of line too, without the counters
  // no site adds to.
  size_t Groups =
      count_if(Live, [&](uint32_t C) { return GroupStarts.count(C); });
  if (OutOfLineGeneralPath && P.Placed &&
      count_if(Live, [&](uint32_t C) { return BitOf[C] < 0; }) >=
          OutOfLineGeneralPath &&
      !Groups) {
    emitIndexedFlush(SlowT, P, Live);
  } else if (GroupsOutOfLine && P.Placed && P.Kind == PASTA_FUNC_KERNEL &&
             Groups >= GroupsOutOfLine) {
    SmallVector<uint32_t, 16> Added(Live);
    erase_if(Added, [&](uint32_t C) { return Never.count(C); });
    auto [OutOfLine, Inline] = splitOnRegisterCap(SlowT);
    emitGroupsIndexedFlush(OutOfLine, P, Added, GroupStarts);
    FlushAll(Inline, FlushCounterName, FlushGroupName, FlushHalfName, false);
  } else {
    FlushAll(SlowT, FlushCounterName, FlushGroupName, FlushHalfName, false);
  }
}

// A counter of a kernel's loop holds a register from the loop on to the
// kernel's exit flush, through the loops after it that never add to it:
// decoding_attention's dmha_fwd_kernel (issue [overhead-3]) carried six
// counts of its first three loops through its fourth, where ptxas then
// loaded each trip's second 16-byte row only after the first had arrived
// (two memory waits a trip instead of one; 53 registers against the plain
// kernel's 47, the kernel 1.31x). Parked in local memory at the loop's exit
// (one load and store there, a load at the flush), they leave the later
// loops' registers alone: 47, the rows loaded together again, 1.04x on an
// H200, with the same counts (its profile compared with the build before).
static cl::opt<bool> ParkAfterLoops(
    "pasta-park-counts-after-loops", cl::Hidden, cl::init(true),
    cl::desc("PASTA: a kernel's counters of an outermost loop, added to "
             "nowhere after it, wait in local memory for the exit flush "
             "while later loops run"));

static cl::opt<unsigned> ParkLoopUnits(
    "pasta-park-loop-units", cl::Hidden, cl::init(32),
    cl::desc("PASTA: counters are parked (-pasta-park-counts-after-loops) "
             "only ahead of a loop whose plain values live at its header "
             "take at least this many 32-bit registers"));

static unsigned unitsLiveIntoLoop(const Loop &L, const DataLayout &DL);

// Whether every access of Slot is in L, in its exit block Exit, or is the
// entry block's store of the initial 0.
static bool accessedOnlyIn(AllocaInst *Slot, const Loop &L,
                           const BasicBlock *Exit) {
  const BasicBlock *Entry = &Slot->getFunction()->getEntryBlock();
  return all_of(Slot->users(), [&](const User *U) {
    const auto *I = dyn_cast<Instruction>(U);
    if (!I || !(isa<LoadInst>(I) || isa<StoreInst>(I)))
      return false;
    if (const auto *S = dyn_cast<StoreInst>(I)) {
      if (S->getPointerOperand() != Slot)
        return false;
      if (I->getParent() == Entry && match(S->getValueOperand(), m_Zero()))
        return true;
    }
    return L.contains(I) || I->getParent() == Exit;
  });
}

// Counters of an outermost loop L whose only exit block is in no loop and
// from which another outermost loop can be reached, and that nothing adds
// to outside L and that exit block (where a trip count may be added), are
// parked there: their count moves to a local-memory slot and the register
// restarts from 0, dead through the later loops; the flush sums both
// (loadWhole). Not bits (one register holds many), nor counters that a
// guard or an earlier flush reads (accessedOnlyIn).
void CounterEmitter::parkCountsAfterLoops(FunctionPlan &P,
                                          ArrayRef<AllocaInst *> Registers) {
  Function &F = *P.F;
  FAM.invalidate(F, PreservedAnalyses::none());
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  DenseSet<AllocaInst *> Masks, Guarded;
  for (size_t C = 0; C < Slots.size(); ++C) {
    if (!Slots[C])
      continue;
    if (BitOf[C] >= 0)
      Masks.insert(Slots[C]);
    if (GuardedCounters.count(C))
      Guarded.insert(Slots[C]);
  }
  const DataLayout &DL = M.getDataLayout();
  for (Loop *L : LI) {
    BasicBlock *Exit = L->getExitBlock();
    auto Crowded = [&](Loop *Later) {
      return Later != L && unitsLiveIntoLoop(*Later, DL) >= ParkLoopUnits &&
             isPotentiallyReachable(Exit, Later->getHeader(), nullptr, &DT,
                                    &LI);
    };
    if (!Exit || LI.getLoopFor(Exit) || none_of(LI, Crowded))
      continue;
    IRBuilder<> B(Exit->getTerminator());
    IRBuilder<> EntryB(&*F.getEntryBlock().getFirstInsertionPt());
    for (AllocaInst *Slot : Registers) {
      if (Masks.count(Slot) || Guarded.count(Slot) || ParkedOf.count(Slot) ||
          is_contained(ColdSpaceSlots, Slot) ||
          !any_of(Slot->users(),
                  [&](const User *U) {
                    return isa<StoreInst>(U) &&
                           L->contains(cast<Instruction>(U));
                  }) ||
          !accessedOnlyIn(Slot, *L, Exit))
        continue;
      Type *Ty = Slot->getAllocatedType();
      AllocaInst *Park = EntryB.CreateAlloca(Ty, DL.getAllocaAddrSpace(),
                                             nullptr, "pasta.parked");
      EntryB.CreateStore(ConstantInt::get(Ty, 0), Park);
      B.CreateStore(B.CreateAdd(B.CreateLoad(Ty, Park), B.CreateLoad(Ty, Slot)),
                    Park);
      B.CreateStore(ConstantInt::get(Ty, 0), Slot);
      ParkedOf[Slot] = Park;
      Parked.push_back(Park);
    }
  }
}

// The counters of Live whose blocks run alike in every thread block
// (BlockInvariance.h) are flushed at Exit by the grid's first thread block
// alone (its bank is row 0), each warp sum times the number of thread
// blocks; the rest of the grid skips them. Out of line: one call per four
// bit counters (one warp sum), one per 64-bit counter, row 0's slots as
// arguments; inlined, the flush raised the register count of every thread
// block. Returns the other counters of Live.
SmallVector<uint32_t, 16>
CounterEmitter::flushAlikeFromFirstBlock(Instruction *Exit, FunctionPlan &P,
                                         ArrayRef<uint32_t> Live) {
  DenseSet<uint32_t> Alike;
  for (const CountedBlock &CB : P.Blocks)
    if (CB.AlikeInEveryBlock)
      Alike.insert(CB.Counter);
  SmallVector<uint32_t, 16> Same, Rest;
  for (uint32_t C : Live)
    (Alike.count(C) ? Same : Rest).push_back(C);
  if (Same.empty())
    return Rest;
  IRBuilder<> B(Exit);
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  PointerType *Global = PointerType::get(Ctx, 1);
  Value *Scale =
      B.CreateCall(M.getOrInsertFunction(FirstBlockScaleName, I64), {});
  Instruction *Then = SplitBlockAndInsertIfThen(
      B.CreateICmpNE(Scale, B.getInt64(0)), Exit->getIterator(),
      /*Unreachable=*/false);
  markInstrumentation(
      Then->getParent()->getSinglePredecessor()->getTerminator());
  IRBuilder<> TB(Then);
  unsigned Inline = CountingBuild ? unsigned(InlineFirstBlockFlush) : 0;
  StringRef FlushOneName = Inline >= 2 ? FlushScaledInlineName
                           : CountingBuild && TestScaledFlush
                               ? FlushScaledNonzeroName
                               : FlushScaledName;
  FunctionCallee FlushOne =
      M.getOrInsertFunction(FlushOneName, TB.getVoidTy(), Global, I64, I64);
  SmallVector<Type *, 11> BitsParams{Global, Global, Global, Global, I32, I32,
                                     I32,    I32,    I32,    I32,    I64};
  FunctionCallee FlushBits = M.getOrInsertFunction(
      Inline >= 1 ? FlushBitsScaledInlineName : FlushBitsScaledName,
      FunctionType::get(TB.getVoidTy(), BitsParams, false));
  auto RowZero = [&](uint32_t C) {
    return TB.CreateConstInBoundsGEP1_32(I64, T.Counters, P.FirstCounter + C);
  };
  MapVector<AllocaInst *, SmallVector<uint32_t, 32>> ByMask;
  SmallVector<uint32_t, 8> Wide; // 64-bit counters
  for (uint32_t C : Same) {
    if (BitOf[C] >= 0)
      ByMask[Slots[C]].push_back(C);
    else
      Wide.push_back(C);
  }
  // Several tested counts: one ballot of all of them first, so that a warp
  // whose every count is zero (a kernel whose alike loops did not run)
  // skips them all in one test.
  if (FlushOneName == FlushScaledNonzeroName && Wide.size() >= 2) {
    Value *Any = nullptr;
    for (uint32_t C : Wide) {
      Value *V = loadCount(TB, C);
      Any = Any ? TB.CreateOr(Any, V) : V;
    }
    Value *AnyWide = TB.CreateICmpNE(
        TB.CreateCall(M.getOrInsertFunction(FlushAnyName, I64, I64), {Any}),
        TB.getInt64(0));
    Instruction *WideThen = SplitBlockAndInsertIfThen(
        AnyWide, TB.GetInsertPoint(), /*Unreachable=*/false);
    markInstrumentation(
        WideThen->getParent()->getSinglePredecessor()->getTerminator());
    IRBuilder<> WB(WideThen);
    // Counts all kept in 32 bits (narrowCounters; CUB's tile loops): a full
    // warp of small counts sums each inline. Not where one is 64-bit: lud's
    // first blocks (one 64-bit count) ran 0.8% slower so on the H200,
    // and its PTX stays as it was.
    bool AllNarrow = all_of(Wide, [&](uint32_t C) {
      return Slots[C]->getAllocatedType()->isIntegerTy(32);
    });
    if (FirstBlockFastFlush && AllNarrow) {
      Value *IsFast = WB.CreateICmpNE(
          WB.CreateCall(M.getOrInsertFunction(FlushIsFastName, I64, I64),
                        {Any}),
          WB.getInt64(0));
      Instruction *FastT = nullptr, *SlowT = nullptr;
      SplitBlockAndInsertIfThenElse(IsFast, WB.GetInsertPoint(), &FastT,
                                    &SlowT);
      markInstrumentation(
          FastT->getParent()->getSinglePredecessor()->getTerminator());
      FunctionCallee FlushFast = M.getOrInsertFunction(
          FlushScaledFastName, TB.getVoidTy(), Global, I64, I64);
      IRBuilder<> FB(FastT);
      if (BatchedLaneAdds) {
        FunctionCallee WarpSum =
            M.getOrInsertFunction(WarpSumSmallName, I32, I64);
        emitLaneZeroAdds(
            FB, Wide.size(),
            [&](IRBuilder<> &CB, size_t K) {
              return CB.CreateCall(WarpSum, {loadCount(CB, Wide[K])});
            },
            [&](IRBuilder<> &, size_t K) { return RowZero(Wide[K]); }, Scale);
      } else {
        for (uint32_t C : Wide)
          FB.CreateCall(FlushFast, {RowZero(C), loadCount(FB, C), Scale});
      }
      WB.SetInsertPoint(SlowT);
    }
    for (uint32_t C : Wide)
      WB.CreateCall(FlushOne, {RowZero(C), loadCount(WB, C), Scale});
    TB.SetInsertPoint(Then); // the split moved it to the tail block
  } else {
    for (uint32_t C : Wide)
      TB.CreateCall(FlushOne, {RowZero(C), loadCount(TB, C), Scale});
  }
  // Counting builds: a full warp counts each bit with a ballot and lane 0
  // adds them all in one branch (emitLaneZeroAdds); other warps call the
  // out-of-line flush below. CUB's single-tile reduction: eleven bits, three
  // warp sums and three lane-0 branches in turn before.
  if (!ByMask.empty() && Inline >= 1 && CountingBuild && BatchedLaneAdds) {
    Value *Full = TB.CreateICmpNE(
        TB.CreateCall(M.getOrInsertFunction(FlushIsFullWarpName, I64)),
        TB.getInt64(0));
    Instruction *FullT = nullptr, *PartialT = nullptr;
    SplitBlockAndInsertIfThenElse(Full, TB.GetInsertPoint(), &FullT, &PartialT);
    markInstrumentation(
        FullT->getParent()->getSinglePredecessor()->getTerminator());
    IRBuilder<> FB(FullT);
    FunctionCallee BitCount =
        M.getOrInsertFunction(WarpBitCountName, I32, I32, I32);
    SmallVector<uint32_t, 32> Bits;
    for (auto &[Mask, Counters] : ByMask)
      append_range(Bits, Counters);
    emitLaneZeroAdds(
        FB, Bits.size(),
        [&](IRBuilder<> &CB, size_t K) {
          Value *MaskValue = CB.CreateLoad(I32, Slots[Bits[K]]);
          return CB.CreateCall(
              BitCount, {MaskValue, CB.getInt32((uint32_t)BitOf[Bits[K]])});
        },
        [&](IRBuilder<> &, size_t K) { return RowZero(Bits[K]); }, Scale);
    TB.SetInsertPoint(PartialT);
    FlushBits = M.getOrInsertFunction(
        FlushBitsScaledName,
        FunctionType::get(TB.getVoidTy(), BitsParams, false));
  }
  // Four bits to a call, as the fast path's warp sums take them.
  for (auto &[Mask, Counters] : ByMask) {
    Value *MaskValue = TB.CreateLoad(I32, Mask);
    for (size_t First = 0; First < Counters.size(); First += 4) {
      ArrayRef<uint32_t> Group = ArrayRef<uint32_t>(Counters).slice(
          First, std::min<size_t>(4, Counters.size() - First));
      SmallVector<Value *, 11> Args;
      for (size_t K = 0; K < 4; ++K)
        Args.push_back(RowZero(Group[K < Group.size() ? K : 0]));
      Args.push_back(MaskValue);
      for (size_t K = 0; K < 4; ++K)
        Args.push_back(TB.getInt32(
            K < Group.size() ? static_cast<uint32_t>(BitOf[Group[K]]) : 0));
      Args.push_back(TB.getInt32(Group.size()));
      Args.push_back(Scale);
      TB.CreateCall(FlushBits, Args);
    }
  }
  return Rest;
}

// Whether every counter Live is usually zero at Exit: a cold edge's, or a
// site's run-time address-space counters (then most warps flush zeros). A
// single other counter, a loop's count, makes most warps flush anyway.
bool CounterEmitter::countsOnlyColdEdges(const FunctionPlan &P,
                                         ArrayRef<uint32_t> Live) const {
  DenseSet<uint32_t> Usual; // counters most warps leave at zero
  bool AnyCold = false;
  for (const CountedBlock &CB : P.Blocks) {
    if (CB.ColdEdge && CB.Measured) {
      Usual.insert(CB.Counter);
      AnyCold |= is_contained(Live, CB.Counter);
    }
    for (uint32_t Dyn : CB.DynCounters)
      for (uint32_t I = 0; I < PASTA_DYN_NUM; ++I)
        Usual.insert(Dyn + I);
  }
  return AnyCold &&
         all_of(Live, [&](uint32_t Counter) { return Usual.count(Counter); });
}

// One vote before the flush at Exit: a warp whose Live counts are all zero
// skips it. Returns where the flush goes.
Instruction *CounterEmitter::skipIfAllZero(Instruction *Exit,
                                           ArrayRef<uint32_t> Live) {
  IRBuilder<> B(Exit);
  Type *I64 = B.getInt64Ty();
  Value *Any = nullptr;
  DenseSet<AllocaInst *> Masks; // a bit mask is tested once, whole
  for (uint32_t I : Live) {
    AllocaInst *Slot = Slots[I];
    if (BitOf[I] >= 0 && !Masks.insert(Slot).second)
      continue;
    Value *V = loadWhole(B, Slot);
    if (BitOf[I] >= 0 && !OneLane.empty()) {
      // Its bits of Live only: a lane's own bits went apart (flushOwnLanes).
      uint32_t Bits = 0;
      for (uint32_t J : Live)
        if (Slots[J] == Slot && BitOf[J] >= 0)
          Bits |= 1u << BitOf[J];
      V = B.CreateAnd(V, Bits);
    }
    V = B.CreateZExt(V, I64);
    Any = Any ? B.CreateOr(Any, V) : V;
  }
  Value *Flush = B.CreateICmpNE(
      B.CreateCall(M.getOrInsertFunction(FlushAnyName, I64, I64), {Any}),
      B.getInt64(0));
  Instruction *Then = SplitBlockAndInsertIfThen(Flush, Exit->getIterator(),
                                                /*Unreachable=*/false);
  markInstrumentation(
      Then->getParent()->getSinglePredecessor()->getTerminator());
  return Then;
}

// Lane 0 of a full warp adds each of Counts (warp sums, the same in every
// lane; times Scale where it is given) to its slot (SlotAt(builder, index)),
// skipping zeros, after the sums of its batch, so that the sums' reductions
// follow one another with no branch and reconvergence between them. On
// NVIDIA GPUs each add is a `red` predicated on lane 0 (PredicatedLaneAdds):
// no branch at all; elsewhere one lane-0 branch a batch, the slots made in
// it. B continues after the adds.
void CounterEmitter::emitLaneZeroAdds(
    IRBuilder<> &B, size_t N,
    function_ref<Value *(IRBuilder<> &, size_t)> CountAt,
    function_ref<Value *(IRBuilder<> &, size_t)> SlotAt, Value *Scale) {
  Type *I64 = B.getInt64Ty();
  PointerType *Global = PointerType::get(Ctx, 1);
  FunctionCallee Add =
      M.getOrInsertFunction(AddNonzeroName, B.getVoidTy(), Global, I64);
  Value *Lane = B.CreateCall(M.getOrInsertFunction(LaneIdName, B.getInt32Ty()));
  auto Scaled = [&](IRBuilder<> &AB, Value *Sum) {
    Value *Count = AB.CreateZExt(Sum, I64);
    return Scale ? AB.CreateMul(Count, Scale) : Count;
  };
  bool Predicated = PredicatedLaneAdds && T.Target == PASTA_TARGET_NVPTX;
  FunctionCallee AddFromLaneZero =
      Predicated ? M.getOrInsertFunction(AddFromLaneZeroName, B.getVoidTy(),
                                         Global, I64, B.getInt32Ty())
                 : FunctionCallee();
  size_t Batch = std::max(1u, unsigned(LaneAddsBatch));
  for (size_t First = 0; First < N; First += Batch) {
    size_t End = std::min(N, First + Batch);
    SmallVector<Value *, 16> Counts;
    for (size_t K = First; K < End; ++K)
      Counts.push_back(CountAt(B, K));
    if (Predicated) {
      for (size_t K = First; K < End; ++K) {
        Value *Count = Scaled(B, Counts[K - First]);
        B.CreateCall(AddFromLaneZero, {SlotAt(B, K), Count, Lane});
      }
      continue;
    }
    Instruction *Next = &*B.GetInsertPoint();
    Instruction *Then = SplitBlockAndInsertIfThen(
        B.CreateICmpEQ(Lane, B.getInt32(0)), Next->getIterator(),
        /*Unreachable=*/false);
    markInstrumentation(
        Then->getParent()->getSinglePredecessor()->getTerminator());
    IRBuilder<> TB(Then);
    for (size_t K = First; K < End; ++K) {
      Value *Count = Scaled(TB, Counts[K - First]);
      TB.CreateCall(Add, {SlotAt(TB, K), Count});
    }
    B.SetInsertPoint(Next);
  }
}

// The fast path's flush of Counters, all bits of the mask in Mask: the
// warp's or of the mask (which bits any lane has) and the lane's number
// once, then per counter a test of its bit there and, when set, a ballot
// and lane 0's add.
void CounterEmitter::emitBitFlushFast(
    IRBuilder<> &B, AllocaInst *Mask, ArrayRef<uint32_t> Counters,
    function_ref<Value *(IRBuilder<> &, uint32_t)> SlotOf) {
  Type *I32 = B.getInt32Ty();
  PointerType *Global = PointerType::get(Ctx, 1);
  FunctionCallee WarpOr = M.getOrInsertFunction(WarpOrName, I32, I32);
  FunctionCallee Flush = M.getOrInsertFunction(FlushBitFastName, B.getVoidTy(),
                                               Global, I32, I32, I32, I32);
  Value *MaskValue = B.CreateLoad(I32, Mask);
  if (BatchedLaneAdds && CountingBuild) {
    FunctionCallee BitCount =
        M.getOrInsertFunction(WarpBitCountName, I32, I32, I32);
    emitLaneZeroAdds(
        B, Counters.size(),
        [&](IRBuilder<> &CB, size_t K) -> Value * {
          return CB.CreateCall(
              BitCount, {MaskValue, CB.getInt32((uint32_t)BitOf[Counters[K]])});
        },
        [&](IRBuilder<> &TB, size_t K) { return SlotOf(TB, Counters[K]); },
        nullptr);
    return;
  }
  Value *Any = B.CreateCall(WarpOr, {MaskValue});
  Value *Lane = B.CreateCall(M.getOrInsertFunction(LaneIdName, I32));
  for (uint32_t C : Counters)
    B.CreateCall(Flush, {SlotOf(B, C), MaskValue, Any,
                         B.getInt32((uint32_t)BitOf[C]), Lane});
}

// The staging array of out-of-line flushes: one per function, in its entry,
// as large as the largest flush (a local-memory frame of that size in every
// thread: no larger than it needs).
AllocaInst *CounterEmitter::staging(FunctionPlan &P, uint32_t Size) {
  if (P.Staging &&
      cast<ArrayType>(P.Staging->getAllocatedType())->getNumElements() >= Size)
    return P.Staging;
  IRBuilder<> EntryB(&*P.F->getEntryBlock().getFirstInsertionPt());
  AllocaInst *New = EntryB.CreateAlloca(
      ArrayType::get(EntryB.getInt64Ty(), Size),
      M.getDataLayout().getAllocaAddrSpace(), nullptr, "pasta.flush");
  if (AllocaInst *Old = P.Staging) { // earlier flushes' smaller array
    Old->replaceAllUsesWith(New);
    New->takeName(Old);
    Old->eraseFromParent();
  }
  return P.Staging = New;
}

// What an inline flush of Live costs, in tests: one per counter, one per
// group of a site's run-time address-space counters.
static size_t flushUnits(const FunctionPlan &P, ArrayRef<uint32_t> Live) {
  size_t Units = Live.size();
  for (const CountedBlock &CB : P.Blocks)
    for (uint32_t Dyn : CB.DynCounters)
      if (is_contained(Live, Dyn))
        Units -= PASTA_DYN_NUM - 1;
  return Units;
}

// A constant table of local counter indices in global memory, which an
// out-of-line flush reads.
GlobalVariable *CounterEmitter::indexTable(ArrayRef<uint32_t> Indices,
                                           StringRef Name) {
  Constant *Init = ConstantDataArray::get(Ctx, Indices);
  auto *Table =
      new GlobalVariable(M, Init->getType(), true, GlobalValue::PrivateLinkage,
                         Init, Name, nullptr, GlobalValue::NotThreadLocal, 1);
  Table->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  return Table;
}

static cl::opt<bool> PackedBitIndices(
    "pasta-packed-bit-indices", cl::Hidden, cl::init(true),
    cl::desc("PASTA: a bit flush's counter indices below 256 go as four "
             "packed 64-bit constants, not a table in global memory"));

// Index (32 entries) as the bytes of four 64-bit words, entry b in byte b,
// where every entry is below 256; none otherwise. The flush at a kernel's
// exit then reads no table: under a cold cache, its load of the table's
// line ran ahead of every `red` of the flush (CUB's DeviceReduceKernel).
static std::optional<std::array<uint64_t, 4>>
packedBytes(ArrayRef<uint32_t> Index) {
  if (!PackedBitIndices || Index.size() > 32 ||
      any_of(Index, [](uint32_t I) { return I > 0xff; }))
    return std::nullopt;
  std::array<uint64_t, 4> Words{};
  for (size_t B = 0; B < Index.size(); ++B)
    Words[B / 8] |= uint64_t(Index[B]) << (B % 8 * 8);
  return Words;
}

// The counters kept in bits of a flush point with many counters: per mask
// register, one loop over its bits (__pasta_flush_bits, which the runtime
// inlines) with the mask itself and its bits' counters, packed in constants
// (__pasta_flush_bits_packed) or a table (nothing staged). Returns the bank
// row the packed flushes read, for the inline flush after them; null if none.
Value *CounterEmitter::emitBitFlushes(Instruction *Exit, FunctionPlan &P,
                                      ArrayRef<uint32_t> Bits) {
  ++NumOutOfLineFlushes;
  IRBuilder<> B(Exit);
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  PointerType *Global = PointerType::get(Ctx, 1);
  MapVector<AllocaInst *, SmallVector<uint32_t, 32>> ByMask;
  for (uint32_t C : Bits)
    ByMask[Slots[C]].push_back(C);
  Value *Row = nullptr;
  for (auto &[Mask, Counters] : ByMask) {
    uint32_t LiveBits = 0;
    SmallVector<uint32_t, 32> Index(32, 0);
    for (uint32_t C : Counters) {
      LiveBits |= 1u << BitOf[C];
      Index[BitOf[C]] = C;
    }
    if (std::optional<std::array<uint64_t, 4>> Packed = packedBytes(Index)) {
      if (!Row)
        Row = B.CreateCall(
            M.getOrInsertFunction(BankRowName, Global, Global, I32, I32),
            {T.Counters, B.getInt32(T.NumCounters), B.getInt32(T.numBanks())});
      FunctionCallee Flush =
          M.getOrInsertFunction(DeviceFlushBitsPackedName, B.getVoidTy(),
                                Global, I32, I32, I64, I64, I64, I64);
      B.CreateCall(Flush,
                   {B.CreateConstInBoundsGEP1_32(I64, Row, P.FirstCounter),
                    B.CreateLoad(I32, Mask), B.getInt32(LiveBits),
                    B.getInt64((*Packed)[0]), B.getInt64((*Packed)[1]),
                    B.getInt64((*Packed)[2]), B.getInt64((*Packed)[3])});
      continue;
    }
    FunctionCallee Flush =
        M.getOrInsertFunction(DeviceFlushBitsName, B.getVoidTy(), Global, I32,
                              I32, I32, I32, I32, Global);
    B.CreateCall(Flush, {T.Counters, B.getInt32(T.NumCounters),
                         B.getInt32(T.numBanks()), B.getInt32(P.FirstCounter),
                         B.CreateLoad(I32, Mask), B.getInt32(LiveBits),
                         indexTable(Index, "__pasta_bit_table")});
  }
  return Row;
}

// Device functions only (host ones: emitHostFlushes).
// A counting build's kernel gathers, before the flush at its one return, the
// lanes that entered its wait-free tail together (ExitGather.h; device_rt.c,
// __pasta_gather_lanes): lanes that left a data-dependent loop apart
// otherwise flushed in groups, each on the partial-warp path (a Huffman
// decoder's gpu_dec_l1_l2: 2.8 groups a warp, 30 M warp instructions
// against the plain kernel's 10 M). Gathering the warp's launch lanes
// instead hung that decoder and kmeans on an H200: both have a
// `__syncthreads()` inside `if (i < n)`, and the lanes past n, gathered at
// the return, waited for lanes that waited at the barrier for them.
static cl::opt<bool> GatherWarpAtExit(
    "pasta-gather-warp-at-exit", cl::Hidden, cl::init(true),
    cl::desc("PASTA: the lanes that entered a kernel's wait-free tail "
             "together wait for each other at its return before the exit "
             "flush (NVPTX counting builds)"));

// The lanes entering the tail read into TailLanes on each way in (an edge
// split, or before a branch all of whose ways lead in; zero at entry, the
// lanes of the launch where the entry block is in the tail), and a wait
// for them before the flush at the return. Lanes that came by a way lost
// since (TailEntries::Edge) hold zero and do not wait.
void CounterEmitter::gatherTailLanes(Instruction *Exit) {
  Function &F = *Exit->getFunction();
  Type *I32 = Type::getInt32Ty(Ctx);
  FunctionCallee Lanes = M.getOrInsertFunction(TailLanesName, I32);
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  TailLanes = B.CreateAlloca(I32, M.getDataLayout().getAllocaAddrSpace(),
                             nullptr, "pasta.tail.lanes");
  Value *AtEntry = B.getInt32(0);
  if (Tail.EntryInTail)
    AtEntry = B.CreateCall(Lanes);
  B.CreateStore(AtEntry, TailLanes);
  for (const TailEntries::Edge &E : Tail.Edges) {
    auto *Term = cast_or_null<Instruction>(E.Term);
    if (!Term)
      continue;
    Instruction *ReadAt = Term;
    if (E.Index != TailEntries::AtTerminator) {
      if (E.Index >= Term->getNumSuccessors())
        continue;
      ReadAt = SplitEdge(Term->getParent(), Term->getSuccessor(E.Index))
                   ->getTerminator();
    }
    IRBuilder<> AtEdge(ReadAt);
    AtEdge.CreateStore(AtEdge.CreateCall(Lanes), TailLanes);
  }
  IRBuilder<> AtExit(Exit);
  AtExit.CreateCall(M.getOrInsertFunction(GatherLanesName, B.getVoidTy(), I32),
                    {AtExit.CreateLoad(I32, TailLanes)});
}

void CounterEmitter::emitFlush(Instruction *Exit, FunctionPlan &P) {
  flushFrames(Exit);
  SmallVector<uint32_t, 16> Live = liveCounters(P, Exit->getParent());
  if (Live.empty())
    return; // nothing counted on any path to this return
  if (Exit == Tail.Return && !ThreadLocalCounts)
    gatherTailLanes(Exit);
  Live = flushAlikeFromFirstBlock(Exit, P, Live);
  if (Live.empty())
    return;
  if (P.Placed ? flushUnits(P, Live) <= InlineFlushLimit
               : Live.size() <= UnplacedInlineFlushLimit)
    return emitInlineFlush(Exit, P, Live);
  if (P.Placed) {
    // Bits go out of line from their masks. A site's run-time address-space
    // counters stay inline up to UnplacedInlineFlushLimit units, as before:
    // usually all zero, inline one ballot skips a group of them, where the
    // loop out of line would sum each. The other counters (with the counts
    // kept for callees), if few enough, inline too; if not, staged.
    DenseSet<uint32_t> GroupStarts;
    for (const CountedBlock &CB : P.Blocks)
      GroupStarts.insert(CB.DynCounters.begin(), CB.DynCounters.end());
    bool GroupsInline = flushUnits(P, Live) <= UnplacedInlineFlushLimit;
    SmallVector<uint32_t, 16> Bits, Inline, Rest;
    for (size_t K = 0; K < Live.size(); ++K) {
      uint32_t C = Live[K];
      if (BitOf[C] >= 0) {
        Bits.push_back(C);
      } else if (GroupsInline && GroupStarts.count(C)) {
        Inline.append(Live.begin() + K, Live.begin() + K + PASTA_DYN_NUM);
        K += PASTA_DYN_NUM - 1;
      } else {
        Rest.push_back(C);
      }
    }
    Value *Row = Bits.empty() ? nullptr : emitBitFlushes(Exit, P, Bits);
    if (flushUnits(P, Rest) <= InlineFlushLimit) {
      Inline.append(Rest);
      Rest.clear();
    }
    if (!Inline.empty())
      emitInlineFlush(Exit, P, Inline, Row);
    Live = Rest;
    if (Live.empty())
      return;
  } else if (!Carried.empty()) {
    // The counts kept for callees (at most AccumulatorLimit) inline, apart.
    static_assert(AccumulatorLimit <= UnplacedInlineFlushLimit, "bounded");
    emitInlineFlush(Exit, P,
                    ArrayRef<uint32_t>(Live).take_back(Carried.size()));
    Live.resize(Live.size() - Carried.size());
  }

  ++NumOutOfLineFlushes;
  IRBuilder<> B(Exit);
  Type *I32 = B.getInt32Ty();
  PointerType *Generic = PointerType::get(Ctx, 0);
  PointerType *Global = PointerType::get(Ctx, 1);
  Value *Counters[] = {T.Counters, B.getInt32(T.NumCounters),
                       B.getInt32(T.numBanks()), B.getInt32(P.FirstCounter)};
  if (!P.Placed) {
    // Every counter, staged in order, then one call.
    AllocaInst *Staging = staging(P, P.NumCounters);
    for (uint32_t I = 0; I < P.NumCounters; ++I)
      B.CreateStore(loadCount(B, I),
                    B.CreateConstInBoundsGEP2_32(Staging->getAllocatedType(),
                                                 Staging, 0, I));
    FunctionCallee Flush = M.getOrInsertFunction(
        DeviceFlushName, B.getVoidTy(), Global, I32, I32, I32, Generic, I32);
    B.CreateCall(Flush, {Counters[0], Counters[1], Counters[2], Counters[3],
                         B.CreatePointerCast(Staging, Generic),
                         B.getInt32(P.NumCounters)});
    return;
  }
  // Staged: not the counters that stay zero.
  DenseSet<uint32_t> Never = neverAdded(P);
  erase_if(Live, [&](uint32_t C) { return Never.count(C); });
  if (!Live.empty())
    emitIndexedFlush(Exit, P, Live);
}

// The many groups' general path is out of line only in copies without a
// register cap: `generic 14`'s capped copy (.maxnreg 64) ran 1.46x slower
// with it on an H200. The copies are cloned after the flush is emitted, so
// both paths are emitted here, behind a branch on a call of this marker,
// and resolveRegisterCapChoices keeps one in each copy.
static constexpr const char *RegisterCapChoiceName = "__pasta_uncapped_choice";

// Splits At's block on the marker: the first block returned runs where the
// function has no register cap, the second where it has one.
std::pair<Instruction *, Instruction *>
CounterEmitter::splitOnRegisterCap(Instruction *At) {
  IRBuilder<> B(At);
  Value *Uncapped =
      B.CreateCall(M.getOrInsertFunction(RegisterCapChoiceName, B.getInt1Ty()));
  Instruction *OutOfLine, *Inline;
  SplitBlockAndInsertIfThenElse(Uncapped, At->getIterator(), &OutOfLine,
                                &Inline);
  markInstrumentation(
      OutOfLine->getParent()->getSinglePredecessor()->getTerminator());
  return {OutOfLine, Inline};
}

// Whether ptxas must fit F's registers under a cap: its own .maxnreg, or
// launch bounds (.maxntid, .reqntid) of more than 256 threads, which leave
// each thread fewer than the 255 registers it may take.
static bool registerCapped(const Function &F) {
  if (F.hasFnAttribute("nvvm.maxnreg"))
    return true;
  for (StringRef Name : {"nvvm.maxntid", "nvvm.reqntid"}) {
    if (!F.hasFnAttribute(Name))
      continue;
    SmallVector<StringRef, 3> Dims;
    F.getFnAttribute(Name).getValueAsString().split(Dims, ',');
    uint64_t Threads = 1;
    for (StringRef D : Dims) {
      uint64_t N = 0;
      if (D.trim().getAsInteger(10, N))
        return true; // unreadable: take the safe side
      Threads *= N;
    }
    if (Threads > 256)
      return true;
  }
  return false;
}

void pasta::resolveRegisterCapChoices(Module &M) {
  Function *Choice = M.getFunction(RegisterCapChoiceName);
  if (!Choice)
    return;
  SmallPtrSet<Function *, 16> Changed;
  for (User *U : make_early_inc_range(Choice->users())) {
    auto *Call = cast<CallInst>(U);
    Function *F = Call->getFunction();
    Call->replaceAllUsesWith(
        ConstantInt::getBool(M.getContext(), !registerCapped(*F)));
    Call->eraseFromParent();
    Changed.insert(F);
  }
  for (Function *F : Changed) {
    for (BasicBlock &BB : *F)
      ConstantFoldTerminator(&BB, /*DeleteDeadConditions=*/true);
    removeUnreachableBlocks(*F);
  }
  Choice->eraseFromParent();
}

// The out-of-line flush of Live at At where Live holds many run-time
// address-space groups (starting at GroupStarts): those counters are zero
// in every lane almost always (they count generic accesses that reach
// shared or local memory), so one vote on all of them decides whether they
// are staged and flushed too; the others are staged first and always
// flushed. Staged and summed eight at a time with the rest, `generic 14`'s
// 56 such counters made its launches with a partial warp in every block
// 7% slower on an H200, where the inline path skipped each group's half
// after one vote.
void CounterEmitter::emitGroupsIndexedFlush(
    Instruction *At, FunctionPlan &P, ArrayRef<uint32_t> Live,
    const DenseSet<uint32_t> &GroupStarts) {
  DenseSet<uint32_t> InGroups;
  for (uint32_t Start : GroupStarts)
    for (uint32_t I = 0; I < PASTA_DYN_NUM; ++I)
      InGroups.insert(Start + I);
  SmallVector<uint32_t, 16> Ordered, Grouped;
  for (uint32_t C : Live)
    (InGroups.count(C) ? Grouped : Ordered).push_back(C);
  size_t Always = Ordered.size();
  Ordered.append(Grouped.begin(), Grouped.end());
  IRBuilder<> B(At);
  Type *I64 = B.getInt64Ty();
  AllocaInst *Staging = staging(P, Ordered.size());
  for (size_t K = 0; K < Always; ++K)
    stageCount(B, Staging, K, Ordered[K]);
  Value *Any = nullptr;
  for (uint32_t C : Grouped) {
    Value *V = loadCount(B, C);
    Any = Any ? B.CreateOr(Any, V) : V;
  }
  Value *Voted = B.CreateICmpNE(
      B.CreateCall(M.getOrInsertFunction(FlushAnyName, I64, I64), {Any}),
      B.getInt64(0));
  Instruction *Then = SplitBlockAndInsertIfThen(Voted, At->getIterator(),
                                                /*Unreachable=*/false);
  markInstrumentation(
      Then->getParent()->getSinglePredecessor()->getTerminator());
  IRBuilder<> TB(Then);
  for (size_t K = Always; K < Ordered.size(); ++K)
    stageCount(TB, Staging, K, Ordered[K]);
  if (!Always) { // nothing else to flush: the call only after a vote
    emitIndexedCall(TB, P, Staging, Ordered, TB.getInt32(Ordered.size()));
    return;
  }
  B.SetInsertPoint(At);
  PHINode *N = B.CreatePHI(B.getInt32Ty(), 2);
  N->addIncoming(B.getInt32(Ordered.size()), Then->getParent());
  N->addIncoming(B.getInt32(Always), Then->getParent()->getSinglePredecessor());
  emitIndexedCall(B, P, Staging, Ordered, N);
}

// The out-of-line flush of Live at At: the live counters only, staged, and
// a table of their module indices (the counts kept for callees go to the
// callees' counters).
void CounterEmitter::emitIndexedFlush(Instruction *At, FunctionPlan &P,
                                      ArrayRef<uint32_t> Live) {
  IRBuilder<> B(At);
  AllocaInst *Staging = staging(P, Live.size());
  for (size_t K = 0; K < Live.size(); ++K)
    stageCount(B, Staging, K, Live[K]);
  emitIndexedCall(B, P, Staging, Live, B.getInt32(Live.size()));
}

// Counter C's count into element K of Staging.
void CounterEmitter::stageCount(IRBuilder<> &B, AllocaInst *Staging, size_t K,
                                uint32_t C) {
  B.CreateStore(
      loadCount(B, C),
      B.CreateConstInBoundsGEP2_32(Staging->getAllocatedType(), Staging, 0, K));
}

// The runtime's flush of the first N of Staged's counts, staged in that
// order in Staging, with the table of their module indices.
void CounterEmitter::emitIndexedCall(IRBuilder<> &B, FunctionPlan &P,
                                     AllocaInst *Staging,
                                     ArrayRef<uint32_t> Staged, Value *N) {
  Type *I32 = B.getInt32Ty();
  PointerType *Generic = PointerType::get(Ctx, 0);
  PointerType *Global = PointerType::get(Ctx, 1);
  SmallVector<uint32_t, 16> Indices;
  for (uint32_t C : Staged)
    Indices.push_back(globalIndex(P, C));
  FunctionCallee Flush =
      M.getOrInsertFunction(DeviceFlushIndexedName, B.getVoidTy(), Global, I32,
                            I32, I32, Generic, Global, I32);
  B.CreateCall(Flush,
               {T.Counters, B.getInt32(T.NumCounters), B.getInt32(T.numBanks()),
                B.getInt32(0), B.CreatePointerCast(Staging, Generic),
                indexTable(Indices, "__pasta_flush_indices"), N});
}

// Whether V is the same in every lane of a warp (1 << WarpLog2 lanes):
// built from constants, arguments and the grid's and block's shape and
// position, or from the thread index x in whole warps (x >> 5, x & ~31,
// x / 32 for 32 lanes). Loads and phis are not looked into. A wrong answer
// costs time (a flush in a partial warp), never a count.
static bool warpUniform(Value *V, unsigned WarpLog2, unsigned Depth = 0) {
  if (isa<Constant, Argument>(V))
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 8)
    return false;
  if (auto *II = dyn_cast<IntrinsicInst>(I)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
    case Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
    case Intrinsic::nvvm_read_ptx_sreg_ctaid_z:
    case Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
    case Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
    case Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
    case Intrinsic::nvvm_read_ptx_sreg_ntid_x:
    case Intrinsic::nvvm_read_ptx_sreg_ntid_y:
    case Intrinsic::nvvm_read_ptx_sreg_ntid_z:
    case Intrinsic::amdgcn_workgroup_id_x:
    case Intrinsic::amdgcn_workgroup_id_y:
    case Intrinsic::amdgcn_workgroup_id_z:
      return true;
    default:
      return false;
    }
  }
  // The thread index x in whole warps.
  auto IsThreadX = [](Value *X) {
    X = X->stripPointerCasts();
    if (auto *C = dyn_cast<CastInst>(X); C && C->isIntegerCast())
      X = C->getOperand(0);
    auto *II = dyn_cast<IntrinsicInst>(X);
    return II && (II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_tid_x ||
                  II->getIntrinsicID() == Intrinsic::amdgcn_workitem_id_x);
  };
  uint64_t Lanes = uint64_t(1) << WarpLog2;
  if (auto *BO = dyn_cast<BinaryOperator>(I);
      BO && IsThreadX(BO->getOperand(0))) {
    auto *C = dyn_cast<ConstantInt>(BO->getOperand(1));
    if (!C)
      return false;
    uint64_t K = C->getZExtValue();
    switch (BO->getOpcode()) {
    case Instruction::LShr:
    case Instruction::AShr:
      return K >= WarpLog2;
    case Instruction::And:
      return (K & (Lanes - 1)) == 0;
    case Instruction::UDiv:
    case Instruction::SDiv:
      return K != 0 && K % Lanes == 0;
    default:
      return false;
    }
  }
  if (!isa<BinaryOperator, CastInst, CmpInst, SelectInst, GetElementPtrInst>(I))
    return false;
  return all_of(I->operands(), [&](Value *Op) {
    return warpUniform(Op, WarpLog2, Depth + 1);
  });
}

// Whether V differs between the lanes of a warp of 32 in a block of one
// dimension: the thread index x, the lane's number (NVIDIA's %laneid,
// AMD's mbcnt), or the thread index x modulo a multiple of 32 (`x & 31`,
// `x % 32`). In blocks of more dimensions, or a 64-lane wave, a few lanes
// may share a value: a guess, never a count (oneLaneBlock).
static bool laneDistinct(Value *V) {
  if (auto *C = dyn_cast<CastInst>(V); C && C->isIntegerCast())
    V = C->getOperand(0);
  if (auto *II = dyn_cast<IntrinsicInst>(V)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::nvvm_read_ptx_sreg_tid_x:
    case Intrinsic::nvvm_read_ptx_sreg_laneid:
    case Intrinsic::amdgcn_workitem_id_x:
    case Intrinsic::amdgcn_mbcnt_hi:
      return true;
    default:
      return false;
    }
  }
  auto *BO = dyn_cast<BinaryOperator>(V);
  auto *K = BO ? dyn_cast<ConstantInt>(BO->getOperand(1)) : nullptr;
  if (!K || !laneDistinct(BO->getOperand(0)))
    return false;
  uint64_t N = K->getZExtValue();
  switch (BO->getOpcode()) {
  case Instruction::And:
    return (N & 31) == 31;
  case Instruction::URem:
  case Instruction::SRem:
    return N >= 32 && N % 32 == 0;
  default:
    return false;
  }
}

// Whether the edge from a branch on Cond to its successor number Succ is
// taken by one lane of a warp at most: Cond compares a lane-distinct value
// with a warp-uniform one for equality (`lane == 0`, `threadIdx.x ==
// k`), or, on the true edge, is the `and` of such a test with anything.
static bool oneLaneEdge(Value *Cond, unsigned Succ, unsigned Depth = 0) {
  if (Depth > 4)
    return false;
  Value *A, *B;
  if (Succ == 0 && match(Cond, m_LogicalAnd(m_Value(A), m_Value(B))))
    return oneLaneEdge(A, 0, Depth + 1) || oneLaneEdge(B, 0, Depth + 1);
  auto *Cmp = dyn_cast<ICmpInst>(Cond);
  if (!Cmp || Cmp->getPredicate() !=
                  (Succ == 0 ? ICmpInst::ICMP_EQ : ICmpInst::ICMP_NE))
    return false;
  Value *L = Cmp->getOperand(0), *R = Cmp->getOperand(1);
  return (laneDistinct(L) && warpUniform(R, 5)) ||
         (laneDistinct(R) && warpUniform(L, 5));
}

// Whether at most one lane of a warp runs BB, as far as the branches on the
// single-predecessor way up to it tell (oneLaneEdge). Where the guess is
// wrong (a block of 16 x 16 threads runs a `threadIdx.x == 0` block in two
// lanes of each warp), each such lane adds its own count: more `red`s, the
// same counts.
static bool oneLaneBlock(BasicBlock *BB) {
  for (unsigned Steps = 0; Steps < 16; ++Steps) {
    BasicBlock *Pred = BB->getSinglePredecessor();
    if (!Pred)
      return false;
    auto *Br = dyn_cast<BranchInst>(Pred->getTerminator());
    if (Br && Br->isConditional() &&
        Br->getSuccessor(0) != Br->getSuccessor(1) &&
        oneLaneEdge(Br->getCondition(), Br->getSuccessor(0) == BB ? 0 : 1))
      return true;
    BB = Pred;
  }
  return false;
}

// Whether the threads that enter Ret from Pred left the rest of their warp
// behind by a warp-uniform branch (Pred, or the last block with a choice on
// the single-predecessor way up to it, ends in one), so that a warp takes
// that way whole; or by a bounds check's cold edge (a block of Cold, split
// into it: CounterPlacement.h), which only the warp at the bound splits.
static bool uniformWayIn(BasicBlock *Pred, unsigned WarpLog2,
                         const SmallPtrSetImpl<BasicBlock *> &Cold) {
  BasicBlock *B = Pred;
  for (unsigned Steps = 0; B && Steps < 16; ++Steps) {
    if (Cold.count(B))
      return true;
    auto *Br = dyn_cast<BranchInst>(B->getTerminator());
    if (!Br)
      return false;
    if (Br->isConditional())
      return warpUniform(Br->getCondition(), WarpLog2);
    B = B->getSinglePredecessor();
  }
  return false;
}

// Where the counts leaving by RI are flushed. A kernel's returns are
// usually one block that every path ends in (`if (i >= n) return;` and the
// end of the body share it), and a flush there adds every counter any path
// could have set: the reductions' warps 1-7, which leave after their first
// shuffle tree, tested the six bits of the whole kernel, four of which only
// warp 0 can set. Where the return block holds the return alone, each way
// into it that a warp takes whole (a warp-uniform branch: uniformWayIn)
// gets a block of its own (a split edge) that flushes what that way can
// have counted, and the other ways one block together (their lanes meet
// there, so that their warp flushes whole, as before). Only where the
// flushes then differ and there are at most MaxFlushPaths of them. The
// return block itself is unchanged, and so are the scopes (its
// post-dominance). Otherwise RI flushes, as before.
static constexpr unsigned MaxFlushPaths = 4;

void CounterEmitter::flushPointsOf(ReturnInst *RI, const FunctionPlan &P,
                                   SmallVectorImpl<Instruction *> &Exits) {
  BasicBlock *Ret = RI->getParent();
  SmallVector<BasicBlock *, 4> Preds(predecessors(Ret));
  SmallPtrSet<BasicBlock *, 4> Distinct(Preds.begin(), Preds.end());
  unsigned WarpLog2 = T.Target == PASTA_TARGET_NVPTX ? 5 : 6;
  SmallVector<BasicBlock *, 4> Whole, Rest;
  SmallPtrSet<BasicBlock *, 4> Cold;
  for (const CountedBlock &CB : P.Blocks)
    if (CB.ColdEdge)
      Cold.insert(CB.BB);
  if (CountingBuild && P.Kind == PASTA_FUNC_KERNEL && P.Placed &&
      &Ret->front() == RI && Preds.size() >= 2 &&
      Distinct.size() == Preds.size() && all_of(Preds, [](BasicBlock *Pred) {
        return isa<BranchInst, SwitchInst>(Pred->getTerminator());
      }))
    for (BasicBlock *Pred : Preds)
      (uniformWayIn(Pred, WarpLog2, Cold) ? Whole : Rest).push_back(Pred);
  size_t Paths = Whole.size() + (Rest.empty() ? 0 : 1);
  bool Split = !Whole.empty() && Paths >= 2 && Paths <= MaxFlushPaths;
  if (Split) {
    // Worth it only where the ways differ in what they can have counted.
    SmallVector<SmallVector<uint32_t, 16>, 4> Lives;
    for (BasicBlock *B : Whole)
      Lives.push_back(liveCounters(P, B));
    if (!Rest.empty()) {
      SmallVector<uint32_t, 16> Union;
      for (BasicBlock *B : Rest)
        append_range(Union, liveCounters(P, B));
      llvm::sort(Union);
      Union.erase(llvm::unique(Union), Union.end());
      Lives.push_back(std::move(Union));
    }
    Split = any_of(drop_begin(Lives),
                   [&](const auto &L) { return L != Lives.front(); });
  }
  if (!Split) {
    Exits.push_back(RI);
    return;
  }
  // A way of its own flushes at the end of its block where Ret is that
  // block's only successor, else in a block split into the edge.
  auto FlushOn = [&](BasicBlock *Pred) {
    return Pred->getSingleSuccessor() ? Pred->getTerminator()
                                      : SplitEdge(Pred, Ret)->getTerminator();
  };
  for (BasicBlock *Pred : Whole)
    Exits.push_back(FlushOn(Pred));
  if (Rest.size() == 1)
    Exits.push_back(FlushOn(Rest.front()));
  else if (!Rest.empty())
    Exits.push_back(
        SplitBlockPredecessors(Ret, Rest, ".pasta.flush")->getTerminator());
}

// L's trip count at its exit, once per loop. Where scalar evolution counts
// L's iterations before L runs (a count cheap to compute and not changing
// with an outer loop) and a thread leaves L only through one exit entered
// from its latch (no return, no other exiting block; functions whose
// threads can end inside, ThreadExits.h, are left alone), the count is
// expanded at that exit; null otherwise.
const CounterEmitter::LoopTrips *
CounterEmitter::tripsAtExit(Loop *L, DominatorTree &DT, LoopInfo &LI,
                            ScalarEvolution &SE,
                            const TargetTransformInfo &TTI) {
  if (auto It = Trips.find(L); It != Trips.end())
    return It->second.N ? &It->second : nullptr;
  Trips[L] = {};
  BasicBlock *Latch = L->getLoopLatch();
  BasicBlock *Exit = L->getExitBlock();
  if (L->getParentLoop() || !Latch || L->getExitingBlock() != Latch || !Exit ||
      !L->getLoopPredecessor())
    return nullptr;
  const SCEV *Backedges = SE.getBackedgeTakenCount(L);
  if (isa<SCEVCouldNotCompute>(Backedges) ||
      !Backedges->getType()->isIntegerTy() ||
      Backedges->getType()->getIntegerBitWidth() > 64 ||
      SE.containsAddRecurrence(Backedges))
    return nullptr;
  Type *I64 = Type::getInt64Ty(Ctx);
  const SCEV *Count =
      SE.getAddExpr(SE.getNoopOrZeroExtend(Backedges, I64), SE.getOne(I64));
  SCEVExpander Expander(SE, "pasta.trips");
  // Safe: a division in the count whose divisor may be zero stays inside.
  if (Expander.isHighCostExpansion({Count}, L, /*Budget=*/8, &TTI,
                                   Latch->getTerminator()) ||
      !Expander.isSafeToExpandAt(Count, Latch->getTerminator()))
    return nullptr;
  // An exit entered from elsewhere too (the loop's guard, another loop's
  // exit): the count goes in a block of its own on the edge from the latch.
  if (Exit->getSinglePredecessor() != Latch)
    Exit = SplitEdge(Latch, Exit, &DT, &LI);
  Instruction *At = &*Exit->getFirstInsertionPt();
  LoopTrips &LT = Trips[L];
  LT.At = At;
  LT.N = Expander.expandCodeFor(Count, I64, At);
  return &LT;
}

// A block that runs once in every iteration of its loop L (it dominates
// the latch, L's only exiting block) runs, per entry into L, L's trip count
// of times: one add of it at L's exit (tripsAtExit) takes the place of an
// add per iteration. kmeans' inner loop added 1 to a 64-bit register in
// every iteration (two instructions of about twenty).
bool CounterEmitter::addTripCount(const CountedBlock &CB, LoopInfo &LI,
                                  DominatorTree &DT, ScalarEvolution &SE,
                                  const TargetTransformInfo &TTI) {
  if (BitOf[CB.Counter] >= 0)
    return false;
  Loop *L = LI.getLoopFor(CB.BB);
  if (!L || !L->getLoopLatch() || !DT.dominates(CB.BB, L->getLoopLatch()))
    return false;
  const LoopTrips *LT = tripsAtExit(L, DT, LI, SE, TTI);
  if (!LT)
    return false;
  IRBuilder<> B(LT->At);
  AllocaInst *Slot = Slots[CB.Counter];
  Type *Ty = Slot->getAllocatedType(); // 32-bit where narrowCounters says
  B.CreateStore(
      B.CreateAdd(B.CreateLoad(Ty, Slot), B.CreateZExtOrTrunc(LT->N, Ty)),
      Slot);
  ++NumTripCounts;
  return true;
}

// Whether BB, a block of L outside L's inner loops, runs in every iteration
// of L or in none: each block of L that leads to BB within an iteration
// (from L's header) branches on values L does not change.
static bool runsInEveryIterationOrNone(BasicBlock *BB, Loop *L, LoopInfo &LI) {
  if (LI.getLoopFor(BB) != L)
    return false;
  SmallVector<BasicBlock *, 8> Work{BB};
  SmallPtrSet<BasicBlock *, 16> Seen{BB};
  while (!Work.empty()) {
    BasicBlock *X = Work.pop_back_val();
    if (X != BB) {
      Instruction *Term = X->getTerminator();
      Value *Cond = nullptr;
      if (auto *Br = dyn_cast<BranchInst>(Term))
        Cond = Br->isConditional() ? Br->getCondition() : nullptr;
      else if (auto *Sw = dyn_cast<SwitchInst>(Term))
        Cond = Sw->getCondition();
      else
        return false;
      if (LI.getLoopFor(X) != L || (Cond && !L->isLoopInvariant(Cond)))
        return false;
    }
    if (X == L->getHeader())
      continue; // the iteration starts here
    for (BasicBlock *Pred : predecessors(X))
      if (Seen.insert(Pred).second)
        Work.push_back(Pred);
  }
  return true;
}

// A block of a loop L whose branches toward it do not change in L
// (runsInEveryIterationOrNone) runs L's trip count of times, or never: it
// sets a bit of a mask register L owns, and L's exit adds the trip count
// where the bit is set, then clears the mask (zero at the function's entry
// too). One 32-bit register for up to 32 such blocks in place of a 64-bit
// one each: a 3D stencil's loop kept its five faces' `if (tjj > 0 && tkk <
// nLast_z ...)` counters in registers through the loop, 71 registers
// against 40 plain.
bool CounterEmitter::addInvariantTripCount(
    const CountedBlock &CB, LoopInfo &LI, DominatorTree &DT,
    ScalarEvolution &SE, const TargetTransformInfo &TTI,
    SmallVectorImpl<AllocaInst *> &Registers) {
  if (BitOf[CB.Counter] >= 0)
    return false;
  Loop *L = LI.getLoopFor(CB.BB);
  if (!L || !runsInEveryIterationOrNone(CB.BB, L, LI))
    return false;
  if (!tripsAtExit(L, DT, LI, SE, TTI))
    return false;
  LoopTrips &Own = Trips[L];
  Type *I32 = Type::getInt32Ty(Ctx);
  Constant *Zero32 = ConstantInt::get(I32, 0);
  if (Own.SeenBits % 32 == 0) {
    BasicBlock &Entry = CB.BB->getParent()->getEntryBlock();
    IRBuilder<> AtEntry(&Entry, Entry.getFirstInsertionPt());
    AllocaInst *Mask = AtEntry.CreateAlloca(
        I32, M.getDataLayout().getAllocaAddrSpace(), nullptr, "pasta.seen");
    AtEntry.CreateStore(Zero32, Mask);
    // Promoted with the counters; its zero is stored here, not from
    // Initial (filled before any mask exists).
    Registers.push_back(Mask);
    // Cleared after the adds at the exit, which go in front of this store.
    Own.Clear = IRBuilder<>(Own.At).CreateStore(Zero32, Mask);
  }
  Value *Seen = Own.Clear->getPointerOperand();
  Constant *Bit = ConstantInt::get(I32, 1u << (Own.SeenBits++ % 32));
  IRBuilder<> B(CB.BB, CB.BB->getFirstInsertionPt());
  B.CreateStore(B.CreateOr(B.CreateLoad(I32, Seen), Bit), Seen);
  B.SetInsertPoint(Own.Clear);
  Value *Ran =
      B.CreateICmpNE(B.CreateAnd(B.CreateLoad(I32, Seen), Bit), Zero32);
  AllocaInst *Slot = Slots[CB.Counter];
  Type *Ty = Slot->getAllocatedType(); // 32-bit where narrowCounters says
  B.CreateStore(B.CreateAdd(B.CreateLoad(Ty, Slot),
                            B.CreateSelect(Ran, B.CreateZExtOrTrunc(Own.N, Ty),
                                           ConstantInt::get(Ty, 0))),
                Slot);
  ++NumInvariantTripCounts;
  return true;
}

// Runs of BB per call, bounded by the constant maximum trip counts of its
// loop nest (each loop entered at most once per iteration of its parent,
// the outermost once per call, in a CFG with no irreducible cycle), below
// 2^32 (0: no such bound). The bound is scalar evolution's, which takes the
// loop's arithmetic to have no undefined behaviour (an `int` induction
// variable that does not overflow).
static uint64_t runsBelow2To32(BasicBlock *BB, LoopInfo &LI,
                               ScalarEvolution &SE) {
  uint64_t Runs = 1;
  for (Loop *L = LI.getLoopFor(BB); L; L = L->getParentLoop()) {
    auto *Max = dyn_cast<SCEVConstant>(SE.getConstantMaxBackedgeTakenCount(L));
    if (!Max || Max->getAPInt().getActiveBits() > 32)
      return 0;
    Runs *= Max->getAPInt().getZExtValue() + 1; // at most 2^32 * 2^32
    if (Runs >> 32)
      return 0;
  }
  return Runs;
}

static bool runsFewerThan2To32(BasicBlock *BB, LoopInfo &LI,
                               ScalarEvolution &SE) {
  return runsBelow2To32(BB, LI, SE) != 0;
}

// F's loops once planning has split its edges (the cached analyses are
// dropped the first time), or null where counters cannot be narrowed by
// their loops: no loop, or control flow that is not reducible.
LoopInfo *CounterEmitter::loopsForNarrowing(Function &F) {
  if (!AnalysesFresh)
    FAM.invalidate(F, PreservedAnalyses::none()); // planning split edges
  AnalysesFresh = true;
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  if (LI.empty())
    return nullptr;
  ReversePostOrderTraversal<Function *> Order(&F);
  if (containsIrreducibleCFG<const BasicBlock *>(Order, LI))
    return nullptr;
  return &LI;
}

// The block counters of P's counting copy (device code) that may stay in
// 32 bits: a block in loops whose runs per call scalar evolution bounds
// below 2^32 (runsFewerThan2To32) never carries into bit 32, and its count
// goes out zero-extended (narrowSlot). One register instead of two for each
// count a loop keeps: Thrust's radix-sort histogram kept about 30 64-bit
// counts across its loop over chunks of the input (96 registers against
// 32). A count the loop's exit adds (addTripCount, addInvariantTripCount)
// holds no register in the loop, but it does from the exit to the flush:
// HeCBench stencil3d's five faces' counts met its early return's zeros in
// 64-bit phis ahead of the flush (the trip count, at most 2^31, truncates
// exactly). Not the call
// counter, the counts kept for callees, run-time lengths and address-space
// counts (added 64-bit values), or thread-local counts (kept across calls).
DenseSet<uint32_t> CounterEmitter::narrowCounters(const FunctionPlan &P) {
  DenseSet<uint32_t> Narrow;
  Function &F = *P.F;
  if (!NarrowCounters || !CountingBuild || T.Target == PASTA_TARGET_HOST ||
      P.ThreadLocalCounts || none_of(P.Blocks, [&](const CountedBlock &CB) {
        return CB.Measured && !Slots[CB.Counter] && CB.Counter != 0;
      }))
    return Narrow;
  LoopInfo *Loops = loopsForNarrowing(F);
  if (!Loops)
    return Narrow;
  LoopInfo &LI = *Loops;
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  DenseSet<uint32_t> Wide; // counters with 64-bit adds
  for (const CountedBlock &CB : P.Blocks) {
    Wide.insert(CB.BytesCounters.begin(), CB.BytesCounters.end());
    for (const ByteCount &BC : CB.Bytes)
      Wide.insert(BC.Counter);
    for (uint32_t D : CB.DynCounters)
      for (uint32_t K = 0; K < PASTA_DYN_NUM; ++K)
        Wide.insert(D + K);
  }
  if (P.ThreadsCounter != PASTA_NONE)
    Wide.insert(P.ThreadsCounter);
  for (const CountedBlock &CB : P.Blocks)
    if (CB.Measured && CB.Counter != 0 && CB.Counter < NumOwn &&
        !Slots[CB.Counter] && !Wide.count(CB.Counter) && LI.getLoopFor(CB.BB) &&
        runsFewerThan2To32(CB.BB, LI, SE))
      Narrow.insert(CB.Counter);
  return Narrow;
}

static cl::opt<unsigned> GuardedNarrowMin(
    "pasta-guarded-narrow-min", cl::Hidden, cl::init(6),
    cl::desc("PASTA: a loop scalar evolution does not bound keeps the "
             "counters of its own blocks in 32 bits, behind a wrap guard, "
             "where it has at least this many (0: never)"));

// A loop scalar evolution does not bound (a spin-wait on a volatile flag,
// a tree walk that advances only when a child is ready) keeps 64-bit
// counters through every retry: HeCBench bh's SummarizationKernel held
// about 50 (200 registers against 48 plain), two adds each per retry. Each
// block of the loop itself (in no inner loop) runs at most once per run of
// the header, so its 32-bit counter is at most the header's, which is the
// guard: at 2^32 - 1 the loop's counters are flushed and zeroed
// (guardNarrowedLoops). Exact for any number of retries, and a flush that
// no real run reaches. Counting kernels; a loop whose header has a counter
// of its own (none, no guard); not loops whose trip count is computed
// (their exits may add it, addTripCount), nor counters narrowCounters
// already narrowed, nor counts alike in every thread block (the nests'
// flush zeroes those alone: flushAlikeBeforeNests; an alike header would
// then no longer bound the others). A header without a counter of its own
// (derived, or nothing to count there) gets a 32-bit register of its runs
// alone as the guard: one register for the loop's, where each of its
// 64-bit counters held two (MCX's photon loop: 95 such counters, its header
// derived).
void CounterEmitter::narrowUnboundedLoops(const FunctionPlan &P,
                                          DenseSet<uint32_t> &Narrow) {
  Guarded.clear();
  GuardedCounters.clear();
  Function &F = *P.F;
  if (!GuardedNarrowMin || !NarrowCounters || !CountingBuild ||
      T.Target == PASTA_TARGET_HOST || P.Kind != PASTA_FUNC_KERNEL ||
      !P.Placed || P.ThreadLocalCounts || !threadEnds(F).empty())
    return;
  LoopInfo *Loops = loopsForNarrowing(F);
  if (!Loops)
    return;
  LoopInfo &LI = *Loops;
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  MapVector<Loop *, GuardedLoop> ByLoop;
  for (const CountedBlock &CB : P.Blocks) {
    Loop *L = LI.getLoopFor(CB.BB);
    if (!L || !CB.Measured || CB.Counter == 0 || CB.Counter >= NumOwn ||
        Slots[CB.Counter] || Narrow.count(CB.Counter) ||
        InPlace.count(CB.Counter) || CB.AlikeInEveryBlock ||
        !CB.Bytes.empty() || !CB.BytesCounters.empty() ||
        !CB.DynCounters.empty() || CB.Counter == P.ThreadsCounter ||
        AtomicLoopCounters.count(CB.Counter) ||
        !isa<SCEVCouldNotCompute>(SE.getBackedgeTakenCount(L)))
      continue;
    GuardedLoop &G = ByLoop[L];
    G.Header = L->getHeader();
    G.Counters.push_back(CB.Counter);
    if (CB.BB == G.Header)
      G.HeaderCounter = CB.Counter;
  }
  for (auto &[L, G] : ByLoop) {
    SmallVector<uint32_t, 16> &Counters = G.Counters;
    if (Counters.size() < GuardedNarrowMin)
      continue;
    if (!G.HeaderCounter) { // zeroed at entry with the counters (emit)
      BasicBlock &Entry = F.getEntryBlock();
      G.Runs = IRBuilder<>(&Entry, Entry.getFirstInsertionPt())
                   .CreateAlloca(Type::getInt32Ty(Ctx),
                                 M.getDataLayout().getAllocaAddrSpace(),
                                 nullptr, "pasta.runs");
    }
    ++NumGuardedLoops;
    NumGuardedCounters += Counters.size();
    Narrow.insert(Counters.begin(), Counters.end());
    GuardedCounters.insert(Counters.begin(), Counters.end());
    Guarded.push_back(std::move(G));
  }
}

// Where the guard flushes: 2^32 - 1, the largest count a 32-bit counter
// holds. Lower only to test the wrap flush (a structure built with 3 runs
// it in every thread; the counts must not change).
static cl::opt<uint32_t> GuardWrapAt(
    "pasta-guard-wrap-at", cl::Hidden, cl::init(UINT32_MAX),
    cl::desc("PASTA: the header count at which a guarded loop's 32-bit "
             "counters are flushed and zeroed (testing only)"));

// The wrap guard's flush (guardNarrowedLoops) as one atomic add of each
// lane's own count per counter (addEachLaneAndZero), instead of the warp
// flush of the exits: in the loop, the warp flush's sums, its fast path's
// test and its out-of-line call held registers of their own through the
// whole loop, though no real run reaches the wrap (spinwait's tree walk:
// 48 registers against 30 without the guard, plain 18; casinsert's insert
// loop 56 against 40).
static cl::opt<bool> GuardLaneAdds(
    "pasta-guard-lane-adds", cl::Hidden, cl::init(true),
    cl::desc("PASTA: a wrap guard flushes its loop's counters by one atomic "
             "add per lane and counter (off: the exits' warp flush)"));

// Counters (of a guarded loop, none alike in every thread block, none in a
// bit) added at At to their row of the counter banks by each lane for
// itself, a 64-bit atomic add each, and zeroed. Exact in any warp, full or
// partial; it costs an atomic per lane, at a point no real run reaches.
void CounterEmitter::addEachLaneAndZero(Instruction *At, FunctionPlan &P,
                                        ArrayRef<uint32_t> Counters) {
  IRBuilder<> B(At);
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  PointerType *Global = PointerType::get(Ctx, 1);
  Value *Row = B.CreateCall(
      M.getOrInsertFunction(BankRowName, Global, Global, I32, I32),
      {T.Counters, B.getInt32(T.NumCounters), B.getInt32(T.numBanks())});
  for (uint32_t C : Counters) {
    B.CreateAtomicRMW(AtomicRMWInst::Add,
                      B.CreateConstInBoundsGEP1_32(I64, Row, globalIndex(P, C)),
                      loadCount(B, C), MaybeAlign(8),
                      AtomicOrdering::Monotonic);
    B.CreateStore(ConstantInt::get(Slots[C]->getAllocatedType(), 0), Slots[C]);
  }
}

// At each guarded loop's header (narrowUnboundedLoops), before the
// header's own add: every counter of the loop's own blocks is at most the
// header's count, since they were last zeroed together (each such block
// runs after the header, at most once per run of it). The header's count
// is the guard: at 2^32 - 1 the loop's counters are flushed and zeroed.
void CounterEmitter::guardNarrowedLoops(FunctionPlan &P) {
  Type *I32 = Type::getInt32Ty(Ctx);
  MDBuilder MDB(Ctx);
  for (GuardedLoop &G : Guarded) {
    // Flushed and zeroed on its back edge (flushAtOuterBackEdges): each
    // counter of its own blocks is at most 1.
    if (FlushedHeaders.contains(G.Header))
      continue;
    IRBuilder<> B(&*G.Header->getFirstInsertionPt());
    // 32-bit (narrowSlot), or the header's runs register
    AllocaInst *Slot = G.Runs ? G.Runs : Slots[G.HeaderCounter];
    Value *Runs =
        B.CreateTrunc(B.CreateLoad(Slot->getAllocatedType(), Slot), I32);
    Instruction *After = &*B.GetInsertPoint();
    Instruction *Wrap = SplitBlockAndInsertIfThen(
        B.CreateICmpEQ(Runs, B.getInt32(GuardWrapAt)), After,
        /*Unreachable=*/false, MDB.createUnlikelyBranchWeights());
    if (GuardLaneAdds)
      addEachLaneAndZero(Wrap, P, G.Counters);
    else
      flushAndZero(Wrap, P, G.Counters);
    if (!G.Runs)
      continue; // the header's own add follows
    IRBuilder<> AtWrap(Wrap);
    AtWrap.CreateStore(B.getInt32(0), G.Runs);
    B.SetInsertPoint(After);
    B.CreateStore(B.CreateAdd(B.CreateLoad(I32, G.Runs), B.getInt32(1)),
                  G.Runs);
  }
}

// The counters of P's blocks in loops beyond the first LoopRegisterBudget,
// by the blocks' estimated frequency, hottest first: these stay in the
// thread's local memory (slots of one array mem2reg leaves) instead of
// registers. A counter of a loop block lives in a register (two, 64-bit)
// through the whole loop, and through an outer loop that whole nest: Thrust's
// radix-sort histogram kept about 30 through its loop over portions of the
// input (16 of them its partial tile's guarded loads, run once per portion),
// 96 registers against 32. Device code of counting builds. Off by default
// (0): with 8, the histogram took 48 registers and ran 4.2x instead of 2.0x
// on an H200 (its counters' local-memory adds in the loop cost more than
// the occupancy gained); curand_init's skip-ahead, the same (below).
static cl::opt<unsigned> LoopRegisterBudget(
    "pasta-loop-counter-registers", cl::Hidden, cl::init(0),
    cl::desc("PASTA: counters of loop blocks kept in registers, the hottest "
             "first; the others in local memory (0: all in registers)"));

// Without a budget, a function with more counters of loop blocks than this
// keeps them all in local memory (0, the default: never). curand_init's
// skip-ahead (inlined: five loops of 16 guarded xors of a table's row)
// keeps 80 in registers: 127 against the plain kernel's 40. With 32 its
// counting copy took 40, but on an H200 ran 2.31x the plain kernel where
// the copy with its counters in registers ran 1.09x (1,024 x 256 threads:
// 640 bytes of counters per thread do not stay in L1), and the
// myocyte-like kernel's 1.02x -> 1.07x (working-set copy 2.79x -> 3.68x).
static cl::opt<unsigned> ManyLoopCounters(
    "pasta-many-loop-counters", cl::Hidden, cl::init(0),
    cl::desc("PASTA: without -pasta-loop-counter-registers, functions with "
             "more counters of loop blocks than this keep them in local "
             "memory (0: never)"));

DenseSet<AllocaInst *>
CounterEmitter::countsInLocalMemory(const FunctionPlan &P) {
  DenseSet<AllocaInst *> InMemory;
  for (uint32_t C : AtomicLoopCounters)
    if (BitOf[C] < 0 && !InPlace.count(C) && !AddedAtLoopExit.count(C))
      InMemory.insert(Slots[C]);
  NumAtomicLoopCounters += InMemory.size();
  if (!CountingBuild || T.Target == PASTA_TARGET_HOST ||
      (!LoopRegisterBudget && !ManyLoopCounters))
    return InMemory;
  Function &F = *P.F;
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  if (LI.empty())
    return InMemory;
  // Counters added to in a loop (not those its exit adds the trip count
  // to: they hold no register in the loop).
  SmallVector<const CountedBlock *, 16> Blocks;
  for (const CountedBlock &CB : P.Blocks)
    if (CB.Measured && BitOf[CB.Counter] < 0 && !InPlace.count(CB.Counter) &&
        !AddedAtLoopExit.count(CB.Counter) && LI.getLoopFor(CB.BB))
      Blocks.push_back(&CB);
  unsigned Budget = LoopRegisterBudget;
  if (!Budget && Blocks.size() <= ManyLoopCounters)
    return InMemory;
  if (Budget && Blocks.size() <= Budget)
    return InMemory;
  auto &BFI = FAM.getResult<BlockFrequencyAnalysis>(F);
  SmallVector<std::pair<uint64_t, AllocaInst *>, 16> InLoops;
  SmallPtrSet<AllocaInst *, 16> Seen; // a shared counter: its first block's
  for (const CountedBlock *CB : Blocks)
    if (Seen.insert(Slots[CB->Counter]).second)
      InLoops.push_back(
          {BFI.getBlockFreq(CB->BB).getFrequency(), Slots[CB->Counter]});
  // Equal frequencies keep the blocks' order (sort is not stable).
  llvm::sort(InLoops, [&](const auto &A, const auto &B) {
    if (A.first != B.first)
      return A.first > B.first;
    return find(Slots, A.second) < find(Slots, B.second);
  });
  for (size_t K = Budget; K < InLoops.size(); ++K)
    NumCountersInLocalMemory += InMemory.insert(InLoops[K].second).second;
  return InMemory;
}

// The block counters P's counting copy adds to in loops that wait for
// global atomics (AtomicLoops.h), kept in local memory
// (countsInLocalMemory) instead of registers through the loop, and left
// out of the wrap guard's 32-bit counters (narrowUnboundedLoops), whose
// flush in the loop would hold registers of its own. Not a generic
// access's four address-space counters: each execution adds to all four
// in every lane, and in local memory they cost more than their registers
// (SlabHash's build_table_kernel ran 1.20x clang's plain build with them
// in registers, 1.96x in memory, on an H200). Device code of counting
// builds; not divergence or trace copies, which keep the counting code's
// shape.
void CounterEmitter::findAtomicLoopCounters(const FunctionPlan &P) {
  AtomicLoopCounters.clear();
  Function &F = *P.F;
  if (!CountingBuild || T.Target == PASTA_TARGET_HOST || P.ThreadLocalCounts ||
      none_of(instructions(F),
              [](const Instruction &I) { return waitsForGlobalAtomic(I); }))
    return;
  LoopInfo *Loops = loopsForNarrowing(F);
  if (!Loops)
    return;
  AtomicLoops Waiting(FAM.getResult<BlockFrequencyAnalysis>(F));
  for (const CountedBlock &CB : P.Blocks) {
    if (!CB.Measured || !Waiting.waits(Loops->getLoopFor(CB.BB)))
      continue;
    if (CB.Counter != 0 && CB.Counter < NumOwn)
      AtomicLoopCounters.insert(CB.Counter);
  }
}

// The counters of Kept in local memory, as the 64-bit slots of one array
// (one alloca in F's entry, each slot zeroed there) addressed in the local
// address space at each load and store: each counter its own alloca, or a
// generic address of a slot made once at the entry, made the NVPTX back end
// hold each slot's address in a 64-bit register through the loops
// (curand_init's skip-ahead: 128 registers with 64 of its 80 counters in
// memory, as many as with all in registers); here one base register and an
// offset in each instruction. A 32-bit counter uses its slot's low half.
// Volatile: the code generator's SROA (NVPTX) would promote them again.
void CounterEmitter::keepCountsInOneArray(Function &F,
                                          ArrayRef<AllocaInst *> Kept) {
  if (Kept.empty())
    return;
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  const DataLayout &DL = M.getDataLayout();
  AllocaInst *Array =
      B.CreateAlloca(ArrayType::get(B.getInt64Ty(), Kept.size()),
                     DL.getAllocaAddrSpace(), nullptr, "pasta.counts.mem");
  Array->setAlignment(Align(8));
  // NVPTX allocates in the generic space; its local space is 5, as AMDGPU's
  // allocas are. There the base goes through an empty inline-assembly move:
  // the back end sees no frame address in the slots' addresses to fold into
  // a per-slot register that MachineLICM then hoists (NVPTX has no register
  // limit at that point to stop it).
  constexpr unsigned LocalAS = 5;
  Value *Base = Array;
  if (DL.getAllocaAddrSpace() != LocalAS) {
    PointerType *Local = PointerType::get(Ctx, LocalAS);
    Base = B.CreateAddrSpaceCast(Array, Local);
    StringRef Reg = DL.getPointerSizeInBits(LocalAS) == 32 ? "=r,0" : "=l,0";
    Base = B.CreateCall(InlineAsm::get(FunctionType::get(Local, {Local}, false),
                                       "", Reg,
                                       /*hasSideEffects=*/false),
                        {Base}, "pasta.counts.local");
  }
  // Each slot zeroed whole at entry (a memset became a loop of byte
  // stores), in place of the counter's own store of its initial 0 there.
  for (size_t K = 0; K < Kept.size(); ++K)
    B.CreateStore(B.getInt64(0),
                  B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Base, 8 * K));
  DenseMap<LoadInst *, unsigned> SlotOf;
  for (size_t K = 0; K < Kept.size(); ++K) {
    AllocaInst *R = Kept[K];
    for (User *U : make_early_inc_range(R->users())) {
      auto *I = cast<Instruction>(U);
      if (auto *S = dyn_cast<StoreInst>(I);
          S && S->getParent() == &Entry && S->getPointerOperand() == R &&
          match(S->getValueOperand(), m_Zero())) {
        S->eraseFromParent();
        continue;
      }
      IRBuilder<> At(I);
      Value *Slot = At.CreateConstInBoundsGEP1_64(At.getInt8Ty(), Base, 8 * K);
      if (auto *L = dyn_cast<LoadInst>(I); L && L->getPointerOperand() == R) {
        L->setOperand(LoadInst::getPointerOperandIndex(), Slot);
        L->setVolatile(true);
        SlotOf[L] = K;
      } else if (auto *S = dyn_cast<StoreInst>(I);
                 S && S->getPointerOperand() == R) {
        S->setOperand(StoreInst::getPointerOperandIndex(), Slot);
        S->setVolatile(true);
      } else {
        I->replaceUsesOfWith(R, At.CreateAddrSpaceCast(Slot, R->getType()));
      }
    }
    R->eraseFromParent();
  }
  SmallVector<CallInst *, 4> Flushes;
  for (Instruction &I : instructions(F))
    if (auto *C = dyn_cast<CallInst>(&I))
      if (Function *Callee = C->getCalledFunction();
          Callee && Callee->getName() == DeviceFlushIndexedName)
        Flushes.push_back(C);
  for (CallInst *C : Flushes)
    flushArrayDirectly(C, Array, SlotOf);
}

// An out-of-line flush (__pasta_flush_indexed) whose staged values include
// every counter of Array, copied there from it just before: Array goes to
// the runtime itself, in a second call, and the copies go. A copy staged
// all of them at once: ptxas loaded them into registers together, 32 more
// than the kernel's own (curand's skip-ahead, 80 counters: 72 registers
// against 40). Other flushes keep their copies.
void CounterEmitter::flushArrayDirectly(
    CallInst *Flush, AllocaInst *Array,
    const DenseMap<LoadInst *, unsigned> &SlotOf) {
  auto *Table = dyn_cast<GlobalVariable>(Flush->getArgOperand(5));
  auto *Staged =
      dyn_cast<AllocaInst>(Flush->getArgOperand(4)->stripPointerCasts());
  auto *N = dyn_cast<ConstantInt>(Flush->getArgOperand(6));
  auto *Indices =
      Table ? dyn_cast_or_null<ConstantDataArray>(Table->getInitializer())
            : nullptr;
  if (!Staged || !N || !Indices)
    return;
  uint64_t Size = N->getZExtValue();
  uint64_t Slots = cast<ArrayType>(Array->getAllocatedType())->getNumElements();
  // The stores staging each value (position J), before the call in its
  // block, and the slot each copies (or -1).
  SmallVector<StoreInst *, 32> StoreAt(Size, nullptr);
  SmallVector<int64_t, 32> SlotAt(Size, -1);
  SmallVector<int64_t, 32> PositionOf(Slots, -1);
  for (Instruction &I : *Flush->getParent()) {
    if (&I == Flush)
      break;
    auto *S = dyn_cast<StoreInst>(&I);
    auto *G = S ? dyn_cast<GetElementPtrInst>(S->getPointerOperand()) : nullptr;
    if (!G || G->getPointerOperand() != Staged || G->getNumIndices() != 2)
      continue;
    auto *J = dyn_cast<ConstantInt>(G->getOperand(2));
    if (!J || J->getZExtValue() >= Size || StoreAt[J->getZExtValue()])
      return;
    uint64_t Pos = J->getZExtValue();
    StoreAt[Pos] = S;
    Value *V = S->getValueOperand();
    if (auto *Z = dyn_cast<ZExtInst>(V))
      V = Z->getOperand(0);
    if (auto *L = dyn_cast<LoadInst>(V); L && SlotOf.count(L)) {
      unsigned K = SlotOf.lookup(L);
      if (PositionOf[K] >= 0)
        return;
      PositionOf[K] = Pos;
      SlotAt[Pos] = K;
    }
  }
  if (is_contained(StoreAt, nullptr) || is_contained(PositionOf, -1))
    return;
  // The array's own call, each slot to the counter its copy went to.
  SmallVector<uint32_t, 32> ArrayIndices;
  for (uint64_t K = 0; K < Slots; ++K)
    ArrayIndices.push_back(Indices->getElementAsInteger(PositionOf[K]));
  IRBuilder<> B(Flush->getNextNode());
  SmallVector<Value *, 7> Args(Flush->args());
  Args[4] = B.CreatePointerCast(Array, Flush->getArgOperand(4)->getType());
  Args[5] = indexTable(ArrayIndices, "__pasta_flush_indices");
  Args[6] = B.getInt32(Slots);
  B.CreateCall(Flush->getFunctionType(), Flush->getCalledOperand(), Args);
  // The rest staged in order, without gaps; no call if nothing is left.
  SmallVector<uint32_t, 32> Rest;
  // A copy: the store, its (zero-extended) load, their addresses.
  auto EraseCopy = [](StoreInst *S) {
    auto *V = cast<Instruction>(S->getValueOperand());
    SmallVector<Value *, 2> Addresses = {S->getPointerOperand()};
    S->eraseFromParent();
    if (auto *Z = dyn_cast<ZExtInst>(V)) {
      V = cast<Instruction>(Z->getOperand(0));
      Z->eraseFromParent();
    }
    Addresses.push_back(cast<LoadInst>(V)->getPointerOperand());
    V->eraseFromParent();
    for (Value *A : Addresses)
      RecursivelyDeleteTriviallyDeadInstructions(A);
  };
  for (uint64_t Pos = 0; Pos < Size; ++Pos) {
    StoreInst *S = StoreAt[Pos];
    if (SlotAt[Pos] >= 0) {
      EraseCopy(S);
      continue;
    }
    auto *G = cast<GetElementPtrInst>(S->getPointerOperand());
    G->setOperand(2,
                  ConstantInt::get(G->getOperand(2)->getType(), Rest.size()));
    Rest.push_back(Indices->getElementAsInteger(Pos));
  }
  if (Rest.empty()) {
    Value *StagedArg = Flush->getArgOperand(4);
    Flush->eraseFromParent();
    // The staging array goes with its last use (its cast too).
    RecursivelyDeleteTriviallyDeadInstructions(StagedArg);
  } else {
    Flush->setArgOperand(5, indexTable(Rest, "__pasta_flush_indices"));
    Flush->setArgOperand(6, ConstantInt::get(N->getType(), Rest.size()));
  }
  if (Table->use_empty())
    Table->eraseFromParent();
}

// The blocks of L that run after one of Inners (inner loops of L) in an
// iteration: reachable from their exits without passing L's header.
static SmallPtrSet<const BasicBlock *, 32>
blocksAfterLoops(const Loop *L, ArrayRef<Loop *> Inners) {
  SmallPtrSet<const BasicBlock *, 32> After;
  SmallVector<BasicBlock *, 16> Work;
  auto Reach = [&](BasicBlock *BB) {
    if (L->contains(BB) && BB != L->getHeader() && After.insert(BB).second)
      Work.push_back(BB);
  };
  for (Loop *Inner : Inners) {
    SmallVector<BasicBlock *, 4> Exits;
    Inner->getExitBlocks(Exits);
    for (BasicBlock *Exit : Exits)
      Reach(Exit);
  }
  while (!Work.empty())
    for (BasicBlock *Succ : successors(Work.pop_back_val()))
      Reach(Succ);
  return After;
}

// The instructions of L's blocks, its inner loops' included.
static size_t loopSize(const Loop *L) {
  size_t Size = 0;
  for (const BasicBlock *BB : L->blocks())
    Size += BB->size();
  return Size;
}

// How many of Counters' blocks run after L's largest inner loops in an
// iteration: the ones a flush on L's back edge keeps out of registers where
// the iteration's code is largest (a counter added before or in such a loop
// is live there, flushed or not). Of the inner loops within a tenth of the
// largest, the one with the fewest counters after it: curand's skip-ahead
// (its outer loop's one inner loop holds the 80 counters of five equal
// unrolled loops, one counter after it) takes 128 registers with the
// flush and without it, and the flush ran once per digit of every thread.
static size_t countersAfterLargestLoops(const Loop *L,
                                        ArrayRef<const CountedBlock *> Blocks) {
  size_t Largest = 0;
  for (const Loop *Inner : L->getSubLoops())
    Largest = std::max(Largest, loopSize(Inner));
  size_t Fewest = SIZE_MAX;
  for (Loop *Inner : L->getSubLoops()) {
    if (loopSize(Inner) * 10 < Largest * 9)
      continue;
    SmallPtrSet<const BasicBlock *, 32> After = blocksAfterLoops(L, {Inner});
    Fewest = std::min<size_t>(Fewest, count_if(Blocks, [&](auto *CB) {
                                return After.contains(CB->BB);
                              }));
  }
  return Fewest == SIZE_MAX ? 0 : Fewest;
}

static cl::opt<unsigned> OuterBackEdgeFlushMin(
    "pasta-outer-back-edge-flush", cl::Hidden, cl::init(8),
    cl::desc("PASTA: an outermost loop with inner loops and at least this "
             "many counters in registers, as many of them added after its "
             "largest inner loop, flushes them on its back edge (0: never)"));

// An outermost loop with inner loops flushes the counters of its blocks on
// its back edge and starts the next iteration from zero: a counter added to
// after an inner loop is then not live through it (its value at the header
// is zero whichever way it is entered). Where the loop runs once per thread
// (CUB's loop over portions of 2^30 items around its tile loop) the back
// edge never runs, so the flush costs nothing; each further iteration costs
// one flush of these counters, as at a return, which is why only loops with
// many counters do it, and only where many of them are added after the
// largest inner loop (countersAfterLargestLoops). Exact: what the back edge
// flushes, the return does not flush again. Counts alike in every thread
// block go to the first block's scaled flush as at a return.
void CounterEmitter::flushAtOuterBackEdges(FunctionPlan &P) {
  Function &F = *P.F;
  FlushedHeaders.clear();
  if (!OuterBackEdgeFlushMin || !CountingBuild ||
      T.Target == PASTA_TARGET_HOST || P.Kind != PASTA_FUNC_KERNEL ||
      !P.Placed || ThreadLocalCounts || !threadEnds(F).empty())
    return;
  FAM.invalidate(F, PreservedAnalyses::none());
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  SmallVector<std::pair<BasicBlock *, SmallVector<uint32_t, 16>>, 2> Flushes;
  for (Loop *L : LI) {
    BasicBlock *Latch = L->getLoopLatch();
    if (L->getSubLoops().empty() || !Latch)
      continue;
    SmallVector<uint32_t, 16> Counters;
    SmallVector<const CountedBlock *, 16> Blocks;
    for (const CountedBlock &CB : P.Blocks)
      if (CB.Measured && BitOf[CB.Counter] < 0 && !InPlace.count(CB.Counter) &&
          !AddedAtLoopExit.count(CB.Counter) && L->contains(CB.BB)) {
        Counters.push_back(CB.Counter);
        Blocks.push_back(&CB);
      }
    // Few counters added after the largest inner loop: the rest are live
    // there whether flushed or not, and each further iteration would pay a
    // flush for nothing (HeCBench bh's SummarizationKernel: three passes of
    // a spin loop, 34 counters, none after it; curand's skip-ahead).
    if (Counters.size() < OuterBackEdgeFlushMin ||
        countersAfterLargestLoops(L, Blocks) < OuterBackEdgeFlushMin)
      continue;
    llvm::sort(Counters); // a shared counter (shareLikeCounters): once
    Counters.erase(std::unique(Counters.begin(), Counters.end()),
                   Counters.end());
    Flushes.push_back({SplitEdge(Latch, L->getHeader()), std::move(Counters)});
    FlushedHeaders.insert(L->getHeader());
  }
  for (auto &[BackEdge, Counters] : Flushes) {
    flushAlikeBeforeNests(BackEdge->getSingleSuccessor(), P, Counters);
    flushAndZero(BackEdge->getTerminator(), P, Counters);
  }
}

// Flushes Counters at At, as at a return (counts alike in every thread
// block from the first block), and zeroes them.
void CounterEmitter::flushAndZero(Instruction *At, FunctionPlan &P,
                                  ArrayRef<uint32_t> Counters) {
  SmallVector<uint32_t, 16> Rest = flushAlikeFromFirstBlock(At, P, Counters);
  if (flushUnits(P, Rest) <= InlineFlushLimit)
    emitInlineFlush(At, P, Rest);
  else
    emitIndexedFlush(At, P, Rest);
  IRBuilder<> B(At);
  for (uint32_t C : Counters)
    B.CreateStore(ConstantInt::get(Slots[C]->getAllocatedType(), 0), Slots[C]);
}

// In the outermost loop whose header is Header (flushed on its back edge,
// flushAtOuterBackEdges), the counts alike in every thread block that its
// blocks add before an inner loop nest (a loop with loops inside: CUB's
// tile loop, after its four loops clearing shared bins) are flushed by the
// first thread block where the nest is entered, and zeroed: not live
// through the nest. Other thread blocks only test that they are not the
// first.
void CounterEmitter::flushAlikeBeforeNests(BasicBlock *Header, FunctionPlan &P,
                                           ArrayRef<uint32_t> Counters) {
  Function &F = *P.F;
  DominatorTree DT(F); // the CFG changed since the analyses ran
  LoopInfo LI(DT);
  Loop *L = LI.getLoopFor(Header);
  if (!L || L->getHeader() != Header)
    return;
  DenseMap<BasicBlock *, uint32_t> AlikeOf;
  for (const CountedBlock &CB : P.Blocks)
    if (CB.AlikeInEveryBlock && is_contained(Counters, CB.Counter))
      AlikeOf[CB.BB] = CB.Counter;
  for (Loop *Nest : L->getSubLoops()) {
    BasicBlock *Pre = Nest->getLoopPredecessor();
    if (Nest->getSubLoops().empty() || !Pre || LI.getLoopFor(Pre) != L)
      continue;
    // The blocks of L on a way from its header to the nest, in one
    // iteration.
    SmallVector<BasicBlock *, 16> Work{Pre};
    SmallPtrSet<BasicBlock *, 32> Before{Pre};
    while (!Work.empty()) {
      BasicBlock *BB = Work.pop_back_val();
      if (BB == Header)
        continue;
      for (BasicBlock *Pred : predecessors(BB))
        if (L->contains(Pred) && Before.insert(Pred).second)
          Work.push_back(Pred);
    }
    SmallVector<uint32_t, 8> Alike;
    for (BasicBlock *BB : Before)
      if (auto It = AlikeOf.find(BB); It != AlikeOf.end())
        Alike.push_back(It->second);
    if (Alike.empty())
      continue;
    llvm::sort(Alike);
    Instruction *At = Pre->getTerminator();
    flushAlikeFromFirstBlock(At, P, Alike);
    IRBuilder<> B(At);
    for (uint32_t C : Alike)
      B.CreateStore(ConstantInt::get(Slots[C]->getAllocatedType(), 0),
                    Slots[C]);
  }
}

static cl::opt<unsigned> ManyCountersWhereTaken(
    "pasta-many-counters-where-taken", cl::Hidden, cl::init(32),
    cl::desc("PASTA: a counting kernel with at least this many counters of "
             "loop blocks counts the blocks of its crowded loops "
             "(-pasta-crowded-loop-units) where they are taken, and a device "
             "function called in such a loop that flushes at its returns, "
             "with at least this many block counters, every block (0: "
             "never)"));

static cl::opt<unsigned> RareLoopBlockRatio(
    "pasta-rare-loop-block-ratio", cl::Hidden, cl::init(1),
    cl::desc("PASTA: in a crowded loop (-pasta-crowded-loop-units), the "
             "blocks whose estimated frequency is below the loop header's "
             "divided by this are counted where taken"));

static cl::opt<unsigned> CrowdedLoopUnits(
    "pasta-crowded-loop-units", cl::Hidden, cl::init(128),
    cl::desc("PASTA: an outermost loop whose values live at its header (its "
             "phis and the values from outside it that it uses, in 32-bit "
             "units) reach this keeps no counters in registers "
             "(-pasta-many-counters-where-taken)"));

// The 32-bit registers the values live at L's header take (its phis, and
// the arguments and values from outside L that L uses): what the plain code
// holds through every iteration, before any counter.
static unsigned unitsLiveIntoLoop(const Loop &L, const DataLayout &DL) {
  SmallPtrSet<const Value *, 32> Seen;
  unsigned Units = 0;
  auto Add = [&](const Value *V) {
    if (!Seen.insert(V).second || !V->getType()->isSized())
      return;
    Units += std::max<uint64_t>(
        1, divideCeil(DL.getTypeSizeInBits(V->getType()).getFixedValue(), 32));
  };
  for (const PHINode &Phi : L.getHeader()->phis())
    Add(&Phi);
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB)
      for (const Value *Op : I.operands())
        if (isa<Argument>(Op) ||
            (isa<Instruction>(Op) && !L.contains(cast<Instruction>(Op))))
          Add(Op);
  return Units;
}

// Counting builds: where counters would crowd registers the plain code
// already fills, blocks are counted where they are taken
// (__pasta_count_lanes, as a once-per-thread cold edge: the first of the
// lanes running the block together adds their number; exact however the
// warp is split), with no register and nothing to flush. A wrong guess costs
// an atomic per execution, never a count.
//  - A kernel with many counters of loop blocks, in an outermost loop whose
//    live values reach CrowdedLoopUnits: every block of the loop less
//    frequent than its header (BlockFrequencyInfo). MCX's photon loop
//    (each thread simulates photons until the pool is empty; 173 units)
//    held about 95 64-bit counters: 255 registers and spills against 145
//    plain, 5.77x clang's plain build on an H200, 1.69x with its loop
//    blocks counted where taken (165 registers). Where the counters fit
//    (a small grid's pool loop of 59 units, 154 registers) the atomics
//    cost instead: 1.07x -> 1.46x with 1/16 of the header as the bound.
//  - A device function called in such a loop that flushes its own counts
//    at its returns (more than its callers take back: CalleeCounts.h),
//    with many block counters: every block but the entry. Its registers
//    added to the loop's at each call (MCX's launchnewphoton, 111
//    counters, once per photon), and its return's flush cost a vote, warp
//    sums and an atomic per counter at every call. Kernels are emitted
//    before the device functions they call (CrowdedCallees).
void CounterEmitter::countManyWhereTaken(const FunctionPlan &P) {
  if (!ManyCountersWhereTaken)
    return;
  Function &F = *P.F;
  BasicBlock *Entry = &F.getEntryBlock();
  auto Candidate = [&](const CountedBlock &CB) {
    return CB.Measured && !CB.AlikeInEveryBlock && CB.BB != Entry &&
           CB.Counter != 0 && CB.Counter < NumOwn && !InPlace.count(CB.Counter);
  };
  if (P.Kind == PASTA_FUNC_DEVICE) {
    if (!CrowdedCallees.count(&F) || (Returned && Returned->Returns.count(&F)))
      return; // not called in a crowded loop, or hands its counts back
    if (count_if(P.Blocks, Candidate) < ManyCountersWhereTaken)
      return;
    for (const CountedBlock &CB : P.Blocks)
      if (Candidate(CB))
        InPlace.insert(CB.Counter);
    return;
  }
  if (P.Kind != PASTA_FUNC_KERNEL)
    return;
  if (!AnalysesFresh) // planning split edges: counters on the new blocks
    FAM.invalidate(F, PreservedAnalyses::none());
  AnalysesFresh = true;
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  if (count_if(P.Blocks, [&](const CountedBlock &CB) {
        return Candidate(CB) && LI.getLoopFor(CB.BB);
      }) < ManyCountersWhereTaken)
    return;
  auto &BFI = FAM.getResult<BlockFrequencyAnalysis>(F);
  const DataLayout &DL = M.getDataLayout();
  for (Loop *L : LI) {
    if (unitsLiveIntoLoop(*L, DL) < CrowdedLoopUnits)
      continue;
    for (BasicBlock *BB : L->blocks())
      for (Instruction &I : *BB)
        if (auto *Call = dyn_cast<CallInst>(&I))
          if (Function *Callee = Call->getCalledFunction())
            CrowdedCallees.insert(Callee);
    uint64_t Header = BFI.getBlockFreq(L->getHeader()).getFrequency();
    for (const CountedBlock &CB : P.Blocks)
      if (Candidate(CB) && L->contains(CB.BB) &&
          BFI.getBlockFreq(CB.BB).getFrequency() * RareLoopBlockRatio < Header)
        InPlace.insert(CB.Counter);
  }
}

// Slot, a 64-bit counter only stored to (its initial value, at entry) so
// far, becomes a 32-bit one (narrowCounters).
static void narrowSlot(AllocaInst *Slot) {
  Type *I32 = Type::getInt32Ty(Slot->getContext());
  if (!all_of(Slot->users(), [](User *U) {
        auto *S = dyn_cast<StoreInst>(U);
        return S && isa<ConstantInt>(S->getValueOperand());
      }))
    return; // used already: stays 64-bit
  Slot->setAllocatedType(I32);
  for (User *U : Slot->users()) {
    auto *S = cast<StoreInst>(U);
    S->setOperand(
        0, ConstantInt::get(
               I32, cast<ConstantInt>(S->getValueOperand())->getZExtValue()));
  }
}

// LLVM takes inline assembly to possibly never return, so scalar evolution
// counts no trips of a loop holding one: CUB's tile loops, whose one access
// is `ld.global.nc` in inline PTX (counted as a load), kept a 64-bit count
// added in every trip. The counted ones return as a load does
// (asmAccessReturns): marked `willreturn` while the counting code is
// emitted (after placement), their loops' trip counts are added at the exits
// (addTripCount) and their counters narrowed (narrowCounters). Returns the
// calls marked, unmarked again after emission: the program's own code
// compiles as before.
static SmallVector<CallBase *, 8> markAsmAccessesReturning(Function &F) {
  SmallVector<CallBase *, 8> Marked;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (Call->isInlineAsm() && !Call->hasFnAttr(Attribute::WillReturn) &&
          asmAccessReturns(*Call)) {
        Call->addFnAttr(Attribute::WillReturn);
        Marked.push_back(Call);
      }
  return Marked;
}

static cl::opt<bool> ShareLikeCounters(
    "pasta-share-like-counters", cl::Hidden, cl::init(true),
    cl::desc("PASTA: a kernel's blocks whose sites are the same lines with "
             "the same counts add to one counter (counting builds)"));

// Blocks whose sites are the same lines with the same static mixes change
// the profile alike per execution: a line sums its sites' counts, and its
// executions over the distinct counters on it; a kernel sums its lines. So
// their counts can add up in one register, flushed into the first one's
// counter, the others staying zero: every line and kernel total is what
// it was. An unrolled loop around a short loop makes such copies:
// SlabHash's bulk search walks a bucket's slab list once per lane of the
// warp, 32 loops of one counted block each, whose 64-bit counters its
// counting copy kept to the exit (85 registers against 20) and flushed one
// by one (3.9x the plain kernel's time). Kernels of counting builds (trace
// builds count each access's own executions); only counters added to per
// execution in registers of their own (not bits, counts taken where taken,
// alike in every thread block, or guarded), without run-time address-space
// or length counters, and in no derived row (a derivation from one of them
// would split the sum wrongly). 32-bit counters (narrowCounters) share
// with 32-bit ones while their blocks' bounds on runs per call add up to
// less than 2^32: curand's skip-ahead (80 guarded xors in bounded loops,
// on one line) took 127 registers against 40 plain.
// The module's sites by function, and the counters any derived row names
// (shareLikeCounters), made again when the tables have grown.
void CounterEmitter::indexSitesAndDerived() {
  if (IndexedSites == T.Sites.size() && IndexedDerived == T.Derived.size())
    return;
  SitesOfFunc.clear();
  for (uint32_t I = 0; I < T.Sites.size(); ++I)
    SitesOfFunc[T.Sites[I].func].push_back(I);
  InDerivedRows.clear();
  for (const pasta_derived &D : T.Derived) {
    InDerivedRows.insert(D.counter);
    InDerivedRows.insert(D.source);
  }
  IndexedSites = T.Sites.size();
  IndexedDerived = T.Derived.size();
}

void CounterEmitter::shareLikeCounters(FunctionPlan &P,
                                       const DenseSet<uint32_t> &Narrow) {
  if (!ShareLikeCounters || !CountingBuild || T.Target == PASTA_TARGET_HOST ||
      P.Kind != PASTA_FUNC_KERNEL || P.ThreadLocalCounts)
    return;
  indexSitesAndDerived();
  uint32_t First = P.FirstCounter;
  auto Rows = SitesOfFunc.find(P.Index);
  if (Rows == SitesOfFunc.end())
    return;
  DenseSet<uint32_t> Unfit; // with run-time address-space or length counters
  // Each counter's sites: function, file, line and mix, sorted.
  using SiteKey = std::vector<uint32_t>;
  std::map<uint32_t, std::vector<SiteKey>> SitesOf;
  for (uint32_t I : Rows->second) {
    const pasta_site &S = T.Sites[I];
    if (S.counter < First || S.counter >= First + NumOwn)
      continue;
    uint32_t L = S.counter - First;
    if (S.dyn_counter != PASTA_NONE ||
        (S.bytes_counter != PASTA_NONE && S.bytes_counter != PASTA_WARP_TOTAL))
      Unfit.insert(L);
    SiteKey K{S.func, S.file, S.line};
    K.insert(K.end(), std::begin(S.mix), std::end(S.mix));
    SitesOf[L].push_back(std::move(K));
  }
  // The counter each kind of sites adds to, and for 32-bit counters the
  // most their blocks can run per call together (below 2^32).
  struct Sharing {
    uint32_t Counter;
    uint64_t Runs;
  };
  std::map<std::pair<bool, std::vector<SiteKey>>, Sharing> FirstWith;
  LoopInfo *LI = Narrow.empty() ? nullptr : loopsForNarrowing(*P.F);
  BasicBlock *Entry = &P.F->getEntryBlock();
  for (CountedBlock &CB : P.Blocks) {
    uint32_t C = CB.Counter;
    auto It = SitesOf.find(C);
    if (!CB.Measured || CB.BB == Entry || C == 0 || C >= NumOwn || Slots[C] ||
        InPlace.count(C) || CB.AlikeInEveryBlock || CB.ColdEdge ||
        CB.GridStrideBound || !CB.Generic.empty() || !CB.DynCounters.empty() ||
        !CB.Bytes.empty() || !CB.BytesCounters.empty() ||
        C == P.ThreadsCounter || GuardedCounters.count(C) || Unfit.count(C) ||
        InDerivedRows.count(First + C) || It == SitesOf.end())
      continue;
    // A 32-bit counter shares only with 32-bit ones, while their blocks'
    // runs per call add up to less than 2^32 (a sum may not wrap).
    bool Narrowed = Narrow.count(C);
    uint64_t Runs = 0;
    if (Narrowed) {
      if (LI)
        Runs = runsBelow2To32(CB.BB, *LI,
                              FAM.getResult<ScalarEvolutionAnalysis>(*P.F));
      if (!Runs)
        continue;
    }
    llvm::sort(It->second);
    auto [Shared, New] =
        FirstWith.try_emplace({Narrowed, It->second}, Sharing{C, Runs});
    if (New)
      continue;
    if (Narrowed && (Shared->second.Runs + Runs) >> 32) {
      Shared->second = {C, Runs}; // a new 32-bit counter for the next ones
      continue;
    }
    Shared->second.Runs += Runs;
    CB.Counter = Shared->second.Counter;
    ++NumSharedCounters;
  }
}

void CounterEmitter::emit(FunctionPlan &P) {
  Function &F = *P.F;
  // Read before the counting code goes in, only where the gather may run.
  Tail = GatherWarpAtExit && CountingBuild && P.Kind == PASTA_FUNC_KERNEL &&
                 T.Target == PASTA_TARGET_NVPTX
             ? findWaitFreeTail(F)
             : TailEntries();
  TailLanes = nullptr;
  // The function before's parked slots: its allocas are gone (promoted or
  // moved into its array), and a new slot may have the address of one. Kept
  // until here, loadWhole in this function's loop flushes (flushAndZero,
  // ahead of this function's parking) found such a stale entry and loaded
  // from a freed alloca: clang crashed, at random, on cuda-samples'
  // eigenvalues (bisect_large.cu).
  ParkedOf.clear();
  Parked.clear();
  Type *I64 = Type::getInt64Ty(Ctx), *I32 = Type::getInt32Ty(Ctx);
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  unsigned AllocaAS = M.getDataLayout().getAllocaAddrSpace();

  // Each counter's register: its own 64 bits, or one bit of a 32-bit mask
  // for measured blocks that run at most once per call (CounterPlacement.h).
  NumOwn = P.NumCounters;
  Carried.clear();
  if (Returned)
    if (auto It = Returned->CarriedBy.find(&F); It != Returned->CarriedBy.end())
      Carried = It->second;
  NumCalleeAccumulators += Carried.size();
  Slots.assign(NumOwn + Carried.size(), nullptr);
  BitOf.assign(NumOwn + Carried.size(), -1);
  SmallVector<AllocaInst *, 16> Registers;
  SmallVector<uint64_t, 16> Initial;
  auto NewRegister = [&](Type *Ty) {
    Registers.push_back(B.CreateAlloca(Ty, AllocaAS, nullptr, "pasta.count"));
    Initial.push_back(0);
    return Registers.back();
  };
  // A kernel's bounds checks' cold edges that run at most once per thread,
  // a tile check's edge to its partial tile and the blocks of that loop
  // that run only after it (CountedBlock::CountWhereTaken; counting builds)
  // are counted where they are taken, by the lanes taking them
  // (__pasta_count_lanes): no bit, no register through the loop, nothing at
  // any flush.
  InPlace.clear();
  SmallVector<const CountedBlock *, 2> GridStride;
  if (CountingBuild && P.Kind == PASTA_FUNC_KERNEL && P.Placed &&
      T.Target != PASTA_TARGET_HOST)
    for (const CountedBlock &CB : P.Blocks) {
      if (!CB.Measured || CB.AlikeInEveryBlock || CB.BB == &Entry)
        continue;
      // A grid-stride loop's header: the first thread adds its runs at
      // entry (GridStrideLoops.h); like a block counted where taken, it
      // holds no register and nothing flushes it.
      if (CB.GridStrideBound)
        GridStride.push_back(&CB);
      if (CB.CountWhereTaken || CB.GridStrideBound)
        InPlace.insert(CB.Counter);
    }
  if (CountingBuild && P.Placed && T.Target != PASTA_TARGET_HOST)
    countManyWhereTaken(P);
  uint32_t Bits = 0;
  for (CountedBlock &CB : P.Blocks) {
    // Host counters stay 64-bit: a flush would extract each bit (registers
    // are 64-bit there anyway).
    if (!P.Placed || !CB.Measured || !CB.Once ||
        T.Target == PASTA_TARGET_HOST || InPlace.count(CB.Counter))
      continue;
    if (Bits % 32 == 0)
      NewRegister(I32);
    Slots[CB.Counter] = Registers.back();
    BitOf[CB.Counter] = Bits++ % 32;
  }
  SmallVector<CallBase *, 8> MarkedReturning;
  if (CountingBuild && T.Target != PASTA_TARGET_HOST && AsmAccessesReturn)
    MarkedReturning = markAsmAccessesReturning(F);
  AnalysesFresh = false; // and the marks above are seen from here on
  DenseSet<uint32_t> Narrow = narrowCounters(P);
  findAtomicLoopCounters(P);
  findColdSpaceSets(P);
  narrowUnboundedLoops(P, Narrow);
  shareLikeCounters(P, Narrow);
  for (const GuardedLoop &G : Guarded)
    if (G.Runs) { // promoted with the counters, zero at entry
      Registers.push_back(G.Runs);
      Initial.push_back(0);
    }
  for (uint32_t I = 0; I < Slots.size(); ++I)
    if (!Slots[I])
      Slots[I] = NewRegister(I64);
  // Bits of blocks one lane of a warp runs: that lane flushes them itself
  // (flushOwnLanes). Kernels and device functions of counting builds.
  OneLane.clear();
  if (CountingBuild && T.Target != PASTA_TARGET_HOST)
    for (const CountedBlock &CB : P.Blocks)
      if (BitOf[CB.Counter] >= 0 && oneLaneBlock(CB.BB))
        OneLane.insert(CB.Counter);
  // A launch is counted once, by the first thread of the grid, at entry (so
  // the launch counter costs nothing at exit) or, with
  // -pasta-launch-count-at-exit, at each of its exits (emitted with the
  // flushes below), with the threads it started when a derived counter
  // needs them; other functions count calls per thread. The entry block
  // runs exactly once per call: its count starts at 1.
  PointerType *Global = PointerType::get(Ctx, 1);
  bool LaunchAtExit = countsLaunchAtExit(P);
  if (P.Kind == PASTA_FUNC_KERNEL && !LaunchAtExit)
    emitLaunchCount(B, P, PrefetchCounterRows && CountingBuild);
  for (const CountedBlock *CB : GridStride) // an `int` bound: signed
    B.CreateCall(M.getOrInsertFunction(CountGridStrideName, B.getVoidTy(),
                                       Global, I64, I32),
                 {B.CreateConstInBoundsGEP1_32(I64, T.Counters,
                                               P.FirstCounter + CB->Counter),
                  B.CreateSExt(CB->GridStrideBound, I64),
                  B.getInt32(CB->GridStrideFlags)});
  findHostOnceCounters(P);
  auto StartAtOne = [&](uint32_t Counter) {
    if (HostOnce.count(Counter)) // added to memory at entry
      return;
    size_t R = find(Registers, Slots[Counter]) - Registers.begin();
    Initial[R] |= BitOf[Counter] >= 0 ? 1u << BitOf[Counter] : 1;
  };
  if (P.Kind != PASTA_FUNC_KERNEL)
    StartAtOne(0);
  for (CountedBlock &CB : P.Blocks)
    if (CB.BB == &Entry && CB.Measured)
      StartAtOne(CB.Counter);
  ThreadLocalCounts = P.ThreadLocalCounts;
  for (size_t R = 0; R < Registers.size(); ++R) {
    Type *Ty = Registers[R]->getAllocatedType();
    if (!ThreadLocalCounts) {
      B.CreateStore(ConstantInt::get(Ty, Initial[R]), Registers[R]);
    } else if (Initial[R]) { // what outer activations left there stays
      Value *Old = B.CreateLoad(Ty, Registers[R]);
      B.CreateStore(B.CreateAdd(Old, ConstantInt::get(Ty, Initial[R])),
                    Registers[R]);
    }
  }

  // Loop blocks whose loop's trip count is known at its entry add it at
  // its exit (addTripCount); device code of counting builds only.
  bool TripCounts =
      CountingBuild && T.Target != PASTA_TARGET_HOST && !ThreadLocalCounts &&
      threadEnds(F).empty() && any_of(P.Blocks, [&](const CountedBlock &CB) {
        return CB.Measured && BitOf[CB.Counter] < 0 && CB.BB != &Entry;
      });
  if (TripCounts && !AnalysesFresh) // planning split edges
    FAM.invalidate(F, PreservedAnalyses::none());
  Trips.clear();
  AddedAtLoopExit.clear();
  auto CountedAtExit = [&](const CountedBlock &CB) {
    if (!TripCounts || GuardedCounters.count(CB.Counter))
      return false;
    auto &LI = FAM.getResult<LoopAnalysis>(F);
    auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
    auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    auto &TTI = FAM.getResult<TargetIRAnalysis>(F);
    if (!addTripCount(CB, LI, DT, SE, TTI) &&
        !addInvariantTripCount(CB, LI, DT, SE, TTI, Registers))
      return false;
    AddedAtLoopExit.insert(CB.Counter);
    return true;
  };
  for (CountedBlock &CB : P.Blocks) {
    if (is_contained(GridStride, &CB)) {
      // counted at entry, above
    } else if (InPlace.count(CB.Counter)) {
      B.SetInsertPoint(CB.BB, CB.BB->getFirstInsertionPt());
      B.CreateCall(M.getOrInsertFunction(CountLanesName, B.getVoidTy(), Global,
                                         I32, I32, I32),
                   {T.Counters, B.getInt32(T.NumCounters),
                    B.getInt32(T.numBanks()),
                    B.getInt32(globalIndex(P, CB.Counter))});
    } else if (CB.BB != &Entry && CB.Measured && !HostOnce.count(CB.Counter)) {
      // 32 bits where they are enough, whether the count is added to in
      // the loop or at its exit (narrowed before either add is made).
      if (Narrow.count(CB.Counter))
        narrowSlot(Slots[CB.Counter]);
      if (!CountedAtExit(CB)) {
        B.SetInsertPoint(CB.BB, CB.BB->getFirstInsertionPt());
        emitIncrement(B, CB.Counter);
      }
    }
    bool ColdSpaces = false;
    for (const GenericSite &G : CB.Generic) {
      if (ColdSpaceSets.count(G.Dyn)) {
        ColdSpaces = true;
        continue;
      }
      B.SetInsertPoint(G.Access);
      emitGenericCounting(B, G, Slots);
    }
    if (ColdSpaces)
      emitColdSpaceCounts(CB);
    // Run-time lengths add up in a register, like the block counts.
    for (const ByteCount &BC : CB.Bytes) {
      B.SetInsertPoint(BC.At);
      Value *Length =
          BC.Length
              ? BC.Length
              : shuffleSourceInRange(B, asmArithmetic(cast<CallBase>(*BC.At)));
      AllocaInst *Slot = Slots[BC.Counter];
      Value *Old = B.CreateLoad(I64, Slot);
      B.CreateStore(B.CreateAdd(Old, B.CreateZExtOrTrunc(Length, I64)), Slot);
    }
  }

  addCalleeCounts(P);
  flushAtOuterBackEdges(P);
  guardNarrowedLoops(P);
  ParkedOf.clear();
  Parked.clear();
  if (ParkAfterLoops && CountingBuild && P.Kind == PASTA_FUNC_KERNEL &&
      T.Target == PASTA_TARGET_NVPTX && !ThreadLocalCounts)
    parkCountsAfterLoops(P, Registers);

  const CountReturn *Returns = nullptr;
  const CountFrame *Frame = nullptr;
  if (Returned) {
    if (auto It = Returned->Returns.find(&F); It != Returned->Returns.end())
      Returns = &It->second;
    if (auto It = Returned->Frames.find(&F); It != Returned->Frames.end())
      Frame = &It->second;
  }
  if (T.Target == PASTA_TARGET_HOST) {
    emitHostFlushes(P, Slots);
    emitHostOnceIncrements(P);
  } else if (Returns) {
    // No thread ends in these (CalleeCounts.h): every count leaves by a
    // return.
    for (BasicBlock &BB : F)
      if (auto *RI = dyn_cast<ReturnInst>(BB.getTerminator()))
        returnCounts(RI, P, *Returns);
  } else if (Frame) {
    // Nor in frame twins.
    SmallVector<ReturnInst *, 4> Rets;
    for (BasicBlock &BB : F)
      if (auto *RI = dyn_cast<ReturnInst>(BB.getTerminator()))
        Rets.push_back(RI);
    for (ReturnInst *RI : Rets)
      addToFrame(RI, P, *Frame);
  } else {
    // Returns, and inline assembly that ends the thread (ThreadExits.h):
    // a thread that ends there never reaches a return.
    SmallVector<Instruction *, 4> Exits = threadEnds(F);
    SmallVector<ReturnInst *, 4> Rets;
    for (BasicBlock &BB : F) {
      if (auto *RI = dyn_cast<ReturnInst>(BB.getTerminator()))
        Rets.push_back(RI);
      else if (isa<ResumeInst>(BB.getTerminator()))
        Exits.push_back(BB.getTerminator());
    }
    for (ReturnInst *RI : Rets)
      flushPointsOf(RI, P, Exits);
    for (Instruction *Exit : Exits) {
      emitFlush(Exit, P);
      if (LaunchAtExit) { // after the exit's flush
        IRBuilder<> AtExit(Exit);
        emitLaunchCount(AtExit, P, false);
      }
    }
  }

  branchAroundColdSpaceCounts();
  // The counting code changed the CFG: the dominator tree mem2reg needs is
  // computed afresh (and stays valid: mem2reg keeps the CFG).
  FAM.invalidate(F, PreservedAnalyses::none());
  if (ThreadLocalCounts) {
    keepCountsThreadLocal(F, Registers);
  } else {
    DenseSet<AllocaInst *> InMemory = countsInLocalMemory(P);
    SmallVector<AllocaInst *, 16> Promoted, Kept;
    InMemory.insert(ColdSpaceSlots.begin(), ColdSpaceSlots.end());
    for (AllocaInst *R : Registers)
      (InMemory.count(R) ? Kept : Promoted).push_back(R);
    Kept.append(Parked.begin(), Parked.end());
    keepCountsInOneArray(F, Kept);
    if (TailLanes)
      Promoted.push_back(TailLanes);
    PromoteMemToReg(Promoted, FAM.getResult<DominatorTreeAnalysis>(F));
  }
  for (CallBase *Call : MarkedReturning)
    Call->removeFnAttr(Attribute::WillReturn);
  ++NumFunctions;
}
