//===- CounterPlacement.h - Counters a function keeps -----------*- C++ -*-===//
//
// Which block counters of a device function the thread counts, and how;
// host functions (PASTA_HOST=1) take part 1 only (64-bit counters, no
// grid).
//
// 1. Fewer counters: block counts are not independent. In the CFG closed by
//    a virtual node (an edge to the entry, one back from each return), flow
//    is conserved, so every count is a sum of the counts of the edges off a
//    spanning tree (Knuth & Stevenson 1973; Ball & Larus 1994). Writing each
//    counted block's count that way, a Gaussian elimination keeps a basis
//    of them; the others are whole-number combinations of the basis, which
//    the host adds up at read-back (struct pasta_derived rows). The entry's
//    count comes first and is nearly free: a device function counts its
//    calls anyway, and a kernel's is the number of threads it launched,
//    added by the grid's first thread once per launch.
// 2. Smaller counters: a block on no cycle of the CFG runs at most once per
//    call, so its count fits in one bit; 32 such blocks share one 32-bit
//    register. Such blocks are preferred in the basis, so that blocks in
//    loops (a 64-bit register each) are derived where possible.
//
// 3. Counters that stay zero: a bounds check (a thread's place in the grid
//    against a bound all threads share, `if (i < n)`) is counted on its cold
//    edge, in a block split into that edge, and the blocks inside the bound
//    are derived. Most warps then hold only zeros at exit, and one vote lets
//    them skip the flush (CounterEmission).
// 4. Counters one thread block can flush for all: a kernel's block that runs
//    alike in every thread block (BlockInvariance.h) is flushed by the
//    grid's first thread block, times the number of thread blocks.
//
// Threads that never return (a trap) flush nothing, so the counts that are
// flushed conserve flow; blocks ending in `unreachable` need no edge back to
// the virtual node. Host frames may end inside a call (an exception,
// exit(), longjmp), after flushing their counts (CounterEmission.h): each
// `resume` and each block with such a call gets an edge back too, and
// invokes and landing pads are ordinary edges and blocks. The placement changes
// no code but the split cold edges: CounterEmission emits what it planned.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_COUNTERPLACEMENT_H
#define PASTA_PASSES_COUNTERPLACEMENT_H

#include "Selection.h"

#include "llvm/IR/PassManager.h"

#include <vector>

namespace pasta {

// Plans device or host function P's counters: marks its blocks Measured
// and Once, sets P.Placed and, when a derivation needs the threads a kernel
// launched, P.ThreadsCounter (a new local counter); adds the derivation rows
// (module indices) to Derived. Leaves P counting every block in 64 bits
// when its control flow has edges the placement cannot see (indirect
// branches, exception handling other than the Itanium ABI's in host code).
void placeCounters(FunctionPlan &P, llvm::FunctionAnalysisManager &FAM,
                   std::vector<pasta_derived> &Derived);

} // namespace pasta

#endif
