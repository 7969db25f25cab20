//===- BlockInvariance.h - Blocks alike in every thread block ---*- C++ -*-===//
//
// Which basic blocks of a kernel run equally often in every thread block of
// a launch: for each thread index, the same number of times. Such a block's
// count over the grid is its count in one thread block times the number of
// thread blocks, so only one thread block needs to flush it
// (CounterEmission: the first block, scaled).
//
// A value is block-variant when it may differ between two threads of the
// same index in different thread blocks: the block index, anything read
// from memory that is not the launch's own (by-value parameters, constant
// memory, the dispatch packet), calls, and whatever is computed from those
// or merged at a join of a block-variant branch. A block is count-variant
// when a block-variant branch decides whether, or how often, it runs: it is
// reachable from that branch before the branch's post-dominator. Both are
// found together, as a fixpoint (phis at joins feed conditions).
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_BLOCKINVARIANCE_H
#define PASTA_PASSES_BLOCKINVARIANCE_H

#include "llvm/ADT/DenseSet.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

namespace pasta {

// Whether L reads memory no thread writes during a launch: by-value kernel
// parameters, constant memory, AMDGPU's dispatch packet and implicit
// arguments (the block and grid sizes).
bool launchConstantLoad(const llvm::LoadInst &L);

// The blocks of kernel F that run equally often in every thread block.
llvm::DenseSet<const llvm::BasicBlock *>
blocksAlikeInEveryThreadBlock(llvm::Function &F,
                              const llvm::PostDominatorTree &PDT);

} // namespace pasta

#endif
