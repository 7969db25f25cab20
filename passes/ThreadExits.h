//===- ThreadExits.h - Threads that end inside a function -------*- C++ -*-===//
//
// Device code can end a thread without returning: inline assembly with an
// unpredicated `exit` (PTX; CUB's onesweep radix sort ends the threads of a
// tile that has nothing left to do that way) or `s_endpgm` (AMDGPU), or
// the intrinsics llvm.nvvm.exit and llvm.amdgcn.endpgm (clang's
// <gpuintrin.h> __gpu_exit(); before them `unreachable`). LLVM
// sees a call that returns and lets control flow on, so to it the code after
// such a call post-dominates it. PASTA must not: counts kept in registers
// are flushed before the thread ends (CounterEmission.cpp,
// DivergenceMeasures.cpp), and no count is derived from a flow the ended
// threads leave (CounterPlacement.cpp: such functions count every block).
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_THREADEXITS_H
#define PASTA_PASSES_THREADEXITS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"

namespace pasta {

// Whether I ends the thread unconditionally: inline assembly or an
// intrinsic.
bool endsThread(const llvm::Instruction &I);

// The instructions of F that end the thread without returning (endsThread).
llvm::SmallVector<llvm::Instruction *, 2> threadEnds(llvm::Function &F);

// Whether a declared function (its body elsewhere) surely returns: the
// runtimes' own (PASTA's, printf, the device heap, device-side launches).
bool returnsToCaller(const llvm::Function &Callee);

// Whether F, or a function it calls, may end a thread without returning
// to F's caller: an exit (endsThread), `unreachable`, a call to a
// function that does not return, or a call PASTA cannot follow.
bool mayEndThreads(const llvm::Function &F);

// Whether BB is the only block of its function that returns, and every
// thread that enters the function comes to it (nothing ends a thread
// before: mayEndThreads). In a kernel, every thread a launch starts runs it
// once.
bool isReturnOfEveryThread(const llvm::BasicBlock &BB);

} // namespace pasta

#endif
