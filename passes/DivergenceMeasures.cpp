//===- DivergenceMeasures.cpp - The measuring code of one copy ------------===//
//
// See DivergenceMeasures.h; CopyMeasures::Impl below says where each
// figure goes (what repeats in warp-uniform loops: UniformLoops.h).
//
//===----------------------------------------------------------------------===//
#include "DivergenceMeasures.h"
#include "DeviceRuntime.h"
#include "DivergenceFigures.h"
#include "GridIndices.h"
#include "IRHelpers.h"
#include "InstrumentationMD.h"
#include "LaneAffine.h"
#include "ThreadExits.h"

#include "pasta/abi.h"
#include "pasta/div_batch.h"
#include "pasta/div_proofs.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <array>
#include <deque>
#include <map>
#include <set>
#include <tuple>

using namespace llvm;
using namespace pasta;

#define DEBUG_TYPE "pasta"

STATISTIC(NumBodiesAtBranch, "Loop bodies counted from their branch's ballot");
STATISTIC(
    NumIntervalBodies,
    "Loop bodies on an interval of the iteration counted at the preheader");
STATISTIC(NumIntervalConflicts,
          "Shared accesses in such bodies summed at the preheader");
STATISTIC(NumUndrainedHeaders,
          "Loop headers visited too few times a call to need a drain");
STATISTIC(NumOutOfLineAccesses,
          "Divergence copies' access measurements called out of line");
static constexpr const char *FlushName = "__pasta_flush";
STATISTIC(NumLanesTrips, "Uniform loops' accesses whose trips are summed "
                         "at the preheader at a step of part of a sector");

// OutOfLineAccessGroups by default. Lower, small copies call the helpers
// out of line too: ptxas takes 40-60% less time on lud's and backprop's
// copies with every group out of line, at the price of a call per
// measurement (run time not yet measured).
STATISTIC(NumBatchedAccesses,
          "Out-of-line access measurements staged for one call per line");
STATISTIC(NumBatchCalls, "Calls measuring a line's staged accesses");

// Off by default: an out-of-line copy measures the groups of one source line
// (or of one block) in one block under one condition with one call
// (__pasta_div_access_batch_out) instead of one each. ptxas spends some
// 10-20 ms per call on `myocyte 12`'s copy: its 547 calls became 230 and its
// divergence build 14.0x -> 11.2x the plain compile, profiles equal, but on
// an H200 the copy ran 44% longer (37% by line): each access is still a
// call, from the batch helper's loop.
enum class BatchBy { None, Lines, Blocks };
static cl::opt<BatchBy> BatchAccesses(
    "pasta-div-batch", cl::init(BatchBy::None),
    cl::desc("PASTA: divergence copies that call the access helpers out of "
             "line measure several accesses of one block with one call"),
    cl::values(clEnumValN(BatchBy::None, "none", "a call per access group"),
               clEnumValN(BatchBy::Lines, "lines",
                          "a call per source line of a block"),
               clEnumValN(BatchBy::Blocks, "blocks", "a call per block")));

static cl::opt<unsigned> OutOfLineAbove(
    "pasta-div-out-of-line-above", cl::init(OutOfLineAccessGroups),
    cl::desc("PASTA: a divergence copy with more measured access groups "
             "than this calls the access helpers out of line"));

// The runtime's test for it and that lane's add of a register
// (device_rt_div_rows.inc.c; DivergenceEmission.cpp's twinTooCostly does not
// count them: they are the return's flush, not measurements).
static constexpr const char *DivFlushLoneName = "__pasta_div_flush_lone";
static constexpr const char *DivFlushAddName = "__pasta_div_flush_add";
static constexpr const char *DivFlushLanesFastName =
    "__pasta_div_flush_lanes_fast";
static constexpr const char *DivFlushLanesName = "__pasta_div_flush_lanes";
static constexpr const char *DivFlushCounterLanesName =
    "__pasta_div_flush_counter_lanes";
static constexpr const char *DivFlushLanesFastSignedName =
    "__pasta_div_flush_lanes_fast_signed";
static constexpr const char *DivFlushCounterLanesSignedName =
    "__pasta_div_flush_counter_lanes_signed";
static constexpr const char *DivFlushAdd32Name = "__pasta_div_flush_add32";

// The access, branch and block helpers add to the registers in a warp's
// first active lane, so at a return most warps hold their figures in one
// lane (lane 0 in warps that stayed whole): that lane adds each nonzero
// register to its counter itself, with no warp sum per register.
static cl::opt<bool> LoneLaneFlush(
    "pasta-div-lone-lane-flush", cl::init(true), cl::Hidden,
    cl::desc("Divergence copies: at a return, a warp whose nonzero "
             "registers are all one lane's adds them from that lane"));

// A warp that is not full (every warp of nw_tile's 16-thread blocks, a
// grid's last warp, lanes that leave a loop apart) never takes the fast
// path, and staged its registers for out-of-line __pasta_flush calls (8 in
// nw_tile's copy) wherever two lanes or more hold figures. A partial warp
// whose registers are all small now sums each over its active lanes inline
// (one redux.sync on NVIDIA GPUs), the first of them adding it; the staged
// flush is left for large counts and for targets that cannot sum a partial
// warp. On an H200 nw_tile ran 2.93x -> 2.89x plain (32 warp instructions a
// warp fewer), the 12 changed programs' profiles equal.
static cl::opt<bool> PartialWarpFlush(
    "pasta-div-partial-warp-flush", cl::init(true), cl::Hidden,
    cl::desc("Divergence copies: at a return, a partial warp of small "
             "registers sums each over its active lanes inline instead of "
             "staging them for the out-of-line flush"));

// A lane-shaped access of a uniform loop whose address moves by a step that
// is not a multiple of a sector (nw_tile's store loop: rows of 4(n + 1)
// bytes) was measured at every trip: the once-per-entry fold tests that the
// step is. Where every trip of a warp takes the lanes helper's one-row path,
// whose figures depend on the base's place in its sector alone, the trips
// are summed at the preheader (__pasta_div_lanes_trips: one one-row
// measurement per place the bases take, at most 32 / gcd(step, 32)) and the
// loop measures none of them.
static cl::opt<bool> LanesTrips(
    "pasta-div-lanes-trips", cl::init(true), cl::Hidden,
    cl::desc("Divergence copies: a uniform loop's lane-shaped access at a "
             "step of part of a sector is summed over its trips at the "
             "preheader"));

// The fold's helper runs at every entry and adds code to the copy, and it
// wins only where the run-time step test fails. A step with no fixed part
// off a sector (lud's rows of 4n bytes: the test passes for every n a
// multiple of 8) kept the helper's cost for nothing (lud 2.00x -> 2.10x
// plain on an H200, its diagonal copy's spills 64 -> 132 bytes); a step
// whose fixed part is off a sector (nw_tile's 8(n + 1)) fails the test for
// such n, and there the fold pays.
// A loop's access measured before an outer loop (OuterOnce) whose step is
// not a multiple of a sector was measured at every trip: kmeans'
// coordinates loop, inside its clusters loop, ran 20x plain on an H200.
static cl::opt<bool> HoistedTrips(
    "pasta-div-lanes-trips-hoisted", cl::init(true), cl::Hidden,
    cl::desc("Divergence copies: sum the trips of a loop's lane-shaped "
             "access measured before an outer loop, at any step"));

static cl::opt<bool> FoldsForAllTrips(
    "pasta-div-folds-for-all-trips", cl::init(true), cl::Hidden,
    cl::desc("Divergence copies: a loop's access measured before its parent "
             "loop adds its figures once, at the parent's exits, for all "
             "its entries"));

static cl::opt<bool> SelectiveTrips(
    "pasta-div-lanes-trips-selective", cl::init(true), cl::Hidden,
    cl::desc("Divergence copies: sum a uniform loop's access over its "
             "trips only where its step is off a sector with its values "
             "multiples of one"));

// Registers hold figures less the ones derived for a whole row (a 16-lane
// row's store adds its sectors less a 32-lane row's), so in partial warps
// they are often negative, which the unsigned small test above takes for
// large and stages for out-of-line __pasta_flush calls (8 in nw_tile's
// copy; on an H200 nw_tile's warps no longer reach them, so its time did not
// move). The partial-warp test is now signed (every register in
// [-L, L), L half the unsigned limit, so that a signed 32-bit sum is exact) and
// the sums are added sign-extended.
static cl::opt<bool> SignedLanesFlush(
    "pasta-div-signed-lanes-flush", cl::init(true), cl::Hidden,
    cl::desc("Divergence copies: the partial-warp flush takes negative "
             "registers (signed 32-bit sums)"));

// A counter whose value at the return is one 32-bit register: its tests
// (the lone lane's OR and adds) are made in 32 bits, not on the register
// sign-extended to 64 (hotspot's exit: seven extensions, a 64-bit OR chain
// and seven 64-bit zero tests in every warp).
static cl::opt<bool> NarrowFlushTests(
    "pasta-div-narrow-flush-tests", cl::init(true), cl::Hidden,
    cl::desc("Divergence copies: the return's flush tests 32-bit registers "
             "in 32 bits"));

// A return that some paths reach without writing a register (a guard's
// early exit: bfs's threads outside the frontier) flushes only in warps
// where a lane came another way: in the others every register is still its
// entry's 0. Copies with a divergent loop only (markWrites).
static cl::opt<bool> SkipCleanExits(
    "pasta-div-skip-clean-exits", cl::init(true), cl::Hidden,
    cl::desc("Divergence copies: at a return, skip the registers' flush in "
             "warps whose lanes all came by paths that write no register"));

// srad's north and south neighbours, J[max(y - 1, 0) * n + x] and
// J[min(y + 1, n - 1) * n + x], in full warps of two 16-wide rows stacked
// in y: the rows' gap from the step of the address without the clamp (4n,
// known at the entry), where every lane's clamp takes its moving operand
// (one vote), instead of two shuffles of lane 16's address (yClampStep).
static cl::opt<bool> YClampSteps(
    "pasta-div-y-clamp-steps", cl::init(true), cl::Hidden,
    cl::desc("Divergence copies: the rows-apart gap of an access through "
             "one clamp of y from the unclamped address's step where every "
             "lane's clamp takes its moving operand (off: shuffled)"));

// Such a copy (bfs_expand) gets the cleanup pipeline after the runtime's
// helpers are inlined (DeviceRuntime.cpp, PASTA_CLEANUP's, which stays off
// for the others: kmeans, lud and histogram ran slower with it).
static cl::opt<bool> CleanupCleanExits(
    "pasta-div-cleanup-clean-exits", cl::init(false), cl::Hidden,
    cl::desc("Divergence copies that skip clean exits' flush get the "
             "cleanup after inlining (as PASTA_CLEANUP=div gives all)"));

// In a copy with a divergent loop whose trips loaded data decide (bfs's
// edges of its node), a FullRow load outside loops (bfs's frontier[u],
// ahead of the loop) is measured after the load: such copies' warps are
// short and mostly skip the loop, their time the load's latency and the
// measuring code in a row (bfs_expand 77.4 -> 75.1 us a launch with every
// FullRow load after; srad_update, loop-free, lost 4% by it).
static cl::opt<bool> DataLoopAfterLoad(
    "pasta-div-data-loop-after-load", cl::init(true), cl::Hidden,
    cl::desc("Divergence copies with a divergent loop of data-decided trips: "
             "measure FullRow loads outside loops after the load"));

// In such a copy (most warps return clean: bfs's empty-frontier warps), the
// counting code's fast flush of its 64-bit counters (a warp sum and a test
// each, three in bfs_expand: some 45 SASS a warp) runs behind one vote of
// their values: a warp whose lanes all hold 0 in every one of them skips
// sums that would have added nothing (skipZeroCountFlushes).
static cl::opt<bool> SkipZeroCounts(
    "pasta-div-skip-zero-counts", cl::init(true), cl::Hidden,
    cl::desc("Divergence copies that skip clean exits' flush: the counting "
             "code's fast counter flushes run behind one vote of their "
             "values (a warp of zeros skips them)"));

// Off by default: in a copy with the clean-exit flag whose return is a
// kernel's sole return (DivergencePlan::Block::Regroups), an edge into the
// return on which every value the counting code flushes is a constant and
// no lane may have written a register (no mark of the flag before it) is
// taken by a full warp straight to an exit of its own, where lane 0 adds
// 32 times each nonzero constant (cleanWarpExits): bfs_expand's warps that
// hold no frontier node ran the return's flush (votes of zero counts,
// bits, registers) to add one bit's 32. On an H200 it made bfs slower
// (2.59x plain against 2.53x without it, the same run), and its edge
// loop's warp executions 7% fewer (line 57: 326,174 against 349,601 in
// every run without it): the split edge moved the copy's reconvergence,
// so its figures are not the copy's of before. Measured, not taken.
static cl::opt<bool> CleanWarpExits(
    "pasta-div-clean-warp-exits", cl::init(false), cl::Hidden,
    cl::desc("Divergence copies that skip clean exits' flush: a full warp "
             "on an edge into the return that carries only constant counts "
             "adds them from lane 0 and returns (off: the return's flush)"));

// After a block barrier, outside loops, a run of loads (no store, atomic
// or call with effects between them) is measured after its last load: the
// block's warps all leave the barrier together, so a load whose issue
// waits for the measurements of the loads before it (hotspot's power[idx]
// behind its shared tile's and its own: some 50 instructions) has its
// latency added whole to every warp. The same lanes (one block, no branch
// between) and addresses: the same figures.
static cl::opt<bool> BarrierLoadsFirst(
    "pasta-div-barrier-loads-first", cl::init(true), cl::Hidden,
    cl::desc("Divergence copies: measure a run of loads that follows a block "
             "barrier outside loops after the run's last load"));

// A loop header's branch into its body that every lane of a warp takes at
// every iteration of an entry (shown at the preheader from the condition's
// inequalities at the first and last iterations) adds the body's warp
// execution and lanes from the first lane instead of a ballot per trip
// (CopyMeasures::planEveryTrip).
static cl::opt<bool> EveryTripBranches(
    "pasta-div-every-trip", cl::init(true), cl::Hidden,
    cl::desc("Divergence copies: a loop header's branch that every lane "
             "takes at every iteration, as shown at the preheader, is "
             "counted without its ballot"));

// A group measured at each execution whose first access is a load is
// measured just after the load, not before it: the helper's code (its
// mask, shuffles and ballots, no use of the loaded value) then runs while
// the load is in flight instead of delaying its issue (nw_traceback's
// single thread waits on three dependent loads a step). The same lanes
// and address: the same figures.
static cl::opt<bool> MeasureAfterLoad(
    "pasta-div-measure-after-load", cl::init(true), cl::Hidden,
    cl::desc("Divergence copies: measure a load's group just after the "
             "load, where its latency hides the measurement"));

// A FullRow group too (its full-row test, cached for the block's later
// FullRow groups, then made after the load: they come after it).
// pathfinder's wall[] and hotspot's power[idx]: the loop's or the kernel's
// one global load, its full-row test and sectors ran before its issue.
// By default only in a loop whose trips hold a block barrier: the block's
// warps wait for each other at every trip, so the load's latency lands on
// the trip whole and the measurement can hide under it (pathfinder's row
// loop: 1.98x -> 1.83x the plain kernel on an H200, profiles equal). In
// loops without one other warps hide it, and the loaded value held across
// the measurement costs registers: histogram 1.99x -> 2.18x, kmeans 3.09x
// -> 3.25x with every loop's FullRow loads after (the same run); outside
// loops srad_update 1.49x -> 1.55x, hotspot 2.90x -> 2.83x.
enum class FullRowAfter { Never, BarrierLoops, InLoops, Always };
static cl::opt<FullRowAfter> FullRowAfterLoad(
    "pasta-div-fullrow-after-load", cl::init(FullRowAfter::BarrierLoops),
    cl::Hidden,
    cl::desc("Divergence copies: measure a FullRow load's group after the "
             "load too (-pasta-div-measure-after-load)"),
    cl::values(clEnumValN(FullRowAfter::Never, "0", "never"),
               clEnumValN(FullRowAfter::BarrierLoops, "barrier-loops",
                          "in loops that hold a block barrier"),
               clEnumValN(FullRowAfter::InLoops, "loops", "in loops"),
               clEnumValN(FullRowAfter::Always, "1", "everywhere")));

// A group of several accesses measured in a loop whose branches are not
// all uniform adds each figure to one register of the group, which the
// flushes add to each row's counter times the row's accesses (groupSlot).
static cl::opt<bool> GroupRegisters(
    "pasta-div-group-registers", cl::init(true), cl::Hidden,
    cl::desc("Divergence copies: one loop register per figure of a group of "
             "accesses, flushed to each of its lines' counters (off: one per "
             "line, each added to at every measurement)"));

// A loop header one call visits fewer times than the drain limit gets no
// drain (drainBeforeOverflow).
static cl::opt<bool> BoundedNoDrain(
    "pasta-div-bounded-no-drain", cl::init(true), cl::Hidden,
    cl::desc("Divergence copies: no visit counter or drain at a loop header "
             "in no other cycle whose trips have a constant bound below the "
             "drain limit (off: every header drains)"));

static cl::opt<bool> StackedGaps(
    "pasta-div-stacked-gaps", cl::init(true), cl::Hidden,
    cl::desc("PASTA: in full warps of 16-wide rows stacked in y, add a "
             "shared 4-byte access's bank conflicts computed from its x and y "
             "strides instead of measuring it (off: measured)"));

// The row width AccessGroup::GapConflicts is computed for: 16 x 16 tiles.
static constexpr uint32_t GapWidth = 16;

static cl::opt<bool> RepeatRows(
    "pasta-div-repeat-rows", cl::init(true), cl::Hidden,
    cl::desc("PASTA: in full warps of 16-wide rows stacked in y, add a "
             "global load's or store's figures from its row's base where its "
             "address has no y term (every row on the same bytes) instead of "
             "measuring it (off: measured)"));

static cl::opt<bool> ApartRows(
    "pasta-div-apart-rows", cl::init(true), cl::Hidden,
    cl::desc("PASTA: in full warps of 16-wide rows stacked in y whose rows "
             "start a multiple of 32 bytes apart and far enough, add a global "
             "load's or store's figures from its row's base instead of "
             "measuring it (off: measured)"));

static cl::opt<bool> KnownApartSteps(
    "pasta-div-known-apart-steps", cl::init(true), cl::Hidden,
    cl::desc("PASTA: test whether the two rows of a full warp of 16-wide rows "
             "stacked in y are apart once at a kernel's entry, from the "
             "address's y step as an expression of the kernel's arguments, "
             "instead of shuffling the other row's address at every access "
             "(off: shuffled)"));

static cl::opt<bool> ApartLaneTested(
    "pasta-div-apart-lane-tested", cl::init(true), cl::Hidden,
    cl::desc("PASTA: take a RowsProven group behind a lane select or clamp "
             "(srad's clamped neighbours) as rows apart too, in full warps "
             "whose lanes agree on it (off: measured)"));

static cl::opt<bool> FullRowClamps(
    "pasta-div-fullrow-clamps", cl::init(true), cl::Hidden,
    cl::desc("PASTA: a global load or store behind a clamp "
             "(-pasta-div-clamps) of pasta_div_full_row_form's shape is a "
             "FullRow group where every lane takes the clamp's lane-affine "
             "side (off: measured by the helper in every warp)"));

static cl::opt<bool> PairRows(
    "pasta-div-pair-rows", cl::init(true), cl::Hidden,
    cl::desc("PASTA: in warps of 16-wide rows stacked in y whose active lanes "
             "are one in each row at the same x, add the figures of an access "
             "of one element a row at a constant y step from the lower lane's "
             "address instead of measuring it (off: measured)"));

static cl::opt<bool> OuterOnce(
    "pasta-div-outer-once", cl::init(true), cl::Hidden,
    cl::desc("PASTA: measure an access that repeats in a uniform loop once "
             "before the outermost uniform loop around it in which its first "
             "iteration's addresses do not change (off: at every entry of "
             "its own loop)"));

static cl::opt<bool> RareDirect(
    "pasta-div-rare-direct", cl::init(true), cl::Hidden,
    cl::desc("PASTA: in a loop of an NVPTX copy that never reads thread "
             "index y, add a group measured only outside rows of 32 lanes "
             "straight to its counters (off: to loop registers)"));

static cl::opt<bool> EntryVotes(
    "pasta-div-entry-votes", cl::init(true), cl::Hidden,
    cl::desc("PASTA: in a kernel's divergence copy, vote once at the entry "
             "whether a warp's threads agree on the condition of a lane "
             "select in a loop, when it is computed from their indices and "
             "the arguments (off: a vote at every execution of the select)"));

// The most instructions recomputedAtEntry copies for one condition.
static constexpr unsigned MaxRecomputed = 16;

// Whether Call gives a thread the same value wherever it runs it: a read of
// its place in the grid (GridIndices.h; not %warpid, which may change) or
// integer min, max and abs.
static bool launchInvariantCall(const CallBase &Call) {
  const auto *II = dyn_cast<IntrinsicInst>(&Call);
  if (!II)
    return false;
  switch (II->getIntrinsicID()) {
  case Intrinsic::smin:
  case Intrinsic::smax:
  case Intrinsic::umin:
  case Intrinsic::umax:
  case Intrinsic::abs:
    return true;
  default:
    return gridRead(II->getIntrinsicID()).Index != GridIndex::None;
  }
}

// V computed again before Before from constants, arguments and instructions
// that read or write no memory, may run anywhere and give a thread the same
// value wherever it runs them (arithmetic, compares, casts, selects,
// launchInvariantCall), or null when V is not such a value (a load, a
// phi, a vote) or takes more than Budget instructions. Done maps what is
// copied already. The copies lose their poison flags and UB-implying
// attributes: Before may run where V's own code would not.
static Value *recomputedAtEntry(Value *V, Instruction *Before,
                                DenseMap<Value *, Value *> &Done,
                                unsigned &Budget) {
  if (isa<Constant, Argument>(V))
    return V;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || isa<PHINode>(I) || I->mayReadOrWriteMemory() ||
      !isSafeToSpeculativelyExecute(I))
    return nullptr;
  if (auto *Call = dyn_cast<CallBase>(I))
    if (!launchInvariantCall(*Call))
      return nullptr;
  if (Value *Copied = Done.lookup(I))
    return Copied;
  if (Budget == 0)
    return nullptr;
  --Budget;
  SmallVector<Value *, 4> Ops;
  for (Value *Op : I->operands()) {
    if (isa<Function>(Op)) { // an intrinsic call's callee
      Ops.push_back(Op);
      continue;
    }
    Value *Again = recomputedAtEntry(Op, Before, Done, Budget);
    if (!Again)
      return nullptr;
    Ops.push_back(Again);
  }
  Instruction *Copy = I->clone();
  for (auto [K, Op] : enumerate(Ops))
    Copy->setOperand(K, Op);
  Copy->dropPoisonGeneratingAnnotations();
  Copy->dropUBImplyingAttrsAndMetadata();
  Copy->setDebugLoc(Before->getDebugLoc());
  Copy->insertBefore(Before->getIterator());
  return Done[I] = Copy;
}

// On by default: a FullRow access outside loops whose address, with
// thread index x taken as 0, is built at the entry from the arguments and
// the block's and grid's sizes and indices (laneZeroLow) has lane 0 of a
// 32-lane row at that address mod 32 (lane 0 holds x = 32k: every term
// with x in it is a multiple of 32 there). The copy's entry tests once
// whether any such base is off a sector's start; where none is, a full
// row adds no sector beyond the derived ones, and its warps skip
// __pasta_div_row_sectors and its add (axpy's x[i] and y[i]).
// On by default: that test made per block of the program (the bases of
// the FullRow groups in one block), not once for the copy: bfs_expand's
// row_ptr[u] and row_ptr[u + 1] are 4 bytes apart, so one of them is
// always off a sector and a single test never passed, though its
// frontier[u] starts one in every full row.
static cl::opt<bool> RowBasesPerBlock(
    "pasta-div-row-bases-per-block", cl::init(true), cl::Hidden,
    cl::desc("Divergence copies: the entry's test of the full rows' bases "
             "made for each block's groups (off: one test for all)"));

static cl::opt<bool> AlignedRowsAtEntry(
    "pasta-div-aligned-rows-at-entry", cl::init(true), cl::Hidden,
    cl::desc("Divergence copies: test once at the entry whether the full "
             "rows' bases outside loops start a sector (off: each full "
             "row's sectors at every execution)"));

// The most instructions laneZeroLow builds for one address.
static constexpr unsigned MaxLaneZero = 24;

// V, an integer or pointer of at least 5 bits, as an i64 built before B's
// insertion point that equals V in its low 5 bits when thread index x is
// 0 (or any multiple of 32), or null. Built only from constants,
// arguments and reads of the block's and grid's sizes and indices, through
// the operations whose low 5 bits follow from their operands' (add, sub,
// mul, shifts left by a constant, extensions, truncations to 5 bits or
// more, casts and address arithmetic).
// With AtGridStart, every thread and block index is taken as 0: the grid's
// first thread's V, a value of the launch alone.
static Value *laneZeroLow(Value *V, IRBuilder<> &B,
                          DenseMap<Value *, Value *> &Done, unsigned &Budget,
                          bool AtGridStart = false) {
  Type *I64 = B.getInt64Ty();
  const DataLayout &DL = B.GetInsertBlock()->getDataLayout();
  if (V->getType()->isIntegerTy() && V->getType()->getIntegerBitWidth() < 5)
    return nullptr;
  if (auto *CI = dyn_cast<ConstantInt>(V))
    return ConstantInt::get(I64, CI->getValue().sextOrTrunc(64));
  if (isa<ConstantPointerNull>(V))
    return ConstantInt::get(I64, 0);
  if (isa<Argument>(V) || isa<GlobalValue>(V))
    return V->getType()->isPointerTy()   ? B.CreatePtrToInt(V, I64)
           : V->getType()->isIntegerTy() ? B.CreateSExtOrTrunc(V, I64)
                                         : nullptr;
  if (Value *Built = Done.lookup(V))
    return Built;
  if (Budget == 0)
    return nullptr;
  --Budget;
  auto Op = [&](Value *O) {
    return laneZeroLow(O, B, Done, Budget, AtGridStart);
  };
  Value *R = nullptr;
  if (auto *II = dyn_cast<IntrinsicInst>(V)) {
    GridRead G = gridRead(II->getIntrinsicID());
    if (G.Index == GridIndex::Thread)
      R = G.Dim == 0 || AtGridStart ? ConstantInt::get(I64, 0) : nullptr;
    else if (G.Index == GridIndex::Block && AtGridStart)
      R = ConstantInt::get(I64, 0);
    else if (G.Index != GridIndex::None && II->arg_empty())
      R = B.CreateZExtOrTrunc(B.CreateIntrinsic(II->getIntrinsicID(), {}), I64);
  } else if (auto *BO = dyn_cast<BinaryOperator>(V)) {
    Value *L = Op(BO->getOperand(0));
    const APInt *Amount;
    switch (BO->getOpcode()) {
    case Instruction::Add:
      if (Value *Rt = L ? Op(BO->getOperand(1)) : nullptr)
        R = B.CreateAdd(L, Rt);
      break;
    case Instruction::Or: // an add where no bit is in both
      if (Value *Rt = L && cast<PossiblyDisjointInst>(BO)->isDisjoint()
                          ? Op(BO->getOperand(1))
                          : nullptr)
        R = B.CreateAdd(L, Rt);
      break;
    case Instruction::Sub:
      if (Value *Rt = L ? Op(BO->getOperand(1)) : nullptr)
        R = B.CreateSub(L, Rt);
      break;
    case Instruction::Mul:
      if (Value *Rt = L ? Op(BO->getOperand(1)) : nullptr)
        R = B.CreateMul(L, Rt);
      break;
    case Instruction::Shl:
      if (L &&
          PatternMatch::match(BO->getOperand(1),
                              PatternMatch::m_APInt(Amount)) &&
          Amount->ult(64))
        R = B.CreateShl(L, Amount->getZExtValue());
      break;
    default:
      break;
    }
  } else if (auto *GEP = dyn_cast<GEPOperator>(V)) {
    unsigned Bits = DL.getIndexTypeSizeInBits(GEP->getType());
    SmallMapVector<Value *, APInt, 4> Vars;
    APInt Const(Bits, 0);
    if (Bits >= 5 && GEP->collectOffset(DL, Bits, Vars, Const))
      if ((R = Op(GEP->getPointerOperand()))) {
        R = B.CreateAdd(R, ConstantInt::get(I64, Const.sextOrTrunc(64)));
        for (auto &[Index, Scale] : Vars) {
          Value *X = Op(Index);
          if (!X)
            return nullptr;
          R = B.CreateAdd(
              R, B.CreateMul(X, ConstantInt::get(I64, Scale.sextOrTrunc(64))));
        }
      }
  } else if (auto *Cast = dyn_cast<CastInst>(V)) {
    switch (Cast->getOpcode()) {
    case Instruction::SExt:
    case Instruction::ZExt:
    case Instruction::Trunc:
    case Instruction::AddrSpaceCast:
    case Instruction::BitCast:
    case Instruction::PtrToInt:
    case Instruction::IntToPtr:
      R = Op(Cast->getOperand(0));
      break;
    default:
      break;
    }
  }
  return R ? Done[V] = R : nullptr;
}

cl::opt<bool> pasta::DivRowsUniformLoops(
    "pasta-div-rows-uniform-loops", cl::init(true),
    cl::desc("PASTA: let a copy whose loops are all uniform (every branch "
             "in them warp-uniform) and measure nothing in their trips, and "
             "that calls no function with a body, have the bodies for rows "
             "of 32 and 16 with its loops, capped at 40, as "
             "-pasta-div-rows-loops does for every copy (matmul_tiled on an "
             "H200: 1.83x -> 1.30x the plain kernel; its copy at 64 "
             "registers held 4 blocks an SM against 8)"));

cl::opt<bool> pasta::DivRowsLoops(
    "pasta-div-rows-loops", cl::init(false),
    cl::desc("PASTA: let copies with loops, and groups repeating in a uniform "
             "loop, have the bodies for rows of 32 and 16 (addRows32Body), "
             "capped at 40 (off by default: a guess for the GPU to check; "
             "kmeans' body spilled under it)"));

static cl::opt<bool> BodiesAtBranch(
    "pasta-div-bodies-at-branch", cl::init(true), cl::Hidden,
    cl::desc("PASTA: count a loop's if-then body at its measured branch "
             "(from the branch's ballot) instead of at the body's top"));

static cl::opt<bool> IntervalBodies(
    "pasta-div-interval-bodies", cl::init(true), cl::Hidden,
    cl::desc("PASTA: count a loop header's if-then body on an interval of "
             "the iteration (UniformLoops::intervalBranch) once at the "
             "preheader instead of at every trip"));

static cl::opt<bool> IntervalConflicts(
    "pasta-div-interval-conflicts", cl::init(true), cl::Hidden,
    cl::desc("PASTA: sum a shared access's bank conflicts in such a body "
             "(foldIntervalConflicts) once at the preheader instead of at "
             "every trip"));

static cl::opt<bool> CountedHeaders(
    "pasta-div-counted-headers", cl::init(true), cl::Hidden,
    cl::desc("PASTA: count the header of a loop whose only exit is uniform "
             "as its preheader's lanes times its iterations "
             "(UniformLoops::countedHeader) instead of at every visit"));

static cl::opt<bool> DeriveWholeAccesses(
    "pasta-div-derive-whole", cl::init(true),
    cl::desc("PASTA: leave accesses of one aligned address in every lane "
             "unmeasured, their figures derived (off: measured, for tests "
             "of the measuring code)"));

static cl::opt<bool> DeriveLaneAffine(
    "pasta-div-derive-lane-affine", cl::init(true),
    cl::desc("PASTA: measure lane-affine accesses whose derived figures hold "
             "under every mask (LaneAffine.h) only in warps that are not one "
             "row of 32 lanes (off: in every warp, for tests of the "
             "measuring code)"));

static cl::opt<bool> FullRows(
    "pasta-div-full-rows", cl::init(true),
    cl::desc("PASTA: in full warps of one 32-lane row, tested once per "
             "block, add a global load's or store's sectors past its base "
             "by arithmetic instead of measuring it (AccessGroup::FullRow; "
             "off: measured in every warp)"));

static cl::opt<bool> TwinBases(
    "pasta-div-twin-bases", cl::init(true), cl::Hidden,
    cl::desc("PASTA: measure once the accesses of a block whose addresses "
             "differ only in their base, two arguments a multiple of the "
             "figure granule apart (tested at the entry; AccessGroup::Twins; "
             "off: each measured)"));

// The base of Ptr, an argument of F, and the GEP that offsets it (null
// when Ptr is not such a GEP).
static std::pair<const Argument *, const GEPOperator *>
argumentBase(const Value *Ptr, const Function &F) {
  const auto *GEP = dyn_cast<GEPOperator>(Ptr->stripPointerCasts());
  if (!GEP)
    return {};
  const auto *Base =
      dyn_cast<Argument>(GEP->getPointerOperand()->stripPointerCasts());
  if (!Base || Base->getParent() != &F)
    return {};
  return {Base, GEP};
}

// Whether S's address is R's from another base: GEPs of one element type
// with the same index values from two arguments of F, so that in every lane
// S's address is R's plus the same difference of the arguments.
static bool twinAddresses(const Value *R, const Value *S, const Function &F) {
  auto [RB, RG] = argumentBase(R, F);
  auto [SB, SG] = argumentBase(S, F);
  return RB && SB && RB != SB && RB->getType() == SB->getType() &&
         RG->getSourceElementType() == SG->getSourceElementType() &&
         RG->getNumIndices() == SG->getNumIndices() &&
         std::equal(RG->idx_begin(), RG->idx_end(), SG->idx_begin());
}

// One divergence copy being instrumented. Where a figure goes depends on
// where it is measured:
//
//  - outside every loop (code that runs at most once per call): straight to
//    its counter, by the lane that measured it (the *_add helpers, or
//    __pasta_div_add under one test of what an access helper returns), so
//    it needs no register and no warp sum at the return;
//  - in a loop whose branches are all uniform (UniformLoops.h) the active
//    lanes are those at its preheader in every iteration: the figures that
//    depend only on the lanes (a block's, its branch's, and its accesses'
//    whose addresses repeat) are taken once at the preheader and added times
//    the block's executions: the loop's trip count, at the preheader, when
//    the block runs in every iteration and the count is known; else a
//    register counting them, in the loop's exit blocks (to the counter or a
//    register, by where the add is);
//  - in other loops: registers, by (row, figure) for the access and branch
//    figures, by block for the active-lane figures (a block's lines share
//    its two registers: each line's figures are its instruction count times
//    the block's, formed at the flush), flushed at every return.
//
// The registers are 32 bits wide: a 64-bit one takes two of the copy's
// registers, which run under a cap (capRegisters), and what they save is
// spills in loops. Each add to one is bounded (slot's Most), so a count of
// loop header visits drains them before one can overflow
// (drainBeforeOverflow).
// The runtime's helpers add to them modulo 2^32 and they are read as signed
// values (an access helper adds measured less derived figures). What a
// uniform loop's exit adds in another loop, a figure per entry times the
// entry's executions, has no bound: it goes to the register when it is
// below MaxFold, else straight to the counter.
class CopyMeasures::Impl {
public:
  Impl(Function &Copy, ModuleTables &T, UniformLoops &Loops,
       const DivHelpers &H, uint32_t DrainVisits)
      : Copy(Copy), T(T), Loops(Loops), H(H), DrainVisits(DrainVisits),
        EntryBody(&*Copy.getEntryBlock().getFirstInsertionPt()),
        UniformLoopsOnly(DivRowsUniformLoops && onlyUniformLoops(Copy, Loops)),
        DataLoopCopy(DataLoopAfterLoad && hasDataLoop(Copy, Loops)) {}

  // Whether Copy has a divergent loop (not uniform, not a counted header)
  // whose exit test reads loaded data (markWrites' loops). Read before any
  // code goes in.
  static bool hasDataLoop(Function &Copy, const UniformLoops &Loops) {
    DominatorTree DT(Copy);
    LoopInfo LI(DT);
    return any_of(LI.getLoopsInPreorder(), [&](const Loop *L) {
      return !Loops.uniformLoop(*L->getHeader()) &&
             !Loops.countedHeader(*L->getHeader()) && tripsFromData(*L);
    });
  }

  // Whether every loop of Copy is uniform (the innermost loop of each block
  // in a loop is: an outer loop's own blocks then have it as theirs) and
  // Copy calls no function with a body (whose loops this does not see).
  // Read before any code goes in: UniformLoops knows the copy's own blocks.
  static bool onlyUniformLoops(const Function &Copy,
                               const UniformLoops &Loops) {
    for (const BasicBlock &BB : Copy) {
      if (Loops.inLoop(BB) && !Loops.uniformLoop(BB))
        return false;
      for (const Instruction &I : BB)
        if (const auto *CB = dyn_cast<CallBase>(&I))
          if (const Function *Callee = CB->getCalledFunction();
              !Callee || !Callee->isDeclaration())
            return false;
    }
    return true;
  }

  // -pasta-div-rows-loops, or a copy of uniform loops only whose loops
  // measure nothing in their trips: every group in a loop is measured once
  // per loop entry (Repeat; in the loop only where its step test fails) or
  // never (Proven). Known once the groups are planned.
  bool rowsInLoops() const {
    return DivRowsLoops ||
           (UniformLoopsOnly && all_of(Groups, [](const AccessGroup &G) {
              return !G.InLoop || G.Repeat || G.Proven;
            }));
  }

  // A counter's register (in loops whose branches are not all uniform),
  // for a site that adds at most Most to it (either sign).
  AllocaInst *slot(uint32_t Counter, uint64_t Most,
                   const Twine &Name = "pasta.div") {
    SlotBounds[Counter] += Most;
    AllocaInst *&S = Slots[Counter];
    if (!S)
      S = newRegister(Name);
    return S;
  }

  // A register of figure Fig of group G measured in a loop, shared by the
  // group's rows: the flushes and drains add it to each row's counter times
  // the row's accesses (slotValues). One register and no add per row where
  // a register per row took the measurement's figure from scratch
  // registers with an add per row at every execution (nw_tile's four
  // s_score lines: eight adds a trip, eight registers).
  AllocaInst *groupSlot(const AccessGroup &G, unsigned Fig, uint64_t Most) {
    auto [It, New] = GroupSlotOf.try_emplace({&G, Fig}, GroupSlots.size());
    if (New) {
      GroupSlots.push_back({newRegister("pasta.div.group"), 0, {}});
      for (auto [Row, Times] : rowsOf(G))
        GroupSlots.back().Counters.push_back({figure(Row, Fig), Times});
    }
    GroupSlot &S = GroupSlots[It->second];
    S.Most += Most;
    return S.R;
  }

  // Where the runtime's helpers put a figure the site cannot produce (a
  // shared figure of a global access, sectors of an atomic): a register
  // that is never flushed, so it and the arithmetic feeding it go away.
  AllocaInst *discard() {
    if (!Discard)
      Discard = newRegister("pasta.div.none");
    return Discard;
  }

  // The counters of Planned's block (in the copy: BB), measured at its top.
  // Its active lanes only when the counting code does not count it
  // (OwnThreads).
  void addBlock(BasicBlock &BB, const DivergencePlan::Block &Planned) {
    if (Planned.Launch) {
      IRBuilder<> B(EntryBody);
      B.CreateCall(H.CountLaunch,
                   {counter(B, Planned.Warps), counter(B, Planned.Threads)});
      return;
    }
    if (Planned.Regroups != PASTA_NONE) {
      // A kernel's sole return: only groups of lanes without lane 0 add.
      IRBuilder<> B(&*BB.getFirstInsertionPt());
      B.CreateCall(H.ReturnAdd, {counter(B, Planned.Regroups)});
      return;
    }
    if (!Planned.Measured)
      return;
    // After the registers; in the entry block, after the code above them.
    Instruction *Top =
        BB.isEntryBlock() ? EntryBody : &*BB.getFirstInsertionPt();
    addLanes(BB, Top, Planned.Warps,
             Planned.OwnThreads ? Planned.Threads : PASTA_NONE);
  }

  // A segment's warp executions (DivergencePlan::Segment), right after the
  // call that starts it.
  void addSegment(Instruction &Call, uint32_t Warps) {
    addLanes(*Call.getParent(), Call.getNextNode(), Warps, PASTA_NONE);
  }

  // Counter Warps += the warp-level executions of BB's code at At, Threads
  // (unless PASTA_NONE) += their active lanes. In a uniform loop, or at
  // the header of a loop that keeps its lanes there
  // (UniformLoops::countedHeader), the preheader's lanes times BB's
  // executions; outside loops, measured (one
  // __pasta_div_block call) and added there; in another loop, added to
  // registers.
  void addLanes(BasicBlock &BB, Instruction *At, uint32_t Warps,
                uint32_t Threads) {
    bool WithThreads = Threads != PASTA_NONE;
    const UniformLoops::UniformLoop *U = Loops.uniformLoop(BB);
    if (!U && CountedHeaders)
      U = Loops.countedHeader(BB);
    if (U) {
      HoistedLoop &HL = hoisted(*U);
      Count N = executions(BB, *U);
      addFold(*U, {Warps, HL.Leader, 1, 1, N});
      if (WithThreads)
        addFold(*U, {Threads, HL.Lanes, 1, MaxLanes, N});
      return;
    }
    IRBuilder<> B(At);
    if (!Loops.inLoop(BB)) {
      // Without threads, the warps' slot again: the helper leaves it.
      Value *W = counter(B, Warps);
      B.CreateCall(H.BlockAdd, {W, WithThreads ? counter(B, Threads) : W,
                                B.getInt32(WithThreads)});
      return;
    }
    B.CreateCall(H.Block, {B.getInt32(1), slot(Warps, 1, "pasta.div.bw"),
                           WithThreads ? slot(Threads, MaxLanes, "pasta.div.bt")
                                       : discard()});
  }

  // Whether a conditional branch or switch of `Row` diverges (its
  // executions are its block's). It never does on a warp-uniform condition
  // (a loop's bound, a kernel argument), nor in a uniform loop.
  void addBranch(Instruction &Term, uint32_t Row,
                 const DivergencePlan::NoneTaken *NT, bool Measured) {
    BasicBlock &BB = *Term.getParent();
    bool Measure =
        Measured && !Loops.uniformLoop(BB) && !Loops.uniformCondition(Term);
    if (NT) {
      addNoneTaken(cast<BranchInst>(Term), Row, *NT, Measure);
      return;
    }
    if (!Measure)
      return;
    IRBuilder<> B(&Term);
    auto *BI = dyn_cast<BranchInst>(&Term);
    uint32_t Divergent = figure(Row, PASTA_DIV_DIVERGENT);
    if (BI && Loops.inLoop(BB) && countBodyAtBranch(*BI, Divergent))
      return;
    Value *Taken =
        BI ? B.CreateZExt(BI->getCondition(), B.getInt32Ty())
           : B.CreateZExtOrTrunc(cast<SwitchInst>(Term).getCondition(),
                                 B.getInt64Ty());
    if (Loops.inLoop(BB)) {
      B.CreateCall(BI ? H.Branch : H.Switch,
                   {Taken, discard(), slot(Divergent, 1)});
      return;
    }
    B.CreateCall(BI ? H.BranchAdd : H.SwitchAdd,
                 {Taken, counter(B, Divergent)});
  }

  // The top-of-block __pasta_div_block call that addLanes put in BB (a
  // block in a loop counted with one execution per visit), if any: the
  // first call in BB.
  CallInst *topBlockCall(BasicBlock &BB) const {
    for (Instruction &I : BB) {
      auto *Call = dyn_cast<CallInst>(&I);
      if (!Call)
        continue;
      auto *Insts = dyn_cast<ConstantInt>(Call->getArgOperand(0));
      if (Call->getCalledOperand() != FunctionCallee(H.Block).getCallee() ||
          !Insts || !Insts->isOne())
        return nullptr;
      return Call;
    }
    return nullptr;
  }

  // A branch in a loop one of whose sides is a block entered only from it
  // and counted at its top (its warps, maybe its lanes, into registers):
  // the lanes that enter that block are the branch's ballot of the side's
  // condition, so one __pasta_div_branch_body call at the branch adds the
  // branch's divergent executions and the block's counts from one vote,
  // and the block's own call (an active mask, a first-lane test, a
  // population count per visit) goes. So too a loop's header from its
  // latch's branch (the header's other entry, from the preheader, counted
  // there once per entry: UniformLoops::latchOf), in loops whose exit
  // diverges (bpnn_hidden's strided sum, nw_traceback's walk). Blocks are
  // added before branches (DivergenceEmission.cpp).
  // `-pasta-div-bodies-at-branch=0` keeps both.
  bool countBodyAtBranch(BranchInst &Br, uint32_t Divergent) {
    if (!BodiesAtBranch || !Br.isConditional() ||
        Br.getSuccessor(0) == Br.getSuccessor(1))
      return false;
    for (unsigned Side : {0u, 1u}) {
      BasicBlock *Body = Br.getSuccessor(Side);
      // A loop's header from its latch: the lanes going round are the
      // ballot's; those entering it, once per entry at the preheader.
      const Loop *Round = Loops.latchOf(*Br.getParent());
      if (Round && Round->getHeader() != Body)
        Round = nullptr;
      // An exit of the branch's loop runs once the lanes leaving apart
      // are gathered, not once per vote.
      if (!Round && (Body->getSinglePredecessor() != Br.getParent() ||
                     !Loops.sameLoop(*Body, *Br.getParent())))
        continue;
      CallInst *Top = topBlockCall(*Body);
      if (!Top)
        continue;
      if (!Round && foldIntervalBody(Br, Side, Divergent, *Top)) {
        Top->eraseFromParent();
        ++NumIntervalBodies;
        return true;
      }
      if (Round)
        countEntries(*Round->getLoopPreheader()->getTerminator(), *Top);
      IRBuilder<> B(&Br);
      Value *Taken = Br.getCondition();
      if (Side)
        Taken = B.CreateNot(Taken);
      CallInst *Call =
          B.CreateCall(H.BranchBody,
                       {B.CreateZExt(Taken, B.getInt32Ty()), slot(Divergent, 1),
                        Top->getArgOperand(1), Top->getArgOperand(2)});
      if (!Side && !Round)
        planEveryTrip(Br, *Call);
      Top->eraseFromParent();
      ++NumBodiesAtBranch;
      return true;
    }
    return false;
  }

  // A loop header's branch into its body whose condition each lane can
  // show, at the preheader, to hold at every iteration of the entry
  // (UniformLoops::everyIterationBefore: pathfinder's `inside && tx > k &&
  // tx < 255 - k`, warps 1-6 of its blocks): where it holds in every lane
  // of the warp, each iteration's ballot would find every lane taking it
  // (not divergent; the body's one warp execution and the warp's lanes), so
  // the first lane adds those instead, computed once at the preheader
  // (addEveryTrip, after the accesses: the split would hide blocks from
  // the analyses). -pasta-div-every-trip=0: none.
  void planEveryTrip(BranchInst &Br, CallInst &Call) {
    const Loop *L = Loops.loopOf(*Br.getParent());
    if (!EveryTripBranches || T.Target != PASTA_TARGET_NVPTX || !L ||
        L->getHeader() != Br.getParent())
      return;
    Value *Lane = Loops.everyIterationBefore(Br.getCondition(), *L);
    if (!Lane)
      return;
    IRBuilder<> P(L->getLoopPreheader()->getTerminator());
    Value *All = P.CreateICmpNE(
        P.CreateCall(H.AllLanes, {P.CreateZExt(Lane, P.getInt32Ty())}),
        P.getInt32(0), "pasta.div.everytrip");
    Value *Lanes = P.CreateIntrinsic(Intrinsic::nvvm_activemask, {});
    Value *First = P.CreateICmpEQ(
        P.CreateAnd(Lanes, P.CreateIntrinsic(
                               Intrinsic::nvvm_read_ptx_sreg_lanemask_lt, {})),
        P.getInt32(0));
    EveryTrip.push_back(
        {&Call, All, P.CreateZExt(First, P.getInt32Ty()),
         P.CreateSelect(First, P.CreateUnaryIntrinsic(Intrinsic::ctpop, Lanes),
                        P.getInt32(0))});
  }

  // planEveryTrip's branches: in warps whose every lane takes the body at
  // every iteration, the first lane's adds to the body's registers instead
  // of the ballot.
  void addEveryTrip() {
    for (const EveryTripBody &E : EveryTrip) {
      Instruction *AllT, *OtherT;
      SplitBlockAndInsertIfThenElse(E.All, E.Call->getIterator(), &AllT,
                                    &OtherT);
      markInstrumentation(
          AllT->getParent()->getSinglePredecessor()->getTerminator());
      E.Call->moveBefore(OtherT->getIterator());
      IRBuilder<> B(AllT);
      for (auto [Arg, V] : {std::pair{2u, E.FirstWarp}, {3u, E.FirstLanes}}) {
        Value *R = E.Call->getArgOperand(Arg);
        B.CreateStore(B.CreateAdd(B.CreateLoad(B.getInt32Ty(), R), V), R);
      }
    }
    EveryTrip.clear();
  }

  // Br's side Side as a body counted at the branch (Top: its block's
  // call), where Br ends a counted header on an interval of the iteration
  // (UniformLoops::intervalBranch): every lane at the preheader runs the
  // header in each of the loop's at most 32 iterations, and knows there in
  // which it takes the side, so one __pasta_div_interval_body at the
  // preheader adds what __pasta_div_branch_body adds at every trip (31 in
  // nw_tile's anti-diagonal: a vote, a population count and three adds
  // each). `-pasta-div-interval-bodies=0` keeps the trip's call.
  bool foldIntervalBody(BranchInst &Br, unsigned Side, uint32_t Divergent,
                        CallInst &Top) {
    const UniformLoops::IntervalBranch *IB =
        IntervalBodies ? Loops.intervalBranch(Br) : nullptr;
    if (!IB)
      return false;
    Value *Start = Loops.expandBefore(*IB->U, IB->Start);
    Value *Bound = Loops.expandBefore(*IB->U, IB->Bound);
    IRBuilder<> B(IB->U->PreheaderEnd);
    Value *Warps = Top.getArgOperand(1), *Threads = Top.getArgOperand(2);
    B.CreateCall(H.IntervalBody,
                 {Start, Bound, B.getInt32(IB->Trips), B.getInt32(Side),
                  slot(Divergent, IB->Trips), Warps, Threads});
    IntervalBodyOf[Br.getSuccessor(Side)] = {IB, Start, Bound, Side};
    for (auto &[Counter, Slot] : Slots)
      SlotBounds[Counter] += Slot == Warps     ? IB->Trips
                             : Slot == Threads ? uint64_t(IB->Trips) * MaxLanes
                                               : 0;
    return true;
  }

  // The block counts of Top's call (a loop header's) for the lanes that
  // enter the loop, added at its preheader's end: one more add to each of
  // its registers, within the bounds it has.
  void countEntries(Instruction &PreheaderEnd, CallInst &Top) {
    IRBuilder<> B(&PreheaderEnd);
    Value *Warps = Top.getArgOperand(1), *Threads = Top.getArgOperand(2);
    B.CreateCall(H.Block, {B.getInt32(1), Warps, Threads});
    for (auto &[Counter, Slot] : Slots)
      SlotBounds[Counter] += Slot == Warps     ? 1
                             : Slot == Threads ? uint64_t(MaxLanes)
                                               : 0;
  }

  // What the branch counts for NT's body (DivergencePlan.cpp): its
  // executions in which no active lane takes the body's side (derivedBody;
  // and the lanes that do not, to NT.Others), or with NT.Launch the body's
  // warps in block 0 times the grid's blocks (launchBody); straight to the
  // counters (the plan puts such branches outside loops only; the helpers'
  // atomics would be exact in one too), with its divergent executions when
  // Measure.
  void addNoneTaken(BranchInst &Br, uint32_t Row,
                    const DivergencePlan::NoneTaken &NT, bool Measure) {
    IRBuilder<> B(&Br);
    Value *Taken = Br.getCondition();
    if (NT.Side)
      Taken = B.CreateNot(Taken);
    Value *None = counter(B, NT.None);
    // A split body (splitBody): its divergent executions are derived from
    // these two, whether or not the condition is uniform (then they are
    // all of its executions, and the derived count 0).
    if (NT.All != PASTA_NONE) {
      NoneCalls[NT.None] = B.CreateCall(
          H.BranchSplitAdd, {B.CreateZExt(Taken, B.getInt32Ty()),
                             counter(B, NT.All), None, B.getInt32(0)});
      return;
    }
    SmallVector<Value *, 6> Args{
        B.CreateZExt(Taken, B.getInt32Ty()),
        Measure ? counter(B, figure(Row, PASTA_DIV_DIVERGENT)) : None, None,
        B.getInt32(Measure)};
    if (!NT.Launch) {
      bool Others = NT.Others != PASTA_NONE;
      Args.append({Others ? counter(B, NT.Others) : None, B.getInt32(Others)});
    }
    CallInst *Call =
        B.CreateCall(NT.Launch ? H.BranchLaunchAdd : H.BranchNoneAdd, Args);
    if (!NT.Launch)
      NoneCalls[NT.None] = Call;
  }

  // Groups one block's accesses (in order) and decides where each group is
  // measured. Changes no code: every block must be planned before any is
  // measured.
  void planAccesses(ArrayRef<AccessSite> Sites) {
    const UniformLoops::UniformLoop *U =
        Loops.uniformLoop(*Sites.front().I->getParent());
    size_t First = Groups.size();
    for (const AccessSite &S : Sites) {
      AccessGroup *G = nullptr;
      for (size_t K = Groups.size(); K > First && !G; --K) {
        if (Groups.size() - K >= MaxGroupsCompared)
          break;
        if (sameFigures(*Groups[K - 1].Members.front(), S))
          G = &Groups[K - 1];
      }
      if (!G) {
        G = &Groups.emplace_back();
        G->Loop = U;
        G->InLoop = Loops.inLoop(*S.I->getParent());
        G->InBarrierLoop = Loops.inBarrierLoop(*S.I->getParent());
      }
      G->Members.push_back(&S);
    }
    for (size_t K = First; K < Groups.size(); ++K) {
      AccessGroup &G = Groups[K];
      const AccessSite &Rep = *G.Members.front();
      G.LaneStride = Loops.laneStrideIf(Rep.Ptr, *Rep.I->getParent(),
                                        G.LaneConds, G.LaneArms);
      // Not once per entry behind a clamp: its test's operands may be
      // computed in the loop, after the preheader that would test them.
      if (G.Loop && G.LaneArms.empty())
        G.Repeat = Loops.repeatIn(*G.Loop, Rep.Ptr, figureGranule(*Rep.A));
      G.TryRows = !laneShaped(G) && tryRows(Rep);
      if (laneShaped(G) && Rep.A->Space != PASTA_DIV_GENERIC)
        for (const AccessSite *S : G.Members)
          deriveLaneShaped(T, *S->A, *G.LaneStride);
      G.Proven = DeriveWholeAccesses && laneShaped(G) && *G.LaneStride == 0 &&
                 !G.laneTested() && Loops.uniformAddress(*Rep.I) &&
                 wholeAtOnce(Rep);
      // Behind a lane select too: where the lanes agree on it, the
      // address has the stride (measuredIn tests that as well).
      G.RowsProven = DeriveLaneAffine && !G.Proven && !G.Repeat &&
                     laneShaped(G) &&
                     exactInRowsOf32(*Rep.A, *G.LaneStride, instructionsOf(G));
      std::optional<int64_t> RowStride;
      if (G.RowsProven) {
        RowStride = Loops.rowStride(Rep.Ptr, *Rep.I->getParent());
        G.StackedWidth = stackedWidth(*G.LaneStride, RowStride);
        if (!G.StackedWidth)
          G.GapConflicts = gapConflicts(G, RowStride);
        if (!G.StackedWidth && G.GapConflicts < 0 &&
            (!G.laneTested() || ApartLaneTested))
          G.ApartWidth = apartWidth(G, RowStride);
        G.ApartStep = RowStride;
        G.ApartStepExpr = apartStepExpr(G);
      }
      G.FullRow = FullRows && T.Target == PASTA_TARGET_NVPTX && !G.Proven &&
                  !G.RowsProven && !G.Repeat && laneShaped(G) &&
                  (!G.laneTested() || fullRowClamp(G)) &&
                  fullRowForm(*Rep.A, *G.LaneStride, instructionsOf(G));
      if (G.FullRow) { // full warps of W-wide rows stacked in y: one row too
        RowStride = Loops.rowStride(Rep.Ptr, *Rep.I->getParent());
        G.StackedWidth = stackedWidth(*G.LaneStride, RowStride);
        G.RepeatWidth = repeatWidth(G, RowStride);
        if (!G.RepeatWidth && !G.StackedWidth &&
            (!G.laneTested() || ApartLaneTested))
          G.ApartWidth = apartWidth(G, RowStride);
        G.ApartStep = RowStride;
        G.ApartStepExpr = apartStepExpr(G);
      }
      if (G.Repeat && laneShaped(G)) // for the bodies (repeatInRows)
        RowStride = Loops.rowStride(Rep.Ptr, *Rep.I->getParent());
      G.NoRowTerm = RowStride && *RowStride == 0;
      // Unknown counts as a term, but for a group repeating in a loop (its
      // address moves with the loop too: a 1-D kernel's often unknown).
      G.RowTerm = RowStride ? *RowStride != 0 : !G.Repeat;
      markProvenance(G);
    }
    pairTwins(First);
    planBarrierLoads(First);
  }

  // BarrierLoadsFirst for groups First.. (one block's), outside loops, in
  // NVIDIA kernels (the only ones timed). A twin is measured at its own
  // access (unlessTwinOk), after its leader's measurement; so none is
  // planned in a block where one lies in a run.
  void planBarrierLoads(size_t First) {
    auto Block = make_range(Groups.begin() + First, Groups.end());
    if (T.Target != PASTA_TARGET_NVPTX ||
        any_of(Block, [](const AccessGroup &G) {
          return G.InLoop || (G.TwinOf && barrierLoadsEnd(G));
        }))
      return;
    for (AccessGroup &G : Block)
      if (!G.TwinOf)
        G.AfterBarrierLoads = barrierLoadsEnd(G);
    // A group that starts inside a run but is measured at its own access
    // (another member lies past the run's end) would come before the moved
    // groups, while the tests they share in the block (fullRow,
    // rowOrBasesOff) are made at the first measured group's point: then
    // none is moved.
    if (any_of(Block, [&](const AccessGroup &G) {
          return !G.AfterBarrierLoads && startsInMovedRun(G, Block);
        }))
      for (AccessGroup &G : Block)
        G.AfterBarrierLoads = nullptr;
  }

  // Whether G's first access lies between a block barrier and the end of a
  // run of loads after it that some group of Block is measured at.
  template <typename GroupRange>
  static bool startsInMovedRun(const AccessGroup &G, GroupRange Block) {
    Instruction *First = G.Members.front()->I;
    return any_of(Block, [&](const AccessGroup &Moved) {
      Instruction *End = Moved.AfterBarrierLoads;
      if (!End || End->getParent() != First->getParent() ||
          !First->comesBefore(End))
        return false;
      for (Instruction *I = End->getPrevNode(); I; I = I->getPrevNode()) {
        if (I == First)
          return true;
        if (UniformLoops::isBlockBarrier(*I))
          return false;
      }
      return false;
    });
  }

  // Each of groups First.. (one block's) whose addresses are an earlier
  // one's from another base and which would be measured alike becomes that
  // group's twin (AccessGroup::Twins).
  // Only in NVPTX kernels: a kernel's arguments are the same in every lane
  // (a device function's may differ per lane, and so may the two addresses'
  // difference), and their copies test the bases once (addTwinsApart).
  void pairTwins(size_t First) {
    if (!TwinBases || T.Target != PASTA_TARGET_NVPTX || !isKernel(Copy))
      return;
    for (size_t K = First + 1; K < Groups.size(); ++K) {
      AccessGroup &G = Groups[K];
      for (size_t L = First; L < K && twinnable(G); ++L) {
        AccessGroup &Lead = Groups[L];
        if (Lead.TwinOf || !twinnable(Lead) || !measuredAlike(Lead, G))
          continue;
        G.TwinOf = &Lead;
        Lead.Twins.push_back(&G);
        break;
      }
    }
  }

  // Whether G is measured at its first access wherever it runs: no proof,
  // no loop entry's measurement, no lane test, a known space.
  static bool twinnable(const AccessGroup &G) {
    return !G.Proven && !G.RowsProven && !G.Repeat && !G.laneTested() &&
           G.Members.front()->A->Space != PASTA_DIV_GENERIC;
  }

  // Whether group G, with Lead's addresses from another base, has Lead's
  // figures where the bases are a granule apart and is measured alike: the
  // same size, kind, space and segment, the same lane shape and tests.
  bool measuredAlike(const AccessGroup &Lead, const AccessGroup &G) const {
    const AccessSite &R = *Lead.Members.front(), &S = *G.Members.front();
    return R.A->Size == S.A->Size && R.A->Space == S.A->Space &&
           R.A->Sectored == S.A->Sectored && R.A->Warps == S.A->Warps &&
           Lead.LaneStride == G.LaneStride && Lead.TryRows == G.TryRows &&
           Lead.FullRow == G.FullRow && Lead.StackedWidth == G.StackedWidth &&
           Lead.InLoop == G.InLoop && Lead.Loop == G.Loop &&
           Lead.NoRowTerm == G.NoRowTerm && Lead.RowTerm == G.RowTerm &&
           twinAddresses(R.Ptr, S.Ptr, Copy);
  }

  // At Lead's first access (above its twins'): whether every twin's base
  // is a multiple of the figure granule from Lead's (then every lane's
  // address is too). One test for all: a failing one (never with
  // cudaMalloc's buffers) measures them all apart. Computed where it is
  // used, from the arguments: a predicate kept from the entry would hold a
  // register across the kernel.
  Value *twinsOk(const AccessGroup &Lead) {
    const AccessSite &Rep = *Lead.Members.front();
    IRBuilder<> B(Rep.I);
    auto Address = [&](const AccessGroup &G) {
      return B.CreatePtrToInt(
          const_cast<Argument *>(
              argumentBase(G.Members.front()->Ptr, Copy).first),
          B.getInt64Ty());
    };
    Value *LeadBase = Address(Lead), *Off = nullptr;
    for (const AccessGroup *Twin : Lead.Twins) {
      Value *Apart = B.CreateSub(Address(*Twin), LeadBase);
      Off = Off ? B.CreateOr(Off, Apart) : Apart;
    }
    uint64_t Granule = figureGranule(*Rep.A);
    auto *Ok = cast<Instruction>(
        B.CreateICmpEQ(B.CreateAnd(Off, B.getInt64(Granule - 1)), B.getInt64(0),
                       "pasta.div.twins.ok"));
    Ok->setMetadata(TwinsOkMD, MDNode::get(Copy.getContext(),
                                           ConstantAsMetadata::get(
                                               B.getInt32(Lead.Twins.size()))));
    return Ok;
  }

  // Where twin G is measured: its first access's block split, the
  // measurement under its leader's !TwinOk (what it tests per block is
  // made above it).
  Instruction *unlessTwinOk(const AccessGroup &G) {
    const AccessSite &Rep = *G.Members.front();
    if (G.FullRow)
      fullRow(Rep.A->I->getParent(), Rep.A->Warps, G.StackedWidth, Rep.I);
    if (G.RepeatWidth)
      repeatRow(Rep.A->I->getParent(), Rep.A->Warps, G.RepeatWidth, Rep.I);
    if (!G.InLoop)
      bankRow();
    IRBuilder<> B(Rep.I);
    Instruction *Then = SplitBlockAndInsertIfThen(B.CreateNot(G.TwinOf->TwinOk),
                                                  Rep.I->getIterator(),
                                                  /*Unreachable=*/false);
    markInstrumentation(
        Then->getParent()->getSinglePredecessor()->getTerminator());
    return Then;
  }

  // Each row of group Lead's accesses and of its twins' with how many of
  // Lead's and how many of the twins' accesses it holds.
  static std::map<uint32_t, std::pair<uint32_t, uint32_t>>
  rowsWithTwins(const AccessGroup &Lead) {
    std::map<uint32_t, std::pair<uint32_t, uint32_t>> Rows;
    for (auto [Row, Times] : rowsOf(Lead))
      Rows[Row].first += Times;
    for (const AccessGroup *Twin : Lead.Twins)
      for (auto [Row, Times] : rowsOf(*Twin))
        Rows[Row].second += Times;
    return Rows;
  }

  // V, a figure of Lead's measurement, times a row's accesses of Lead and
  // of its twins (rowsWithTwins), the twins' where their bases are a
  // granule apart (else they measure themselves).
  static Value *timesWithTwins(IRBuilder<> &B, const AccessGroup &Lead,
                               Value *V, std::pair<uint32_t, uint32_t> Times) {
    auto [Own, Twins] = Times;
    if (!Twins)
      return times(B, V, Own);
    return B.CreateMul(V, B.CreateSelect(Lead.TwinOk, B.getInt64(Own + Twins),
                                         B.getInt64(Own)));
  }

  // The planned accesses: first what goes in preheaders (addresses computed
  // with scalar evolution, which needs the blocks as they were), then each
  // group at its first access (splitting blocks for steps tested at run
  // time).
  void setLaunchClasses(ArrayRef<DivergencePlan::LaunchClass> Classes) {
    LaunchClasses = Classes;
  }

  void measureAccesses() {
    OutOfLine = count_if(Groups, [](auto &G) { return !G.Proven; }) >
                ptrdiff_t(OutOfLineAbove);
    SmallVector<std::pair<AccessGroup *, Value *>, 8> Tested;
    for (AccessGroup &G : Groups)
      if (G.Repeat && !G.Proven)
        if (Value *Ok = measureOncePerEntry(G))
          Tested.push_back({&G, Ok});
    // A copy that large is not cloned (addTwinsApart): its twins, each a
    // call, would stay measured beside their tests.
    if (OutOfLine)
      for (AccessGroup &G : Groups) {
        G.Twins.clear();
        G.TwinOf = nullptr;
      }
    for (AccessGroup &G : Groups)
      if (!G.Twins.empty())
        G.TwinOk = twinsOk(G);
    rowBasesAtEntry();
    planLaunchFigures();
    planBatches();
    for (AccessGroup &G : Groups)
      if (!G.Repeat && !G.Proven && !G.RowsProven) {
        Instruction *At = G.TwinOf ? unlessTwinOk(G) : G.Members.front()->I;
        if (!G.TwinOf && (!G.FullRow || fullRowAfterLoad(G)))
          At = afterLoad(At, G.Members.front()->A->Size);
        if (G.AfterBarrierLoads)
          At = G.AfterBarrierLoads;
        if (G.FullRow)
          measureFullRowAt(G, At);
        else
          measureGroupAt(G, At, G.InLoop);
      }
    // In warps of one 32-lane row their derived figures are exact: measured
    // in the others only, under one test of a value read once per call (and,
    // behind a lane select, where the lanes do not agree on its condition).
    for (AccessGroup &G : Groups)
      if (G.RowsProven) {
        Value *Measured = measuredIn(G.StackedWidth);
        Instruction *At =
            G.AfterBarrierLoads ? G.AfterBarrierLoads : G.Members.front()->I;
        // Its own test: the FullRow groups, measured above, may have made
        // the block's cached one below this group's access.
        Value *Apart = G.ApartWidth ? stackedFull(G.ApartWidth, At) : nullptr;
        if (G.laneTested()) {
          IRBuilder<> B(At);
          Value *Agree = AgreeOf[&G] = lanesAgree(B, G);
          Measured =
              B.CreateOr(Measured, B.CreateNot(Agree), "pasta.div.apart");
        }
        Instruction *Then = SplitBlockAndInsertIfThen(
            Measured, At->getIterator(), /*Unreachable=*/false);
        markInstrumentation(
            Then->getParent()->getSinglePredecessor()->getTerminator());
        if (G.GapConflicts >= 0)
          Then = addGapConflicts(G, Then);
        if (Apart)
          Then = addApartRows(G, Apart, Then);
        if (std::optional<int64_t> Step = pairRowsStep(G))
          Then = addPairRows(G, *Step, Then);
        // A rare measurement in a loop: its figures straight to the counters
        // (no register of it held across the loop).
        measureGroupAt(G, Then, G.InLoop && !rarelyMeasured(G));
      }
    keepRareMarksIfWorth();
    for (auto [G, Ok] : Tested) {
      IRBuilder<> B(G->Members.front()->I);
      Instruction *Then = SplitBlockAndInsertIfThen(
          B.CreateNot(Ok), G->Members.front()->I->getIterator(),
          /*Unreachable=*/false);
      markInstrumentation(
          Then->getParent()->getSinglePredecessor()->getTerminator());
      measureGroupAt(*G, Then, /*InLoop=*/true);
    }
  }

  // The uniform loops' folds, the registers' drains, then their flush at
  // every return and before inline assembly that ends the thread
  // (ThreadExits.h).
  void emitFlushes() {
    addEveryTrip();
    emitFolds();
    drainBeforeOverflow();
    if (noRegisters())
      return;
    SmallVector<Instruction *, 4> Exits = threadEnds(Copy);
    for (BasicBlock &BB : Copy)
      if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
        Exits.push_back(Ret);
    AllocaInst *Written = SkipCleanExits ? markWrites(Exits) : nullptr;
    // Before the registers' flushes: the counting code's alone (the
    // registers' own fast path already runs behind the vote of Written).
    if (Written && SkipZeroCounts)
      skipZeroCountFlushes();
    if (Written && CleanupCleanExits)
      Copy.addFnAttr(DivCleanupAttr);
    // Before the registers' flush: its calls are not the counting code's.
    if (Written && CleanWarpExits && T.Target == PASTA_TARGET_NVPTX &&
        Exits.size() == 1)
      cleanWarpExits(Written);
    for (Instruction *Exit : Exits)
      emitFlush(Written ? flushPoint(Exit, Written) : Exit);
  }

  // CleanWarpExits: each edge into the sole return (the block that calls
  // __pasta_div_return_add) that carries the counting code's flushed values
  // as constants, from a block outside loops that no mark of Written
  // reaches (so every register is 0 in a lane that took it), gets a test of
  // a full warp, whose lanes then all took it: their return would add
  // nothing of its own (lane 0 is there), the counting code's fast flush
  // would add 32 times each nonzero constant, and the registers' flush
  // nothing. Such a warp adds those from lane 0 and returns there.
  void cleanWarpExits(AllocaInst *Written) {
    BasicBlock *Ret = returnAddBlock();
    if (!Ret)
      return;
    std::optional<SmallVector<FlushedCount, 8>> Flushed = flushedCounts(*Ret);
    if (!Flushed)
      return;
    SmallPtrSet<const BasicBlock *, 32> Dirty = reachedFrom(marksOf(Written));
    DominatorTree DT(Copy);
    LoopInfo LI(DT);
    SmallVector<BasicBlock *, 4> Preds(predecessors(Ret));
    SmallPtrSet<BasicBlock *, 4> Seen;
    for (BasicBlock *P : Preds) {
      if (!Seen.insert(P).second || Dirty.contains(P) || LI.getLoopFor(P) ||
          count(successors(P), Ret) != 1)
        continue;
      SmallVector<std::pair<uint64_t, uint64_t>, 4> Adds;
      if (constantAdds(*Ret, *P, *Flushed, Adds))
        addCleanWarpExit(*Ret, *P, Adds);
    }
  }

  // A flush of the counting code in the return's fast path: Value (a phi
  // of the return block, or a constant) added from every lane, or its bit
  // Bit (>= 0: a flush of one bit of a mask), to the counter at Index of
  // the bank row.
  struct FlushedCount {
    Value *V;
    int Bit;
    uint64_t Index;
  };

  // The block of the copy's __pasta_div_return_add call, if any.
  BasicBlock *returnAddBlock() const {
    for (BasicBlock &BB : Copy)
      for (Instruction &I : BB)
        if (auto *CI = dyn_cast<CallInst>(&I))
          if (CI->getCalledOperand() == FunctionCallee(H.ReturnAdd).getCallee())
            return &BB;
    return nullptr;
  }

  // The counting code's fast flushes in the blocks from Ret on, where
  // those blocks hold nothing else that adds or writes memory; none
  // otherwise.
  std::optional<SmallVector<FlushedCount, 8>>
  flushedCounts(BasicBlock &Ret) const {
    static const StringRef Known[] = {
        FlushCounterFastName, FlushBitFastName,
        FlushCounterName,     FlushIsFastName,
        FlushIsFullWarpName,  FlushAnyName,
        WarpOrName,           LaneIdName,
        BankRowName,          "__pasta_div_return_add"};
    SmallVector<FlushedCount, 8> Flushed;
    SmallVector<BasicBlock *, 16> Work{&Ret};
    SmallPtrSet<BasicBlock *, 16> Seen{&Ret};
    while (!Work.empty()) {
      BasicBlock *BB = Work.pop_back_val();
      if (Seen.size() > 64)
        return std::nullopt;
      for (Instruction &I : *BB) {
        auto *CI = dyn_cast<CallInst>(&I);
        if (!CI) {
          if (I.mayWriteToMemory())
            return std::nullopt;
          continue;
        }
        const Function *F = CI->getCalledFunction();
        if (F && F->isIntrinsic() && !I.mayWriteToMemory())
          continue;
        if (!F ||
            none_of(Known, [&](StringRef N) { return F->getName() == N; }))
          return std::nullopt;
        bool Bit = F->getName() == FlushBitFastName;
        if (!Bit && F->getName() != FlushCounterFastName)
          continue;
        auto *Slot = dyn_cast<GetElementPtrInst>(CI->getArgOperand(0));
        auto *Row =
            Slot ? dyn_cast<CallInst>(Slot->getPointerOperand()) : nullptr;
        auto *Index = Slot && Slot->getNumIndices() == 1
                          ? dyn_cast<ConstantInt>(Slot->getOperand(1))
                          : nullptr;
        auto *BitIndex =
            Bit ? dyn_cast<ConstantInt>(CI->getArgOperand(3)) : nullptr;
        if (!Row || !isCopysRow(*Row) || !Index || (Bit && !BitIndex))
          return std::nullopt;
        Flushed.push_back({CI->getArgOperand(1),
                           Bit ? int(BitIndex->getZExtValue() & 31) : -1,
                           Index->getZExtValue()});
      }
      for (BasicBlock *Succ : successors(BB)) {
        if (Succ == &Ret)
          return std::nullopt; // a cycle
        if (Seen.insert(Succ).second)
          Work.push_back(Succ);
      }
    }
    return Flushed;
  }

  // Whether Row is a __pasta_bank_row call for this copy's counters, the
  // row bankRow() finds at the entry.
  bool isCopysRow(const CallInst &Row) const {
    const Function *F = Row.getCalledFunction();
    auto *N = dyn_cast<ConstantInt>(Row.getArgOperand(1));
    auto *Banks = dyn_cast<ConstantInt>(Row.getArgOperand(2));
    return F && F->getName() == BankRowName &&
           Row.getArgOperand(0) == T.Counters && N &&
           N->getZExtValue() == T.NumCounters && Banks &&
           Banks->getZExtValue() == T.numBanks();
  }

  // The blocks where Written is set to 1.
  SmallVector<BasicBlock *, 4> marksOf(AllocaInst *Written) const {
    SmallVector<BasicBlock *, 4> Marks;
    for (User *U : Written->users())
      if (auto *S = dyn_cast<StoreInst>(U);
          S && S->getPointerOperand() == Written &&
          !PatternMatch::match(S->getValueOperand(), PatternMatch::m_Zero()))
        Marks.push_back(S->getParent());
    return Marks;
  }

  static SmallPtrSet<const BasicBlock *, 32>
  reachedFrom(ArrayRef<BasicBlock *> From) {
    SmallPtrSet<const BasicBlock *, 32> Seen;
    SmallVector<const BasicBlock *, 32> Work(From.begin(), From.end());
    while (!Work.empty()) {
      const BasicBlock *BB = Work.pop_back_val();
      if (Seen.insert(BB).second)
        append_range(Work, successors(BB));
    }
    return Seen;
  }

  // Whether every flushed value is a constant on the edge P -> Ret: the
  // adds a full warp makes then (32 times each), in Adds.
  bool constantAdds(BasicBlock &Ret, BasicBlock &P,
                    ArrayRef<FlushedCount> Flushed,
                    SmallVectorImpl<std::pair<uint64_t, uint64_t>> &Adds) {
    for (const FlushedCount &FC : Flushed) {
      Value *V = FC.V;
      if (auto *Phi = dyn_cast<PHINode>(V); Phi && Phi->getParent() == &Ret)
        V = Phi->getIncomingValueForBlock(&P);
      std::optional<uint64_t> C = foldedConstant(V, 4);
      if (!C)
        return false;
      uint64_t Each = FC.Bit >= 0 ? (*C >> FC.Bit) & 1 : *C;
      if (Each > (uint64_t(1) << 32))
        return false;
      if (Each)
        Adds.push_back({FC.Index, 32 * Each});
    }
    return true;
  }

  // V's value where it folds from constants through integer arithmetic.
  static std::optional<uint64_t> foldedConstant(Value *V, unsigned Depth) {
    if (auto *CI = dyn_cast<ConstantInt>(V))
      return CI->getZExtValue();
    auto *BO = dyn_cast<BinaryOperator>(V);
    if (!BO || !Depth)
      return std::nullopt;
    std::optional<uint64_t> L = foldedConstant(BO->getOperand(0), Depth - 1);
    std::optional<uint64_t> R = foldedConstant(BO->getOperand(1), Depth - 1);
    if (!L || !R)
      return std::nullopt;
    unsigned Bits = BO->getType()->getIntegerBitWidth();
    uint64_t Mask = Bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << Bits) - 1;
    switch (BO->getOpcode()) {
    case Instruction::Or:
      return (*L | *R) & Mask;
    case Instruction::Add:
      return (*L + *R) & Mask;
    default:
      return std::nullopt;
    }
  }

  // The edge P -> Ret split: a full warp goes to an exit that adds Adds
  // (a counter's index in the bank row, a warp's total) from lane 0.
  void addCleanWarpExit(BasicBlock &Ret, BasicBlock &P,
                        ArrayRef<std::pair<uint64_t, uint64_t>> Adds) {
    LLVMContext &Ctx = Copy.getContext();
    DebugLoc Loc = Ret.getTerminator()->getDebugLoc();
    BasicBlock *Test = BasicBlock::Create(Ctx, "pasta.div.clean", &Copy, &Ret);
    BasicBlock *Exit =
        BasicBlock::Create(Ctx, "pasta.div.clean.exit", &Copy, &Ret);
    P.getTerminator()->replaceSuccessorWith(&Ret, Test);
    for (PHINode &Phi : Ret.phis())
      Phi.replaceIncomingBlockWith(&P, Test);
    IRBuilder<> TB(Test);
    TB.SetCurrentDebugLocation(Loc);
    FunctionCallee Full = Copy.getParent()->getOrInsertFunction(
        FlushIsFullWarpName, TB.getInt64Ty());
    TB.CreateCondBr(TB.CreateICmpNE(TB.CreateCall(Full), TB.getInt64(0)), Exit,
                    &Ret);
    markInstrumentation(Test->getTerminator());
    IRBuilder<> XB(Exit);
    XB.SetCurrentDebugLocation(Loc);
    FunctionCallee WarpAdd = Copy.getParent()->getOrInsertFunction(
        "__pasta_div_warp_add", XB.getVoidTy(), PointerType::get(Ctx, 1),
        XB.getInt64Ty());
    for (auto [Index, Total] : Adds)
      XB.CreateCall(WarpAdd,
                    {counter(XB, uint32_t(Index)), XB.getInt64(Total)});
    XB.CreateRetVoid();
  }

  // The runs of the counting code's fast counter flushes outside loops
  // (calls in one block with only their slots' addresses between them),
  // each moved behind one vote of the or of their values. Exact: a warp
  // sum of zeros adds nothing, and the vote is over the same lanes as the
  // sums (a fast flush runs in full warps only).
  void skipZeroCountFlushes() {
    DominatorTree DT(Copy);
    LoopInfo LI(DT);
    SmallVector<SmallVector<CallInst *, 4>, 4> Runs;
    for (BasicBlock &BB : Copy) {
      if (LI.getLoopFor(&BB))
        continue;
      SmallVector<CallInst *, 4> Run;
      for (Instruction &I : BB) {
        if (isFastCounterFlush(I)) {
          Run.push_back(cast<CallInst>(&I));
        } else if (!Run.empty() && !isa<GetElementPtrInst>(I)) {
          Runs.push_back(std::move(Run));
          Run.clear();
        }
      }
    }
    for (ArrayRef<CallInst *> Run : Runs)
      guardByVote(Run);
  }

  static bool isFastCounterFlush(const Instruction &I) {
    const auto *CI = dyn_cast<CallInst>(&I);
    const Function *F = CI ? CI->getCalledFunction() : nullptr;
    return F && F->getName() == FlushCounterFastName;
  }

  // Run's calls (and the addresses between them) into the then-block of
  // `if (__pasta_flush_any(v1 | v2 | ...))`.
  void guardByVote(ArrayRef<CallInst *> Run) {
    Instruction *First = Run.front(), *Last = Run.back();
    for (Instruction *I = First; I != Last->getNextNode(); I = I->getNextNode())
      for (const User *U : I->users())
        if (cast<Instruction>(U)->getParent() != First->getParent() ||
            Last->comesBefore(cast<Instruction>(U)))
          return; // a value used after the run: leave it as it is
    IRBuilder<> B(First);
    Value *Any = nullptr;
    for (CallInst *C : Run)
      Any = Any ? B.CreateOr(Any, C->getArgOperand(1)) : C->getArgOperand(1);
    FunctionCallee AnyLane = Copy.getParent()->getOrInsertFunction(
        FlushAnyName, B.getInt64Ty(), B.getInt64Ty());
    Value *Some = B.CreateICmpNE(B.CreateCall(AnyLane, {Any}), B.getInt64(0),
                                 "pasta.count.any");
    Instruction *Then =
        SplitBlockAndInsertIfThen(Some, First->getIterator(), false);
    markInstrumentation(
        Then->getParent()->getSinglePredecessor()->getTerminator());
    SmallVector<Instruction *, 8> Moved;
    for (Instruction *I = First; I != Last->getNextNode(); I = I->getNextNode())
      Moved.push_back(I);
    for (Instruction *I : Moved)
      I->moveBefore(Then->getIterator());
  }

  // The blocks that may leave a register other than its entry's 0: a
  // store of anything else, or a helper given its address.
  SmallPtrSet<BasicBlock *, 16> registerWriters() {
    SmallPtrSet<BasicBlock *, 16> Writers;
    auto Add = [&](AllocaInst *R) {
      for (User *U : R->users()) {
        if (isa<LoadInst>(U))
          continue;
        if (auto *S = dyn_cast<StoreInst>(U);
            S && S->getPointerOperand() == R &&
            PatternMatch::match(S->getValueOperand(), PatternMatch::m_Zero()))
          continue;
        Writers.insert(cast<Instruction>(U)->getParent());
      }
    };
    for (auto &[Counter, Slot] : Slots)
      Add(Slot);
    for (const GroupSlot &S : GroupSlots)
      Add(S.R);
    return Writers;
  }

  // A register set to 1 on every path that may write a register, where
  // some path to a return writes none; null where every path may. A
  // writer in a loop sets it in the outermost loop's preheader, not at
  // every iteration (a lane that runs no iteration then flushes its 0s).
  AllocaInst *markWrites(ArrayRef<Instruction *> Exits) {
    SmallPtrSet<BasicBlock *, 16> Writers = registerWriters();
    DominatorTree DT(Copy);
    LoopInfo LI(DT);
    // Only where a divergent loop whose trips the data decide writes (bfs's
    // edges of its node: row_ptr[u] to row_ptr[u + 1]): there whole warps
    // may run none. A loop over an index range (a grid-stride loop, a
    // uniform loop behind an index guard) is skipped by a grid's last warp
    // only, and the vote would cost every other warp.
    if (none_of(Writers, [&](BasicBlock *W) {
          const Loop *L = LI.getLoopFor(W);
          return L && !Loops.uniformLoop(*L->getHeader()) &&
                 !Loops.countedHeader(*L->getHeader()) && tripsFromData(*L);
        }))
      return nullptr;
    SmallPtrSet<BasicBlock *, 16> Marks;
    for (BasicBlock *W : Writers) {
      Loop *L = LI.getLoopFor(W);
      while (L && L->getParentLoop())
        L = L->getParentLoop();
      BasicBlock *Pre = L ? L->getLoopPreheader() : nullptr;
      Marks.insert(L && Pre ? Pre : W);
    }
    // Whether some return is reached from the entry avoiding every mark.
    SmallPtrSet<const BasicBlock *, 32> Seen;
    SmallVector<const BasicBlock *, 32> Work{&Copy.getEntryBlock()};
    while (!Work.empty()) {
      const BasicBlock *BB = Work.pop_back_val();
      if (!Marks.contains(BB) && Seen.insert(BB).second)
        append_range(Work, successors(BB));
    }
    if (Marks.contains(&Copy.getEntryBlock()) ||
        none_of(Exits, [&](Instruction *E) {
          return isa<ReturnInst>(E) && Seen.contains(E->getParent());
        }))
      return nullptr;
    AllocaInst *Written = newRegister("pasta.div.written");
    for (BasicBlock *M : Marks)
      new StoreInst(ConstantInt::get(Written->getAllocatedType(), 1), Written,
                    M->getTerminator()->getIterator());
    return Written;
  }

  // Whether an exit test of L depends on a value loaded from memory (not
  // from a register of the copy's own).
  static bool tripsFromData(const Loop &L) {
    SmallVector<BasicBlock *, 4> Exiting;
    L.getExitingBlocks(Exiting);
    SmallPtrSet<const Value *, 32> Seen;
    return any_of(Exiting, [&](BasicBlock *BB) {
      auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
      return Br && Br->isConditional() &&
             fromLoad(Br->getCondition(), /*Depth=*/12, Seen);
    });
  }

  static bool fromLoad(const Value *V, unsigned Depth,
                       SmallPtrSetImpl<const Value *> &Seen) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !Depth || !Seen.insert(I).second)
      return false;
    if (auto *Load = dyn_cast<LoadInst>(I))
      return !isa<AllocaInst>(getUnderlyingObject(Load->getPointerOperand()));
    return any_of(I->operands(), [&](const Use &Op) {
      return fromLoad(Op.get(), Depth - 1, Seen);
    });
  }

  // Where a return's flush goes: behind one vote of the lanes that came
  // by a marked path (markWrites). No lane of a warp that skips it holds a
  // nonzero register.
  Instruction *flushPoint(Instruction *Exit, AllocaInst *Written) {
    if (!isa<ReturnInst>(Exit))
      return Exit;
    IRBuilder<> B(Exit);
    FunctionCallee AnyLane = Copy.getParent()->getOrInsertFunction(
        FlushAnyName, B.getInt64Ty(), B.getInt64Ty());
    Value *Came =
        B.CreateZExt(B.CreateLoad(B.getInt32Ty(), Written), B.getInt64Ty());
    Value *Flush = B.CreateICmpNE(B.CreateCall(AnyLane, {Came}), B.getInt64(0),
                                  "pasta.div.written.any");
    Instruction *Then =
        SplitBlockAndInsertIfThen(Flush, Exit->getIterator(), false);
    markInstrumentation(
        Then->getParent()->getSinglePredecessor()->getTerminator());
    return Then;
  }

  // Whether I ends a run of loads: it may write memory, or is a call or a
  // load that is not simple.
  static bool endsLoadRun(const Instruction &I) {
    if (auto *L = dyn_cast<LoadInst>(&I))
      return !L->isSimple();
    return I.isTerminator() || I.mayWriteToMemory() || I.mayThrow() ||
           (isa<CallBase>(I) && !isa<IntrinsicInst>(I));
  }

  // Whether load L may read global memory (not shared memory or a stack
  // slot): a latency worth issuing early.
  static bool mayLoadGlobal(const LoadInst &L) {
    if (L.getPointerAddressSpace() == 3)
      return false;
    const Value *O = getUnderlyingObject(L.getPointerOperand());
    if (isa<AllocaInst>(O))
      return false;
    auto *GV = dyn_cast<GlobalVariable>(O);
    return !GV || GV->getAddressSpace() != 3;
  }

  // BarrierLoadsFirst: where G (outside loops) is measured when its
  // accesses are loads of the run that follows a block barrier in their
  // block (up to the first instruction that may write memory, or a call):
  // just after the run's last load, if the run holds a load that may read
  // global memory and at most MaxBarrierRunLoads loads (their values wait
  // in registers across the measurements: lud_internal's 33 spilled under
  // its cap of 32); else null. Planned before any code is added, so that
  // every group of a run is measured before the same instruction.
  static Instruction *barrierLoadsEnd(const AccessGroup &G) {
    static constexpr unsigned MaxBarrierRunLoads = 8;
    Instruction *First = G.Members.front()->I;
    if (!BarrierLoadsFirst || !isa<LoadInst>(First))
      return nullptr;
    Instruction *Barrier = First->getPrevNode();
    for (; Barrier && !UniformLoops::isBlockBarrier(*Barrier);
         Barrier = Barrier->getPrevNode())
      if (endsLoadRun(*Barrier))
        return nullptr;
    if (!Barrier)
      return nullptr;
    Instruction *Last = nullptr;
    unsigned Loads = 0;
    bool Global = false;
    for (Instruction *I = Barrier->getNextNode(); !endsLoadRun(*I);
         I = I->getNextNode())
      if (auto *L = dyn_cast<LoadInst>(I)) {
        Last = L;
        ++Loads;
        Global |= mayLoadGlobal(*L);
      }
    if (!Last || Loads > MaxBarrierRunLoads || !Global)
      return nullptr;
    Instruction *End = Last->getNextNode();
    bool AllIn = all_of(G.Members, [&](const AccessSite *S) {
      return S->I->getParent() == End->getParent() && S->I->comesBefore(End);
    });
    return AllIn ? End : nullptr;
  }

  // Whether FullRow group G is measured after its load (FullRowAfterLoad;
  // outside loops in a copy with a data-decided loop, DataLoopAfterLoad).
  bool fullRowAfterLoad(const AccessGroup &G) const {
    if (FullRowAfterLoad != FullRowAfter::Never && DataLoopCopy && !G.InLoop)
      return true;
    switch (FullRowAfterLoad) {
    case FullRowAfter::Never:
      return false;
    case FullRowAfter::BarrierLoops:
      return G.InBarrierLoop;
    case FullRowAfter::InLoops:
      return G.InLoop;
    case FullRowAfter::Always:
      return true;
    }
    return false;
  }

  // Where to measure a group led by access I: just after I when it is a
  // load (MeasureAfterLoad), else at I.
  // Not for a load the back end joins with the next ones into one vector
  // load (an access of Size, larger than the load's own: DivergencePlan's
  // joinVectorAccesses): the measuring calls between them would keep them
  // apart.
  static Instruction *afterLoad(Instruction *I, uint64_t Size) {
    auto *L = dyn_cast<LoadInst>(I);
    if (!MeasureAfterLoad || !L || L->isVolatile() ||
        L->getDataLayout().getTypeStoreSize(L->getType()) != Size)
      return I;
    return L->getNextNode();
  }

  // Whether G repeats in a uniform loop (measured once per entry, or in
  // the loop where a step test fails) with a lane-shaped address of a known
  // space, a power-of-2 size up to 32, each access aligned to it: then its
  // measuring calls take the one-row path in rows of 32.
  bool repeatInRows(const AccessGroup &G) const {
    const DivergencePlan::Access &A = *G.Members.front()->A;
    return rowsInLoops() && G.Repeat && laneShaped(G) && !G.laneTested() &&
           A.Space != PASTA_DIV_GENERIC && isPowerOf2_32(A.Size) &&
           A.Size <= 32 && all_of(G.Members, [&](const AccessSite *S) {
             return accessAlign(*S->I) >= A.Size;
           });
  }

  // Whether G is a shared-memory atomic whose address no lane shape
  // describes (a histogram's bin): measured in every warp by the general
  // helper, which takes no row width, so a body for rows of 32 measures it
  // as the copy does.
  static bool scatteredSharedAtomic(const AccessGroup &G) {
    return !G.Proven && !G.LaneStride &&
           G.Members.front()->A->Space == PASTA_DIV_SHARED &&
           all_of(G.Members, [](const AccessSite *S) {
             return isa<AtomicRMWInst, AtomicCmpXchgInst>(S->I);
           });
  }

  bool measuresScatteredAtomics() const {
    return any_of(Groups, scatteredSharedAtomic);
  }

  std::optional<SmallVector<CallInst *, 8>> rows32Calls(bool AnyRowTerm) const {
    bool Measured = false;
    for (const AccessGroup &G : Groups) {
      if (G.Proven || scatteredSharedAtomic(G))
        continue;
      if (repeatInRows(G)) {
        if (!G.NoRowTerm && !AnyRowTerm)
          return std::nullopt;
        Measured = true;
        continue;
      }
      // An address with a term in thread index y is most likely one of a
      // kernel for blocks of two dimensions, whose rows are often 16 wide
      // (and its tiles stacked in y): such calls would run the general
      // body, which the cap spills. A kernel for one-dimensional blocks
      // has rows of 32 whatever their size.
      if ((!(G.FullRow || G.RowsProven) || G.laneTested()) ||
          (!G.NoRowTerm && !AnyRowTerm))
        return std::nullopt;
      Measured = true;
    }
    if (!Measured || OutOfLine)
      return std::nullopt;
    SmallVector<CallInst *, 8> Calls(FullRowCalls);
    Calls.append(RepeatCalls.begin(), RepeatCalls.end());
    return Calls;
  }

  std::optional<SmallVector<CallInst *, 8>> rows16Calls() const {
    bool RowTerm = false;
    for (const AccessGroup &G : Groups) {
      if (G.Proven)
        continue;
      const DivergencePlan::Access &A = *G.Members.front()->A;
      if ((!((G.FullRow || G.RowsProven) && !G.laneTested()) &&
           !repeatInRows(G)) ||
          A.Space == PASTA_DIV_GENERIC || !isPowerOf2_32(A.Size) ||
          A.Size > 32 || (*G.LaneStride != 0 && *G.LaneStride != A.Size) ||
          any_of(G.Members, [&](const AccessSite *S) {
            return accessAlign(*S->I) < A.Size;
          }))
        return std::nullopt;
      RowTerm |= G.RowTerm;
    }
    if (!RowTerm || OutOfLine)
      return std::nullopt;
    return LanesCalls;
  }

  ArrayRef<CallInst *> fullRowCalls() const { return FullRowCalls; }

  // The alignment an access's instruction states, in bytes.
  static uint64_t accessAlign(const Instruction &I) {
    if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I))
      return RMW->getAlign().value();
    if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
      return CX->getAlign().value();
    return getLoadStoreAlignment(&I).value();
  }

  std::array<unsigned, 11> accessGroups() const {
    return {
        unsigned(Groups.size()),
        unsigned(count_if(Groups, laneShaped)),
        unsigned(count_if(Groups, [](auto &G) { return G.Proven; })),
        unsigned(count_if(Groups, [](auto &G) { return G.RowsProven; })),
        unsigned(count_if(
            Groups, [](auto &G) { return G.RowsProven && G.StackedWidth; })),
        unsigned(count_if(Groups, [](auto &G) { return G.FullRow; })),
        unsigned(count_if(Groups, [](auto &G) { return !G.LaneArms.empty(); })),
        unsigned(count_if(
            Groups,
            [](auto &G) { return G.Members.front()->A->CallersSpace; })),
        unsigned(count_if(Groups, [](auto &G) { return G.GapConflicts >= 0; })),
        unsigned(count_if(Groups, [](auto &G) { return G.TwinOf; })),
        unsigned(LaunchOf.size())};
  }

private:
  // The counter of figure Index of divergence row Row.
  uint32_t figure(uint32_t Row, unsigned Index) const {
    return T.DivRows[Row].counter + Index;
  }

  // How many times a block of a uniform loop ran in the loop's current
  // entry: the loop's iterations when the block runs in each (known at the
  // preheader), else a register set to 0 at the preheader and counted at
  // the top of the block.
  struct Count {
    AllocaInst *Register = nullptr;
    Value *Trips = nullptr;
  };

  // Counter += PerEntry * Times * Count, with PerEntry taken as 0 when Ok
  // (set in the preheader) is false: at the preheader when the count is
  // known there, else in the loop's exit blocks.
  struct Fold {
    uint32_t Counter;
    AllocaInst *PerEntry;
    uint32_t Times;
    uint64_t Most; // the most PerEntry can be (either sign)
    Count N;
    Value *Ok = nullptr;
  };
  struct HoistedLoop {
    AllocaInst *Leader = nullptr;        // 1 in the first active lane, else 0
    AllocaInst *Lanes = nullptr;         // the active lanes, in the first lane
    SmallVector<Fold, 8> Folds;          // in the exit blocks
    SmallVector<Fold, 4> PreheaderFolds; // at the preheader, in a loop
  };

  // A uniform loop's record, with its leader and lanes taken in the
  // preheader (__pasta_div_block's figures of one execution).
  HoistedLoop &hoisted(const UniformLoops::UniformLoop &U) {
    auto [It, New] = Hoisted.try_emplace(&U);
    if (New) {
      It->second.Leader = newRegister("pasta.div.leader");
      It->second.Lanes = newRegister("pasta.div.lanes");
      HoistOrder.push_back(&U);
      IRBuilder<> B(U.PreheaderEnd);
      zero(B, {It->second.Leader, It->second.Lanes});
      B.CreateCall(H.Block,
                   {B.getInt32(1), It->second.Leader, It->second.Lanes});
    }
    return It->second;
  }

  Count executions(BasicBlock &BB, const UniformLoops::UniformLoop &U) {
    if (Loops.runsEveryIteration(U, BB))
      return {nullptr, Loops.tripsBefore(U)};
    AllocaInst *&N = Executions[&BB];
    if (!N) {
      N = newRegister("pasta.div.n", /*Wide=*/true); // no bound
      IRBuilder<> PB(U.PreheaderEnd);
      zero(PB, {N});
      IRBuilder<> B(&*BB.getFirstInsertionPt());
      B.CreateStore(B.CreateAdd(B.CreateLoad(B.getInt64Ty(), N), B.getInt64(1)),
                    N);
    }
    return {N, nullptr};
  }

  // In another loop a fold adds a branch (emitFoldsAt), so it waits until
  // every block is measured: the blocks' loops are looked up by block.
  void addFold(const UniformLoops::UniformLoop &U, const Fold &F) {
    if (!F.N.Trips) {
      Hoisted[&U].Folds.push_back(F);
      return;
    }
    if (Loops.inLoop(*U.PreheaderEnd->getParent())) {
      Hoisted[&U].PreheaderFolds.push_back(F);
      return;
    }
    IRBuilder<> B(U.PreheaderEnd);
    emitFoldsAt(B, /*InLoop=*/false, F);
  }

  // F's figure: its figure per entry times N executions.
  static Value *foldValue(IRBuilder<> &B, const Fold &F, Value *N) {
    Value *PerEntry = load(B, F.PerEntry);
    if (F.Ok)
      PerEntry = B.CreateSelect(F.Ok, PerEntry, B.getInt64(0));
    return times(B, B.CreateMul(PerEntry, N), F.Times);
  }

  static Value *executionsOf(IRBuilder<> &B, const Fold &F) {
    return F.N.Trips ? F.N.Trips : load(B, F.N.Register);
  }

  // Folds outside loops: straight to their counters. In another loop, the
  // folds of one count of executions, under one test of the count: to the
  // registers when every figure is at most MaxFold (the usual case: a
  // short inner loop), else straight to the counters.
  void emitFoldsAt(IRBuilder<> &B, bool InLoop, ArrayRef<Fold> Folds) {
    if (!InLoop) {
      for (const Fold &F : Folds) {
        Value *V = foldValue(B, F, executionsOf(B, F));
        B.CreateCall(H.Add, {counter(B, F.Counter), V});
      }
      return;
    }
    MapVector<Value *, SmallVector<const Fold *, 8>> ByCount;
    for (const Fold &F : Folds)
      ByCount[F.N.Trips ? F.N.Trips : F.N.Register].push_back(&F);
    for (auto &[Key, Group] : ByCount) {
      uint64_t Most = 1;
      for (const Fold *F : Group)
        Most = std::max(Most, F->Most * F->Times);
      Value *N = executionsOf(B, *Group.front());
      Value *Small =
          B.CreateICmpULE(N, B.getInt64(MaxFold / Most), "pasta.div.small");
      Instruction *SmallT, *LargeT;
      SplitBlockAndInsertIfThenElse(Small, B.GetInsertPoint(), &SmallT,
                                    &LargeT);
      markInstrumentation(
          SmallT->getParent()->getSinglePredecessor()->getTerminator());
      IRBuilder<> SB(SmallT), LB(LargeT);
      Value *Row = freshRow(LB);
      for (const Fold *F : Group) {
        addFigure(SB, /*InLoop=*/true, F->Counter, foldValue(SB, *F, N),
                  MaxFold);
        Value *V = foldValue(LB, *F, N);
        LB.CreateCall(H.Add, {counter(LB, F->Counter, Row), V});
      }
    }
  }

  // The most a fold adds to a register in another loop.
  static constexpr uint64_t MaxFold = 1 << 20;

  static void zero(IRBuilder<> &B, ArrayRef<AllocaInst *> Registers) {
    for (AllocaInst *R : Registers)
      B.CreateStore(ConstantInt::get(R->getAllocatedType(), 0), R);
  }

  // A register's value as an i64 (a 32-bit one sign-extended).
  static Value *load(IRBuilder<> &B, AllocaInst *R) {
    return B.CreateSExtOrBitCast(B.CreateLoad(R->getAllocatedType(), R),
                                 B.getInt64Ty());
  }

  // Whether every lane of a warp execution of S reads or writes the same
  // range of one known space (its address warp-uniform, not just the same
  // in each row of lanes), a load or store naturally aligned and of at
  // most 32 bytes, or an atomic: then however many lanes are active its
  // figures are one request, its size in distinct bytes and, for a load or
  // store, one sector and one ideal sector and no bank conflict: those
  // deriveLaneShaped derives for stride 0.
  static bool wholeAtOnce(const AccessSite &S) {
    const DivergencePlan::Access &A = *S.A;
    return A.Space != PASTA_DIV_GENERIC &&
           (!A.Sectored || (isPowerOf2_32(A.Size) && A.Size <= 32 &&
                            getLoadStoreAlignment(S.I).value() >= A.Size));
  }

  // Whether G's addresses are a base uniform in each row of lanes plus a
  // stride per thread index x that __pasta_div_access_lanes takes
  // (lanesHelperTakes): measured with it.
  static bool laneShaped(const AccessGroup &G) {
    return G.LaneStride &&
           lanesHelperTakes(*G.Members.front()->A, *G.LaneStride);
  }

  // Whether the general helper should test an access's lanes for rows (a
  // min or max of a lane-shaped index, a select between two, a column walk
  // whose step, x times a row length, is known only at run time): not in
  // the blocks a loop runs under its own divergent branch, whose warps are
  // mostly partial. There the test would always fail, and its code costs
  // the copy registers.
  bool tryRows(const AccessSite &S) {
    return !Loops.underDivergenceInLoop(*S.I->getParent());
  }

  // Whether access S has the figures of the group led by R.
  bool sameFigures(const AccessSite &R, const AccessSite &S) {
    // Same segment of the block too: a call between them may change the
    // lanes (DivergencePlan::Segment).
    return R.A->Size == S.A->Size && R.A->Space == S.A->Space &&
           R.A->Sectored == S.A->Sectored && R.A->Warps == S.A->Warps &&
           Loops.constantApart(R.Ptr, S.Ptr, figureGranule(*S.A));
  }

  // Each row of a group with how many of its accesses it holds.
  static std::map<uint32_t, uint32_t> rowsOf(const AccessGroup &G) {
    std::map<uint32_t, uint32_t> Rows;
    for (const AccessSite *S : G.Members)
      ++Rows[S->A->Row];
    return Rows;
  }

  // One measurement of an access like G's first at Ptr, whose figures go
  // to Out(figure) (the discard register for those it cannot produce):
  // __pasta_div_access, or __pasta_div_access_lanes when the address is a
  // base uniform in each row of lanes plus 0 or the access size per thread
  // index x. Both take the warp's row width, read once per call.
  // Returns the call, whose value is 0 when no lane added a figure.
  template <typename OutFn>
  Value *callAccess(IRBuilder<> &B, Value *Ptr, const AccessGroup &G,
                    OutFn Out) {
    const DivergencePlan::Access &A = *G.Members.front()->A;
    bool AtFirst = Ptr == G.Members.front()->Ptr;
    bool Lanes = laneShaped(G);
    Value *Bin = !Lanes && AtFirst && !OutOfLine && roomForBinTags()
                     ? binOf(B, Ptr, A)
                     : nullptr;
    Ptr = Bin ? sharedPointer(B, Ptr) : genericPointer(B, Ptr);
    SmallVector<Value *, 14> Args{Ptr, B.getInt32(A.Size)};
    if (Lanes)
      Args.push_back(B.getInt32(uint32_t(*G.LaneStride)));
    Value *Width = Lanes || G.TryRows ? rowWidth() : B.getInt32(0);
    if (Lanes && G.laneTested()) {
      Value *Agree = AgreeOf.lookup(&G); // tested above it already
      Width = B.CreateSelect(Agree ? Agree : lanesAgree(B, G), Width,
                             B.getInt32(0), "pasta.div.width");
    }
    // The general helper does not test an alignment the IR states for the
    // address measured (not a uniform loop's first iteration's, computed
    // in its preheader).
    bool Aligned = !Lanes && AtFirst && alignedToSize(A);
    uint32_t Hint = A.Space | (Aligned ? PASTA_DIV_ALIGNED : 0u);
    Args.append({B.getInt32(Hint), B.getInt32(A.Sectored), Width});
    if (OutOfLine) {
      // The figures land in an array of the copy's; the measured ones go
      // on to their registers.
      if (!OutArray) {
        IRBuilder<> EB(&*Copy.getEntryBlock().getFirstInsertionPt());
        OutArray = EB.CreateAlloca(
            ArrayType::get(EB.getInt32Ty(), PASTA_DIV_BANK_CONFLICTS + 1),
            Copy.getParent()->getDataLayout().getAllocaAddrSpace(), nullptr,
            "pasta.div.out");
      }
      Args.push_back(OutArray);
      Value *Added = B.CreateCall(Lanes ? H.AccessLanesOut : H.AccessOut, Args);
      for (unsigned Fig = PASTA_DIV_REQUESTS_GLOBAL;
           Fig <= PASTA_DIV_BANK_CONFLICTS; ++Fig) {
        if (!accessMeasures(A, Fig))
          continue;
        AllocaInst *R = Out(Fig);
        Value *V = B.CreateLoad(
            B.getInt32Ty(),
            B.CreateConstInBoundsGEP2_32(OutArray->getAllocatedType(), OutArray,
                                         0, Fig - PASTA_DIV_REQUESTS_GLOBAL));
        // 32 bits, as the inline helper adds (also to a wide register).
        B.CreateStore(B.CreateAdd(B.CreateLoad(B.getInt32Ty(), R), V), R);
      }
      ++NumOutOfLineAccesses;
      return Added;
    }
    if (Bin) // its byte in the warp's 256 of the runtime's tags
      Args.push_back(B.CreateAdd(binsWarp(), Bin, "pasta.div.bin.slot"));
    for (unsigned Fig = PASTA_DIV_REQUESTS_GLOBAL;
         Fig <= PASTA_DIV_BANK_CONFLICTS; ++Fig)
      Args.push_back(accessMeasures(A, Fig) ? Out(Fig) : discard());
    CallInst *Call = B.CreateCall(Lanes ? H.AccessLanes
                                  : Bin ? H.AccessBins
                                        : H.Access,
                                  Args);
    // Not behind a clamp: where its lanes do not all take the clamp's side
    // the call must keep its general path (width 0).
    if (G.FullRow && !G.laneTested())
      FullRowCalls.push_back(Call);
    if (Lanes)
      LanesCalls.push_back(Call);
    if (Lanes && G.Repeat)
      RepeatCalls.push_back(Call);
    return Call;
  }

  // Ptr as the helpers' generic pointer.
  static Value *genericPointer(IRBuilder<> &B, Value *Ptr) {
    if (Ptr->getType()->getPointerAddressSpace() == 0)
      return Ptr;
    return B.CreateAddrSpaceCast(Ptr, B.getPtrTy());
  }

  // Ptr, the address of a shared access, as a shared-memory pointer (the
  // bins helper's: __pasta_div_access_bins makes it generic only on its
  // general path, so a full warp forms no generic address). A GEP on a
  // shared array made generic (clang's `addrspacecast (@bins to ptr)`) is
  // indexed again on the array itself: a cast of the generic GEP back would
  // still form the generic address first.
  static Value *sharedPointer(IRBuilder<> &B, Value *Ptr) {
    if (Ptr->getType()->getPointerAddressSpace() == PASTA_DIV_SHARED)
      return Ptr;
    auto *GEP = dyn_cast<GEPOperator>(Ptr);
    Value *Base = GEP ? GEP->getPointerOperand()->stripPointerCasts() : nullptr;
    if (!Base || Base->getType()->getPointerAddressSpace() != PASTA_DIV_SHARED)
      return B.CreateAddrSpaceCast(Ptr, B.getPtrTy(PASTA_DIV_SHARED));
    SmallVector<Value *, 4> Indices(GEP->indices());
    return B.CreateGEP(GEP->getSourceElementType(), Base, Indices,
                       "pasta.div.bin.ptr", GEP->getNoWrapFlags());
  }

  // The bin of a shared atomic A at Ptr = C + A.Size * zext(X), C a
  // constant (a shared array: the same in every lane) and X of at most 8
  // bits (a histogram's byte), as an i32 (__pasta_div_access_bins counts
  // its distinct addresses as its distinct bins); null for any other
  // access or address.
  static Value *binOf(IRBuilder<> &B, Value *Ptr,
                      const DivergencePlan::Access &A) {
    using namespace PatternMatch;
    if (A.Space != PASTA_DIV_SHARED || A.Sectored ||
        !isa<AtomicRMWInst, AtomicCmpXchgInst>(A.I))
      return nullptr;
    auto *GEP = dyn_cast<GEPOperator>(Ptr);
    if (!GEP || !isa<Constant>(GEP->getPointerOperand()) ||
        GEP->getNumIndices() == 0)
      return nullptr;
    const DataLayout &DL = A.I->getModule()->getDataLayout();
    if (DL.getTypeAllocSize(GEP->getResultElementType()) != A.Size)
      return nullptr;
    auto Last = std::prev(GEP->idx_end());
    for (auto It = GEP->idx_begin(); It != Last; ++It)
      if (!match(It->get(), m_Zero()))
        return nullptr;
    Value *X;
    if (!match(Last->get(), m_ZExt(m_Value(X))) ||
        X->getType()->getScalarSizeInBits() > 8)
      return nullptr;
    return B.CreateZExt(X, B.getInt32Ty(), "pasta.div.bin");
  }

  // Whether the IR states that A's address is a multiple of its size, a
  // power of 2 up to 32 (the alignment of its instruction: a joined vector
  // access's is its first element's).
  static bool alignedToSize(const DivergencePlan::Access &A) {
    if (A.Size == 0 || A.Size > 32 || !isPowerOf2_32(A.Size))
      return false;
    std::optional<Align> Al;
    if (auto *L = dyn_cast<LoadInst>(A.I))
      Al = L->getAlign();
    else if (auto *St = dyn_cast<StoreInst>(A.I))
      Al = St->getAlign();
    else if (auto *RMW = dyn_cast<AtomicRMWInst>(A.I))
      Al = RMW->getAlign();
    else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(A.I))
      Al = CX->getAlign();
    return Al && Al->value() >= A.Size;
  }

  // Whether the active lanes agree on each condition (an i1): then an
  // address selecting between values of one lane stride has that stride;
  // else the helper, given row width 0, takes its general path and takes
  // back what the pass derived.
  Value *lanesAgree(IRBuilder<> &B, const AccessGroup &G) {
    Value *All = nullptr;
    auto Both = [&](FunctionCallee Test, Value *C) {
      Value *Holds = B.CreateICmpNE(
          B.CreateCall(Test, {B.CreateZExt(C, B.getInt32Ty())}), B.getInt32(0));
      All = All ? B.CreateAnd(All, Holds) : Holds;
    };
    for (Value *C : G.LaneConds)
      if (Value *AtEntry = G.InLoop ? agreeAtEntry(C) : nullptr)
        All = All ? B.CreateAnd(All, AtEntry) : AtEntry;
      else
        Both(H.Uniform, C);
    // A clamp: every lane on its lane-affine side (all on the bound would
    // agree too, at one address).
    for (const UniformLoops::LaneArm &Arm : G.LaneArms)
      Both(H.AllLanes, Arm.condition(B));
    return All;
  }

  // Whether every thread of the warp agrees on C, voted once at a kernel
  // copy's entry, where all of them are active, when C is what each thread
  // computes from values it holds for the whole launch (recomputedAtEntry:
  // pathfinder's x > 0 with x from its indices); else null. Threads that all
  // agree agree in any lanes later, so the vote stands for every execution
  // of the select: in a loop, one vote in place of one per iteration
  // (pathfinder's: two per iteration). A warp whose threads do not all
  // agree (a tile's edge) gives its helper row width 0, whose general path
  // is exact for any addresses.
  Value *agreeAtEntry(Value *C) {
    if (!isKernel(Copy) || !EntryVotes)
      return nullptr;
    auto [It, New] = EntryAgree.try_emplace(C, nullptr);
    if (!New)
      return It->second;
    unsigned Budget = MaxRecomputed;
    Value *Again = recomputedAtEntry(C, EntryBody, EntryCopies, Budget);
    if (!Again)
      return nullptr;
    IRBuilder<> B(EntryBody);
    // Frozen: a thread that never reaches the select may compute poison
    // here (an nsw overflow its path rules out); it votes some fixed value.
    Value *Vote = B.CreateCall(
        H.Uniform, {B.CreateZExt(B.CreateFreeze(Again), B.getInt32Ty())});
    return It->second =
               B.CreateICmpNE(Vote, B.getInt32(0), "pasta.div.agree.entry");
  }

  // Whether the copy may hold the runtime's bin tags (32 x 256 bytes of
  // static shared memory): the module's shared variables are all defined
  // (none sized by the launch: dynamic shared memory, to which the tags
  // would add unseen) and, with the tags, within the 48 KB of static
  // shared memory ptxas allows a kernel.
  bool roomForBinTags() {
    if (!BinTagsFit) {
      const Module &M = *Copy.getParent();
      const DataLayout &DL = M.getDataLayout();
      uint64_t Bytes = 32 * 256;
      bool Fit = true;
      for (const GlobalVariable &GV : M.globals())
        if (GV.getAddressSpace() == PASTA_DIV_SHARED &&
            GV.getName() != "pasta_div_bin_tags") {
          Fit &= !GV.isDeclaration();
          Bytes += DL.getTypeAllocSize(GV.getValueType());
        }
      BinTagsFit = Fit && Bytes <= 48 * 1024;
    }
    return *BinTagsFit;
  }

  // The first of the warp's 256 bytes in the runtime's bin tags
  // (__pasta_div_bins_warp), computed at the entry: in a loop the thread
  // index reads and arithmetic would run at every measurement.
  Value *binsWarp() {
    if (!BinsWarp) {
      IRBuilder<> B(EntryBody);
      BinsWarp = B.CreateCall(H.BinsWarp, {}, "pasta.div.bins.warp");
    }
    return BinsWarp;
  }

  // The width of this call's rows of lanes (__pasta_div_row_width), read
  // at the entry.
  Value *rowWidth() {
    if (!RowWidth) {
      IRBuilder<> B(EntryBody);
      RowWidth = B.CreateCall(H.RowWidth, {});
    }
    return RowWidth;
  }

  // What the rows of G's accesses say of how their figures were found
  // (pasta_div_row's proven and measured bits): the figures a measurement
  // would produce, derived from a proof (Proven, RowsProven) or measured.
  // A RowsProven group behind a lane select counts as measured: warps of
  // 32-lane rows measure it too, where their lanes do not agree. Requests
  // and requested bytes of a known space come from the block's counters:
  // neither.
  void markProvenance(const AccessGroup &G) {
    bool Proof = G.Proven || (G.RowsProven && !G.laneTested());
    for (const AccessSite *S : G.Members) {
      pasta_div_row &R = T.DivRows[S->A->Row];
      for (unsigned Fig = PASTA_DIV_REQUESTS_GLOBAL;
           Fig <= PASTA_DIV_BANK_CONFLICTS; ++Fig)
        if (accessMeasures(*S->A, Fig))
          (Proof ? R.proven : R.measured) |= 1u << Fig;
    }
  }

  // The width W of rows of lanes stacked in y (__pasta_div_stacked_width)
  // for which an address moving S bytes per x and P per y moves S per lane
  // (P = W * S, W a power of 2 below 32); 0 when there is none.
  static uint32_t stackedWidth(int64_t S, std::optional<int64_t> P) {
    if (!P || S == 0 || *P % S != 0)
      return 0;
    int64_t W = *P / S;
    return W > 0 && W < 32 && isPowerOf2_64(uint64_t(W)) ? uint32_t(W) : 0;
  }

  // Whether a group proven in one 32-lane row, or in rows of Stacked lanes
  // stacked in y (0: none), is measured in this call: when the call's warps
  // are neither (an i1 computed at the entry, once per width).
  Value *measuredIn(uint32_t Stacked) {
    IRBuilder<> B(EntryBody);
    if (!MeasuredIn[0])
      MeasuredIn[0] =
          B.CreateICmpNE(stackedW(), B.getInt32(32), "pasta.div.not32");
    Value *&M = MeasuredIn[Stacked];
    if (!M)
      M = B.CreateAnd(MeasuredIn[0],
                      B.CreateICmpNE(StackedW, B.getInt32(Stacked)),
                      "pasta.div.unstacked" + Twine(Stacked));
    return M;
  }

  // __pasta_div_stacked_width(), called once at the entry.
  Value *stackedW() {
    if (!StackedW) {
      IRBuilder<> B(EntryBody);
      StackedW = B.CreateCall(H.StackedWidth, {});
    }
    return StackedW;
  }

  static SmallVector<const Instruction *, 4>
  instructionsOf(const AccessGroup &G) {
    SmallVector<const Instruction *, 4> Is;
    for (const AccessSite *S : G.Members)
      Is.push_back(S->I);
    return Is;
  }

  // Whether accesses like A at Stride bytes per thread index x, each at the
  // alignment of its instruction in Is, are in pasta_div_full_row_form.
  static bool fullRowForm(const DivergencePlan::Access &A, int64_t Stride,
                          ArrayRef<const Instruction *> Is) {
    bool Aligned = all_of(Is, [&](const Instruction *I) {
      return isa<LoadInst, StoreInst>(I) &&
             getLoadStoreAlignment(I).value() >= A.Size;
    });
    return pasta_div_full_row_form(A.Size, Stride, A.Space, A.Sectored,
                                   Aligned);
  }

  // Whether the warp running the segment Warps of the function's block BB
  // is full and one row of 32 lanes (__pasta_div_full_row), or, for a group
  // whose address moves Stacked times its lane stride per thread index y
  // (0: none), Stacked-wide rows stacked in y (one run of 32 lanes too:
  // LaneAffine.h); computed at its first FullRow group, At (the later ones
  // lie below it: splitting a block keeps its tail dominated).
  Value *fullRow(const BasicBlock *BB, uint32_t Warps, uint32_t Stacked,
                 Instruction *At) {
    Value *&Full = FullRowOf[{BB, Warps, Stacked}];
    if (!Full) {
      IRBuilder<> B(At);
      Full = B.CreateICmpNE(B.CreateCall(H.FullRow, {fullRowWidth(Stacked)}),
                            B.getInt32(0), "pasta.div.fullrow");
    }
    return Full;
  }

  // The width __pasta_div_full_row takes for a group of stacked width
  // Stacked: the row width, or 32 where the call's warps hold Stacked-wide
  // rows stacked in y (__pasta_div_stacked_width), computed at the entry.
  Value *fullRowWidth(uint32_t Stacked) {
    if (!Stacked)
      return rowWidth();
    Value *&W = FullRowWidth[Stacked];
    if (!W) {
      measuredIn(0); // __pasta_div_stacked_width at the entry
      IRBuilder<> B(EntryBody);
      W = B.CreateSelect(B.CreateICmpEQ(StackedW, B.getInt32(Stacked)),
                         B.getInt32(32), rowWidth(),
                         "pasta.div.rows" + Twine(Stacked));
    }
    return W;
  }

  // AccessGroup::RepeatWidth of a FullRow group G whose y term is
  // RowStride: none (0) unless the term is known to be 0 in a copy that
  // reads thread index y (a kernel for 2-D blocks: a 1-D kernel's warps
  // never hold stacked rows, and would pay the test for nothing).
  uint32_t repeatWidth(const AccessGroup &G, std::optional<int64_t> RowStride) {
    const DivergencePlan::Access &A = *G.Members.front()->A;
    pasta_div_repeat_figures R;
    if (!RepeatRows || !RowStride || *RowStride != 0 || !readsThreadY() ||
        !pasta_div_repeat_rows(A.Size, *G.LaneStride, GapWidth, &R))
      return 0;
    return GapWidth;
  }

  // Whether lane-shaped group G, behind clamps only (no lane select), may be
  // a FullRow group: measured as one where every lane takes each clamp's
  // lane-affine side (lanesAgree; then the address is lane-affine, as any
  // FullRow group's), by the helper elsewhere.
  bool fullRowClamp(const AccessGroup &G) const {
    return FullRowClamps && G.LaneConds.empty() && !G.LaneArms.empty();
  }

  // AccessGroup::ApartStepExpr of group G: its y step where known as an
  // expression of an NVPTX kernel's arguments (the same in every warp of a
  // launch) and G has an ApartWidth; null otherwise.
  const SCEV *apartStepExpr(AccessGroup &G) {
    if (!G.ApartWidth || !KnownApartSteps || !isKernel(Copy))
      return nullptr;
    const AccessSite &Rep = *G.Members.front();
    if (const SCEV *Step = Loops.rowStep(Rep.Ptr, *Rep.I->getParent()))
      return Step;
    return YClampSteps && !G.laneTested() ? yClampStep(G) : nullptr;
  }

  // apartStepExpr through one clamp of y (a min or max, or a saturating
  // subtraction, one operand of which reads thread index y): the step of
  // a copy of the address with the clamp replaced by that operand, where
  // known; G.YClampArm then tests that the clamp's value is the operand's.
  // Where every lane's test holds, every lane's address is the copy's, so
  // lane 16's is lane 0's plus the step, as for an unclamped address. The
  // copy is never used (dead code): it only gives scalar evolution the
  // unclamped form.
  const SCEV *yClampStep(AccessGroup &G) {
    const AccessSite &Rep = *G.Members.front();
    auto *Ptr = dyn_cast<Instruction>(Rep.Ptr);
    SmallVector<Instruction *, 8> Chain; // Ptr's operands down to the clamp
    IntrinsicInst *Clamp = Ptr ? findYClamp(Ptr, Chain) : nullptr;
    if (!Clamp)
      return nullptr;

    IRBuilder<> B(Rep.I);
    Value *Moving = movingOperand(Clamp, B);
    if (!Moving)
      return nullptr;
    // The chain from the clamp up to Ptr, copied with Moving for it.
    ValueToValueMapTy Map;
    Map[Clamp] = Moving;
    Instruction *Copied = nullptr;
    for (Instruction *I : reverse(Chain)) {
      Copied = I->clone();
      Copied->insertBefore(Rep.I->getIterator());
      RemapInstruction(Copied, Map,
                       RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
      Map[I] = Copied;
    }
    const SCEV *Step = Loops.rowStep(Copied, *Rep.I->getParent());
    if (Step)
      G.YClampArm = B.CreateICmpEQ(Clamp, Moving, "pasta.div.yclamp.arm");
    return Step;
  }

  // Address arithmetic that may be copied with an unclamped operand:
  // never a division or remainder (a copy of one could divide by zero).
  static bool isAddressArithmetic(const Instruction &I) {
    if (isa<GetElementPtrInst, CastInst>(I))
      return true;
    switch (I.getOpcode()) {
    case Instruction::Add:
    case Instruction::Sub:
    case Instruction::Mul:
    case Instruction::Shl:
    case Instruction::Or:
      return true;
    default:
      return false;
    }
  }

  // The one clamp of thread index y among Ptr's operands (through
  // address arithmetic only: casts, adds, subs, multiplies, shifts and
  // address computations), with the instructions from Ptr down to it
  // (Ptr first); null where there is none or more than one.
  static IntrinsicInst *findYClamp(Instruction *Ptr,
                                   SmallVectorImpl<Instruction *> &Chain) {
    Instruction *I = Ptr;
    while (true) {
      Chain.push_back(I);
      if (!isAddressArithmetic(*I) || Chain.size() > 8)
        return nullptr;
      Instruction *Next = nullptr;
      for (Value *Op : I->operands()) {
        if (!readsThreadY(Op, /*Depth=*/8))
          continue;
        if (Next)
          return nullptr; // y on two sides: not one chain
        Next = dyn_cast<Instruction>(Op);
      }
      if (!Next)
        return nullptr;
      if (auto *II = dyn_cast<IntrinsicInst>(Next)) {
        switch (II->getIntrinsicID()) {
        case Intrinsic::smax:
        case Intrinsic::smin:
        case Intrinsic::umax:
        case Intrinsic::umin:
        case Intrinsic::usub_sat:
          return II;
        default:
          return nullptr;
        }
      }
      I = Next;
    }
  }

  // The value Clamp takes on its moving side: the operand that reads y
  // (the other must not), or for usub.sat(a, b) with a reading y, a - b.
  static Value *movingOperand(IntrinsicInst *Clamp, IRBuilder<> &B) {
    Value *A = Clamp->getArgOperand(0), *C = Clamp->getArgOperand(1);
    bool AY = readsThreadY(A, 8), CY = readsThreadY(C, 8);
    if (AY == CY)
      return nullptr;
    if (Clamp->getIntrinsicID() == Intrinsic::usub_sat)
      return AY ? B.CreateSub(A, C, "pasta.div.yclamp.moving") : nullptr;
    return AY ? A : C;
  }

  static bool readsThreadY(const Value *V, unsigned Depth) {
    const auto *I = dyn_cast<Instruction>(V);
    if (!I || !Depth)
      return false;
    if (const auto *II = dyn_cast<IntrinsicInst>(I))
      if (II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_tid_y)
        return true;
    return any_of(I->operands(), [&](const Use &Op) {
      return readsThreadY(Op.get(), Depth - 1);
    });
  }

  // Whether the two rows of a full warp of group G's ApartWidth-wide rows
  // stacked in y (addApartRows) start a multiple of 32 bytes apart and at
  // least MinGap: |the y step| tested once at the entry, where the step is
  // known there (AccessGroup::ApartStepExpr): lane 16 holds lane 0's x and
  // y one more, so its address is lane 0's plus the step. Null otherwise.
  Value *knownApart(const AccessGroup &G, uint32_t MinGap) {
    if (!G.ApartStepExpr)
      return nullptr;
    Value *&Known = KnownApartOf[{G.ApartStepExpr, MinGap}];
    if (Known)
      return Known;
    Value *&Gap = KnownGapOf[G.ApartStepExpr];
    IRBuilder<> E(EntryBody);
    if (!Gap) {
      Value *Step = Loops.expandRowStep(G.ApartStepExpr, EntryBody);
      if (!Step)
        return nullptr;
      Gap = E.CreateBinaryIntrinsic(Intrinsic::abs, Step, E.getFalse(), nullptr,
                                    "pasta.div.stepgap");
    }
    Value *Whole =
        E.CreateICmpEQ(E.CreateAnd(Gap, E.getInt64(31)), E.getInt64(0));
    Value *Far = E.CreateICmpUGE(Gap, E.getInt64(MinGap));
    return Known = E.CreateAnd(Whole, Far, "pasta.div.stepapart");
  }

  // AccessGroup::ApartWidth of a FullRow or RowsProven group G whose y term
  // is RowStride: a known or unknown term other than 0, in a copy that
  // reads y, of a global load or store of pasta_div_apart_rows' classes.
  uint32_t apartWidth(const AccessGroup &G, std::optional<int64_t> RowStride) {
    const DivergencePlan::Access &A = *G.Members.front()->A;
    pasta_div_repeat_figures R;
    uint32_t MinGap = 0;
    if (!ApartRows || T.Target != PASTA_TARGET_NVPTX ||
        (RowStride && *RowStride == 0) || A.Space != PASTA_DIV_GLOBAL ||
        !A.Sectored || !readsThreadY() ||
        !pasta_div_apart_rows(A.Size, *G.LaneStride, GapWidth, &R, &MinGap))
      return 0;
    return GapWidth;
  }

  // Whether RowsProven group G, measured only where the warp is not one row
  // of 32 lanes or its lanes disagree on its lane test, is measured so
  // rarely that in a loop its figures go straight to the counters instead
  // of to registers held across the loop (pathfinder's five shared accesses
  // held ten of its copy's 64, which spilled): in an NVPTX kernel's copy
  // that never reads thread index y, launched (as such kernels are) with
  // blocks of one dimension, every warp is one row of 32
  // (__pasta_div_row_width), and lanes voted once at the entry disagree
  // only at a grid's edges. Not in a device function's copy: its callers
  // may be 2-D kernels. Called after lanesAgree (its entry votes are made).
  bool rarelyMeasured(const AccessGroup &G) {
    if (!RareDirect || T.Target != PASTA_TARGET_NVPTX || !isKernel(Copy) ||
        readsThreadY() || !G.LaneArms.empty() || G.GapConflicts >= 0 ||
        G.ApartWidth)
      return false;
    if (!all_of(G.LaneConds,
                [&](Value *C) { return agreeAtEntry(C) != nullptr; }))
      return false;
    // The values that decide, per warp, whether it measures G: the copy's
    // common body takes them as their usual values (addRareApart).
    markRare(MeasuredIn[0], false);
    for (Value *C : G.LaneConds)
      markRare(agreeAtEntry(C), true);
    return true;
  }

  // RareMD on I, whose value the common body may take as Common.
  void markRare(Value *V, bool Common) {
    auto *I = cast<Instruction>(V);
    I->setMetadata(RareMD,
                   MDNode::get(Copy.getContext(),
                               ConstantAsMetadata::get(ConstantInt::getBool(
                                   Copy.getContext(), Common))));
    RareMarked.push_back(I);
  }

  // The common body (addRareApart) drops every group proven in rows of 32
  // (not32 false there), for the price of compiling the copy twice: worth
  // it where those are at least half the copy's measured groups
  // (pathfinder 8 of 11), not for a few (nw_tile, lud_perimeter: 64% and
  // 102% more compile time for 3 of 16 and 1 of 27 helper calls).
  void keepRareMarksIfWorth() {
    auto Measured = count_if(Groups, [](auto &G) { return !G.Proven; });
    auto Rows = count_if(Groups, [](auto &G) { return G.RowsProven; });
    if (2 * Rows >= Measured)
      return;
    for (Instruction *I : RareMarked)
      I->setMetadata(RareMD, nullptr);
  }

  // Whether the copy reads thread index y (NVPTX), asked once.
  bool readsThreadY() {
    if (!ThreadY)
      ThreadY = any_of(instructions(Copy), [](const Instruction &I) {
        auto *II = dyn_cast<IntrinsicInst>(&I);
        return II &&
               II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_tid_y;
      });
    return *ThreadY;
  }

  // Whether the warp running the segment Warps of block BB is full and
  // holds Width-wide rows stacked in y (__pasta_div_full_row of 32 where
  // __pasta_div_stacked_width is Width, else of 0); made at At, above the
  // first split that uses it, as fullRow's.
  Value *repeatRow(const BasicBlock *BB, uint32_t Warps, uint32_t Width,
                   Instruction *At) {
    Value *&Full = RepeatRowOf[{BB, Warps, Width}];
    if (!Full)
      Full = stackedFull(Width, At);
    return Full;
  }

  // repeatRow's test made at At, not cached.
  Value *stackedFull(uint32_t Width, Instruction *At) {
    Value *&W = RepeatRowWidth[Width];
    if (!W) {
      IRBuilder<> E(EntryBody);
      W = E.CreateSelect(E.CreateICmpEQ(stackedW(), E.getInt32(Width)),
                         E.getInt32(32), E.getInt32(0),
                         "pasta.div.repeat" + Twine(Width));
    }
    IRBuilder<> B(At);
    return B.CreateICmpNE(B.CreateCall(H.FullRow, {W}), B.getInt32(0),
                          "pasta.div.fullrepeat");
  }

  // A group whose full warps of rows stacked in y add, beyond the derived
  // figures, constants of their lane 0's offset in its sector, which
  // read-back derives per launch class instead (planLaunchFigures).
  struct LaunchFigures {
    const DivergencePlan::LaunchClass *Class = nullptr;
    uint32_t Width = 0; // the stacked width of its full warps
    // Distinct bytes, sectors and ideal sectors beyond the derived ones,
    // lane 0's address at an offset below From; from there Past sectors
    // more.
    std::array<int32_t, 3> Extra{};
    uint32_t From = 32;
    int32_t Past = 0;
    // The launch's part of the full warps' test beyond the stacked width
    // (knownApart), or null.
    Value *Cond = nullptr;
    // Its bit in the launch class (the grid's first thread's offset at
    // least From), or -1: none, the class's figures take offsets below From.
    int Bit = -1;
    // Whether its full warps' lane 0 is at the grid's first thread's offset
    // in every launch of a class (uniformOffset): they add nothing there.
    bool SameOffset = false;
    // At the entry: whether the launch is of a class; the addresses and
    // offsets of the class's bits (launchClass builds the class from them
    // where a rare path needs it).
    Value *InClass = nullptr;
    const SmallVector<std::pair<Value *, uint32_t>, 2> *Bits = nullptr;
  };
  // The figures LaunchFigures derives, in their order.
  static constexpr std::array<unsigned, 3> LaunchFigureIds = {
      PASTA_DIV_DISTINCT_GLOBAL, PASTA_DIV_SECTORS, PASTA_DIV_IDEAL_SECTORS};

  // The launch class of warp counter Warps, if the plan gave it one.
  const DivergencePlan::LaunchClass *launchClassOf(uint32_t Warps) const {
    for (const DivergencePlan::LaunchClass &C : LaunchClasses)
      if (C.Warps == Warps)
        return &C;
    return nullptr;
  }

  // G's LaunchFigures, where its full warps of rows stacked in y add from
  // lane 0 what addRepeatRows or addApartRows add (constants, and sectors
  // by lane 0's offset): a group of a kernel copy outside loops, measured
  // at each execution, without lane tests or twins, whose block's warps
  // have a launch class (DivergencePlan::LaunchClass), and of addApartRows'
  // groups those whose gap is tested at the entry (knownApart) or whose
  // known step of at least 32 bytes puts the rows' elements in two sectors.
  std::optional<LaunchFigures> launchFigures(const AccessGroup &G) {
    const AccessSite &Rep = *G.Members.front();
    const DivergencePlan::Access &A = *Rep.A;
    if ((!G.RepeatWidth && !G.ApartWidth) || G.Proven || G.Repeat || G.InLoop ||
        G.laneTested() || G.YClampArm || !G.Twins.empty() || G.TwinOf ||
        (G.RowsProven && G.StackedWidth) || OutOfLine || !isKernel(Copy) ||
        A.Space != PASTA_DIV_GLOBAL || !A.Sectored)
      return std::nullopt;
    LaunchFigures L;
    L.Class = launchClassOf(A.Warps);
    if (!L.Class)
      return std::nullopt;
    pasta_div_repeat_figures R;
    if (G.RepeatWidth) {
      pasta_div_repeat_rows(A.Size, *G.LaneStride, G.RepeatWidth, &R);
      L.Width = G.RepeatWidth;
      L.Extra = {R.distinct, R.sectors, R.ideal_sectors};
      if (R.from_offset < 32) {
        L.From = R.from_offset;
        L.Past = 1;
      }
      return L;
    }
    L.Width = G.ApartWidth;
    if (std::optional<int64_t> Step = stepRowsStep(G)) {
      if (*Step > -32 && *Step < 32) // the two elements may share a sector
        return std::nullopt;
      int32_t Size = int32_t(A.Size);
      L.Extra = {Size, 1, (2 * Size + 31) / 32 - (Size + 31) / 32};
      return L;
    }
    uint32_t MinGap = 0;
    pasta_div_apart_rows(A.Size, *G.LaneStride, G.ApartWidth, &R, &MinGap);
    L.Cond = knownApart(G, MinGap);
    if (!L.Cond)
      return std::nullopt;
    L.Extra = {R.distinct, R.sectors, R.ideal_sectors};
    if (R.from_offset < 32 && R.past) {
      L.From = R.from_offset;
      L.Past = R.past;
    }
    return L;
  }

  // Figure F (of LaunchFigureIds) of a full warp of L's group in launch
  // class K, beyond the derived figures.
  static int32_t classFigure(const LaunchFigures &L, unsigned F, uint32_t K) {
    int32_t Off = L.Bit >= 0 ? int32_t((K >> L.Bit) & 1) : 0;
    return L.Extra[F] +
           (LaunchFigureIds[F] == PASTA_DIV_SECTORS ? L.Past * Off : 0);
  }

  // Launch-derived figures. What a full warp of RepeatWidth- or
  // ApartWidth-wide rows stacked in y adds from lane 0 beyond the derived
  // figures (addRepeatRows, addApartRows: gaussian's fan2 -64 distinct
  // bytes, -2 sectors and ideal sectors for a[t * n + j], 4 bytes and a
  // sector for m[i * n + t]) is a constant of the access's form, but for
  // `Past` sectors more where lane 0's offset in its sector is at least
  // `From`. Where the group's block has a launch class (its warps are the
  // launch's less a derived body's no-lane executions), the copy tells at
  // its entry whether the launch is of a class (every group's full-warp
  // test is then its warp's being full: the stacked width and the known
  // gaps are the launch's) and which (for up to two such offsets, whether
  // the grid's first thread's address is at least `From` into its sector),
  // values of the launch alone, the same in every warp. In such a launch
  // the grid's first thread adds its warps to the class's counter and the
  // derived body's branch adds its no-lane executions to the class's, so
  // their difference is the block's warp executions in such launches, and
  // read-back adds each group's class figures times that
  // (deriveLaunchFigures); the warps that are not full there subtract them
  // (subtractLaunchFigures), and a full warp adds only the sectors by which
  // its own offset differs from the class's (none in gaussian's fan2, whose
  // rows start where the grid's first row does, mod 32). Every full warp's
  // figures are then what addRepeatRows' or addApartRows' adds give, each
  // other warp's what its measurement gives, exactly.
  void planLaunchFigures() {
    if (LaunchClasses.empty())
      return;
    MapVector<const DivergencePlan::LaunchClass *,
              SmallVector<const AccessGroup *, 4>>
        ByClass;
    for (const AccessGroup &G : Groups)
      if (std::optional<LaunchFigures> L = launchFigures(G)) {
        ByClass[L->Class].push_back(&G);
        LaunchOf[&G] = *L;
      }
    for (auto &[Class, Members] : ByClass)
      launchClassAtEntry(*Class, Members);
  }

  // The launch class of Members at the entry, its counters' adds and its
  // figures' rows (planLaunchFigures).
  void launchClassAtEntry(const DivergencePlan::LaunchClass &Class,
                          ArrayRef<const AccessGroup *> Members) {
    IRBuilder<> E(EntryBody);
    Value *InClass = nullptr;
    auto &Bits = ClassBits[&Class]; // address, From
    for (const AccessGroup *G : Members) {
      LaunchFigures &L = LaunchOf[G];
      Value *Cond = E.CreateICmpEQ(stackedW(), E.getInt32(L.Width));
      if (L.Cond)
        Cond = E.CreateAnd(Cond, L.Cond);
      InClass = InClass ? E.CreateAnd(InClass, Cond) : Cond;
      if (!L.Past)
        continue;
      Value *Ptr = G->Members.front()->Ptr;
      auto *Same = find(Bits, std::make_pair(Ptr, L.From));
      if (Same != Bits.end()) {
        L.Bit = int(Same - Bits.begin());
        continue;
      }
      if (1u << (Bits.size() + 1) > DivergencePlan::NumLaunchClasses)
        continue;
      // Buildable from the launch's values? (Tried at the entry, then
      // dropped: launchClass builds it where it is used.)
      DenseMap<Value *, Value *> Done;
      unsigned Budget = MaxLaneZero;
      Value *Low = laneZeroLow(Ptr, E, Done, Budget, /*AtGridStart=*/true);
      if (!Low)
        continue;
      RecursivelyDeleteTriviallyDeadInstructions(Low);
      L.Bit = int(Bits.size());
      Bits.push_back({Ptr, L.From});
    }
    InClass->setName("pasta.div.launch.class.in");
    // The grid's first thread adds the launch's warps to its class's
    // counter, where every warp runs once: at the derived body's branch, or
    // in the first group's block (the entry's counters); the class is
    // computed there only in block 0 of a launch of a class.
    CallInst *NoneCall =
        Class.None != PASTA_NONE ? NoneCalls.lookup(Class.None) : nullptr;
    assert((NoneCall || Class.None == PASTA_NONE) &&
           "a derived body's branch without its helper call");
    Instruction *At = NoneCall ? NoneCall : Members.front()->Members.front()->I;
    {
      IRBuilder<> B(At);
      Value *Block0 = B.CreateICmpEQ(
          B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_ctaid_x, {}),
          B.getInt32(0));
      Instruction *Then = SplitBlockAndInsertIfThen(
          B.CreateAnd(InClass, Block0), At->getIterator(),
          /*Unreachable=*/false);
      markInstrumentation(
          Then->getParent()->getSinglePredecessor()->getTerminator());
      IRBuilder<> F(Then);
      F.CreateCall(H.CountLaunchWarps,
                   {F.getInt32(1),
                    F.CreateGEP(F.getInt64Ty(), counter(F, Class.LaunchWarps),
                                launchClass(F, Bits))});
    }
    // The branch's no-lane executions in a launch of a class: its class's
    // too, from the lane that added to None.
    if (NoneCall) {
      Instruction *After = NoneCall->getNextNode();
      IRBuilder<> B(After);
      Value *Added = B.CreateICmpNE(NoneCall, B.getInt32(0));
      Instruction *Then = SplitBlockAndInsertIfThen(B.CreateAnd(InClass, Added),
                                                    After->getIterator(),
                                                    /*Unreachable=*/false);
      markInstrumentation(
          Then->getParent()->getSinglePredecessor()->getTerminator());
      IRBuilder<> F(Then);
      F.CreateCall(H.Add,
                   {F.CreateGEP(F.getInt64Ty(), counter(F, Class.NoneClasses),
                                launchClass(F, Bits)),
                    F.getInt64(1)});
    }
    for (const AccessGroup *G : Members) {
      LaunchFigures &L = LaunchOf[G];
      L.InClass = InClass;
      L.Bits = &Bits;
      L.SameOffset = !L.Past || (L.Bit >= 0 && uniformOffset(*G, L));
      deriveLaunchFigures(*G, L);
    }
  }

  // The launch class built at B from the grid's first thread's addresses
  // (Bits: each bit 1 where its address is at least its From into its
  // sector).
  static Value *launchClass(IRBuilder<> &B,
                            ArrayRef<std::pair<Value *, uint32_t>> Bits) {
    Value *K = B.getInt32(0);
    for (auto [I, Bit] : enumerate(Bits)) {
      DenseMap<Value *, Value *> Done;
      unsigned Budget = MaxLaneZero;
      Value *Low =
          laneZeroLow(Bit.first, B, Done, Budget, /*AtGridStart=*/true);
      Value *Off = B.CreateAnd(B.CreateTrunc(Low, B.getInt32Ty()), 31);
      Value *On = B.CreateZExt(B.CreateICmpUGE(Off, B.getInt32(Bit.second)),
                               B.getInt32Ty());
      K = B.CreateOr(K, B.CreateShl(On, unsigned(I)));
    }
    return K;
  }

  // Whether, in a launch of a class, every full warp's lane 0 of group G
  // has the grid's first thread's address mod 32: its address is a linear
  // form of the grid's indices whose block-index and thread-index-z terms
  // have coefficients that are multiples of 32 (gridTermZeros), lane 0
  // holds x = 0 (16-wide rows), and a y term is an apart group's, whose
  // gap, the y coefficient, the class tests a multiple of 32.
  static bool uniformOffset(const AccessGroup &G, const LaunchFigures &L) {
    return gridTermZeros(G.Members.front()->Ptr, /*IgnoreY=*/L.Cond != nullptr,
                         12) >= 5;
  }

  // The fewest trailing zero bits of the coefficients of V's terms in the
  // block indices, thread index z and (unless IgnoreY) y, V a linear form
  // of them through adds, multiplies by a value of none of them, shifts by
  // constants, extensions, truncations to 5 bits or more and address
  // arithmetic; thread index x counts as none (0 in lane 0 of 16-wide
  // rows). 64: no such term; -1: not such a form.
  static int gridTermZeros(Value *V, bool IgnoreY, unsigned Depth) {
    constexpr int None = 64;
    if (isa<Constant, Argument>(V))
      return None;
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !Depth)
      return -1;
    const DataLayout &DL = I->getDataLayout();
    auto Zeros = [&](Value *Op) {
      return int(computeKnownBits(Op, DL).countMinTrailingZeros());
    };
    auto Rec = [&](Value *Op) { return gridTermZeros(Op, IgnoreY, Depth - 1); };
    if (auto *II = dyn_cast<IntrinsicInst>(I)) {
      GridRead G = gridRead(II->getIntrinsicID());
      if (G.Index == GridIndex::BlockSize || G.Index == GridIndex::GridSize)
        return None;
      if (G.Index == GridIndex::Thread)
        return G.Dim == 0 || (G.Dim == 1 && IgnoreY) ? None : 0;
      return G.Index == GridIndex::Block ? 0 : -1;
    }
    if (auto *Cast = dyn_cast<CastInst>(I)) {
      if (Cast->getType()->isIntegerTy() &&
          Cast->getType()->getIntegerBitWidth() < 5)
        return -1;
      return Rec(Cast->getOperand(0));
    }
    if (auto *GEP = dyn_cast<GEPOperator>(I)) {
      unsigned Bits = DL.getIndexTypeSizeInBits(GEP->getType());
      SmallMapVector<Value *, APInt, 4> Vars;
      APInt Const(Bits, 0);
      if (!GEP->collectOffset(DL, Bits, Vars, Const))
        return -1;
      int Z = Rec(GEP->getPointerOperand());
      for (auto &[Index, Scale] : Vars) {
        int IZ = Rec(Index);
        if (Z < 0 || IZ < 0)
          return -1;
        if (IZ < None)
          Z = std::min(Z, IZ + int(Scale.countr_zero()));
      }
      return Z;
    }
    auto *BO = dyn_cast<BinaryOperator>(I);
    if (!BO)
      return -1;
    int A = Rec(BO->getOperand(0)), B = Rec(BO->getOperand(1));
    if (A < 0 || B < 0)
      return -1;
    switch (BO->getOpcode()) {
    case Instruction::Add:
    case Instruction::Sub:
      return std::min(A, B);
    case Instruction::Or:
      return cast<PossiblyDisjointInst>(BO)->isDisjoint() ? std::min(A, B) : -1;
    case Instruction::Mul:
      if (A < None && B < None)
        return -1; // a product of two grid terms
      return A < None   ? std::min(None, A + Zeros(BO->getOperand(1)))
             : B < None ? std::min(None, B + Zeros(BO->getOperand(0)))
                        : None;
    case Instruction::Shl: {
      const APInt *Amount;
      if (!PatternMatch::match(BO->getOperand(1),
                               PatternMatch::m_APInt(Amount)) ||
          !Amount->ult(64))
        return -1;
      return A < None ? std::min(None, A + int(Amount->getZExtValue())) : None;
    }
    default:
      return -1;
    }
  }

  // Read-back's rows for L's group G: its class figures times its block's
  // warp executions in launches of each class (the launch's warps less the
  // branch's no-lane executions).
  void deriveLaunchFigures(const AccessGroup &G, const LaunchFigures &L) {
    const DivergencePlan::LaunchClass &C = *L.Class;
    for (auto [Row, Times] : rowsOf(G))
      for (unsigned F = 0; F < LaunchFigureIds.size(); ++F)
        for (uint32_t K = 0; K < DivergencePlan::NumLaunchClasses; ++K) {
          int32_t Coeff = classFigure(L, F, K) * int32_t(Times);
          if (!Coeff)
            continue;
          derive(T, figure(Row, LaunchFigureIds[F]), C.LaunchWarps + K, Coeff);
          if (C.None != PASTA_NONE)
            derive(T, figure(Row, LaunchFigureIds[F]), C.NoneClasses + K,
                   -Coeff);
        }
  }

  // Before At, where G's warps that are not full (of its rows stacked in y)
  // measure it: in a launch of a class, the first active lane subtracts
  // what read-back adds for each of the launch's warps (deriveLaunchFigures).
  void subtractLaunchFigures(const AccessGroup &G, const LaunchFigures &L,
                             Instruction *At) {
    IRBuilder<> B(At);
    Value *Below = B.CreateAnd(
        B.CreateIntrinsic(Intrinsic::nvvm_activemask, {}),
        B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_lanemask_lt, {}));
    Value *First = B.CreateICmpEQ(Below, B.getInt32(0));
    Instruction *Then = SplitBlockAndInsertIfThen(B.CreateAnd(L.InClass, First),
                                                  At->getIterator(),
                                                  /*Unreachable=*/false);
    markInstrumentation(
        Then->getParent()->getSinglePredecessor()->getTerminator());
    IRBuilder<> F(Then);
    Value *Off =
        L.Bit >= 0
            ? F.CreateAnd(F.CreateLShr(launchClass(F, *L.Bits), L.Bit), 1)
            : F.getInt32(0);
    for (unsigned Fig = 0; Fig < LaunchFigureIds.size(); ++Fig) {
      Value *Extra = F.getInt64(L.Extra[Fig]);
      if (LaunchFigureIds[Fig] == PASTA_DIV_SECTORS && L.Past)
        Extra =
            F.CreateAdd(Extra, F.CreateMul(F.CreateZExt(Off, F.getInt64Ty()),
                                           F.getInt64(L.Past)));
      if (auto *C = dyn_cast<ConstantInt>(Extra); C && C->isZero())
        continue;
      for (auto [Row, Times] : rowsOf(G))
        addFigure(F, false, figure(Row, LaunchFigureIds[Fig]),
                  F.CreateNeg(times(F, Extra, Times)), 0);
    }
  }

  // In a full warp of L's group G (at At, lane 0 active) in a launch of a
  // class: the sectors its lane 0's offset (of Addr) gives beyond the
  // class's, from lane 0. Outside such launches, Else (the adds as they
  // were) runs instead. Returns where Else's code goes.
  Instruction *addLaunchOffset(const AccessGroup &G, const LaunchFigures &L,
                               Value *Addr, Instruction *At) {
    Instruction *ThenT, *ElseT;
    SplitBlockAndInsertIfThenElse(L.InClass, At->getIterator(), &ThenT, &ElseT);
    markInstrumentation(
        ThenT->getParent()->getSinglePredecessor()->getTerminator());
    if (L.SameOffset)
      return ElseT;
    IRBuilder<> F(ThenT);
    Value *Own = F.CreateZExt(
        F.CreateICmpUGE(F.CreateAnd(Addr, F.getInt64(31)), F.getInt64(L.From)),
        F.getInt64Ty());
    Value *Class =
        L.Bit >= 0
            ? F.CreateZExt(
                  F.CreateAnd(F.CreateLShr(launchClass(F, *L.Bits), L.Bit), 1),
                  F.getInt64Ty())
            : F.getInt64(0);
    Value *Diff = F.CreateMul(F.CreateSub(Own, Class), F.getInt64(L.Past));
    Value *Lane0 = laneIsZero(F);
    for (auto [Row, Times] : rowsOf(G))
      addFigure(F, false, figure(Row, PASTA_DIV_SECTORS),
                F.CreateSelect(Lane0, times(F, Diff, Times), F.getInt64(0)), 0);
    return ElseT;
  }

  // Before At, where FullRow group G with a RepeatWidth is measured in the
  // warps that are not one full 32-lane row: a full warp of RepeatWidth-wide
  // rows stacked in y (Repeat), whose rows are on the same bytes, adds from
  // lane 0 its figures beyond the derived ones (div_proofs.h,
  // pasta_div_repeat_rows; the sectors' from lane 0's address, the row's
  // base); other warps measure it. Returns where they do.
  Instruction *addRepeatRows(const AccessGroup &G, Value *Repeat,
                             Instruction *At) {
    const AccessSite &Rep = *G.Members.front();
    pasta_div_repeat_figures R;
    pasta_div_repeat_rows(Rep.A->Size, *G.LaneStride, G.RepeatWidth, &R);
    Instruction *RepeatT, *OtherT;
    SplitBlockAndInsertIfThenElse(Repeat, At->getIterator(), &RepeatT, &OtherT);
    markInstrumentation(
        RepeatT->getParent()->getSinglePredecessor()->getTerminator());
    if (auto It = LaunchOf.find(&G); It != LaunchOf.end()) {
      IRBuilder<> A(RepeatT);
      RepeatT = addLaunchOffset(
          G, It->second, A.CreatePtrToInt(Rep.Ptr, A.getInt64Ty()), RepeatT);
      subtractLaunchFigures(G, It->second, OtherT);
    }
    IRBuilder<> B(RepeatT);
    Value *Lane0 = B.CreateICmpEQ(
        B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid, {}),
        B.getInt32(0));
    Value *Sectors = B.getInt64(R.sectors);
    if (R.from_offset < 32) {
      Value *Offset = B.CreateAnd(B.CreatePtrToInt(Rep.Ptr, B.getInt64Ty()),
                                  B.getInt64(31));
      Sectors = B.CreateAdd(
          Sectors,
          B.CreateZExt(B.CreateICmpUGE(Offset, B.getInt64(R.from_offset)),
                       B.getInt64Ty()));
    }
    // No bound of its own: a warp adds this or what the measuring helper
    // adds, never both (as measureFullRowAt's sectors).
    auto AddExtra = [&](unsigned Fig, Value *Extra) {
      for (auto [Row, Times] : rowsWithTwins(G))
        addFigure(B, G.InLoop, figure(Row, Fig),
                  B.CreateSelect(Lane0, timesWithTwins(B, G, Extra, Times),
                                 B.getInt64(0)),
                  0);
    };
    AddExtra(PASTA_DIV_DISTINCT_GLOBAL, B.getInt64(R.distinct));
    AddExtra(PASTA_DIV_SECTORS, Sectors);
    AddExtra(PASTA_DIV_IDEAL_SECTORS, B.getInt64(R.ideal_sectors));
    return OtherT;
  }

  // The y step of ApartWidth group G where its rows' figures follow from
  // lane 0's address and the step alone (addStepRows): an element per row
  // (stride 0), aligned to its power-of-2 size and the step a nonzero
  // multiple of it (the rows' elements are disjoint, each in one sector), a
  // constant, and no twins (their steps may differ). None otherwise.
  std::optional<int64_t> stepRowsStep(const AccessGroup &G) const {
    uint32_t Size = G.Members.front()->A->Size;
    if (!G.ApartStep || *G.ApartStep == 0 || *G.LaneStride != 0 ||
        !G.Twins.empty() || *G.ApartStep % int64_t(Size) != 0 ||
        any_of(G.Members,
               [&](const AccessSite *S) { return accessAlign(*S->I) < Size; }))
      return std::nullopt;
    return G.ApartStep;
  }

  // Whether this lane is lane 0 of its warp.
  static Value *laneIsZero(IRBuilder<> &F) {
    return F.CreateICmpEQ(
        F.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid, {}),
        F.getInt32(0));
  }

  // Adds Extra to figure Fig of G's rows (and its twins') from the one lane
  // a warp where Lane0 holds (lane 0; addPairRows: the pair's lower lane):
  // what the warp has beyond the derived figures. A constant 0 adds
  // nothing.
  void addFromLaneZero(IRBuilder<> &F, const AccessGroup &G, Value *Lane0,
                       unsigned Fig, Value *Extra) {
    if (auto *C = dyn_cast<ConstantInt>(Extra); C && C->isZero())
      return;
    for (auto [Row, Times] : rowsWithTwins(G))
      addFigure(F, G.InLoop, figure(Row, Fig),
                F.CreateSelect(Lane0, timesWithTwins(F, G, Extra, Times),
                               F.getInt64(0)),
                0);
  }

  // addApartRows for a group of stepRowsStep: in a full warp of two 16-wide
  // rows stacked in y (Full), lane 16's element is Step bytes from lane 0's
  // (lanes i and i ^ 16 hold the same x and y one apart), however near:
  // beyond the derived figures (one element, one sector) the other row's
  // element (distinct bytes) and its sector where it is another, added from
  // lane 0; no shuffle. Other warps measure. Returns where they do.
  Instruction *addStepRows(const AccessGroup &G, int64_t Step, Value *Full,
                           Instruction *At) {
    const AccessSite &Rep = *G.Members.front();
    Instruction *StepT, *OtherT;
    SplitBlockAndInsertIfThenElse(Full, At->getIterator(), &StepT, &OtherT);
    markInstrumentation(
        StepT->getParent()->getSinglePredecessor()->getTerminator());
    if (auto It = LaunchOf.find(&G); It != LaunchOf.end()) {
      StepT = addLaunchOffset(G, It->second, nullptr, StepT);
      subtractLaunchFigures(G, It->second, OtherT);
    }
    IRBuilder<> F(StepT);
    Value *Addr = F.CreatePtrToInt(Rep.Ptr, F.getInt64Ty());
    addSecondElement(F, G, Step, Addr, laneIsZero(F), "pasta.div.steprows");
    return OtherT;
  }

  // What one lane a warp (Adds) adds for stepRowsStep group G where a second
  // element lies Step bytes past this lane's (at Addr; global only): beyond the
  // derived figures of one element (stride 0), its distinct bytes (aligned,
  // Step a nonzero multiple of the size: the two are disjoint, each in one
  // sector and word) and, for a load or store, in global memory its sector
  // where it is another and the ideal sectors of two elements, in shared memory
  // a bank conflict where the words (up to 4 bytes) are a multiple of 32 apart
  // (pasta_div_pair_figures less pasta_div_lanes_derived of two lanes);
  // SectorName names the global sector test.
  void addSecondElement(IRBuilder<> &F, const AccessGroup &G, int64_t Step,
                        Value *Addr, Value *Adds, const Twine &SectorName) {
    const DivergencePlan::Access &A = *G.Members.front()->A;
    uint32_t Size = A.Size;
    if (A.Space == PASTA_DIV_SHARED) {
      addFromLaneZero(F, G, Adds, PASTA_DIV_DISTINCT_SHARED, F.getInt64(Size));
      bool Conflict = A.Sectored && Size <= 4 && Step % 128 == 0;
      addFromLaneZero(F, G, Adds, PASTA_DIV_BANK_CONFLICTS,
                      F.getInt64(Conflict));
      return;
    }
    Value *Other = F.CreateAdd(Addr, F.getInt64(uint64_t(Step)));
    Value *Apart = F.CreateICmpNE(F.CreateLShr(Addr, 5), F.CreateLShr(Other, 5),
                                  SectorName);
    addFromLaneZero(F, G, Adds, PASTA_DIV_DISTINCT_GLOBAL, F.getInt64(Size));
    if (!A.Sectored)
      return;
    addFromLaneZero(F, G, Adds, PASTA_DIV_SECTORS,
                    F.CreateZExt(Apart, F.getInt64Ty()));
    addFromLaneZero(F, G, Adds, PASTA_DIV_IDEAL_SECTORS,
                    F.getInt64((2 * Size + 31) / 32 - (Size + 31) / 32));
  }

  // The y step of RowsProven group G for addPairRows: stepRowsStep's, of a
  // global or shared access with no lane select (its lanes' y terms may
  // differ), the step a whole number of 4-byte words in shared memory (so
  // that the two words' banks are known); NVPTX. None otherwise.
  std::optional<int64_t> pairRowsStep(const AccessGroup &G) const {
    const DivergencePlan::Access &A = *G.Members.front()->A;
    std::optional<int64_t> Step = stepRowsStep(G);
    if (!PairRows || T.Target != PASTA_TARGET_NVPTX || !Step ||
        G.laneTested() ||
        (A.Space != PASTA_DIV_GLOBAL && A.Space != PASTA_DIV_SHARED) ||
        (A.Space == PASTA_DIV_SHARED && *Step % 4 != 0))
      return std::nullopt;
    return Step;
  }

  // Before At, where RowsProven group G of pairRowsStep Step is measured: in
  // a warp of 16-wide rows stacked in y (__pasta_div_stacked_width 16) whose
  // active lanes are one in each row at the same x, lanes l and l + 16 (a
  // branch on thread index x: backprop's `if (tx == 0)`), lane l + 16 holds
  // lane l's x and y one more, so its element is Step bytes past lane l's:
  // lane l adds the second element's figures (addSecondElement), with no
  // shuffle of lane l + 16's address and no helper call. Other warps
  // measure. Returns where they do.
  Instruction *addPairRows(const AccessGroup &G, int64_t Step,
                           Instruction *At) {
    const AccessSite &Rep = *G.Members.front();
    IRBuilder<> B(At);
    Value *Lanes = B.CreateIntrinsic(Intrinsic::nvvm_activemask, {});
    Value *Low = B.CreateAnd(Lanes, B.getInt32(0xffff));
    Value *Matched = B.CreateICmpEQ(B.CreateLShr(Lanes, 16), Low);
    Value *OneEach = B.CreateICmpEQ(
        B.CreateAnd(Low, B.CreateSub(Low, B.getInt32(1))), B.getInt32(0));
    Value *Pair = B.CreateAnd(B.CreateAnd(stackedIs16(), Matched), OneEach,
                              "pasta.div.rowpair");
    Instruction *PairT, *OtherT;
    SplitBlockAndInsertIfThenElse(Pair, At->getIterator(), &PairT, &OtherT);
    markInstrumentation(
        PairT->getParent()->getSinglePredecessor()->getTerminator());
    IRBuilder<> F(PairT);
    Value *Addr = Rep.A->Space == PASTA_DIV_GLOBAL
                      ? F.CreatePtrToInt(Rep.Ptr, F.getInt64Ty())
                      : nullptr;
    Value *Lower = F.CreateICmpULT(
        F.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid, {}),
        F.getInt32(16));
    addSecondElement(F, G, Step, Addr, Lower, "pasta.div.pairsector");
    return OtherT;
  }

  // Whether __pasta_div_stacked_width is 16, computed at the entry.
  Value *stackedIs16() {
    if (!StackedIs16) {
      Value *W = stackedW();
      IRBuilder<> B(EntryBody);
      StackedIs16 = B.CreateICmpEQ(W, B.getInt32(16), "pasta.div.stacked16");
    }
    return StackedIs16;
  }

  // Before At, where group G with an ApartWidth is measured: a full warp of
  // ApartWidth-wide rows stacked in y (Full, repeatRow's test) whose two
  // rows start a multiple of 32 bytes apart and at least pasta_div_apart_rows'
  // minimum (|lane 16's address - lane 0's|, the same in every lane: tested
  // once at the entry where the y step is known there, knownApart, else one
  // shuffle in the lanes that run At, used in full warps only) adds from
  // lane 0 its figures beyond the derived ones; other warps measure it.
  // Returns where they do.
  Instruction *addApartRows(const AccessGroup &G, Value *Full,
                            Instruction *At) {
    const AccessSite &Rep = *G.Members.front();
    // Behind a lane select or clamp: only where the lanes agree on it (then
    // the address is lane-affine, as measuredIn's rows of 32 take it).
    if (G.laneTested())
      Full = IRBuilder<>(At).CreateAnd(Full, AgreeOf.lookup(&G));
    // Through a clamp of y: only where every lane's takes its moving side.
    if (G.YClampArm) {
      IRBuilder<> B(At);
      Value *All =
          B.CreateCall(H.AllLanes, {B.CreateZExt(G.YClampArm, B.getInt32Ty())});
      Full = B.CreateAnd(Full, B.CreateICmpNE(All, B.getInt32(0)));
    }
    if (std::optional<int64_t> Step = stepRowsStep(G))
      return addStepRows(G, *Step, Full, At);
    pasta_div_repeat_figures R;
    uint32_t MinGap = 0;
    pasta_div_apart_rows(Rep.A->Size, *G.LaneStride, G.ApartWidth, &R, &MinGap);
    Value *Known = knownApart(G, MinGap);
    IRBuilder<> B(At);
    Value *Addr = B.CreatePtrToInt(Rep.Ptr, B.getInt64Ty());
    Value *Apart =
        B.CreateAnd(Full, Known ? Known : shuffledApart(G, MinGap, Addr, B),
                    "pasta.div.apartrows");
    Instruction *ApartT, *OtherT;
    SplitBlockAndInsertIfThenElse(Apart, At->getIterator(), &ApartT, &OtherT);
    markInstrumentation(
        ApartT->getParent()->getSinglePredecessor()->getTerminator());
    if (auto It = LaunchOf.find(&G); It != LaunchOf.end()) {
      ApartT = addLaunchOffset(G, It->second, Addr, ApartT);
      subtractLaunchFigures(G, It->second, OtherT);
    }
    IRBuilder<> F(ApartT);
    Value *Lane0 = laneIsZero(F);
    Value *Sectors = F.getInt64(R.sectors);
    if (R.from_offset < 32 && R.past)
      Sectors = F.CreateAdd(
          Sectors,
          F.CreateMul(
              F.CreateZExt(F.CreateICmpUGE(F.CreateAnd(Addr, F.getInt64(31)),
                                           F.getInt64(R.from_offset)),
                           F.getInt64Ty()),
              F.getInt64(R.past)));
    // No bound of its own: a warp adds this or what the measuring helper
    // adds, never both (as measureFullRowAt's sectors).
    addFromLaneZero(F, G, Lane0, PASTA_DIV_DISTINCT_GLOBAL,
                    F.getInt64(R.distinct));
    addFromLaneZero(F, G, Lane0, PASTA_DIV_SECTORS, Sectors);
    addFromLaneZero(F, G, Lane0, PASTA_DIV_IDEAL_SECTORS,
                    F.getInt64(R.ideal_sectors));
    return OtherT;
  }

  // addApartRows' test where the step is not known: whether lane
  // ApartWidth's address (one shuffle, at B) and this lane's, Addr, are a
  // multiple of 32 bytes apart and at least MinGap (the same in every lane
  // of a full warp).
  Value *shuffledApart(const AccessGroup &G, uint32_t MinGap, Value *Addr,
                       IRBuilder<> &B) {
    Value *Mask = B.CreateIntrinsic(Intrinsic::nvvm_activemask, {});
    auto Partner = [&](Value *Half) {
      return B.CreateIntrinsic(
          Intrinsic::nvvm_shfl_sync_bfly_i32,
          {Mask, Half, B.getInt32(G.ApartWidth), B.getInt32(31)});
    };
    Value *Lo = Partner(B.CreateTrunc(Addr, B.getInt32Ty()));
    Value *Hi = Partner(B.CreateTrunc(B.CreateLShr(Addr, 32), B.getInt32Ty()));
    Value *Other = B.CreateOr(B.CreateShl(B.CreateZExt(Hi, B.getInt64Ty()), 32),
                              B.CreateZExt(Lo, B.getInt64Ty()));
    Value *Gap = B.CreateSub(Other, Addr);
    Value *AbsGap = B.CreateSelect(B.CreateICmpSLT(Gap, B.getInt64(0)),
                                   B.CreateNeg(Gap), Gap);
    Value *Whole =
        B.CreateICmpEQ(B.CreateAnd(AbsGap, B.getInt64(31)), B.getInt64(0));
    Value *Far = B.CreateICmpUGE(AbsGap, B.getInt64(MinGap));
    return B.CreateAnd(Whole, Far);
  }

  // AccessGroup::GapConflicts of a RowsProven group G whose y term is
  // RowStride (NVPTX: __pasta_div_full_row's test); -1: none.
  int gapConflicts(AccessGroup &G, std::optional<int64_t> RowStride) const {
    const DivergencePlan::Access &A = *G.Members.front()->A;
    if (!StackedGaps || T.Target != PASTA_TARGET_NVPTX || !RowStride ||
        *RowStride == 0 || G.laneTested() || A.Space != PASTA_DIV_SHARED ||
        A.Size != 4 || !A.Sectored)
      return -1;
    uint32_t Words = 0;
    int Conflicts = pasta_div_stacked_conflicts(*G.LaneStride, *RowStride,
                                                GapWidth, &Words);
    // deriveLaneShaped's distinct bytes: the size per lane (per warp at
    // stride 0); a full warp has 4 per distinct word.
    G.GapExtraBytes = 4 * int(Words) - (*G.LaneStride ? 32 * 4 : 4);
    return Conflicts;
  }

  // Before At, where a RowsProven group G with GapConflicts is measured: a
  // full warp of GapWidth-wide rows stacked in y adds (its lane 0) to each
  // row's bank conflicts G.GapConflicts and to its distinct bytes
  // G.GapExtraBytes, beyond the derived ones (one request, none, and the
  // size per lane or, at stride 0, per warp: deriveLaneShaped); other warps
  // measure it. Returns where they do.
  Instruction *addGapConflicts(const AccessGroup &G, Instruction *At) {
    if (!G.InLoop)
      bankRow(); // at the entry: it must dominate the adds
    IRBuilder<> B(At);
    Value *Full =
        B.CreateICmpNE(B.CreateCall(H.FullRow, {fullRowWidth(GapWidth)}),
                       B.getInt32(0), "pasta.div.fullgap");
    Instruction *FullT, *OtherT;
    SplitBlockAndInsertIfThenElse(Full, At->getIterator(), &FullT, &OtherT);
    markInstrumentation(
        FullT->getParent()->getSinglePredecessor()->getTerminator());
    IRBuilder<> F(FullT);
    Value *Lane0 = nullptr;
    // No bound of its own: a warp adds this or what the measuring helper
    // adds, never both (as measureFullRowAt's sectors).
    auto AddExtra = [&](unsigned Fig, int64_t Extra) {
      if (!Extra)
        return;
      if (!Lane0)
        Lane0 = F.CreateICmpEQ(
            F.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid, {}),
            F.getInt32(0));
      for (auto [Row, Times] : rowsOf(G))
        addFigure(
            F, G.InLoop, figure(Row, Fig),
            F.CreateSelect(Lane0, F.getInt64(Extra * Times), F.getInt64(0)), 0);
    };
    AddExtra(PASTA_DIV_DISTINCT_SHARED, G.GapExtraBytes);
    AddExtra(PASTA_DIV_BANK_CONFLICTS, G.GapConflicts);
    return OtherT;
  }

  // G (FullRow) at its first access: in a full warp of one 32-lane row its
  // figures are the derived ones but for the sectors past its base's
  // (__pasta_div_row_sectors, 0 or 1 in lane 0; none at a stride of 32 or
  // more), added like a measured figure; other warps measure it as before.
  void measureFullRowAt(const AccessGroup &G, Instruction *At) {
    const AccessSite &Rep = *G.Members.front();
    Value *Full =
        fullRow(Rep.A->I->getParent(), Rep.A->Warps, G.StackedWidth, At);
    Value *Repeat = G.RepeatWidth ? repeatRow(Rep.A->I->getParent(),
                                              Rep.A->Warps, G.RepeatWidth, At)
                                  : nullptr;
    Value *Apart = G.ApartWidth ? repeatRow(Rep.A->I->getParent(), Rep.A->Warps,
                                            G.ApartWidth, At)
                                : nullptr;
    if (G.laneTested()) { // behind a clamp: where every lane takes its side
      IRBuilder<> B(At);
      Value *Agree = AgreeOf[&G] = lanesAgree(B, G);
      Full = B.CreateAnd(Full, Agree);
      if (Repeat)
        Repeat = B.CreateAnd(Repeat, Agree);
    }
    if (!G.InLoop)
      bankRow(); // above the split: it must dominate the adds
    if (AlignedBase.contains(&G)) {
      // A full row whose bases all start a sector: nothing to add.
      At = SplitBlockAndInsertIfThen(rowOrBasesOff(G, Full, At),
                                     At->getIterator(),
                                     /*Unreachable=*/false);
      markInstrumentation(
          At->getParent()->getSinglePredecessor()->getTerminator());
    }
    Instruction *FullT, *OtherT;
    SplitBlockAndInsertIfThenElse(Full, At->getIterator(), &FullT, &OtherT);
    markInstrumentation(
        FullT->getParent()->getSinglePredecessor()->getTerminator());
    if (*G.LaneStride < 32) {
      IRBuilder<> B(FullT);
      Value *Ptr = Rep.Ptr;
      if (Ptr->getType()->getPointerAddressSpace() != 0)
        Ptr = B.CreateAddrSpaceCast(Ptr, B.getPtrTy());
      Value *Extra = B.CreateZExt(
          B.CreateCall(H.RowSectors, {Ptr, B.getInt32(Rep.A->Size),
                                      B.getInt32(uint32_t(*G.LaneStride))}),
          B.getInt64Ty());
      // No bound of its own: a warp adds this or what the measuring helper
      // below adds (at most Times x mostPerExecution, counted there), never
      // both.
      for (auto [Row, Times] : rowsWithTwins(G))
        addFigure(B, G.InLoop, figure(Row, PASTA_DIV_SECTORS),
                  timesWithTwins(B, G, Extra, Times), 0);
    }
    if (Repeat)
      OtherT = addRepeatRows(G, Repeat, OtherT);
    if (Apart)
      OtherT = addApartRows(G, Apart, OtherT);
    measureGroupAt(G, OtherT, G.InLoop);
  }

  // AlignedRowsAtEntry: in a kernel, the FullRow groups outside loops measured
  // at each execution whose lane 0's address mod 32 laneZeroLow builds at the
  // entry (AlignedBase), and RowBasesOff, whether any of those is off a
  // sector's start.
  // With RowBasesPerBlock, one test per block of the program (the plan's)
  // instead: the bases of one block's groups (bfs's row_ptr[u] and
  // row_ptr[u + 1], 4 bytes apart) may never all start a sector while
  // another block's do (its frontier[u]), and a warp runs a block outside
  // loops at most once.
  void rowBasesAtEntry() {
    // A kernel's arguments are the same in every lane; a device function's
    // may not be (its caller's index).
    if (!AlignedRowsAtEntry || !isKernel(Copy))
      return;
    IRBuilder<> B(EntryBody);
    MapVector<const BasicBlock *, Value *> AnyIn;
    for (AccessGroup &G : Groups) {
      if (!G.FullRow || G.InLoop || G.Repeat || G.Proven || G.RowsProven ||
          G.StackedWidth || *G.LaneStride >= 32)
        continue;
      DenseMap<Value *, Value *> Done;
      unsigned Budget = MaxLaneZero;
      Value *Low = laneZeroLow(G.Members.front()->Ptr, B, Done, Budget);
      if (!Low)
        continue;
      AlignedBase.insert(&G);
      Value *&Any = AnyIn[baseTestBlock(G)];
      Any = Any ? B.CreateOr(Any, Low) : Low;
    }
    for (auto [BB, Any] : AnyIn)
      RowBasesOff[BB] =
          B.CreateICmpNE(B.CreateAnd(B.CreateTrunc(Any, B.getInt32Ty()), 31),
                         B.getInt32(0), "pasta.div.rowbases.off");
  }

  // The block whose groups' bases rowBasesAtEntry tests together with G's:
  // G's own in the plan, or none (one test for all).
  static const BasicBlock *baseTestBlock(const AccessGroup &G) {
    return RowBasesPerBlock ? G.Members.front()->A->I->getParent() : nullptr;
  }

  // Whether a warp is not a full row (Full false) or a base of the
  // AlignedBase groups tested with G's is off a sector's start: where
  // neither, those groups add nothing. One per Full value and test, made
  // before the first group's At (as Full is).
  Value *rowOrBasesOff(const AccessGroup &G, Value *Full, Instruction *At) {
    Value *Off = RowBasesOff.lookup(baseTestBlock(G));
    Value *&Slow = RowOrBasesOff[{Full, Off}];
    if (!Slow) {
      IRBuilder<> B(At);
      Slow = B.CreateOr(B.CreateNot(Full), Off, "pasta.div.rowslow");
    }
    return Slow;
  }

  // G, measured at At in the body of a branch foldIntervalBody summed at
  // its loop's preheader (in the body's own block, so with the body's
  // lanes): a shared load or store of a power-of-2 size up to 4 bytes whose
  // IR states an alignment to its size, at a lane stride that is a
  // multiple of 4 other than the size (nw_tile's s_score group: 4 bytes at
  // 64). In a trip whose lanes are one row its lanes helper adds only the
  // bank conflicts of those lanes beyond the derived ones, whatever the
  // trip's base; the preheader knows each trip's lanes (a ballot of its bit
  // in each lane's trip mask), so one __pasta_div_interval_conflicts there
  // adds that sum to G's register and returns 1 where every trip's lanes
  // are one row, and the trips measure G only where it returned 0. Returns
  // where the trip's measurement goes: At, or the branch taken on 0.
  // `-pasta-div-interval-conflicts=0` measures at every trip.
  template <typename OutFn>
  Instruction *foldIntervalConflicts(const AccessGroup &G, Instruction *At,
                                     OutFn Out) {
    const AccessSite &Rep = *G.Members.front();
    const DivergencePlan::Access &A = *Rep.A;
    auto It = IntervalBodyOf.find(At->getParent());
    if (!IntervalConflicts || It == IntervalBodyOf.end() || !laneShaped(G) ||
        G.laneTested() || G.Repeat || OutOfLine ||
        A.Space != PASTA_DIV_SHARED || !A.Sectored || A.Size > 4 ||
        !isPowerOf2_32(A.Size) || !isa<LoadInst, StoreInst>(Rep.I) ||
        getLoadStoreAlignment(Rep.I).value() < A.Size)
      return At;
    int64_t Stride = *G.LaneStride;
    if (Stride <= 0 || Stride % 4 != 0 || Stride == int64_t(A.Size) ||
        Stride > INT32_MAX)
      return At;
    const IntervalBody &IB = It->second;
    // G's registers made in the order the trip's call makes them (their
    // names are the copy's), no bound added here but the fold's.
    for (unsigned Fig = PASTA_DIV_REQUESTS_GLOBAL;
         Fig < PASTA_DIV_BANK_CONFLICTS; ++Fig)
      if (accessMeasures(A, Fig))
        Out(Fig, 0);
    IRBuilder<> PB(IB.Branch->U->PreheaderEnd);
    Value *Ok = PB.CreateCall(
        H.IntervalConflicts, {IB.Start, IB.Bound, PB.getInt32(IB.Branch->Trips),
                              PB.getInt32(IB.Side), PB.getInt32(A.Size),
                              PB.getInt32(uint32_t(Stride)), rowWidth(),
                              Out(PASTA_DIV_BANK_CONFLICTS, IB.Branch->Trips)});
    IRBuilder<> B(At);
    Instruction *Then = SplitBlockAndInsertIfThen(
        B.CreateICmpEQ(Ok, B.getInt32(0), "pasta.div.trips.measure"),
        At->getIterator(), /*Unreachable=*/false);
    markInstrumentation(
        Then->getParent()->getSinglePredecessor()->getTerminator());
    ++NumIntervalConflicts;
    return Then;
  }

  // -pasta-div-batch: the groups of one source line (or of one block)
  // measured in one call. A batch's groups are measured in one block (so
  // with the same lanes: the same segment too) under the same condition
  // (none, or a FullRow test of the same lanes and width), each at its own
  // place as before: there each stages its address, and the last one, in
  // block order and in the order measured, calls
  // __pasta_div_access_batch_out for all of them and adds their figures,
  // summed by line, to the lines' counters. Every figure goes to its line's
  // counters as the group's own measurement would have added it (times its
  // accesses there), so the sums are the same.
  struct Batch {
    SmallVector<const AccessGroup *, 8> Groups; // in the order measured
    SmallVector<uint32_t, 4> Rows;              // their lines' rows
    bool InLoop = false;
  };

  // Whether G's measurement can be staged in a batch: measured once at its
  // first access (not per loop entry, not as a twin, not behind a lane
  // test or extra row test of its own), all its accesses on one line.
  // FullRow groups are measured exactly when the warp is not a full row
  // (what they add in full rows, measureFullRowAt adds apart).
  bool batchable(const AccessGroup &G) {
    return !G.Repeat && !G.Proven && !G.RowsProven && !G.TwinOf &&
           G.Twins.empty() && !G.AfterBarrierLoads && !G.laneTested() &&
           !G.RepeatWidth && !G.ApartWidth && rowsOf(G).size() == 1 &&
           G.Members.size() < (1u << 16);
  }

  // The batches of an out-of-line copy: groups keyed by their block, its
  // segment, their measurement's condition and (-pasta-div-batch=lines)
  // their line, at most PASTA_DIV_BATCH_MAX each; a batch of one is left
  // as it was.
  void planBatches() {
    if (!OutOfLine || BatchAccesses == BatchBy::None)
      return;
    using Key =
        std::tuple<const BasicBlock *, uint32_t, uint32_t, bool, uint32_t>;
    std::map<Key, SmallVector<const AccessGroup *, 8>> ByKey;
    SmallVector<Key, 16> Order;
    for (const AccessGroup &G : Groups) {
      if (!batchable(G))
        continue;
      const AccessSite &Rep = *G.Members.front();
      uint32_t Line = BatchAccesses == BatchBy::Lines ? Rep.A->Row : 0;
      Key K{Rep.I->getParent(), Rep.A->Warps, Line, G.FullRow, G.StackedWidth};
      auto &List = ByKey[K];
      // Measured in block order too (each stages before the call).
      if (!List.empty() && !List.back()->Members.front()->I->comesBefore(Rep.I))
        continue;
      if (List.empty())
        Order.push_back(K);
      List.push_back(&G);
    }
    for (const Key &K : Order)
      for (ArrayRef<const AccessGroup *> List = ByKey[K]; List.size() > 1;) {
        ArrayRef<const AccessGroup *> Part =
            List.take_front(PASTA_DIV_BATCH_MAX);
        List = List.drop_front(Part.size());
        if (Part.size() > 1)
          addBatch(Part);
      }
  }

  void addBatch(ArrayRef<const AccessGroup *> Part) {
    Batches.push_back(std::make_unique<Batch>());
    Batch &Bt = *Batches.back();
    Bt.Groups.assign(Part.begin(), Part.end());
    Bt.InLoop = Part.front()->InLoop;
    for (const AccessGroup *G : Part) {
      BatchOf[G] = &Bt;
      uint32_t Row = G->Members.front()->A->Row;
      if (!is_contained(Bt.Rows, Row))
        Bt.Rows.push_back(Row);
    }
    MaxBatch = std::max<size_t>(MaxBatch, Part.size());
    MaxBatchRows = std::max<size_t>(MaxBatchRows, Bt.Rows.size());
  }

  // G's entry in its batch's table (include/pasta/div_batch.h), as
  // callAccess would call its out-of-line helper.
  std::array<uint32_t, PASTA_DIV_BATCH_WORDS> batchEntry(const AccessGroup &G,
                                                         const Batch &Bt) {
    const DivergencePlan::Access &A = *G.Members.front()->A;
    bool Lanes = laneShaped(G);
    uint32_t Flags = uint32_t(G.Members.size()) << PASTA_DIV_BATCH_TIMES_SHIFT;
    for (unsigned Fig = PASTA_DIV_REQUESTS_GLOBAL;
         Fig <= PASTA_DIV_BANK_CONFLICTS; ++Fig)
      if (accessMeasures(A, Fig))
        Flags |= 1u << (Fig - PASTA_DIV_REQUESTS_GLOBAL);
    if (A.Sectored)
      Flags |= PASTA_DIV_BATCH_SECTORED;
    if (Lanes)
      Flags |= PASTA_DIV_BATCH_LANES;
    if (Lanes || G.TryRows)
      Flags |= PASTA_DIV_BATCH_ROW_WIDTH;
    bool Aligned = !Lanes && alignedToSize(A);
    std::array<uint32_t, PASTA_DIV_BATCH_WORDS> E{};
    E[PASTA_DIV_BATCH_SIZE] = A.Size;
    E[PASTA_DIV_BATCH_STRIDE] = Lanes ? uint32_t(*G.LaneStride) : 0;
    E[PASTA_DIV_BATCH_HINT] = A.Space | (Aligned ? PASTA_DIV_ALIGNED : 0u);
    E[PASTA_DIV_BATCH_FLAGS] = Flags;
    E[PASTA_DIV_BATCH_LINE] = uint32_t(find(Bt.Rows, A.Row) - Bt.Rows.begin());
    return E;
  }

  // G's address staged in its batch's slot before At; the batch measured
  // there too when G is its last group.
  void stageInBatch(const AccessGroup &G, const Batch &Bt, Instruction *At) {
    if (!BatchPtrs) {
      IRBuilder<> EB(&*Copy.getEntryBlock().getFirstInsertionPt());
      unsigned AS = Copy.getParent()->getDataLayout().getAllocaAddrSpace();
      BatchPtrs = EB.CreateAlloca(ArrayType::get(EB.getPtrTy(), MaxBatch), AS,
                                  nullptr, "pasta.div.batch.ptrs");
      BatchOut = EB.CreateAlloca(
          ArrayType::get(EB.getInt32Ty(), 8 * (MaxBatchRows + 1)), AS, nullptr,
          "pasta.div.batch.out");
    }
    unsigned Slot = find(Bt.Groups, &G) - Bt.Groups.begin();
    IRBuilder<> B(At);
    B.CreateStore(genericPointer(B, G.Members.front()->Ptr),
                  B.CreateConstInBoundsGEP2_32(BatchPtrs->getAllocatedType(),
                                               BatchPtrs, 0, Slot));
    ++NumBatchedAccesses;
    if (&G == Bt.Groups.back())
      measureBatch(Bt, At);
  }

  // Outside loops, a helper's figures go to the counters only where a lane
  // added one (Added, the helper's result, not 0): B is left inside that
  // branch, split before At, with the bank row found above it.
  void addOnlyWhereAdded(IRBuilder<> &B, Value *Added, Instruction *At) {
    bankRow(); // above the split: it must dominate the adds
    Instruction *Then = SplitBlockAndInsertIfThen(
        B.CreateICmpNE(Added, B.getInt32(0)), At->getIterator(),
        /*Unreachable=*/false);
    markInstrumentation(
        Then->getParent()->getSinglePredecessor()->getTerminator());
    B.SetInsertPoint(Then);
  }

  // Bt's call before At (after its last group's staging) and its figures'
  // adds to its lines' counters: in a loop to their registers, elsewhere,
  // where a lane added one, to the counters.
  void measureBatch(const Batch &Bt, Instruction *At) {
    Module &M = *Copy.getParent();
    SmallVector<uint32_t, 5 * PASTA_DIV_BATCH_WORDS> Words;
    // By line and figure: the most one execution adds (0: not measured).
    std::vector<std::array<uint64_t, PASTA_DIV_NUM>> Most(Bt.Rows.size());
    bool Width = false;
    for (const AccessGroup *G : Bt.Groups) {
      auto E = batchEntry(*G, Bt);
      Words.append(E.begin(), E.end());
      Width |= (E[PASTA_DIV_BATCH_FLAGS] & PASTA_DIV_BATCH_ROW_WIDTH) != 0;
      const DivergencePlan::Access &A = *G->Members.front()->A;
      for (unsigned Fig = PASTA_DIV_REQUESTS_GLOBAL;
           Fig <= PASTA_DIV_BANK_CONFLICTS; ++Fig)
        if (accessMeasures(A, Fig))
          Most[E[PASTA_DIV_BATCH_LINE]][Fig] +=
              G->Members.size() * mostPerExecution(A);
    }
    auto *Init = ConstantDataArray::get(M.getContext(), Words);
    auto *Table = new GlobalVariable(
        M, Init->getType(), /*isConstant=*/true, GlobalValue::PrivateLinkage,
        Init, "pasta.div.batch", nullptr, GlobalValue::NotThreadLocal,
        /*AddressSpace=*/1);
    IRBuilder<> B(At);
    Value *Added = B.CreateCall(H.AccessBatchOut,
                                {B.getInt32(Bt.Groups.size()),
                                 B.getInt32(Bt.Rows.size()), BatchPtrs, Table,
                                 Width ? rowWidth() : B.getInt32(0), BatchOut});
    ++NumBatchCalls;
    NumOutOfLineAccesses += Bt.Groups.size();
    if (!Bt.InLoop)
      addOnlyWhereAdded(B, Added, At);
    for (auto [Line, Row] : enumerate(Bt.Rows))
      for (unsigned Fig = PASTA_DIV_REQUESTS_GLOBAL;
           Fig <= PASTA_DIV_BANK_CONFLICTS; ++Fig) {
        if (!Most[Line][Fig])
          continue;
        Value *V = B.CreateLoad(
            B.getInt32Ty(), B.CreateConstInBoundsGEP2_32(
                                BatchOut->getAllocatedType(), BatchOut, 0,
                                8 * Line + Fig - PASTA_DIV_REQUESTS_GLOBAL));
        // 32 bits, as the single helpers' figures are added.
        addFigure(B, Bt.InLoop, figure(Row, Fig),
                  B.CreateSExt(V, B.getInt64Ty()), Most[Line][Fig]);
      }
  }

  // One measurement of G before At: in a loop, straight into the registers
  // of a lone access, else into scratch registers added to each row's
  // figures as many times as it has accesses in the group (outside loops,
  // only when the helper says a lane added: the warps whose figures are all
  // derived skip every add).
  void measureGroupAt(const AccessGroup &G, Instruction *At, bool InLoop) {
    if (auto It = BatchOf.find(&G); It != BatchOf.end())
      return stageInBatch(G, *It->second, At);
    const AccessSite &Rep = *G.Members.front();
    IRBuilder<> B(At);
    if (InLoop && G.Members.size() == 1 && G.Twins.empty()) {
      uint64_t Most = mostPerExecution(*Rep.A);
      auto Out = [&](unsigned Fig, uint64_t Times = 1) {
        return slot(figure(Rep.A->Row, Fig), Most * Times);
      };
      B.SetInsertPoint(foldIntervalConflicts(G, At, Out));
      callAccess(B, Rep.Ptr, G, Out);
      return;
    }
    if (InLoop && G.Twins.empty() && GroupRegisters) {
      uint64_t Most = mostPerExecution(*Rep.A);
      auto Out = [&](unsigned Fig, uint64_t Times = 1) {
        return groupSlot(G, Fig, Most * Times);
      };
      B.SetInsertPoint(foldIntervalConflicts(G, At, Out));
      callAccess(B, Rep.Ptr, G, Out);
      return;
    }
    zero(B, scratch());
    Value *Added =
        callAccess(B, Rep.Ptr, G, [&](unsigned Fig) { return scratch()[Fig]; });
    if (!InLoop)
      addOnlyWhereAdded(B, Added, At);
    for (unsigned Fig = PASTA_DIV_REQUESTS_GLOBAL;
         Fig <= PASTA_DIV_BANK_CONFLICTS; ++Fig) {
      if (!accessMeasures(*Rep.A, Fig))
        continue;
      Value *V = load(B, scratch()[Fig]);
      for (auto [Row, Times] : rowsWithTwins(G))
        addFigure(B, InLoop, figure(Row, Fig), timesWithTwins(B, G, V, Times),
                  (Times.first + Times.second) * mostPerExecution(*Rep.A));
    }
  }

  // G's figures taken in its loop's preheader, at its first access's address
  // there, and added in the exit blocks times its block's executions. When
  // the step must be tested at run time, returns the test (G is measured at
  // its access too when it fails), else null.
  Value *measureOncePerEntry(const AccessGroup &G) {
    const UniformLoops::UniformLoop &U = *G.Loop;
    const AccessSite &Rep = *G.Members.front();
    hoisted(U);
    // Measured where its inputs are first known (once, not per entry of U
    // in an outer uniform loop); still added per entry, below.
    const UniformLoops::UniformLoop &M =
        OuterOnce ? Loops.outermostInvariant(U, *G.Repeat) : U;
    const UniformLoops::UniformLoop *At = &M == &U ? nullptr : &M;
    Value *Ok =
        G.Repeat->StepToTest
            ? Loops.stepIsMultiple(U, *G.Repeat, figureGranule(*Rep.A), At)
            : nullptr;
    std::array<AllocaInst *, PASTA_DIV_NUM> Beyond{};
    if (Ok && lanesTripsFold(G, At)) {
      IRBuilder<> B(M.PreheaderEnd);
      Ok = B.CreateOr(Ok, lanesTripsOk(G, Beyond, At), "pasta.div.trips.ok");
    }
    if (!G.Repeat->NoWraps.empty()) {
      // Each lane tests its own index; the figures need all of them.
      Value *Lane = Loops.laneDoesNotWrap(U, *G.Repeat, At);
      IRBuilder<> B(M.PreheaderEnd);
      Value *All = B.CreateICmpNE(
          B.CreateCall(H.AllLanes, {B.CreateZExt(Lane, B.getInt32Ty())}),
          B.getInt32(0), "pasta.div.nowrap.all");
      Ok = Ok ? B.CreateAnd(Ok, All) : All;
    }
    Value *Start = Loops.startBefore(U, Rep.Ptr, *G.Repeat, At);
    std::array<AllocaInst *, PASTA_DIV_NUM> PerEntry{};
    IRBuilder<> B(M.PreheaderEnd);
    for (unsigned Fig = PASTA_DIV_REQUESTS_GLOBAL;
         Fig <= PASTA_DIV_BANK_CONFLICTS; ++Fig)
      if (accessMeasures(*Rep.A, Fig)) {
        PerEntry[Fig] = newRegister("pasta.div.once");
        zero(B, {PerEntry[Fig]});
      }
    callAccess(B, Start, G, [&](unsigned Fig) { return PerEntry[Fig]; });
    Count N = executions(*Rep.I->getParent(), U);
    // What the trips add beyond the first trip's figures times the trips:
    // once per entry.
    Count Once{nullptr,
               ConstantInt::get(Type::getInt64Ty(Copy.getContext()), 1)};
    // Entered in At with the same figures and trips at every entry: added
    // once, at At's exits, for all the entries.
    const UniformLoops::UniformLoop &AddIn =
        At && N.Trips && foldsForAllTrips(U, *At, N, Once) ? *At : U;
    for (auto [Row, Times] : rowsOf(G))
      for (unsigned Fig = PASTA_DIV_REQUESTS_GLOBAL;
           Fig <= PASTA_DIV_BANK_CONFLICTS; ++Fig)
        if (PerEntry[Fig])
          addFold(AddIn, {figure(Row, Fig), PerEntry[Fig], Times,
                          mostPerExecution(*Rep.A), N, Ok});
    for (auto [Row, Times] : rowsOf(G))
      for (unsigned Fig = PASTA_DIV_REQUESTS_GLOBAL;
           Fig <= PASTA_DIV_BANK_CONFLICTS; ++Fig)
        if (Beyond[Fig])
          addFold(AddIn,
                  {figure(Row, Fig), Beyond[Fig], Times, MaxFold, Once, Ok});
    return Ok;
  }

  // Whether the folds of U's access, measured before At, its parent, can
  // be added once, at At's exits, for all the entries of U in that entry
  // of At: every entry adds the same figures times U's trips, and the
  // trips are known before At, so the entries' trips and their number,
  // counted in two registers at U's preheader, are the counts (N, Once).
  // kmeans' coordinates loop in its centres loop added 18 figures at every
  // centre (an H200: 10.3x plain).
  bool foldsForAllTrips(const UniformLoops::UniformLoop &U,
                        const UniformLoops::UniformLoop &At, Count &N,
                        Count &Once) {
    if (!FoldsForAllTrips || U.L->getParentLoop() != At.L || !U.Trips ||
        !Loops.invariantBefore(U.Trips, At))
      return false;
    auto &[Trips, Entries] = EntriesIn[&U];
    if (!Trips) {
      Trips = newRegister("pasta.div.entry.trips", /*Wide=*/true);
      Entries = newRegister("pasta.div.entries", /*Wide=*/true);
      IRBuilder<> ZB(At.PreheaderEnd);
      zero(ZB, {Trips, Entries});
      IRBuilder<> B(U.PreheaderEnd);
      Value *T = B.CreateZExtOrTrunc(Loops.tripsBefore(U), B.getInt64Ty());
      B.CreateStore(B.CreateAdd(load(B, Trips), T), Trips);
      B.CreateStore(B.CreateAdd(load(B, Entries), B.getInt64(1)), Entries);
    }
    hoisted(At);
    N = {Trips, nullptr};
    Once = {Entries, nullptr};
    return true;
  }
  // U's trips over its entries and the entries, in one entry of its
  // parent (foldsForAllTrips).
  DenseMap<const UniformLoops::UniformLoop *,
           std::pair<AllocaInst *, AllocaInst *>>
      EntriesIn;

  // Whether G, measured once per entry of its uniform loop but at a step
  // the fold cannot take as it is (not a multiple of a sector), can have
  // its trips summed by __pasta_div_lanes_trips: a lane-shaped access of a
  // known space measured by the inline lanes helper (whose one-row path
  // that helper repeats), of a power-of-2 size up to 32, in a block run at
  // every trip (so trip k's address is the first's plus k steps). Measured
  // before an outer loop (At: kmeans' objects[n * i + id], read in the
  // coordinates loop of every cluster's trip at a step of 4n bytes), the
  // helper runs once for all the outer trips, so it is worth a step whose
  // place in a sector is not known at all (the selective rule's case) as
  // long as the trips are known there too.
  bool lanesTripsFold(const AccessGroup &G,
                      const UniformLoops::UniformLoop *At) {
    const AccessSite &Rep = *G.Members.front();
    const DivergencePlan::Access &A = *Rep.A;
    bool Hoisted = At && HoistedTrips && G.Loop->Trips &&
                   Loops.invariantBefore(G.Loop->Trips, *At);
    if (At && !Hoisted)
      return false;
    return LanesTrips && laneShaped(G) && !G.laneTested() &&
           A.Space != PASTA_DIV_GENERIC && isPowerOf2_32(A.Size) &&
           A.Size <= 32 &&
           Loops.runsEveryIteration(*G.Loop, *Rep.I->getParent()) &&
           (!SelectiveTrips || Hoisted ||
            Loops.stepOffWithAlignedValues(*G.Repeat, figureGranule(A)));
  }

  // At the preheader of G's loop (of At, where G is measured before it):
  // __pasta_div_lanes_trips for G, into new registers (Beyond) of the
  // figures it measures that the helper adds to; returns its result as an
  // i1 (1 where the fold holds for every trip).
  Value *lanesTripsOk(const AccessGroup &G,
                      std::array<AllocaInst *, PASTA_DIV_NUM> &Beyond,
                      const UniformLoops::UniformLoop *At) {
    const UniformLoops::UniformLoop &U = *G.Loop;
    const AccessSite &Rep = *G.Members.front();
    const DivergencePlan::Access &A = *Rep.A;
    Value *Start = Loops.startBefore(U, Rep.Ptr, *G.Repeat, At);
    Value *Step = Loops.stepBefore(U, *G.Repeat, At);
    Value *Trips = Loops.tripsBefore(U, At);
    IRBuilder<> B((At ? *At : U).PreheaderEnd);
    SmallVector<Value *, 11> Args{genericPointer(B, Start),
                                  B.CreateSExtOrTrunc(Step, B.getInt64Ty()),
                                  B.CreateZExtOrTrunc(Trips, B.getInt64Ty()),
                                  B.getInt32(A.Size),
                                  B.getInt32(uint32_t(*G.LaneStride)),
                                  B.getInt32(A.Space),
                                  B.getInt32(A.Sectored),
                                  rowWidth()};
    static constexpr unsigned Figs[] = {
        PASTA_DIV_SECTORS, PASTA_DIV_IDEAL_SECTORS, PASTA_DIV_BANK_CONFLICTS};
    ++NumLanesTrips;
    if (OutOfLine) {
      // The copy calls the access helpers out of line (its first trip's
      // measurement among them, __pasta_div_access_lanes_out, the same
      // figures): so the fold, its adds in an array of its own.
      IRBuilder<> EB(&*Copy.getEntryBlock().getFirstInsertionPt());
      AllocaInst *Adds = EB.CreateAlloca(
          ArrayType::get(EB.getInt32Ty(), 3),
          Copy.getParent()->getDataLayout().getAllocaAddrSpace(), nullptr,
          "pasta.div.trips.out");
      Args.push_back(Adds);
      Value *Ok = B.CreateCall(H.LanesTripsOut, Args);
      for (auto [K, Fig] : enumerate(Figs)) {
        if (!accessMeasures(A, Fig))
          continue;
        Beyond[Fig] = newRegister("pasta.div.trips.beyond");
        B.CreateStore(B.CreateLoad(B.getInt32Ty(),
                                   B.CreateConstInBoundsGEP2_32(
                                       Adds->getAllocatedType(), Adds, 0, K)),
                      Beyond[Fig]);
      }
      return B.CreateICmpNE(Ok, B.getInt32(0));
    }
    for (unsigned Fig : Figs) {
      if (!accessMeasures(A, Fig)) {
        Args.push_back(discard());
        continue;
      }
      Beyond[Fig] = newRegister("pasta.div.trips.beyond");
      zero(B, {Beyond[Fig]});
      Args.push_back(Beyond[Fig]);
    }
    return B.CreateICmpNE(B.CreateCall(H.LanesTrips, Args), B.getInt32(0));
  }

  static Value *times(IRBuilder<> &B, Value *V, uint64_t Times) {
    return Times == 1 ? V : B.CreateMul(V, B.getInt64(Times));
  }

  // Counter += V, V being 0 in every lane but the one that measured: in a
  // loop to its register (|V| at most Most), else to the counter.
  void addFigure(IRBuilder<> &B, bool InLoop, uint32_t Counter, Value *V,
                 uint64_t Most) {
    if (InLoop) {
      AllocaInst *R = slot(Counter, Most);
      B.CreateStore(B.CreateAdd(B.CreateLoad(B.getInt32Ty(), R),
                                B.CreateTrunc(V, B.getInt32Ty())),
                    R);
      return;
    }
    B.CreateCall(H.Add, {counter(B, Counter), V});
  }

  // Counter's slot in this thread block's row (Row, else the entry's).
  Value *counter(IRBuilder<> &B, uint32_t Counter, Value *Row = nullptr) {
    return B.CreateConstInBoundsGEP1_32(B.getInt64Ty(), Row ? Row : bankRow(),
                                        Counter);
  }

  // This thread block's row computed here: for code that rarely runs in a
  // loop, which should not keep the entry's row live across the loop, and
  // for the flushes.
  Value *freshRow(IRBuilder<> &B) {
    return B.CreateCall(H.BankRow, {T.Counters, B.getInt32(T.NumCounters),
                                    B.getInt32(T.numBanks())});
  }

  // This thread block's row of counters, computed at the entry.
  Value *bankRow() {
    if (!BankRow) {
      IRBuilder<> B(EntryBody);
      BankRow = freshRow(B);
    }
    return BankRow;
  }

  // The uniform loops' figures: in each of their exit blocks, and those
  // that wait for their preheader.
  void emitFolds() {
    for (const UniformLoops::UniformLoop *U : HoistOrder) {
      const HoistedLoop &HL = Hoisted[U];
      IRBuilder<> PB(U->PreheaderEnd);
      emitFoldsAt(PB, /*InLoop=*/true, HL.PreheaderFolds);
      for (BasicBlock *Exit : U->Exits) {
        IRBuilder<> B(&*Exit->getFirstInsertionPt());
        bool InLoop = Loops.inLoop(*Exit);
        emitFoldsAt(B, InLoop, HL.Folds);
      }
    }
  }

  // Registers for one measurement of a group, reused by every group.
  ArrayRef<AllocaInst *> scratch() {
    if (!Scratch[0])
      for (AllocaInst *&R : Scratch)
        R = newRegister("pasta.div.t");
    return Scratch;
  }

  // A register of 32 bits (what the runtime's helpers add to), or 64.
  AllocaInst *newRegister(const Twine &Name, bool Wide = false) {
    IRBuilder<> B(&*Copy.getEntryBlock().getFirstInsertionPt());
    unsigned AS = Copy.getParent()->getDataLayout().getAllocaAddrSpace();
    Type *Ty = Wide ? B.getInt64Ty() : B.getInt32Ty();
    AllocaInst *S = B.CreateAlloca(Ty, AS, nullptr, Name);
    markRuntimeSlot(S);
    B.CreateStore(ConstantInt::get(Ty, 0), S);
    return S;
  }

  // Every register's value (of Only's registers, if given), by counter: a
  // counter's own register plus each group register of its row times the
  // row's accesses.
  std::map<uint32_t, Value *>
  slotValues(IRBuilder<> &B,
             const SmallSetVector<AllocaInst *, 16> *Only = nullptr) {
    std::map<uint32_t, Value *> Values;
    auto AddTo = [&](uint32_t Counter, Value *V) {
      Value *&Sum = Values[Counter];
      Sum = Sum ? B.CreateAdd(Sum, V) : V;
    };
    for (auto &[Counter, Slot] : Slots)
      if (!Only || Only->contains(Slot))
        AddTo(Counter, load(B, Slot));
    for (const GroupSlot &S : GroupSlots)
      if (!Only || Only->contains(S.R)) {
        Value *V = load(B, S.R);
        for (auto [Counter, Times] : S.Counters)
          AddTo(Counter, times(B, V, Times));
      }
    return Values;
  }

  bool noRegisters() const { return Slots.empty() && GroupSlots.empty(); }

  // The 32-bit registers could overflow in a long loop. The header of the
  // innermost loop around each add counts its visits: every cycle through
  // a block passes that header (the pass keeps no add of an irreducible
  // cycle in a register), so between two visits of it a thread runs each
  // block of that loop (outside inner loops) at most once, and adds at
  // most SlotBound (the largest of SlotBounds) to any one register there.
  // Each such header counts its own visits and, every Limit of them, each
  // lane adds the registers added to in its loop to their counters and
  // zeroes them. A register added to under K headers gets fewer than
  // Limit visits' adds from each since it was last drained, so Limit * K *
  // SlotBound < 2^31 keeps it from overflowing. That is every 2^31 / (64 x
  // (size + 2)) visits for a register of an access measured in a loop,
  // 2^11 for one a fold adds to: rare. (Only an access of some 32 MiB,
  // which no GPU load is, could add 2^31 in one visit.) The drain is plain
  // code, not a call (a call in a loop costs the loop registers), and needs
  // no lanes but its own. (A drain of every register at every header, as
  // this was, made the code of a kernel with L loops and R registers grow
  // with L x R.)
  void drainBeforeOverflow() {
    if (noRegisters())
      return;
    uint64_t SlotBound = 1;
    for (auto &[Counter, Most] : SlotBounds)
      SlotBound = std::max(SlotBound, Most);
    for (const GroupSlot &S : GroupSlots)
      SlotBound = std::max(SlotBound, S.Most);
    DominatorTree DT(Copy);
    LoopInfo LI(DT);
    // Each header's registers, those of counters in their order first.
    MapVector<BasicBlock *, SmallSetVector<AllocaInst *, 16>> RegistersOf;
    uint64_t MostHeaders = 1;
    auto AddUsers = [&](AllocaInst *Slot) {
      SmallPtrSet<BasicBlock *, 4> Seen;
      for (User *U : Slot->users())
        if (Loop *L = LI.getLoopFor(cast<Instruction>(U)->getParent()))
          if (Seen.insert(L->getHeader()).second)
            RegistersOf[L->getHeader()].insert(Slot);
      MostHeaders = std::max<uint64_t>(MostHeaders, Seen.size());
    };
    for (auto &[Counter, Slot] : Slots)
      AddUsers(Slot);
    for (const GroupSlot &S : GroupSlots)
      AddUsers(S.R);
    if (RegistersOf.empty())
      return;
    uint64_t Limit =
        std::max<uint64_t>(1, INT32_MAX / (SlotBound * MostHeaders));
    if (DrainVisits)
      Limit = std::min<uint64_t>(Limit, DrainVisits);
    for (auto &[Header, Registers] : RegistersOf) {
      // A header one call visits fewer than Limit times (nw_tile's
      // anti-diagonal: 31) never drains: the flush at the return comes
      // first.
      if (std::optional<uint64_t> Most = Loops.mostVisits(*Header);
          BoundedNoDrain && Most && *Most < Limit) {
        ++NumUndrainedHeaders;
        continue;
      }
      AllocaInst *Visits = newRegister("pasta.div.visits");
      Instruction *Top = &*Header->getFirstInsertionPt();
      IRBuilder<> B(Top);
      Value *N =
          B.CreateAdd(B.CreateLoad(B.getInt32Ty(), Visits), B.getInt32(1));
      B.CreateStore(N, Visits);
      Instruction *Then = SplitBlockAndInsertIfThen(
          B.CreateICmpUGE(N, B.getInt32(uint32_t(Limit))), Top->getIterator(),
          /*Unreachable=*/false);
      markInstrumentation(
          Then->getParent()->getSinglePredecessor()->getTerminator());
      IRBuilder<> DB(Then);
      Value *Row = freshRow(DB);
      for (auto &[Counter, V] : slotValues(DB, &Registers))
        DB.CreateCall(H.Add, {counter(DB, Counter, Row), V});
      zero(DB, Registers.getArrayRef());
      zero(DB, {Visits});
    }
  }

  // The most registers a return flushes with the inline fast path (as
  // counting mode's CounterEmission.cpp, InlineFlushLimit).
  static constexpr size_t InlineFlushLimit = 32;

  // At every return, as counting mode flushes: one test picks the fast path
  // for the usual case (a full warp, every register below 2^27), inline:
  // each register costs one warp sum and at most one `red` by lane 0. The
  // general path stages the registers for the runtime's out-of-line
  // __pasta_flush, one call per run of nearby counters.
  void emitFlush(Instruction *Ret) {
    Module &M = *Copy.getParent();
    LLVMContext &Ctx = M.getContext();
    Type *I64 = Type::getInt64Ty(Ctx);
    PointerType *Global = PointerType::get(Ctx, 1);
    IRBuilder<> B(Ret);
    // With NarrowFlushTests each branch computes its own 64-bit values: a
    // value computed here and used below was extended here, in every warp.
    std::map<uint32_t, Value *> Values;
    if (!NarrowFlushTests)
      Values = slotValues(B);
    auto ValuesAt = [&](Instruction *At) {
      if (!NarrowFlushTests)
        return Values;
      IRBuilder<> VB(At);
      return slotValues(VB);
    };
    // Many registers: the general path alone. An inline warp sum and `red`
    // per register (each a branch) made the copy of a kernel with hundreds
    // of loop figures several times its size, and ptxas's time with it;
    // a flush at the return runs once per thread.
    if (numFlushedCounters() > InlineFlushLimit)
      return emitStagedFlush(Ret, ValuesAt(Ret));
    std::map<uint32_t, Value *> Narrow;
    if (NarrowFlushTests)
      Narrow = narrowValues(B);
    // 32-bit registers alone: their OR, extended where used (the extension
    // of an OR is the OR of the extensions). The lone lane's test, zero or
    // not, takes it zero-extended, which the code generator tests in 32
    // bits; the sign-extended one, which it could not, waits for the
    // warps that go on.
    bool AllNarrow = Narrow.size() == numFlushedCounters();
    Value *Any32 = AllNarrow ? orOf(B, Narrow) : nullptr;
    Value *Any = AllNarrow ? nullptr
                           : orOf(B, NarrowFlushTests ? slotValues(B) : Values);
    Instruction *Rest = Ret;
    if (LoneLaneFlush)
      Rest = emitLoneLaneFlush(B, AllNarrow ? B.CreateZExt(Any32, I64) : Any,
                               Narrow, ValuesAt);
    B.SetInsertPoint(Rest);
    if (AllNarrow)
      Any = B.CreateSExt(Any32, I64);
    FunctionCallee IsFast = M.getOrInsertFunction(FlushIsFastName, I64, I64);
    Value *Fast = B.CreateICmpNE(B.CreateCall(IsFast, {Any}), B.getInt64(0));
    Instruction *FastT, *SlowT;
    SplitBlockAndInsertIfThenElse(Fast, Rest->getIterator(), &FastT, &SlowT);
    markInstrumentation(
        FastT->getParent()->getSinglePredecessor()->getTerminator());
    IRBuilder<> FB(FastT);
    Value *Row = freshRow(FB);
    FunctionCallee FlushFast = M.getOrInsertFunction(
        FlushCounterFastName, FB.getVoidTy(), Global, I64);
    for (auto &[Counter, V] : ValuesAt(FastT))
      FB.CreateCall(FlushFast, {counter(FB, Counter, Row), V});
    Instruction *Staged = SlowT;
    if (PartialWarpFlush)
      Staged = emitPartialWarpFlush(SlowT, Any, Narrow, ValuesAt);
    emitStagedFlush(Staged, ValuesAt(Staged));
  }

  // How many counters the return flushes (slotValues' keys).
  size_t numFlushedCounters() const {
    std::set<uint32_t> Counters;
    for (auto &[Counter, Slot] : Slots)
      Counters.insert(Counter);
    for (const GroupSlot &S : GroupSlots)
      for (auto [Counter, Times] : S.Counters)
        Counters.insert(Counter);
    return Counters.size();
  }

  // The counters whose value at the return is one 32-bit register alone
  // (no other register, no group register times a count, added to it): that
  // register's value, by counter.
  std::map<uint32_t, Value *> narrowValues(IRBuilder<> &B) {
    std::map<uint32_t, std::pair<AllocaInst *, unsigned>> Sources;
    auto Note = [&](uint32_t Counter, AllocaInst *R, uint64_t Times) {
      auto &Source = Sources.try_emplace(Counter, R, 0).first->second;
      Source.second += Times == 1 && Source.first == R ? 1 : 2;
    };
    for (auto &[Counter, Slot] : Slots)
      Note(Counter, Slot, 1);
    for (const GroupSlot &S : GroupSlots)
      for (auto [Counter, Times] : S.Counters)
        Note(Counter, S.R, Times);
    std::map<uint32_t, Value *> Narrow;
    for (auto &[Counter, Source] : Sources)
      if (Source.second == 1 &&
          Source.first->getAllocatedType()->isIntegerTy(32))
        Narrow[Counter] = B.CreateLoad(B.getInt32Ty(), Source.first);
    return Narrow;
  }

  static Value *orOf(IRBuilder<> &B, const std::map<uint32_t, Value *> &Of) {
    Value *Any = nullptr;
    for (auto &[Counter, V] : Of)
      Any = Any ? B.CreateOr(Any, V) : V;
    return Any;
  }

  // The OR of every register's magnitude, v ^ (v >> 63) (v when v >= 0,
  // -v - 1 below), for the signed small test: in 32 bits for the narrow
  // ones (their magnitudes are not negative: zero-extended).
  static Value *magnitudeOf(IRBuilder<> &B,
                            const std::map<uint32_t, Value *> &Narrow,
                            const std::map<uint32_t, Value *> &Values) {
    Value *Narrows = nullptr, *Wides = nullptr;
    for (auto &[Counter, V] : Values) {
      auto It = Narrow.find(Counter);
      Value *X = It != Narrow.end() ? It->second : V;
      unsigned Bits = X->getType()->getIntegerBitWidth();
      Value *Mag = B.CreateXor(X, B.CreateAShr(X, Bits - 1));
      Value *&Sum = It != Narrow.end() ? Narrows : Wides;
      Sum = Sum ? B.CreateOr(Sum, Mag) : Mag;
    }
    if (Narrows)
      Narrows = B.CreateZExt(Narrows, B.getInt64Ty());
    if (Narrows && Wides)
      return B.CreateOr(Narrows, Wides);
    return Narrows ? Narrows : Wides;
  }

  // Where the fast path does not apply (a partial warp, or a large
  // register): lanes whose registers are all small and that can sum
  // together (__pasta_div_flush_lanes_fast, or its signed form) sum each
  // register over their mask, read once, and the first of them adds the sum
  // (__pasta_div_flush_counter_lanes). Every test is a vote of the same
  // lanes, so they reach each sum together. Returns where the others go on
  // (the staged flush).
  template <typename ValuesFn>
  Instruction *emitPartialWarpFlush(Instruction *At, Value *Any,
                                    const std::map<uint32_t, Value *> &Narrow,
                                    ValuesFn ValuesAt) {
    Module &M = *Copy.getParent();
    IRBuilder<> B(At);
    Type *I64 = B.getInt64Ty();
    Value *Test = Any;
    if (SignedLanesFlush)
      Test = magnitudeOf(B, Narrow, ValuesAt(At));
    FunctionCallee LanesFast = M.getOrInsertFunction(
        SignedLanesFlush ? DivFlushLanesFastSignedName : DivFlushLanesFastName,
        I64, I64);
    Value *Fast = B.CreateICmpNE(B.CreateCall(LanesFast, {Test}), B.getInt64(0),
                                 "pasta.div.lanes");
    Instruction *LanesT, *StagedT;
    SplitBlockAndInsertIfThenElse(Fast, At->getIterator(), &LanesT, &StagedT);
    markInstrumentation(
        LanesT->getParent()->getSinglePredecessor()->getTerminator());
    IRBuilder<> LB(LanesT);
    Value *Lanes =
        LB.CreateCall(M.getOrInsertFunction(DivFlushLanesName, I64), {});
    Value *Row = freshRow(LB);
    FunctionCallee Add = M.getOrInsertFunction(
        SignedLanesFlush ? DivFlushCounterLanesSignedName
                         : DivFlushCounterLanesName,
        LB.getVoidTy(), PointerType::get(M.getContext(), 1), I64, I64);
    for (auto &[Counter, V] : ValuesAt(LanesT))
      LB.CreateCall(Add, {counter(LB, Counter, Row), V, Lanes});
    return StagedT;
  }

  // Where at most one lane of the warp holds a nonzero register (Any, the
  // OR of a lane's registers): that lane adds each nonzero one with one
  // `red` (__pasta_div_flush_add, or __pasta_div_flush_add32 for a narrow
  // one), exact since every other lane's are 0. Returns where the other
  // warps go on (the usual flush).
  template <typename ValuesFn>
  Instruction *emitLoneLaneFlush(IRBuilder<> &B, Value *Any,
                                 const std::map<uint32_t, Value *> &Narrow,
                                 ValuesFn ValuesAt) {
    Module &M = *Copy.getParent();
    Type *I64 = B.getInt64Ty();
    FunctionCallee IsLone = M.getOrInsertFunction(DivFlushLoneName, I64, I64);
    Value *Lone = B.CreateICmpNE(B.CreateCall(IsLone, {Any}), B.getInt64(0),
                                 "pasta.div.lone");
    Instruction *LoneT, *RestT;
    SplitBlockAndInsertIfThenElse(Lone, B.GetInsertPoint(), &LoneT, &RestT);
    markInstrumentation(
        LoneT->getParent()->getSinglePredecessor()->getTerminator());
    IRBuilder<> LB(LoneT);
    Value *Row = freshRow(LB);
    PointerType *Global = PointerType::get(M.getContext(), 1);
    FunctionCallee Add =
        M.getOrInsertFunction(DivFlushAddName, LB.getVoidTy(), Global, I64);
    FunctionCallee Add32 = M.getOrInsertFunction(
        DivFlushAdd32Name, LB.getVoidTy(), Global, LB.getInt32Ty());
    for (auto &[Counter, V] : ValuesAt(LoneT)) {
      auto It = Narrow.find(Counter);
      if (It != Narrow.end())
        LB.CreateCall(Add32, {counter(LB, Counter, Row), It->second});
      else
        LB.CreateCall(Add, {counter(LB, Counter, Row), V});
    }
    return RestT;
  }

  // Values staged by runs of counters less than PASTA_DIV_NUM apart (a
  // row's figures, a block's pair), 0 between them, one __pasta_flush each.
  void emitStagedFlush(Instruction *At,
                       const std::map<uint32_t, Value *> &Values) {
    Module &M = *Copy.getParent();
    LLVMContext &Ctx = M.getContext();
    Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
    PointerType *Global = PointerType::get(Ctx, 1);
    PointerType *Generic = PointerType::get(Ctx, 0);
    FunctionCallee Flush = M.getOrInsertFunction(
        FlushName, Type::getVoidTy(Ctx), Global, I32, I32, I32, Generic, I32);
    auto *StageTy = ArrayType::get(I64, PASTA_DIV_NUM);
    if (!Stage) {
      IRBuilder<> EntryB(&*Copy.getEntryBlock().getFirstInsertionPt());
      Stage =
          EntryB.CreateAlloca(StageTy, M.getDataLayout().getAllocaAddrSpace(),
                              nullptr, "pasta.div.flush");
    }
    IRBuilder<> B(At);
    for (auto It = Values.begin(); It != Values.end();) {
      uint32_t First = It->first, Last = First;
      std::array<Value *, PASTA_DIV_NUM> Run{};
      for (; It != Values.end() && It->first - First < PASTA_DIV_NUM; ++It) {
        Run[It->first - First] = It->second;
        Last = It->first;
      }
      for (uint32_t I = 0; I <= Last - First; ++I)
        B.CreateStore(Run[I] ? Run[I] : B.getInt64(0),
                      B.CreateConstInBoundsGEP2_32(StageTy, Stage, 0, I));
      B.CreateCall(Flush, {T.Counters, B.getInt32(T.NumCounters),
                           B.getInt32(T.numBanks()), B.getInt32(First),
                           B.CreatePointerCast(Stage, Generic),
                           B.getInt32(Last - First + 1)});
    }
  }

  Function &Copy;
  ModuleTables &T;
  UniformLoops &Loops;
  const DivHelpers &H;
  uint32_t DrainVisits; // at most this many header visits between drains
  std::map<uint32_t, AllocaInst *> Slots; // by counter
  // groupSlot's registers, in the order made: each with the most one pass
  // through its loop adds to it and its rows' counters with their
  // accesses.
  struct GroupSlot {
    AllocaInst *R;
    uint64_t Most;
    SmallVector<std::pair<uint32_t, uint32_t>, 4> Counters;
  };
  std::vector<GroupSlot> GroupSlots;
  std::map<std::pair<const AccessGroup *, unsigned>, size_t> GroupSlotOf;
  // By counter: the most one pass through a loop adds to its register.
  std::map<uint32_t, uint64_t> SlotBounds;
  // The bodies foldIntervalBody summed at their loop's preheader: the
  // branch, its start and bound there, and which side the body is.
  struct IntervalBody {
    const UniformLoops::IntervalBranch *Branch;
    Value *Start, *Bound;
    unsigned Side;
  };
  DenseMap<const BasicBlock *, IntervalBody> IntervalBodyOf;
  std::deque<AccessGroup> Groups;
  struct EveryTripBody {
    CallInst *Call;                // the header's __pasta_div_branch_body
    Value *All;                    // every lane takes it at every iteration
    Value *FirstWarp, *FirstLanes; // the first lane's adds (1, its lanes)
  };
  SmallVector<EveryTripBody, 2> EveryTrip; // planEveryTrip's
  std::map<const UniformLoops::UniformLoop *, HoistedLoop> Hoisted;
  SmallVector<const UniformLoops::UniformLoop *, 4> HoistOrder;
  std::map<BasicBlock *, AllocaInst *> Executions;
  std::array<AllocaInst *, PASTA_DIV_NUM> Scratch{};
  AllocaInst *Discard = nullptr;
  SmallPtrSet<const AccessGroup *, 4> AlignedBase; // rowBasesAtEntry
  // rowBasesAtEntry's tests, by block (baseTestBlock).
  DenseMap<const BasicBlock *, Value *> RowBasesOff;
  DenseMap<std::pair<Value *, Value *>, Value *> RowOrBasesOff;
  // Whether the access helpers are called out of line (many groups), and
  // the array they write their figures to.
  bool OutOfLine = false;
  SmallVector<Instruction *, 4> RareMarked; // markRare's
  // The AccessLanes calls of FullRow groups (rows32Calls).
  SmallVector<CallInst *, 8> FullRowCalls;
  // Every AccessLanes call (rows16Calls), and those of groups repeating in
  // a uniform loop (rows32Calls).
  SmallVector<CallInst *, 8> LanesCalls, RepeatCalls;
  AllocaInst *OutArray = nullptr;
  // planBatches': the batches, each batched group's, the largest's size,
  // and the arrays of staged addresses and of the figures (stageInBatch).
  std::vector<std::unique_ptr<Batch>> Batches;
  DenseMap<const AccessGroup *, const Batch *> BatchOf;
  size_t MaxBatch = 0, MaxBatchRows = 0;
  AllocaInst *BatchPtrs = nullptr, *BatchOut = nullptr;
  AllocaInst *Stage = nullptr; // the general path's staging, made on demand
  Value *BankRow = nullptr;    // for figures added where measured
  Value *RowWidth = nullptr;
  Value *BinsWarp = nullptr;
  std::optional<bool> BinTagsFit;         // roomForBinTags
  Value *StackedW = nullptr;              // __pasta_div_stacked_width()
  Value *StackedIs16 = nullptr;           // stackedIs16()
  std::map<uint32_t, Value *> MeasuredIn; // by stacked width
  // Whether the lanes agree on a RowsProven group's lane selects, tested
  // once where it decides whether to measure.
  DenseMap<const AccessGroup *, Value *> AgreeOf;
  // agreeAtEntry's vote by condition (null: not computable at the entry).
  DenseMap<Value *, Value *> EntryAgree;
  // The plan's launch classes, and the derived-body helper calls by the
  // None counter they add to (planLaunchFigures).
  ArrayRef<DivergencePlan::LaunchClass> LaunchClasses;
  DenseMap<uint32_t, CallInst *> NoneCalls;
  DenseMap<const AccessGroup *, LaunchFigures> LaunchOf;
  // Each launch class's bits: address and offset (launchClassAtEntry).
  std::map<const DivergencePlan::LaunchClass *,
           SmallVector<std::pair<Value *, uint32_t>, 2>>
      ClassBits;
  // recomputedAtEntry's copies at the entry, by original.
  DenseMap<Value *, Value *> EntryCopies;
  // __pasta_div_full_row's test by the function's block and segment.
  std::map<std::tuple<const BasicBlock *, uint32_t, uint32_t>, Value *>
      FullRowOf;
  std::map<uint32_t, Value *> FullRowWidth; // by stacked width
  // repeatRow's test by block and segment, and its width by row width.
  std::map<std::tuple<const BasicBlock *, uint32_t, uint32_t>, Value *>
      RepeatRowOf;
  std::map<uint32_t, Value *> RepeatRowWidth;
  // knownApart's test by step and least gap.
  std::map<std::pair<const SCEV *, uint32_t>, Value *> KnownApartOf;
  std::map<const SCEV *, Value *> KnownGapOf; // |step| by step
  std::optional<bool> ThreadY;                // readsThreadY's answer
  // The entry block's first instruction before any register was made: the
  // registers go above it, code at the top of the entry block before it.
  Instruction *EntryBody;
  // Every loop of the copy is uniform and it calls no function with a body
  // (onlyUniformLoops), under -pasta-div-rows-uniform-loops.
  bool UniformLoopsOnly;
  // The copy has a divergent loop whose trips loaded data decide
  // (hasDataLoop; DataLoopAfterLoad).
  bool DataLoopCopy;
};

CopyMeasures::CopyMeasures(Function &Copy, ModuleTables &T, UniformLoops &Loops,
                           const DivHelpers &H, uint32_t DrainVisits)
    : P(std::make_unique<Impl>(Copy, T, Loops, H, DrainVisits)) {}
CopyMeasures::~CopyMeasures() = default;

void CopyMeasures::addBlock(BasicBlock &BB,
                            const DivergencePlan::Block &Planned) {
  P->addBlock(BB, Planned);
}
void CopyMeasures::addSegment(Instruction &Call, uint32_t Warps) {
  P->addSegment(Call, Warps);
}
void CopyMeasures::addBranch(Instruction &Term, uint32_t Row,
                             const DivergencePlan::NoneTaken *NT,
                             bool Divergent) {
  P->addBranch(Term, Row, NT, Divergent);
}
void CopyMeasures::planAccesses(ArrayRef<AccessSite> Sites) {
  P->planAccesses(Sites);
}
void CopyMeasures::setLaunchClasses(
    ArrayRef<DivergencePlan::LaunchClass> LaunchClasses) {
  P->setLaunchClasses(LaunchClasses);
}
void CopyMeasures::measureAccesses() { P->measureAccesses(); }
void CopyMeasures::emitFlushes() { P->emitFlushes(); }
std::array<unsigned, 11> CopyMeasures::accessGroups() const {
  return P->accessGroups();
}

std::optional<SmallVector<CallInst *, 8>>
CopyMeasures::rows32Calls(bool AnyRowTerm) const {
  return P->rows32Calls(AnyRowTerm);
}
bool CopyMeasures::rowsInLoops() const { return P->rowsInLoops(); }
bool CopyMeasures::measuresScatteredAtomics() const {
  return P->measuresScatteredAtomics();
}
std::optional<SmallVector<CallInst *, 8>> CopyMeasures::rows16Calls() const {
  return P->rows16Calls();
}
ArrayRef<CallInst *> CopyMeasures::fullRowCalls() const {
  return P->fullRowCalls();
}
