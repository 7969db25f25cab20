//===- CountingPass.cpp - Count block executions per thread ---------------===//
//
// For every selected function the pass plans, then emits:
//
//  1. Selection. With PASTA_LINES, an instruction is selected when its line
//     range overlaps the requested lines; instructions without a debug
//     location get a range from their neighbours (line_ranges/propagate.c).
//     PASTA_KERNELS filters kernels by name; device functions are kept when a
//     selected kernel reaches them.
//  2. Static mix. Each basic block's selected instructions are costed
//     (StaticMix) and grouped by source line into sites. A block with nothing
//     to count gets no counter.
//  3. Counting. Each counted block gets a per-thread 64-bit counter, kept in
//     a register (an alloca promoted by mem2reg), incremented once per block
//     execution. Generic accesses on GPUs add their run-time address space to
//     per-site counters. Nothing touches memory while the function runs.
//  4. Flush. At every return, the thread's counts go to the runtime once:
//     __pasta_flush on GPUs (warp-reduced, one atomic per warp and counter,
//     banked by block). Host functions flush with atomic adds at every
//     return and resume and also before every call that may leave the frame
//     without returning (exceptions, longjmp, exit, pthread_exit): see
//     emitHostFlushes.
//
//  5. Scopes (C.A.T.S.). Every instrumented function's scopes (Scopes.h) go
//     into the scope table, and every global access of a device module into
//     the access table with its scalar-evolution class
//     (AccessClassification.h) and innermost scope. With PASTA_TRACE=1, host
//     functions call __pasta_scope_enter/exit, and kernels get a trace copy
//     (KernelVariants.h).
//
// The site table, the function table, the scope and access tables, the
// strings and the counters are emitted as globals described by one struct
// pasta_module_desc (include/pasta/abi.h), which the host runtime reads.
//
//===----------------------------------------------------------------------===//
#include "CountingPass.h"
#include "AccessClassification.h"
#include "DeviceRuntime.h"
#include "KernelVariants.h"
#include "Scopes.h"
#include "StaticMix.h"

#include "line_ranges.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/bit.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

#include <algorithm>
#include <map>
#include <memory>

using namespace llvm;
using namespace pasta;

#define DEBUG_TYPE "pasta"

STATISTIC(NumFunctions, "Functions instrumented");
STATISTIC(NumCountedBlocks, "Basic blocks given a counter");
STATISTIC(NumSites, "Sites (block, line) in the site table");
STATISTIC(NumGenericAccesses, "Generic accesses resolved at run time");

static constexpr const char *RuntimePrefix = "__pasta";
static constexpr const char *HostFlushName = "__pasta_host_flush";
static constexpr const char *HostRegisterName = "__pasta_register_host_module";
static constexpr const char *ScopeEnterName = "__pasta_scope_enter";
static constexpr const char *ScopeExitName = "__pasta_scope_exit";
static constexpr const char *ScopeResumeName = "__pasta_scope_resume";

static_assert(sizeof(pasta_site) == (5 + PASTA_MIX_NUM) * 4,
              "pasta_site must be a flat array of uint32_t");
static_assert(sizeof(pasta_func) == 6 * 4,
              "pasta_func must be a flat array of uint32_t");
static_assert(sizeof(pasta_scope) == 8 * 4, "pasta_scope must be all uint32_t");
static_assert(sizeof(pasta_access) == 10 * 4,
              "pasta_access must be all 32-bit fields");
static_assert(sizeof(pasta_module_desc) == 10 * 4 + 7 * 8,
              "pasta_module_desc layout");

std::string pasta::moduleId(const Module &M) {
  uint64_t H = 0xcbf29ce484222325ull; // FNV-1a 64
  for (unsigned char C : M.getSourceFileName()) {
    H ^= C;
    H *= 0x100000001b3ull;
  }
  return utohexstr(H, /*LowerCase=*/true, /*Width=*/16);
}

static pasta_target targetOf(const Module &M) {
  Triple T(M.getTargetTriple());
  if (T.isNVPTX())
    return PASTA_TARGET_NVPTX;
  if (T.isAMDGCN())
    return PASTA_TARGET_AMDGCN;
  return PASTA_TARGET_HOST;
}

static bool isKernel(const Function &F) {
  CallingConv::ID CC = F.getCallingConv();
  return CC == CallingConv::PTX_Kernel || CC == CallingConv::AMDGPU_KERNEL;
}

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

namespace {

// Source location of one instruction, after line propagation.
struct InstLocation {
  StringRef Dir, File;
  uint32_t Start = 0, End = 0; // inclusive; Start == 0 when unknown
};

struct GenericSite {
  Instruction *Access;
  GenericAccess What;
  uint32_t Dyn; // local index of the site's first DYN counter
};

struct CountedBlock {
  BasicBlock *BB;
  uint32_t Counter; // local index within the function's counters
  SmallVector<GenericSite, 2> Generic;
  SmallVector<uint32_t, 2> DynCounters; // first local index of each DYN set
};

struct SiteKey {
  uint32_t File, Line;
  bool operator<(const SiteKey &O) const {
    return File != O.File ? File < O.File : Line < O.Line;
  }
};

struct FunctionPlan {
  Function *F;
  pasta_func_kind Kind;
  uint32_t Index;        // in the function table
  uint32_t FirstCounter; // module counter index of local counter 0
  uint32_t NumCounters;  // local counters: calls, blocks, dyn
  SmallVector<CountedBlock, 8> Blocks;
  AllocaInst *Staging = nullptr; // for out-of-line flushes, made on demand
};

class StringTable {
public:
  uint32_t intern(StringRef S) {
    auto It = Offsets.find(S);
    if (It != Offsets.end())
      return It->second;
    uint32_t Off = static_cast<uint32_t>(Blob.size());
    Blob.append(S.begin(), S.end());
    Blob.push_back('\0');
    Offsets[S] = Off;
    return Off;
  }
  const std::string &blob() const { return Blob; }

private:
  std::string Blob;
  StringMap<uint32_t> Offsets;
};

class ModuleInstrumenter {
public:
  ModuleInstrumenter(Module &M, const Options &Opts)
      : M(M), Ctx(M.getContext()), Opts(Opts), Target(targetOf(M)),
        Mixes(M.getDataLayout(), Target) {}
  ~ModuleInstrumenter() {
    if (HaveSpec)
      pasta_range_spec_free(&Spec);
  }

  bool run();

private:
  bool parseOptions();
  SetVector<Function *> selectFunctions();
  void planFunction(Function &F, pasta_func_kind Kind, uint32_t Owner);
  std::vector<InstLocation> locate(Function &F);
  void emitFunction(FunctionPlan &P);
  void emitGenericCounting(IRBuilder<> &B, const GenericSite &G,
                           ArrayRef<AllocaInst *> Slots);
  void emitFlush(Instruction *Exit, FunctionPlan &P,
                 ArrayRef<AllocaInst *> Slots);
  void emitInlineFlush(Instruction *Exit, FunctionPlan &P,
                       ArrayRef<AllocaInst *> Slots);
  void emitHostFlushes(FunctionPlan &P, ArrayRef<AllocaInst *> Slots);
  void classifyAccesses(Function &F, ArrayRef<TrackedAccess> Accesses);
  void buildScopes();
  void instrumentHostScopes(FunctionScopes &FS, uint32_t Base);
  void emitTables();
  void printSites(raw_ostream &OS) const;
  void printScopes(raw_ostream &OS) const;
  uint32_t numBanks() const;
  void warnUnmatchedSpec();
  void warn(const Twine &Msg) {
    Ctx.diagnose(DiagnosticInfoGeneric(Twine("pasta: ") + Msg, DS_Warning));
  }
  void error(const Twine &Msg) {
    Ctx.diagnose(DiagnosticInfoGeneric(Twine("pasta: ") + Msg, DS_Error));
  }

  Module &M;
  LLVMContext &Ctx;
  const Options &Opts;
  pasta_target Target;
  StaticMixAnalysis Mixes;
  std::string Id = moduleId(M);

  pasta_range_spec Spec = {};
  bool HaveSpec = false;
  std::unique_ptr<Regex> KernelFilter;
  StringSet<> FilesSeen;
  bool WarnedNoDebugInfo = false;

  StringTable Strings;
  std::vector<pasta_func> Funcs;
  std::vector<pasta_site> Sites;
  std::vector<FunctionPlan> Plans;
  std::vector<TrackedAccess> Tracked; // for the working-set copies
  std::vector<pasta_scope> ScopeRows;
  std::vector<std::pair<Instruction *, pasta_access>> Accesses;
  ScopeRanges ScopesOf; // each planned function's rows, for the trace copies
  GlobalVariable *DescPlaceholder = nullptr; // host: the descriptor, early
  uint32_t NumCounters = 0;
  GlobalVariable *Counters = nullptr;
};

} // namespace

// A user's value as quoted in a message: at most 200 characters, then how
// long it was ('<first 200>...' (N bytes)).
static std::string quoted(StringRef S) {
  if (S.size() <= 200)
    return ("'" + S + "'").str();
  return ("'" + S.take_front(200) + "...' (" + Twine(S.size()) + " bytes)")
      .str();
}

bool ModuleInstrumenter::parseOptions() {
  for (const std::string &E : Opts.Errors)
    error(E);
  if (!Opts.Errors.empty())
    return false;
  if (!Opts.Lines.empty()) {
    char Err[512];
    if (pasta_range_spec_parse(Opts.Lines.c_str(), &Spec, Err, sizeof Err)) {
      error(Err);
      return false;
    }
    HaveSpec = true;
  }
  if (!Opts.Kernels.empty()) {
    KernelFilter = std::make_unique<Regex>(Opts.Kernels);
    std::string Err;
    if (!KernelFilter->isValid(Err)) {
      error("bad PASTA_KERNELS regular expression " + quoted(Opts.Kernels) +
            ": " + Err);
      return false;
    }
  }
  return true;
}

SetVector<Function *> ModuleInstrumenter::selectFunctions() {
  SetVector<Function *> Selected;
  if (Target == PASTA_TARGET_HOST) {
    for (Function &F : M)
      if (mayInstrument(F))
        Selected.insert(&F);
    return Selected;
  }
  for (Function &F : M) {
    if (!isKernel(F) || !mayInstrument(F))
      continue;
    if (KernelFilter && !kernelNameMatches(*KernelFilter, F.getName()))
      continue;
    Selected.insert(&F);
  }
  return Selected;
}

// Device functions reachable from each selected kernel through direct calls.
static DenseMap<Function *, SmallVector<uint32_t, 2>>
reachingKernels(ArrayRef<Function *> Kernels) {
  DenseMap<Function *, SmallVector<uint32_t, 2>> Reach;
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

std::vector<InstLocation> ModuleInstrumenter::locate(Function &F) {
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
      if (const DebugLoc &DL = I.getDebugLoc(); DL && DL.getLine()) {
        auto *Loc = DL.get();
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

  std::vector<uint32_t> Start(Lines.size()), End(Lines.size());
  pasta_cfg Cfg{BlockIndex.size(), BlockFirst.data(), Lines.data(),
                SuccFirst.data(), Succs.data()};
  if (!Lines.empty() &&
      pasta_propagate_lines(&Cfg, Start.data(), End.data()) == 0) {
    for (size_t I = 0; I < Locs.size(); ++I) {
      if (Locs[I].Start)
        continue;
      uint32_t S = Start[I] == PASTA_LINE_UNKNOWN_START ? End[I] : Start[I];
      uint32_t E = End[I] == PASTA_LINE_UNKNOWN_END ? S : End[I];
      Locs[I].Start = S;
      Locs[I].End = E < S ? S : E;
    }
  }
  return Locs;
}

static std::string joinPath(StringRef Dir, StringRef File) {
  if (File.empty() || File.starts_with("/") || Dir.empty())
    return File.str();
  return (Dir + "/" + File).str();
}

// A call after which this frame may never reach a return of its own: it
// may unwind (C++ exceptions, pthread_exit's forced unwinding), exit the
// process, longjmp past this frame, or return twice (setjmp, vfork). Calls
// that will return and cannot unwind (most intrinsics, libm, functions the
// optimizer proved so) are not flush points; nor is inline assembly.
static bool mayLeaveFrame(const CallBase &CB) {
  if (CB.isInlineAsm())
    return false;
  if (CB.isMustTailCall() || CB.hasFnAttr(Attribute::ReturnsTwice))
    return true;
  return !(CB.willReturn() && CB.doesNotThrow());
}

// Host functions: a call that may leave the frame ends its block, so that
// what follows it is counted only when the call returns.
static void splitAfterLeavingCalls(Function &F) {
  SmallVector<Instruction *, 16> SplitAt;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *CB = dyn_cast<CallBase>(&I); CB && !CB->isTerminator() &&
                                             mayLeaveFrame(*CB) &&
                                             !CB->getNextNode()->isTerminator())
        SplitAt.push_back(CB->getNextNode());
  for (Instruction *I : SplitAt)
    SplitBlock(I->getParent(), I);
}

void ModuleInstrumenter::planFunction(Function &F, pasta_func_kind Kind,
                                      uint32_t Owner) {
  if (!F.getSubprogram() && !WarnedNoDebugInfo) {
    WarnedNoDebugInfo = true;
    warn("'" + demangle(F.getName().str()) +
         "' has no debug info, so its counts cannot be tied to source lines" +
         (HaveSpec ? " or selected by PASTA_LINES" : "") +
         ": compile with -g or -gline-tables-only");
  }
  if (Target == PASTA_TARGET_HOST)
    splitAfterLeavingCalls(F);
  std::vector<InstLocation> Locs = locate(F);

  FunctionPlan P{&F,          Kind, static_cast<uint32_t>(Funcs.size()),
                 NumCounters, 1,    {}};
  std::vector<pasta_site> FnSites;
  std::vector<TrackedAccess> FnTracked; // Site: index into FnSites
  size_t InstIdx = 0;
  for (BasicBlock &BB : F) {
    std::map<SiteKey, Mix> ByLine;
    std::vector<std::pair<Instruction *, SiteKey>> BlockTracked;
    std::map<SiteKey, SmallVector<GenericSite, 2>> GenericByLine;
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
      if (!Mixes.addInstruction(I, IM, &G))
        continue;
      SiteKey Key{Path.empty() ? PASTA_NONE : Strings.intern(Path), L.Start};
      ByLine[Key].add(IM);
      if (trackedPointer(I))
        BlockTracked.push_back({&I, Key});
      if (G.Pointer)
        GenericByLine[Key].push_back({&I, G, 0});
    }
    if (ByLine.empty())
      continue;
    CountedBlock CB{&BB, P.NumCounters++, {}, {}};
    std::map<SiteKey, uint32_t> SiteOf;
    for (auto &[Key, BlockMix] : ByLine) {
      SiteOf[Key] = FnSites.size();
      pasta_site S{};
      S.func = P.Index;
      S.file = Key.File;
      S.line = Key.Line;
      S.counter = P.FirstCounter + CB.Counter;
      S.dyn_counter = PASTA_NONE;
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
    for (auto &[I, Key] : BlockTracked)
      FnTracked.push_back({I, SiteOf[Key]});
    P.Blocks.push_back(std::move(CB));
  }

  if (HaveSpec && P.Blocks.empty())
    return; // the line filter left nothing in this function

  pasta_func PF{};
  PF.name = Strings.intern(F.getName());
  PF.kind = Kind;
  PF.file = PASTA_NONE;
  if (DISubprogram *SP = F.getSubprogram()) {
    PF.file = Strings.intern(joinPath(SP->getDirectory(), SP->getFilename()));
    PF.line = SP->getLine();
  }
  PF.calls_counter = P.FirstCounter;
  PF.owner = Owner;
  Funcs.push_back(PF);
  for (TrackedAccess &A : FnTracked)
    A.Site += static_cast<uint32_t>(Sites.size());
  Tracked.insert(Tracked.end(), FnTracked.begin(), FnTracked.end());
  Sites.insert(Sites.end(), FnSites.begin(), FnSites.end());
  if (Target != PASTA_TARGET_HOST)
    classifyAccesses(F, FnTracked);
  NumCounters += P.NumCounters;
  NumCountedBlocks += P.Blocks.size();
  NumSites += FnSites.size();
  Plans.push_back(std::move(P));
}

void ModuleInstrumenter::emitGenericCounting(IRBuilder<> &B,
                                             const GenericSite &G,
                                             ArrayRef<AllocaInst *> Slots) {
  ++NumGenericAccesses;
  Type *I64 = B.getInt64Ty();
  FunctionCallee IsShared =
      M.getOrInsertFunction("__pasta_is_shared", I64, PointerType::get(Ctx, 0));
  FunctionCallee IsLocal =
      M.getOrInsertFunction("__pasta_is_local", I64, PointerType::get(Ctx, 0));
  Value *Ptr = G.What.Pointer;
  Value *Shared = B.CreateCall(IsShared, {Ptr});
  Value *Local = B.CreateCall(IsLocal, {Ptr});
  uint32_t Base =
      G.Dyn + (G.What.IsStore ? PASTA_DYN_ST_SHARED : PASTA_DYN_LD_SHARED);
  auto Add = [&](uint32_t Slot, Value *V) {
    Value *Old = B.CreateLoad(I64, Slots[Slot]);
    B.CreateStore(B.CreateAdd(Old, V), Slots[Slot]);
  };
  Value *Bytes = ConstantInt::get(I64, G.What.Bytes);
  Add(Base + 0, Shared);
  Add(Base + 1, B.CreateMul(Shared, Bytes));
  Add(Base + 2, Local);
  Add(Base + 3, B.CreateMul(Local, Bytes));
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
  return T ? static_cast<uint32_t>(DL.getTypeStoreSize(T).getKnownMinValue())
           : 0;
}

// The access table's rows of one function, classified on its code as the
// optimizer left it (before any instrumentation). Scopes come later.
void ModuleInstrumenter::classifyAccesses(Function &F,
                                          ArrayRef<TrackedAccess> Tracked) {
  if (Tracked.empty())
    return;
  DominatorTree DT(F);
  LoopInfo LI(DT);
  TargetLibraryInfoImpl TLII(M.getTargetTriple());
  TargetLibraryInfo TLI(TLII, &F);
  AssumptionCache AC(F);
  ScalarEvolution SE(F, TLI, AC, DT, LI);
  for (const TrackedAccess &A : Tracked) {
    Value *Ptr = trackedPointer(*A.Access);
    AccessPattern P = classifyAccess(*A.Access, Ptr, SE, LI);
    pasta_access R{};
    R.site = A.Site;
    R.scope = PASTA_NONE;
    R.klass = P.Class;
    R.stride = P.Stride;
    R.param = kernelParameter(Ptr, F);
    R.bytes = accessBytes(*A.Access, M.getDataLayout());
    R.mode = isa<LoadInst>(A.Access) ? 'r' : 'w';
    R.offset = P.Offset.empty() ? PASTA_NONE : Strings.intern(P.Offset);
    if (const DebugLoc &DL = A.Access->getDebugLoc(); DL) {
      R.line = DL.getLine();
      R.col = DL.getCol();
    } else {
      R.line = Sites[A.Site].line;
    }
    Accesses.push_back({A.Access, R});
  }
}

// Host functions report their scopes to the runtime: the descriptor (a
// placeholder until emitTables makes it) and the scope's row.
void ModuleInstrumenter::instrumentHostScopes(FunctionScopes &FS,
                                              uint32_t Base) {
  PointerType *Ptr = PointerType::get(Ctx, 0);
  Type *I32 = Type::getInt32Ty(Ctx);
  Type *Void = Type::getVoidTy(Ctx);
  if (!DescPlaceholder)
    DescPlaceholder = new GlobalVariable(M, Type::getInt8Ty(Ctx), true,
                                         GlobalValue::ExternalLinkage, nullptr,
                                         "__pasta_host_desc_placeholder");
  FunctionCallee Enter = M.getOrInsertFunction(ScopeEnterName, Void, Ptr, I32);
  FunctionCallee Exit =
      M.getOrInsertFunction(ScopeExitName, Void, Ptr, I32, I32);
  ScopeHooks H;
  H.Enter = [&](IRBuilder<> &B, uint32_t Local) {
    B.CreateCall(Enter, {DescPlaceholder, B.getInt32(Base + Local)});
  };
  H.Exit = [&](IRBuilder<> &B, uint32_t Local, Value *Trips) {
    B.CreateCall(Exit, {DescPlaceholder, B.getInt32(Base + Local),
                        Trips ? Trips : B.getInt32(0)});
  };
  FunctionCallee Resume =
      M.getOrInsertFunction(ScopeResumeName, Void, Ptr, I32);
  H.Resume = [&](IRBuilder<> &B, uint32_t Local) {
    B.CreateCall(Resume, {DescPlaceholder, B.getInt32(Base + Local)});
  };
  FS.instrument(H);
}

// The scope table (every planned function's scopes, discovered on the
// counting code: PASTA's own branches are marked and skipped), each access's
// innermost scope and, with PASTA_TRACE=1, the host functions' events.
void ModuleInstrumenter::buildScopes() {
  DenseMap<Function *, SmallVector<size_t, 8>> AccessesOf;
  for (size_t I = 0; I < Accesses.size(); ++I)
    AccessesOf[Accesses[I].first->getFunction()].push_back(I);
  for (FunctionPlan &P : Plans) {
    FunctionScopes FS(*P.F, P.Kind == PASTA_FUNC_KERNEL, P.F->getName());
    uint32_t Base = ScopeRows.size();
    for (const Scope &S : FS.scopes()) {
      pasta_scope R{};
      R.id = S.Id;
      R.kind = S.Kind;
      R.parent = S.Parent == PASTA_NONE ? PASTA_NONE : Base + S.Parent;
      R.func = Funcs[P.Index].name;
      R.file = S.File.empty() ? Funcs[P.Index].file
                              : Strings.intern(joinPath(S.Dir, S.File));
      R.line = S.Line;
      R.col = S.Col;
      R.loop_depth = S.LoopDepth;
      ScopeRows.push_back(R);
    }
    ScopesOf[P.F] = {Base, static_cast<uint32_t>(FS.scopes().size())};
    for (size_t I : AccessesOf.lookup(P.F))
      Accesses[I].second.scope =
          Base + FS.innermost(Accesses[I].first->getParent());
    if (Target == PASTA_TARGET_HOST && Opts.Trace)
      instrumentHostScopes(FS, Base);
  }
}

// Device counters get as many banks as fit in PASTA_DEVICE_COUNTER_BYTES,
// within [PASTA_DEVICE_MIN_BANKS, PASTA_DEVICE_MAX_BANKS]: the flushes of a
// grid's warps then hit thousands of addresses instead of a few hundred,
// which is what bounds their cost on streaming kernels.
uint32_t ModuleInstrumenter::numBanks() const {
  if (Target == PASTA_TARGET_HOST)
    return 1;
  uint64_t RowBytes = std::max<uint64_t>(NumCounters, 1) * 8;
  uint64_t Fit = PASTA_DEVICE_COUNTER_BYTES / RowBytes;
  Fit =
      std::clamp<uint64_t>(Fit, PASTA_DEVICE_MIN_BANKS, PASTA_DEVICE_MAX_BANKS);
  return static_cast<uint32_t>(llvm::bit_floor(Fit));
}

// Functions with at most this many counters flush each counter inline, in
// registers; larger ones stage their counts in local memory and call
// __pasta_flush once, to keep code size bounded.
static constexpr uint32_t InlineFlushLimit = 32;

// The local counters that can be non-zero when the function leaves through
// Exit: the call counter (not for kernels, whose launches are counted at
// entry), and those of blocks from which Exit is reachable (a block that
// cannot reach Exit never ran on a path that ends there).
static SmallVector<uint32_t, 16> liveCounters(const FunctionPlan &P,
                                              BasicBlock *Exit) {
  SmallPtrSet<BasicBlock *, 32> Reaching{Exit};
  SmallVector<BasicBlock *, 32> Work{Exit};
  while (!Work.empty())
    for (BasicBlock *Pred : predecessors(Work.pop_back_val()))
      if (Reaching.insert(Pred).second)
        Work.push_back(Pred);
  SmallVector<uint32_t, 16> Live;
  if (P.Kind != PASTA_FUNC_KERNEL)
    Live.push_back(0);
  for (const CountedBlock &CB : P.Blocks) {
    if (!Reaching.count(CB.BB))
      continue;
    Live.push_back(CB.Counter);
    for (uint32_t Dyn : CB.DynCounters)
      for (uint32_t I = 0; I < PASTA_DYN_NUM; ++I)
        Live.push_back(Dyn + I);
  }
  return Live;
}

// Inline device flush of the counters live at Exit. One test picks the fast
// path for the usual case, a full warp whose counts are all small: then each
// counter costs one warp sum and, if non-zero, one `red` by lane 0. The
// general path handles partial warps and large counts.
void ModuleInstrumenter::emitInlineFlush(Instruction *Exit, FunctionPlan &P,
                                         ArrayRef<AllocaInst *> Slots) {
  IRBuilder<> B(Exit);
  Type *I64 = B.getInt64Ty(), *I32 = B.getInt32Ty();
  PointerType *Global = PointerType::get(Ctx, 1);
  SmallVector<uint32_t, 16> Live = liveCounters(P, Exit->getParent());
  if (Live.empty())
    return; // nothing counted on any path to this return
  SmallVector<Value *, 16> Values;
  Value *Any = nullptr;
  for (uint32_t I : Live) {
    Values.push_back(B.CreateLoad(I64, Slots[I]));
    Any = Any ? B.CreateOr(Any, Values.back()) : Values.back();
  }
  FunctionCallee Row =
      M.getOrInsertFunction(BankRowName, Global, Global, I32, I32);
  Value *Base = B.CreateCall(
      Row, {Counters, B.getInt32(NumCounters), B.getInt32(numBanks())});
  FunctionCallee IsFast = M.getOrInsertFunction(FlushIsFastName, I64, I64);
  Value *Fast = B.CreateICmpNE(B.CreateCall(IsFast, {Any}), B.getInt64(0));
  Instruction *FastT, *SlowT;
  SplitBlockAndInsertIfThenElse(Fast, Exit->getIterator(), &FastT, &SlowT);
  // PASTA's own branch, not a scope of the program (Scopes.cpp).
  FastT->getParent()->getSinglePredecessor()->getTerminator()->setMetadata(
      InstrumentationMD, MDNode::get(Ctx, {}));
  // The run-time address-space counters of a site come in groups of
  // PASTA_DYN_NUM that are almost always all zero: one test skips a group.
  static_assert(PASTA_DYN_NUM == 8, "the group flush takes 8 values");
  DenseSet<uint32_t> GroupStarts;
  for (const CountedBlock &CB : P.Blocks)
    GroupStarts.insert(CB.DynCounters.begin(), CB.DynCounters.end());
  auto FlushAll = [&](Instruction *At, const char *One, const char *Group) {
    IRBuilder<> FB(At);
    FunctionCallee FlushOne =
        M.getOrInsertFunction(One, FB.getVoidTy(), Global, I64);
    SmallVector<Type *, 9> GroupArgs{Global};
    GroupArgs.append(PASTA_DYN_NUM, I64);
    FunctionCallee FlushGroup = M.getOrInsertFunction(
        Group, FunctionType::get(FB.getVoidTy(), GroupArgs, false));
    for (size_t K = 0; K < Live.size(); ++K) {
      Value *Slot =
          FB.CreateConstInBoundsGEP1_32(I64, Base, P.FirstCounter + Live[K]);
      if (!GroupStarts.count(Live[K])) {
        FB.CreateCall(FlushOne, {Slot, Values[K]});
        continue;
      }
      SmallVector<Value *, 9> Args{Slot};
      Args.append(Values.begin() + K, Values.begin() + K + PASTA_DYN_NUM);
      FB.CreateCall(FlushGroup, Args);
      K += PASTA_DYN_NUM - 1;
    }
  };
  FlushAll(FastT, FlushCounterFastName, FlushGroupFastName);
  FlushAll(SlowT, FlushCounterName, FlushGroupName);
}

// Device functions only (host ones: emitHostFlushes).
void ModuleInstrumenter::emitFlush(Instruction *Exit, FunctionPlan &P,
                                   ArrayRef<AllocaInst *> Slots) {
  if (P.NumCounters <= InlineFlushLimit)
    return emitInlineFlush(Exit, P, Slots);

  IRBuilder<> B(Exit);
  Type *I64 = B.getInt64Ty();
  Type *I32 = B.getInt32Ty();
  PointerType *Generic = PointerType::get(Ctx, 0);
  PointerType *Global = PointerType::get(Ctx, 1);
  Value *First = ConstantInt::get(I32, P.FirstCounter);
  Value *N = ConstantInt::get(I32, P.NumCounters);
  auto LoadCount = [&](uint32_t I) { return B.CreateLoad(I64, Slots[I]); };

  // Out of line: stage the counts, then one call.
  if (!P.Staging) {
    IRBuilder<> EntryB(&*P.F->getEntryBlock().getFirstInsertionPt());
    P.Staging = EntryB.CreateAlloca(ArrayType::get(I64, P.NumCounters),
                                    M.getDataLayout().getAllocaAddrSpace(),
                                    nullptr, "pasta.flush");
  }
  AllocaInst *Staging = P.Staging;
  for (uint32_t I = 0; I < P.NumCounters; ++I)
    B.CreateStore(LoadCount(I),
                  B.CreateConstInBoundsGEP2_32(Staging->getAllocatedType(),
                                               Staging, 0, I));
  Value *StagingGeneric = B.CreatePointerCast(Staging, Generic);
  FunctionCallee Flush = M.getOrInsertFunction(
      DeviceFlushName, B.getVoidTy(), Global, I32, I32, I32, Generic, I32);
  B.CreateCall(Flush, {Counters, B.getInt32(NumCounters),
                       B.getInt32(numBanks()), First, StagingGeneric, N});
}

// Host functions flush inline, one atomic add per counter, up to this many
// counters at one flush point; beyond, through __pasta_host_flush.
static constexpr uint32_t HostInlineFlushLimit = 16;

// Host counts are kept in registers and flushed, with atomic adds, before
// every call that may leave the frame without returning to it (mayLeaveFrame)
// and at every return and resume; a flush before a call resets what it
// flushed to zero. So whatever ends a frame's life (a return, an exception
// unwinding it with or without a landing pad, longjmp, exit() or
// pthread_exit below it, a fork's child starting from zero), every count of
// that frame is in memory by then, exactly once.
//
// A flush point flushes only the counters that may be non-zero there: those
// of the blocks from which it is reachable without passing another flush
// point (a block's counter is incremented at its top, so a block holding a
// flush point never contributes past it), and the call counter while no
// flush may have happened since entry.
void ModuleInstrumenter::emitHostFlushes(FunctionPlan &P,
                                         ArrayRef<AllocaInst *> Slots) {
  Function &F = *P.F;
  struct Point {
    Instruction *At;
    bool AfterFlush; // an earlier flush point in the same block
  };
  SmallVector<Point, 16> Points;
  SmallPtrSet<BasicBlock *, 16> HasFlush;
  for (BasicBlock &BB : F) {
    bool Seen = false;
    for (Instruction &I : BB) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (CB && mayLeaveFrame(*CB)) {
        Points.push_back({&I, Seen});
        Seen = true;
        HasFlush.insert(&BB);
      } else if (isa<ReturnInst, ResumeInst>(&I)) {
        Points.push_back({&I, Seen});
      }
    }
  }
  // Blocks that may be entered after some flush point ran.
  SmallPtrSet<BasicBlock *, 32> Reflushed;
  SmallVector<BasicBlock *, 32> Work;
  for (BasicBlock *BB : HasFlush)
    for (BasicBlock *S : successors(BB))
      if (Reflushed.insert(S).second)
        Work.push_back(S);
  while (!Work.empty())
    for (BasicBlock *S : successors(Work.pop_back_val()))
      if (Reflushed.insert(S).second)
        Work.push_back(S);

  DenseMap<BasicBlock *, uint32_t> CounterOf;
  for (const CountedBlock &CB : P.Blocks)
    CounterOf[CB.BB] = CB.Counter;
  BasicBlock *Entry = &F.getEntryBlock();

  struct Dirty {
    uint32_t Counter;
    bool NonZero; // certainly non-zero here: no test needed
  };
  SmallVector<std::pair<Point, SmallVector<Dirty, 8>>, 16> Plan;
  for (const Point &Pt : Points) {
    SmallVector<Dirty, 8> D;
    BasicBlock *BB = Pt.At->getParent();
    if (!Pt.AfterFlush) {
      bool CallCertain = !Reflushed.count(BB);
      SmallPtrSet<BasicBlock *, 32> Seen{BB};
      SmallVector<BasicBlock *, 32> Walk{BB};
      while (!Walk.empty()) {
        BasicBlock *X = Walk.pop_back_val();
        if (auto It = CounterOf.find(X); It != CounterOf.end())
          D.push_back({It->second, X == BB});
        if (X == Entry)
          D.push_back({0, CallCertain});
        for (BasicBlock *Q : predecessors(X))
          if (!HasFlush.count(Q) && Seen.insert(Q).second)
            Walk.push_back(Q);
      }
    }
    Plan.push_back({Pt, std::move(D)});
  }

  Type *I64 = Type::getInt64Ty(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx);
  for (auto &[Pt, D] : Plan) {
    if (D.empty())
      continue;
    llvm::sort(D, [](const Dirty &A, const Dirty &B) {
      return A.Counter < B.Counter;
    });
    Instruction *At = Pt.At;
    bool IsCall = isa<CallBase>(At);
    if (D.size() <= HostInlineFlushLimit) {
      for (const Dirty &C : D) {
        IRBuilder<> B(At);
        Value *V = B.CreateLoad(I64, Slots[C.Counter]);
        Value *Ptr = B.CreateConstInBoundsGEP1_32(I64, Counters,
                                                  P.FirstCounter + C.Counter);
        if (!C.NonZero) {
          Instruction *Then = SplitBlockAndInsertIfThen(
              B.CreateICmpNE(V, ConstantInt::get(I64, 0)), At->getIterator(),
              false);
          // PASTA's own branch, not a scope of the program (Scopes.cpp).
          Then->getParent()
              ->getSinglePredecessor()
              ->getTerminator()
              ->setMetadata(InstrumentationMD, MDNode::get(Ctx, {}));
          B.SetInsertPoint(Then);
        }
        B.CreateAtomicRMW(AtomicRMWInst::Add, Ptr, V, Align(8),
                          AtomicOrdering::Monotonic);
      }
    } else {
      // Out of line: the counters from the lowest to the highest one that
      // may be non-zero, staged (zero where they cannot be), then one call.
      uint32_t Lo = D.front().Counter, Hi = D.back().Counter;
      IRBuilder<> B(At);
      if (!P.Staging) {
        IRBuilder<> EntryB(&*Entry->getFirstInsertionPt());
        P.Staging = EntryB.CreateAlloca(ArrayType::get(I64, P.NumCounters),
                                        M.getDataLayout().getAllocaAddrSpace(),
                                        nullptr, "pasta.flush");
      }
      size_t K = 0;
      for (uint32_t I = Lo; I <= Hi; ++I) {
        Value *V = ConstantInt::get(I64, 0);
        if (K < D.size() && D[K].Counter == I) {
          V = B.CreateLoad(I64, Slots[I]);
          ++K;
        }
        B.CreateStore(
            V, B.CreateConstInBoundsGEP2_32(P.Staging->getAllocatedType(),
                                            P.Staging, 0, I - Lo));
      }
      PointerType *Generic = PointerType::get(Ctx, 0);
      FunctionCallee Flush = M.getOrInsertFunction(HostFlushName, B.getVoidTy(),
                                                   Generic, I32, Generic, I32);
      B.CreateCall(Flush, {Counters, B.getInt32(P.FirstCounter + Lo),
                           B.CreatePointerCast(P.Staging, Generic),
                           B.getInt32(Hi - Lo + 1)});
    }
    if (IsCall) {
      IRBuilder<> B(At);
      for (const Dirty &C : D)
        B.CreateStore(ConstantInt::get(I64, 0), Slots[C.Counter]);
    }
  }
}

void ModuleInstrumenter::emitFunction(FunctionPlan &P) {
  Function &F = *P.F;
  Type *I64 = Type::getInt64Ty(Ctx);
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  unsigned AllocaAS = M.getDataLayout().getAllocaAddrSpace();

  SmallVector<AllocaInst *, 16> Slots;
  for (uint32_t I = 0; I < P.NumCounters; ++I)
    Slots.push_back(B.CreateAlloca(I64, AllocaAS, nullptr, "pasta.count"));
  // A launch is counted once, at entry, by the first thread of the grid (so
  // the launch counter costs nothing at exit); other functions count calls
  // per thread. The entry block runs exactly once per call: its counter
  // starts at 1.
  SmallVector<Value *, 16> Initial(P.NumCounters, ConstantInt::get(I64, 0));
  if (P.Kind == PASTA_FUNC_KERNEL)
    B.CreateCall(M.getOrInsertFunction(CountLaunchName, B.getVoidTy(),
                                       PointerType::get(Ctx, 1)),
                 {B.CreateConstInBoundsGEP1_32(I64, Counters, P.FirstCounter)});
  else
    Initial[0] = ConstantInt::get(I64, 1);
  for (CountedBlock &CB : P.Blocks)
    if (CB.BB == &Entry)
      Initial[CB.Counter] = ConstantInt::get(I64, 1);
  for (uint32_t I = 0; I < P.NumCounters; ++I)
    B.CreateStore(Initial[I], Slots[I]);

  for (CountedBlock &CB : P.Blocks) {
    if (CB.BB != &Entry) {
      B.SetInsertPoint(CB.BB, CB.BB->getFirstInsertionPt());
      Value *Old = B.CreateLoad(I64, Slots[CB.Counter]);
      B.CreateStore(B.CreateAdd(Old, ConstantInt::get(I64, 1)),
                    Slots[CB.Counter]);
    }
    for (const GenericSite &G : CB.Generic) {
      B.SetInsertPoint(G.Access);
      emitGenericCounting(B, G, Slots);
    }
  }

  if (Target == PASTA_TARGET_HOST) {
    emitHostFlushes(P, Slots);
  } else {
    SmallVector<Instruction *, 4> Exits;
    for (BasicBlock &BB : F)
      if (isa<ReturnInst, ResumeInst>(BB.getTerminator()))
        Exits.push_back(BB.getTerminator());
    for (Instruction *Exit : Exits)
      emitFlush(Exit, P, Slots);
  }

  DominatorTree DT(F);
  PromoteMemToReg(Slots, DT);
  ++NumFunctions;
}

void ModuleInstrumenter::warnUnmatchedSpec() {
  if (!HaveSpec)
    return;
  bool Any = false;
  for (size_t I = 0; I < Spec.n; ++I)
    Any |= Spec.entries[I].matched != 0;
  if (!Any) {
    warn("PASTA_LINES " + quoted(Opts.Lines) + " selects nothing to count in " +
         M.getSourceFileName());
    return;
  }
  for (size_t I = 0; I < Spec.n; ++I) {
    const pasta_range_entry &E = Spec.entries[I];
    if (E.matched || !E.file)
      continue;
    for (const auto &File : FilesSeen.keys())
      if (pasta_range_spec_file_matches(E.file, File.str().c_str())) {
        warn("PASTA_LINES entry for " + quoted(E.file) +
             " selects nothing to count in " + File);
        break;
      }
  }
}

static Constant *u32Array(LLVMContext &Ctx, const uint32_t *Data, size_t N) {
  return ConstantDataArray::get(Ctx, ArrayRef<uint32_t>(Data, N));
}

void ModuleInstrumenter::emitTables() {
  unsigned AS = Target == PASTA_TARGET_HOST ? 0 : 1;
  Type *I32 = Type::getInt32Ty(Ctx);
  Type *I64 = Type::getInt64Ty(Ctx);
  auto MakeGlobal = [&](StringRef Name, Constant *Init, bool IsConst) {
    auto *GV = new GlobalVariable(
        M, Init->getType(), IsConst, GlobalValue::InternalLinkage, Init,
        Name + "_" + Id, nullptr, GlobalValue::NotThreadLocal, AS);
    GV->setAlignment(Align(8));
    return GV;
  };
  auto AddressOf = [&](GlobalVariable *GV) {
    return ConstantExpr::getPtrToInt(GV, I64);
  };

  std::string Blob = Strings.blob();
  uint32_t ModuleName = Strings.intern(M.getSourceFileName());
  Blob = Strings.blob();
  auto *StrGV = MakeGlobal(
      "__pasta_strings", ConstantDataArray::getString(Ctx, Blob, false), true);
  auto *FuncGV =
      MakeGlobal("__pasta_funcs",
                 u32Array(Ctx, reinterpret_cast<const uint32_t *>(Funcs.data()),
                          Funcs.size() * sizeof(pasta_func) / 4),
                 true);
  auto *SiteGV =
      MakeGlobal("__pasta_sites",
                 u32Array(Ctx, reinterpret_cast<const uint32_t *>(Sites.data()),
                          Sites.size() * sizeof(pasta_site) / 4),
                 true);

  std::vector<pasta_access> AccessRows;
  for (auto &[I, Row] : Accesses)
    AccessRows.push_back(Row);
  auto *ScopeGV = MakeGlobal(
      "__pasta_scopes",
      u32Array(Ctx, reinterpret_cast<const uint32_t *>(ScopeRows.data()),
               ScopeRows.size() * sizeof(pasta_scope) / 4),
      true);
  auto *AccessGV = MakeGlobal(
      "__pasta_accesses",
      u32Array(Ctx, reinterpret_cast<const uint32_t *>(AccessRows.data()),
               AccessRows.size() * sizeof(pasta_access) / 4),
      true);

  uint32_t Banks = numBanks();
  // The counters were created (empty-sized) before emission so the flush
  // calls could name them; give them their final size now.
  auto *CountTy = ArrayType::get(I64, uint64_t(Banks) * NumCounters);
  auto *Final =
      new GlobalVariable(M, CountTy, false, GlobalValue::InternalLinkage,
                         ConstantAggregateZero::get(CountTy), "", nullptr,
                         GlobalValue::NotThreadLocal, AS);
  Final->setAlignment(Align(8));
  Final->takeName(Counters);
  Counters->replaceAllUsesWith(Final);
  Counters->eraseFromParent();
  Counters = Final;

  SmallVector<Type *, 17> Fields(8, I32);
  Fields.append(5, I64);
  Fields.append(2, I32);
  Fields.append(2, I64);
  auto *DescTy = StructType::get(Ctx, Fields);
  Constant *Desc = ConstantStruct::get(
      DescTy,
      {ConstantInt::get(I32, PASTA_ABI_MAGIC),
       ConstantInt::get(I32, PASTA_ABI_VERSION), ConstantInt::get(I32, Target),
       ConstantInt::get(I32, Banks), ConstantInt::get(I32, Funcs.size()),
       ConstantInt::get(I32, Sites.size()), ConstantInt::get(I32, NumCounters),
       ConstantInt::get(I32, Blob.size()), AddressOf(FuncGV), AddressOf(SiteGV),
       AddressOf(StrGV), AddressOf(Counters), ConstantInt::get(I64, ModuleName),
       ConstantInt::get(I32, ScopeRows.size()),
       ConstantInt::get(I32, AccessRows.size()), AddressOf(ScopeGV),
       AddressOf(AccessGV)});

  if (Target == PASTA_TARGET_HOST) {
    auto *DescGV = MakeGlobal("__pasta_host_desc", Desc, true);
    if (DescPlaceholder) {
      DescPlaceholder->replaceAllUsesWith(DescGV);
      DescPlaceholder->eraseFromParent();
    }
    Function *Ctor = Function::Create(
        FunctionType::get(Type::getVoidTy(Ctx), false),
        GlobalValue::InternalLinkage, "__pasta_host_ctor_" + Id, M);
    IRBuilder<> B(BasicBlock::Create(Ctx, "", Ctor));
    B.CreateCall(M.getOrInsertFunction(HostRegisterName, B.getVoidTy(),
                                       PointerType::get(Ctx, 0)),
                 {DescGV});
    B.CreateRetVoid();
    appendToGlobalCtors(M, Ctor, 0);
    return;
  }
  // The descriptor is the one symbol the host looks up by name.
  auto *DescGV = new GlobalVariable(
      M, DescTy, true, GlobalValue::ExternalLinkage, Desc,
      PASTA_DESC_PREFIX + Id, nullptr, GlobalValue::NotThreadLocal, AS);
  DescGV->setAlignment(Align(8));
  DescGV->setVisibility(GlobalValue::DefaultVisibility);
  appendToUsed(M, {DescGV});
}

// One line per function and per site, stable and readable, for lit tests:
//   pasta: site F:L func=<name> counter=C [dyn=D] ld.global=2 ldB.global=8 ...
void ModuleInstrumenter::printSites(raw_ostream &OS) const {
  static const char *Spaces[] = {
#define PASTA_X(id, name) name,
      PASTA_SPACES(PASTA_X)
#undef PASTA_X
  };
  static const char *Precisions[] = {
#define PASTA_X(id, name) name,
      PASTA_PRECISIONS(PASTA_X)
#undef PASTA_X
  };
  const std::string &Str = Strings.blob();
  auto At = [&](uint32_t Off) {
    return Off == PASTA_NONE ? StringRef("?") : StringRef(Str.c_str() + Off);
  };
  static const char *Kinds[] = {"kernel", "device", "host"};
  for (const pasta_func &F : Funcs)
    OS << "pasta: func " << At(F.name) << " kind=" << Kinds[F.kind]
       << " calls=" << F.calls_counter << "\n";
  struct Group {
    const char *Name;
    unsigned Base, Count;
  };
  const Group Groups[] = {
      {"ld.", PASTA_MIX_LOADS, PASTA_NUM_SPACES},
      {"st.", PASTA_MIX_STORES, PASTA_NUM_SPACES},
      {"ldB.", PASTA_MIX_LOAD_BYTES, PASTA_NUM_SPACES},
      {"stB.", PASTA_MIX_STORE_BYTES, PASTA_NUM_SPACES},
      {"atom.", PASTA_MIX_ATOMICS, PASTA_NUM_SPACES},
      {"atomB.", PASTA_MIX_ATOMIC_BYTES, PASTA_NUM_SPACES},
      {"flop.", PASTA_MIX_FLOPS, PASTA_NUM_PRECISIONS},
  };
  for (const pasta_site &S : Sites) {
    OS << "pasta: site " << sys::path::filename(At(S.file)) << ":" << S.line
       << " func=" << At(Funcs[S.func].name) << " counter=" << S.counter;
    if (S.dyn_counter != PASTA_NONE)
      OS << " dyn=" << S.dyn_counter;
    for (const Group &G : Groups)
      for (unsigned I = 0; I < G.Count; ++I)
        if (S.mix[G.Base + I])
          OS << " " << G.Name
             << (G.Base == PASTA_MIX_FLOPS ? Precisions[I] : Spaces[I]) << "="
             << S.mix[G.Base + I];
    if (S.mix[PASTA_MIX_SPECIAL])
      OS << " special=" << S.mix[PASTA_MIX_SPECIAL];
    OS << "\n";
  }
  OS << "pasta: module counters=" << NumCounters << "\n";
}

// One line per scope and per access, for lit tests:
//   pasta: scope 2 loop parent=0 line=12:5 depth=1 func=<name>
//   pasta: access site=3 scope=2 r stride-1 stride=1 param=0 bytes=4
void ModuleInstrumenter::printScopes(raw_ostream &OS) const {
  static const char *Kinds[] = {"func", "loop", "conditional", "parallel"};
  static const char *Classes[] = {"unknown", "constant", "stride-1", "stride-k",
                                  "indirect"};
  const std::string &Str = Strings.blob();
  for (size_t I = 0; I < ScopeRows.size(); ++I) {
    const pasta_scope &S = ScopeRows[I];
    OS << "pasta: scope " << I << " " << Kinds[S.kind] << " parent=";
    if (S.parent == PASTA_NONE)
      OS << "none";
    else
      OS << S.parent;
    OS << " line=" << S.line << ":" << S.col << " depth=" << S.loop_depth
       << " func=" << StringRef(Str.c_str() + S.func) << "\n";
  }
  for (auto &[I, A] : Accesses) {
    OS << "pasta: access site=" << A.site << " scope=" << A.scope << " "
       << char(A.mode) << " " << Classes[A.klass] << " stride=" << A.stride
       << " param=";
    if (A.param == PASTA_NONE)
      OS << "none";
    else
      OS << A.param;
    OS << " bytes=" << A.bytes << " line=" << A.line << "\n";
  }
}

bool ModuleInstrumenter::run() {
  if (!parseOptions())
    return false;
  // A GPU target PASTA has no device runtime for (e.g. SPIR-V) is left as it
  // is: counting it as host code would call the host runtime from the GPU.
  if (Target == PASTA_TARGET_HOST && M.getTargetTriple().isGPU()) {
    warn("target '" + M.getTargetTriple().str() +
         "' is not supported (only nvptx64 and amdgcn GPUs); " +
         M.getSourceFileName() + " is compiled without instrumentation");
    return false;
  }
  if (Target == PASTA_TARGET_HOST && !Opts.Host)
    return false;

  SetVector<Function *> Roots = selectFunctions();
  SmallVector<Function *, 8> Copied; // kernels and what they reach
  if (Target == PASTA_TARGET_HOST) {
    for (Function *F : Roots)
      planFunction(*F, PASTA_FUNC_HOST, PASTA_NONE);
  } else {
    SmallVector<Function *, 8> Kernels(Roots.begin(), Roots.end());
    auto Reach = reachingKernels(Kernels);
    if (Opts.Variants) {
      Copied.append(Kernels.begin(), Kernels.end());
      for (Function &F : M)
        if (Reach.count(&F))
          Copied.push_back(&F);
      createPlainVariants(M, Copied);
    }
    DenseMap<Function *, uint32_t> KernelIndex;
    for (Function *K : Kernels) {
      uint32_t Before = Funcs.size();
      planFunction(*K, PASTA_FUNC_KERNEL, PASTA_NONE);
      KernelIndex[K] = Funcs.size() > Before ? Before : PASTA_NONE;
    }
    for (Function &F : M) {
      auto It = Reach.find(&F);
      if (It == Reach.end())
        continue;
      uint32_t Owner = It->second.size() == 1
                           ? KernelIndex[Kernels[It->second[0]]]
                           : PASTA_NONE;
      planFunction(F, PASTA_FUNC_DEVICE, Owner);
    }
  }
  warnUnmatchedSpec();

  // Device modules always get a descriptor: the host half of the program
  // registers it by name whether or not anything here was selected.
  if (Plans.empty() && Target == PASTA_TARGET_HOST)
    return false;

  // Each bank's row of counters fills whole 128-byte lines, so the atomics of
  // different banks never share a cache line.
  if (Target != PASTA_TARGET_HOST)
    NumCounters = alignTo(NumCounters, 16);
  if (Opts.PrintSites)
    printSites(errs());
  unsigned AS = Target == PASTA_TARGET_HOST ? 0 : 1;
  Counters = new GlobalVariable(
      M, Type::getInt64Ty(Ctx), false, GlobalValue::InternalLinkage,
      ConstantInt::get(Type::getInt64Ty(Ctx), 0), "__pasta_counters_" + Id,
      nullptr, GlobalValue::NotThreadLocal, AS);
  for (FunctionPlan &P : Plans)
    emitFunction(P);
  if (!Copied.empty())
    createWorkingSetVariants(M, Copied, Tracked);
  buildScopes();
  if (!Copied.empty() && Opts.Trace)
    createTraceVariants(M, Copied, ScopesOf);
  if (Opts.PrintSites)
    printScopes(errs());
  emitTables();
  if (Target != PASTA_TARGET_HOST && !Plans.empty() && Opts.LinkRuntime)
    linkDeviceRuntime(M, Target);
  return true;
}

PreservedAnalyses CountingPass::run(Module &M, ModuleAnalysisManager &) {
  ModuleInstrumenter MI(M, Opts);
  return MI.run() ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
