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
#include "HostRegistration.h"
#include "HostInterception.h"
#include "ModuleTables.h"
#include "ParameterFields.h"
#include "VendorRuntime.h"

#include "pasta/abi.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/OffloadBinary.h"
#include "llvm/Support/Regex.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <optional>
#include <utility>

using namespace llvm;
using namespace pasta;

static constexpr const char *RegisterModuleName =
    "__pasta_register_device_module";
static constexpr const char *ModuleDsoName = "__pasta_module_dso";
static constexpr const char *MainExitName = "__pasta_main_exit";
static constexpr const char *BeforeResetName = "__pasta_before_device_reset";

static const VendorRuntime &CUDA = CUDARuntime, &HIP = HIPRuntime;

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

// Registers Shadow's module with the host runtime, and tells it which
// loaded object (the executable or a shared library) holds it: the address
// of that object's __dso_handle, as clang passes to __cxa_atexit for static
// destructors. The runtime reads the module's counts when that object is
// unloaded (dlclose), before its vendor runtime and device image go.
static void registerWithRuntime(Module &M, IRBuilder<> &B, Value *Shadow,
                                const VendorRuntime &V) {
  PointerType *Ptr = PointerType::get(M.getContext(), 0);
  B.CreateCall(
      M.getOrInsertFunction(RegisterModuleName, B.getVoidTy(), Ptr, Ptr),
      {Shadow, vendorOps(M, V)});
  GlobalVariable *Dso = M.getNamedGlobal("__dso_handle");
  if (!Dso) {
    Dso = new GlobalVariable(M, B.getInt8Ty(), false,
                             GlobalValue::ExternalLinkage, nullptr,
                             "__dso_handle");
    Dso->setVisibility(GlobalValue::HiddenVisibility);
  }
  B.CreateCall(M.getOrInsertFunction(ModuleDsoName, B.getVoidTy(), Ptr, Ptr),
               {Shadow, Dso});
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

static constexpr const char *RegisterKernelName = "__pasta_register_kernel";
static constexpr const char *RegisterFieldsName =
    "__pasta_register_kernel_fields";
static constexpr const char *RegisterDivergenceName =
    "__pasta_register_divergence_kernel";
static constexpr const char *RegisterUncappedName =
    "__pasta_register_divergence_uncapped";
static constexpr const char *RegisterGeneralName =
    "__pasta_register_divergence_general";
static constexpr const char *RegisterOneLaneName =
    "__pasta_register_divergence_one_lane";
static constexpr const char *RegisterCappedName =
    "__pasta_register_capped_kernel";
static constexpr const char *RegisterWsCappedName =
    "__pasta_register_ws_capped_kernel";

// A kernel's divergence copies, each as its name suffix and the runtime
// call that registers it: the copy, and its uncapped twin, general copy
// and one-lane copy (or their stubs) where the device half emits them
// (DivergenceEmission.cpp: NVIDIA kernels, register caps on).
using CopyRegistration = std::pair<const char *, const char *>;
static SmallVector<CopyRegistration, 4>
divergenceCopies(const Options &Opts, const VendorRuntime &V) {
  SmallVector<CopyRegistration, 4> Copies{
      {PASTA_DIV_SUFFIX, RegisterDivergenceName}};
  if (Opts.DivMaxRegisters != 0 && V.Vendor == PASTA_VENDOR_CUDA) {
    Copies.push_back({PASTA_DIV_UNCAPPED_SUFFIX, RegisterUncappedName});
    Copies.push_back({PASTA_DIV_GENERAL_SUFFIX, RegisterGeneralName});
    Copies.push_back({PASTA_DIV_ONE_LANE_SUFFIX, RegisterOneLaneName});
  }
  return Copies;
}

// The kernels the device half instruments (and gives variants): the same
// PASTA_KERNELS test as CountingPass's.
static bool hasVariants(const Options &Opts, StringRef Mangled) {
  if (!Opts.Variants)
    return false;
  if (Opts.Kernels.empty())
    return true;
  Regex Filter(Opts.Kernels);
  return Filter.isValid() && kernelNameMatches(Filter, Mangled);
}

// The copies of a kernel that are handed to the runtime one call each,
// after its __pasta_register_kernel: its register-capped counting copy
// (CappedCopies.cpp: every NVIDIA kernel with variants, a stub where its
// own bounds fit), its register-capped working-set copy where it has a
// working-set copy (a stub but for kernels of many live values), then its
// divergence copies in PASTA_DIVERGENCE=1 builds.
static SmallVector<CopyRegistration, 4>
handedCopies(const Options &Opts, const VendorRuntime &V, StringRef Mangled) {
  SmallVector<CopyRegistration, 4> Copies;
  if (!hasVariants(Opts, Mangled))
    return Copies;
  if (V.Vendor == PASTA_VENDOR_CUDA)
    Copies.push_back({PASTA_CAPPED_SUFFIX, RegisterCappedName});
  if (V.Vendor == PASTA_VENDOR_CUDA && Opts.WorkingSetCopies)
    Copies.push_back({PASTA_WS_CAPPED_SUFFIX, RegisterWsCappedName});
  if (Opts.Divergence)
    Copies.append(divergenceCopies(Opts, V));
  return Copies;
}

// What the host runtime needs to know of a kernel's parameters: how many
// there are (the length of the argument array a launch passes) and which
// are pointers (bit k: parameter k; the working-set mode looks their
// allocations up). Read from the kernel's stub (the handle itself for CUDA,
// the function a HIP handle variable holds): the stub stores each parameter
// in a slot of its own and passes an array of the slots' addresses, so a
// slot of type ptr holds a pointer parameter. Without that array the count
// is unknown (-1): the stub's own parameters are the x86-64 ABI's lowering
// (a struct may be split or dropped), not the kernel's.
struct KernelParams {
  int Count = -1;
  uint64_t Pointers = 0;
  SmallVector<ParameterField, 16> Fields; // see ParameterFields.h
};

static Function *stubOf(Value *Handle) {
  Value *V = Handle->stripPointerCasts();
  if (auto *GV = dyn_cast<GlobalVariable>(V); GV && GV->hasInitializer())
    V = GV->getInitializer()->stripPointerCasts();
  return dyn_cast<Function>(V);
}

// The argument array the stub passes to the launch call (argument 5 of
// cudaLaunchKernel / hipLaunchKernel), or null.
static AllocaInst *argumentArray(Function &Stub) {
  for (Instruction &I : instructions(Stub)) {
    auto *CB = dyn_cast<CallBase>(&I);
    Function *Callee = CB ? CB->getCalledFunction() : nullptr;
    if (Callee && Callee->getName().contains("LaunchKernel") &&
        CB->arg_size() == 8)
      return dyn_cast<AllocaInst>(CB->getArgOperand(5)->stripPointerCasts());
  }
  return nullptr;
}

// The type of a parameter's storage in the stub: its slot (an alloca) or,
// for a struct passed in memory, the stub's byval parameter itself.
static Type *storageType(Value *Storage) {
  if (auto *Slot = dyn_cast<AllocaInst>(Storage))
    return Slot->getAllocatedType();
  if (auto *A = dyn_cast<Argument>(Storage))
    return A->getParamByValType();
  return nullptr;
}

// The pointer layout of kernel parameter K where the stub's IR does not
// type it: a parameter passed indirectly (a bare pointer to the caller's
// copy, stored in the argument array as it is), read from the stub's
// debug info; null without it. CUB's transform_kernel takes its inputs so
// (kernel_arg, a union with a copy constructor): untyped, their accesses
// all took the working-set full path.
static Type *indirectParamLayout(Function &Stub, Value *Storage, unsigned K) {
  auto *A = dyn_cast<Argument>(Storage);
  DISubprogram *SP = Stub.getSubprogram();
  if (!A || A->hasByValAttr() || !SP || !SP->getType())
    return nullptr;
  DITypeRefArray Types = SP->getType()->getTypeArray();
  if (K + 1 >= Types.size()) // Types[0] is the return type
    return nullptr;
  return pointerLayoutOf(Types[K + 1], Stub.getContext());
}

// Tells the host runtime where the pointer fields of a kernel's by-value
// aggregate parameters are (pairs of parameter and offset), when it has any.
static void registerFields(Module &M, IRBuilder<> &B, Value *Handle,
                           ArrayRef<ParameterField> Fields) {
  if (Fields.empty())
    return;
  SmallVector<uint32_t, 32> Pairs;
  for (const ParameterField &F : Fields)
    Pairs.append({F.Param, static_cast<uint32_t>(F.Offset)});
  Constant *Init = ConstantDataArray::get(M.getContext(), Pairs);
  auto *Table =
      new GlobalVariable(M, Init->getType(), true, GlobalValue::PrivateLinkage,
                         Init, "__pasta_kernel_fields");
  PointerType *Ptr = PointerType::get(M.getContext(), 0);
  FunctionCallee Register = M.getOrInsertFunction(
      RegisterFieldsName, B.getVoidTy(), Ptr, Ptr, B.getInt32Ty());
  B.CreateCall(Register, {Handle, Table, B.getInt32(Fields.size())});
}

// The one element of a struct of one element (or array of one), through
// nesting; T itself otherwise.
static Type *singleElement(Type *T) {
  for (;;) {
    if (auto *S = dyn_cast<StructType>(T); S && S->getNumElements() == 1)
      T = S->getElementType(0);
    else if (auto *A = dyn_cast<ArrayType>(T); A && A->getNumElements() == 1)
      T = A->getElementType();
    else
      return T;
  }
}

// Unwrapped: HIP passes an aggregate of a single element to an AMD kernel
// as that element (clang's AMDGPU kernel-argument rule): a struct holding
// one pointer arrives as a pointer parameter, not a by-value struct, so it
// is numbered as one here too, or the device's field numbers would be one
// behind the host's.
static KernelParams kernelParams(Value *Handle, bool Unwrapped) {
  KernelParams P;
  Function *Stub = stubOf(Handle);
  AllocaInst *Slots =
      Stub && !Stub->isDeclaration() ? argumentArray(*Stub) : nullptr;
  if (!Slots)
    return P; // unknown: the runtime then never rewrites the arguments
  // Whatever form the array has ([N x ptr], or ptr with a count), each
  // parameter's slot receives one store; clang allocates one slot even for
  // a kernel without parameters, which then gets none.
  const DataLayout &DL = Stub->getDataLayout();
  int Count = 0;
  SmallVector<Type *, 16> Aggregates;
  for (Instruction &J : instructions(*Stub)) {
    auto *St = dyn_cast<StoreInst>(&J);
    if (!St || !St->getValueOperand()->getType()->isPointerTy())
      continue;
    Value *Dst = St->getPointerOperand();
    APInt Off(DL.getIndexTypeSizeInBits(Dst->getType()), 0);
    if (Dst->stripAndAccumulateConstantOffsets(DL, Off, true) != Slots ||
        Off.getZExtValue() % 8)
      continue;
    uint64_t K = Off.getZExtValue() / 8;
    Count = std::max(Count, static_cast<int>(K) + 1);
    auto *Slot = dyn_cast<AllocaInst>(St->getValueOperand());
    Type *T = storageType(St->getValueOperand());
    if (!T)
      T = indirectParamLayout(*Stub, St->getValueOperand(), K);
    bool Pointer = Slot && Slot->getAllocatedType()->isPointerTy();
    if (Unwrapped && isFieldAggregate(T) && singleElement(T)->isPointerTy())
      Pointer = true, T = nullptr;
    if (K < 64 && Pointer)
      P.Pointers |= uint64_t(1) << K;
    if (isFieldAggregate(T)) {
      Aggregates.resize(std::max<size_t>(Aggregates.size(), K + 1));
      Aggregates[K] = T;
    }
  }
  P.Count = Count;
  P.Fields = pointerFields(Aggregates, DL);
  return P;
}

// A new host handle for a kernel variant: the vendor runtime only uses its
// address as a key.
static GlobalVariable *variantHandle(Module &M, const Twine &Name) {
  Type *I8 = Type::getInt8Ty(M.getContext());
  return new GlobalVariable(M, I8, true, GlobalValue::InternalLinkage,
                            ConstantInt::get(I8, 0), Name);
}

// Tells the host runtime which handle launches one of a kernel's copies
// (through Name: its divergence copies in PASTA_DIVERGENCE=1 builds, its
// register-capped counting copy).
static void registerCopyHandle(Module &M, IRBuilder<> &B, Value *Handle,
                               Value *Copy, const char *Name) {
  PointerType *Ptr = PointerType::get(M.getContext(), 0);
  FunctionCallee Register =
      M.getOrInsertFunction(Name, B.getVoidTy(), Ptr, Ptr);
  B.CreateCall(Register, {Handle, Copy});
}

// Registers the copy of a kernel named Mangled + Suffix with the vendor
// runtime as Reg registers the kernel (a clone of the call, with the copy's
// handle and name); returns the copy's handle.
static GlobalVariable *registerCopy(Module &M, IRBuilder<> &B, CallBase &Reg,
                                    StringRef Mangled, const char *Suffix) {
  std::string Name = (Mangled + Suffix).str();
  GlobalVariable *VH = variantHandle(M, "__pasta_handle_" + Name);
  Value *Str = B.CreateGlobalString(Name, "__pasta_kernel_name");
  auto *Copy = cast<CallBase>(Reg.clone());
  Copy->setArgOperand(1, VH);
  Copy->setArgOperand(2, Str);
  Copy->setArgOperand(3, Str);
  B.Insert(Copy);
  return VH;
}

// After the registration of one kernel: registers its plain and working-set
// variants the same way, and tells the host runtime about all three.
static void registerKernel(Module &M, CallBase &Reg, Value *Shadow,
                           const Options &Opts, const VendorRuntime &V) {
  StringRef Mangled;
  if (Reg.arg_size() < 4 ||
      !getConstantStringInfo(Reg.getArgOperand(2), Mangled))
    return;
  LLVMContext &Ctx = M.getContext();
  PointerType *Ptr = PointerType::get(Ctx, 0);
  IRBuilder<> B(Reg.getNextNode());
  Value *Handle = Reg.getArgOperand(1);
  Constant *Null = ConstantPointerNull::get(Ptr);
  Value *Plain = Null, *WS = Null, *Trace = Null;
  if (hasVariants(Opts, Mangled)) {
    for (auto [Suffix, Slot] : {std::pair{PASTA_PLAIN_SUFFIX, &Plain},
                                std::pair{PASTA_WS_SUFFIX, &WS},
                                std::pair{PASTA_TRACE_SUFFIX, &Trace}}) {
      if ((Slot == &Trace && !Opts.Trace) ||
          (Slot == &Plain && !Opts.PlainCopies) ||
          (Slot == &WS && !Opts.WorkingSetCopies))
        continue;
      *Slot = registerCopy(M, B, Reg, Mangled, Suffix);
    }
  }
  FunctionCallee RegisterKernel =
      M.getOrInsertFunction(RegisterKernelName, B.getVoidTy(), Ptr, Ptr, Ptr,
                            Ptr, Ptr, B.getInt32Ty(), B.getInt64Ty(), Ptr);
  KernelParams KP = kernelParams(Handle, V.Vendor == PASTA_VENDOR_HIP);
  B.CreateCall(RegisterKernel, {Handle, Reg.getArgOperand(2), Plain, WS, Trace,
                                B.getInt32(KP.Count), B.getInt64(KP.Pointers),
                                Shadow ? Shadow : Null});
  if (WS != Null)
    registerFields(M, B, Handle, KP.Fields);
  for (auto [Suffix, Register] : handedCopies(Opts, V, Mangled))
    registerCopyHandle(M, B, Handle, registerCopy(M, B, Reg, Mangled, Suffix),
                       Register);
}

static void registerKernels(Module &M, const VendorRuntime &V, Value *Shadow,
                            const Options &Opts) {
  Function *F = M.getFunction(V.RegisterFunction);
  if (!F)
    return;
  SmallVector<CallBase *, 8> Calls;
  for (User *U : F->users())
    if (auto *CB = dyn_cast<CallBase>(U); CB && CB->getCalledOperand() == F)
      Calls.push_back(CB);
  for (CallBase *CB : Calls)
    registerKernel(M, *CB, Shadow, Opts, V);
}

static bool registerDeviceDescriptor(Module &M, const VendorRuntime &V,
                                     const Options &Opts) {
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
  registerWithRuntime(M, B, Shadow, V);
  registerKernels(M, V, Shadow, Opts);
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

// One more offloading entry: Addr is registered under Name (Size 0 for a
// kernel, else a variable of Size bytes).
static void addOffloadEntry(Module &M, uint16_t Kind, uint32_t Flags,
                            Constant *Addr, StringRef Name, uint64_t Size) {
  LLVMContext &Ctx = M.getContext();
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
                ConstantInt::get(I16, Kind), ConstantInt::get(I32, Flags), Addr,
                NameGV, ConstantInt::get(I64, Size), ConstantInt::get(I64, 0),
                ConstantPointerNull::get(Ptr)});
  auto *EntryGV =
      new GlobalVariable(M, EntryTy, true, GlobalValue::WeakAnyLinkage, Entry,
                         ".offloading.entry." + Name);
  EntryGV->setSection(OffloadEntriesSection);
  EntryGV->setAlignment(Align(8));
  appendToUsed(M, {EntryGV});
}

// The module's kernel entries: (flags, host handle, device name).
static SmallVector<std::tuple<uint32_t, Constant *, StringRef>, 8>
kernelEntries(Module &M) {
  SmallVector<std::tuple<uint32_t, Constant *, StringRef>, 8> Kernels;
  for (GlobalVariable &GV : M.globals()) {
    auto *Init = GV.hasInitializer()
                     ? dyn_cast<ConstantStruct>(GV.getInitializer())
                     : nullptr;
    if (GV.getSection() != OffloadEntriesSection || !Init ||
        Init->getNumOperands() < 7)
      continue;
    auto *Flags = dyn_cast<ConstantInt>(Init->getOperand(3));
    auto *Size = dyn_cast<ConstantInt>(Init->getOperand(6));
    StringRef Name;
    if (!Flags || !Size || !Size->isZero() ||
        !getConstantStringInfo(Init->getOperand(5), Name))
      continue;
    Kernels.push_back({static_cast<uint32_t>(Flags->getZExtValue()),
                       Init->getOperand(4), Name});
  }
  return Kernels;
}

// Adds our descriptor as one more offloading entry (a variable of
// sizeof(struct pasta_module_desc) bytes), the kernels' variants as entries
// too, and a constructor that hands the descriptor's shadow and the kernels to
// the host runtime.
static bool registerByOffloadEntry(Module &M, const VendorRuntime &V,
                                   uint16_t Kind, const Options &Opts) {
  LLVMContext &Ctx = M.getContext();
  std::string Id = moduleId(M);
  auto Kernels = kernelEntries(M);
  GlobalVariable *Shadow = createShadow(M);
  addOffloadEntry(M, Kind, 0, Shadow, PASTA_DESC_PREFIX + Id,
                  sizeof(struct pasta_module_desc));

  Function *Ctor = Function::Create(
      FunctionType::get(Type::getVoidTy(Ctx), false),
      GlobalValue::InternalLinkage, "__pasta_register_ctor_" + Id, M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "", Ctor));
  PointerType *Ptr = PointerType::get(Ctx, 0);
  registerWithRuntime(M, B, Shadow, V);
  FunctionCallee RegisterKernel =
      M.getOrInsertFunction(RegisterKernelName, B.getVoidTy(), Ptr, Ptr, Ptr,
                            Ptr, Ptr, B.getInt32Ty(), B.getInt64Ty(), Ptr);
  Constant *Null = ConstantPointerNull::get(Ptr);
  for (auto &[Flags, Handle, Mangled] : Kernels) {
    KernelParams KP = kernelParams(Handle, V.Vendor == PASTA_VENDOR_HIP);
    Constant *Handles[3] = {Null, Null, Null};
    if (hasVariants(Opts, Mangled)) {
      const char *Suffixes[3] = {PASTA_PLAIN_SUFFIX, PASTA_WS_SUFFIX,
                                 PASTA_TRACE_SUFFIX};
      bool Made[3] = {Opts.PlainCopies, Opts.WorkingSetCopies, Opts.Trace};
      for (int I = 0; I < 3; ++I) {
        if (!Made[I])
          continue;
        std::string Name = (Mangled + Suffixes[I]).str();
        Handles[I] = variantHandle(M, "__pasta_handle_" + Name);
        addOffloadEntry(M, Kind, Flags, Handles[I], Name, 0);
      }
    }
    B.CreateCall(RegisterKernel,
                 {Handle, B.CreateGlobalString(Mangled, "__pasta_kernel_name"),
                  Handles[0], Handles[1], Handles[2], B.getInt32(KP.Count),
                  B.getInt64(KP.Pointers), Shadow});
    if (Handles[1] != Null)
      registerFields(M, B, Handle, KP.Fields);
    for (auto [Suffix, Register] : handedCopies(Opts, V, Mangled)) {
      std::string Name = (Mangled + Suffix).str();
      GlobalVariable *VH = variantHandle(M, "__pasta_handle_" + Name);
      addOffloadEntry(M, Kind, Flags, VH, Name, 0);
      registerCopyHandle(M, B, Handle, VH, Register);
    }
  }
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
  abi::verifyLayouts();
  if (Triple(M.getTargetTriple()).isGPU())
    return PreservedAnalyses::all();
  bool Changed = false;
  for (const VendorRuntime *V : {&CUDA, &HIP})
    Changed |= registerDeviceDescriptor(M, *V, Opts);
  if (!Changed)
    if (std::optional<uint16_t> Kind = offloadEntryKind(M))
      Changed = registerByOffloadEntry(M, *Kind == object::OFK_HIP ? HIP : CUDA,
                                       *Kind, Opts);
  if (Opts.Intercept)
    Changed |= interceptRuntimeCalls(M);
  if (Changed || Opts.Host)
    Changed |= hookProgramExits(M);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
