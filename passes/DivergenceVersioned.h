//===- DivergenceVersioned.h - Full warps' trips of measured loops -*- C++ -*-//
//
// A divergence copy's loop whose exit diverges is measured at every trip
// (its block's warp and lane counts at the latch's vote, the drain test,
// each access's full-warp test): one load in flight a trip where the plain
// loop, unrolled by ptxas, keeps four. In the trips that every lane of a full
// warp takes, all of that is known: versionFullWarpLoops gives such a loop a
// clone that runs them unmeasured and adds their counts once.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_DIVERGENCEVERSIONED_H
#define PASTA_PASSES_DIVERGENCEVERSIONED_H

#include "Divergence.h"
#include "ModuleTables.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace pasta {

// In Copy (a divergence copy of an NVPTX module, VMap from the planned
// functions to the copies, before any measurement goes in): versions each
// loop whose full warps' trips need no measuring (one block at the
// function's outermost level, a diverging exit scalar evolution counts,
// no call, only global accesses whose figures a full warp of one row
// derives). Returns how many; the copy's analyses are invalidated.
unsigned versionFullWarpLoops(llvm::Function &Copy, const DivergencePlan &Plan,
                              llvm::ValueToValueMapTy &VMap, ModuleTables &T,
                              llvm::FunctionAnalysisManager &FAM);

// Whether V is a versioned loop's clone trips (the same in every lane of a
// warp: 0 where the warp is not full).
bool isFullWarpTrips(const llvm::Value *V);

} // namespace pasta

#endif
