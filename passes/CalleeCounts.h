//===- CalleeCounts.h - Callees that return their counts --------*- C++ -*-===//
//
// A device function that is not inlined used to flush its counts (a warp
// vote, warp sums, atomics) at every return: a kernel calling one millions
// of times ran several times slower. Instead, a device function called
// directly from the kernels hands its counts back to its caller, and only
// the kernel flushes them, once per thread, at its exit. Two steps:
//
//  1. Before planning (createCountTwins): every device function that the
//     selected kernels reach by direct calls, and that can be copied
//     (not recursive, not variadic, no thread-ending inline assembly, no
//     musttail call), gets a twin, <name>__pasta_callee, an internal copy
//     that the kernels' and twins' direct calls go to. The original keeps
//     every other use (calls through pointers, other modules), counted as
//     before; an internal original left without uses is removed. A twin's
//     pointer parameter that is global at every call (a kernel's pointer
//     argument, or another twin's such parameter) is global for the
//     counting too: its accesses need no run-time address-space test.
//     Twins are planned like any device function, under the original's
//     name, so their rows merge with the original's in the profile.
//
//  2. After planning (planReturnedCounts): a twin whose counters that may
//     be non-zero, its own and those it carries for the twins it calls,
//     fit in ReturnLimit, returns them with its value, in a struct (PTX
//     .param, kept in registers by ptxas); its callers add them to
//     registers of their own (at most AccumulatorLimit each) and flush
//     them with their own counts, or hand them on. Its calls are counted
//     by the host from the counter of the block each call is in (a
//     derived-counter row), where that block has one; else by the caller.
//     The others flush at every return as before, their calls counter
//     aside where every call's block counts the calls (derived too), but
//     for the frame twins of counting builds (below).
//
//  3. With -mllvm -pasta-callee-frames (off by default: faster for
//     AutoDock-GPU's gpu_calc_energrad, 50 counts and ~249 M calls, slower
//     on four structures; CalleeCounts.cpp), in counting builds only: a
//     twin over ReturnLimit that calls no frame twin is a frame twin. It
//     adds its counts, at each return, into a frame its caller owns (an
//     array of 64-bit counts in the caller's local memory, zeroed at the
//     caller's entry, passed as a hidden last parameter): a local load, an
//     add and a store per count, where a flush costs a vote, warp sums and
//     atomics. The owner hands the frame as it is to the runtime's indexed
//     flush at its exits, and flushes at its own returns (it neither
//     returns counts nor adds into a frame).
//
// Divergence builds too: the divergence copies call the twins' copies and
// hand the counting counts back the same way (the twins' divergence
// figures leave as any device function's). Their plan, made before step
// 2, reads the twins' block counters (derived rows, ordered after the
// twins') and counts warps after calls (moved to the new calls:
// ReturnedCounts::CallReplaced). Not with PASTA_TRACE=1 (its copies follow
// the functions' own plans), nor with PASTA_CALLEE_COUNTS=0.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_CALLEECOUNTS_H
#define PASTA_PASSES_CALLEECOUNTS_H

#include "Selection.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Instructions.h"

#include <vector>

namespace pasta {

// A returning twin returns at most ReturnLimit counts (64-bit: two
// registers each), and a caller keeps at most AccumulatorLimit of its
// callees'.
inline constexpr size_t ReturnLimit = 8;
inline constexpr size_t AccumulatorLimit = 24;

struct CountTwins {
  // Every twin.
  llvm::SmallVector<llvm::Function *, 16> All;
  // Each original that got a twin and stays (it has other uses), and its
  // twin.
  llvm::DenseMap<llvm::Function *, llvm::Function *> TwinOf;
  // Twins' pointer parameters that point to one space (global, shared,
  // local) at every call, and that space.
  llvm::DenseMap<const llvm::Argument *, pasta_space> ArgumentSpaces;
};

// Step 1, on Kernels (the selected kernels), which reach the functions of
// Reach (reachingKernels). Sel's mix analysis classifies pointers (its
// global arguments are set as they are proven, top-down).
CountTwins createCountTwins(llvm::Module &M,
                            llvm::ArrayRef<llvm::Function *> Kernels,
                            const KernelReach &Reach, Selection &Sel);

// What a twin that returns its counts returns after its value.
struct CountReturn {
  bool HasValue = false;     // element 0 is the function's own value
  uint32_t CallsCounter = 0; // its calls counter: callers count the calls
  // Its own counters (local indices) that may be non-zero at a return.
  llvm::SmallVector<uint32_t, 8> Own;
  // Module counter indices of each returned count, Own's then carried.
  llvm::SmallVector<uint32_t, 8> Global;
  uint32_t firstCount() const { return HasValue ? 1 : 0; }
};

// What a frame twin adds into its caller's frame (its last parameter) at
// its returns: the frame's slot K gets the module counter Global[K].
struct CountFrame {
  llvm::SmallVector<uint32_t, 16> Global;
  // With -pasta-frame-bit-runs: after the counts, RunGroups pairs (a mask
  // of bits, its runs) of the twin's bit counters, one pair per mask: a
  // return whose bits are the pair's mask adds one run; another mask
  // first adds the pending runs to the bits' counts. Settle, filled in
  // when the twin is emitted, adds the pending runs before the owner's
  // flush.
  unsigned RunGroups = 0;
  llvm::Function *Settle = nullptr;
};

struct ReturnedCounts {
  // Frame twins (step 3), by function (new functions, with the frame
  // parameter).
  llvm::DenseMap<const llvm::Function *, CountFrame> Frames;

  // By returning function (after step 2 they are new functions).
  llvm::DenseMap<const llvm::Function *, CountReturn> Returns;
  // Each planned function's calls of returning twins, and the module
  // counters it accumulates for them (each callee's calls counter and
  // returned counts), in the order of its registers.
  llvm::DenseMap<const llvm::Function *, llvm::SmallVector<llvm::CallInst *, 4>>
      CallsIn;
  llvm::DenseMap<const llvm::Function *, llvm::SmallVector<uint32_t, 8>>
      CarriedBy;
  // Calls of those whose number the host derives from the counter of the
  // block they are in (a derived-counter row): the caller does not count
  // them.
  llvm::DenseSet<const llvm::CallInst *> CallsDerived;
  // Twins that flush their own counts but not their calls counter: the
  // host derives it from the counters of the blocks of all their calls.
  llvm::DenseSet<const llvm::Function *> CallsCounterDerived;
  // Functions replaced by their returning form (for the copies made later;
  // the keys are erased: look them up, never dereference them).
  llvm::DenseMap<llvm::Function *, llvm::Function *> Replaced;
  // Calls replaced by calls of the returning form (for the divergence
  // plan, made before: its segments start after calls; the keys are
  // erased: look them up, never dereference them).
  llvm::DenseMap<const llvm::Instruction *, llvm::CallInst *> CallReplaced;
};

// Steps 2 and 3: decides which twins return their counts and gives them
// their returning type, and which add into their callers' frames and gives
// them the frame parameter (P.F changes to the new function), rewriting
// their calls. Frames: whether step 3 runs (counting builds).
ReturnedCounts planReturnedCounts(std::vector<FunctionPlan> &Plans,
                                  const CountTwins &Twins, ModuleTables &Tables,
                                  llvm::FunctionAnalysisManager &FAM,
                                  bool Frames);

} // namespace pasta

#endif
