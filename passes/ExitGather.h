//===- ExitGather.h - Where a kernel's lanes wait for each other-*- C++ -*-===//
//
// Lanes that leave a data-dependent loop apart come to a kernel's return in
// groups (ptxas sets no reconvergence before a return), and each group runs
// the exit flush on its own, on the partial-warp path: a Huffman decoder's
// warps came in 2.8 groups each, and the flush ran twice the kernel's own
// instructions. A lane may wait at the return for the lanes it was with at
// a point P only where none of them can wait for it after P: no barrier,
// warp operation or inline assembly (a `__syncthreads()` inside `if (i <
// n)` waits for the lanes past n, which a CTA barrier counts as arrived once
// they have exited), no spin on memory another thread writes, nothing that
// ends a thread, from P to the return. The wait-free tail is the set of
// blocks from which nothing of that kind is reachable; each thread enters it
// once, by one edge (a tail block reaches no block outside it), and the
// lanes that cross that edge together are the ones it may wait for
// (CounterEmission.cpp: their mask is read on the edge, and the return
// waits for it before the flush; device_rt.c, __pasta_gather_lanes).
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_EXITGATHER_H
#define PASTA_PASSES_EXITGATHER_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/ValueHandle.h"

namespace pasta {

// The ways into F's wait-free tail: the edges from a block outside it to one
// inside (successor Index of Term; a handle, as code that goes in later may
// replace the terminator: an edge lost so is not gathered), and whether the
// entry block is in it.
struct TailEntries {
  llvm::ReturnInst *Return = nullptr; // F's only return, in the tail
  bool EntryInTail = false;
  // Index AtTerminator: every successor of Term's block is in the tail, and
  // the lanes are read before Term, once for all of them.
  static constexpr unsigned AtTerminator = ~0u;
  struct Edge {
    llvm::WeakVH Term;
    unsigned Index;
  };
  llvm::SmallVector<Edge, 4> Edges;
};

// F's tail entries, where F has one return and it is in the tail; none
// otherwise (no gather: Return is null). Read before any counting code
// goes in.
TailEntries findWaitFreeTail(llvm::Function &F);

} // namespace pasta

#endif
