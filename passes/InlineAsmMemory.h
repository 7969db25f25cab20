//===- InlineAsmMemory.h - Memory operations in inline PTX ------*- C++ -*-===//
//
// The loads, stores and copies of an NVPTX inline-assembly statement, read
// from its string where every memory instruction in it is one of the forms
// PASTA can name exactly (docs/user-guide.md, "Inline assembly"):
//
//   ld[.global|.shared][.ca|.cg|.cs|.lu|.cv|.global.nc][.L1::evict_*|
//     .L1::no_allocate|.L2::64B|.L2::128B|.L2::256B][.v2|.v4].type
//     d, [%a]                        a load of the type's size (x2, x4)
//   st[.global|.shared][.wb|.cg|.cs|.wt][.L1::...][.v2|.v4].type [%a], s
//   cp.async.{ca,cg}.shared{::cta}.global[.L2::{64,128,256}B]
//     [%d], [%s], 4|8|16{, n}        a global read of n bytes (n: an
//                                    immediate or a constant operand;
//                                    the size without it) and a shared
//                                    write of the size
//   ldmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}.shared{::cta}.b16 d, [%a]
//                                    a shared read of 4, 8, 16 bytes a lane
//   cp.async.bulk.shared::{cluster,cta}.global.mbarrier::complete_tx::bytes
//     [%d], [%s], n, [%m]            a global read and a shared write of n
//   cp.async.bulk.global.shared::cta.bulk_group [%d], [%s], n
//                                    a shared read and a global write of n
//                                    (n a constant multiple of 16: the
//                                    thread that issues the bulk copy)
//
// with .type one of .b8-.b64, .u8-.u64, .s8-.s64, .f32, .f64 (and .b128
// unvectorized). Without a state space, a load or store is generic: its
// space comes from its address operand as an ordinary access's does.
// cp.async.commit_group, cp.async.wait_{group,all},
// cp.async.bulk.commit_group, cp.async.bulk.wait_group[.read] and
// cp.async.mbarrier.arrive* move no memory; nor, as data, do mbarrier
// instructions. An assembly string with any other memory instruction
// (atomics, ld.acquire, ld.volatile, cp.async.bulk of a run-time size or
// with a cache hint, a predicated one, ...), or with a branch or a label
// beside its memory instructions (glued to one too: "L1:ld.global..."), is
// opaque: not counted, and named by the compile-time warning. Pure
// analysis.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_INLINEASMMEMORY_H
#define PASTA_PASSES_INLINEASMMEMORY_H

#include "pasta/abi.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace llvm {
class CallBase;
class Value;
} // namespace llvm

namespace pasta {

// One memory access of an inline-assembly statement, per executing thread.
struct AsmAccess {
  bool IsStore = false;
  // From the instruction; PASTA_SPACE_GENERIC: from the address operand,
  // which is then a pointer.
  pasta_space Space = PASTA_SPACE_GENERIC;
  uint32_t Bytes = 0;
  llvm::Value *Address = nullptr; // the call's operand holding the address
};

enum class AsmMemoryKind {
  None,    // no memory instruction
  Counted, // every memory instruction is a form named above
  Opaque,  // some memory instruction is not
};

struct AsmMemory {
  AsmMemoryKind Kind = AsmMemoryKind::None;
  llvm::SmallVector<AsmAccess, 2> Accesses; // when Counted
};

// What Call, an NVPTX inline-assembly call, does to memory. A call of
// anything else is None.
AsmMemory asmMemory(const llvm::CallBase &Call);

// Whether Call, counted inline PTX (asmMemory), always returns to the
// instruction after it, as an ordinary load or store does: no `trap` or
// `brkpt` beside its accesses (branches, labels and `exit` make it opaque
// already). LLVM takes any inline assembly to possibly never return, so
// scalar evolution counts no trips of a loop holding one.
bool asmAccessReturns(const llvm::CallBase &Call);

// Whether an assembly string holds a memory instruction at all: a PTX load,
// store, atomic or copy, or an AMDGPU memory instruction.
bool asmMentionsMemory(llvm::StringRef Asm);

// Whether an assembly string holds a PTX texture fetch or surface access,
// which PASTA does not count.
bool asmUsesTextureOrSurface(llvm::StringRef Asm);

// The address of Call's one global or generic access through a pointer
// (what working-set mode records and the access table classifies), or
// null. Bytes: that access's size (a bulk copy's: many pages, which
// working-set mode marks from the first byte's to the last's).
llvm::Value *asmTrackedAddress(const llvm::CallBase &Call,
                               uint32_t *Bytes = nullptr,
                               bool *IsStore = nullptr);

// Whether Call, counted inline PTX, has a global or generic access that
// working-set mode does not track: an address computed from an integer, or
// one of two such accesses.
bool asmHasUntrackedGlobal(const llvm::CallBase &Call);

// How shfl.sync picks its source lane; its predicate output (d|p) says
// whether that lane was inside the clamp (PTX ISA, shfl.sync).
enum class AsmShuffleMode { Up, Down, Bfly, Idx };

// The floating-point arithmetic of an NVPTX inline-assembly statement:
// add, sub, mul (1 FLOP) and fma, mad (2) of type .f32 or .f64 with any
// rounding, .ftz and .sat qualifiers. Always: those that run at every
// execution. OnShuffle: those predicated on the predicate output of the
// statement's shfl.sync (`shfl.sync.down.b32 r|p, ...; @p add.f32 ...`:
// CUB's warp reductions and scans add each step so), which run in the
// lanes whose source lane was in range (Lane and Clamp: the shuffle's b
// and c operands, i32 values). LanesPerWarp: how many lanes of the warp
// that is at each execution, where the compiler knows (a constant full
// member mask, constant b and c: CUB's full-warp steps, 31, 30, 28, 24, 16
// down); otherwise it is counted at run time. Counted is
// false, and nothing is counted, for a statement with a branch or a label,
// arithmetic under any other predicate, or shuffles of p that differ.
struct AsmArithmetic {
  bool Counted = false;
  uint32_t Always[PASTA_NUM_PRECISIONS] = {};
  uint32_t OnShuffle[PASTA_NUM_PRECISIONS] = {};
  AsmShuffleMode Mode = AsmShuffleMode::Down;
  llvm::Value *Lane = nullptr, *Clamp = nullptr;
  std::optional<uint32_t> LanesPerWarp;

  bool onShuffle() const;
};

// What Call, an NVPTX inline-assembly call, computes in floating point.
AsmArithmetic asmArithmetic(const llvm::CallBase &Call);

} // namespace pasta

#endif
