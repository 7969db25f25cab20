//===- DivergenceOneLane.h - One-lane divergence copies -----*- C++ -*-===//
//
// A launch whose blocks are one thread runs warps of one active lane (lane
// 0): every warp-level figure of such a warp is what its one access or
// branch gives. K PASTA_DIV_ONE_LANE_SUFFIX is the divergence copy of K
// (what such a launch ran before) with the launch's shape put in: the
// thread index 0, the block 1 x 1 x 1, the active mask, lane masks, votes,
// shuffles and warp sums those of lane 0 alone. The optimizer then folds
// the helpers' warp-level code down to the lone lane's figures, so the
// copy's figures are the divergence copy's by construction, for such a
// launch, at a fraction of its cost. The runtime launches it for blocks of
// one thread (host_rt/launch.c).
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_DIVERGENCEONELANE_H
#define PASTA_PASSES_DIVERGENCEONELANE_H

#include "llvm/IR/Function.h"
#include "llvm/IR/PassManager.h"

namespace pasta {

// Function attribute of a one-lane copy until the helpers are inlined and
// it is specialised (specialiseOneLaneCopies).
inline constexpr const char *DivOneLaneAttr = "pasta-div-one-lane";

// Whether kernel F (before its counting code) looks launched with blocks of
// one thread: its code, and what it calls, reads no thread index, or
// all of its work is under a `threadIdx.x == 0 && blockIdx.x == 0` guard.
// Only such kernels get a one-lane copy; the others a stub (compile time).
bool looksSerial(const llvm::Function &F);

// Kernel's one-lane copy: a clone of its divergence copy Copy (before its
// register cap) marked for specialisation, where Serial (the caller leaves
// out copies too costly to compile twice); else a stub of one-thread
// blocks (.maxntid 1) that the runtime never launches.
void addOneLaneCopy(const llvm::Function &Kernel, llvm::Function &Copy,
                    bool Serial);

// After the helpers are inlined: puts the one-thread block's constants
// into every marked copy and folds them (NVPTX).
void specialiseOneLaneCopies(llvm::Module &M,
                             llvm::FunctionAnalysisManager &FAM);

} // namespace pasta

#endif
