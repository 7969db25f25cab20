//===- CountingPass.cpp - Count block executions per thread ---------------===//
//
// For every selected function the pass plans, then emits:
//
//  1. Selection (Selection.h). With PASTA_LINES, an instruction is selected
//     when its line range overlaps the requested lines; PASTA_KERNELS
//     filters kernels by name; device functions are kept when a selected
//     kernel reaches them. Each basic block's selected instructions are
//     costed (StaticMix) and grouped by source line into sites. A block with
//     nothing to count gets no counter.
//  2. Counting and flushes (CounterEmission.h): per-thread counters in
//     registers, flushed once per thread at exit (GPUs), or at every point
//     where the frame may end (host).
//  3. Scopes (C.A.T.S.). Every instrumented function's scopes (Scopes.h) go
//     into the scope table, and every global access of a device module into
//     the access table with its scalar-evolution class
//     (AccessClassification.h) and innermost scope. With PASTA_TRACE=1, host
//     functions call __pasta_scope_enter/exit, and kernels get a trace copy
//     (KernelVariants.h).
//     With PASTA_DIVERGENCE=1, kernels also get a divergence copy
//     (Divergence.h), planned before the counting code goes in.
//  4. Tables (ModuleTables.h): the site, function, scope and access tables,
//     the strings and the counters, as globals described by one struct
//     pasta_module_desc (include/pasta/abi.h), which the host runtime reads.
//
//===----------------------------------------------------------------------===//
#include "CountingPass.h"
#include "AbiTypes.h"
#include "CalleeCounts.h"
#include "CappedCopies.h"
#include "CounterEmission.h"
#include "DeviceRuntime.h"
#include "Divergence.h"
#include "DivergenceOneLane.h"
#include "KernelVariants.h"
#include "ModuleTables.h"
#include "Scopes.h"
#include "Selection.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace pasta;

static constexpr const char *ScopeEnterName = "__pasta_scope_enter";
static constexpr const char *ScopeExitName = "__pasta_scope_exit";
static constexpr const char *ScopeResumeName = "__pasta_scope_resume";

namespace {

// One module's instrumentation, in the order of the steps above.
class ModuleInstrumenter {
public:
  ModuleInstrumenter(Module &M, const Options &Opts,
                     FunctionAnalysisManager &FAM)
      : M(M), Ctx(M.getContext()), Opts(Opts), FAM(FAM), Tables(M),
        Sel(M, Opts, Tables, FAM) {}

  bool run();

private:
  void buildScopes();
  void instrumentHostScopes(FunctionScopes &FS, uint32_t Base);

  Module &M;
  LLVMContext &Ctx;
  const Options &Opts;
  FunctionAnalysisManager &FAM;
  ModuleTables Tables;
  Selection Sel;
  ScopeRanges ScopesOf; // each planned function's rows, for the trace copies
  CountTwins Twins;     // device functions' copies for direct calls
};

} // namespace

// Host functions report their scopes to the runtime: the descriptor (a
// placeholder until emitTables makes it) and the scope's row.
void ModuleInstrumenter::instrumentHostScopes(FunctionScopes &FS,
                                              uint32_t Base) {
  PointerType *Ptr = PointerType::get(Ctx, 0);
  Type *I32 = Type::getInt32Ty(Ctx);
  Type *Void = Type::getVoidTy(Ctx);
  GlobalVariable *Desc = Tables.hostDescriptor(M);
  FunctionCallee Enter = M.getOrInsertFunction(ScopeEnterName, Void, Ptr, I32);
  FunctionCallee Exit =
      M.getOrInsertFunction(ScopeExitName, Void, Ptr, I32, I32);
  ScopeHooks H;
  H.Enter = [&](IRBuilder<> &B, uint32_t Local) {
    B.CreateCall(Enter, {Desc, B.getInt32(Base + Local)});
  };
  H.Exit = [&](IRBuilder<> &B, uint32_t Local, Value *Trips) {
    B.CreateCall(
        Exit, {Desc, B.getInt32(Base + Local), Trips ? Trips : B.getInt32(0)});
  };
  FunctionCallee Resume =
      M.getOrInsertFunction(ScopeResumeName, Void, Ptr, I32);
  H.Resume = [&](IRBuilder<> &B, uint32_t Local) {
    B.CreateCall(Resume, {Desc, B.getInt32(Base + Local)});
  };
  FS.instrument(H);
}

// The scope table (every planned function's scopes, discovered on the
// counting code: PASTA's own branches are marked and skipped), each access's
// innermost scope and, with PASTA_TRACE=1, the host functions' events.
void ModuleInstrumenter::buildScopes() {
  DenseMap<Function *, SmallVector<size_t, 8>> AccessesOf;
  for (size_t I = 0; I < Tables.Accesses.size(); ++I)
    AccessesOf[Tables.Accesses[I].first->getFunction()].push_back(I);
  for (FunctionPlan &P : Sel.Plans) {
    FunctionScopes FS(*P.F, FAM, P.Kind == PASTA_FUNC_KERNEL, P.F->getName());
    uint32_t Base = Tables.ScopeRows.size();
    for (const Scope &S : FS.scopes()) {
      pasta_scope R{};
      R.id = S.Id;
      R.kind = S.Kind;
      R.parent = S.Parent == PASTA_NONE ? PASTA_NONE : Base + S.Parent;
      R.func = Tables.Funcs[P.Index].name;
      R.file = S.File.empty() ? Tables.Funcs[P.Index].file
                              : Tables.Strings.intern(joinPath(S.Dir, S.File));
      R.line = S.Line;
      R.col = S.Col;
      R.loop_depth = S.LoopDepth;
      Tables.ScopeRows.push_back(R);
    }
    ScopesOf[P.F] = {Base, static_cast<uint32_t>(FS.scopes().size())};
    for (size_t I : AccessesOf.lookup(P.F))
      Tables.Accesses[I].second.scope =
          Base + FS.innermost(Tables.Accesses[I].first->getParent());
    if (Tables.Target == PASTA_TARGET_HOST && Opts.Trace)
      instrumentHostScopes(FS, Base);
  }
}

bool ModuleInstrumenter::run() {
  if (!Sel.parseOptions())
    return false;
  // A GPU target PASTA has no device runtime for (e.g. SPIR-V) is left as it
  // is: counting it as host code would call the host runtime from the GPU.
  if (Tables.Target == PASTA_TARGET_HOST && M.getTargetTriple().isGPU()) {
    reportWarning(Ctx, "target '" + M.getTargetTriple().str() +
                           "' is not supported (only nvptx64 and amdgcn "
                           "GPUs); " +
                           M.getSourceFileName() +
                           " is compiled without instrumentation");
    return false;
  }
  if (Tables.Target == PASTA_TARGET_HOST && !Opts.Host)
    return false;

  SetVector<Function *> Roots = Sel.selectFunctions();
  SmallVector<Function *, 8> Copied; // kernels and what they reach
  if (Tables.Target == PASTA_TARGET_HOST) {
    for (Function *F : Roots)
      Sel.planFunction(*F, PASTA_FUNC_HOST, PASTA_NONE);
  } else {
    SmallVector<Function *, 8> Kernels(Roots.begin(), Roots.end());
    // Originals a twin replaced in every direct call stay counted for their
    // other uses (calls through pointers), as the kernels reached them, but
    // need no copies: no copy calls them directly.
    auto Reach = reachingKernels(Kernels);
    warnUncountedIndirectCallees(M, Kernels, Reach, Tables.Uncounted);
    warnUncountedMemoryAsm(M, Kernels, Reach, Tables.Uncounted);
    warnUncountedMemoryIntrinsics(M, Kernels, Reach, Tables.Uncounted);
    warnTextureSurfaceAsm(M, Kernels, Reach, Tables.Uncounted);
    if (Opts.Divergence) {
      warnUnmeasuredMemoryAsm(M, Kernels, Reach);
      warnUnmeasuredScopedAtomics(M, Kernels, Reach);
    }
    if (Opts.Variants && Opts.WorkingSetCopies)
      warnUntrackedMemoryAsm(M, Kernels, Reach);
    warnWmmaMemory(M, Kernels, Reach, Opts.Divergence,
                   Opts.Variants && Opts.WorkingSetCopies);
    decltype(Reach) Kept;
    // Divergence builds too: otherwise their copies flush a device
    // function's counting counts at every call (bfs's visit, per edge).
    if (Opts.CalleeCounts && !Opts.Trace) {
      Twins = createCountTwins(M, Kernels, Reach, Sel);
      Sel.setArgumentSpaces(&Twins.ArgumentSpaces);
      auto Before = std::move(Reach);
      Reach = reachingKernels(Kernels);
      for (auto &[F, Ks] : Before)
        if (!Reach.count(F) && Twins.TwinOf.count(F))
          Kept[F] = Ks;
    }
    if (Opts.Variants) {
      Copied.append(Kernels.begin(), Kernels.end());
      for (Function &F : M)
        if (Reach.count(&F))
          Copied.push_back(&F);
      if (Opts.PlainCopies)
        createPlainVariants(M, Copied);
    }
    DenseMap<Function *, uint32_t> KernelIndex;
    for (Function *K : Kernels) {
      uint32_t Before = Tables.Funcs.size();
      Sel.planFunction(*K, PASTA_FUNC_KERNEL, PASTA_NONE);
      KernelIndex[K] = Tables.Funcs.size() > Before ? Before : PASTA_NONE;
    }
    for (Function &F : M) {
      auto It = Reach.find(&F);
      if (It == Reach.end() && (It = Kept.find(&F)) == Kept.end())
        continue;
      uint32_t Owner = It->second.size() == 1
                           ? KernelIndex[Kernels[It->second[0]]]
                           : PASTA_NONE;
      Sel.planFunction(F, PASTA_FUNC_DEVICE, Owner);
    }
  }
  Sel.warnUnmatchedSpec();

  // Device modules always get a descriptor: the host half of the program
  // registers it by name whether or not anything here was selected.
  if (Sel.Plans.empty() && Tables.Target == PASTA_TARGET_HOST)
    return false;

  // With PASTA_DIVERGENCE=1 the divergence rows' counters follow the
  // functions' own, planned before any counting code goes in.
  DivergencePlan Divergence;
  if (!Copied.empty() && Opts.Divergence)
    Divergence = planDivergence(Sel.Plans, Tables, FAM, Opts.DivMaxRegisters);

  // Each bank's row of counters fills whole 128-byte lines, so the atomics of
  // different banks never share a cache line.
  if (Tables.Target != PASTA_TARGET_HOST)
    Tables.NumCounters = alignTo(Tables.NumCounters, 16);
  Tables.createCounters(M);
  Sel.setArgumentSpaces(nullptr); // planned: classified
  ReturnedCounts Returned;
  if (!Twins.All.empty()) {
    Returned = planReturnedCounts(Sel.Plans, Twins, Tables, FAM,
                                  /*Frames=*/!Opts.Divergence);
    for (Function *&F : Copied)
      if (Function *New = Returned.Replaced.lookup(F))
        F = New;
    // The divergence plan's segments start after calls that the returning
    // twins replaced: their warps are counted after the new calls.
    for (DivergencePlan::Segment &S : Divergence.Segments)
      if (CallInst *New = Returned.CallReplaced.lookup(S.After))
        S.After = New;
  }
  SmallPtrSet<Function *, 4> OneThread; // found before the counting code
  SmallPtrSet<Function *, 4> Serial;    // kernels given a one-lane copy
  SmallPtrSet<Function *, 4> Wide;      // so are those of many live values
  for (Function *F : Copied) {
    if (runsInOneThread(*F))
      OneThread.insert(F);
    if (Opts.Divergence && looksSerial(*F))
      Serial.insert(F);
    if (Tables.Target == PASTA_TARGET_NVPTX && Opts.WorkingSetCopies &&
        mayOutgrowItsBlocks(*F))
      Wide.insert(F);
  }
  CounterEmitter Emitter(M, Tables, FAM, &Returned,
                         !Opts.Divergence && !Opts.Trace);
  for (FunctionPlan &P : Sel.Plans)
    Emitter.emit(P);
  SmallVector<Function *, 4> CapItself;
  if (!Copied.empty() && Tables.Target == PASTA_TARGET_NVPTX)
    CapItself = createCappedCopies(M, Copied, Opts.CappedCopies, OneThread);
  if (!Copied.empty() && Opts.WorkingSetCopies)
    createWorkingSetVariants(M, Copied, Sel.Tracked, Opts.WSCompactAbove, FAM);
  if (!Copied.empty() && Opts.WorkingSetCopies &&
      Tables.Target == PASTA_TARGET_NVPTX)
    createCappedWorkingSetCopies(M, Copied, Opts.CappedCopies, Wide);
  if (!Copied.empty() && Opts.Divergence)
    createDivergenceVariants(M, Copied, Divergence, Tables, FAM,
                             Opts.DivMaxRegisters, Opts.DivDrainVisits, Serial);
  buildScopes();
  if (!Copied.empty() && Opts.Trace)
    createTraceVariants(M, Copied, ScopesOf, FAM);
  capCountingKernels(CapItself);
  // After every copy and cap: each copy keeps one general path of its flush.
  resolveRegisterCapChoices(M);
  if (Opts.PrintSites) { // after the copies: they derive counters too
    Tables.printSites(errs());
    Tables.printScopes(errs());
  }
  Tables.emit(M);
  if (Tables.Target != PASTA_TARGET_HOST && !Sel.Plans.empty() &&
      Opts.LinkRuntime)
    linkDeviceRuntime(M, Tables.Target, FAM, Opts.CleanupCopies);
  return true;
}

PreservedAnalyses CountingPass::run(Module &M, ModuleAnalysisManager &MAM) {
  abi::verifyLayouts();
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  ModuleInstrumenter MI(M, Opts, FAM);
  return MI.run() ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
