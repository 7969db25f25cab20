//===- BlockBound.h - Block sizes that shared arrays allow ------*- C++ -*-===//
//
// The most threads a block of a kernel can hold, read from its shared
// arrays: an access that every thread makes at `s + c * x + r` (x the thread
// index, r >= 0) stays inside `s` only while c * x + r + size <= the array's
// bytes, so x is bounded, and with it a block that reads no other thread
// index. A kernel of blocks that small (lud's 16-thread kernels, nw's tiles)
// is held to 32 blocks an SM before registers limit it, which a register cap
// on its divergence copy then only makes spill (lud_perimeter: 896/1,040 bytes
// under 64 registers): such a copy is left uncapped
// (DivergenceEmission.cpp, -pasta-div-uncapped-block-threads). Reported by
// -pasta-div-block-bounds.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_BLOCKBOUND_H
#define PASTA_PASSES_BLOCKBOUND_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/PassManager.h"

#include <optional>

namespace pasta {

// The largest block (threads) in which every shared-memory load or store
// that F makes in a block dominating all of its returns stays inside its
// array, when F reads thread index x only and some such access bounds it;
// none otherwise.
std::optional<unsigned> blockThreadsBound(llvm::Function &F,
                                          llvm::FunctionAnalysisManager &FAM);

// Prints each kernel's bound under -pasta-div-block-bounds.
void reportBlockBounds(llvm::ArrayRef<llvm::Function *> Kernels,
                       llvm::FunctionAnalysisManager &FAM);

} // namespace pasta

#endif
