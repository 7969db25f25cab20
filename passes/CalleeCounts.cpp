//===- CalleeCounts.cpp - Device functions that hand counts to callers ----===//
//
// See CalleeCounts.h.
//
//===----------------------------------------------------------------------===//
#include "CalleeCounts.h"
#include "IRHelpers.h"
#include "ThreadExits.h"

#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/CallGraph.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <cstdlib>

using namespace llvm;
using namespace pasta;

#define DEBUG_TYPE "pasta"

STATISTIC(NumTwins, "Device functions given a twin for direct calls");
STATISTIC(NumGlobalArguments, "Twin pointer parameters proven global");
STATISTIC(NumSharedArguments, "Twin pointer parameters proven shared");
STATISTIC(NumLocalArguments, "Twin pointer parameters proven local");
STATISTIC(NumReturning, "Twins that return their counts to their callers");
STATISTIC(NumFrameTwins, "Twins that add their counts into callers' frames");
STATISTIC(NumDeadOriginals,
          "Device functions removed: nothing calls them, whole program");

static cl::opt<bool> FrameBitRuns(
    "pasta-frame-bit-runs", cl::init(false), cl::Hidden,
    cl::desc("Frame twins add their bits to the frame as runs of one mask "
             "(CalleeCounts.h, CountFrame) instead of one count each"));

// The function that adds a frame's pending bit runs to its bits' counts
// (CountFrame::Settle), empty until its twin is emitted.
static Function *createSettle(Function &Twin, Type *FramePtr) {
  auto *Ty =
      FunctionType::get(Type::getVoidTy(Twin.getContext()), {FramePtr}, false);
  Function *Settle =
      Function::Create(Ty, GlobalValue::InternalLinkage, Twin.getAddressSpace(),
                       Twin.getName() + ".pasta.settle", Twin.getParent());
  for (StringRef A : {"target-cpu", "target-features"})
    if (Twin.hasFnAttribute(A))
      Settle->addFnAttr(Twin.getFnAttribute(A));
  Settle->addFnAttr(Attribute::NoUnwind);
  ReturnInst::Create(Twin.getContext(),
                     BasicBlock::Create(Twin.getContext(), "", Settle));
  return Settle;
}

// Step 3 (CalleeCounts.h): twins over the return limit add their counts
// into their callers' frames instead of flushing at every return. Off by
// default: on an H200 it made AutoDock-GPU's gradient_minAD faster (1.26x ->
// 1.18x clang-plain; 1.13x with -pasta-frame-bit-runs), but four structures
// slower (segreduce 1.07x -> 1.23x, splitwarps' walk_probed 1.26x -> 1.53x,
// persistent 1.07x -> 1.12x, framecallee 1.19x -> 1.29x): a frame add per
// count and call costs more than the flush at a return that few calls or
// uniform warps make cheap
// (docs/lab/2026-12-01-overhead3-98-callee-returns.md).
static cl::opt<bool> CalleeFrames(
    "pasta-callee-frames", cl::init(false), cl::Hidden,
    cl::desc("Device functions over the return limit add their counts into "
             "a frame their callers own and flush (default off)"));

// Whether the module's device code is the whole program's (no -fgpu-rdc):
// then no other module can call an external device function, and an
// original whose every direct call went to its twin never runs. Counting
// it anyway made myocyte 12's code generation 0.12 s longer (ptxas drops
// it). Unset: read from the command line (wholeProgramFromCommandLine).
static cl::opt<cl::boolOrDefault> WholeProgram(
    "pasta-whole-program", cl::Hidden,
    cl::desc("Device code is the whole program (no -fgpu-rdc): originals "
             "that only the twins replaced go (default: clang's command "
             "line says)"));

// Whether this process is clang compiling without -fgpu-rdc (cc1 runs in
// the driver's process by default, so these are the driver's arguments,
// or cc1's where it runs apart). Not sure (another tool, a response file,
// a config file or an override that could hold the flag, OpenMP offload):
// no. Wrong the other way round,
// a -fgpu-rdc build would fail to link (the original gone), not count
// wrong.
static bool wholeProgramFromCommandLine() {
  auto Buf = MemoryBuffer::getFileAsStream("/proc/self/cmdline");
  if (!Buf || std::getenv("CCC_OVERRIDE_OPTIONS"))
    return false;
  SmallVector<StringRef, 64> Args;
  (*Buf)->getBuffer().split(Args, '\0', -1, false);
  if (Args.empty() || !sys::path::filename(Args[0]).contains("clang"))
    return false;
  bool Rdc = false;
  for (StringRef A : drop_begin(Args)) {
    // OpenMP offload's device code is always linked (no -fgpu-rdc says
    // so); a response file or a config file may hold -fgpu-rdc.
    if (A.starts_with("@") || A.starts_with("--config") ||
        A.starts_with("-fopenmp") || A.starts_with("-foffload-via-llvm"))
      return false;
    if (A == "-fgpu-rdc" || A == "-fcuda-rdc")
      Rdc = true;
    else if (A == "-fno-gpu-rdc" || A == "-fno-cuda-rdc")
      Rdc = false;
  }
  return !Rdc;
}

static bool isWholeProgram() {
  if (WholeProgram != cl::BOU_UNSET)
    return WholeProgram == cl::BOU_TRUE;
  static const bool FromCommandLine = wholeProgramFromCommandLine();
  return FromCommandLine;
}

// The functions of M that call themselves through a chain of direct calls:
// those in a cycle of the call graph (one pass over it, Tarjan's SCCs).
static DenseSet<const Function *> recursiveFunctions(Module &M) {
  DenseSet<const Function *> Recursive;
  CallGraph CG(M);
  for (auto SCC = scc_begin(&CG); !SCC.isAtEnd(); ++SCC) {
    const std::vector<CallGraphNode *> &Nodes = *SCC;
    if (Nodes.size() > 1 || SCC.hasCycle())
      for (CallGraphNode *N : Nodes)
        if (const Function *F = N->getFunction())
          Recursive.insert(F);
  }
  return Recursive;
}

// Whether F can have a twin: copied and, later, given another return type.
static bool mayTwin(Function &F, const DenseSet<const Function *> &Recursive) {
  if (F.isVarArg() || F.hasFnAttribute(Attribute::NoDuplicate) ||
      !threadEnds(F).empty() || Recursive.count(&F))
    return false;
  for (User *U : F.users())
    if (auto *CI = dyn_cast<CallInst>(U))
      if (CI->getCalledOperand() == &F && CI->isMustTailCall())
        return false;
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I); CI && CI->isMustTailCall())
      return false;
  return true;
}

static Function *copyAsTwin(Module &M, Function &F) {
  Function *Twin =
      Function::Create(F.getFunctionType(), GlobalValue::InternalLinkage,
                       F.getAddressSpace(), F.getName() + CalleeTwinSuffix, &M);
  ValueToValueMapTy VMap;
  auto TwinArg = Twin->arg_begin();
  for (Argument &A : F.args()) {
    TwinArg->setName(A.getName());
    VMap[&A] = &*TwinArg++;
  }
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(Twin, &F, VMap, CloneFunctionChangeType::GlobalChanges,
                    Returns); // copies F's attributes, linkage aside
  Twin->setLinkage(GlobalValue::InternalLinkage);
  Twin->setVisibility(GlobalValue::DefaultVisibility);
  Twin->setDSOLocal(true);
  Twin->setComdat(nullptr);
  return Twin;
}

// Whether A is a pointer parameter whose space a proof may give: a generic
// pointer the twin's callers pass, not a copy the call makes (byval).
static bool mayProveSpace(const Argument &A) {
  return A.getType()->isPointerTy() &&
         A.getType()->getPointerAddressSpace() == 0 &&
         !A.hasPassPointeeByValueCopyAttr() && !A.hasStructRetAttr() &&
         !A.hasByRefAttr();
}

// Adds to Spaces, as Space, the pointer parameters of twins not proven yet
// that every call passes a pointer into Space for: all of them first, then
// out again where some call does not, until every one left is proven,
// given the others (twins never recurse). An entry added can only make a
// classification more precise, never change one already made, so proofs
// of earlier spaces stand.
static void
proveArgumentSpace(ArrayRef<Function *> Twins, const StaticMixAnalysis &Mixes,
                   pasta_space Space,
                   DenseMap<const Argument *, pasta_space> &Spaces) {
  for (Function *T : Twins)
    for (Argument &A : T->args())
      if (mayProveSpace(A))
        Spaces.try_emplace(&A, Space); // not where an earlier space holds
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Function *T : Twins)
      for (User *U : T->users()) {
        auto *CI = dyn_cast<CallInst>(U);
        for (Argument &A : T->args()) {
          auto It = Spaces.find(&A);
          if (It == Spaces.end() || It->second != Space)
            continue;
          if (CI && CI->getCalledOperand() == T &&
              Mixes.classifyPointer(CI->getArgOperand(A.getArgNo())) == Space)
            continue;
          Spaces.erase(It);
          Changed = true;
        }
      }
  }
}

// The twins' pointer parameters that point to one space at every call:
// global (a kernel's arguments, handed down), shared (a __shared__
// variable's storage, as moderngpu's cta_segreduce_t::segreduce takes it)
// or local (a caller's array). An access through one is counted in its
// space, with no run-time test of the space and one counter instead of
// one per space.
static void
proveArgumentSpaces(ArrayRef<Function *> Twins, const StaticMixAnalysis &Mixes,
                    DenseMap<const Argument *, pasta_space> &Spaces) {
  for (pasta_space S :
       {PASTA_SPACE_GLOBAL, PASTA_SPACE_SHARED, PASTA_SPACE_LOCAL})
    proveArgumentSpace(Twins, Mixes, S, Spaces);
  for (auto &[A, S] : Spaces) {
    NumGlobalArguments += S == PASTA_SPACE_GLOBAL;
    NumSharedArguments += S == PASTA_SPACE_SHARED;
    NumLocalArguments += S == PASTA_SPACE_LOCAL;
  }
}

// Deletes F and the analyses cached for it (Selection::analyses).
static void eraseFunction(Function &F, FunctionAnalysisManager &FAM) {
  FAM.clear(F, F.getName());
  F.eraseFromParent();
}

CountTwins pasta::createCountTwins(Module &M, ArrayRef<Function *> Kernels,
                                   const KernelReach &Reach, Selection &Sel) {
  CountTwins Result;
  SetVector<Function *> Originals;
  DenseSet<const Function *> Recursive = recursiveFunctions(M);
  for (Function &F : M)
    if (Reach.count(&F) && mayTwin(F, Recursive))
      Originals.insert(&F);
  for (Function *F : Originals) {
    Result.TwinOf[F] = copyAsTwin(M, *F);
    ++NumTwins;
    LLVM_DEBUG(dbgs() << "pasta: twin for " << F->getName() << "\n");
  }
  // The kernels' and the twins' direct calls go to the twins.
  SmallVector<Function *, 16> Callers(Kernels.begin(), Kernels.end());
  SmallVector<Function *, 16> Twins;
  for (Function *F : Originals)
    Twins.push_back(Result.TwinOf[F]);
  Callers.append(Twins.begin(), Twins.end());
  for (Function *Caller : Callers)
    for (Instruction &I : instructions(*Caller))
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (auto *Callee = dyn_cast<Function>(CI->getCalledOperand()))
          if (Function *Twin = Result.TwinOf.lookup(Callee))
            CI->setCalledFunction(Twin);
  // Twins nothing calls (called only through the original's other uses)
  // and originals nothing uses any more go (external ones only where the
  // device code is the whole program).
  for (Function *F : Originals) {
    Function *Twin = Result.TwinOf[F];
    if (Twin->use_empty()) {
      Result.TwinOf.erase(F);
      llvm::erase(Twins, Twin);
      eraseFunction(*Twin, Sel.analyses());
    }
  }
  bool Whole = isWholeProgram();
  for (Function *F : Originals)
    if (F->hasLocalLinkage() || F->hasLinkOnceLinkage() || Whole)
      if (F->use_empty() && Result.TwinOf.count(F)) {
        NumDeadOriginals += !F->hasLocalLinkage() && !F->hasLinkOnceLinkage();
        Result.TwinOf.erase(F);
        eraseFunction(*F, Sel.analyses());
      }
  // So do the device functions nothing calls (those inlined everywhere):
  // code generation of myocyte 12's seven took 0.04 s; ptxas drops them.
  if (Whole)
    for (Function &F : make_early_inc_range(M))
      if (!F.isDeclaration() && F.use_empty() && !isKernel(F) &&
          !F.hasLocalLinkage() && !Result.TwinOf.count(&F)) {
        ++NumDeadOriginals;
        eraseFunction(F, Sel.analyses());
      }
  // Each proof may rest on the twins' parameters proven so far.
  Sel.setArgumentSpaces(&Result.ArgumentSpaces);
  proveArgumentSpaces(Twins, Sel.mixes(), Result.ArgumentSpaces);
  Sel.setArgumentSpaces(nullptr); // the caller points it at its own copy
  Result.All = std::move(Twins);
  return Result;
}

// The counters of a planned function that may be non-zero at a return,
// the calls counter aside (its callers count calls).
// A function of type Ty beside F (its first parameters F's) holding F's
// body, attributes and metadata; F is left an empty declaration.
static Function *moveBodyToNewType(Function &F, FunctionType *Ty,
                                   FunctionAnalysisManager &FAM) {
  Function *New = Function::Create(Ty, F.getLinkage(), F.getAddressSpace(), "",
                                   F.getParent());
  New->copyAttributesFrom(&F);
  New->setDSOLocal(F.isDSOLocal());
  SmallVector<std::pair<unsigned, MDNode *>, 4> MDs;
  F.getAllMetadata(MDs);
  for (auto &[Kind, Node] : MDs)
    New->setMetadata(Kind, Node);
  FAM.clear(F, F.getName());
  New->splice(New->begin(), &F);
  for (auto [Old, Arg] : zip(F.args(), New->args())) {
    Old.replaceAllUsesWith(&Arg);
    Arg.takeName(&Old);
  }
  return New;
}

static SmallVector<uint32_t, 8> ownReturned(const FunctionPlan &P) {
  SmallVector<uint32_t, 8> Own;
  for (const CountedBlock &CB : P.Blocks) {
    if (CB.Measured)
      Own.push_back(CB.Counter);
    for (const GenericSite &G : CB.Generic) {
      uint32_t Base =
          G.Dyn + (G.What.IsStore ? PASTA_DYN_ST_SHARED : PASTA_DYN_LD_SHARED);
      for (uint32_t I = 0; I < 4; ++I)
        Own.push_back(Base + I);
    }
    append_range(Own, CB.BytesCounters);
  }
  llvm::sort(Own);
  Own.erase(std::unique(Own.begin(), Own.end()), Own.end());
  return Own;
}

// Adds Adds to Into, keeping Into's order and each index once.
static void addUnique(SmallVectorImpl<uint32_t> &Into,
                      ArrayRef<uint32_t> Adds) {
  for (uint32_t A : Adds)
    if (!is_contained(Into, A))
      Into.push_back(A);
}

static size_t unionSize(ArrayRef<uint32_t> A, ArrayRef<uint32_t> B) {
  size_t N = A.size();
  for (uint32_t X : B)
    N += !is_contained(A, X);
  return N;
}

// F, given the type that returns its value and Counts counts: a new
// function takes its body, name and uses (all direct calls). F is left
// empty, for the caller to erase once no map refers to it; so are F's
// calls (in DeadCalls, each with the call that replaces it): CallValueOf
// is keyed by them, and an address freed before the callers' plans are
// remapped could come back as another value (the next twin's argument)
// that the remap would then replace.
static Function *
retype(Function &F, unsigned Counts, FunctionAnalysisManager &FAM,
       DenseMap<CallInst *, uint32_t> &CallSource,
       DenseMap<Value *, Value *> &CallValueOf,
       SmallVectorImpl<std::pair<CallInst *, CallInst *>> &DeadCalls) {
  LLVMContext &Ctx = F.getContext();
  Type *ValueTy = F.getReturnType();
  SmallVector<Type *, 9> Elems;
  if (!ValueTy->isVoidTy())
    Elems.push_back(ValueTy);
  Elems.append(Counts, Type::getInt64Ty(Ctx));
  // Nothing to return (a void function whose counts its callers derive, as
  // a store through a pointer proven global): it stays void. An empty
  // struct is a zero-length .param array, which ptxas refuses.
  Type *Ret = Elems.empty() ? Type::getVoidTy(Ctx)
                            : static_cast<Type *>(StructType::get(Ctx, Elems));
  auto *Ty = FunctionType::get(Ret, F.getFunctionType()->params(), false);
  Function *New = moveBodyToNewType(F, Ty, FAM);
  New->setAttributes(F.getAttributes().removeAttributesAtIndex(
      Ctx, AttributeList::ReturnIndex));
  // Its returns: the value first, the counts (zero until CounterEmission
  // fills them in).
  for (BasicBlock &BB : *New)
    if (auto *RI = dyn_cast<ReturnInst>(BB.getTerminator());
        RI && !Ret->isVoidTy()) {
      IRBuilder<> B(RI);
      Value *Agg = PoisonValue::get(Ret);
      if (Value *V = RI->getReturnValue())
        Agg = B.CreateInsertValue(Agg, V, 0);
      for (unsigned I = 0; I < Counts; ++I)
        Agg =
            B.CreateInsertValue(Agg, B.getInt64(0), Elems.size() - Counts + I);
      B.CreateRet(Agg)->setDebugLoc(RI->getDebugLoc());
      RI->eraseFromParent();
    }
  for (User *U : make_early_inc_range(F.users())) {
    auto *CI = cast<CallInst>(U);
    IRBuilder<> B(CI);
    SmallVector<Value *, 8> Args(CI->args());
    SmallVector<OperandBundleDef, 1> Bundles;
    CI->getOperandBundlesAsDefs(Bundles);
    CallInst *Call = B.CreateCall(New, Args, Bundles);
    Call->setCallingConv(CI->getCallingConv());
    Call->setAttributes(CI->getAttributes().removeAttributesAtIndex(
        Ctx, AttributeList::ReturnIndex));
    Call->setTailCallKind(CI->getTailCallKind());
    Call->setDebugLoc(CI->getDebugLoc());
    if (!ValueTy->isVoidTy()) {
      Value *V = B.CreateExtractValue(Call, 0);
      CI->replaceAllUsesWith(V);
      CallValueOf[CI] = V;
    }
    if (auto It = CallSource.find(CI); It != CallSource.end()) {
      uint32_t Source = It->second;
      CallSource.erase(It);
      CallSource[Call] = Source;
    }
    DeadCalls.push_back({CI, Call});
  }
  New->takeName(&F);
  return New; // F, empty and unused, is erased by the caller
}

// The module counter of the block a call of a twin is in, in its caller's
// plan, when that block's count is the number of calls: nothing before the
// call in its block may end the thread or not return (only intrinsics and
// calls of twins, which never end it, may come before). PASTA_NONE when
// there is no such counter: the caller then counts the calls itself.
static uint32_t callBlockCounter(const CallInst &CI, const FunctionPlan &Caller,
                                 const DenseSet<Function *> &IsTwin) {
  const BasicBlock *BB = CI.getParent();
  auto CB =
      find_if(Caller.Blocks, [&](const CountedBlock &C) { return C.BB == BB; });
  if (CB == Caller.Blocks.end())
    return PASTA_NONE;
  for (const Instruction &I : *BB) {
    if (&I == &CI)
      return Caller.FirstCounter + CB->Counter;
    const auto *Call = dyn_cast<CallBase>(&I);
    if (endsThread(I) || (Call && (Call->doesNotReturn() ||
                                   !(isa<IntrinsicInst>(Call) ||
                                     IsTwin.count(Call->getCalledFunction())))))
      return PASTA_NONE;
  }
  return PASTA_NONE;
}

// F with a last parameter more, the frame its callers own (step 3): a new
// function takes its body, name and uses (all direct calls), as in retype.
// Each caller gets one frame for F, Slots 64-bit counts in its local memory,
// zeroed at its entry, passed at each of its calls.
static Function *addFrameParameter(
    Function &F, unsigned Slots, FunctionAnalysisManager &FAM,
    DenseMap<Value *, Value *> &CallValueOf,
    SmallVectorImpl<std::pair<CallInst *, CallInst *>> &DeadCalls) {
  LLVMContext &Ctx = F.getContext();
  const DataLayout &DL = F.getParent()->getDataLayout();
  unsigned AllocaAS = DL.getAllocaAddrSpace();
  SmallVector<Type *, 8> Params(F.getFunctionType()->params());
  Params.push_back(PointerType::get(Ctx, AllocaAS));
  auto *Ty = FunctionType::get(F.getReturnType(), Params, false);
  Function *New = moveBodyToNewType(F, Ty, FAM);
  New->getArg(New->arg_size() - 1)->setName("pasta.frame");
  auto *FrameTy = ArrayType::get(Type::getInt64Ty(Ctx), Slots);
  DenseMap<Function *, AllocaInst *> FrameIn;
  auto FrameOf = [&](Function &Caller) {
    AllocaInst *&Frame = FrameIn[&Caller];
    if (!Frame) {
      BasicBlock &Entry = Caller.getEntryBlock();
      IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
      Frame = B.CreateAlloca(FrameTy, AllocaAS, nullptr, "pasta.frame");
      // 64-bit stores: a memset becomes a loop of byte stores in PTX.
      for (unsigned K = 0; K < Slots; ++K)
        B.CreateStore(B.getInt64(0),
                      B.CreateConstInBoundsGEP2_32(FrameTy, Frame, 0, K));
    }
    return Frame;
  };
  for (User *U : make_early_inc_range(F.users())) {
    auto *CI = cast<CallInst>(U);
    SmallVector<Value *, 8> Args(CI->args());
    Args.push_back(FrameOf(*CI->getFunction()));
    SmallVector<OperandBundleDef, 1> Bundles;
    CI->getOperandBundlesAsDefs(Bundles);
    IRBuilder<> B(CI);
    CallInst *Call = B.CreateCall(New, Args, Bundles);
    Call->setCallingConv(CI->getCallingConv());
    Call->setAttributes(CI->getAttributes());
    Call->setTailCallKind(CI->getTailCallKind() == CallInst::TCK_MustTail
                              ? CallInst::TCK_None
                              : CI->getTailCallKind());
    Call->setDebugLoc(CI->getDebugLoc());
    if (!CI->getType()->isVoidTy()) {
      CI->replaceAllUsesWith(Call);
      CallValueOf[CI] = Call;
    }
    DeadCalls.push_back({CI, Call});
  }
  New->takeName(&F);
  return New; // F, empty and unused, is erased by the caller
}

// The derived-counter rows in an order that derives every source before
// it is read: each function's rows together, those of functions without
// twins' calls counters first (in table order), then the twins, callers
// before callees, each one's calls counter (CallRows) before its own rows,
// and last the rows of counters no plan owns (in table order): the
// divergence rows, planned before the twins' rows were known, which read
// the planned functions' block counters (a twin's derived from its calls).
static void orderDerivedRows(std::vector<pasta_derived> &Derived,
                             const std::vector<FunctionPlan> &Plans,
                             ArrayRef<Function *> TwinsCallersFirst,
                             std::vector<pasta_derived> &CallRows) {
  // Plans are in the order of their counters.
  auto OwnerOf = [&](uint32_t Counter) -> const FunctionPlan * {
    auto It = llvm::upper_bound(
        Plans, Counter,
        [](uint32_t C, const FunctionPlan &P) { return C < P.FirstCounter; });
    if (It == Plans.begin())
      return nullptr;
    --It;
    return Counter < It->FirstCounter + It->NumCounters ? &*It : nullptr;
  };
  DenseMap<const Function *, std::vector<pasta_derived>> Rows;
  std::vector<pasta_derived> Ordered, Unowned;
  DenseSet<const Function *> Late(TwinsCallersFirst.begin(),
                                  TwinsCallersFirst.end());
  for (const pasta_derived &D : CallRows) // counter 0 of a planned twin
    Rows[OwnerOf(D.counter)->F].push_back(D);
  for (const pasta_derived &D : Derived) {
    const FunctionPlan *P = OwnerOf(D.counter);
    if (!P)
      Unowned.push_back(D);
    else if (Late.count(P->F))
      Rows[P->F].push_back(D);
    else
      Ordered.push_back(D);
  }
  for (Function *F : TwinsCallersFirst) {
    auto It = Rows.find(F);
    if (It != Rows.end())
      append_range(Ordered, It->second);
  }
  append_range(Ordered, Unowned);
  Derived = std::move(Ordered);
}

// The twins in an order where every twin comes after the twins it calls.
static SmallVector<Function *, 16> calleesFirst(const CountTwins &Twins) {
  DenseSet<Function *> IsTwin(Twins.All.begin(), Twins.All.end());
  SmallVector<Function *, 16> Order;
  DenseSet<Function *> Done;
  std::function<void(Function *)> Visit = [&](Function *F) {
    if (!Done.insert(F).second)
      return;
    for (Instruction &I : instructions(*F))
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (auto *Callee = dyn_cast<Function>(CI->getCalledOperand()))
          if (IsTwin.count(Callee))
            Visit(Callee);
    Order.push_back(F);
  };
  for (Function *F : Twins.All) // module order: the same every build
    Visit(F);
  return Order;
}

// The values P's sites name (generic pointers, run-time lengths) that To
// maps, replaced by what it maps them to.
static void remapPlanValues(FunctionPlan &P,
                            const DenseMap<Value *, Value *> &To) {
  auto Remap = [&](Value *&V) {
    if (Value *New = V ? To.lookup(V) : nullptr)
      V = New;
  };
  for (CountedBlock &CB : P.Blocks) {
    for (GenericSite &G : CB.Generic) {
      Remap(G.What.Pointer);
      Remap(G.Length);
    }
    for (ByteCount &BC : CB.Bytes)
      Remap(BC.Length);
  }
}

ReturnedCounts pasta::planReturnedCounts(std::vector<FunctionPlan> &Plans,
                                         const CountTwins &Twins,
                                         ModuleTables &Tables,
                                         FunctionAnalysisManager &FAM,
                                         bool Frames) {
  ReturnedCounts R;
  DenseMap<Function *, FunctionPlan *> PlanOf;
  for (FunctionPlan &P : Plans)
    PlanOf[P.F] = &P;
  DenseSet<Function *> IsTwin(Twins.All.begin(), Twins.All.end());
  // Calls whose number the host derives from their block's counter.
  DenseMap<CallInst *, uint32_t> CallSource;
  DenseMap<Function *, SmallVector<uint32_t, 8>> Carried;
  SmallVector<std::pair<Function *, CountReturn>, 16> Accepted;
  // Frame twins and the callers that own their frames (step 3).
  SmallVector<std::pair<Function *, CountFrame>, 4> FrameTwins;
  DenseSet<Function *> FrameOwners;
  std::vector<pasta_derived> CallRows;
  SmallVector<Function *, 16> Order = calleesFirst(Twins);
  for (Function *F : Order) {
    FunctionPlan *P = PlanOf.lookup(F);
    if (!P)
      continue;
    SmallVector<Function *, 4> Callers;
    bool AllPlanned = true;
    for (User *U : F->users()) {
      auto *CI = dyn_cast<CallInst>(U);
      if (!CI || CI->getCalledOperand() != F ||
          !PlanOf.count(CI->getFunction())) {
        AllPlanned = false;
        break;
      }
      if (!is_contained(Callers, CI->getFunction()))
        Callers.push_back(CI->getFunction());
    }
    if (!AllPlanned || Callers.empty())
      continue;
    // A twin that keeps and flushes its counts need not count its calls
    // where the block of every call counts them: moderngpu's segreduce
    // twins, called once per thread, summed a constant 1 a warp each.
    // Only in a placed plan: an unplaced one (PASTA_PLACE_COUNTERS=0)
    // stages every counter at its returns, the calls counter too.
    auto DeriveCallsOnly = [&] {
      if (!P->Placed)
        return;
      std::vector<pasta_derived> Rows;
      for (User *U : F->users()) {
        auto *CI = cast<CallInst>(U);
        uint32_t Source =
            callBlockCounter(*CI, *PlanOf[CI->getFunction()], IsTwin);
        if (Source == PASTA_NONE)
          return;
        Rows.push_back({P->FirstCounter, Source, 1});
      }
      append_range(CallRows, Rows);
      R.CallsCounterDerived.insert(F);
    };
    CountReturn CR;
    CR.HasValue = !F->getReturnType()->isVoidTy();
    CR.CallsCounter = P->FirstCounter;
    CR.Own = ownReturned(*P);
    for (uint32_t C : CR.Own)
      CR.Global.push_back(P->FirstCounter + C);
    addUnique(CR.Global, Carried.lookup(F));
    // A frame's owner flushes at its returns.
    if (FrameOwners.count(F)) {
      DeriveCallsOnly();
      continue;
    }
    if (CR.Global.size() > ReturnLimit) {
      DeriveCallsOnly();
      // Placed plans only: an unplaced one flushes its carried counts
      // inline (at most AccumulatorLimit).
      if (Frames && CalleeFrames && P->Placed &&
          all_of(Callers, [&](Function *C) { return PlanOf[C]->Placed; })) {
        CountFrame Frame;
        if (!R.CallsCounterDerived.count(F))
          Frame.Global.push_back(P->FirstCounter);
        addUnique(Frame.Global, CR.Global);
        FrameOwners.insert(Callers.begin(), Callers.end());
        FrameTwins.push_back({F, std::move(Frame)});
      }
      continue;
    }
    // What each caller keeps: the calls it cannot derive, the counts.
    DenseMap<Function *, SmallVector<uint32_t, 8>> AddsOf;
    SmallVector<std::pair<CallInst *, uint32_t>, 4> Derivable;
    for (User *U : F->users()) {
      auto *CI = cast<CallInst>(U);
      SmallVector<uint32_t, 8> &Adds = AddsOf[CI->getFunction()];
      uint32_t Source =
          callBlockCounter(*CI, *PlanOf[CI->getFunction()], IsTwin);
      if (Source == PASTA_NONE)
        addUnique(Adds, {P->FirstCounter});
      else
        Derivable.push_back({CI, Source});
      addUnique(Adds, CR.Global);
    }
    if (any_of(Callers, [&](Function *C) {
          return unionSize(Carried.lookup(C), AddsOf[C]) > AccumulatorLimit;
        })) {
      DeriveCallsOnly();
      continue;
    }
    for (Function *C : Callers)
      addUnique(Carried[C], AddsOf[C]);
    CallSource.insert(Derivable.begin(), Derivable.end());
    LLVM_DEBUG(dbgs() << "pasta: " << F->getName() << " returns "
                      << CR.Global.size() << " counts\n");
    Accepted.push_back({F, std::move(CR)});
  }
  SmallVector<Function *, 16> News;
  DenseMap<Value *, Value *> CallValueOf; // a replaced call: its value now
  // Replaced calls, erased last, and the calls that replace them.
  SmallVector<std::pair<CallInst *, CallInst *>, 16> DeadCalls;
  for (auto &[F, CR] : Accepted) {
    FunctionPlan *P = PlanOf[F];
    Function *New =
        retype(*F, CR.Global.size(), FAM, CallSource, CallValueOf, DeadCalls);
    // The plan's values that are F's arguments become New's.
    DenseMap<Value *, Value *> ArgOf;
    for (auto [Old, Arg] : zip(F->args(), New->args()))
      ArgOf[&Old] = &Arg;
    remapPlanValues(*P, ArgOf);
    R.Replaced[F] = New;
    P->F = New;
    R.Returns[New] = std::move(CR);
    News.push_back(New);
    ++NumReturning;
  }
  for (auto &[F, Frame] : FrameTwins) {
    FunctionPlan *P = PlanOf[F];
    if (FrameBitRuns)
      Frame.RunGroups = (Frame.Global.size() + 31) / 32 + 1;
    Function *New =
        addFrameParameter(*F, Frame.Global.size() + 2 * Frame.RunGroups, FAM,
                          CallValueOf, DeadCalls);
    if (Frame.RunGroups)
      Frame.Settle =
          createSettle(*New, New->getArg(New->arg_size() - 1)->getType());
    DenseMap<Value *, Value *> ArgOf;
    for (auto [Old, Arg] : zip(F->args(), New->args()))
      ArgOf[&Old] = &Arg;
    remapPlanValues(*P, ArgOf);
    if (R.CallsCounterDerived.erase(F))
      R.CallsCounterDerived.insert(New);
    R.Replaced[F] = New;
    P->F = New;
    R.Frames[New] = std::move(Frame);
    ++NumFrameTwins;
  }
  // The callers' plans may name what a replaced call returned (a pointer
  // their accesses go through, a copy's length): the erased call's value
  // is now its extractvalue.
  for (FunctionPlan &P : Plans)
    remapPlanValues(P, CallValueOf);
  for (auto [Old, New] : DeadCalls) {
    R.CallReplaced[Old] = New;
    Old->eraseFromParent();
  }
  auto Current = [&](Function *F) {
    Function *New = R.Replaced.lookup(F);
    return New ? New : F;
  };
  for (auto &[F, List] : Carried)
    R.CarriedBy[Current(F)] = std::move(List);
  for (Function *F : News)
    for (User *U : F->users()) {
      auto *CI = cast<CallInst>(U);
      R.CallsIn[CI->getFunction()].push_back(CI);
      if (auto It = CallSource.find(CI); It != CallSource.end()) {
        R.CallsDerived.insert(CI);
        CallRows.push_back({R.Returns[F].CallsCounter, It->second, 1});
      }
    }
  SmallVector<Function *, 16> CallersFirst;
  for (Function *F : reverse(Order))
    CallersFirst.push_back(Current(F));
  orderDerivedRows(Tables.Derived, Plans, CallersFirst, CallRows);
  for (auto &[Old, New] : R.Replaced)
    Old->eraseFromParent();
  return R;
}
