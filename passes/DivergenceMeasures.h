//===- DivergenceMeasures.h - The measuring code of one copy ----*- C++ -*-===//
//
// The code a divergence copy (Divergence.h) measures its planned blocks,
// segments, branches and accesses with, and its registers' flushes: one
// CopyMeasures per copy, filled by createDivergenceVariants
// (DivergenceEmission.cpp), which finds the planned instructions in the
// copy.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_DIVERGENCEMEASURES_H
#define PASTA_PASSES_DIVERGENCEMEASURES_H

#include "Divergence.h"
#include "ModuleTables.h"
#include "UniformLoops.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/CommandLine.h"

#include <array>
#include <cstddef>
#include <memory>
#include <optional>

namespace pasta {

// The runtime's measuring helpers (device_rt/device_rt_div*.inc.c).
struct DivHelpers {
  llvm::FunctionCallee Access, AccessLanes, Branch, Switch, Block, Add, BankRow,
      AllLanes, Uniform, RowWidth, StackedWidth;
  // The access helpers out of line, their figures written to an array;
  // AccessBatchOut: a batch of one line's accesses in one call
  // (include/pasta/div_batch.h).
  llvm::FunctionCallee AccessOut, AccessLanesOut, AccessBatchOut;
  // A full warp of one 32-lane row, and a global access's sectors there
  // beyond the derived ones (AccessGroup::FullRow).
  llvm::FunctionCallee FullRow, RowSectors;
  // AccessLanes's one-row path alone, for the body of rows of 32
  // (DivergenceRows32.cpp).
  llvm::FunctionCallee AccessRow32;
  // __pasta_div_access_rows16: AccessLanes in warps of two 16-lane rows
  // (DivergenceRows32.cpp).
  llvm::FunctionCallee AccessRows16;
  // Access for a shared atomic at a constant base plus the size times a
  // bin below 256, which it takes too, as its byte in the warp's 256 of
  // the runtime's tags (CopyMeasures' binOf); BinsWarp: the first of those.
  llvm::FunctionCallee AccessBins, BinsWarp;
  // The branch, switch and block helpers for code outside loops: they add
  // to the counters themselves.
  llvm::FunctionCallee BranchAdd, SwitchAdd, BlockAdd;
  // A branch's executions in which no lane took an if-then body's side
  // (DivergencePlan::NoneTaken), with its divergent ones when measured.
  llvm::FunctionCallee BranchNoneAdd;
  // The same, for a body whose warps are the grid's blocks times block 0's
  // (DivergencePlan::NoneTaken::Launch).
  llvm::FunctionCallee BranchLaunchAdd;
  // The executions in which no lane and every lane took a split body's side
  // (DivergencePlan::NoneTaken::All), its divergent ones derived.
  llvm::FunctionCallee BranchSplitAdd;
  // A kernel entry's warps and threads, added once per launch; its warps
  // to a launch class's counter, in launches of that class
  // (DivergencePlan::LaunchClass).
  llvm::FunctionCallee CountLaunch, CountLaunchWarps;
  // A kernel's sole return: the groups of lanes without lane 0
  // (DivergencePlan::Block::Regroups).
  llvm::FunctionCallee ReturnAdd;
  // A branch in a loop with the counters of a block entered only from it.
  llvm::FunctionCallee BranchBody;
  // The same summed over a loop's trips at its preheader, for a branch on
  // an interval of the iteration (UniformLoops::intervalBranch).
  llvm::FunctionCallee IntervalBody;
  // A shared access's bank conflicts in such a body, summed likewise.
  llvm::FunctionCallee IntervalConflicts;
  // A lane-shaped access measured once per entry of a uniform loop whose
  // step is not a multiple of a sector: the trips' one-row figures beyond
  // the first trip's (CopyMeasures::foldLanesTrips).
  llvm::FunctionCallee LanesTrips;
  // The same out of line, its three adds to an array (copies that call
  // the access helpers out of line).
  llvm::FunctionCallee LanesTripsOut;
};

// A planned access in a divergence copy: its pointer there.
struct AccessSite {
  const DivergencePlan::Access *A;
  llvm::Instruction *I;
  llvm::Value *Ptr;
};

// For DivergenceMeasures.cpp's CopyMeasures only:
// Accesses of one block with the same figures (same size, kind and space,
// addresses a constant multiple of the granule apart): measured once, at the
// first, or once per entry of the uniform loop holding the block when the
// first's address repeats there (Repeat).
struct AccessGroup {
  llvm::SmallVector<const AccessSite *, 4> Members;
  const UniformLoops::UniformLoop *Loop = nullptr;
  std::optional<UniformLoops::Repeat> Repeat;
  bool InLoop = false;               // the block is in a loop (uniform or not)
  bool InBarrierLoop = false;        // ... whose trips hold a block barrier
  std::optional<int64_t> LaneStride; // the first's (UniformLoops::laneStride)
  // The conditions the lanes must agree on for LaneStride to hold (selects
  // in the address: UniformLoops::laneStrideIf); tested at each measurement.
  llvm::SmallVector<llvm::Value *, 2> LaneConds;
  // The clamps whose lane-affine operand every lane must take for it
  // (UniformLoops::LaneArm); tested likewise.
  llvm::SmallVector<UniformLoops::LaneArm, 2> LaneArms;
  // Whether LaneStride holds only where a test at the measurement says so.
  bool laneTested() const { return !LaneConds.empty() || !LaneArms.empty(); }
  // Not lane-shaped as far as the pass can tell, but worth the general
  // helper's test of its lanes for rows at run time (tryRows).
  bool TryRows = false;
  // Not measured at all: one address in every lane (wholeAtOnce), its
  // figures all derived at read-back.
  bool Proven = false;
  // Measured only in warps whose lanes are not one row of 32, or do not
  // agree on LaneConds (LaneAffine.h): in the others its derived figures
  // are exact; nor in warps of StackedWidth-wide rows stacked in y when
  // the address's y term is StackedWidth times its x term (0: none such).
  bool RowsProven = false;
  uint32_t StackedWidth = 0;
  // Of a RowsProven or FullRow group, or a lane-shaped one repeating in a
  // uniform loop: its address has no term in thread index y
  // (UniformLoops::rowStride 0), as in kernels written for one-dimensional
  // blocks.
  bool NoRowTerm = false;
  // Whether it is known to have one (a kernel for 2-D blocks).
  bool RowTerm = false;
  // Of a group outside loops whose accesses all lie in a run of loads that
  // follows a block barrier in their block: the instruction just after the
  // run, where it is measured (barrierLoadsEnd), so that every load of the
  // run issues before any measurement; null: none.
  llvm::Instruction *AfterBarrierLoads = nullptr;
  // A global load or store whose figures in a full warp of one 32-lane row
  // are the derived ones but for its sectors past its base's
  // (div_proofs.h, pasta_div_full_row_form): in such warps, tested once
  // per block, the copy adds that difference (__pasta_div_row_sectors);
  // other warps measure it.
  bool FullRow = false;
  // Of a FullRow group whose address has no term in thread index y: the
  // width W (16) of rows stacked in y in whose full warps every row is on
  // the same bytes (div_proofs.h, pasta_div_repeat_rows), which add their
  // figures beyond the derived ones from lane 0 instead of measuring; 0:
  // none.
  uint32_t RepeatWidth = 0;
  // Of a FullRow group with another y term, or a RowsProven global load or
  // store with a y term (behind a lane select or clamp too: then only in
  // warps whose lanes agree on it): the width W (16) of rows stacked in y
  // in whose full warps, where the two rows start a multiple of 32 bytes
  // apart and far enough (one shuffle tells), the figures beyond the
  // derived ones follow from lane 0 (div_proofs.h, pasta_div_apart_rows);
  // 0: none.
  uint32_t ApartWidth = 0;
  // Of a group with an ApartWidth: its y term in bytes where a constant
  // (UniformLoops::rowStride): the two rows' gap, known without a shuffle.
  std::optional<int64_t> ApartStep;
  // Of a group with an ApartWidth: its y term in bytes as an expression of
  // the kernel's arguments (UniformLoops::rowStep), where one is known: the
  // rows' gap computed once at the entry instead of shuffled; null: none.
  const llvm::SCEV *ApartStepExpr = nullptr;
  // Where ApartStepExpr is the step of the address with one clamp of y
  // replaced by its moving operand (srad's J[max(y - 1, 0) * n + x]): the
  // lane's test that the clamp takes that operand; the step holds in warps
  // where every lane's does (DivergenceMeasures.cpp, yClampStep).
  llvm::Value *YClampArm = nullptr;
  // Of a RowsProven shared 4-byte group whose y term is a constant other
  // than StackedWidth times its x term (a padded tile's row, a word per
  // row): the bank
  // conflicts of a full warp of GapWidth-wide rows stacked in y
  // (div_proofs.h, pasta_div_stacked_conflicts), which such warps add
  // instead of measuring it; -1: none.
  int GapConflicts = -1;
  // And its distinct bytes in such a warp less the derived ones (rows of
  // one word each at stride 0: 4 per row beyond the first).
  int GapExtraBytes = 0;
  // Later groups of the block measured alike whose addresses are this
  // one's from another base, both arguments of the function (the same
  // index: srad's J[idx], dN[idx], c[idx]): where every twin's base is a
  // multiple of the figure granule from this one's (TwinOk, tested before
  // this group's measurement; cudaMalloc's buffers always are), their
  // figures are this group's, which its measurement adds to their rows
  // too; the twins measure themselves only where that test fails.
  llvm::SmallVector<AccessGroup *, 2> Twins;
  AccessGroup *TwinOf = nullptr; // of a twin: its leader
  llvm::Value *TwinOk = nullptr; // of a leader
};

// A copy with more access groups than this calls the access helpers out of
// line (__pasta_div_access_out): each inlined helper is some 30 basic
// blocks of warp-level code, so a kernel with hundreds of accesses got a
// copy tens of times its size (a generated kernel of 67 blocks: 3,985 in
// its copy, and ptxas over a minute on it). The bundled kernels have at
// most 27 (lud's perimeter kernel) and keep the helpers inline; CUB's radix
// sort kernels (49 to 219) do not.
inline constexpr size_t OutOfLineAccessGroups = 32;

// Groups compared with each new access of a block (bounds the planning
// time of huge unrolled blocks).
inline constexpr size_t MaxGroupsCompared = 32;

// One divergence copy being instrumented (DivergenceMeasures.cpp says
// where each figure goes). Its blocks, segments and branches first, then
// its accesses block by block; then measureAccesses and emitFlushes, once.
class CopyMeasures {
public:
  CopyMeasures(llvm::Function &Copy, ModuleTables &T, UniformLoops &Loops,
               const DivHelpers &H, uint32_t DrainVisits);
  ~CopyMeasures();

  // The counters of Planned's block (in the copy: BB), measured at its top.
  void addBlock(llvm::BasicBlock &BB, const DivergencePlan::Block &Planned);
  // The warp executions after a call (DivergencePlan::Segment).
  void addSegment(llvm::Instruction &Call, uint32_t Warps);
  // A conditional branch or switch's divergent executions (unless
  // !Divergent: derived from an earlier branch's), and the executions in
  // which no lane took the side of the body NT derives (if any).
  void addBranch(llvm::Instruction &Term, uint32_t Row,
                 const DivergencePlan::NoneTaken *NT, bool Divergent);
  // The accesses of one block, in order.
  void planAccesses(llvm::ArrayRef<AccessSite> Sites);
  // The plan's launch classes (DivergencePlan::LaunchClass), before
  // measureAccesses.
  void
  setLaunchClasses(llvm::ArrayRef<DivergencePlan::LaunchClass> LaunchClasses);
  void measureAccesses();
  // The registers' flushes at every return.
  void emitFlushes();
  // Access groups planned, how many of them are lane-shaped (a known
  // stride per thread index x: UniformLoops::laneStride), how many are
  // not measured at all (AccessGroup::Proven), how many only where the
  // rows of lanes are not 32 wide (AccessGroup::RowsProven), of those
  // how many not in rows stacked in y either (AccessGroup::StackedWidth),
  // and how many are taken by arithmetic in full 32-lane rows
  // (AccessGroup::FullRow); then those behind a clamp, those in their
  // callers' space, and the shared ones whose full warps of 16-wide rows add
  // their bank conflicts from their strides (AccessGroup::GapConflicts),
  // and the twins measured by their leader's measurement (AccessGroup::TwinOf),
  // and the groups whose full warps' figures read-back derives per launch
  // class (DivergencePlan::LaunchClass).
  std::array<unsigned, 11> accessGroups() const;
  // The AccessLanes calls that measure a FullRow group in the warps that
  // are not full (an aligned global load or store of a power-of-2 size),
  // when every group that is measured at all is FullRow, or RowsProven
  // without a lane test, and its address has no term in thread index y, or
  // a shared atomic no lane shape describes (measuresScatteredAtomics):
  // in a call whose warps are rows of 32 the copy
  // then measures with nothing but the one-row path
  // (DivergenceRows32.cpp). None otherwise (also when nothing is
  // measured, or the helpers are out of line).
  // With AnyRowTerm, the same for addresses with a term in thread index y
  // too (for a copy that also gets a body for rows of 16).
  std::optional<llvm::SmallVector<llvm::CallInst *, 8>>
  rows32Calls(bool AnyRowTerm = false) const;
  // Whether the copy measures a shared-memory atomic whose address no lane
  // shape describes (a histogram's bin), which keeps rows32Calls open: its
  // general helper takes no row width.
  bool measuresScatteredAtomics() const;
  // Whether the copy's loops may be in the bodies of addRows32Body and its
  // groups repeating in a uniform loop take the one-row path there:
  // -pasta-div-rows-loops, or a copy whose loops are all uniform (every
  // branch in them warp-uniform), that calls no function with a body and
  // whose loops measure nothing in their trips (each group in a loop
  // measured once per entry, or never: -pasta-div-rows-uniform-loops).
  // Valid once the accesses are planned.
  bool rowsInLoops() const;
  // Every AccessLanes call of the copy (FullRow and RowsProven groups),
  // when every group measured at all is one of those without a lane test,
  // of a known space, at stride 0 or its size (a power of 2 up to 32), each
  // access aligned to that size, and some group's address has a known term
  // in thread index y (a kernel for blocks of two dimensions, whose rows may
  // be 16 wide): in calls whose warps hold two rows of 16 lanes they take
  // __pasta_div_access_rows16 (DivergenceRows32.cpp). None otherwise.
  std::optional<llvm::SmallVector<llvm::CallInst *, 8>> rows16Calls() const;
  // The AccessLanes calls of the copy's FullRow groups (aligned global loads
  // and stores of a power-of-2 size at a stride AccessRow32 takes), whatever
  // the other groups: addRareApart's common body, whose warps are rows of
  // 32, measures them with AccessRow32. Valid until the copy's code changes.
  llvm::ArrayRef<llvm::CallInst *> fullRowCalls() const;

private:
  class Impl;
  std::unique_ptr<Impl> P;
};

// The metadata that marks a twins' test (AccessGroup::TwinOk), a value of
// the copy's arguments alone; its operand is how many twins it covers.
inline constexpr const char *TwinsOkMD = "pasta.div.twins.ok";

// Metadata on a kernel copy's entry values that say whether a warp takes a
// rarely measured group's measurement (CopyMeasures' rarelyMeasured): its
// operand is the value the copy's common body may take it as (false for
// %pasta.div.not32, true for an entry vote that the lanes agree).
inline constexpr const char *RareMD = "pasta.div.rare";

// Where the kernel copy Copy has such values (RareMD): tests them once at
// its entry, per warp, and where every one is its common value (a warp of
// one 32-lane row whose lanes agree on every select voted at the entry:
// all but a grid's edge warps in 1-D launches) runs the copy with them
// folded, the rarely measured groups' code gone (pathfinder: their inline
// helpers, never run there, held the registers its cap spilled); else the
// copy as it was, a function of its own (Copy's name + "_rare"). Returns
// false, changing nothing, when Copy has no such value, calls a function
// with a body or takes an argument by value. Run after addTwinsApart.
// The common body's warps are rows of 32 (%pasta.div.not32 false there):
// its row widths are 32 and its FullRowCalls (the copy's fullRowCalls that
// are left) AccessRow32, so no general access helper stays in it
// (CommonRows32 says so; -pasta-div-rare-rows32=0: not done).
bool addRareApart(llvm::Function &Copy, const DivHelpers &H,
                  llvm::ArrayRef<llvm::CallInst *> FullRowCalls,
                  bool &CommonRows32);

// Where the kernel copy Copy tests whether twin groups' bases are a granule
// apart (TwinsOkMD): tests them all once at its entry and, where they all
// hold (cudaMalloc's buffers), runs the copy with each test true, its twins'
// own measurements gone (they held registers the cap spilled: srad); else
// the copy as it was, a function of its own (Copy's name +
// "_twins_apart"). Returns false, changing nothing, when Copy has no such
// test. Run after addRows32Body (its bodies then test nothing of their
// own); a copy with those bodies (HasRowBodies), or with fewer twins than
// -pasta-div-twins-min, gets its tests false instead: its twins measure
// themselves, as without twins (in its general kernel GeneralKernel, where
// it has one, too).
bool addTwinsApart(llvm::Function &Copy, bool HasRowBodies,
                   llvm::StringRef GeneralKernel = {});

// -pasta-div-rows-loops: copies with loops may get the bodies of
// addRows32Body, and groups repeating in a uniform loop do not keep them out.
extern llvm::cl::opt<bool> DivRowsLoops;
// -pasta-div-rows-uniform-loops: the same for copies whose loops are all
// uniform (CopyMeasures::rowsInLoops).
extern llvm::cl::opt<bool> DivRowsUniformLoops;

// Gives the kernel copy Copy, whose rows32Calls are Row32Calls, a body for
// calls whose warps are rows of 32 lanes
// (__pasta_div_row_width() == 32: a block whose x size is a multiple of 32,
// or one-dimensional): there the row width is 32, a FullRow group's
// measuring call is AccessRow32 and a RowsProven group is never measured,
// so no general access helper is left in it. Other calls run the copy as it
// was, a function of its own (Copy's name + "_general") that the entry
// calls with the kernel's arguments when the width is not 32: its code,
// the bulk of the copy's registers, is then outside the body the usual
// launches run, and the copy's register cap spills it there alone.
// Returns false, changing nothing, when the copy calls a function with a
// body or takes an argument by value.
// With Rows16Calls (the copy's rows16Calls), also a body for calls whose
// warps hold two rows of 16 lanes (__pasta_div_row_width() == 16: blocks 16
// threads wide), in which those calls are AccessRows16 and the width is 16:
// the entry then chooses among the two bodies and the general function.
// With GeneralKernel (and no Rows16Calls) the host chooses instead: the
// copy as it was is a kernel of that name, launched for blocks whose warps
// are not rows of 32 (host_rt/launch.c), and Copy is the body for rows of
// 32 alone, with no test.
bool addRows32Body(llvm::Function &Copy,
                   llvm::ArrayRef<llvm::CallInst *> Row32Calls,
                   const DivHelpers &H,
                   llvm::ArrayRef<llvm::CallInst *> Rows16Calls = {},
                   llvm::StringRef GeneralKernel = {});

} // namespace pasta

#endif
