//===- KernelVariants.cpp - Plain and working-set copies of kernels -------===//
//
// See KernelVariants.h. The copies are made with CloneFunctionInto, so they
// keep the originals' attributes, calling convention (a copy of a kernel is
// a kernel) and debug locations. Calls between the copied functions are
// redirected to the copies of the same kind.
//
//===----------------------------------------------------------------------===//
#include "KernelVariants.h"

#include "pasta/abi.h"

#include "llvm/ADT/DenseMap.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"
#include <cstddef>

using namespace llvm;
using namespace pasta;

static constexpr const char *VariantAttr = "pasta-variant";
static constexpr const char *TouchName = "__pasta_ws_touch";

bool pasta::isKernelVariant(const Function &F) {
  return F.hasFnAttribute(VariantAttr);
}

// Global memory is address space 1 on both GPU targets; 0 is generic
// (flat), resolved at run time by the touch itself.
Value *pasta::trackedPointer(const Instruction &I) {
  const Value *Ptr = nullptr;
  if (auto *LI = dyn_cast<LoadInst>(&I))
    Ptr = LI->getPointerOperand();
  else if (auto *SI = dyn_cast<StoreInst>(&I))
    Ptr = SI->getPointerOperand();
  else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    Ptr = RMW->getPointerOperand();
  else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    Ptr = CX->getPointerOperand();
  if (!Ptr)
    return nullptr;
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  return AS == 0 || AS == 1 ? const_cast<Value *>(Ptr) : nullptr;
}

// An empty function like F, with Extra appended to its parameters.
static Function *declareCopy(Module &M, Function &F, StringRef Suffix,
                             Type *Extra) {
  SmallVector<Type *, 8> Params(F.getFunctionType()->params());
  if (Extra)
    Params.push_back(Extra);
  auto *Ty = FunctionType::get(F.getReturnType(), Params, F.isVarArg());
  Function *Copy = Function::Create(Ty, F.getLinkage(), F.getAddressSpace(),
                                    F.getName() + Suffix, &M);
  Copy->setCallingConv(F.getCallingConv());
  return Copy;
}

// Clones F's body into Copy; VMap already maps the functions to redirect.
static void cloneBody(Function &F, Function &Copy, ValueToValueMapTy &VMap) {
  auto CopyArg = Copy.arg_begin();
  for (Argument &A : F.args()) {
    CopyArg->setName(A.getName());
    VMap[&A] = &*CopyArg++;
  }
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(&Copy, &F, VMap, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  Copy.setComdat(nullptr);
  Copy.addFnAttr(VariantAttr);
  // Device functions stay private to the module: only kernels are entry
  // points the host can name.
  CallingConv::ID CC = F.getCallingConv();
  if (CC != CallingConv::PTX_Kernel && CC != CallingConv::AMDGPU_KERNEL)
    Copy.setLinkage(GlobalValue::InternalLinkage);
}

void pasta::createPlainVariants(Module &M, ArrayRef<Function *> Fns) {
  ValueToValueMapTy VMap;
  SmallVector<std::pair<Function *, Function *>, 8> Pairs;
  for (Function *F : Fns) {
    Function *Copy = declareCopy(M, *F, PASTA_PLAIN_SUFFIX, nullptr);
    VMap[F] = Copy;
    Pairs.push_back({F, Copy});
  }
  for (auto [F, Copy] : Pairs)
    cloneBody(*F, *Copy, VMap);
}

// Calls from one working-set copy to another pass the state along.
static void forwardState(Function &Copy,
                         const DenseMap<Function *, Function *> &CopyOf) {
  Argument *State = Copy.getArg(Copy.arg_size() - 1);
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
    New->takeName(CI);
    CI->replaceAllUsesWith(New);
    CI->eraseFromParent();
  }
}

// The launch state's fields, loaded once at a working-set copy's entry and
// handed to every touch in it.
struct StateFields {
  Value *Allocs, *Pages, *Blocks, *Outside, *NumAllocs, *PageShift;
  SmallVector<AllocaInst *, 6> Cache; // two allocations (see device_rt.c)
};

static StateFields loadState(Function &Copy) {
  LLVMContext &Ctx = Copy.getContext();
  Argument *State = Copy.getArg(Copy.arg_size() - 1);
  IRBuilder<> B(&*Copy.getEntryBlock().getFirstInsertionPt());
  Type *I8 = B.getInt8Ty(), *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  auto Field = [&](Type *T, size_t Offset, const char *Name) {
    LoadInst *LI =
        B.CreateLoad(T, B.CreateConstInBoundsGEP1_64(I8, State, Offset), Name);
    LI->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(Ctx, {}));
    return LI;
  };
  unsigned AS = Copy.getParent()->getDataLayout().getAllocaAddrSpace();
  SmallVector<AllocaInst *, 6> Cache;
  for (int I = 0; I < 6; ++I) {
    Cache.push_back(B.CreateAlloca(I64, AS, nullptr, "pasta.ws.cache"));
    B.CreateStore(B.getInt64(0), Cache.back());
  }
  return {Field(I64, offsetof(pasta_ws_launch, allocs), "pasta.ws.allocs"),
          Field(I64, offsetof(pasta_ws_launch, pages), "pasta.ws.pages"),
          Field(I64, offsetof(pasta_ws_launch, blocks), "pasta.ws.blocks"),
          Field(I64, offsetof(pasta_ws_launch, outside), "pasta.ws.outside"),
          Field(I32, offsetof(pasta_ws_launch, num_allocs), "pasta.ws.n"),
          Field(I32, offsetof(pasta_ws_launch, page_shift), "pasta.ws.shift"),
          Cache};
}

// __pasta_ws_touch's type (device_rt.c): the state's fields, the address,
// site and generic flag, and the six cache slots.
static FunctionType *touchType(LLVMContext &Ctx, Type *Generic, Type *Private) {
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  SmallVector<Type *, 15> Params{I64, I64,     I64, I64, I32,
                                 I32, Generic, I32, I32};
  Params.append(6, Private);
  return FunctionType::get(Type::getVoidTy(Ctx), Params, false);
}

void pasta::createWorkingSetVariants(Module &M, ArrayRef<Function *> Fns,
                                     ArrayRef<TrackedAccess> Accesses) {
  LLVMContext &Ctx = M.getContext();
  PointerType *StateTy = PointerType::get(Ctx, 1);
  PointerType *Generic = PointerType::get(Ctx, 0);
  PointerType *Private =
      PointerType::get(Ctx, M.getDataLayout().getAllocaAddrSpace());
  FunctionCallee Touch =
      M.getOrInsertFunction(TouchName, touchType(Ctx, Generic, Private));

  DenseMap<Function *, Function *> CopyOf;
  ValueToValueMapTy VMap;
  for (Function *F : Fns)
    CopyOf[F] = declareCopy(M, *F, PASTA_WS_SUFFIX, StateTy);
  for (Function *F : Fns) {
    cloneBody(*F, *CopyOf[F], VMap);
    CopyOf[F]->getArg(CopyOf[F]->arg_size() - 1)->setName("pasta.ws");
  }
  DenseMap<Function *, StateFields> Fields;
  for (Function *F : Fns) {
    forwardState(*CopyOf[F], CopyOf);
    Fields[CopyOf[F]] = loadState(*CopyOf[F]);
  }

  for (const TrackedAccess &A : Accesses) {
    auto It = VMap.find(A.Access);
    auto *I = It == VMap.end() ? nullptr : dyn_cast<Instruction>(It->second);
    Value *Ptr = I ? trackedPointer(*I) : nullptr;
    if (!Ptr)
      continue;
    const StateFields &S = Fields[I->getFunction()];
    IRBuilder<> B(I);
    bool IsGeneric = Ptr->getType()->getPointerAddressSpace() == 0;
    Value *AsGeneric = IsGeneric ? Ptr : B.CreateAddrSpaceCast(Ptr, Generic);
    SmallVector<Value *, 15> Args{S.Allocs,
                                  S.Pages,
                                  S.Blocks,
                                  S.Outside,
                                  S.NumAllocs,
                                  S.PageShift,
                                  AsGeneric,
                                  B.getInt32(A.Site),
                                  B.getInt32(IsGeneric)};
    Args.append(S.Cache.begin(), S.Cache.end());
    B.CreateCall(Touch, Args);
  }
}
