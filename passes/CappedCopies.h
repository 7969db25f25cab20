//===- CappedCopies.h - Register-capped counting copies ---------*- C++ -*-===//
//
// A kernel's counting code holds counts in registers its plain code does
// not; ptxas may then give it more registers than a block of the program's
// size can have (1,024 threads x 128 registers is twice an SM's register
// file), and every such launch fails. On NVPTX each counting kernel K gets
// K + PASTA_CAPPED_SUFFIX: the same counting code under a register cap that
// fits any block, which the host runtime launches when K's own cannot take
// the launch's block (host_rt/launch.c). Counts are the same; the copy may
// spill, which the profile's "resources" says.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_CAPPEDCOPIES_H
#define PASTA_PASSES_CAPPEDCOPIES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

namespace pasta {

// Before instrumentation: whether every block of NVPTX kernel F that does
// work runs only where threadIdx.x and blockIdx.x are zero (one thread of a
// 1-D grid: `if (threadIdx.x == 0 && blockIdx.x == 0) { ... }` around the
// whole body, as setup kernels launched <<<1, 1>>> have) and every other
// path returns at once. y and z are not tested: a 2-D launch runs the work
// in more threads, counted the same.
bool runsInOneThread(const llvm::Function &F);

// After the counting code is in: for every NVPTX kernel of Fns, its capped
// copy, or a stub under that name where the kernel's own bounds already fit
// every block it can be launched with (the host registers the name of every
// kernel's copy; it cannot see the device code), or, without Copies
// (PASTA_CAPPED_COPIES=0), everywhere. Kernels of OneThread get a stub too
// and are returned: capCountingKernels then caps the kernels themselves
// (once their other copies are made, which must not inherit the cap), so
// that they take every block without a second compile of their counting
// code.
llvm::SmallVector<llvm::Function *, 4>
createCappedCopies(llvm::Module &M, llvm::ArrayRef<llvm::Function *> Fns,
                   bool Copies,
                   const llvm::SmallPtrSetImpl<llvm::Function *> &OneThread);

// The capped copy's register cap on each of Kernels itself.
void capCountingKernels(llvm::ArrayRef<llvm::Function *> Kernels);

// Before instrumentation: whether NVPTX kernel F's working-set copy may need
// more registers than a block it can be launched with can have, so that it
// gets a capped twin (createCappedWorkingSetCopies): no launch bounds or
// register cap of its own fit its blocks, and its plain code holds at least
// -pasta-ws-capped-live-units 32-bit values live at once (maxLiveUnits).
// ptxas's registers are known only after the pass; plain code that holds
// that many values takes about as many registers, and the working-set
// copy's marks add to them (OneSweep's binning pass: 96 plain, 144 in its
// working-set copy, over the 128 a block of 512 threads may have).
bool mayOutgrowItsBlocks(llvm::Function &F);

// The most 32-bit units of SSA values (integers, floats, pointers, vectors;
// not predicates, not kernel parameters, which stay in parameter space)
// live at one point of F: a rough, cheap estimate of its registers.
unsigned maxLiveUnits(const llvm::Function &F);

// After the working-set copies are made: for every NVPTX kernel of Fns that
// has one, K PASTA_WS_CAPPED_SUFFIX: its working-set copy capped at
// PASTA_CAPPED_REGISTERS registers where Wide holds K (and Copies), else a
// stub of the copy's type (the host registers the name of every kernel's
// copy).
void createCappedWorkingSetCopies(
    llvm::Module &M, llvm::ArrayRef<llvm::Function *> Fns, bool Copies,
    const llvm::SmallPtrSetImpl<llvm::Function *> &Wide);

} // namespace pasta

#endif
