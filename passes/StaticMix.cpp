//===- StaticMix.cpp - Static cost of instructions ------------------------===//
//
// Conventions (docs/counting-conventions.md):
// - a load/store is one access of its store size in bytes (a vector load is
//   one access); atomicrmw/cmpxchg are atomics, not loads or stores;
//   memcpy/memmove/memset (intrinsics, and libc calls in host code) are one
//   load (copies) and one store per execution, of their length in bytes; a
//   run-time length is added up per site at run time (VariableLength);
// - fadd/fsub/fmul count 1 FLOP per lane, fma/fmuladd 2, by element type;
// - fdiv/frem and the square-root, exponential, logarithm, power and
//   trigonometric intrinsics count as "special", 1 per lane;
// - address spaces come from the pointer type, or, for generic pointers,
//   from the underlying objects: kernel pointer arguments, and pointers a
//   kernel reads from its by-value parameters, are global (the CUDA ABI; the
//   NVPTX backend assumes the same), allocas are local (so is an NVPTX
//   device function's by-value parameter unless only loaded from), and a
//   global variable has its own address space. Anything else is resolved at
//   run time on GPUs and is "generic" on the host;
// - NVPTX inline assembly is counted where every memory instruction in it
//   is a form InlineAsmMemory.h names, each as the access it makes (its
//   space from the instruction, or from its address where it names none);
// - a warp-matrix (wmma) load or store intrinsic is one access per lane of
//   its tile's bytes over the warp's 32 lanes (wmmaAccess);
// - a scoped atomic intrinsic (llvm.nvvm.atomic.<op>.gen.<i|f>.<cta|sys>:
//   atomicAdd_block, atomicCAS_system, ...) is one atomic, as atomicrmw.
//
//===----------------------------------------------------------------------===//
#include "StaticMix.h"
#include "IRHelpers.h"
#include "InlineAsmMemory.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

#include <algorithm>
#include <optional>

using namespace llvm;
using namespace pasta;

bool Mix::empty() const {
  for (uint32_t X : V)
    if (X)
      return false;
  return true;
}

void Mix::add(const Mix &Other) {
  for (unsigned I = 0; I < PASTA_MIX_NUM; ++I)
    V[I] += Other.V[I];
}

pasta_space StaticMixAnalysis::spaceOfAddressSpace(unsigned AS) const {
  if (Target == PASTA_TARGET_HOST)
    return PASTA_SPACE_GENERIC;
  // NVPTX and AMDGPU agree on these numbers.
  switch (AS) {
  case 1:
    return PASTA_SPACE_GLOBAL;
  case 3:
    return PASTA_SPACE_SHARED;
  case 4:
    return PASTA_SPACE_CONSTANT;
  case 5:
    return PASTA_SPACE_LOCAL;
  default:
    return PASTA_SPACE_GENERIC;
  }
}

// Whether the pointer St stores is kept in a variable of the thread's own
// (an alloca) that only holds it: the variable is written and read, and its
// address goes nowhere else (no call, no copy, not stored). Each pointer
// loaded from it where the stored one may be (an agent object's other
// fields are not) is onto Work, to be followed as the pointer itself.
static bool keptInLocalHolder(const StoreInst &St,
                              SmallVectorImpl<const Value *> &Work) {
  const DataLayout &DL = St.getModule()->getDataLayout();
  unsigned Bits = DL.getIndexTypeSizeInBits(St.getPointerOperandType());
  APInt At(Bits, 0);
  const Value *Base = St.getPointerOperand()->stripAndAccumulateConstantOffsets(
      DL, At, /*AllowNonInbounds=*/true);
  const auto *Holder = dyn_cast<AllocaInst>(Base);
  if (!Holder)
    return false;
  uint64_t Size = DL.getTypeStoreSize(St.getValueOperand()->getType());
  // Whether Len bytes at Ptr may overlap the stored ones: by Ptr's constant
  // offset in the holder, else yes.
  auto Overlaps = [&](const Value *Ptr, int64_t Len) {
    APInt From(Bits, 0);
    if (Ptr->stripAndAccumulateConstantOffsets(
            DL, From, /*AllowNonInbounds=*/true) != Holder)
      return true;
    int64_t Start = From.getSExtValue(), StoreAt = At.getSExtValue();
    return Start < StoreAt + int64_t(Size) && StoreAt < Start + Len;
  };
  SmallVector<const Value *, 8> Parts{Holder};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Parts.empty()) {
    const Value *P = Parts.pop_back_val();
    if (!Seen.insert(P).second)
      continue;
    for (const User *U : P->users()) {
      if (const auto *L = dyn_cast<LoadInst>(U)) {
        if (!Overlaps(P, DL.getTypeStoreSize(L->getType())))
          continue;
        if (L->getType()->isPointerTy())
          Work.push_back(L);
        for (const User *LU : L->users())
          if (isa<IntToPtrInst>(LU))
            Work.push_back(LU);
        continue;
      }
      if (const auto *S = dyn_cast<StoreInst>(U);
          S && S->getPointerOperand() == P && S->getValueOperand() != P)
        continue;
      if (const auto *II = dyn_cast<IntrinsicInst>(U);
          II && II->isLifetimeStartOrEnd())
        continue;
      // A copy or a fill of other bytes of the holder (an agent's items).
      if (const auto *MI = dyn_cast<MemIntrinsic>(U)) {
        const auto *Len = dyn_cast<ConstantInt>(MI->getLength());
        if (Len && !MI->isVolatile() &&
            !Overlaps(P, int64_t(Len->getZExtValue())))
          continue;
      }
      if (isa<GetElementPtrInst>(U) || isa<BitCastInst>(U) ||
          isa<AddrSpaceCastInst>(U) || isa<PHINode>(U) || isa<SelectInst>(U)) {
        Parts.push_back(U);
        continue;
      }
      return false;
    }
  }
  return true;
}

// Whether the memory a pointer points to is only read through it (loads,
// through address arithmetic), so that the backend can leave it where it is.
// With CopiesToo, a call's by-value copy of it reads it too (its bytes
// unchanged, though the backend may move them). With HoldersToo, the pointer
// may be kept in a variable that only holds it (keptInLocalHolder), and what
// is loaded from there is followed too: CUB's agents keep a reference to
// their kernel's by-value tile state so (the bytes stay the host's, though
// the backend then copies them to local memory).
static bool onlyReadThrough(const Value *Ptr, bool CopiesToo = false,
                            bool HoldersToo = false) {
  SmallVector<const Value *, 8> Work{Ptr};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const User *U : V->users()) {
      if (isa<LoadInst>(U))
        continue;
      if (const auto *St = dyn_cast<StoreInst>(U);
          St && HoldersToo && St->getValueOperand() == V &&
          St->getPointerOperand() != V && St->isSimple()) {
        if (!keptInLocalHolder(*St, Work))
          return false;
        continue;
      }
      if (const auto *MT = dyn_cast<MemTransferInst>(U))
        if (MT->getSource() == V && MT->getDest() != V)
          continue;
      if (const auto *CB = dyn_cast<CallBase>(U); CB && CopiesToo)
        if (all_of(CB->args(), [&](const Use &A) {
              return A.get() != V || CB->isByValArgument(A.getOperandNo());
            }))
          continue;
      if (isa<GetElementPtrInst>(U) || isa<BitCastInst>(U) ||
          isa<AddrSpaceCastInst>(U) || isa<PHINode>(U) || isa<SelectInst>(U)) {
        Work.push_back(U);
        continue;
      }
      return false;
    }
  }
  return true;
}

// A pointer argument of a kernel points to global memory, except a struct
// passed by value (byval: a functor, a lambda's captures), which is in the
// kernel's parameter space: the constant bank on NVIDIA (ld.param), the
// kernarg segment on AMD. One the kernel writes to, or whose address
// escapes, is copied to local memory by the backend.
static pasta_space spaceOfKernelArgument(const Argument &Arg) {
  if (!Arg.hasByValAttr())
    return PASTA_SPACE_GLOBAL;
  return onlyReadThrough(&Arg) ? PASTA_SPACE_CONSTANT : PASTA_SPACE_LOCAL;
}

// Whether Arg, a device function's by-value parameter that it only reads,
// holds at every call a copy of a kernel's parameter bytes, which only
// reads or copies them on: every call is direct and passes (a part of) a
// kernel's by-value parameter, or of such a parameter of its own caller.
// moderngpu's kernels hand their lambda, captured pointers and all, on to
// restrict_forward so. Only where no other module can call the function.
static bool holdsKernelParameterCopy(const Argument &Arg, unsigned Depth = 0) {
  const Function &F = *Arg.getParent();
  if (Depth > 8 || !Arg.hasByValAttr() ||
      !onlyReadThrough(&Arg, /*CopiesToo=*/true))
    return false;
  if (!F.hasLocalLinkage() || F.use_empty())
    return false;
  for (const User *U : F.users()) {
    const auto *CB = dyn_cast<CallBase>(U);
    if (!CB || CB->getCalledOperand() != &F)
      return false;
    const auto *From = dyn_cast<Argument>(
        getUnderlyingObject(CB->getArgOperand(Arg.getArgNo())));
    if (!From)
      return false;
    if (isKernel(*From->getParent())) {
      if (!(From->hasByValAttr() || From->hasByRefAttr()) ||
          !onlyReadThrough(From, /*CopiesToo=*/true))
        return false;
    } else if (!holdsKernelParameterCopy(*From, Depth + 1)) {
      return false;
    }
  }
  return true;
}

// Whether Obj is a pointer the kernel read from one of its by-value
// parameters (a functor's or a lambda's captured pointer, an iterator passed
// by value: Thrust and CUB kernels take their data so), as a pointer or as an
// integer turned into one. The host wrote it, as it writes a pointer
// argument: it points to global memory (the NVPTX backend assumes the same
// when it lowers kernel arguments). Not where the kernel writes to the
// parameter or lets its address escape: it may have stored any pointer there.
static bool loadedFromKernelParameter(const Value *Obj) {
  if (const auto *Cast = dyn_cast<IntToPtrInst>(Obj))
    Obj = Cast->getOperand(0);
  const auto *Load = dyn_cast<LoadInst>(Obj);
  if (!Load || Load->isVolatile() || Load->isAtomic())
    return false;
  const auto *Arg =
      dyn_cast<Argument>(getUnderlyingObject(Load->getPointerOperand()));
  if (!Arg)
    return false;
  if (!isKernel(*Arg->getParent()))
    return holdsKernelParameterCopy(*Arg);
  return (Arg->hasByValAttr() || Arg->hasByRefAttr()) &&
         onlyReadThrough(Arg, /*CopiesToo=*/false, /*HoldersToo=*/true);
}

// Whether the constant C holds the address of anything (a global, a
// function, a block).
static bool holdsAddress(const Constant *C) {
  SmallVector<const Constant *, 8> Work{C};
  SmallPtrSet<const Constant *, 8> Seen;
  while (!Work.empty()) {
    const Constant *K = Work.pop_back_val();
    if (!Seen.insert(K).second)
      continue;
    if (isa<GlobalValue, BlockAddress, DSOLocalEquivalent, NoCFIValue>(K))
      return true;
    for (const Use &Op : K->operands())
      Work.push_back(cast<Constant>(Op.get()));
  }
  return false;
}

// Whether Obj is a pointer (or an integer turned into one) loaded from a
// __constant__ variable (address space 4 on NVPTX and AMDGPU) defined in
// this module with no address in its initializer. Device code cannot write
// constant memory, so the host wrote it (cudaMemcpyToSymbol), as it writes
// a kernel's pointer argument: it points to global memory. AutoDock-GPU
// keeps its device pointers in one such struct: the accesses through them
// were generic, resolved at run time, and their address-space counters
// were 456 of gpu_calc_energrad's 528 (57 sites). Not a variable only
// declared here (another module defines it, perhaps with the address of a
// constant).
static bool loadedFromConstantVariable(const Value *Obj) {
  if (const auto *Cast = dyn_cast<IntToPtrInst>(Obj))
    Obj = Cast->getOperand(0);
  const auto *Load = dyn_cast<LoadInst>(Obj);
  if (!Load || Load->isVolatile() || Load->isAtomic())
    return false;
  const auto *GV =
      dyn_cast<GlobalVariable>(getUnderlyingObject(Load->getPointerOperand()));
  return GV && GV->getAddressSpace() == 4 && GV->hasInitializer() &&
         !holdsAddress(GV->getInitializer());
}

// Whether Obj is what a call of the device heap's allocator returned:
// CUDA's device-side malloc (which `new` calls in device code) allocates
// from the heap in global memory. A declaration only: a program's own
// function of that name is whatever it is.
static bool deviceHeapAllocation(const Value *Obj) {
  const auto *Call = dyn_cast<CallBase>(Obj);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  return Callee && Callee->isDeclaration() && Callee->getName() == "malloc" &&
         Call->getType()->isPointerTy();
}

// Whether the by-value parameter of an NVPTX device function is only
// loaded from, at fixed or computed offsets: the back end then reads it in
// place, with ld.param (a pointer merged with others by a phi or a select,
// or one that escapes, makes it copy the parameter to local memory; a
// device function's parameter has no generic address). Counted as the
// kernel's parameters are: constant space. Any other use takes its address,
// which PTX gives in local space (the address of a device function's .param
// is a .local one: the back end emits `mov` of the parameter, `cvta.local`):
// local.
static bool readInPlace(const Argument &Arg) {
  SmallVector<const Value *, 8> Work{&Arg};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (const auto *L = dyn_cast<LoadInst>(U); L && L->isSimple())
        continue;
      if (isa<GetElementPtrInst>(U)) {
        Work.push_back(U);
        continue;
      }
      return false;
    }
  }
  return true;
}

pasta_space StaticMixAnalysis::spaceOfObject(const Value *Obj,
                                             pasta_space FromAS) const {
  if (FromAS != PASTA_SPACE_GENERIC)
    return FromAS;
  if (const auto *Arg = dyn_cast<Argument>(Obj)) {
    if (Arg->getType()->isPointerTy() && isKernel(*Arg->getParent()))
      return spaceOfKernelArgument(*Arg);
    if (ArgumentSpaces)
      if (auto It = ArgumentSpaces->find(Arg); It != ArgumentSpaces->end())
        return It->second;
    if (Target == PASTA_TARGET_NVPTX && Arg->hasByValAttr())
      return readInPlace(*Arg) ? PASTA_SPACE_CONSTANT : PASTA_SPACE_LOCAL;
  }
  if (isa<AllocaInst>(Obj))
    return PASTA_SPACE_LOCAL;
  if (loadedFromKernelParameter(Obj) || loadedFromConstantVariable(Obj))
    return PASTA_SPACE_GLOBAL;
  if (Target == PASTA_TARGET_NVPTX && deviceHeapAllocation(Obj))
    return PASTA_SPACE_GLOBAL;
  return PASTA_SPACE_GENERIC;
}

pasta_space StaticMixAnalysis::classifyPointer(const Value *Ptr) const {
  pasta_space Direct =
      spaceOfAddressSpace(Ptr->getType()->getPointerAddressSpace());
  if (Direct != PASTA_SPACE_GENERIC || Target == PASTA_TARGET_HOST)
    return Direct;
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  if (Objects.empty())
    return PASTA_SPACE_GENERIC;
  pasta_space Result = PASTA_SPACE_GENERIC;
  for (const Value *Obj : Objects) {
    pasta_space S = spaceOfObject(
        Obj, spaceOfAddressSpace(Obj->getType()->getPointerAddressSpace()));
    if (S == PASTA_SPACE_GENERIC ||
        (Result != PASTA_SPACE_GENERIC && S != Result))
      return PASTA_SPACE_GENERIC;
    Result = S;
  }
  return Result;
}

static void addAccess(Mix &M, unsigned CountBase, unsigned BytesBase,
                      pasta_space S, uint64_t Bytes) {
  M.V[CountBase + S] += 1;
  M.V[BytesBase + S] += static_cast<uint32_t>(Bytes);
}

// The C library's block operations, when a call to one survives (-O0 with
// -fno-builtin, a call through a _chk form, ...): which arguments are the
// destination, the source (-1 for none) and the length.
namespace {
struct LibcBlockOp {
  const char *Name;
  int Dest, Source, Length;
};
} // namespace

static constexpr LibcBlockOp LibcBlockOps[] = {
    {"memcpy", 0, 1, 2},       {"memmove", 0, 1, 2},
    {"memset", 0, -1, 2},      {"bzero", 0, -1, 1},
    {"__memcpy_chk", 0, 1, 2}, {"__memmove_chk", 0, 1, 2},
    {"__memset_chk", 0, -1, 2}};

bool pasta::isLibcBlockOpName(StringRef Name) {
  return llvm::any_of(LibcBlockOps,
                      [&](const LibcBlockOp &Op) { return Name == Op.Name; });
}

// A direct call of a declared libc block operation with pointer and
// integer arguments where they belong (a program's own memcpy, defined
// here, is counted as the function it is).
static const LibcBlockOp *libcBlockOp(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration() || Callee->isIntrinsic())
    return nullptr;
  StringRef Name = Callee->getName();
  for (const LibcBlockOp &Op : LibcBlockOps) {
    if (Name != Op.Name)
      continue;
    unsigned Needed = std::max({Op.Dest, Op.Source, Op.Length}) + 1;
    if (Call.arg_size() < Needed ||
        !Call.getArgOperand(Op.Dest)->getType()->isPointerTy() ||
        (Op.Source >= 0 &&
         !Call.getArgOperand(Op.Source)->getType()->isPointerTy()) ||
        !Call.getArgOperand(Op.Length)->getType()->isIntegerTy())
      return nullptr;
    return &Op;
  }
  return nullptr;
}

// memcpy, memmove and memset, as intrinsics (plain, .inline, element-wise
// atomic) or, in host code, libc calls: one load of the source (copies)
// and one store of the destination per execution, of the length in bytes.
// A constant length is in the mix; a run-time one goes to Variable.
bool StaticMixAnalysis::addBlockOperation(const Instruction &I, Mix &M,
                                          VariableLength *Variable) const {
  const Value *Dest = nullptr, *Source = nullptr, *Length = nullptr;
  if (const auto *MT = dyn_cast<AnyMemTransferInst>(&I)) {
    Dest = MT->getDest();
    Source = MT->getSource();
    Length = MT->getLength();
  } else if (const auto *MS = dyn_cast<AnyMemSetInst>(&I)) {
    Dest = MS->getDest();
    Length = MS->getLength();
  } else if (const auto *Call = dyn_cast<CallBase>(&I);
             Call && Target == PASTA_TARGET_HOST) {
    const LibcBlockOp *Op = libcBlockOp(*Call);
    if (!Op)
      return false;
    Dest = Call->getArgOperand(Op->Dest);
    Source = Op->Source >= 0 ? Call->getArgOperand(Op->Source) : nullptr;
    Length = Call->getArgOperand(Op->Length);
  } else {
    return false;
  }
  pasta_space DestSpace = classifyPointer(Dest);
  pasta_space SourceSpace =
      Source ? classifyPointer(Source) : PASTA_SPACE_GENERIC;
  if (const auto *Len = dyn_cast<ConstantInt>(Length)) {
    uint64_t Bytes = Len->getZExtValue();
    if (Source)
      addAccess(M, PASTA_MIX_LOADS, PASTA_MIX_LOAD_BYTES, SourceSpace, Bytes);
    addAccess(M, PASTA_MIX_STORES, PASTA_MIX_STORE_BYTES, DestSpace, Bytes);
    return true;
  }
  if (!Variable)
    return false;
  Variable->Length = const_cast<Value *>(Length);
  Variable->Loads = Source != nullptr;
  Variable->SourcePointer = const_cast<Value *>(Source);
  Variable->DestPointer = const_cast<Value *>(Dest);
  Variable->Source = SourceSpace;
  Variable->Dest = DestSpace;
  if (Source)
    M.V[PASTA_MIX_LOADS + SourceSpace] += 1;
  M.V[PASTA_MIX_STORES + DestSpace] += 1;
  return true;
}

// One access of an inline-assembly statement or a wmma intrinsic, counted
// as an ordinary one of its space and bytes, a generic one resolved at run
// time as a generic load or store is.
void StaticMixAnalysis::addCallAccess(const AsmAccess &A, Mix &M,
                                      GenericAccess *Generic) const {
  pasta_space S =
      A.Space == PASTA_SPACE_GENERIC ? classifyPointer(A.Address) : A.Space;
  addAccess(M, A.IsStore ? PASTA_MIX_STORES : PASTA_MIX_LOADS,
            A.IsStore ? PASTA_MIX_STORE_BYTES : PASTA_MIX_LOAD_BYTES, S,
            A.Bytes);
  if (S == PASTA_SPACE_GENERIC && Generic) {
    Generic->Pointer = A.Address;
    Generic->IsStore = A.IsStore;
    Generic->Bytes = A.Bytes;
  }
}

// An NVPTX inline-assembly statement whose memory instructions are all
// forms InlineAsmMemory.h names: each access counted (a cp.async a global
// load and a shared store).
bool StaticMixAnalysis::addInlineAsm(const CallBase &Call, Mix &M,
                                     GenericAccess *Generic) const {
  if (Target != PASTA_TARGET_NVPTX)
    return false;
  bool Added = false;
  AsmMemory Asm = asmMemory(Call);
  if (Asm.Kind == AsmMemoryKind::Counted) {
    for (const AsmAccess &A : Asm.Accesses)
      addCallAccess(A, M, Generic);
    Added = true;
  }
  // Its arithmetic that runs at every execution; what runs under a
  // shuffle's predicate is counted at run time (Selection.cpp).
  AsmArithmetic Arith = asmArithmetic(Call);
  for (unsigned P = 0; P < PASTA_NUM_PRECISIONS; ++P)
    if (Arith.Always[P]) {
      M.V[PASTA_MIX_FLOPS + P] += Arith.Always[P];
      Added = true;
    }
  return Added;
}

// A warp-matrix load or store (llvm.nvvm.wmma.<shape>.load.<a|b|c>... and
// .store.d..., what nvcuda::wmma's load_matrix_sync and store_matrix_sync
// become). Why counted here: they are intrinsic calls, not loads or
// stores, and went uncounted, so a tensor-core GEMM's profile lost its
// tiles' traffic without a word.
bool pasta::isWmmaMemoryCall(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isIntrinsic())
    return false;
  StringRef Name = Callee->getName();
  // The mma itself works on registers only.
  return Name.starts_with("llvm.nvvm.wmma.") &&
         (Name.contains(".load.") || Name.contains(".store."));
}

// The bits of a wmma element type as the intrinsic's name spells it, or 0.
static unsigned wmmaElementBits(StringRef T) {
  return StringSwitch<unsigned>(T)
      .Cases({"f16", "bf16"}, 16)
      .Cases({"f32", "s32", "tf32"}, 32)
      .Cases({"s8", "u8"}, 8)
      .Cases({"s4", "u4"}, 4)
      .Case("b1", 1)
      .Case("f64", 64)
      .Default(0);
}

// The bytes of a wmma tile a lane moves: the tile the fragment names
// (a: M x K, b: K x N, c and d: M x N of the shape mMnNkK, in the element
// type the name gives) over the warp's 32 lanes, or 0 where the name is
// not of that form. Not the fragment's registers: a lane's registers may
// repeat elements of another lane's (an m16n16k16 half a or b fragment is
// 32 bytes of registers a lane for a 512-byte tile), and the hardware
// loads each element once (Nsight Compute's SASS bytes equal the tile's:
// tests/structures/wmma, docs/counting-conventions.md).
static uint32_t wmmaTileBytesPerLane(StringRef Name) {
  SmallVector<StringRef, 10> Q;
  Name.split(Q, '.'); // llvm nvvm wmma <shape> load|store <frag> ... <type>
  if (Q.size() < 7)
    return 0;
  unsigned M = 0, N = 0, K = 0;
  StringRef Shape = Q[3];
  if (!Shape.consume_front("m") || Shape.consumeInteger(10, M) ||
      !Shape.consume_front("n") || Shape.consumeInteger(10, N) ||
      !Shape.consume_front("k") || Shape.consumeInteger(10, K) ||
      !Shape.empty())
    return 0;
  StringRef Fragment = Q[5];
  uint64_t Elements = Fragment == "a"                      ? uint64_t(M) * K
                      : Fragment == "b"                    ? uint64_t(K) * N
                      : Fragment == "c" || Fragment == "d" ? uint64_t(M) * N
                                                           : 0;
  unsigned Bits = 0;
  for (StringRef X : ArrayRef(Q).drop_front(6))
    if (unsigned B = wmmaElementBits(X))
      Bits = B; // the last type named: the element's
  uint64_t TileBits = Elements * Bits;
  if (!TileBits || TileBits % (8 * 32))
    return 0;
  return static_cast<uint32_t>(TileBits / (8 * 32));
}

// One access per lane of the tile's bytes over the warp (above), in the
// pointer's space (a generic one from its address, as for a load).
static std::optional<AsmAccess> wmmaAccess(const CallBase &Call) {
  if (!isWmmaMemoryCall(Call))
    return std::nullopt;
  StringRef Name = Call.getCalledFunction()->getName();
  uint32_t Bytes = wmmaTileBytesPerLane(Name);
  if (!Bytes)
    return std::nullopt; // a form this does not know: not counted
  AsmAccess A;
  A.IsStore = Name.contains(".store.");
  A.Address = Call.getArgOperand(0);
  A.Space = PASTA_SPACE_GENERIC; // from the address, as classifyPointer says
  A.Bytes = Bytes;
  return A;
}

bool StaticMixAnalysis::addMemory(const Instruction &I, Mix &M,
                                  GenericAccess *Generic,
                                  VariableLength *Variable) const {
  if (addBlockOperation(I, M, Variable))
    return true;
  if (const auto *Call = dyn_cast<CallBase>(&I); Call && Call->isInlineAsm())
    return addInlineAsm(*Call, M, Generic);
  if (const auto *Call = dyn_cast<CallBase>(&I);
      Call && Target == PASTA_TARGET_NVPTX) {
    if (std::optional<AsmAccess> A = wmmaAccess(*Call)) {
      addCallAccess(*A, M, Generic);
      return true;
    }
    // atomicAdd_system, atomicCAS_block, ...: an atomic as atomicrmw and
    // cmpxchg are, of the bytes of the value it returns (Chai's CUDA-U
    // spin on flags with atomicAdd_system; uncounted before, with only
    // the "target intrinsics" warning).
    if (const Value *P = scopedAtomicPointer(*Call)) {
      addAccess(M, PASTA_MIX_ATOMICS, PASTA_MIX_ATOMIC_BYTES,
                classifyPointer(P), DL.getTypeStoreSize(Call->getType()));
      return true;
    }
  }
  const Value *Ptr = nullptr;
  Type *AccessTy = nullptr;
  bool IsStore = false;
  if (const auto *LI = dyn_cast<LoadInst>(&I)) {
    Ptr = LI->getPointerOperand();
    AccessTy = LI->getType();
  } else if (const auto *SI = dyn_cast<StoreInst>(&I)) {
    Ptr = SI->getPointerOperand();
    AccessTy = SI->getValueOperand()->getType();
    IsStore = true;
  } else if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    addAccess(M, PASTA_MIX_ATOMICS, PASTA_MIX_ATOMIC_BYTES,
              classifyPointer(RMW->getPointerOperand()),
              DL.getTypeStoreSize(RMW->getValOperand()->getType()));
    return true;
  } else if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
    addAccess(M, PASTA_MIX_ATOMICS, PASTA_MIX_ATOMIC_BYTES,
              classifyPointer(CX->getPointerOperand()),
              DL.getTypeStoreSize(CX->getNewValOperand()->getType()));
    return true;
  } else {
    return false;
  }

  uint64_t Bytes = DL.getTypeStoreSize(AccessTy);
  pasta_space S = classifyPointer(Ptr);
  if (IsStore)
    addAccess(M, PASTA_MIX_STORES, PASTA_MIX_STORE_BYTES, S, Bytes);
  else
    addAccess(M, PASTA_MIX_LOADS, PASTA_MIX_LOAD_BYTES, S, Bytes);
  if (S == PASTA_SPACE_GENERIC && Generic && Target != PASTA_TARGET_HOST) {
    Generic->Pointer = const_cast<Value *>(Ptr);
    Generic->IsStore = IsStore;
    Generic->Bytes = static_cast<uint32_t>(Bytes);
  }
  return true;
}

static int precisionOf(Type *Ty) {
  Ty = Ty->getScalarType();
  if (Ty->isHalfTy())
    return PASTA_PREC_F16;
  if (Ty->isBFloatTy())
    return PASTA_PREC_BF16;
  if (Ty->isFloatTy())
    return PASTA_PREC_F32;
  if (Ty->isDoubleTy())
    return PASTA_PREC_F64;
  return -1;
}

static uint32_t lanesOf(Type *Ty) {
  if (auto *VT = dyn_cast<FixedVectorType>(Ty))
    return VT->getNumElements();
  return 1;
}

enum class ArithKind { None, Flop1, Flop2, Special };

static ArithKind classifyIntrinsic(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::fma:
  case Intrinsic::fmuladd:
  case Intrinsic::nvvm_fma_rn_f:
  case Intrinsic::nvvm_fma_rn_d:
  case Intrinsic::nvvm_fma_rn_ftz_f:
  case Intrinsic::nvvm_fma_rz_f:
  case Intrinsic::nvvm_fma_rm_f:
  case Intrinsic::nvvm_fma_rp_f:
  case Intrinsic::nvvm_fma_rz_d:
  case Intrinsic::nvvm_fma_rm_d:
  case Intrinsic::nvvm_fma_rp_d:
    return ArithKind::Flop2;
  case Intrinsic::nvvm_add_rn_f:
  case Intrinsic::nvvm_add_rn_d:
  case Intrinsic::nvvm_add_rn_ftz_f:
  case Intrinsic::nvvm_add_rz_f:
  case Intrinsic::nvvm_add_rm_f:
  case Intrinsic::nvvm_add_rp_f:
  case Intrinsic::nvvm_mul_rn_f:
  case Intrinsic::nvvm_mul_rn_d:
  case Intrinsic::nvvm_mul_rn_ftz_f:
  case Intrinsic::nvvm_mul_rz_f:
  case Intrinsic::nvvm_mul_rm_f:
  case Intrinsic::nvvm_mul_rp_f:
    return ArithKind::Flop1;
  case Intrinsic::sqrt:
  case Intrinsic::exp:
  case Intrinsic::exp2:
  case Intrinsic::exp10:
  case Intrinsic::log:
  case Intrinsic::log2:
  case Intrinsic::log10:
  case Intrinsic::pow:
  case Intrinsic::powi:
  case Intrinsic::sin:
  case Intrinsic::cos:
  case Intrinsic::tan:
  case Intrinsic::nvvm_sqrt_f:
  case Intrinsic::nvvm_sqrt_rn_f:
  case Intrinsic::nvvm_sqrt_rn_d:
  case Intrinsic::nvvm_sqrt_approx_f:
  case Intrinsic::nvvm_sqrt_approx_ftz_f:
  case Intrinsic::nvvm_rsqrt_approx_f:
  case Intrinsic::nvvm_rsqrt_approx_d:
  case Intrinsic::nvvm_rsqrt_approx_ftz_f:
  case Intrinsic::nvvm_rcp_rn_f:
  case Intrinsic::nvvm_rcp_rn_d:
  case Intrinsic::nvvm_rcp_approx_ftz_d:
  case Intrinsic::nvvm_div_rn_f:
  case Intrinsic::nvvm_div_rn_d:
  case Intrinsic::nvvm_div_approx_f:
  case Intrinsic::nvvm_div_approx_ftz_f:
  case Intrinsic::nvvm_ex2_approx:
  case Intrinsic::nvvm_ex2_approx_ftz:
  case Intrinsic::nvvm_lg2_approx_f:
  case Intrinsic::nvvm_lg2_approx_ftz_f:
  case Intrinsic::nvvm_sin_approx_f:
  case Intrinsic::nvvm_sin_approx_ftz_f:
  case Intrinsic::nvvm_cos_approx_f:
  case Intrinsic::nvvm_cos_approx_ftz_f:
    return ArithKind::Special;
  default:
    return ArithKind::None;
  }
}

static ArithKind classifyArithmetic(const Instruction &I, Type *&OpTy) {
  OpTy = I.getType();
  switch (I.getOpcode()) {
  case Instruction::FAdd:
  case Instruction::FSub:
  case Instruction::FMul:
    return ArithKind::Flop1;
  case Instruction::FDiv:
  case Instruction::FRem:
    return ArithKind::Special;
  default:
    break;
  }
  if (const auto *II = dyn_cast<IntrinsicInst>(&I))
    return classifyIntrinsic(II->getIntrinsicID());
  return ArithKind::None;
}

bool StaticMixAnalysis::addArithmetic(const Instruction &I, Mix &M) const {
  Type *Ty = nullptr;
  ArithKind Kind = classifyArithmetic(I, Ty);
  if (Kind == ArithKind::None)
    return false;
  uint32_t Lanes = lanesOf(Ty);
  if (Kind == ArithKind::Special) {
    M.V[PASTA_MIX_SPECIAL] += Lanes;
    return true;
  }
  int Prec = precisionOf(Ty);
  if (Prec < 0)
    return false;
  M.V[PASTA_MIX_FLOPS + Prec] += Lanes * (Kind == ArithKind::Flop2 ? 2 : 1);
  return true;
}

bool StaticMixAnalysis::addInstruction(const Instruction &I, Mix &M,
                                       GenericAccess *Generic,
                                       VariableLength *Variable) const {
  return addMemory(I, M, Generic, Variable) || addArithmetic(I, M);
}
