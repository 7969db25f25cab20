//===- AtomicLoops.h - Loops that wait for global atomics -------*- C++ -*-===//
//
// A loop that claims, allocates or inserts with atomics on global memory
// (SlabHash's insert loop retrying its atomicCAS, an allocator searching
// bitmaps) waits for each atomic's old value: a round trip to the L2, and
// the occupancy that hides it is the kernel's speed. Counters held in
// registers through such a loop cost that occupancy (SlabHash's
// build_table_kernel: 26 registers plain, 48 counting, 58.6% of the warps
// active against 92.5%); kept in local memory, each counted block costs a
// load and a store that stay in L1, small beside the atomic's wait
// (CounterEmission.cpp, countsInLocalMemory). Hot arithmetic loops are the
// opposite case: their counters stay in registers (lab
// 2026-11-30-overhead3-76: MCX's photon loop ran 5.2x with them in local
// memory).
//
// A loop waits for global atomics where, by the block frequencies'
// estimate, its blocks (those of its inner loops too) run a waiting atomic
// at least once every AtomicLoopIterations iterations. A waiting atomic is
// a compare-and-swap, or a read-modify-write whose old value is used, on a
// global or generic address; shared-memory atomics take a few cycles, and
// an atomic whose result nobody reads does not stall the warp.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_ATOMICLOOPS_H
#define PASTA_PASSES_ATOMICLOOPS_H

#include "llvm/ADT/DenseMap.h"

namespace llvm {
class BlockFrequencyInfo;
class Instruction;
class Loop;
} // namespace llvm

namespace pasta {

// Whether the warp running I waits for a global atomic's old value.
bool waitsForGlobalAtomic(const llvm::Instruction &I);

// Loops of one function that wait for global atomics, each answered once.
class AtomicLoops {
public:
  explicit AtomicLoops(const llvm::BlockFrequencyInfo &BFI) : BFI(BFI) {}
  bool waits(const llvm::Loop *L);

private:
  const llvm::BlockFrequencyInfo &BFI;
  llvm::DenseMap<const llvm::Loop *, bool> Known;
};

} // namespace pasta

#endif
