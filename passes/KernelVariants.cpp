//===- KernelVariants.cpp - Plain and working-set copies of kernels -------===//
//
// See KernelVariants.h. The copies are made with CloneFunctionInto, so they
// keep the originals' attributes, calling convention (a copy of a kernel is
// a kernel) and debug locations. Calls between the copied functions are
// redirected to the copies of the same kind.
//
//===----------------------------------------------------------------------===//
#include "KernelVariants.h"
#include "DeviceRuntime.h"
#include "ParameterFields.h"
#include "Scopes.h"
#include "WorkingSetLoops.h"

#include "pasta/abi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallPtrSet.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"
#include <array>
#include <cstddef>
#include <optional>

using namespace llvm;
using namespace pasta;

#define DEBUG_TYPE "pasta"

STATISTIC(NumPlainCopies, "Plain copies of kernels and device functions");
STATISTIC(NumWorkingSetCopies,
          "Working-set copies of kernels and device functions");
STATISTIC(NumTrackedInCopies, "Accesses setting page flags in working-set "
                              "copies");
STATISTIC(NumCompactCopies,
          "Compact working-set copies (kernels over the size budget)");
STATISTIC(NumTraceCopies, "Trace copies of kernels and device functions");

static constexpr const char *VariantAttr = "pasta-variant";
static constexpr const char *BankOffsetName = "__pasta_ws_bank_offset";

bool pasta::isKernelVariant(const Function &F) {
  return F.hasFnAttribute(VariantAttr);
}

void pasta::markKernelVariant(Function &F) { F.addFnAttr(VariantAttr); }

Function *pasta::createOneThreadStub(Function &Like, const Twine &Name) {
  Function *Stub =
      Function::Create(Like.getFunctionType(), Like.getLinkage(),
                       Like.getAddressSpace(), Name, Like.getParent());
  Stub->copyAttributesFrom(&Like);
  Stub->setCallingConv(Like.getCallingConv());
  Stub->addFnAttr("nvvm.maxntid", "1");
  for (auto [From, To] : zip(Like.args(), Stub->args()))
    To.setName(From.getName());
  LLVMContext &Ctx = Like.getContext();
  ReturnInst::Create(Ctx, BasicBlock::Create(Ctx, "", Stub));
  return Stub;
}

// Memory that is never in a global allocation, whatever the address space
// of the pointer that reaches it: the thread's own stack, a parameter passed
// by value (C++ functors, e.g. Thrust's, read through generic pointers to
// the parameter space; on AMD, byref pointers into the kernel arguments),
// shared and constant variables. Their accesses get no page flag; the
// device runtime checks the address space of the rest.
static bool neverInAllocation(const Value *Ptr) {
  const Value *Obj = getUnderlyingObject(Ptr);
  if (isa<AllocaInst>(Obj))
    return true;
  if (auto *A = dyn_cast<Argument>(Obj))
    return A->hasByValAttr() || A->hasByRefAttr();
  if (auto *GV = dyn_cast<GlobalVariable>(Obj))
    return GV->getAddressSpace() != 0 && GV->getAddressSpace() != 1;
  return false;
}

// Kernel parameters the launch state by value may join: PTX before 8.1
// allows a kernel 4,096 bytes of them (later ones 32,764 on sm_70 and up).
static constexpr uint64_t MaxKernelParamBytes = 4096;

// Whether F's copy can take Value by value after F's parameters and the
// state's address, each counted 8-aligned. Where not, the copy reads the
// state through its address (the host passes the value anyway; a launch
// reads only the parameters the kernel has).
static bool fitsLaunchValue(const Function &F, Type *Value) {
  const DataLayout &DL = F.getDataLayout();
  uint64_t Bytes = 8 + DL.getTypeAllocSize(Value).getFixedValue();
  for (const Argument &A : F.args()) {
    Type *T = A.hasByValAttr() || A.hasByRefAttr()
                  ? A.getPointeeInMemoryValueType()
                  : A.getType();
    Bytes = alignTo(Bytes, 8) + DL.getTypeAllocSize(T).getFixedValue();
  }
  return Bytes <= MaxKernelParamBytes;
}

// An empty function like F, with Extra appended to its parameters and,
// where Value is given and F is a kernel, then a pointer to a Value passed
// by value (markLaunchValue).
static Function *declareCopy(Module &M, Function &F, StringRef Suffix,
                             Type *Extra, Type *Value = nullptr) {
  SmallVector<Type *, 8> Params(F.getFunctionType()->params());
  if (Extra)
    Params.push_back(Extra);
  bool ByValue = Value && isKernel(F) && fitsLaunchValue(F, Value);
  bool AMD = F.getCallingConv() == CallingConv::AMDGPU_KERNEL;
  if (ByValue)
    Params.push_back(PointerType::get(M.getContext(), AMD ? 4 : 0));
  auto *Ty = FunctionType::get(F.getReturnType(), Params, F.isVarArg());
  Function *Copy = Function::Create(Ty, F.getLinkage(), F.getAddressSpace(),
                                    F.getName() + Suffix, &M);
  Copy->copyAttributesFrom(&F); // visibility, dso_local, unnamed_addr, ...
  Copy->setCallingConv(F.getCallingConv());
  return Copy;
}

// Copy's last parameter, once its body is cloned (which sets its
// attributes): a Value by value (NVPTX: byval, read from the parameter
// space; AMDGPU: byref into the kernel arguments).
static void markLaunchValue(Function &Copy, Type *Value) {
  LLVMContext &Ctx = Copy.getContext();
  Argument *A = Copy.getArg(Copy.arg_size() - 1);
  A->addAttr(Copy.getCallingConv() == CallingConv::AMDGPU_KERNEL
                 ? Attribute::getWithByRefType(Ctx, Value)
                 : Attribute::getWithByValType(Ctx, Value));
  A->addAttr(Attribute::getWithAlignment(Ctx, Align(8)));
  A->addAttr(Attribute::NoAlias);
  A->addAttr(Attribute::ReadOnly);
}

// A working-set kernel copy's last parameter: the launch state by value
// (declareCopy), or null (device functions' copies, other copies).
static Argument *launchValue(Function &Copy) {
  Argument *Last = Copy.getArg(Copy.arg_size() - 1);
  return Last->hasByValAttr() || Last->hasByRefAttr() ? Last : nullptr;
}

// A copy's launch state pointer (global memory): its last parameter, or
// the one before the launch state by value.
static Argument *stateArg(Function &Copy) {
  return Copy.getArg(Copy.arg_size() - (launchValue(Copy) ? 2 : 1));
}

// The parameters of the original function (those before the copy's own).
static unsigned userParams(Function &Copy) {
  return stateArg(Copy)->getArgNo();
}

// Clones F's body into Copy; VMap already maps the functions to redirect.
// Changes: GlobalChanges when VMap redirects calls to other functions (the
// plain copies), LocalChangesOnly otherwise.
static void cloneBody(Function &F, Function &Copy, ValueToValueMapTy &VMap,
                      CloneFunctionChangeType Changes) {
  auto CopyArg = Copy.arg_begin();
  for (Argument &A : F.args()) {
    CopyArg->setName(A.getName());
    VMap[&A] = &*CopyArg++;
  }
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(&Copy, &F, VMap, Changes, Returns);
  Copy.setComdat(nullptr);
  Copy.addFnAttr(VariantAttr);
  // Device functions stay private to the module: only kernels are entry
  // points the host can name.
  CallingConv::ID CC = F.getCallingConv();
  if (CC != CallingConv::PTX_Kernel && CC != CallingConv::AMDGPU_KERNEL)
    Copy.setLinkage(GlobalValue::InternalLinkage);
}

DenseMap<Function *, Function *> pasta::createCopies(Module &M,
                                                     ArrayRef<Function *> Fns,
                                                     StringRef Suffix,
                                                     ValueToValueMapTy &VMap) {
  DenseMap<Function *, Function *> CopyOf;
  for (Function *F : Fns) {
    Function *Copy = declareCopy(M, *F, Suffix, nullptr);
    VMap[F] = Copy;
    CopyOf[F] = Copy;
  }
  for (Function *F : Fns)
    cloneBody(*F, *CopyOf[F], VMap, CloneFunctionChangeType::GlobalChanges);
  return CopyOf;
}

void pasta::createPlainVariants(Module &M, ArrayRef<Function *> Fns) {
  ValueToValueMapTy VMap;
  createCopies(M, Fns, PASTA_PLAIN_SUFFIX, VMap);
  NumPlainCopies += Fns.size();
}

// Calls from one working-set copy to another pass the state along.
static void forwardState(Function &Copy,
                         const DenseMap<Function *, Function *> &CopyOf) {
  Argument *State = stateArg(Copy);
  SmallVector<CallInst *, 4> Calls;
  for (Instruction &I : instructions(Copy))
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (CopyOf.count(CI->getCalledFunction()))
        Calls.push_back(CI);
  for (CallInst *CI : Calls) {
    Function *Target = CopyOf.lookup(CI->getCalledFunction());
    SmallVector<Value *, 8> Args(CI->args());
    Args.push_back(State);
    auto *New = CallInst::Create(Target, Args, "", CI->getIterator());
    New->setCallingConv(CI->getCallingConv());
    New->setDebugLoc(CI->getDebugLoc());
    New->setTailCallKind(CI->getTailCallKind());
    New->setAttributes(CI->getAttributes()); // the state gets none
    New->takeName(CI);
    CI->replaceAllUsesWith(New);
    CI->eraseFromParent();
  }
}

// Copies of Fns under <name>Suffix taking one more parameter, a launch
// state pointer (global memory) that calls between the copies pass along;
// kernels' copies, where Value is given, then that state by value too.
static DenseMap<Function *, Function *>
copiesWithState(Module &M, ArrayRef<Function *> Fns, StringRef Suffix,
                StringRef StateName, ValueToValueMapTy &VMap,
                Type *Value = nullptr) {
  PointerType *StateTy = PointerType::get(M.getContext(), 1);
  DenseMap<Function *, Function *> CopyOf;
  for (Function *F : Fns)
    CopyOf[F] = declareCopy(M, *F, Suffix, StateTy, Value);
  for (Function *F : Fns) {
    cloneBody(*F, *CopyOf[F], VMap, CloneFunctionChangeType::LocalChangesOnly);
    if (Value && isKernel(*F) && fitsLaunchValue(*F, Value))
      markLaunchValue(*CopyOf[F], Value);
    stateArg(*CopyOf[F])->setName(StateName);
    if (Argument *V = launchValue(*CopyOf[F]))
      V->setName(StateName + ".value");
  }
  for (Function *F : Fns)
    forwardState(*CopyOf[F], CopyOf);
  return CopyOf;
}

// What every access of a working-set copy needs of the launch state, loaded
// once at the copy's entry; a cache miss reads the rest itself (device_rt.c).
struct StateFields {
  Value *Blocks, *PageShift;
  SmallVector<AllocaInst *, 6> Cache; // two allocations (see device_rt.c)
  Value *BankOffset;                  // this thread block's bank of page flags
  // Kernels: per pointer parameter, its allocation as the host found it
  // ({base, end, flags} of struct pasta_ws_arg), loaded where it is used
  // (argumentRange): for the current batch (Args, cleared for each batch),
  // or per innermost loop's preheader (LoopArgs). Loaded at entry, they
  // stayed in registers for the whole kernel, three 64-bit values per
  // parameter (srad_coeff's copy: 82 registers, a quarter of the plain
  // kernel's occupancy).
  DenseMap<unsigned, std::array<Value *, 3>> Args;
  DenseMap<std::pair<BasicBlock *, unsigned>, std::array<Value *, 3>> LoopArgs;
  LoopInfo *Loops = nullptr;
};

// Per working-set copy, the kernel parameter each of its parameters is
// derived from (through GEPs and casts), or none: a kernel's own pointer
// parameters with a pasta_ws_arg slot; a device function's where every call
// (all of them are direct calls from other copies) passes the same kernel
// parameter, or a caller's parameter traced to it. Any launch of a kernel
// that reaches the function then has that parameter's allocation in the
// state's args[]. Only where the range is looked for: an address outside it
// takes the full path, wherever it came from.
// A kernel's pointers loaded from its by-value aggregate parameters (a
// lambda's captures) have the slots abi.h gives pointer fields:
// PASTA_WS_MAX_ARGS + j for field j (ParameterFields.h), kept per kernel
// copy by (parameter, offset).
struct ParamSources {
  DenseMap<const Function *, SmallVector<int, 8>> ByArg;
  DenseMap<const Function *, DenseMap<std::pair<unsigned, uint64_t>, int>>
      Fields;
};

static constexpr int SourceUnknown = -2, SourceNone = -1;

// The slot of a pointer Caller loads from one of its by-value parameters'
// pointer fields, or SourceNone.
static int fieldSourceOf(const LoadInst &Load, const Function &Caller,
                         const ParamSources &Sources) {
  auto It = Sources.Fields.find(&Caller);
  const DataLayout &DL = Caller.getDataLayout();
  Type *T = Load.getType(); // a pointer, or an integer cast to one
  if (It == Sources.Fields.end() ||
      !(T->isPointerTy() ||
        (T->isIntegerTy() && DL.getTypeSizeInBits(T) == 64)))
    return SourceNone;
  APInt Off(DL.getIndexTypeSizeInBits(Load.getPointerOperandType()), 0);
  auto *A = dyn_cast<Argument>(
      Load.getPointerOperand()->stripAndAccumulateConstantOffsets(DL, Off,
                                                                  true));
  if (!A || A->getParent() != &Caller || Off.isNegative())
    return SourceNone;
  auto Slot = It->second.find({A->getArgNo(), Off.getZExtValue()});
  return Slot == It->second.end() ? SourceNone : Slot->second;
}

// The source of V, an argument of Caller's copy or a pointer field of one
// of a kernel's by-value parameters, or SourceNone.
static int sourceOf(const Value *V, const Function &Caller,
                    const ParamSources &Sources) {
  const Value *Object = getUnderlyingObject(V);
  // Thrust's device_ptr fields are loaded as i64 and cast.
  if (auto *Cast = dyn_cast<IntToPtrInst>(Object))
    Object = Cast->getOperand(0);
  if (auto *Load = dyn_cast<LoadInst>(Object))
    return fieldSourceOf(*Load, Caller, Sources);
  auto *A = dyn_cast<Argument>(Object);
  if (!A || A->getParent() != &Caller)
    return SourceNone;
  auto It = Sources.ByArg.find(&Caller);
  return It == Sources.ByArg.end() ? SourceNone : It->second[A->getArgNo()];
}

// A kernel copy's pointer fields of by-value aggregate parameters, by
// (parameter, offset), with their slots.
static void traceFields(Function &Kernel, ParamSources &Sources) {
  SmallVector<Type *, 16> Aggregates(userParams(Kernel), nullptr);
  for (Argument &A : Kernel.args())
    if (A.getArgNo() < userParams(Kernel) &&
        (A.hasByValAttr() || A.hasByRefAttr()))
      Aggregates[A.getArgNo()] = A.getPointeeInMemoryValueType();
  SmallVector<ParameterField, 16> Fields =
      pointerFields(Aggregates, Kernel.getDataLayout());
  if (Fields.empty())
    return;
  auto &Slots = Sources.Fields[&Kernel];
  for (auto [J, F] : enumerate(Fields))
    Slots[{F.Param, F.Offset}] = PASTA_WS_MAX_ARGS + J;
}

static ParamSources traceParameters(ArrayRef<Function *> Copies) {
  ParamSources Sources;
  DenseSet<const Function *> IsCopy(Copies.begin(), Copies.end());
  for (Function *Copy : Copies) {
    SmallVector<int, 8> &Src = Sources.ByArg[Copy];
    Src.assign(Copy->arg_size(), SourceNone);
    bool Kernel = isKernel(*Copy);
    if (Kernel)
      traceFields(*Copy, Sources);
    // A device function's copy is traced only where every use is a direct
    // call from another copy (the copies are internal: nothing else calls
    // them, but one's address may have been taken).
    bool OnlyCalled = all_of(Copy->uses(), [&](const Use &U) {
      auto *CB = dyn_cast<CallBase>(U.getUser());
      return CB && CB->isCallee(&U) && IsCopy.count(CB->getFunction());
    });
    for (Argument &A : Copy->args()) {
      // Not the launch state (the last parameter).
      if (!A.getType()->isPointerTy() || A.getArgNo() >= userParams(*Copy) ||
          A.hasByValAttr())
        continue;
      if (Kernel && A.getArgNo() < PASTA_WS_MAX_ARGS)
        Src[A.getArgNo()] = A.getArgNo();
      else if (!Kernel && OnlyCalled)
        Src[A.getArgNo()] = SourceUnknown;
    }
  }
  // Optimistic: unknown until a call passes something else; one kernel
  // parameter, or none once two calls disagree.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Function *Copy : Copies) {
      if (isKernel(*Copy))
        continue;
      for (Argument &A : Copy->args()) {
        int &Src = Sources.ByArg[Copy][A.getArgNo()];
        if (Src == SourceNone)
          continue;
        for (const Use &U : Copy->uses()) {
          auto *CB = cast<CallBase>(U.getUser());
          int From = sourceOf(CB->getArgOperand(A.getArgNo()),
                              *CB->getFunction(), Sources);
          if (From == SourceUnknown || From == Src)
            continue;
          Src = Src == SourceUnknown ? From : SourceNone;
          Changed = true;
          if (Src == SourceNone)
            break;
        }
      }
    }
  }
  for (auto &[F, Src] : Sources.ByArg) // reached by no traced call
    for (int &S : Src)
      if (S == SourceUnknown)
        S = SourceNone;
  return Sources;
}

// The kernel parameter an access's address is derived from, if it has a
// pasta_ws_arg slot.
static std::optional<unsigned> tracedParameter(Value *Ptr, Function &Copy,
                                               const ParamSources &Sources) {
  int K = sourceOf(Ptr, Copy, Sources);
  if (K < 0)
    return std::nullopt;
  return unsigned(K);
}

// One field of the launch state, read once and marked invariant: the state
// does not change while the kernel runs.
static LoadInst *loadStateField(IRBuilder<> &B, Value *State, Type *T,
                                size_t Offset, const Twine &Name) {
  LoadInst *LI = B.CreateLoad(
      T, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), State, Offset), Name);
  LI->setMetadata(LLVMContext::MD_invariant_load,
                  MDNode::get(B.getContext(), {}));
  return LI;
}

// {base, end, flags} of parameter K for an access in block BB whose batch
// ends at At. In an innermost loop they are loaded once, in the loop's
// preheader, for all the loop's batches (loaded in every iteration, they
// cost the tiled loops of matmul and dgemm 9% of their time). Elsewhere,
// outer loops included, they are loaded with the batch, at At: at a
// block's start ptxas issued them all early and kept them live (srad_coeff's
// copy 92 registers, 56 with the batch), in an outer loop's preheader they
// stayed live across the inner loops (kmeans' copy 78 -> 92 registers).
// A batch that runs only in a loop's short entries (Hoist false) loads
// them itself: the loop's long entries need none of them.
static std::array<Value *, 3> &argumentRange(StateFields &S, Function &Copy,
                                             BasicBlock *BB, unsigned K,
                                             Instruction *At, bool Hoist) {
  const Loop *L = S.Loops && Hoist ? S.Loops->getLoopFor(BB) : nullptr;
  BasicBlock *Preheader =
      L && L->isInnermost() ? L->getLoopPreheader() : nullptr;
  std::array<Value *, 3> *Range;
  if (Preheader) {
    auto [It, New] = S.LoopArgs.try_emplace({Preheader, K});
    if (!New)
      return It->second;
    Range = &It->second;
  } else {
    auto [It, New] = S.Args.try_emplace(K);
    if (!New)
      return It->second;
    Range = &It->second;
  }
  Argument *State = launchValue(Copy) ? launchValue(Copy) : stateArg(Copy);
  IRBuilder<> B(Preheader ? Preheader->getTerminator() : At);
  size_t Field = offsetof(pasta_ws_launch, args) + K * sizeof(pasta_ws_arg);
  for (int I = 0; I < 3; ++I)
    (*Range)[I] =
        loadStateField(B, State, B.getInt64Ty(), Field + I * 8, "pasta.ws.arg");
  // The flags of this block's bank (see loadState).
  (*Range)[2] = B.CreateAdd((*Range)[2], S.BankOffset);
  return *Range;
}

static StateFields loadState(Function &Copy) {
  Argument *State = launchValue(Copy) ? launchValue(Copy) : stateArg(Copy);
  IRBuilder<> B(&*Copy.getEntryBlock().getFirstInsertionPt());
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  auto Field = [&](Type *T, size_t Offset, const char *Name) {
    return loadStateField(B, State, T, Offset, Name);
  };
  unsigned AS = Copy.getParent()->getDataLayout().getAllocaAddrSpace();
  SmallVector<AllocaInst *, 6> Cache;
  for (int I = 0; I < 6; ++I) {
    Cache.push_back(B.CreateAlloca(I64, AS, nullptr, "pasta.ws.cache"));
    markRuntimeSlot(Cache.back());
    B.CreateStore(B.getInt64(0), Cache.back());
  }
  StateFields S;
  Value *NumPages = Field(B.getInt32Ty(), offsetof(pasta_ws_launch, num_pages),
                          "pasta.ws.np");
  Value *Banks = Field(B.getInt32Ty(), offsetof(pasta_ws_launch, page_banks),
                       "pasta.ws.nb");
  FunctionCallee BankOffset = Copy.getParent()->getOrInsertFunction(
      BankOffsetName, B.getInt64Ty(), B.getInt32Ty(), B.getInt32Ty());
  S.BankOffset = B.CreateCall(BankOffset, {NumPages, Banks}, "pasta.ws.bank");
  S.Blocks = Field(I64, offsetof(pasta_ws_launch, blocks), "pasta.ws.blocks");
  S.PageShift =
      Field(I32, offsetof(pasta_ws_launch, page_shift), "pasta.ws.shift");
  S.Cache = std::move(Cache);
  return S;
}

// Accesses whose page flags are set together (__pasta_ws_mark's four).
static constexpr size_t MarkBatch = 4;

// The runtime functions a working-set copy calls (device_rt.c): each
// access's flag, inline and without a branch (from its kernel parameter's
// range, or the cache), then one call per batch that sets the flags, or
// sends the batch down the full path, out of line.
struct WorkingSetHooks {
  FunctionCallee FlagArg, Flag, MarkArgs, MarkCached;
};

static WorkingSetHooks declareHooks(Module &M) {
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  Type *Void = Type::getVoidTy(Ctx);
  PointerType *Global = PointerType::get(Ctx, 1),
              *Generic = PointerType::get(Ctx, 0);
  PointerType *Private =
      PointerType::get(Ctx, M.getDataLayout().getAllocaAddrSpace());
  SmallVector<Type *, 6> Cache(6, Private);
  // The state, hotness; four flags and addresses; the batch's constant
  // (struct pasta_ws_batch); (__pasta_ws_mark_cached) the cache.
  SmallVector<Type *, 17> Batch{Global, I64};
  Batch.append(4, I64);
  Batch.append(4, Generic);
  Batch.push_back(Global);
  SmallVector<Type *, 17> BatchCached(Batch);
  BatchCached.append(Cache);
  SmallVector<Type *, 9> Flag{I32, Generic, I32};
  Flag.append(Cache);
  return {M.getOrInsertFunction("__pasta_ws_flag_arg", I64, I64, I64, I64, I32,
                                Generic),
          M.getOrInsertFunction("__pasta_ws_flag",
                                FunctionType::get(I64, Flag, false)),
          M.getOrInsertFunction("__pasta_ws_mark_args",
                                FunctionType::get(Void, Batch, false)),
          M.getOrInsertFunction("__pasta_ws_mark_cached",
                                FunctionType::get(Void, BatchCached, false))};
}

// One access of a batch, as its flag was found in front of the batch's end.
struct BatchEntry {
  Value *Flag, *Ptr; // Ptr: the address, generic
  uint32_t Site;
  bool IsGeneric, Traced;
};

// The page flag of access I (site Site), found before At: by a range check
// against the kernel parameter the address comes from when the pass can
// tell, in the cache otherwise. Hoist: as argumentRange.
static BatchEntry insertFlag(Instruction *I, uint32_t Site, Instruction *At,
                             StateFields &S, const WorkingSetHooks &H,
                             const ParamSources &Sources, bool Hoist) {
  Function &F = *I->getFunction();
  Value *Ptr = trackedPointer(*I);
  std::optional<unsigned> K = tracedParameter(Ptr, F, Sources);
  std::array<Value *, 3> Range{};
  if (K)
    Range = argumentRange(S, F, I->getParent(), *K, At, Hoist);
  IRBuilder<> B(At);
  bool IsGeneric = Ptr->getType()->getPointerAddressSpace() == 0;
  Value *AsGeneric =
      IsGeneric ? Ptr : B.CreateAddrSpaceCast(Ptr, B.getPtrTy(0));
  Value *Flag;
  if (K) {
    Flag = B.CreateCall(H.FlagArg,
                        {Range[0], Range[1], Range[2], S.PageShift, AsGeneric},
                        "pasta.ws.flag");
  } else {
    SmallVector<Value *, 9> Args{S.PageShift, AsGeneric, B.getInt32(IsGeneric)};
    Args.append(S.Cache.begin(), S.Cache.end());
    Flag = B.CreateCall(H.Flag, Args, "pasta.ws.flag");
  }
  return {Flag, AsGeneric, Site, IsGeneric, K.has_value()};
}

// Words as a constant array in global memory named Name, one per distinct
// content (Made: those made so far, by content).
static Constant *wordsConstant(Module &M, ArrayRef<uint32_t> Words,
                               const char *Name,
                               DenseMap<Constant *, Constant *> &Made) {
  Constant *Init = ConstantDataArray::get(M.getContext(), Words);
  Constant *&GV = Made[Init];
  if (!GV) {
    auto *Table = new GlobalVariable(M, Init->getType(), true,
                                     GlobalValue::PrivateLinkage, Init, Name,
                                     nullptr, GlobalValue::NotThreadLocal, 1);
    Table->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    Table->setAlignment(Align(4));
    GV = Table;
  }
  return GV;
}

// A buffer call's table of words (bufferWordTables), one per distinct
// table.
static Constant *wordTable(Module &M, ArrayRef<uint64_t> Words,
                           DenseMap<Constant *, Constant *> &Made) {
  Constant *Init = ConstantDataArray::get(M.getContext(), Words);
  Constant *&GV = Made[Init];
  if (!GV) {
    auto *Table = new GlobalVariable(
        M, Init->getType(), true, GlobalValue::PrivateLinkage, Init,
        "__pasta_ws_buffer_words", nullptr, GlobalValue::NotThreadLocal, 1);
    Table->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    Table->setAlignment(Align(8));
    GV = Table;
  }
  return GV;
}

// A batch's struct pasta_ws_batch (device_rt.c): its sites and generic
// mask, a constant in global memory, one per distinct batch.
static Constant *batchConstant(Module &M, ArrayRef<BatchEntry> Batch,
                               DenseMap<Constant *, Constant *> &Made,
                               uint32_t LoopSlot = 0) {
  SmallVector<uint32_t, MarkBatch + 1> Words(MarkBatch + 1, 0);
  for (size_t K = 0; K < Batch.size(); ++K) {
    Words[K] = Batch[K].Site;
    Words[MarkBatch] |= uint32_t(Batch[K].IsGeneric) << K;
  }
  Words[MarkBatch] |= (LoopSlot & 0xffu) << 8; // a loop mark's slot + 1
  return wordsConstant(M, Words, "__pasta_ws_batch", Made);
}

// The call that sets a batch's flags, before At.
static void insertMark(ArrayRef<BatchEntry> Batch, Instruction *At,
                       StateFields &S, const WorkingSetHooks &H,
                       DenseMap<Constant *, Constant *> &Made) {
  Function &F = *At->getFunction();
  IRBuilder<> B(At);
  SmallVector<Value *, 17> Args{stateArg(F), S.Blocks};
  for (size_t K = 0; K < MarkBatch; ++K)
    Args.push_back(K < Batch.size() ? Batch[K].Flag : B.getInt64(0));
  for (size_t K = 0; K < MarkBatch; ++K)
    Args.push_back(K < Batch.size() ? Batch[K].Ptr
                                    : ConstantPointerNull::get(B.getPtrTy(0)));
  Args.push_back(batchConstant(*F.getParent(), Batch, Made));
  if (all_of(Batch, [](const BatchEntry &E) { return E.Traced; })) {
    B.CreateCall(H.MarkArgs, Args);
    return;
  }
  Args.append(S.Cache.begin(), S.Cache.end());
  B.CreateCall(H.MarkCached, Args);
}

// Whether the page flags of the accesses before I are set in front of it:
// the block's end, and calls, but not those of the counting code's own
// helpers (in front of every generic access) nor intrinsics that neither
// touch memory nor synchronise (assumptions, lifetimes, special registers).
// A barrier ends a batch: a warp that waits for its flags behind it would
// hold the whole thread block; so does a user function. The helpers a
// working-set copy calls are none of these: address-space tests, the launch
// count at entry and the exit flush (whose warp sums are .sync operations
// over the full warp, so a mark between its full-warp test and its sums,
// which may diverge inside a lookup, is waited for by every lane).
static bool endsBatch(const Instruction &I) {
  if (I.isTerminator())
    return true;
  auto *CB = dyn_cast<CallBase>(&I);
  if (!CB)
    return false;
  if (const Function *Callee = CB->getCalledFunction();
      Callee && isRuntimeFunction(*Callee))
    return false;
  if (auto *II = dyn_cast<IntrinsicInst>(CB))
    return !II->isAssumeLikeIntrinsic() &&
           (II->isConvergent() || !II->doesNotAccessMemory());
  return true;
}

// The copies of kernels whose call tree (the kernel's copy and the copies
// it reaches) has more than Budget tracked accesses, and the copies they
// reach.
static DenseSet<const Function *> copiesOfTreesAbove(
    ArrayRef<Function *> Copies,
    const DenseMap<Function *, DenseMap<Instruction *, uint32_t>> &ByCopy,
    unsigned Budget) {
  DenseSet<const Function *> IsCopy(Copies.begin(), Copies.end()), Above;
  for (Function *Kernel : Copies) {
    if (!isKernel(*Kernel))
      continue;
    SmallVector<Function *, 8> Tree{Kernel}, Work{Kernel};
    DenseSet<Function *> Seen{Kernel};
    while (!Work.empty())
      for (Instruction &I : instructions(*Work.pop_back_val()))
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (Function *Callee = CB->getCalledFunction();
              Callee && IsCopy.count(Callee) && Seen.insert(Callee).second) {
            Tree.push_back(Callee);
            Work.push_back(Callee);
          }
    size_t Tracked = 0;
    for (Function *F : Tree)
      if (auto It = ByCopy.find(F); It != ByCopy.end())
        Tracked += It->second.size();
    if (Tracked > Budget)
      Above.insert(Tree.begin(), Tree.end());
  }
  return Above;
}

// A compact copy's batch (struct pasta_ws_compact_batch, device_rt): its
// sites, generic mask and, per access, the kernel parameter its address is
// traced to (+ 1; 0 for none), one constant per distinct batch.
static Constant *compactBatchConstant(Module &M, ArrayRef<BatchEntry> Batch,
                                      ArrayRef<std::optional<unsigned>> Params,
                                      DenseMap<Constant *, Constant *> &Made) {
  SmallVector<uint32_t, MarkBatch + 2> Words(MarkBatch + 2, 0);
  for (size_t K = 0; K < Batch.size(); ++K) {
    Words[K] = Batch[K].Site;
    Words[MarkBatch] |= uint32_t(Batch[K].IsGeneric) << K;
    if (Params[K])
      Words[MarkBatch + 1] |= (*Params[K] + 1) << (8 * K);
  }
  return wordsConstant(M, Words, "__pasta_ws_compact_batch", Made);
}

// A compact copy's batch, before At: one call, nothing inline.
static void
insertCompactMark(ArrayRef<std::pair<Instruction *, uint32_t>> Pending,
                  Instruction *At, const ParamSources &Sources,
                  DenseMap<Constant *, Constant *> &Made) {
  Function &F = *At->getFunction();
  Module &M = *F.getParent();
  IRBuilder<> B(At);
  SmallVector<Value *, MarkBatch + 2> Args{stateArg(F)};
  SmallVector<BatchEntry, MarkBatch> Batch;
  SmallVector<std::optional<unsigned>, MarkBatch> Params;
  for (auto [I, Site] : Pending) {
    Value *Ptr = trackedPointer(*I);
    bool IsGeneric = Ptr->getType()->getPointerAddressSpace() == 0;
    Args.push_back(IsGeneric ? Ptr : B.CreateAddrSpaceCast(Ptr, B.getPtrTy(0)));
    Batch.push_back({nullptr, Args.back(), Site, IsGeneric, false});
    Params.push_back(tracedParameter(Ptr, F, Sources));
  }
  while (Args.size() < MarkBatch + 1)
    Args.push_back(ConstantPointerNull::get(B.getPtrTy(0)));
  Args.push_back(compactBatchConstant(M, Batch, Params, Made));
  SmallVector<Type *, MarkBatch + 2> Types;
  for (Value *V : Args)
    Types.push_back(V->getType());
  FunctionCallee Mark =
      M.getOrInsertFunction("__pasta_ws_mark_compact",
                            FunctionType::get(B.getVoidTy(), Types, false));
  B.CreateCall(Mark, Args);
}

// A buffered compact copy's buffer, in accesses (struct pasta_ws_buffered,
// device_rt): 16 bytes each, in the copy's stack frame; 0: compact copies
// call __pasta_ws_mark_compact per batch of four.
static cl::opt<unsigned> CompactBuffer(
    "pasta-ws-compact-buffer", cl::init(32), cl::Hidden,
    cl::desc("Working-set compact copies: buffer this many accesses between "
             "marks (0: mark each batch of four)"));

// Which compact copies buffer: those of kernels whose tree tracks more than
// this many accesses. Buffered, `myocyte 12` (over 800 accesses) builds in
// 0.88 of the time, but Thrust's Onesweep copy (123) took 56 registers and
// 164/272 bytes of spills (80, 32/44 unbuffered) and ran 4.22x against 3.80x
// in working-set mode on an H200, its histogram (38) 3.56x against 2.88x:
// run time first for kernels of that size; only trees far larger, whose
// per-batch calls dominate the compile, buffer (docs/performance.md,
// "Compile time").
static cl::opt<unsigned> BufferAbove(
    "pasta-ws-buffer-above", cl::init(256), cl::Hidden,
    cl::desc("Working-set compact copies buffer their accesses where the "
             "kernel's tree tracks more than this many"));

// The buffer's accesses (their address stores, slots and words) and calls
// (and how many slots each reads), as insertBufferedMarks placed them.
struct BufferedAccess {
  StoreInst *Address;
  unsigned Slot;
  uint64_t Word;
};
struct BufferCall {
  CallInst *Call;
  unsigned Slots;
};

// Each call's table of the words of the slots it reads, where one access
// only can be in a slot there (the access's word; 0 for none), and
// PASTA_WS_WORD_IN_BUFFER where several can (on different paths): those
// accesses store their words, the others none. Forward over the blocks in
// reverse post-order: the edges back to a loop's header carry nothing (a
// call ends every block before a header), so one pass is exact.
static std::vector<SmallVector<uint64_t, 32>>
bufferWordTables(ArrayRef<BasicBlock *> Order,
                 const DenseMap<BasicBlock *, unsigned> &Rank,
                 ArrayRef<BufferedAccess> Accesses, ArrayRef<BufferCall> Calls,
                 unsigned Slots, SmallVectorImpl<bool> &StoresWord) {
  using SlotSets = SmallVector<SmallVector<unsigned, 1>, 32>;
  DenseMap<const Instruction *, unsigned> AccessAt, CallAt;
  for (auto [K, A] : enumerate(Accesses))
    AccessAt[A.Address] = K;
  for (auto [K, C] : enumerate(Calls))
    CallAt[C.Call] = K;
  std::vector<SmallVector<uint64_t, 32>> Tables(Calls.size());
  StoresWord.assign(Accesses.size(), false);
  DenseMap<BasicBlock *, SlotSets> Out;
  for (BasicBlock *BB : Order) {
    SlotSets In(Slots);
    for (BasicBlock *Pred : predecessors(BB))
      if (auto It = Rank.find(Pred);
          It != Rank.end() && It->second < Rank.lookup(BB))
        for (auto [K, Set] : enumerate(Out[Pred]))
          for (unsigned A : Set)
            if (!is_contained(In[K], A))
              In[K].push_back(A);
    for (Instruction &I : *BB) {
      if (auto It = AccessAt.find(&I); It != AccessAt.end()) {
        In[Accesses[It->second].Slot] = {It->second};
      } else if (auto It = CallAt.find(&I); It != CallAt.end()) {
        SmallVector<uint64_t, 32> &Table = Tables[It->second];
        for (unsigned K = 0; K < Calls[It->second].Slots; ++K) {
          if (In[K].size() > 1)
            for (unsigned A : In[K])
              StoresWord[A] = true;
          Table.push_back(In[K].empty()       ? 0
                          : In[K].size() == 1 ? Accesses[In[K][0]].Word
                                              : PASTA_WS_WORD_IN_BUFFER);
          In[K].clear();
        }
      }
    }
    Out[BB] = std::move(In);
  }
  return Tables;
}

// A compact copy's accesses, buffered: after each access, stores of its
// address and a constant (site, generic bit, traced parameter
// + 1, offset) in its slot of a buffer in the copy's frame; one call of
// __pasta_ws_mark_buffer marks what the buffer holds where it may be full,
// at the end of each block that goes back to a block before it (a loop's
// latch) or enters a loop, and at each return: a few calls per loop instead of
// one per batch of four (a call per block of a branchy kernel). ptxas keeps the
// caller's registers around every call of that function, and the values each
// call passed were live across the calls before it: the calls were most of a
// compact copy's ptxas time and registers (issue [overhead-3]).
// Slots are static: an access's slot is the most
// the buffer can hold in front of it, known from the blocks before it in
// reverse post-order (a path's slots only grow between calls); a slot a
// path skips holds 0, which the call reads as no access.
static void insertBufferedMarks(
    Function &F,
    const DenseMap<BasicBlock *, DenseMap<Instruction *, uint32_t>> &ByBlock,
    const ParamSources &Sources, FunctionAnalysisManager &FAM) {
  Module &M = *F.getParent();
  LLVMContext &Ctx = M.getContext();
  const DataLayout &DL = M.getDataLayout();
  unsigned AS = DL.getAllocaAddrSpace();
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  ArrayType *BufTy = ArrayType::get(I64, 2 * CompactBuffer);
  IRBuilder<> Entry(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Buf = Entry.CreateAlloca(BufTy, AS, nullptr, "pasta.ws.buffer");
  Buf->setAlignment(Align(16));
  Value *State = stateArg(F);
  PointerType *WordsTy = PointerType::get(Ctx, 1);
  FunctionCallee Mark = M.getOrInsertFunction(
      "__pasta_ws_mark_buffer",
      FunctionType::get(Type::getVoidTy(Ctx),
                        {State->getType(), Buf->getType(), I32, WordsTy},
                        false));
  SmallVector<BufferCall, 32> Calls;
  SmallVector<BufferedAccess, 64> Buffered;
  auto MarkBefore = [&](Instruction *At, unsigned Slots) {
    IRBuilder<> B(At);
    Calls.push_back({B.CreateCall(Mark, {State, Buf, B.getInt32(Slots),
                                         ConstantPointerNull::get(WordsTy)}),
                     Slots});
  };
  ReversePostOrderTraversal<Function *> RPOT(&F);
  DenseMap<BasicBlock *, unsigned> Order, MostOut;
  for (BasicBlock *BB : RPOT)
    Order[BB] = Order.size();
  SmallPtrSet<BasicBlock *, 8> Headers; // targets of retreating edges
  for (BasicBlock *BB : RPOT)
    for (BasicBlock *Succ : successors(BB))
      if (Order.lookup(Succ) <= Order[BB])
        Headers.insert(Succ);
  // Each access's address as an earlier one's (in reverse post-order, whose
  // definition dominates this access) plus a 16-bit constant, where scalar
  // evolution proves the difference: access -> (that address, constant).
  DenseMap<Instruction *, std::pair<Value *, int64_t>> Near;
  {
    ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(F);
    DenseMap<const SCEV *, SmallVector<std::pair<Value *, const SCEV *>, 4>>
        ByBase;
    for (BasicBlock *BB : RPOT)
      if (auto Tracked = ByBlock.find(BB); Tracked != ByBlock.end())
        for (Instruction &I : *BB) {
          if (!Tracked->second.count(&I))
            continue;
          Value *Ptr = trackedPointer(I);
          const SCEV *S = SE.getSCEV(Ptr);
          auto &Seen = ByBase[SE.getPointerBase(S)];
          bool Found = false;
          for (auto &[Other, OS] : Seen) {
            if (Other->getType() != Ptr->getType() ||
                !DT.dominates(Other, I.getNextNode()))
              continue;
            std::optional<APInt> D = SE.computeConstantDifference(S, OS);
            if (D && D->isSignedIntN(16)) {
              Near[&I] = {Other, D->getSExtValue()};
              Found = true;
              break;
            }
          }
          if (!Found && Seen.size() < 8)
            Seen.push_back({Ptr, S});
        }
  }
  // Each access has its slot, the most the buffer can hold in front of it
  // (a path's slots only grow between calls); a call reads the slots up to
  // the most it can hold there.
  // A block starts past the slots the blocks before it used since the
  // last call on every path (HighWater): an if's arms then use different
  // slots, so one access only is in each slot at a call and its word is a
  // constant of the call (bufferWordTables), not a store.
  unsigned Used = 0, HighWater = 0;
  for (BasicBlock *BB : RPOT) {
    unsigned Most = 0; // the most the buffer holds here
    for (BasicBlock *Pred : predecessors(BB))
      if (auto It = Order.find(Pred);
          It != Order.end() && It->second < Order[BB])
        Most = std::max(Most, MostOut.lookup(Pred));
    if (Headers.count(BB))
      HighWater = 0; // every path into a loop's header marked its slots
    Most = std::max(Most, HighWater);
    if (auto Tracked = ByBlock.find(BB); Tracked != ByBlock.end())
      for (Instruction &I : make_early_inc_range(*BB)) {
        auto Site = Tracked->second.find(&I);
        if (Site == Tracked->second.end())
          continue;
        if (Most == CompactBuffer) {
          MarkBefore(&I, Most);
          Most = HighWater = 0;
        }
        IRBuilder<> B(I.getNextNode());
        Value *Ptr = trackedPointer(I);
        bool IsGeneric = Ptr->getType()->getPointerAddressSpace() == 0;
        std::optional<unsigned> Param = tracedParameter(Ptr, F, Sources);
        // Where another access's address, stored already, is this one's
        // plus a small constant, that address goes in the buffer and the
        // constant in the word: the copy keeps a few addresses live, not
        // every one (a loop's are loop-invariant more often than not).
        auto [Stored, Offset] = Near.lookup(&I);
        if (Stored)
          Ptr = Stored;
        if (Ptr->getType()->getPointerAddressSpace() != 0)
          Ptr = B.CreateAddrSpaceCast(Ptr, B.getPtrTy(0));
        uint64_t Word = uint64_t(Site->second) | uint64_t(IsGeneric) << 32 |
                        uint64_t(Param ? *Param + 1 : 0) << 40 |
                        uint64_t(Offset & 0xffff) << 48;
        // The word, where the call's table cannot hold it, is stored after
        // the address (bufferWordTables), an immediate (st.local.v2.b64
        // took the word a register: myocyte 12's copy 138 registers against
        // 124).
        Buffered.push_back(
            {B.CreateStore(B.CreatePtrToInt(Ptr, I64),
                           B.CreateConstInBoundsGEP1_64(I64, Buf, 2 * Most)),
             Most, Word});
        Used = std::max(Used, ++Most);
        HighWater = std::max(HighWater, Most);
      }
    // A loop's header holds nothing from outside the loop nor from its
    // previous iteration: what the blocks before it hold is marked in
    // front of it, and what its latches hold at their ends.
    Instruction *Term = BB->getTerminator();
    bool ToHeader = any_of(successors(BB), [&](BasicBlock *Succ) {
      return Order.lookup(Succ) <= Order[BB] || Headers.count(Succ);
    });
    if (Most && (ToHeader || isa<ReturnInst>(Term))) {
      MarkBefore(Term, Most);
      Most = 0;
    }
    MostOut[BB] = Most;
  }
  SmallVector<BasicBlock *, 32> Blocks(RPOT.begin(), RPOT.end());
  SmallVector<bool, 64> StoresWord;
  std::vector<SmallVector<uint64_t, 32>> Tables = bufferWordTables(
      Blocks, Order, Buffered, Calls, CompactBuffer, StoresWord);
  for (auto [A, Stores] : zip(Buffered, StoresWord))
    if (Stores) {
      IRBuilder<> B(A.Address->getNextNode());
      B.CreateStore(B.getInt64(A.Word),
                    B.CreateConstInBoundsGEP1_64(I64, Buf, 2 * A.Slot + 1));
    }
  DenseMap<Constant *, Constant *> Made;
  for (auto [C, Table] : zip(Calls, Tables))
    if (any_of(Table, [](uint64_t W) { return W != PASTA_WS_WORD_IN_BUFFER; }))
      C.Call->setArgOperand(3, wordTable(M, Table, Made));
  // A slot a path skips holds 0 (no access) from here or from the last
  // call, which clears what it read.
  Buf->setAllocatedType(ArrayType::get(I64, 2 * std::max(Used, 1u)));
  for (unsigned K = 0; K < Used; ++K)
    Entry.CreateStore(Entry.getInt64(0),
                      Entry.CreateConstInBoundsGEP1_64(I64, Buf, 2 * K));
}

// The bytes of a counted inline-PTX access wider than 16 bytes (a bulk
// copy: up to many pages, where an access's one flag would mark the first),
// or 0. 16 bytes, aligned as PTX requires, never cross a page.
static uint32_t asmCopyBytes(const Instruction &I) {
  uint32_t Bytes = 0;
  auto *Call = dyn_cast<CallBase>(&I);
  return Call && asmTrackedAddress(*Call, &Bytes) && Bytes > 16 ? Bytes : 0;
}

// A bulk copy's pages, after it: __pasta_ws_mark_range sets the flags of
// its bytes' pages (device_rt_ws.inc.c) and counts it as one access.
static void insertRangeMark(Instruction &Access, uint32_t Site) {
  Function &F = *Access.getFunction();
  Value *Ptr = trackedPointer(Access);
  IRBuilder<> B(Access.getNextNode());
  B.SetCurrentDebugLocation(Access.getDebugLoc());
  bool IsGeneric = Ptr->getType()->getPointerAddressSpace() == 0;
  Value *AsGeneric =
      IsGeneric ? Ptr : B.CreateAddrSpaceCast(Ptr, B.getPtrTy(0));
  Argument *State = stateArg(F);
  FunctionCallee Mark = F.getParent()->getOrInsertFunction(
      "__pasta_ws_mark_range", B.getVoidTy(), State->getType(), B.getPtrTy(0),
      B.getInt32Ty(), B.getInt32Ty(), B.getInt32Ty());
  B.CreateCall(Mark, {State, AsGeneric, B.getInt32(asmCopyBytes(Access)),
                      B.getInt32(Site), B.getInt32(IsGeneric)});
}

void pasta::createWorkingSetVariants(Module &M, ArrayRef<Function *> Fns,
                                     ArrayRef<TrackedAccess> Accesses,
                                     unsigned CompactAbove,
                                     FunctionAnalysisManager &FAM) {
  WorkingSetHooks H = declareHooks(M);
  DenseMap<Constant *, Constant *> BatchConstants;
  ValueToValueMapTy VMap;
  DenseMap<Function *, Function *> CopyOf = copiesWithState(
      M, Fns, PASTA_WS_SUFFIX, "pasta.ws", VMap,
      ArrayType::get(Type::getInt8Ty(M.getContext()), sizeof(pasta_ws_launch)));
  NumWorkingSetCopies += Fns.size();
  SmallVector<Function *, 8> Copies;
  for (Function *F : Fns)
    Copies.push_back(CopyOf[F]);

  // The copies' accesses whose page flags are set: those of loops that
  // can be marked in front of the loop (WorkingSetLoops.h) are, the rest
  // by block.
  DenseMap<Function *, DenseMap<Instruction *, uint32_t>> ByCopy;
  SmallVector<std::pair<Instruction *, uint32_t>, 4> Ranges; // bulk copies
  for (const TrackedAccess &A : Accesses) {
    auto It = VMap.find(A.Access);
    auto *I = It == VMap.end() ? nullptr : dyn_cast<Instruction>(It->second);
    Value *Ptr = I ? trackedPointer(*I) : nullptr;
    if (Ptr && !neverInAllocation(Ptr)) {
      if (asmCopyBytes(*I))
        Ranges.push_back({I, A.Site}); // marked on its own, below
      else
        ByCopy[I->getFunction()][I] = A.Site;
      ++NumTrackedInCopies;
    }
  }
  DenseSet<const Function *> Compact =
      copiesOfTreesAbove(Copies, ByCopy, CompactAbove);
  NumCompactCopies += Compact.size();
  // Trees above both budgets are compact and buffer their accesses.
  DenseSet<const Function *> BufferTrees;
  if (CompactBuffer)
    BufferTrees = copiesOfTreesAbove(
        Copies, ByCopy, std::max(CompactAbove, BufferAbove.getValue()));
  DenseMap<Function *, StateFields> Fields;
  for (Function *Copy : Copies)
    Fields[Copy] = Compact.count(Copy) ? StateFields() : loadState(*Copy);
  ParamSources Sources = traceParameters(Copies);
  // A loop's mark names its access as a batch of one, with the slot of the
  // kernel parameter it is traced to (device_rt_ws.inc.c, pasta_ws_batch).
  auto SiteConstant = [&](Instruction *Access, uint32_t Site, bool IsGeneric) {
    std::optional<unsigned> K = tracedParameter(
        trackedPointer(*Access), *Access->getFunction(), Sources);
    BatchEntry One{nullptr, nullptr, Site, IsGeneric, false};
    return batchConstant(M, One, BatchConstants, K ? *K + 1 : 0);
  };
  DenseMap<BasicBlock *, DenseMap<Instruction *, uint32_t>> ByBlock;
  // Accesses marked in front of their loops where the loop runs long
  // enough, and in it where not (WorkingSetLoops.h): access -> that test.
  DenseMap<Instruction *, Value *> Guarded;
  // In the copies' order, not the map's: the loop marks' batch constants
  // are numbered as they are made, and the PTX must not change from one
  // compile to the next.
  for (Function *F : Fns) {
    Function *Copy = CopyOf[F];
    auto Found = ByCopy.find(Copy);
    if (Found == ByCopy.end())
      continue;
    DenseMap<Instruction *, uint32_t> &InCopy = Found->second;
    markLoopAccessesBeforeLoops(*Copy, stateArg(*Copy), InCopy, Guarded,
                                SiteConstant, FAM);
    // Compact copies make a call per batch anyway: one per run is fewer.
    if (Compact.count(Copy))
      markAccessRuns(*Copy, stateArg(*Copy), InCopy, Guarded, SiteConstant,
                     FAM);
    for (auto [I, Site] : InCopy)
      ByBlock[I->getParent()][I] = Site;
    Fields[Copy].Loops = &FAM.getResult<LoopAnalysis>(*Copy);
  }
  // The page flags are set after the accesses, not before each: a touch
  // waits for its flag before the next instruction can issue, so a touch in
  // front of every access put a flag load's latency before each of them.
  // Up to MarkBatch accesses go together, their flags read at once by one
  // mark, in front of the next batch's first access or of whatever ends a
  // batch (endsBatch); their flag addresses stay live until then, hence
  // the bound. Guarded accesses go in batches of their own (one test), whose
  // code (First to Last) runs only where their loop is short (ShortOnly).
  struct ShortOnly {
    Instruction *First, *Last;
    Value *IsLong;
  };
  SmallVector<ShortOnly, 8> ShortOnlyBatches;
  // Compact copies of large trees without guarded accesses buffer theirs.
  DenseSet<Function *> Buffered;
  for (Function *F : Fns)
    if (BufferTrees.count(CopyOf[F]) && ByCopy.count(CopyOf[F]) &&
        !ByCopy[CopyOf[F]].empty() &&
        none_of(ByCopy[CopyOf[F]],
                [&](const auto &A) { return Guarded.count(A.first); })) {
      Buffered.insert(CopyOf[F]);
      FAM.invalidate(*CopyOf[F], PreservedAnalyses::none());
      insertBufferedMarks(*CopyOf[F], ByBlock, Sources, FAM);
    }
  for (Function *F : Fns)
    for (BasicBlock &BB : *CopyOf[F]) {
      if (Buffered.count(CopyOf[F]))
        break;
      auto Tracked = ByBlock.find(&BB);
      if (Tracked == ByBlock.end())
        continue;
      SmallVector<std::pair<Instruction *, uint32_t>, MarkBatch> Pending;
      Value *PendingGuard = nullptr;
      for (Instruction &I : make_early_inc_range(BB)) {
        auto Site = Tracked->second.find(&I);
        bool IsAccess = Site != Tracked->second.end();
        Value *Guard = IsAccess ? Guarded.lookup(&I) : nullptr;
        if (!Pending.empty() &&
            (endsBatch(I) || (IsAccess && (Pending.size() == MarkBatch ||
                                           Guard != PendingGuard)))) {
          Instruction *Before = I.getPrevNode(); // what the mark goes after
          if (Compact.count(CopyOf[F])) {
            insertCompactMark(Pending, &I, Sources, BatchConstants);
          } else {
            StateFields &S = Fields[CopyOf[F]];
            SmallVector<BatchEntry, MarkBatch> Batch;
            S.Args.clear(); // outside loops, each batch loads its own
            for (auto [Access, AccessSite] : Pending)
              Batch.push_back(insertFlag(Access, AccessSite, &I, S, H, Sources,
                                         !PendingGuard));
            insertMark(Batch, &I, S, H, BatchConstants);
          }
          if (PendingGuard)
            ShortOnlyBatches.push_back(
                {Before->getNextNode(), I.getPrevNode(), PendingGuard});
          Pending.clear();
        }
        if (IsAccess) {
          if (Pending.empty())
            PendingGuard = Guard;
          Pending.push_back({&I, Site->second});
        }
      }
    }
  for (const ShortOnly &W : ShortOnlyBatches) {
    IRBuilder<> B(W.First);
    Value *IsShort = B.CreateNot(W.IsLong, "pasta.ws.loop.short");
    Instruction *Then = SplitBlockAndInsertIfThen(IsShort, W.First, false);
    for (Instruction *X = W.First, *Next;; X = Next) {
      Next = X->getNextNode();
      X->moveBefore(Then->getIterator());
      if (X == W.Last)
        break;
    }
  }
  for (auto [Access, Site] : Ranges)
    insertRangeMark(*Access, Site);
  for (Function *F : Fns)
    FAM.invalidate(*CopyOf[F], PreservedAnalyses::none());
}

// The trace copy's events: whether this warp records is decided once per
// call (__pasta_trace_sampled); each event passes the module's scope index
// and a per-thread bit mask of the scopes already recorded (the first 64 of
// the function; later ones are always recorded).
void pasta::createTraceVariants(Module &M, ArrayRef<Function *> Fns,
                                const ScopeRanges &Scopes,
                                FunctionAnalysisManager &FAM) {
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  PointerType *StateTy = PointerType::get(Ctx, 1);
  PointerType *Private =
      PointerType::get(Ctx, M.getDataLayout().getAllocaAddrSpace());
  FunctionCallee Sampled =
      M.getOrInsertFunction("__pasta_trace_sampled", I32, StateTy);
  FunctionCallee Event =
      M.getOrInsertFunction("__pasta_trace_event", Type::getVoidTy(Ctx),
                            StateTy, I32, I32, I32, Private, I64);
  ValueToValueMapTy VMap;
  DenseMap<Function *, Function *> CopyOf =
      copiesWithState(M, Fns, PASTA_TRACE_SUFFIX, "pasta.trace", VMap);
  NumTraceCopies += Fns.size();
  for (Function *F : Fns) {
    auto Range = Scopes.find(F);
    if (Range == Scopes.end())
      continue; // not instrumented (e.g. outside PASTA_LINES): no events
    Function &Copy = *CopyOf[F];
    CallingConv::ID CC = Copy.getCallingConv();
    FunctionScopes FS(Copy, FAM,
                      CC == CallingConv::PTX_Kernel ||
                          CC == CallingConv::AMDGPU_KERNEL,
                      F->getName());
    if (FS.scopes().size() != Range->second.second) {
      Ctx.diagnose(DiagnosticInfoGeneric(
          "pasta: internal error: the trace copy of '" + F->getName() +
              "' has other scopes than the original; it records no events",
          DS_Warning));
      continue;
    }
    uint32_t Base = Range->second.first;
    Argument *State = Copy.getArg(Copy.arg_size() - 1);
    Value *IsSampled = nullptr;
    AllocaInst *Seen[2] = {nullptr, nullptr};
    ScopeHooks H;
    H.Prologue = [&](IRBuilder<> &B) {
      unsigned AS = M.getDataLayout().getAllocaAddrSpace();
      for (AllocaInst *&Mask : Seen) {
        Mask = B.CreateAlloca(I64, AS, nullptr, "pasta.trace.seen");
        markRuntimeSlot(Mask);
        B.CreateStore(B.getInt64(0), Mask);
      }
      IsSampled = B.CreateCall(Sampled, {State}, "pasta.trace.sampled");
    };
    auto Emit = [&](IRBuilder<> &B, uint32_t Local, bool IsExit, Value *Trips) {
      uint32_t Scope = (Base + Local) | (IsExit ? PASTA_TRACE_EXIT : 0);
      uint64_t Bit = Local < 64 ? uint64_t(1) << Local : 0;
      B.CreateCall(Event, {State, IsSampled, B.getInt32(Scope),
                           Trips ? Trips : B.getInt32(0), Seen[IsExit],
                           B.getInt64(Bit)});
    };
    H.Enter = [&](IRBuilder<> &B, uint32_t Local) {
      Emit(B, Local, false, nullptr);
    };
    H.Exit = [&](IRBuilder<> &B, uint32_t Local, Value *Trips) {
      Emit(B, Local, true, Trips);
    };
    FS.instrument(H);
  }
}
