//===- HostRegistration.cpp - Hand device modules to the host runtime -----===//
//
// The device half of a CUDA or HIP translation unit carries a descriptor
// named __pasta_desc_<id> (CountingPass). In the host half, clang's module
// constructor registers the fat binary, its kernels and its variables with
// the CUDA (or HIP) runtime. We add our descriptor to those registrations,
// exactly as clang does for a __device__ variable, then pass its host shadow
// and the runtime calls needed to read it to __pasta_register_device_module.
// Before main returns or the program calls exit(), __pasta_main_exit collects
// and reports; before cudaDeviceReset, __pasta_before_device_reset saves the
// counts the reset would free.
//
//===----------------------------------------------------------------------===//
#include "CountingPass.h"

#include "pasta/abi.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/OffloadBinary.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <optional>

using namespace llvm;
using namespace pasta;

static constexpr const char *RegisterModuleName =
    "__pasta_register_device_module";
static constexpr const char *MainExitName = "__pasta_main_exit";
static constexpr const char *BeforeResetName = "__pasta_before_device_reset";

// The names of one vendor runtime's registration and read-back calls. CUDA
// and HIP agree on every signature PASTA uses, so one vendor layer serves
// both (the host runtime only ever sees struct pasta_vendor_ops).
struct VendorRuntime {
  const char *RegisterFunction, *RegisterVar;
  const char *MemcpyFromSymbol, *Memcpy, *GetErrorString, *DeviceSynchronize;
  const char *GetDeviceCount, *GetDevice, *SetDevice;
  const char *DeviceReset;
  const char *OpsName;
};

// One name per field, in the order of struct VendorRuntime.
static const VendorRuntime CUDA = {
    "__cudaRegisterFunction", "__cudaRegisterVar",
    "cudaMemcpyFromSymbol",   "cudaMemcpy",
    "cudaGetErrorString",     "cudaDeviceSynchronize",
    "cudaGetDeviceCount",     "cudaGetDevice",
    "cudaSetDevice",          "cudaDeviceReset",
    "__pasta_cuda_ops"};
static const VendorRuntime HIP = {
    "__hipRegisterFunction", "__hipRegisterVar",
    "hipMemcpyFromSymbol",   "hipMemcpy",
    "hipGetErrorString",     "hipDeviceSynchronize",
    "hipGetDeviceCount",     "hipGetDevice",
    "hipSetDevice",          "hipDeviceReset",
    "__pasta_hip_ops"};

// The first call that registers a kernel or variable with the vendor
// runtime; its first argument is the fat binary handle.
static CallBase *findRegistration(Module &M, const VendorRuntime &V) {
  for (const char *Name : {V.RegisterFunction, V.RegisterVar}) {
    Function *F = M.getFunction(Name);
    if (!F)
      continue;
    for (User *U : F->users())
      if (auto *CB = dyn_cast<CallBase>(U))
        return CB;
  }
  return nullptr;
}

static Constant *vendorOps(Module &M, const VendorRuntime &V) {
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  PointerType *Ptr = PointerType::get(Ctx, 0);
  auto Fn = [&](const char *Name, FunctionType *Ty) {
    return cast<Constant>(M.getOrInsertFunction(Name, Ty).getCallee());
  };
  Constant *Fns[] = {
      Fn(V.MemcpyFromSymbol,
         FunctionType::get(I32, {Ptr, Ptr, I64, I64, I32}, false)),
      Fn(V.Memcpy, FunctionType::get(I32, {Ptr, Ptr, I64, I32}, false)),
      Fn(V.GetErrorString, FunctionType::get(Ptr, {I32}, false)),
      Fn(V.DeviceSynchronize, FunctionType::get(I32, false)),
      Fn(V.GetDeviceCount, FunctionType::get(I32, {Ptr}, false)),
      Fn(V.GetDevice, FunctionType::get(I32, {Ptr}, false)),
      Fn(V.SetDevice, FunctionType::get(I32, {I32}, false)),
  };
  auto *Ty = StructType::get(Ctx, SmallVector<Type *, 7>(std::size(Fns), Ptr));
  return new GlobalVariable(M, Ty, true, GlobalValue::InternalLinkage,
                            ConstantStruct::get(Ty, Fns), V.OpsName);
}

// The host shadow of the device descriptor: the address the vendor runtime
// maps to the device symbol __pasta_desc_<id>.
static GlobalVariable *createShadow(Module &M) {
  auto *Ty = ArrayType::get(Type::getInt8Ty(M.getContext()),
                            sizeof(struct pasta_module_desc));
  auto *Shadow = new GlobalVariable(M, Ty, false, GlobalValue::InternalLinkage,
                                    ConstantAggregateZero::get(Ty),
                                    "__pasta_shadow_" + moduleId(M));
  Shadow->setAlignment(Align(8));
  return Shadow;
}

static bool registerDeviceDescriptor(Module &M, const VendorRuntime &V) {
  CallBase *Anchor = findRegistration(M, V);
  if (!Anchor)
    return false;
  LLVMContext &Ctx = M.getContext();
  std::string Name = PASTA_DESC_PREFIX + moduleId(M);
  GlobalVariable *Shadow = createShadow(M);

  IRBuilder<> B(Anchor->getNextNode());
  Value *Handle = Anchor->getArgOperand(0);
  Value *NameStr = B.CreateGlobalString(Name, "__pasta_desc_name");
  PointerType *Ptr = PointerType::get(Ctx, 0);
  Type *I32 = B.getInt32Ty();
  FunctionCallee RegisterVar =
      M.getOrInsertFunction(V.RegisterVar, B.getVoidTy(), Ptr, Ptr, Ptr, Ptr,
                            I32, B.getInt64Ty(), I32, I32);
  B.CreateCall(RegisterVar, {Handle, Shadow, NameStr, NameStr, B.getInt32(0),
                             B.getInt64(sizeof(struct pasta_module_desc)),
                             B.getInt32(0), B.getInt32(0)});
  FunctionCallee Register =
      M.getOrInsertFunction(RegisterModuleName, B.getVoidTy(), Ptr, Ptr);
  B.CreateCall(Register, {Shadow, vendorOps(M, V)});
  return true;
}

// With clang's new offloading driver and relocatable device code
// (-fgpu-rdc), a host module registers nothing itself: it lists its kernels
// and variables as offloading entries (section llvm_offload_entries), and
// the linker wrapper registers them all. The entry kind (CUDA or HIP) is
// taken from the module's own entries.
static constexpr const char *OffloadEntriesSection = "llvm_offload_entries";

static std::optional<uint16_t> offloadEntryKind(Module &M) {
  for (GlobalVariable &GV : M.globals()) {
    auto *Init = GV.hasInitializer()
                     ? dyn_cast<ConstantStruct>(GV.getInitializer())
                     : nullptr;
    if (GV.getSection() != OffloadEntriesSection || !Init ||
        Init->getNumOperands() < 3)
      continue;
    if (auto *Kind = dyn_cast<ConstantInt>(Init->getOperand(2)))
      return static_cast<uint16_t>(Kind->getZExtValue());
  }
  return std::nullopt;
}

// Adds our descriptor as one more offloading entry (a variable of 72
// bytes), and a constructor that hands its shadow to the host runtime.
static bool registerByOffloadEntry(Module &M, const VendorRuntime &V,
                                   uint16_t Kind) {
  LLVMContext &Ctx = M.getContext();
  std::string Id = moduleId(M), Name = PASTA_DESC_PREFIX + Id;
  GlobalVariable *Shadow = createShadow(M);
  auto *NameInit = ConstantDataArray::getString(Ctx, Name);
  auto *NameGV = new GlobalVariable(M, NameInit->getType(), true,
                                    GlobalValue::InternalLinkage, NameInit,
                                    ".offloading.entry_name.pasta");
  NameGV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  NameGV->setSection(".llvm.rodata.offloading");
  PointerType *Ptr = PointerType::get(Ctx, 0);
  Type *I16 = Type::getInt16Ty(Ctx), *I32 = Type::getInt32Ty(Ctx),
       *I64 = Type::getInt64Ty(Ctx);
  // struct { reserved, version, kind, flags, addr, name, size, data, aux }
  auto *EntryTy =
      StructType::get(Ctx, {I64, I16, I16, I32, Ptr, Ptr, I64, I64, Ptr});
  Constant *Entry = ConstantStruct::get(
      EntryTy, {ConstantInt::get(I64, 0), ConstantInt::get(I16, 1),
                ConstantInt::get(I16, Kind), ConstantInt::get(I32, 0), Shadow,
                NameGV, ConstantInt::get(I64, sizeof(struct pasta_module_desc)),
                ConstantInt::get(I64, 0), ConstantPointerNull::get(Ptr)});
  auto *EntryGV =
      new GlobalVariable(M, EntryTy, true, GlobalValue::WeakAnyLinkage, Entry,
                         ".offloading.entry." + Name);
  EntryGV->setSection(OffloadEntriesSection);
  EntryGV->setAlignment(Align(8));
  appendToUsed(M, {EntryGV});

  Function *Ctor = Function::Create(
      FunctionType::get(Type::getVoidTy(Ctx), false),
      GlobalValue::InternalLinkage, "__pasta_register_ctor_" + Id, M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "", Ctor));
  B.CreateCall(
      M.getOrInsertFunction(RegisterModuleName, B.getVoidTy(), Ptr, Ptr),
      {Shadow, vendorOps(M, V)});
  B.CreateRetVoid();
  appendToGlobalCtors(M, Ctor, 0);
  return true;
}

// Calls Hook before every direct call to the function named Callee.
static bool hookCallsTo(Module &M, StringRef Callee, StringRef Hook) {
  Function *F = M.getFunction(Callee);
  if (!F)
    return false;
  FunctionCallee H =
      M.getOrInsertFunction(Hook, Type::getVoidTy(M.getContext()));
  SmallVector<CallBase *, 4> Calls;
  for (User *U : F->users())
    if (auto *CB = dyn_cast<CallBase>(U); CB && CB->getCalledOperand() == F)
      Calls.push_back(CB);
  for (CallBase *CB : Calls)
    IRBuilder<>(CB).CreateCall(H);
  return !Calls.empty();
}

// The host runtime collects the counts when main returns, or when the
// program calls exit() (by then the CUDA runtime's own exit handlers may
// have shut the driver down, too late for an atexit handler of ours), and
// saves them before cudaDeviceReset frees them.
static bool hookProgramExits(Module &M) {
  bool Changed = false;
  if (Function *Main = M.getFunction("main"); Main && !Main->isDeclaration()) {
    FunctionCallee Exit =
        M.getOrInsertFunction(MainExitName, Type::getVoidTy(M.getContext()));
    for (BasicBlock &BB : *Main)
      if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator())) {
        IRBuilder<>(Ret).CreateCall(Exit);
        Changed = true;
      }
  }
  Changed |= hookCallsTo(M, "exit", MainExitName);
  for (const VendorRuntime *V : {&CUDA, &HIP})
    Changed |= hookCallsTo(M, V->DeviceReset, BeforeResetName);
  return Changed;
}

PreservedAnalyses HostRegistrationPass::run(Module &M,
                                            ModuleAnalysisManager &) {
  if (Triple(M.getTargetTriple()).isGPU())
    return PreservedAnalyses::all();
  bool Changed = false;
  for (const VendorRuntime *V : {&CUDA, &HIP})
    Changed |= registerDeviceDescriptor(M, *V);
  if (!Changed)
    if (std::optional<uint16_t> Kind = offloadEntryKind(M))
      Changed = registerByOffloadEntry(M, *Kind == object::OFK_HIP ? HIP : CUDA,
                                       *Kind);
  if (Changed || Opts.Host)
    Changed |= hookProgramExits(M);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
