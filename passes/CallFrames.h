//===- CallFrames.h - Device functions' counts in their kernel's frame -*- C++
//-*-===//
//
// A device function that is not inlined used to flush its counts (a warp
// sum and an atomic per counter) at every return: a kernel calling it in a
// loop paid a flush per call. Instead, each planned device function F whose
// calls can be followed gets a twin F__pasta_frame with one more parameter,
// a per-thread frame (private memory) of 64-bit counts. F's body moves into
// the twin; at each return the twin adds its live counts (registers) to its
// elements of the frame: a private load, add and store per counter, no warp
// sum, no atomic. Direct calls from planned kernels and from the twins go
// to the twins with the caller's frame. A kernel allocates one frame per
// thread, covering the counters of every twin it reaches, zeroes it at entry
// and flushes it with the kernel's own counters at each exit (warp-reduced,
// banked, once per thread). F itself becomes a wrapper that owns a frame for
// one call (zeroed, the twin called, flushed): indirect calls, calls from
// other modules and from unplanned functions still count exactly, with a
// flush per call as before.
//
// Each activation adds only its own counts, so recursion needs nothing more
// (the frame is a sum). Not applied (every device function flushes at its
// returns, as before): with PASTA_DIVERGENCE or PASTA_TRACE (their copies
// keep that scheme), and in a module where a planned function ends threads
// inside it (ThreadExits.h: a frame would be lost with the thread).
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_CALLFRAMES_H
#define PASTA_PASSES_CALLFRAMES_H

#include "ModuleTables.h"
#include "Selection.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

#include <vector>

namespace pasta {

struct CallFrames {
  // Element 0 of every frame is module counter Base; a twin's counters
  // start at element Offset[twin].
  uint32_t Base = 0;
  llvm::DenseMap<llvm::Function *, uint32_t> Offset;
  // Frame owners (planned kernels that call a twin): the frame's pointer as
  // the twins see it (element 0 at Base, maybe before the allocation) and
  // the elements it holds, [Lo, Hi).
  struct Owned {
    llvm::AllocaInst *Frame;
    uint32_t Lo, Hi;
  };
  llvm::DenseMap<llvm::Function *, Owned> Owners;
};

// Before emission: makes the twins (each plan's F becomes its twin), points
// the calls at them, turns the originals into wrappers, adds the twins to
// Copied (the working-set copies need them). Empty when not applied.
CallFrames createCallFrames(llvm::Module &M, std::vector<FunctionPlan> &Plans,
                            ModuleTables &T,
                            llvm::SmallVectorImpl<llvm::Function *> &Copied);

// Where a frame's elements Lo..Hi go at an exit of their owner: one
// out-of-line, warp-reduced flush (__pasta_flush).
void emitFrameFlush(llvm::Instruction *Exit, const CallFrames &CF,
                    const CallFrames::Owned &O, ModuleTables &T);

} // namespace pasta

#endif
