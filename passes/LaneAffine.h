//===- LaneAffine.h - Accesses whose figures follow from their shape ------===//
//
// An access whose address is B + S * x in a divergence copy (x the thread
// index x, B the same in each row of lanes, S a constant:
// UniformLoops::laneStride, scalar evolution's coefficient of x) runs, in a
// warp whose 32 lanes are one row (lane i holds x = 32k + i: the rows are
// 32 wide, __pasta_div_stacked_width, read once per call), as B' + S * i
// with B' the same in every lane; so too, when the address's term in
// thread index y is W * S * y (UniformLoops::rowStride), in a warp of
// W-wide rows stacked in y (lane i at x = i mod W, y = y0 + i / W). For some
// classes of such accesses the figures the pass derives from the block's two
// counters (DivergenceFigures.h, deriveLaneShaped) are then exact whatever
// lanes are active (include/pasta/div_proofs.h says which, and why; the
// runtime's unit test checks each against the figures by definition): those
// need no measurement in such warps, only in other warps, which the copy tests
// once per call (DivergenceMeasures.cpp, measuredIn).
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_LANEAFFINE_H
#define PASTA_PASSES_LANEAFFINE_H

#include "Divergence.h"
#include "UniformLoops.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Value.h"

#include <cstdint>
#include <optional>

namespace pasta {

// An access's address as a function of the lane: B + Stride * x, B the same
// in each row of lanes.
struct LaneAffine {
  int64_t Stride;
  // Its figures are the derived ones in every warp of one 32-lane row,
  // whatever its active lanes (div_proofs.h, pasta_div_mask_free).
  bool ExactInRowsOf32;
};

// The lane-affine form of the address Ptr of access A (the instruction I,
// in a copy's block that was the function's when Loops was made), when it
// has one with a constant stride that no lane's select changes.
std::optional<LaneAffine> laneAffine(UniformLoops &Loops,
                                     const DivergencePlan::Access &A,
                                     llvm::Instruction &I, llvm::Value *Ptr);

// Whether accesses like A at Stride bytes per thread index x, each at the
// alignment of the instructions Is, have their derived figures in every
// warp of one 32-lane row.
bool exactInRowsOf32(const DivergencePlan::Access &A, int64_t Stride,
                     llvm::ArrayRef<const llvm::Instruction *> Is);

} // namespace pasta

#endif
