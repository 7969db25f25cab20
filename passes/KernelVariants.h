//===- KernelVariants.h - Plain and working-set copies ----------*- C++ -*-===//
//
// For every instrumented kernel the host runtime can choose, launch by
// launch, between three versions: the kernel itself (counting), its plain
// copy (the original code, for launches outside the launch window) and its
// working-set copy (counting plus, after the global accesses, the page flags
// they touch, with a struct pasta_ws_launch pointer as one more parameter).
// Device functions the kernels call directly get the same copies, so a plain
// launch never counts and a working-set launch tracks its callees' accesses
// too.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_KERNELVARIANTS_H
#define PASTA_PASSES_KERNELVARIANTS_H

#include "IRHelpers.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace pasta {

// One global or generic memory access the working-set copy must track.
struct TrackedAccess {
  llvm::Instruction *Access;
  uint32_t Site; // its row in the module's site table
};

// True for the copies made here (never instrumented themselves).
bool isKernelVariant(const llvm::Function &F);

// Marks a copy made elsewhere (CappedCopies.cpp) as one of those.
void markKernelVariant(llvm::Function &F);

// A kernel of Like's type and attributes under Name that returns at once,
// whose largest block is one thread (.maxntid 1): the runtime never
// launches such a copy (the capped copy's and the uncapped twin's stubs).
llvm::Function *createOneThreadStub(llvm::Function &Like,
                                    const llvm::Twine &Name);

// Copies Functions as they are, under <name>Suffix, calls between them
// redirected to the copies; VMap maps each original value to its copy.
llvm::DenseMap<llvm::Function *, llvm::Function *>
createCopies(llvm::Module &M, llvm::ArrayRef<llvm::Function *> Fns,
             llvm::StringRef Suffix, llvm::ValueToValueMapTy &VMap);

// Before instrumentation: copies Functions (kernels and the device functions
// they reach) as they are, under <name>__pasta_plain.
void createPlainVariants(llvm::Module &M, llvm::ArrayRef<llvm::Function *> Fns);

// After instrumentation: copies Functions under <name>__pasta_ws with one
// more parameter; each of Accesses that can be in a global allocation sets
// its page flag (__pasta_ws_flag_arg or __pasta_ws_flag, found without a
// branch, then __pasta_ws_mark_args or __pasta_ws_mark_cached for up to
// four: one branch, to the full path out of line). A kernel whose copy, with
// the copies of the device functions it reaches, tracks more than
// CompactAbove accesses gets compact copies instead: one call of
// __pasta_ws_mark_compact per batch of four, nothing inline (ptxas spent
// most of such a build's time on the inline flags); those of a tree over
// -pasta-ws-buffer-above accesses (256) buffer them and mark the buffer
// a few times per loop instead. A bulk copy in inline PTX (more than 16
// bytes from one address) marks all its pages by a call of its own after
// it (__pasta_ws_mark_range).
void createWorkingSetVariants(llvm::Module &M,
                              llvm::ArrayRef<llvm::Function *> Fns,
                              llvm::ArrayRef<TrackedAccess> Accesses,
                              unsigned CompactAbove,
                              llvm::FunctionAnalysisManager &FAM);

// Each instrumented function's rows in the module's scope table: the first
// and how many (FunctionScopes' order).
using ScopeRanges =
    llvm::DenseMap<const llvm::Function *, std::pair<uint32_t, uint32_t>>;

// After instrumentation, with PASTA_TRACE=1: copies Functions under
// <name>__pasta_trace with one more parameter (a struct pasta_trace_launch
// pointer) and a __pasta_trace_event at every scope entry and exit.
void createTraceVariants(llvm::Module &M, llvm::ArrayRef<llvm::Function *> Fns,
                         const ScopeRanges &Scopes,
                         llvm::FunctionAnalysisManager &FAM);

} // namespace pasta

#endif
