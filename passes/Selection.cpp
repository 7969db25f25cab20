//===- Selection.cpp - What the counting pass instruments -----------------===//
//
// See Selection.h.
//
//===----------------------------------------------------------------------===//
#include "Selection.h"
#include "AccessClassification.h"
#include "CounterPlacement.h"
#include "IRHelpers.h"
#include "InlineAsmMemory.h"
#include "StaticMix.h"
#include "pasta/regex_cost.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/ModuleSlotTracker.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

using namespace llvm;
using namespace pasta;

#define DEBUG_TYPE "pasta"

STATISTIC(NumCountedBlocks, "Basic blocks given a counter");
STATISTIC(NumSites, "Sites (block, line) in the site table");
STATISTIC(NumSplitAfterCalls,
          "Host blocks split after calls that may leave the function");

static constexpr const char *RuntimePrefix = "__pasta";

static bool mayInstrument(const Function &F) {
  if (F.isDeclaration() || F.hasAvailableExternallyLinkage())
    return false;
  StringRef Name = F.getName();
  if (Name.starts_with(RuntimePrefix) || Name.starts_with("__cuda") ||
      Name.starts_with("__hip") || Name.contains("__device_stub__"))
    return false;
  return !F.hasFnAttribute(Attribute::Naked) &&
         !F.hasFnAttribute(Attribute::NoProfile) && !isKernelVariant(F);
}

// Source location of one instruction, after line propagation.
struct Selection::InstLocation {
  StringRef Dir, File;
  uint32_t Start = 0, End = 0; // inclusive; Start == 0 when unknown
};

namespace {
struct SiteKey {
  uint32_t File, Line;
  bool operator<(const SiteKey &O) const {
    return File != O.File ? File < O.File : Line < O.Line;
  }
};

// The memory operations of run-time length of one block that share a
// bytes counter: same line, same kind (copy or set), same spaces.
struct BytesKey {
  SiteKey Site;
  bool Loads;
  pasta_space Source, Dest;
  bool operator<(const BytesKey &O) const {
    return std::tie(Site.File, Site.Line, Loads, Source, Dest) <
           std::tie(O.Site.File, O.Site.Line, O.Loads, O.Source, O.Dest);
  }
};

struct BytesGroup {
  Mix Counts; // loads and stores per execution
  SmallVector<std::pair<Instruction *, VariableLength>, 1> Ops;
};

// The inline-PTX statements of one block and line whose FLOPs run where a
// shuffle's source lane was in range (InlineAsmMemory.h), with the same
// FLOPs per such lane: they share a counter of those lanes.
struct ShuffledKey {
  SiteKey Site;
  std::array<uint32_t, PASTA_NUM_PRECISIONS> Flops;
  bool operator<(const ShuffledKey &O) const {
    return std::tie(Site.File, Site.Line, Flops) <
           std::tie(O.Site.File, O.Site.Line, O.Flops);
  }
};
} // namespace

// The FLOPs of I if it is inline PTX adding a shuffled value under the
// shuffle's predicate (CUB's warp reductions and scans): per lane whose
// shuffle source was in range, or, where the compiler knows how many lanes
// of a full warp that is (InlineAsmMemory.h), per 32 executions (a warp's
// total, in WarpTotal); all zero otherwise.
struct ShuffledFlops {
  std::array<uint32_t, PASTA_NUM_PRECISIONS> PerLane{}, WarpTotal{};
};
static ShuffledFlops shuffledFlops(const Instruction &I, pasta_target Target) {
  ShuffledFlops F;
  const auto *Call = dyn_cast<CallBase>(&I);
  if (Target != PASTA_TARGET_NVPTX || !Call || !Call->isInlineAsm())
    return F;
  AsmArithmetic A = asmArithmetic(*Call);
  for (unsigned P = 0; P < PASTA_NUM_PRECISIONS; ++P) {
    if (A.LanesPerWarp)
      F.WarpTotal[P] = A.OnShuffle[P] * *A.LanesPerWarp;
    else
      F.PerLane[P] = A.OnShuffle[P];
  }
  return F;
}

static bool anyFlops(const std::array<uint32_t, PASTA_NUM_PRECISIONS> &F) {
  return llvm::any_of(F, [](uint32_t N) { return N != 0; });
}

Selection::~Selection() {
  if (HaveSpec)
    pasta_range_spec_free(&Spec);
}

// A user's value as quoted in a message: at most 200 characters, then how
// long it was ('<first 200>...' (N bytes)).
static std::string quoted(StringRef S) {
  if (S.size() <= 200)
    return ("'" + S + "'").str();
  return ("'" + S.take_front(200) + "...' (" + Twine(S.size()) + " bytes)")
      .str();
}

bool Selection::parseOptions() {
  for (const std::string &E : Opts.Errors)
    reportError(Ctx, E);
  if (!Opts.Errors.empty())
    return false;
  if (!Opts.Lines.empty()) {
    char Err[512];
    if (pasta_range_spec_parse(Opts.Lines.c_str(), &Spec, Err, sizeof Err)) {
      reportError(Ctx, Err);
      return false;
    }
    HaveSpec = true;
  }
  if (!Opts.Kernels.empty()) {
    // Refused before it is compiled: nested counted repetitions expand
    // into gigabytes (include/pasta/regex_cost.h).
    double Cost = pasta_regex_cost(Opts.Kernels.c_str());
    if (Cost > PASTA_REGEX_MAX_COST) {
      reportError(Ctx, "PASTA_KERNELS regular expression " +
                           quoted(Opts.Kernels) +
                           " is too costly to compile: its counted "
                           "repetitions expand to about " +
                           Twine((uint64_t)Cost) + " atoms (at most " +
                           Twine((uint64_t)PASTA_REGEX_MAX_COST) +
                           "); write fewer nested {m,n}");
      return false;
    }
    KernelFilter = std::make_unique<Regex>(Opts.Kernels);
    std::string Err;
    if (!KernelFilter->isValid(Err)) {
      reportError(Ctx, "bad PASTA_KERNELS regular expression " +
                           quoted(Opts.Kernels) + ": " + Err);
      return false;
    }
  }
  return true;
}

SetVector<Function *> Selection::selectFunctions() {
  SetVector<Function *> Selected;
  if (T.Target == PASTA_TARGET_HOST) {
    for (Function &F : M)
      if (mayInstrument(F))
        Selected.insert(&F);
    return Selected;
  }
  for (Function &F : M) {
    if (!isKernel(F) || !mayInstrument(F))
      continue;
    if (KernelFilter && !kernelNameMatches(*KernelFilter, F.getName())) {
      LLVM_DEBUG(dbgs() << "pasta: kernel " << F.getName()
                        << " left out (PASTA_KERNELS)\n");
      continue;
    }
    Selected.insert(&F);
  }
  return Selected;
}

// Device functions reachable from each selected kernel through direct calls.
KernelReach pasta::reachingKernels(ArrayRef<Function *> Kernels) {
  KernelReach Reach;
  for (uint32_t K = 0; K < Kernels.size(); ++K) {
    SmallVector<Function *, 16> Work{Kernels[K]};
    SmallPtrSet<Function *, 16> Seen{Kernels[K]};
    while (!Work.empty()) {
      Function *F = Work.pop_back_val();
      for (Instruction &I : instructions(*F)) {
        auto *CB = dyn_cast<CallBase>(&I);
        Function *Callee = CB ? CB->getCalledFunction() : nullptr;
        if (!Callee || isKernel(*Callee) || !mayInstrument(*Callee) ||
            !Seen.insert(Callee).second)
          continue;
        Reach[Callee].push_back(K);
        Work.push_back(Callee);
      }
    }
  }
  return Reach;
}

// A function's name as PASTA prints it: the user's function for a callee
// twin (CalleeCounts.h), demangled where it can be.
static std::string shownName(const Function &F) {
  StringRef Source = sourceName(F);
  std::string Name = demangledName(Source);
  return Name.empty() ? Source.str() : Name;
}

// The first Shown of Names for a warning, quoted, each cut at Longest
// characters (0: whole), then how many more: "'a', 'b' and 3 more".
static std::string quotedNames(ArrayRef<std::string> Names, size_t Shown,
                               size_t Longest = 0) {
  std::string List;
  for (size_t I = 0; I < Names.size() && I < Shown; ++I) {
    std::string Name = Names[I];
    if (Longest && Name.size() > Longest)
      Name = Name.substr(0, Longest) + "...";
    List += (I ? ", '" : "'") + Name + "'";
  }
  if (Names.size() > Shown)
    List += " and " + std::to_string(Names.size() - Shown) + " more";
  return List;
}

// A warning that counts are missing: said at compile time, and kept in
// Uncounted for the module's descriptor (ModuleTables), from which the
// profile and the report say it too: a project's -w (Altis builds with it)
// silences the warning, and a profile without a word of what it lacks would
// be taken for complete.
static void reportUncounted(Module &M, UncountedNotes &Uncounted,
                            const Twine &Msg) {
  std::string Text = Msg.str();
  reportWarning(M.getContext(), Text);
  Uncounted.push_back(std::move(Text));
}

static bool callsThroughPointer(const Function &F) {
  for (const Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (!CB->getCalledFunction() && !CB->isInlineAsm())
        return true;
  return false;
}

// Selection follows direct calls only: a device function whose address is
// taken (a virtual function in its vtable) and that no selected kernel
// calls directly runs uncounted when a kernel calls it through a pointer.
// Said once per module, so that such a profile is not taken for complete.
void pasta::warnUncountedIndirectCallees(Module &M,
                                         ArrayRef<Function *> Kernels,
                                         const KernelReach &Reach,
                                         UncountedNotes &Uncounted) {
  // Each function scanned once: the kernels calling through a pointer,
  // themselves or in a function they reach.
  SmallVector<bool, 8> Calls(Kernels.size());
  for (uint32_t K = 0; K < Kernels.size(); ++K)
    Calls[K] = callsThroughPointer(*Kernels[K]);
  for (auto &[F, Ks] : Reach)
    if (callsThroughPointer(*F))
      for (uint32_t K : Ks)
        Calls[K] = true;
  const Function *Caller = nullptr;
  unsigned Callers = 0;
  for (uint32_t K = 0; K < Kernels.size(); ++K)
    if (Calls[K] && !Callers++)
      Caller = Kernels[K];
  if (!Caller)
    return;
  std::vector<std::string> Names;
  for (Function &F : M)
    if (!isKernel(F) && mayInstrument(F) && !Reach.count(&F) &&
        F.hasAddressTaken(nullptr, /*IgnoreCallbackUses=*/false,
                          /*IgnoreAssumeLikeCalls=*/true,
                          /*IgnoreLLVMUsed=*/true))
      Names.push_back(shownName(F));
  if (Names.empty())
    return;
  std::string List = quotedNames(Names, 4);
  reportUncounted(M, Uncounted,
                  "kernel '" + shownName(*Caller) + "'" +
                      (Callers > 1 ? " (and " + std::to_string(Callers - 1) +
                                         " more kernels)"
                                   : "") +
                      " calls through pointers; device functions reached only "
                      "that way are not counted (their instructions are "
                      "missing from the profile): " +
                      List);
}

// Whether F holds inline assembly for which Is holds.
static bool hasAsm(const Function &F, function_ref<bool(const CallBase &)> Is) {
  for (const Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I); CB && CB->isInlineAsm() && Is(*CB))
      return true;
  return false;
}

// The selected kernels and the functions they reach that hold inline
// assembly of Kind, in the module's order (so that a message is the same
// every build), two names at most, each cut short: CUB's kernels' names
// run to hundreds of characters.
static std::string
functionsWithAsm(Module &M, ArrayRef<Function *> Kernels,
                 const KernelReach &Reach,
                 function_ref<bool(const Function &)> Holds) {
  SmallPtrSet<const Function *, 8> Selected(Kernels.begin(), Kernels.end());
  std::vector<std::string> Named;
  for (const Function &F : M)
    if ((Selected.count(&F) || Reach.count(&F)) && Holds(F))
      Named.push_back(shownName(F));
  return Named.empty() ? std::string() : quotedNames(Named, 2, 120);
}

// Warns once per module, What followed by the selected kernels and the
// functions they reach that hold inline assembly for which Is holds; with
// Uncounted, as something the counts miss (reportUncounted).
static void warnFunctionsWithAsm(Module &M, ArrayRef<Function *> Kernels,
                                 const KernelReach &Reach,
                                 function_ref<bool(const CallBase &)> Is,
                                 const Twine &What,
                                 UncountedNotes *Uncounted = nullptr) {
  std::string List = functionsWithAsm(
      M, Kernels, Reach, [&](const Function &F) { return hasAsm(F, Is); });
  if (List.empty())
    return;
  if (Uncounted)
    reportUncounted(M, *Uncounted, What + List);
  else
    reportWarning(M.getContext(), What + List);
}

static bool isMemoryAsmOf(const CallBase &CB, AsmMemoryKind Kind) {
  return asmMemory(CB).Kind == Kind;
}

// Inline assembly is opaque but for the PTX forms InlineAsmMemory.h names
// (cache-hinted loads and stores, cp.async, bulk copies, ldmatrix): loads,
// stores and copies written in other forms (atomics, ld.acquire, tensor
// copies, a predicated store, AMDGPU assembly) are missing from the counts.
// Said once per module, naming the functions, so that such a profile is not
// taken for complete.
void pasta::warnUncountedMemoryAsm(Module &M, ArrayRef<Function *> Kernels,
                                   const KernelReach &Reach,
                                   UncountedNotes &Uncounted) {
  warnFunctionsWithAsm(
      M, Kernels, Reach,
      [](const CallBase &CB) {
        return isMemoryAsmOf(CB, AsmMemoryKind::Opaque);
      },
      "inline assembly that loads, stores or copies memory is not counted "
      "(its accesses and bytes are missing from the profile) in ",
      &Uncounted);
}

// Texture fetches and surface accesses are inline PTX in clang's headers
// (tex2D, surf2Dwrite and the like), in a memory of their own: not counted,
// and not the forms the warning above names, so a kernel that reads only
// through textures would show no loads without a word. Said once per
// module, naming the functions.
void pasta::warnTextureSurfaceAsm(Module &M, ArrayRef<Function *> Kernels,
                                  const KernelReach &Reach,
                                  UncountedNotes &Uncounted) {
  warnFunctionsWithAsm(
      M, Kernels, Reach,
      [](const CallBase &CB) {
        const auto *IA = dyn_cast<InlineAsm>(CB.getCalledOperand());
        return IA && asmUsesTextureOrSurface(IA->getAsmString());
      },
      "texture fetches and surface loads and stores (tex2D, surf2Dwrite and "
      "the like) are not counted (their bytes are missing from the profile) "
      "in ",
      &Uncounted);
}

// Divergence mode measures loads, stores and atomics of the IR only: the
// accesses of counted inline PTX are counted but have no warp-level figures
// (requests, sectors, bank conflicts), so a kernel's figures cover fewer
// accesses than its counts. Said once per module, naming the functions.
void pasta::warnUnmeasuredMemoryAsm(Module &M, ArrayRef<Function *> Kernels,
                                    const KernelReach &Reach) {
  warnFunctionsWithAsm(
      M, Kernels, Reach,
      [](const CallBase &CB) {
        return isMemoryAsmOf(CB, AsmMemoryKind::Counted);
      },
      "loads, stores and copies written in inline PTX are counted but not "
      "measured in divergence mode (no requests, sectors or bank conflicts "
      "of theirs in the figures) in ");
}

// Working-set builds: counted inline PTX whose global pages working-set
// mode does not mark (an address computed from an integer, or two global
// addresses in one statement: InlineAsmMemory.h) leaves them out of the
// working set.
// Said once per module, naming the functions.
void pasta::warnUntrackedMemoryAsm(Module &M, ArrayRef<Function *> Kernels,
                                   const KernelReach &Reach) {
  warnFunctionsWithAsm(M, Kernels, Reach, asmHasUntrackedGlobal,
                       "global accesses written in inline PTX are counted but "
                       "their pages are missing from the working set "
                       "(addresses computed from integers, two in one "
                       "statement) in ");
}

static bool hasWmmaMemory(const Function &F) {
  for (const Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I); CB && isWmmaMemoryCall(*CB))
      return true;
  return false;
}

// wmma fragment loads and stores are intrinsic calls: counted
// (StaticMix.h), but the divergence figures and the working set see only
// loads, stores and atomics. Said once per module and mode, naming the
// functions, so that such figures are not taken for complete.
void pasta::warnWmmaMemory(Module &M, ArrayRef<Function *> Kernels,
                           const KernelReach &Reach, bool Divergence,
                           bool WorkingSet) {
  if (!Divergence && !WorkingSet)
    return;
  std::string List = functionsWithAsm(M, Kernels, Reach, hasWmmaMemory);
  if (List.empty())
    return;
  if (Divergence)
    reportWarning(M.getContext(),
                  "tensor-core fragment loads and stores (wmma) are counted "
                  "but not measured in divergence mode (no requests, sectors "
                  "or bank conflicts of theirs in the figures) in " +
                      List);
  if (WorkingSet)
    reportWarning(M.getContext(),
                  "tensor-core fragment loads and stores (wmma) are counted "
                  "but their pages are missing from the working set in " +
                      List);
}

static bool hasScopedAtomic(const Function &F) {
  for (const Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I); CB && scopedAtomicPointer(*CB))
      return true;
  return false;
}

// Scoped atomics are intrinsic calls: counted (StaticMix.h) and tracked in
// the working set (trackedPointer), but divergence mode measures atomicrmw
// and cmpxchg only. Said once per module, naming the functions.
void pasta::warnUnmeasuredScopedAtomics(Module &M, ArrayRef<Function *> Kernels,
                                        const KernelReach &Reach) {
  std::string List = functionsWithAsm(M, Kernels, Reach, hasScopedAtomic);
  if (!List.empty())
    reportWarning(M.getContext(),
                  "scoped atomics (atomicAdd_block, atomicAdd_system, ...) "
                  "are counted but not measured in divergence mode (no "
                  "requests, sectors or bank conflicts of theirs in the "
                  "figures) in " +
                      List);
}

// A target intrinsic (llvm.nvvm.*, llvm.amdgcn.*) that loads, stores or
// copies memory: ldmatrix, stmatrix, cp.async and its bulk forms, ldu,
// texture and surface reads, AMDGPU buffer and LDS intrinsics. PASTA counts
// loads, stores, atomics (scoped atomic intrinsics too), memcpy/memset and
// wmma fragments only. Barriers,
// fences, mbarriers and prefetches move no data a profile counts; warp
// votes and shuffles touch only memory no pointer reaches.
static bool isUncountedMemoryIntrinsic(const CallBase &CB) {
  const Function *Callee = CB.getCalledFunction();
  if (!Callee || !Callee->isIntrinsic() || isWmmaMemoryCall(CB) ||
      scopedAtomicPointer(CB))
    return false;
  StringRef Name = Callee->getName();
  if (!Name.starts_with("llvm.nvvm.") && !Name.starts_with("llvm.amdgcn."))
    return false;
  if (!CB.mayReadOrWriteMemory() || CB.onlyAccessesInaccessibleMemory())
    return false;
  for (StringRef Sync : {"barrier", "fence", "membar", "prefetch", "sleep"})
    if (Name.contains(Sync))
      return false;
  bool TakesPointer = any_of(
      CB.args(), [](const Use &U) { return U->getType()->isPointerTy(); });
  return TakesPointer || Name.contains(".tex.") || Name.contains(".suld.") ||
         Name.contains(".sust.");
}

static bool hasUncountedMemoryIntrinsic(const Function &F) {
  for (const Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I);
        CB && isUncountedMemoryIntrinsic(*CB))
      return true;
  return false;
}

// Said once per module, naming the functions, as for inline assembly: a
// profile without those accesses must not be taken for complete.
void pasta::warnUncountedMemoryIntrinsics(Module &M,
                                          ArrayRef<Function *> Kernels,
                                          const KernelReach &Reach,
                                          UncountedNotes &Uncounted) {
  std::string List =
      functionsWithAsm(M, Kernels, Reach, hasUncountedMemoryIntrinsic);
  if (!List.empty())
    reportUncounted(M, Uncounted,
                    "target intrinsics that load, store or copy memory "
                    "(ldmatrix, stmatrix, cp.async, texture reads, ...) are "
                    "not counted (their accesses and bytes are missing from "
                    "the profile) in " +
                        List);
}

// An instruction's user location (IRHelpers.h: operation wrapper headers
// skipped); for a call (a memory intrinsic) that a thin wrapper named like
// the C library's function inlined (CUDA's device memcpy and memset in
// clang's headers, glibc's fortified memcpy), the line that called the
// wrapper: what the user wrote.
static const DILocation *callerOfWrapper(const Instruction &I) {
  const DILocation *Loc = userLocation(I);
  if (!isa<CallBase>(I))
    return Loc;
  while (Loc && Loc->getInlinedAt()) {
    const DISubprogram *SP = Loc->getScope()->getSubprogram();
    if (!SP || !isLibcBlockOpName(SP->getName()))
      break;
    Loc = Loc->getInlinedAt();
  }
  return Loc;
}

std::vector<Selection::InstLocation> Selection::locate(Function &F) {
  std::vector<InstLocation> Locs;
  std::vector<uint32_t> BlockFirst{0}, Lines, SuccFirst{0}, Succs;
  DenseMap<const BasicBlock *, uint32_t> BlockIndex;
  for (BasicBlock &BB : F)
    BlockIndex[&BB] = BlockIndex.size();

  StringRef FnDir, FnFile;
  if (DISubprogram *SP = F.getSubprogram()) {
    FnDir = SP->getDirectory();
    FnFile = SP->getFilename();
  }
  for (BasicBlock &BB : F) {
    for (Instruction &I : BB) {
      InstLocation L{FnDir, FnFile, 0, 0};
      if (const DILocation *Loc = callerOfWrapper(I); Loc && Loc->getLine()) {
        L.Dir = Loc->getDirectory();
        L.File = Loc->getFilename();
        L.Start = L.End = Loc->getLine();
      }
      Locs.push_back(L);
      Lines.push_back(L.Start);
    }
    BlockFirst.push_back(Lines.size());
    for (BasicBlock *S : successors(&BB))
      Succs.push_back(BlockIndex[S]);
    SuccFirst.push_back(Succs.size());
  }

  // A line taken from a neighbour comes with the neighbour's file (the
  // scope it was inlined from, say a header), never the function's.
  std::vector<uint32_t> Start(Lines.size()), End(Lines.size());
  std::vector<uint32_t> StartFrom(Lines.size()), EndFrom(Lines.size());
  pasta_cfg Cfg{BlockIndex.size(), BlockFirst.data(), Lines.data(),
                SuccFirst.data(), Succs.data()};
  if (!Lines.empty() &&
      pasta_propagate_lines_from(&Cfg, Start.data(), End.data(),
                                 StartFrom.data(), EndFrom.data()) == 0) {
    for (size_t I = 0; I < Locs.size(); ++I) {
      if (Locs[I].Start)
        continue;
      bool Before = Start[I] != PASTA_LINE_UNKNOWN_START;
      uint32_t S = Before ? Start[I] : End[I];
      uint32_t From = Before ? StartFrom[I] : EndFrom[I];
      uint32_t E = End[I] == PASTA_LINE_UNKNOWN_END ? S : End[I];
      Locs[I].Start = S;
      Locs[I].End = E < S ? S : E;
      if (From != PASTA_LINE_NO_SOURCE) {
        Locs[I].Dir = Locs[From].Dir;
        Locs[I].File = Locs[From].File;
      }
    }
  }
  return Locs;
}

// Host functions: a call that may leave the frame ends its block, so that
// what follows it is counted only when the call returns.
static bool splitAfterLeavingCalls(Function &F) {
  SmallVector<Instruction *, 16> SplitAt;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *CB = dyn_cast<CallBase>(&I); CB && !CB->isTerminator() &&
                                             mayLeaveFrame(*CB) &&
                                             !CB->getNextNode()->isTerminator())
        SplitAt.push_back(CB->getNextNode());
  for (Instruction *I : SplitAt)
    SplitBlock(I->getParent(), I);
  NumSplitAfterCalls += SplitAt.size();
  return !SplitAt.empty();
}

// Host functions with more counters than this keep them in thread-local
// memory, as -O0 code does (CounterEmission.h): x86-64 has 16
// general registers, so such counts end up in stack slots anyway, and
// promoting one register per counter costs mem2reg time in counters x
// blocks (its phi placement walks the dominator tree below the entry's
// store, for every counter) and the register allocator as much again: a
// function of 15,000 blocks (about 5,000 counters) compiled 21x slower
// than plain, growing faster than the function.
static cl::opt<unsigned> HostRegisterCountersLimit(
    "pasta-host-register-counters",
    cl::desc("PASTA: host functions with more counters than this keep them "
             "thread-local (to test both ways on one function)"),
    cl::init(256), cl::Hidden);

// A function the compiler made, not the user: the helpers clang's code
// generation synthesizes, which get no debug info (or only as artificial)
// even under -g. They are named with identifiers reserved for the
// implementation: C++ static initialization and destruction
// (__cxx_global_var_init*, __cxx_global_array_dtor*, _GLOBAL__sub_I_<file>,
// __dtor_<var>, __tls_init), clang's own (__clang_call_terminate, ...), and
// the Itanium thread-local wrappers and initializers (_ZTW..., _ZTH...).
// Also the functions of CUDA's libdevice, the math library clang links into
// device code as bitcode without debug info: its public `__nv_*` functions
// and the `__internal_*` ones they call (sin's and cos's slow-path argument
// reduction, `__internal_trig_reduction_slowpathd`, stays a call).
// Counted like any other; only the "no debug info" warning skips them,
// since no flag of the user's would give them lines.
static bool compilerGenerated(const Function &F) {
  if (const DISubprogram *SP = F.getSubprogram())
    return SP->isArtificial();
  StringRef Name = F.getName();
  for (StringRef Prefix :
       {"__cxx_global_", "_GLOBAL__", "__clang_", "__dtor_", "__tls_init",
        "__tls_guard", "_ZTW", "_ZTH", "__nv_", "__internal_"})
    if (Name.starts_with(Prefix))
      return true;
  return false;
}

// A site of the block counted by Counter (of P's counters) at Line: no
// generic counters and no bytes counter yet.
static pasta_site blockSite(const FunctionPlan &P, const SiteKey &Line,
                            uint32_t Counter) {
  pasta_site S{};
  S.func = P.Index;
  S.file = Line.File;
  S.line = Line.Line;
  S.counter = P.FirstCounter + Counter;
  S.dyn_counter = PASTA_NONE;
  S.bytes_counter = PASTA_NONE;
  return S;
}

void Selection::planFunction(Function &F, pasta_func_kind Kind,
                             uint32_t Owner) {
  if (!F.getSubprogram() && !WarnedNoDebugInfo && !compilerGenerated(F)) {
    WarnedNoDebugInfo = true;
    reportWarning(Ctx,
                  "'" + shownName(F) +
                      "' has no debug info, so its counts cannot be tied to "
                      "source lines" +
                      (HaveSpec ? " or selected by PASTA_LINES" : "") +
                      ": compile with -gline-tables-only or -g (PASTA's "
                      "wrappers and toolchain add it unless told -g0 or "
                      "PASTA_LINE_TABLES=0)");
  }
  if (T.Target == PASTA_TARGET_HOST && splitAfterLeavingCalls(F))
    FAM.invalidate(F, PreservedAnalyses::none()); // its CFG changed
  std::vector<InstLocation> Locs = locate(F);

  FunctionPlan P;
  P.F = &F;
  P.Kind = Kind;
  P.Index = static_cast<uint32_t>(T.Funcs.size());
  P.FirstCounter = T.NumCounters;
  P.NumCounters = 1;
  std::vector<pasta_site> FnSites;
  std::vector<TrackedAccess> FnTracked; // Site: index into FnSites
  size_t InstIdx = 0;
  for (BasicBlock &BB : F) {
    std::map<SiteKey, Mix> ByLine;
    std::vector<std::pair<Instruction *, SiteKey>> BlockTracked;
    std::map<SiteKey, SmallVector<GenericSite, 2>> GenericByLine;
    std::map<BytesKey, BytesGroup> BytesByLine;
    std::map<ShuffledKey, SmallVector<Instruction *, 5>> ShuffledByLine;
    std::map<SiteKey, std::array<uint32_t, PASTA_NUM_PRECISIONS>>
        WarpTotalByLine;
    for (Instruction &I : BB) {
      const InstLocation &L = Locs[InstIdx++];
      std::string Path = joinPath(L.Dir, L.File);
      if (!Path.empty())
        FilesSeen.insert(Path);
      if (HaveSpec &&
          (L.Start == 0 ||
           pasta_range_spec_select(&Spec, Path.c_str(), L.Start, L.End) < 0))
        continue;
      Mix IM;
      GenericAccess G;
      VariableLength V;
      bool Counted = Mixes.addInstruction(I, IM, &G, &V);
      ShuffledFlops Shuffled = shuffledFlops(I, T.Target);
      bool PerLane = anyFlops(Shuffled.PerLane);
      bool PerWarp = anyFlops(Shuffled.WarpTotal);
      if (!Counted && !PerLane && !PerWarp)
        continue;
      SiteKey Key{Path.empty() ? PASTA_NONE : T.Strings.intern(Path), L.Start};
      if (PerLane)
        ShuffledByLine[{Key, Shuffled.PerLane}].push_back(&I);
      if (PerWarp) {
        auto &Total = WarpTotalByLine[Key];
        for (unsigned P = 0; P < PASTA_NUM_PRECISIONS; ++P)
          Total[P] += Shuffled.WarpTotal[P];
      }
      if (!Counted)
        continue;
      if (V.Length) {
        BytesGroup &BG = BytesByLine[{Key, V.Loads, V.Source, V.Dest}];
        BG.Counts.add(IM);
        BG.Ops.push_back({&I, V});
        continue;
      }
      ByLine[Key].add(IM);
      if (trackedPointer(I))
        BlockTracked.push_back({&I, Key});
      if (G.Pointer)
        GenericByLine[Key].push_back({&I, G, 0});
    }
    if (ByLine.empty() && BytesByLine.empty() && ShuffledByLine.empty() &&
        WarpTotalByLine.empty())
      continue;
    CountedBlock CB;
    CB.BB = &BB;
    CB.Counter = P.NumCounters++;
    std::map<SiteKey, uint32_t> SiteOf;
    for (auto &[Key, BlockMix] : ByLine) {
      SiteOf[Key] = FnSites.size();
      pasta_site S = blockSite(P, Key, CB.Counter);
      auto G = GenericByLine.find(Key);
      if (G != GenericByLine.end()) {
        S.dyn_counter = P.FirstCounter + P.NumCounters;
        CB.DynCounters.push_back(P.NumCounters);
        for (GenericSite &GS : G->second) {
          GS.Dyn = P.NumCounters;
          CB.Generic.push_back(GS);
        }
        P.NumCounters += PASTA_DYN_NUM;
      }
      std::copy(std::begin(BlockMix.V), std::end(BlockMix.V), S.mix);
      FnSites.push_back(S);
    }
    // A site of its own per group of run-time lengths: the block's
    // executions count its loads and stores, its bytes counter its bytes.
    for (auto &[Key, BG] : BytesByLine) {
      pasta_site S = blockSite(P, Key.Site, CB.Counter);
      S.bytes_counter = P.FirstCounter + P.NumCounters;
      std::copy(std::begin(BG.Counts.V), std::end(BG.Counts.V), S.mix);
      if (Key.Loads)
        S.mix[PASTA_MIX_LOAD_BYTES + Key.Source] = 1;
      S.mix[PASTA_MIX_STORE_BYTES + Key.Dest] = 1;
      for (auto &[I, V] : BG.Ops)
        CB.Bytes.push_back({I, V.Length, P.NumCounters});
      CB.BytesCounters.push_back(P.NumCounters++);
      // On a GPU, a generic source or destination is resolved at run time
      // as generic loads and stores are: the site's 8 DYN counters.
      bool GenericSource = Key.Loads && Key.Source == PASTA_SPACE_GENERIC;
      bool GenericDest = Key.Dest == PASTA_SPACE_GENERIC;
      if (T.Target != PASTA_TARGET_HOST && (GenericSource || GenericDest)) {
        S.dyn_counter = P.FirstCounter + P.NumCounters;
        CB.DynCounters.push_back(P.NumCounters);
        for (auto &[I, V] : BG.Ops) {
          if (GenericSource)
            CB.Generic.push_back(
                {I, {V.SourcePointer, false, 0}, P.NumCounters, V.Length});
          if (GenericDest)
            CB.Generic.push_back(
                {I, {V.DestPointer, true, 0}, P.NumCounters, V.Length});
        }
        P.NumCounters += PASTA_DYN_NUM;
      }
      FnSites.push_back(S);
    }
    // A site of its own per group of shuffled FLOPs: its bytes counter adds
    // 1 in each lane whose shuffle source was in range (the emitter computes
    // it where ByteCount's Length is null), and the profile multiplies the
    // site's FLOPs by that counter (abi.h).
    for (auto &[Key, Calls] : ShuffledByLine) {
      pasta_site S = blockSite(P, Key.Site, CB.Counter);
      S.bytes_counter = P.FirstCounter + P.NumCounters;
      std::copy(Key.Flops.begin(), Key.Flops.end(), S.mix + PASTA_MIX_FLOPS);
      for (Instruction *I : Calls)
        CB.Bytes.push_back({I, nullptr, P.NumCounters});
      CB.BytesCounters.push_back(P.NumCounters++);
      FnSites.push_back(S);
    }
    // Shuffled FLOPs whose warp total is known: no run-time code, a site
    // whose FLOPs are per 32 executions of the block (abi.h,
    // PASTA_WARP_TOTAL); exact, as all 32 lanes run a full-mask shuffle.
    for (auto &[Key, Total] : WarpTotalByLine) {
      pasta_site S = blockSite(P, Key, CB.Counter);
      S.bytes_counter = PASTA_WARP_TOTAL;
      std::copy(Total.begin(), Total.end(), S.mix + PASTA_MIX_FLOPS);
      FnSites.push_back(S);
    }
    for (auto &[I, Key] : BlockTracked)
      FnTracked.push_back({I, SiteOf[Key]});
    P.Blocks.push_back(std::move(CB));
  }

  if (HaveSpec && P.Blocks.empty())
    return; // the line filter left nothing in this function

  pasta_func PF{};
  // A twin's rows carry its original's name (CalleeCounts.h).
  StringRef Name = sourceName(F);
  PF.name = T.Strings.intern(Name);
  std::string Shown = demangledName(Name);
  PF.display = Shown.empty() ? PASTA_NONE : T.Strings.intern(Shown);
  if (PF.display == 0) // reads as none (abi.h); only if it were the first
    PF.display = PASTA_NONE;
  PF.kind = Kind;
  PF.file = PASTA_NONE;
  if (DISubprogram *SP = F.getSubprogram()) {
    PF.file = T.Strings.intern(joinPath(SP->getDirectory(), SP->getFilename()));
    PF.line = SP->getLine();
  }
  PF.calls_counter = P.FirstCounter;
  PF.owner = Owner;
  T.Funcs.push_back(PF);
  for (TrackedAccess &A : FnTracked)
    A.Site += static_cast<uint32_t>(T.Sites.size());
  Tracked.insert(Tracked.end(), FnTracked.begin(), FnTracked.end());
  T.Sites.insert(T.Sites.end(), FnSites.begin(), FnSites.end());
  if (T.Target != PASTA_TARGET_HOST)
    classifyAccesses(F, FnTracked);
  if (T.Target == PASTA_TARGET_HOST) {
    P.RangeFlushes = P.NumCounters > HostRegisterCountersLimit;
    P.ThreadLocalCounts = F.hasOptNone() || P.RangeFlushes;
  }
  // Host counts kept thread-local are all counted: a placement costs
  // compile time in the functions too big for registers, and -O0 code is
  // built for speed of compilation.
  if (Opts.PlaceCounters && !P.ThreadLocalCounts)
    placeCounters(P, FAM, T.Derived);
  T.NumCounters += P.NumCounters;
  NumCountedBlocks += P.Blocks.size();
  NumSites += FnSites.size();
  LLVM_DEBUG(dbgs() << "pasta: planned " << F.getName() << ": "
                    << P.Blocks.size() << " counted blocks, " << FnSites.size()
                    << " sites, " << P.NumCounters << " counters"
                    << (P.ThreadLocalCounts ? " (thread-local)" : "") << "\n");
  Plans.push_back(std::move(P));
}

// The kernel parameter a pointer is derived from, or PASTA_NONE.
static uint32_t kernelParameter(Value *Ptr, const Function &F) {
  if (!isKernel(F))
    return PASTA_NONE;
  auto *A = dyn_cast<Argument>(getUnderlyingObject(Ptr));
  return A && A->getParent() == &F ? A->getArgNo() : PASTA_NONE;
}

static uint32_t accessBytes(const Instruction &I, const DataLayout &DL) {
  Type *T = nullptr;
  if (auto *LI = dyn_cast<LoadInst>(&I))
    T = LI->getType();
  else if (auto *SI = dyn_cast<StoreInst>(&I))
    T = SI->getValueOperand()->getType();
  else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    T = RMW->getValOperand()->getType();
  else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    T = CX->getNewValOperand()->getType();
  else if (auto *Call = dyn_cast<CallBase>(&I);
           Call && scopedAtomicPointer(*Call))
    T = Call->getType(); // atomicAdd_system, ...: the value's
  uint32_t AsmBytes = 0;
  if (auto *Call = dyn_cast<CallBase>(&I); Call && !T)
    asmTrackedAddress(*Call, &AsmBytes);
  return T ? static_cast<uint32_t>(DL.getTypeStoreSize(T).getKnownMinValue())
           : AsmBytes;
}

// Whether a tracked access reads ('r') or writes ('w'); atomics write.
static char accessMode(const Instruction &I) {
  bool AsmStore = true;
  if (auto *Call = dyn_cast<CallBase>(&I))
    asmTrackedAddress(*Call, nullptr, &AsmStore);
  return isa<LoadInst>(I) || !AsmStore ? 'r' : 'w';
}

// The access table's rows of one function, classified on its code as the
// optimizer left it (before any instrumentation). Scopes come later.
void Selection::classifyAccesses(Function &F, ArrayRef<TrackedAccess> Tracked) {
  if (Tracked.empty())
    return;
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  // One numbering of F's unnamed values for all its offsets (not one per
  // value: quadratic in F's size).
  ModuleSlotTracker MST(&M, /*ShouldInitializeAllMetadata=*/false);
  MST.incorporateFunction(F);
  for (const TrackedAccess &A : Tracked) {
    Value *Ptr = trackedPointer(*A.Access);
    AccessPattern P = classifyAccess(*A.Access, Ptr, SE, LI, MST);
    pasta_access R{};
    R.site = A.Site;
    R.scope = PASTA_NONE;
    R.klass = P.Class;
    R.stride = P.Stride;
    R.param = kernelParameter(Ptr, F);
    R.bytes = accessBytes(*A.Access, M.getDataLayout());
    R.mode = accessMode(*A.Access);
    R.offset = P.Offset.empty() ? PASTA_NONE : T.Strings.intern(P.Offset);
    if (const DebugLoc &DL = A.Access->getDebugLoc(); DL) {
      R.line = DL.getLine();
      R.col = DL.getCol();
    } else {
      R.line = T.Sites[A.Site].line;
    }
    T.Accesses.push_back({A.Access, R});
  }
}

void Selection::warnUnmatchedSpec() {
  if (!HaveSpec)
    return;
  bool Any = false;
  for (size_t I = 0; I < Spec.n; ++I)
    Any |= Spec.entries[I].matched != 0;
  if (!Any) {
    reportWarning(Ctx, "PASTA_LINES " + quoted(Opts.Lines) +
                           " selects nothing to count in " +
                           M.getSourceFileName());
    return;
  }
  for (size_t I = 0; I < Spec.n; ++I) {
    const pasta_range_entry &E = Spec.entries[I];
    if (E.matched || !E.file)
      continue;
    for (const auto &File : FilesSeen.keys())
      if (pasta_range_spec_file_matches(E.file, File.str().c_str())) {
        reportWarning(Ctx, "PASTA_LINES entry for " + quoted(E.file) +
                               " selects nothing to count in " + File);
        break;
      }
  }
}
