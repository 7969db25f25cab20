//===- RuntimeBinding.cpp - Host modules find the host runtime at run time ===//
//
// An instrumented host module calls the host runtime (libpasta_rt): the
// wrappers of the program's CUDA/HIP calls (HostInterception.cpp), the
// registration of its device and host modules (HostRegistration.cpp,
// ModuleTables.cpp), the exit and reset hooks, the out-of-line host flush
// and the trace's scope events. Called directly, those names are undefined
// symbols that only a link with the runtime resolves, so a gcc link of
// instrumented objects (a Makefile whose C compiler links), CMake's own
// compiler checks, or a static library linked by someone else fail. This
// pass, the last on a host module, routes them so that the module links
// wherever its uninstrumented twin links:
//
//  - Each runtime function the module calls, and the ABI symbol
//    __pasta_abi_v<N> (pasta/abi.h), is declared extern_weak: a link
//    without the runtime leaves them null instead of failing.
//  - Each call goes through a slot of the module's own (an internal array
//    of pointers, one per function). Slots start at a lazy stub (one per
//    function, same signature) that binds the module and calls on through
//    the slot, so a call that comes before the binder's constructor (another
//    module's constructor calling in) binds first. Once bound, a call costs
//    one load more than a direct call: nothing new on the host's hot paths.
//  - The binder (a constructor, and each lazy stub, the first time) fills
//    the slots, in this order: the weak addresses, when the runtime is
//    linked in (pasta-clang++, the toolchain, libpasta_rt.a); otherwise the
//    runtime already in the process (dlsym(RTLD_DEFAULT), loaded by another
//    module's binder or by the program), so there is still ONE runtime per
//    process whichever libraries hold instrumented code; otherwise it
//    dlopens the runtime (RTLD_NOW | RTLD_GLOBAL, so the next module finds
//    it) from $PASTA_RUNTIME (secure_getenv: never in a set-user-ID
//    program), else from the path recorded at compile time
//    (the libpasta_rt.so beside the plugin, or -pasta-runtime=PATH; a path
//    that cannot seek, a fifo or a terminal the loader would block on, is
//    refused after a non-blocking probe), then
//    as libpasta_rt.so from the library path (a program run on another
//    machine, LD_LIBRARY_PATH). A weak symbol that resolved to null
//    in an executable stays null after a dlopen, which is why the calls go
//    through slots that dlsym fills.
//  - The ABI symbol checks the runtime's version: a runtime without it (one
//    of another PASTA version, in the process or at the path) is not used.
//  - With no runtime (or a mismatched one, or no dlopen: an old glibc
//    without -ldl, for dlopen/dlsym/dlerror are weak too), every slot gets
//    its fallback: a wrapper's calls the vendor function it wraps (the
//    wrapper's second-to-last argument), anything else does nothing. The
//    program then runs exactly as uninstrumented, after one line on stderr
//    saying why and how to fix it, once per loaded object that found no
//    runtime (the executable and each instrumented library: an
//    executable's symbols are not visible to a library's code).
//  - A weak reference extracts no member from an archive, so libpasta_rt.a
//    is a linker script that makes every entry point undefined first
//    (cmake/runtime_archive_script.cmake): naming it on a link line still
//    links the whole runtime in.
//
// Linux/glibc constants: RTLD_DEFAULT is null, RTLD_NOW | RTLD_GLOBAL 0x102,
// O_NONBLOCK 04000, O_CLOEXEC 02000000, SEEK_END 2 (x86_64 and aarch64).
//
//===----------------------------------------------------------------------===//
#include "RuntimeBinding.h"
#include "HostInterception.h"
#include "ModuleTables.h"

#include "pasta/abi.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <dlfcn.h>

using namespace llvm;
using namespace pasta;

static constexpr const char *EnvName = "PASTA_RUNTIME";
// A function every runtime version defines: its presence without this
// version's ABI symbol means a runtime of another version.
static constexpr const char *AnyRuntimeSymbol = "__pasta_main_exit";
static constexpr const char *WarnedName = "__pasta_rt_warned";
static constexpr uint64_t RtldNowGlobal = 0x102;
// open(2)'s O_RDONLY | O_NONBLOCK | O_CLOEXEC and lseek's SEEK_END.
static constexpr uint64_t ReadNonblockCloexec = 04000 | 02000000;
static constexpr uint64_t SeekEnd = 2;

std::string pasta::defaultRuntimePath() {
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&defaultRuntimePath), &Info) ||
      !Info.dli_fname)
    return "libpasta_rt.so";
  SmallString<256> Path(Info.dli_fname);
  sys::path::remove_filename(Path);
  sys::path::append(Path, "libpasta_rt.so");
  return std::string(Path);
}

namespace {

class Binder {
public:
  Binder(Module &M, StringRef RuntimePath)
      : M(M), Ctx(M.getContext()), Id(moduleId(M)), RuntimePath(RuntimePath),
        Ptr(PointerType::get(Ctx, 0)), I8(Type::getInt8Ty(Ctx)),
        I32(Type::getInt32Ty(Ctx)) {}
  bool run();

private:
  Function *newFunction(FunctionType *Ty, const Twine &Name) {
    return Function::Create(Ty, GlobalValue::InternalLinkage, Name, M);
  }
  Constant *string(StringRef S, const Twine &Name);
  Function *weakLibc(StringRef Name, FunctionType *Ty);
  Function *fallback(Function &F);
  Function *lazyStub(Function &F, unsigned Index);
  Function *finder();
  Function *firstWarning();
  void warn(IRBuilder<> &B, StringRef Format, ArrayRef<Value *> Args);
  Function *binder();

  Module &M;
  LLVMContext &Ctx;
  std::string Id;
  StringRef RuntimePath;
  PointerType *Ptr;
  Type *I8, *I32;
  SmallVector<Function *, 16> Entries;
  GlobalVariable *Abi = nullptr, *Slots = nullptr, *State = nullptr;
  Function *Bind = nullptr, *WarnOnce = nullptr;
};

} // namespace

Constant *Binder::string(StringRef S, const Twine &Name) {
  auto *Init = ConstantDataArray::getString(Ctx, S);
  auto *GV = new GlobalVariable(M, Init->getType(), true,
                                GlobalValue::PrivateLinkage, Init, Name);
  GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  return GV;
}

// A libc/libdl function the binder calls, weak when the module does not
// already declare it (a program's own strong reference is left alone).
Function *Binder::weakLibc(StringRef Name, FunctionType *Ty) {
  if (Function *F = M.getFunction(Name))
    return F;
  Function *F = Function::Create(Ty, GlobalValue::ExternalWeakLinkage, Name, M);
  return F;
}

// What a call does without the runtime: a wrapper calls the function it
// wraps (its second-to-last argument) with the program's arguments; any
// other entry point does nothing (and returns zero).
Function *Binder::fallback(Function &F) {
  FunctionType *Ty = F.getFunctionType();
  Function *Fb = newFunction(Ty, "__pasta_rt_fallback." + F.getName());
  IRBuilder<> B(BasicBlock::Create(Ctx, "", Fb));
  unsigned N = Ty->getNumParams();
  if (isRuntimeWrapper(F.getName()) && N >= 2) {
    SmallVector<Value *, 12> Args;
    SmallVector<Type *, 12> Params;
    for (unsigned I = 0; I + 2 < N; ++I) {
      Args.push_back(Fb->getArg(I));
      Params.push_back(Ty->getParamType(I));
    }
    auto *Vendor = FunctionType::get(Ty->getReturnType(), Params, false);
    Value *R = B.CreateCall(Vendor, Fb->getArg(N - 2), Args);
    B.CreateRet(R);
  } else if (Ty->getReturnType()->isVoidTy()) {
    B.CreateRetVoid();
  } else {
    B.CreateRet(Constant::getNullValue(Ty->getReturnType()));
  }
  return Fb;
}

// The slot's first value: binds the module, then calls through the slot.
Function *Binder::lazyStub(Function &F, unsigned Index) {
  FunctionType *Ty = F.getFunctionType();
  Function *Stub = newFunction(Ty, "__pasta_rt_lazy." + F.getName());
  IRBuilder<> B(BasicBlock::Create(Ctx, "", Stub));
  B.CreateCall(Bind);
  LoadInst *Target =
      B.CreateLoad(Ptr, B.CreateConstInBoundsGEP2_32(Slots->getValueType(),
                                                     Slots, 0, Index));
  Target->setAtomic(AtomicOrdering::Unordered);
  Target->setAlignment(Align(8));
  SmallVector<Value *, 12> Args;
  for (Argument &A : Stub->args())
    Args.push_back(&A);
  CallInst *Call = B.CreateCall(Ty, Target, Args);
  if (Ty->getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Call);
  return Stub;
}

// Whether this is the loaded object's first warning. Each object that finds
// no runtime says so once: a flag shared across objects would need the
// environment (an executable's symbols are not visible to a library's code),
// and setenv in a constructor of a library dlopen'ed by a threaded program
// can crash it.
Function *Binder::firstWarning() {
  if (WarnOnce)
    return WarnOnce;
  WarnOnce = newFunction(FunctionType::get(Type::getInt1Ty(Ctx), false),
                         "__pasta_rt_first_warning." + Id);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", WarnOnce));
  GlobalVariable *Warned = M.getNamedGlobal(WarnedName);
  if (!Warned)
    Warned = new GlobalVariable(M, I8, false, GlobalValue::LinkOnceAnyLinkage,
                                ConstantInt::get(I8, 0), WarnedName);
  Value *Was =
      B.CreateAtomicRMW(AtomicRMWInst::Xchg, Warned, ConstantInt::get(I8, 1),
                        Align(1), AtomicOrdering::Monotonic);
  B.CreateRet(B.CreateIsNull(Was));
  return WarnOnce;
}

// One line on stderr, once per loaded object.
void Binder::warn(IRBuilder<> &B, StringRef Format, ArrayRef<Value *> Extra) {
  Function *Fn = B.GetInsertBlock()->getParent();
  BasicBlock *Print = BasicBlock::Create(Ctx, "warn", Fn);
  BasicBlock *Done = BasicBlock::Create(Ctx, "warned", Fn);
  B.CreateCondBr(B.CreateCall(firstWarning()), Print, Done);
  B.SetInsertPoint(Print);
  FunctionCallee Dprintf = M.getOrInsertFunction(
      "dprintf", FunctionType::get(I32, {I32, Ptr}, true));
  SmallVector<Value *, 4> Args{B.getInt32(2),
                               string(Format, "__pasta_rt_message")};
  Args.append(Extra.begin(), Extra.end());
  B.CreateCall(Dprintf, Args);
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
}

// Whether a runtime of this ABI version is in the process (linked in,
// already loaded, or loaded now); otherwise one warning and false.
Function *Binder::finder() {
  Function *Find = newFunction(FunctionType::get(Type::getInt1Ty(Ctx), false),
                               "__pasta_rt_find." + Id);
  auto Block = [&](const char *Name) {
    return BasicBlock::Create(Ctx, Name, Find);
  };
  BasicBlock *Entry = Block("entry"), *Yes = Block("found"),
             *No = Block("uninstrumented");
  IRBuilder<> B(Yes);
  B.CreateRet(B.getTrue());
  B.SetInsertPoint(No);
  B.CreateRet(B.getFalse());

  auto *DlopenTy = FunctionType::get(Ptr, {Ptr, I32}, false);
  auto *DlsymTy = FunctionType::get(Ptr, {Ptr, Ptr}, false);
  auto *DlerrorTy = FunctionType::get(Ptr, false);
  Function *Dlopen = weakLibc("dlopen", DlopenTy);
  Function *Dlsym = weakLibc("dlsym", DlsymTy);
  Function *Dlerror = weakLibc("dlerror", DlerrorTy);
  Constant *Null = ConstantPointerNull::get(Ptr);
  Constant *AbiName = string(PASTA_ABI_SYMBOL, "__pasta_rt_name");
  std::string Fix = "; this program runs uninstrumented: set " +
                    std::string(EnvName) +
                    " to the libpasta_rt.so of the PASTA that compiled it\n";
  std::string Version = std::to_string(PASTA_ABI_VERSION_NUMBER);

  // Linked in: the weak ABI symbol resolved.
  B.SetInsertPoint(Entry);
  BasicBlock *HaveDl = Block("have_dl"), *NotLinked = Block("not_linked");
  B.CreateCondBr(B.CreateIsNotNull(Abi), Yes, NotLinked);
  // No dlopen (an old glibc, linked without -ldl).
  B.SetInsertPoint(NotLinked);
  BasicBlock *Lookup = Block("lookup"), *NoDlWarn = Block("no_dl_warn");
  Value *Dl = B.CreateAnd(
      B.CreateAnd(B.CreateIsNotNull(Dlopen), B.CreateIsNotNull(Dlsym)),
      B.CreateIsNotNull(Dlerror));
  B.CreateCondBr(Dl, HaveDl, NoDlWarn);
  B.SetInsertPoint(NoDlWarn);
  warn(B,
       "pasta: warning: the PASTA runtime is not linked in and dlopen is "
       "not available; this program runs uninstrumented: link it with -ldl "
       "or with libpasta_rt.so\n",
       {});
  B.CreateBr(No);
  // Already in the process?
  B.SetInsertPoint(HaveDl);
  B.CreateBr(Lookup);
  B.SetInsertPoint(Lookup);
  BasicBlock *Other = Block("other_version"), *Load = Block("load"),
             *Mismatch = Block("loaded_mismatch");
  B.CreateCondBr(
      B.CreateIsNotNull(B.CreateCall(DlsymTy, Dlsym, {Null, AbiName})), Yes,
      Other);
  B.SetInsertPoint(Other);
  Value *Any = B.CreateCall(
      DlsymTy, Dlsym, {Null, string(AnyRuntimeSymbol, "__pasta_rt_name")});
  B.CreateCondBr(B.CreateIsNotNull(Any), Mismatch, Load);
  B.SetInsertPoint(Mismatch);
  warn(B,
       ("pasta: warning: the PASTA runtime in this process is not of ABI "
        "version " +
        Version +
        ", which this program's instrumented code needs; that code runs "
        "uninstrumented: build the whole program with one PASTA\n"),
       {});
  B.CreateBr(No);
  // Load it: $PASTA_RUNTIME; else the path recorded at compile time, then
  // libpasta_rt.so on the library path (a program run on another machine,
  // with the runtime in LD_LIBRARY_PATH). secure_getenv: in a set-user-ID
  // (or set-group-ID, or capability) program the variable is its caller's,
  // and a library it names would run with the program's privileges; the
  // loader ignores LD_LIBRARY_PATH there alike.
  B.SetInsertPoint(Load);
  FunctionCallee Getenv = M.getOrInsertFunction(
      "secure_getenv", FunctionType::get(Ptr, {Ptr}, false));
  Value *Env = B.CreateCall(Getenv, {string(EnvName, "__pasta_rt_env")});
  BasicBlock *EnvSet = Block("env_set"), *Open = Block("open");
  B.CreateCondBr(B.CreateIsNotNull(Env), EnvSet, Open);
  B.SetInsertPoint(EnvSet);
  Value *NonEmpty = B.CreateICmpNE(B.CreateLoad(I8, Env), B.getInt8(0));
  B.CreateBr(Open);
  B.SetInsertPoint(Open);
  PHINode *UseEnv = B.CreatePHI(Type::getInt1Ty(Ctx), 2);
  UseEnv->addIncoming(B.getFalse(), Load);
  UseEnv->addIncoming(NonEmpty, EnvSet);
  Constant *Recorded = string(RuntimePath, "__pasta_rt_path");
  Value *First = B.CreateSelect(UseEnv, Env, Recorded);
  // A path the loader would wait on for ever (a fifo no one writes, a
  // terminal, /dev/stdin): dlopen opens it blocking and reads. Probed first
  // without blocking: what cannot seek is not a library. (A name without a
  // '/' is searched for by the loader, never opened as it is.)
  BasicBlock *Probe = Block("probe"), *Seek = Block("seek"),
             *NotFile = Block("not_a_file"), *DoOpen = Block("dlopen");
  auto *I64 = Type::getInt64Ty(Ctx);
  FunctionCallee Strchr = M.getOrInsertFunction(
      "strchr", FunctionType::get(Ptr, {Ptr, I32}, false));
  FunctionCallee OpenFn =
      M.getOrInsertFunction("open", FunctionType::get(I32, {Ptr, I32}, true));
  FunctionCallee Lseek = M.getOrInsertFunction(
      "lseek", FunctionType::get(I64, {I32, I64, I32}, false));
  FunctionCallee Close =
      M.getOrInsertFunction("close", FunctionType::get(I32, {I32}, false));
  B.CreateCondBr(
      B.CreateIsNotNull(B.CreateCall(Strchr, {First, B.getInt32('/')})), Probe,
      DoOpen);
  B.SetInsertPoint(Probe);
  Value *Fd = B.CreateCall(OpenFn, {First, B.getInt32(ReadNonblockCloexec)});
  B.CreateCondBr(B.CreateICmpSGE(Fd, B.getInt32(0)), Seek, DoOpen);
  B.SetInsertPoint(Seek);
  Value *End =
      B.CreateCall(Lseek, {Fd, ConstantInt::get(I64, 0), B.getInt32(SeekEnd)});
  B.CreateCall(Close, {Fd});
  B.CreateCondBr(B.CreateICmpSLT(End, ConstantInt::get(I64, 0)), NotFile,
                 DoOpen);
  B.SetInsertPoint(NotFile);
  warn(B,
       "pasta: warning: cannot load the PASTA runtime %s (a pipe, a fifo or a "
       "terminal, not a library)" +
           Fix,
       {First});
  B.CreateBr(No);
  B.SetInsertPoint(DoOpen);
  Value *Handle =
      B.CreateCall(DlopenTy, Dlopen, {First, B.getInt32(RtldNowGlobal)});
  BasicBlock *Opened = Block("opened"), *Failed = Block("open_failed"),
             *ByName = Block("open_by_name"), *NotFound = Block("not_found"),
             *WrongAbi = Block("wrong_abi");
  B.CreateCondBr(B.CreateIsNotNull(Handle), Opened, Failed);
  B.SetInsertPoint(Failed);
  B.CreateCondBr(UseEnv, NotFound, ByName);
  B.SetInsertPoint(ByName);
  Constant *Name = string("libpasta_rt.so", "__pasta_rt_soname");
  Value *Handle2 =
      B.CreateCall(DlopenTy, Dlopen, {Name, B.getInt32(RtldNowGlobal)});
  B.CreateCondBr(B.CreateIsNotNull(Handle2), Opened, NotFound);
  B.SetInsertPoint(NotFound);
  PHINode *Tried = B.CreatePHI(Ptr, 2);
  Tried->addIncoming(First, Failed);
  Tried->addIncoming(Recorded, ByName);
  warn(B, "pasta: warning: cannot load the PASTA runtime %s (%s)" + Fix,
       {Tried, B.CreateCall(DlerrorTy, Dlerror)});
  B.CreateBr(No);
  B.SetInsertPoint(Opened);
  PHINode *H = B.CreatePHI(Ptr, 2);
  H->addIncoming(Handle, DoOpen);
  H->addIncoming(Handle2, ByName);
  PHINode *Path = B.CreatePHI(Ptr, 2);
  Path->addIncoming(First, DoOpen);
  Path->addIncoming(Name, ByName);
  B.CreateCondBr(B.CreateIsNotNull(B.CreateCall(DlsymTy, Dlsym, {H, AbiName})),
                 Yes, WrongAbi);
  B.SetInsertPoint(WrongAbi);
  warn(B,
       "pasta: warning: %s is not a PASTA runtime of ABI version " + Version +
           Fix,
       {Path});
  B.CreateBr(No);
  return Find;
}

// Fills every slot once: with a runtime of this version found, the weak
// address, else dlsym's; otherwise (or if dlsym finds nothing) the fallback.
// (A runtime of another version linked in resolves the weak references
// too: they are not used then.)
Function *Binder::binder() {
  unsigned N = Entries.size();
  auto *TableTy = ArrayType::get(Ptr, N);
  SmallVector<Constant *, 16> Names, Weak, Fallbacks;
  for (Function *F : Entries) {
    Names.push_back(string(F->getName(), "__pasta_rt_name"));
    Weak.push_back(F);
    Fallbacks.push_back(fallback(*F));
  }
  auto Table = [&](ArrayRef<Constant *> Init, const Twine &Name) {
    return new GlobalVariable(M, TableTy, true, GlobalValue::InternalLinkage,
                              ConstantArray::get(TableTy, Init), Name + Id);
  };
  GlobalVariable *NameTable = Table(Names, "__pasta_rt_names.");
  GlobalVariable *WeakTable = Table(Weak, "__pasta_rt_weak.");
  GlobalVariable *FallbackTable = Table(Fallbacks, "__pasta_rt_fallbacks.");
  Function *Find = finder();

  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Bind));
  BasicBlock *Start = BasicBlock::Create(Ctx, "start", Bind);
  BasicBlock *Loop = BasicBlock::Create(Ctx, "slot", Bind);
  BasicBlock *Try = BasicBlock::Create(Ctx, "found", Bind);
  BasicBlock *Sym = BasicBlock::Create(Ctx, "dlsym", Bind);
  BasicBlock *Fb = BasicBlock::Create(Ctx, "fallback", Bind);
  BasicBlock *Store = BasicBlock::Create(Ctx, "store", Bind);
  BasicBlock *Exit = BasicBlock::Create(Ctx, "done", Bind);
  LoadInst *Done = B.CreateLoad(I8, State);
  Done->setAtomic(AtomicOrdering::Unordered);
  B.CreateCondBr(B.CreateIsNotNull(Done), Exit, Start);

  B.SetInsertPoint(Start);
  StoreInst *Mark = B.CreateStore(B.getInt8(1), State);
  Mark->setAtomic(AtomicOrdering::Unordered);
  Value *Found = B.CreateCall(Find);
  B.CreateBr(Loop);

  B.SetInsertPoint(Loop);
  PHINode *I = B.CreatePHI(I32, 2, "i");
  I->addIncoming(B.getInt32(0), Start);
  auto At = [&](GlobalVariable *T) {
    return B.CreateInBoundsGEP(TableTy, T, {B.getInt32(0), I});
  };
  B.CreateCondBr(Found, Try, Fb);
  B.SetInsertPoint(Try);
  Value *W = B.CreateLoad(Ptr, At(WeakTable));
  B.CreateCondBr(B.CreateIsNotNull(W), Store, Sym);
  B.SetInsertPoint(Sym);
  Value *S = B.CreateCall(
      FunctionType::get(Ptr, {Ptr, Ptr}, false), M.getFunction("dlsym"),
      {ConstantPointerNull::get(Ptr), B.CreateLoad(Ptr, At(NameTable))});
  B.CreateCondBr(B.CreateIsNotNull(S), Store, Fb);
  B.SetInsertPoint(Fb);
  Value *F = B.CreateLoad(Ptr, At(FallbackTable));
  B.CreateBr(Store);
  B.SetInsertPoint(Store);
  PHINode *P = B.CreatePHI(Ptr, 3);
  P->addIncoming(W, Try);
  P->addIncoming(S, Sym);
  P->addIncoming(F, Fb);
  StoreInst *Set = B.CreateStore(P, At(Slots));
  Set->setAtomic(AtomicOrdering::Unordered);
  Set->setAlignment(Align(8));
  Value *Next = B.CreateAdd(I, B.getInt32(1));
  I->addIncoming(Next, Store);
  B.CreateCondBr(B.CreateICmpULT(Next, B.getInt32(N)), Loop, Exit);

  B.SetInsertPoint(Exit);
  B.CreateRetVoid();
  return Bind;
}

bool Binder::run() {
  for (Function &F : M)
    if (F.isDeclaration() && !F.isIntrinsic() &&
        F.getName().starts_with("__pasta_") && !F.use_empty())
      Entries.push_back(&F);
  if (Entries.empty())
    return false;

  // The ABI symbol: weak, like every entry point.
  Abi = M.getNamedGlobal(PASTA_ABI_SYMBOL);
  if (!Abi)
    Abi = new GlobalVariable(M, I8, true, GlobalValue::ExternalWeakLinkage,
                             nullptr, PASTA_ABI_SYMBOL);
  Abi->setLinkage(GlobalValue::ExternalWeakLinkage);
  for (Function *F : Entries)
    F->setLinkage(GlobalValue::ExternalWeakLinkage);

  unsigned N = Entries.size();
  auto *TableTy = ArrayType::get(Ptr, N);
  Slots = new GlobalVariable(M, TableTy, false, GlobalValue::InternalLinkage,
                             nullptr, "__pasta_rt_slots." + Id);
  Slots->setAlignment(Align(8));
  State = new GlobalVariable(M, I8, false, GlobalValue::InternalLinkage,
                             ConstantInt::get(I8, 0), "__pasta_rt_bound." + Id);
  Bind = newFunction(FunctionType::get(Type::getVoidTy(Ctx), false),
                     "__pasta_rt_bind." + Id);

  // Every call through its slot (other uses, if any, keep the weak address).
  SmallVector<Constant *, 16> Lazy;
  for (auto [Index, F] : enumerate(Entries)) {
    Lazy.push_back(lazyStub(*F, Index));
    SmallVector<CallBase *, 8> Calls;
    for (User *U : F->users())
      if (auto *CB = dyn_cast<CallBase>(U); CB && CB->getCalledOperand() == F)
        Calls.push_back(CB);
    for (CallBase *CB : Calls) {
      IRBuilder<> B(CB);
      LoadInst *Target = B.CreateLoad(
          Ptr, B.CreateConstInBoundsGEP2_32(TableTy, Slots, 0, Index));
      Target->setAtomic(AtomicOrdering::Unordered);
      Target->setAlignment(Align(8));
      CB->setCalledOperand(Target);
    }
  }
  Slots->setInitializer(ConstantArray::get(TableTy, Lazy));
  binder();
  // Bound at load time. Whatever runs first (another constructor of this
  // module, or of another module calling in) goes through a lazy stub,
  // which binds then.
  appendToGlobalCtors(M, Bind, 0);
  return true;
}

PreservedAnalyses RuntimeBindingPass::run(Module &M, ModuleAnalysisManager &) {
  if (Triple(M.getTargetTriple()).isGPU())
    return PreservedAnalyses::all();
  std::string Path = RuntimePath.empty() ? defaultRuntimePath() : RuntimePath;
  return Binder(M, Path).run() ? PreservedAnalyses::none()
                               : PreservedAnalyses::all();
}
