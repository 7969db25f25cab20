//===- CallFrames.cpp - Device functions' counts in their kernel's frame --===//
//
// See CallFrames.h.
//
//===----------------------------------------------------------------------===//
#include "CallFrames.h"
#include "DeviceRuntime.h"
#include "ThreadExits.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace pasta;

// Private memory on both GPU targets (NVPTX local, AMDGPU private).
static constexpr unsigned FrameAS = 5;

// A twin or wrapper now writes memory and flushes with atomics: attributes
// that said otherwise of the original (memory(none), nosync) go.
static void mayWriteAndSync(Function &F) {
  F.setMemoryEffects(MemoryEffects::unknown());
  F.removeFnAttr(Attribute::NoSync);
}

// The direct calls in F to functions TwinOf maps (a musttail call, or one
// whose type is not the callee's, keeps calling the wrapper).
static SmallVector<CallInst *, 8>
callsToTwinned(Function &F, const DenseMap<Function *, Function *> &TwinOf) {
  SmallVector<CallInst *, 8> Calls;
  for (Instruction &I : instructions(F)) {
    auto *CI = dyn_cast<CallInst>(&I);
    Function *Callee = CI ? CI->getCalledFunction() : nullptr;
    if (Callee && TwinOf.count(Callee) && !CI->isMustTailCall() &&
        CI->getFunctionType() == Callee->getFunctionType())
      Calls.push_back(CI);
  }
  return Calls;
}

// A zeroed frame for elements [Lo, Hi) at the start of Owner's entry, and
// the pointer the twins take (element 0 at the module's Base, perhaps
// outside the allocation: only elements Lo..Hi-1 are ever addressed).
static std::pair<CallFrames::Owned, Value *>
makeFrame(Function &Owner, uint32_t Lo, uint32_t Hi) {
  BasicBlock &Entry = Owner.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  const DataLayout &DL = Owner.getDataLayout();
  Type *I64 = B.getInt64Ty();
  AllocaInst *A =
      B.CreateAlloca(ArrayType::get(I64, Hi - Lo), DL.getAllocaAddrSpace(),
                     nullptr, "pasta.frame");
  A->setAlignment(Align(8));
  B.CreateMemSet(A, B.getInt8(0), uint64_t(Hi - Lo) * 8, Align(8));
  Value *P =
      B.CreateAddrSpaceCast(A, PointerType::get(B.getContext(), FrameAS));
  Value *Base = B.CreateGEP(B.getInt8Ty(), P, B.getInt64(-int64_t(Lo) * 8),
                            "pasta.frame.base");
  return {CallFrames::Owned{A, Lo, Hi}, Base};
}

CallFrames pasta::createCallFrames(Module &M, std::vector<FunctionPlan> &Plans,
                                   ModuleTables &T,
                                   SmallVectorImpl<Function *> &Copied) {
  CallFrames CF;
  if (T.Target == PASTA_TARGET_HOST)
    return CF;
  for (FunctionPlan &P : Plans)
    if (!threadEnds(*P.F).empty())
      return CF; // a thread may end with a frame unflushed
  // Device functions a planned function calls directly.
  SmallPtrSet<Function *, 16> Called;
  for (FunctionPlan &P : Plans)
    for (Instruction &I : instructions(*P.F))
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (Function *Callee = CI->getCalledFunction())
          Called.insert(Callee);
  SmallVector<FunctionPlan *, 8> Twinned;
  for (FunctionPlan &P : Plans)
    if (P.Kind == PASTA_FUNC_DEVICE && Called.count(P.F) && !P.F->isVarArg() &&
        !P.F->isDeclaration() && P.NumCounters)
      Twinned.push_back(&P);
  if (Twinned.empty())
    return CF;
  CF.Base = UINT32_MAX;
  for (FunctionPlan *P : Twinned)
    CF.Base = std::min(CF.Base, P->FirstCounter);

  // The twins: F's body, one more parameter.
  LLVMContext &Ctx = M.getContext();
  PointerType *FrameTy = PointerType::get(Ctx, FrameAS);
  SmallPtrSet<Function *, 16> InCopied(Copied.begin(), Copied.end());
  DenseMap<Function *, Function *> TwinOf;
  DenseMap<Function *, uint32_t> SizeOf; // counters, by original
  SmallVector<Function *, 8> Originals;
  for (FunctionPlan *P : Twinned) {
    Function &F = *P->F;
    SmallVector<Type *, 8> Params(F.getFunctionType()->params());
    Params.push_back(FrameTy);
    Function *NF =
        Function::Create(FunctionType::get(F.getReturnType(), Params, false),
                         GlobalValue::InternalLinkage, F.getAddressSpace(),
                         F.getName() + "__pasta_frame", &M);
    NF->copyAttributesFrom(&F);
    NF->setLinkage(GlobalValue::InternalLinkage);
    NF->setVisibility(GlobalValue::DefaultVisibility);
    NF->setComdat(nullptr);
    NF->setDSOLocal(true);
    NF->splice(NF->begin(), &F);
    for (auto [A, NA] : zip(F.args(), NF->args())) {
      NA.takeName(&A);
      A.replaceAllUsesWith(&NA);
    }
    // The plan keeps some values itself (pointers, lengths): F's arguments
    // among them become NF's.
    auto Moved = [&](Value *&V) {
      if (auto *A = dyn_cast_or_null<Argument>(V); A && A->getParent() == &F)
        V = NF->getArg(A->getArgNo());
    };
    for (CountedBlock &CB : P->Blocks) {
      for (GenericSite &G : CB.Generic) {
        Moved(G.What.Pointer);
        Moved(G.Length);
      }
      for (ByteCount &BC : CB.Bytes)
        Moved(BC.Length);
    }
    NF->getArg(NF->arg_size() - 1)->setName("pasta.frame");
    NF->setSubprogram(F.getSubprogram());
    F.setSubprogram(nullptr);
    mayWriteAndSync(*NF);
    TwinOf[&F] = NF;
    SizeOf[&F] = P->NumCounters;
    CF.Offset[NF] = P->FirstCounter - CF.Base;
    Originals.push_back(&F);
    P->F = NF;
    if (InCopied.count(&F))
      Copied.push_back(NF); // the working-set copies call its copy
  }

  // The frame elements each function's calls reach, through twins.
  auto Span = [&](ArrayRef<Function *> Start) {
    SmallPtrSet<Function *, 16> Seen;
    SmallVector<Function *, 16> Work;
    uint32_t Lo = UINT32_MAX, Hi = 0;
    auto Visit = [&](Function *Orig) {
      if (!Seen.insert(Orig).second)
        return;
      Function *NF = TwinOf.lookup(Orig);
      Lo = std::min(Lo, CF.Offset[NF]);
      Hi = std::max(Hi, CF.Offset[NF] + SizeOf[Orig]);
      Work.push_back(NF);
    };
    for (Function *S : Start)
      Visit(S);
    while (!Work.empty())
      for (CallInst *CI : callsToTwinned(*Work.pop_back_val(), TwinOf))
        Visit(CI->getCalledFunction());
    return std::make_pair(Lo, Hi);
  };

  // Calls from planned functions go to the twins, with the frame.
  auto Redirect = [&](Function &Caller, Value *Frame) {
    for (CallInst *CI : callsToTwinned(Caller, TwinOf)) {
      SmallVector<Value *, 8> Args(CI->args());
      Args.push_back(Frame);
      auto *New = CallInst::Create(TwinOf.lookup(CI->getCalledFunction()), Args,
                                   "", CI->getIterator());
      New->setCallingConv(CI->getCallingConv());
      New->setDebugLoc(CI->getDebugLoc());
      New->setTailCallKind(CI->getTailCallKind());
      New->setAttributes(CI->getAttributes().removeFnAttribute(
          Ctx, Attribute::Memory)); // the frame gets none
      New->takeName(CI);
      CI->replaceAllUsesWith(New);
      CI->eraseFromParent();
    }
  };
  // Spans first (they follow the calls to the originals), then the calls.
  SmallVector<std::pair<Function *, std::pair<uint32_t, uint32_t>>, 4> Kernels;
  for (FunctionPlan &P : Plans) {
    if (P.Kind != PASTA_FUNC_KERNEL)
      continue;
    SmallVector<Function *, 8> Starts;
    for (CallInst *CI : callsToTwinned(*P.F, TwinOf))
      Starts.push_back(CI->getCalledFunction());
    if (!Starts.empty())
      Kernels.push_back({P.F, Span(Starts)});
  }
  SmallVector<std::pair<uint32_t, uint32_t>, 8> WrapperSpans;
  for (Function *F : Originals)
    WrapperSpans.push_back(Span({F}));
  for (auto &[K, S] : Kernels) {
    auto [Owned, Base] = makeFrame(*K, S.first, S.second);
    CF.Owners[K] = Owned;
    Redirect(*K, Base);
  }
  for (Function *F : Originals) {
    Function *NF = TwinOf.lookup(F);
    Redirect(*NF, NF->getArg(NF->arg_size() - 1));
  }

  // The originals: a frame of their own for one call, flushed at return.
  for (auto [F, S] : zip(Originals, WrapperSpans)) {
    Function *NF = TwinOf.lookup(F);
    BasicBlock *BB = BasicBlock::Create(Ctx, "entry", F);
    IRBuilder<> B(BB);
    Instruction *Ret = F->getReturnType()->isVoidTy()
                           ? B.CreateRetVoid()
                           : B.CreateRet(PoisonValue::get(F->getReturnType()));
    auto [Owned, Base] = makeFrame(*F, S.first, S.second);
    B.SetInsertPoint(Ret);
    SmallVector<Value *, 8> Args;
    for (Argument &A : F->args())
      Args.push_back(&A);
    Args.push_back(Base);
    CallInst *Call = B.CreateCall(NF, Args);
    Call->setCallingConv(NF->getCallingConv());
    if (!F->getReturnType()->isVoidTy())
      Ret->setOperand(0, Call);
    emitFrameFlush(Ret, CF, Owned, T);
    mayWriteAndSync(*F);
  }
  return CF;
}

void pasta::emitFrameFlush(Instruction *Exit, const CallFrames &CF,
                           const CallFrames::Owned &O, ModuleTables &T) {
  IRBuilder<> B(Exit);
  Module &M = *Exit->getModule();
  Type *I32 = B.getInt32Ty();
  PointerType *Generic = PointerType::get(M.getContext(), 0);
  PointerType *Global = PointerType::get(M.getContext(), 1);
  FunctionCallee Flush = M.getOrInsertFunction(
      DeviceFlushName, B.getVoidTy(), Global, I32, I32, I32, Generic, I32);
  B.CreateCall(Flush, {T.Counters, B.getInt32(T.NumCounters),
                       B.getInt32(T.numBanks()), B.getInt32(CF.Base + O.Lo),
                       B.CreatePointerCast(O.Frame, Generic),
                       B.getInt32(O.Hi - O.Lo)});
}
