//===- WorkingSetLoops.h - Page flags of loop accesses, set before the loop
//===//
//
// In a working-set copy, an access that runs once in every iteration of a
// loop whose trip count is known when the loop is entered, at an address
// that moves by a constant step (or stays), touches pages the preheader can
// name: its flags are set there by one call (__pasta_ws_mark_loop,
// device_rt_ws.inc.c) instead of once per iteration. The figures are those
// of the per-access marks: the same pages, the same accesses outside every
// allocation, the same hotness counts. A loop of few trips keeps the
// per-access marks (below).
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_WORKING_SET_LOOPS_H
#define PASTA_WORKING_SET_LOOPS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/Constant.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/PassManager.h"

#include <cstdint>

namespace pasta {

// Of Accesses (access -> site) in the working-set copy Copy, marks those it
// can once in front of their loops (a call in each loop's preheader) and
// removes them from Accesses. State is the copy's launch-state argument;
// SiteConstant gives an access's struct pasta_ws_batch (a batch of one:
// its site, whether its address is generic, the launch state's slot of the
// kernel parameter it is traced to).
// A loop entered with fewer trips than a minimum (-pasta-ws-loop-min-trips)
// costs less marked in the loop than by the call: where the count is a
// constant below it, its accesses stay in Accesses unmarked here; where it
// is known only at run time, the loop is versioned in front of it: the loop
// itself, with the call, where the count reaches the minimum, else a copy of
// it whose accesses are added to Accesses (-pasta-ws-loop-versions). Where
// it cannot be (or with that option off), the call runs where the count
// reaches it, and its accesses stay in Accesses with Guarded[access] = that
// i1 (computed in the preheader): their marks in the loop must run only
// where it is false. A mark that covers an outer loop's iterations is made
// where that loop is left (-pasta-ws-loop-marks-after).
void markLoopAccessesBeforeLoops(
    llvm::Function &Copy, llvm::Value *State,
    llvm::DenseMap<llvm::Instruction *, uint32_t> &Accesses,
    llvm::DenseMap<llvm::Instruction *, llvm::Value *> &Guarded,
    llvm::function_ref<llvm::Constant *(llvm::Instruction *, uint32_t, bool)>
        SiteConstant,
    llvm::FunctionAnalysisManager &FAM);

// Of Accesses in Copy (a compact copy), marks each run of at least
// -pasta-ws-run-min (one block's loads, or stores, of one source location,
// at distinct constant distances a fixed step apart, all run where the
// first is: an unrolled loop's) by one call in front of its first access
// (__pasta_ws_mark_loop over the offsets) and removes them from Accesses.
// The figures are those of the accesses marked one by one. Guarded accesses
// are left as they are.
void markAccessRuns(
    llvm::Function &Copy, llvm::Value *State,
    llvm::DenseMap<llvm::Instruction *, uint32_t> &Accesses,
    const llvm::DenseMap<llvm::Instruction *, llvm::Value *> &Guarded,
    llvm::function_ref<llvm::Constant *(llvm::Instruction *, uint32_t, bool)>
        SiteConstant,
    llvm::FunctionAnalysisManager &FAM);

} // namespace pasta

#endif
