//===- Selection.h - What the counting pass instruments ---------*- C++ -*-===//
//
// Selection: which functions the counting pass instruments (every host
// function with PASTA_HOST=1; kernels, filtered by PASTA_KERNELS, and the
// device functions they reach) and, in each, which instructions (PASTA_LINES,
// with line propagation for instructions without a debug location, see
// line_ranges/propagate.c). The result is a plan per function: its counted
// blocks, grouped by source line into sites (rows of the module's site
// table), and its generic accesses, whose address space is resolved at run
// time. Device accesses also get their rows in the access table.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_SELECTION_H
#define PASTA_PASSES_SELECTION_H

#include "IRHelpers.h"
#include "KernelVariants.h"
#include "ModuleTables.h"
#include "Options.h"
#include "StaticMix.h"

#include "line_ranges.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/Regex.h"

#include <memory>
#include <string>
#include <vector>

namespace pasta {

struct GenericSite {
  llvm::Instruction *Access;
  GenericAccess What;
  uint32_t Dyn; // local index of the site's first DYN counter
  // A memcpy/memset of run-time length: its bytes per execution (What.Bytes
  // is unused).
  llvm::Value *Length = nullptr;
};

// A memcpy, memmove or memset of run-time length (StaticMix.h): at each
// execution the thread adds Length to a counter of its site's bytes. With
// Length null, At is inline PTX whose FLOPs run under its shuffle's
// predicate, and the thread adds 1 where that predicate is true.
struct ByteCount {
  llvm::Instruction *At;
  llvm::Value *Length;
  uint32_t Counter; // local index of the site's bytes counter
};

struct CountedBlock {
  llvm::BasicBlock *BB = nullptr;
  uint32_t Counter = 0; // local index within the function's counters
  llvm::SmallVector<GenericSite, 2> Generic;
  llvm::SmallVector<uint32_t, 2>
      DynCounters; // first local index of each DYN set
  llvm::SmallVector<ByteCount, 1> Bytes;
  // Local indices of its sites' bytes counters (always measured, 64 bits).
  llvm::SmallVector<uint32_t, 1> BytesCounters;
  // CounterPlacement.h: whether the thread counts it (or the host derives
  // it), and whether it runs at most once per call (then one bit holds it).
  bool Measured = true;
  bool Once = false;
  // A block PASTA split into a bounds check's cold edge: it counts that
  // edge, and most warps leave it at zero.
  bool ColdEdge = false;
  // A cold edge that runs at most once per thread, a tile check's edge to
  // its partial tile, or a block of that loop that runs only after it
  // (CounterPlacement.cpp, tileCheck, coldWays): rare, so a kernel's
  // counting copy counts it where it is taken (CounterEmission.cpp,
  // InPlace), not in a register.
  bool CountWhereTaken = false;
  // Kernels: it runs alike in every thread block (BlockInvariance.h), so
  // only the grid's first thread block flushes it.
  bool AlikeInEveryBlock = false;
  // Kernels: the header of a grid-stride loop (GridStrideLoops.h), whose
  // runs over a launch the grid's first thread adds from this bound (and
  // flags) in counting builds, where no thread keeps a register for it.
  llvm::Value *GridStrideBound = nullptr;
  uint32_t GridStrideFlags = 0;
};

struct FunctionPlan {
  llvm::Function *F;
  pasta_func_kind Kind;
  uint32_t Index;        // in the function table
  uint32_t FirstCounter; // module counter index of local counter 0
  uint32_t NumCounters;  // local counters: calls, blocks, dyn, bytes, threads
  llvm::SmallVector<CountedBlock, 8> Blocks;
  llvm::AllocaInst *Staging =
      nullptr; // for out-of-line flushes, made on demand
  // CounterPlacement.h: some block counters are derived at read-back, and
  // blocks that run at most once per call are counted in bits.
  bool Placed = false;
  // Kernels: the threads the launches started (local), added once per
  // launch by the grid's first thread, when a derived counter needs it.
  uint32_t ThreadsCounter = PASTA_NONE;
  // Host functions: the counts live in a thread-local array, not in
  // registers (built without optimization, optnone, or with more counters
  // than registers could hold), and in the second case each flush point
  // flushes a range of them (CounterEmission.h). Such functions count every
  // block (no placement).
  bool ThreadLocalCounts = false;
  bool RangeFlushes = false;
};

// Device functions reachable from each selected kernel through direct
// calls: for each, the indices (in Kernels) of the kernels that reach it.
using KernelReach =
    llvm::DenseMap<llvm::Function *, llvm::SmallVector<uint32_t, 2>>;
KernelReach reachingKernels(llvm::ArrayRef<llvm::Function *> Kernels);
// The warnings below that say what is not counted also append their text
// to Uncounted (without "pasta: "): the module's descriptor carries it, so
// that the profile says it where a build's -w hid the warning.
using UncountedNotes = std::vector<std::string>;

// Warns when a selected kernel calls through a pointer and the module has
// address-taken device functions no kernel reaches directly (uncounted).
void warnUncountedIndirectCallees(llvm::Module &M,
                                  llvm::ArrayRef<llvm::Function *> Kernels,
                                  const KernelReach &Reach,
                                  UncountedNotes &Uncounted);

// Warns when a selected kernel, or a device function it reaches, holds
// inline assembly that moves memory in forms PASTA does not count.
void warnUncountedMemoryAsm(llvm::Module &M,
                            llvm::ArrayRef<llvm::Function *> Kernels,
                            const KernelReach &Reach,
                            UncountedNotes &Uncounted);

// Warns when a selected kernel, or a device function it reaches, fetches
// from textures or loads or stores surfaces (inline PTX; not counted).
void warnTextureSurfaceAsm(llvm::Module &M,
                           llvm::ArrayRef<llvm::Function *> Kernels,
                           const KernelReach &Reach, UncountedNotes &Uncounted);

// Divergence builds: warns when a selected kernel, or a device function it
// reaches, holds inline PTX whose accesses PASTA counts (not measured).
void warnUnmeasuredMemoryAsm(llvm::Module &M,
                             llvm::ArrayRef<llvm::Function *> Kernels,
                             const KernelReach &Reach);

// Working-set builds: warns when a selected kernel, or a device function it
// reaches, holds counted inline PTX with global accesses whose pages are
// not tracked.
void warnUntrackedMemoryAsm(llvm::Module &M,
                            llvm::ArrayRef<llvm::Function *> Kernels,
                            const KernelReach &Reach);

// Warns when a selected kernel, or a device function it reaches, calls a
// target intrinsic that moves memory (ldmatrix, cp.async, ...): uncounted.
void warnUncountedMemoryIntrinsics(llvm::Module &M,
                                   llvm::ArrayRef<llvm::Function *> Kernels,
                                   const KernelReach &Reach,
                                   UncountedNotes &Uncounted);

// Divergence and working-set builds: warns when a selected kernel, or a
// device function it reaches, loads or stores wmma fragments, which are
// counted but neither measured in divergence mode nor tracked in the
// working set.
void warnWmmaMemory(llvm::Module &M, llvm::ArrayRef<llvm::Function *> Kernels,
                    const KernelReach &Reach, bool Divergence, bool WorkingSet);

// Divergence builds: warns when a selected kernel, or a device function it
// reaches, makes scoped atomics (atomicAdd_system, ...), which are counted
// but not measured in divergence mode.
void warnUnmeasuredScopedAtomics(llvm::Module &M,
                                 llvm::ArrayRef<llvm::Function *> Kernels,
                                 const KernelReach &Reach);

class Selection {
public:
  Selection(llvm::Module &M, const Options &Opts, ModuleTables &Tables,
            llvm::FunctionAnalysisManager &FAM)
      : M(M), Ctx(M.getContext()), Opts(Opts), T(Tables), FAM(FAM),
        Mixes(M.getDataLayout(), Tables.Target) {}
  ~Selection();

  // Reports the options' errors; false if there were any.
  bool parseOptions();
  // Host: every function that may be instrumented; device: the kernels
  // PASTA_KERNELS keeps.
  llvm::SetVector<llvm::Function *> selectFunctions();
  // Adds F's plan, its functions and sites (and accesses) to the tables,
  // unless the line filter leaves nothing to count in it.
  void planFunction(llvm::Function &F, pasta_func_kind Kind, uint32_t Owner);
  // Warns about PASTA_LINES entries that selected nothing.
  void warnUnmatchedSpec();
  // Pointer arguments known to point to one space (StaticMix.h).
  void setArgumentSpaces(
      const llvm::DenseMap<const llvm::Argument *, pasta_space> *Spaces) {
    Mixes.setArgumentSpaces(Spaces);
  }
  const StaticMixAnalysis &mixes() const { return Mixes; }
  // The analyses cached for the module's functions: a pass that deletes a
  // function clears its entry first, or a function later made at the same
  // address would get the deleted one's results.
  llvm::FunctionAnalysisManager &analyses() { return FAM; }

  std::vector<FunctionPlan> Plans;
  std::vector<TrackedAccess> Tracked; // for the working-set copies

private:
  struct InstLocation;
  std::vector<InstLocation> locate(llvm::Function &F);
  void classifyAccesses(llvm::Function &F,
                        llvm::ArrayRef<TrackedAccess> Tracked);

  llvm::Module &M;
  llvm::LLVMContext &Ctx;
  const Options &Opts;
  ModuleTables &T;
  llvm::FunctionAnalysisManager &FAM;
  StaticMixAnalysis Mixes;

  pasta_range_spec Spec = {};
  bool HaveSpec = false;
  std::unique_ptr<llvm::Regex> KernelFilter;
  llvm::StringSet<> FilesSeen;
  bool WarnedNoDebugInfo = false;
};

} // namespace pasta

#endif
