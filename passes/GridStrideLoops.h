//===- GridStrideLoops.h - Loops one thread counts for all ------*- C++ -*-===//
//
// A grid-stride loop (`for (i = blockIdx.x * blockDim.x + threadIdx.x; i <
// n; i += gridDim.x * blockDim.x)`, the usual way a CUDA kernel covers n
// elements with any grid) runs its body, summed over a launch's threads, a
// number that depends only on the bound n and the grid's shape: the starts
// of the threads along x are 0 .. T-1 (T = blocks x * block size x), each
// start s below n runs ceil((n - s) / T) times, which adds up to n, and
// threads that differ only in their y or z indices run the same loop. So
// the grid's first thread can add the count of the loop's header once per
// launch (device_rt.c, __pasta_count_grid_stride), as it adds the launch's
// threads for the entry: no register, no add per iteration and nothing to
// flush at exit, which in a kernel whose threads store one element each
// (NVIDIA's GUPS init and check kernels) was most of what counting cost.
// Where the start and the stride are 32-bit products (`blockIdx.x *
// blockDim.x` in unsigned int), a grid of 2^32 or more threads along x
// wraps them; the runtime sums that case exactly too.
//
// Recognized (NVPTX kernels; anything else is counted as before): the
// header of an outermost loop whose only exit is its latch, testing `next <
// bound` (unsigned, or signed with a negative bound running nothing),
// next = i + stride with no wrap (nuw or nsw: the program's arithmetic
// taken to have no undefined behaviour, as scalar evolution does), i's
// start (ctaid.x * ntid.x + tid.x) and stride (nctaid.x * ntid.x) both
// 32-bit products zero-extended to a 64-bit i, or both 64-bit products of
// zero-extended registers, or an `int` i (both 32-bit, a signed test, nsw;
// in a grid of 2^31 threads or more along x its starts and stride wrap to
// negative values: the runtime sums those too), the bound a
// kernel argument or a constant, the loop entered only through a test
// `start < bound` of the same kind (in a preheader's one predecessor, or
// branching to the header itself) in a block every thread runs exactly
// once (on no cycle, post-dominating the entry), and no call in the kernel
// that could end a thread (only intrinsics and inline assembly, none of
// which ends one).
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_GRIDSTRIDELOOPS_H
#define PASTA_PASSES_GRIDSTRIDELOOPS_H

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Value.h"

#include <cstdint>
#include <optional>

namespace pasta {

// device_rt.c's flags of __pasta_count_grid_stride.
inline constexpr uint32_t GridStrideSigned = 1;
inline constexpr uint32_t GridStrideWrap32 = 2;
inline constexpr uint32_t GridStrideInt32 = 4;

struct GridStrideLoop {
  llvm::Value *Bound; // a kernel argument or a constant: i64, or i32 (Int32)
  uint32_t Flags;     // GridStride*
};

// If BB is the header of a grid-stride loop of its kernel (above): the
// bound and flags from which the grid's first thread counts its runs.
std::optional<GridStrideLoop> gridStrideLoop(llvm::BasicBlock &BB,
                                             llvm::LoopInfo &LI,
                                             llvm::PostDominatorTree &PDT);

} // namespace pasta

#endif
