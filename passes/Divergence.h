//===- Divergence.h - Divergence copies of kernels --------------*- C++ -*-===//
//
// With PASTA_DIVERGENCE=1, every instrumented kernel (and device function it
// reaches) gets a copy <name>__pasta_div: its counting code plus warp-level
// measurements (device_rt_div*.inc.c) of each global, shared or
// generic memory access, each conditional branch and switch, and the
// instructions of each (block, line). Only the first active lane of a warp
// adds a figure: to the counters of the module's divergence rows (one per
// function and source line) where it is measured outside loops, else to a
// per-thread register flushed at every return like the block counters. The
// counting code and its counters are the same as in the kernel itself.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_DIVERGENCE_H
#define PASTA_PASSES_DIVERGENCE_H

#include "ModuleTables.h"
#include "Selection.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PassManager.h"

#include <vector>

namespace pasta {

// What the divergence copies measure, found on the original functions
// before the counting code goes in, each tied to a row of T.DivRows.
struct DivergencePlan {
  struct Access {
    llvm::Instruction *I;
    uint32_t Row, Size, Space; // Space: enum pasta_div_space
    uint32_t Warps, Threads;   // its block's counters (Block, or its Segment)
    bool Sectored;             // a load or store (not an atomic)
    // Space is the callers' (a device function's pointer parameter whose
    // every call hands it pointers of one known space).
    bool CallersSpace = false;
  };
  struct Branch {
    llvm::Instruction *Term; // a conditional br or a switch
    uint32_t Row;
    uint32_t Warps; // its block's warp executions (or its Segment's)
    // Its divergent executions are an earlier branch's on the same
    // condition and lanes (derived, not measured).
    bool Repeated = false;
  };
  // A block's two counters: its warp-level executions (Warps) and their
  // active lanes (Threads): the counting code's counter of the block (its
  // thread-level executions) where it has one, else one of the copy's own
  // (OwnThreads). Its lines' instruction figures, its branch's executions
  // and its accesses' requests and requested bytes are derived from them
  // at read-back (T.Derived): a block's instructions all run with the lanes
  // at its top. A block that runs once after each run of a block above it,
  // with its lanes (DivergencePlan.cpp, runsOnceAfter), or exactly when an
  // earlier branch on the same condition took the same side
  // (sameSideBlock), shares that block's counters and is not measured
  // itself.
  // A kernel's entry block is not measured either: its warp executions
  // and their lanes are the warps and threads each launch starts, which
  // the grid's first thread adds once (Launch).
  // A kernel's sole return, which every thread a launch starts runs once
  // (DivergencePlan.cpp, soleReturn), is not measured either: its active
  // lanes are the launch's threads, and its warp executions the launch's
  // warps plus, in each warp whose lanes come to it apart, one per group
  // of them that does not hold lane 0 (every warp starts with lane 0 and
  // exactly one of its groups holds it), which such groups add to
  // Regroups (__pasta_div_return_add): a warp that comes whole adds
  // nothing.
  struct Block {
    llvm::BasicBlock *BB;
    uint32_t Warps, Threads;
    bool OwnThreads;
    bool Measured = true;
    bool Launch = false;
    uint32_t Regroups = PASTA_NONE;
  };
  // The code after a call in a block: its lanes may be fewer warp-level
  // executions than the block's top had (the callee's code reconverges
  // lanes that came in apart), so its accesses' and branches' figures come
  // from warp executions counted right after the call.
  struct Segment {
    llvm::Instruction *After; // the call
    uint32_t Warps;
  };
  // A block outside loops entered only from one side of a two-way branch
  // (if-then bodies: DivergencePlan.cpp, derivedBody): its warp executions
  // are the branch block's less the branch's executions in which no active
  // lane took that side (Side 0: the true one), which the branch's helper
  // counts in None (rare for a guarded body), so the block adds nothing.
  // With Launch (DivergencePlan.cpp, launchBody: the branch's block runs
  // once per thread, every thread block alike, on a condition of the
  // thread's place in its block), None is the block's warps themselves:
  // block 0's warps that take Side add the grid's blocks each
  // (__pasta_div_branch_launch_add), the other blocks nothing.
  // Others (unless PASTA_NONE): where the counting code does not count the
  // block, the active lanes at the branch that do not take Side, so that
  // its thread-level executions are the branch block's less those.
  // All (unless PASTA_NONE; DivergencePlan.cpp, splitBody): the branch's
  // executions in which every active lane takes Side, counted instead of
  // its divergent ones, which read-back derives as its executions less None
  // and All (a lane test such as `lane == 0`, which splits most warps).
  struct NoneTaken {
    llvm::Instruction *Term; // a conditional br
    unsigned Side;
    uint32_t None;
    bool Launch = false;
    uint32_t Others = PASTA_NONE;
    uint32_t All = PASTA_NONE;
  };
  // Launch classes: where a block's warp executions are a launch's warps
  // (the kernel entry's counter, Block::Launch) less those a derived body's
  // branch counts in None (or none: the entry's, and the blocks that share
  // its counters), both counted again per class of launches that a copy
  // tells at its entry from the launch's values alone (the block shape, the
  // arguments): LaunchWarps, the first of NumLaunchClasses counters of the
  // launch's warps, added by the grid's first thread in a launch of that
  // class; NoneClasses, as many of the branch's None adds made in such
  // launches (each added to None too). Their
  // differences are the block's warp executions in each class of launches,
  // from which read-back derives what a copy would add in every full warp
  // (DivergenceMeasures.cpp, launch-derived figures). Kernels for 2-D blocks
  // only (they read thread index y), NVPTX.
  static constexpr uint32_t NumLaunchClasses = 4;
  struct LaunchClass {
    uint32_t Warps;       // the block's warp counter
    uint32_t LaunchWarps; // first of NumLaunchClasses
    uint32_t None = PASTA_NONE;
    uint32_t NoneClasses = PASTA_NONE; // first of NumLaunchClasses
  };
  std::vector<LaunchClass> LaunchClasses;
  std::vector<Access> Accesses;
  std::vector<Branch> Branches;
  std::vector<NoneTaken> NoneTakens;
  std::vector<Block> Blocks;
  std::vector<Segment> Segments;
};

// Adds the divergence rows of the planned device functions to T, each with
// PASTA_DIV_NUM new counters, a counter or two per block and the rows
// deriving figures from them (T.NumCounters grows: call before the counters
// are created; after counter placement, whose derived rows must come
// first).
DivergencePlan planDivergence(llvm::ArrayRef<FunctionPlan> Plans,
                              ModuleTables &T,
                              llvm::FunctionAnalysisManager &FAM,
                              int MaxRegisters);

// After the counting code: the copies of Fns, measuring Plan (figures that
// repeat in loops whose branches are warp-uniform taken once per loop
// entry, UniformLoops.h). NVPTX kernels' copies get at most MaxRegisters
// registers per thread (0: no cap; negative: 48, or 64 for a kernel that
// loops). The copies' 32-bit registers are drained at least every
// DrainVisits loop-header visits (0: as rarely as their bound allows).
// With a cap (NVPTX), the kernels in Serial get a copy for one-lane warps
// (DivergenceOneLane.h), the others a stub in its place.
void createDivergenceVariants(
    llvm::Module &M, llvm::ArrayRef<llvm::Function *> Fns,
    const DivergencePlan &Plan, ModuleTables &T,
    llvm::FunctionAnalysisManager &FAM, int MaxRegisters, uint32_t DrainVisits,
    const llvm::SmallPtrSetImpl<llvm::Function *> &Serial);

// Whether Kernel (uninstrumented) is loop-free and stages data through a
// shared tile (a block barrier and shared loads or stores: coalescing's
// transposes), so that its copy gets the 32-register tile cap
// (-pasta-div-tile-cap32): only where that cap is the automatic one
// (MaxRegisters < 0, as createDivergenceVariants takes it), not under a
// cap the user set, launch bounds, a lower cap of the kernel's own, or a
// copy left uncapped for its small blocks.
bool tileCappedKernel(llvm::Function &Kernel, int MaxRegisters,
                      llvm::FunctionAnalysisManager &FAM);

} // namespace pasta

#endif
