//===- DivergenceFigures.h - Figures derived at read-back -------*- C++ -*-===//
//
// What a divergence row's figures follow from without a measurement: the
// read-back sums (T.Derived) that turn a block's two counters into its
// lines', branches' and accesses' figures, and those of an access whose
// addresses are a known stride apart in the lane; which figures an access's
// measurement produces and how large one can be. Shared by the planning
// (DivergencePlan.cpp) and the measuring code (DivergenceMeasures.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_DIVERGENCEFIGURES_H
#define PASTA_PASSES_DIVERGENCEFIGURES_H

#include "Divergence.h"
#include "ModuleTables.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <map>

namespace pasta {

// The most lanes of a warp (AMD's wave64).
inline constexpr uint64_t MaxLanes = 64;

// Counter To += Coeff * counter From, at read-back.
void derive(ModuleTables &T, uint32_t To, uint32_t From, int32_t Coeff);

// The figures of a block's sites that follow from its two counters
// (InstsOf: row -> the block's instructions on that row).
void deriveFromBlock(ModuleTables &T, const DivergencePlan::Block &B,
                     const std::map<uint32_t, uint32_t> &InstsOf,
                     llvm::ArrayRef<DivergencePlan::Access> Accesses,
                     llvm::ArrayRef<DivergencePlan::Branch> Branches);

// Whether __pasta_div_access_lanes takes an access like A at Stride bytes
// per thread index x, and the figures it then leaves to read-back.
bool lanesHelperTakes(const DivergencePlan::Access &A, int64_t Stride);
void deriveLaneShaped(ModuleTables &T, const DivergencePlan::Access &A,
                      uint64_t Stride);

// Whether an access's measurement produces figure Figure (enum
// pasta_div_figure).
bool accessMeasures(const DivergencePlan::Access &A, unsigned Figure);

// The alignment a uniform move of every lane's address must keep for A's
// figures to stay the same.
uint64_t figureGranule(const DivergencePlan::Access &A);

// The most any figure of one warp-level execution of A can be, or differ
// from what the pass derives for it.
uint64_t mostPerExecution(const DivergencePlan::Access &A);

} // namespace pasta

#endif
