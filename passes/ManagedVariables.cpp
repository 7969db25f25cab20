//===- ManagedVariables.cpp - nvcc's __managed__ variables ----------------===//
//
// A `__managed__` global is one variable in managed memory that host and
// device code both use by name. nvcc makes it so in three steps, which
// this pass repeats for globals annotated "pasta.managed" (pasta-nvcc's
// header declares `__managed__` as `__device__` with that annotation):
//
// - Device: the global gets `.attribute(.managed)` (the "managed"
//   NVVM annotation), so that the driver places it in managed memory.
// - Host registration: `__cudaRegisterVar(handle, &shadow, ...)` becomes
//   `__cudaRegisterManagedVar(handle, &slot, ...)`, where slot is a host
//   pointer the CUDA runtime sets to the variable's managed address when
//   the module is loaded.
// - Host uses: each use of the shadow becomes the address read from the
//   slot, after the module is loaded once (`__cudaInitModule`; modules
//   load lazily), as nvcc's `__nv_init_managed_rt` does.
//
// A variable the module uses but does not register (declared `extern`, or
// relocatable device code, whose registration the offload linker writes)
// cannot be given the managed address here: an error, rather than host and
// device code silently using two variables. One the module does not use is
// left alone.
//
//===----------------------------------------------------------------------===//
#include "ManagedVariables.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

static constexpr const char *RegisterVar = "__cudaRegisterVar";
static constexpr const char *RegisterManagedVar = "__cudaRegisterManagedVar";
// nvcc's section for the slots.
static constexpr const char *SlotSection = "__nv_managed_data__";

// The annotation's string, where S is a global holding one.
static StringRef annotationText(const Value *S) {
  auto *GV = dyn_cast<GlobalVariable>(S->stripPointerCasts());
  if (!GV || !GV->hasInitializer())
    return {};
  auto *Data = dyn_cast<ConstantDataArray>(GV->getInitializer());
  return Data && Data->isString() ? Data->getAsCString() : StringRef();
}

// The globals of M annotated "pasta.managed" (llvm.global.annotations:
// {value, string, file, line, args} per annotation).
static SmallVector<GlobalVariable *, 4> managedGlobals(Module &M) {
  SmallVector<GlobalVariable *, 4> Found;
  GlobalVariable *Table = M.getNamedGlobal("llvm.global.annotations");
  if (!Table || !Table->hasInitializer())
    return Found;
  auto *Entries = dyn_cast<ConstantArray>(Table->getInitializer());
  if (!Entries)
    return Found;
  for (const Use &U : Entries->operands()) {
    auto *Entry = dyn_cast<ConstantStruct>(U.get());
    if (!Entry || Entry->getNumOperands() < 2 ||
        annotationText(Entry->getOperand(1)) != pasta::ManagedAnnotation)
      continue;
    if (auto *GV =
            dyn_cast<GlobalVariable>(Entry->getOperand(0)->stripPointerCasts()))
      if (!is_contained(Found, GV))
        Found.push_back(GV);
  }
  return Found;
}

// Device side: `.attribute(.managed)` on each.
static bool markManagedOnDevice(Module &M, ArrayRef<GlobalVariable *> Vars) {
  LLVMContext &Ctx = M.getContext();
  NamedMDNode *Annotations = M.getOrInsertNamedMetadata("nvvm.annotations");
  for (GlobalVariable *GV : Vars)
    Annotations->addOperand(MDNode::get(
        Ctx,
        {ValueAsMetadata::get(GV), MDString::get(Ctx, "managed"),
         ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(Ctx), 1))}));
  return !Vars.empty();
}

// The registration of Shadow in M, or null.
static CallInst *registrationOf(GlobalVariable *Shadow) {
  for (User *U : Shadow->users())
    if (auto *Call = dyn_cast<CallInst>(U))
      if (Function *F = Call->getCalledFunction();
          F && F->getName() == RegisterVar && Call->arg_size() == 8 &&
          Call->getArgOperand(1)->stripPointerCasts() == Shadow)
        return Call;
  return nullptr;
}

// Whether anything but llvm.global.annotations refers to GV.
static bool usedBeyondAnnotations(const GlobalVariable *GV) {
  SmallVector<const User *, 8> Work(GV->users());
  while (!Work.empty()) {
    const User *U = Work.pop_back_val();
    if (auto *G = dyn_cast<GlobalVariable>(U)) {
      if (G->getName() != "llvm.global.annotations")
        return true;
    } else if (isa<Constant>(U)) {
      append_range(Work, U->users());
    } else {
      return true;
    }
  }
  return false;
}

static void reportUnregistered(Module &M, const GlobalVariable *GV) {
  M.getContext().diagnose(DiagnosticInfoGeneric(
      "pasta: __managed__ variable '" + GV->getName() +
          "' is used where it is not registered (declared extern, or "
          "relocatable device code): PASTA emulates nvcc's managed globals "
          "only where they are defined, in whole-program compilation",
      DS_Error));
}

// The host module's once-only module load and the function that returns a
// managed variable's address from its slot:
//   if (!inited) inited = __cudaInitModule(handle);  return *slot;
namespace {
struct HostHelpers {
  GlobalVariable *Handle = nullptr;
  Function *Address = nullptr;
};
} // namespace

static HostHelpers makeHostHelpers(Module &M) {
  LLVMContext &Ctx = M.getContext();
  PointerType *Ptr = PointerType::get(Ctx, 0);
  Type *I8 = Type::getInt8Ty(Ctx);
  HostHelpers H;
  H.Handle = new GlobalVariable(M, Ptr, false, GlobalValue::InternalLinkage,
                                ConstantPointerNull::get(Ptr),
                                "__pasta_managed_handle");
  auto *Inited =
      new GlobalVariable(M, I8, false, GlobalValue::InternalLinkage,
                         ConstantInt::get(I8, 0), "__pasta_managed_inited");
  FunctionCallee InitModule = M.getOrInsertFunction(
      "__cudaInitModule", FunctionType::get(I8, {Ptr}, false));
  H.Address = Function::Create(FunctionType::get(Ptr, {Ptr}, false),
                               GlobalValue::InternalLinkage,
                               "__pasta_managed_address", M);
  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", H.Address);
  BasicBlock *Load = BasicBlock::Create(Ctx, "load", H.Address);
  BasicBlock *Done = BasicBlock::Create(Ctx, "done", H.Address);
  IRBuilder<> B(Entry);
  Value *Was = B.CreateLoad(I8, Inited);
  B.CreateCondBr(B.CreateICmpNE(Was, ConstantInt::get(I8, 0)), Done, Load);
  B.SetInsertPoint(Load);
  B.CreateStore(B.CreateCall(InitModule, {B.CreateLoad(Ptr, H.Handle)}),
                Inited);
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  B.CreateRet(B.CreateLoad(Ptr, H.Address->getArg(0)));
  return H;
}

// Every instruction's use of Shadow reads the address from Slot.
static void redirectHostUses(GlobalVariable *Shadow, GlobalVariable *Slot,
                             const HostHelpers &H) {
  convertUsersOfConstantsToInstructions({Shadow});
  SmallVector<Use *, 16> Uses;
  for (Use &U : Shadow->uses())
    if (isa<Instruction>(U.getUser()))
      Uses.push_back(&U);
  for (Use *U : Uses) {
    auto *I = cast<Instruction>(U->getUser());
    Instruction *At = I;
    if (auto *Phi = dyn_cast<PHINode>(I))
      At = Phi->getIncomingBlock(*U)->getTerminator();
    IRBuilder<> B(At);
    B.SetCurrentDebugLocation(At->getDebugLoc());
    U->set(B.CreateCall(H.Address, {Slot}));
  }
}

// Host side: registrations and uses as nvcc's.
static bool lowerOnHost(Module &M, ArrayRef<GlobalVariable *> Vars) {
  PointerType *Ptr = PointerType::get(M.getContext(), 0);
  HostHelpers H;
  bool Changed = false;
  for (GlobalVariable *Shadow : Vars) {
    CallInst *Register = registrationOf(Shadow);
    if (!Register) {
      if (usedBeyondAnnotations(Shadow))
        reportUnregistered(M, Shadow);
      continue;
    }
    if (!H.Address)
      H = makeHostHelpers(M);
    auto *Slot = new GlobalVariable(M, Ptr, false, GlobalValue::InternalLinkage,
                                    ConstantPointerNull::get(Ptr),
                                    Shadow->getName() + ".pasta.managed");
    Slot->setSection(SlotSection);
    FunctionCallee Managed =
        M.getOrInsertFunction(RegisterManagedVar, Register->getFunctionType());
    IRBuilder<> B(Register);
    B.CreateStore(Register->getArgOperand(0), H.Handle);
    SmallVector<Value *, 8> Args(Register->args());
    Args[1] = Slot;
    B.CreateCall(Managed, Args);
    Register->eraseFromParent();
    redirectHostUses(Shadow, Slot, H);
    Changed = true;
  }
  return Changed;
}

PreservedAnalyses pasta::ManagedVariablesPass::run(Module &M,
                                                   ModuleAnalysisManager &) {
  SmallVector<GlobalVariable *, 4> Vars = managedGlobals(M);
  if (Vars.empty())
    return PreservedAnalyses::all();
  Triple T(M.getTargetTriple());
  bool Changed = T.isNVPTX() ? markManagedOnDevice(M, Vars)
                 : T.isGPU() ? false
                             : lowerOnHost(M, Vars);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
