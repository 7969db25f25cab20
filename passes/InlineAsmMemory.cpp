//===- InlineAsmMemory.cpp - Memory operations written in inline PTX ------===//
//
// See InlineAsmMemory.h for the forms. The string is split into statements
// at ';' (scope braces dropped), each statement into its mnemonic and its
// operands; a memory mnemonic is split at '.' into qualifiers, each of
// which must be known. "$N" in the string (clang writes the source's %N
// so) names the call's N-th operand, outputs first.
//
//===----------------------------------------------------------------------===//
#include "InlineAsmMemory.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/TargetParser/Triple.h"

#include <optional>

using namespace llvm;
using namespace pasta;

// Whether one of Words starts a statement of Asm: after the string's start,
// a separator, a predicate ("@p ld.global...") or a label
// ("L1:ld.global...").
static bool startsAStatement(StringRef Asm, ArrayRef<const char *> Words) {
  auto StartsStatement = [&](size_t At) {
    return At == 0 || StringRef(" \t\n;{}:").contains(Asm[At - 1]);
  };
  auto Has = [&](StringRef Word) {
    for (size_t At = Asm.find(Word); At != StringRef::npos;
         At = Asm.find(Word, At + 1))
      if (StartsStatement(At))
        return true;
    return false;
  };
  return llvm::any_of(Words, Has);
}

bool pasta::asmMentionsMemory(StringRef Asm) {
  static const char *const Ptx[] = {"ld.",       "ldu.",      "st.",
                                    "atom.",     "red.",      "cp.async",
                                    "ldmatrix.", "stmatrix.", "cp.reduce"};
  static const char *const Amd[] = {
      "global_load", "global_store", "global_atomic", "flat_load", "flat_store",
      "flat_atomic", "buffer_load",  "buffer_store",  "ds_read",   "ds_write"};
  return startsAStatement(Asm, Ptx) || startsAStatement(Asm, Amd);
}

// Texture fetches (tex, tld4) and surface loads, stores and reductions
// (suld, sust, sured): what clang's headers make of tex2D, tex2Dgather,
// surf2Dread and surf2Dwrite. Queries (txq, suq) move no data.
bool pasta::asmUsesTextureOrSurface(StringRef Asm) {
  static const char *const Ptx[] = {"tex.", "tld4.", "suld.", "sust.",
                                    "sured."};
  return startsAStatement(Asm, Ptx);
}

namespace {

// The call's operands as the string numbers them: an output returned by
// value has no argument (-1), an input or an output through memory has
// the next one.
class Operands {
public:
  explicit Operands(const CallBase &Call) : Call(Call) {
    const auto *IA = cast<InlineAsm>(Call.getCalledOperand());
    unsigned Arg = 0;
    for (const InlineAsm::ConstraintInfo &C : IA->ParseConstraints()) {
      if (C.Type == InlineAsm::isClobber)
        continue;
      bool TakesArg = C.Type == InlineAsm::isInput ||
                      (C.Type == InlineAsm::isOutput && C.isIndirect);
      ArgOf.push_back(TakesArg ? static_cast<int>(Arg++) : -1);
    }
  }

  // The argument that "$N" names, or null.
  Value *value(StringRef Ref) const {
    unsigned N;
    if (!Ref.consume_front("$") || Ref.getAsInteger(10, N) ||
        N >= ArgOf.size() || ArgOf[N] < 0 ||
        static_cast<unsigned>(ArgOf[N]) >= Call.arg_size())
      return nullptr;
    return Call.getArgOperand(ArgOf[N]);
  }

private:
  const CallBase &Call;
  SmallVector<int, 8> ArgOf;
};

struct Statement {
  StringRef Mnemonic;
  SmallVector<StringRef, 4> Args; // top-level operands, trimmed
  bool Predicated = false;
  StringRef Guard; // the predicate of "@p", "!p" of "@!p"
};

} // namespace

// The statements of an assembly string: split at ';', scope braces (which
// only open or close a statement list, never start an instruction) and
// blank pieces dropped.
static SmallVector<StringRef, 8> statementsOf(StringRef Asm) {
  SmallVector<StringRef, 8> Out;
  SmallVector<StringRef, 8> Pieces;
  Asm.split(Pieces, ';');
  for (StringRef P : Pieces) {
    P = P.ltrim(" \t\r\n{}").rtrim(" \t\r\n");
    while (P.ends_with("}") && P.count('{') < P.count('}'))
      P = P.drop_back().rtrim(" \t\r\n");
    if (!P.empty())
      Out.push_back(P);
  }
  return Out;
}

// Splits a statement into its predicate, mnemonic and operands (commas
// inside braces or brackets do not split).
static Statement parseStatement(StringRef S) {
  Statement St;
  if (S.starts_with("@")) {
    St.Predicated = true;
    St.Guard =
        S.drop_front().take_until([](char C) { return C == ' ' || C == '\t'; });
    S = S.drop_until([](char C) { return C == ' ' || C == '\t'; }).ltrim();
  }
  size_t End = S.find_first_of(" \t\r\n");
  St.Mnemonic = S.take_front(End);
  StringRef Rest = End == StringRef::npos ? StringRef() : S.drop_front(End);
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I <= Rest.size(); ++I) {
    char C = I < Rest.size() ? Rest[I] : ',';
    if (C == '{' || C == '[')
      ++Depth;
    else if (C == '}' || C == ']')
      --Depth;
    else if (C == ',' && Depth == 0) {
      StringRef Arg = Rest.slice(Start, I).trim();
      if (!Arg.empty() || I < Rest.size())
        St.Args.push_back(Arg);
      Start = I + 1;
    }
  }
  return St;
}

// "[$N]": the operand reference inside, or an empty string.
static StringRef addressRef(StringRef Arg) {
  if (!Arg.consume_front("[") || !Arg.consume_back("]"))
    return {};
  Arg = Arg.trim();
  return Arg.starts_with("$") && Arg.size() > 1 &&
                 all_of(Arg.drop_front(), [](char C) { return isDigit(C); })
             ? Arg
             : StringRef();
}

// The bytes of a PTX load/store type, or 0.
static uint32_t typeBytes(StringRef T) {
  if (T.size() < 2 || !StringRef("bsuf").contains(T[0]))
    return 0;
  unsigned Bits;
  if (T.drop_front().getAsInteger(10, Bits))
    return 0;
  if (T[0] == 'f')
    return Bits == 32 || Bits == 64 ? Bits / 8 : 0;
  if (Bits == 8 || Bits == 16 || Bits == 32 || Bits == 64)
    return Bits / 8;
  return T[0] == 'b' && Bits == 128 ? 16 : 0;
}

// Cache-eviction and L2-prefetch qualifiers: they change how the bytes are
// cached, not which bytes are moved.
static bool isCacheHint(StringRef Q) {
  return Q == "L1::evict_normal" || Q == "L1::evict_unchanged" ||
         Q == "L1::evict_first" || Q == "L1::evict_last" ||
         Q == "L1::no_allocate" || Q == "L2::64B" || Q == "L2::128B" ||
         Q == "L2::256B";
}

static bool isShared(StringRef Q) {
  return Q == "shared" || Q == "shared::cta";
}

// ld/st [.space][.cache operator][.hints][.v2|.v4].type; the address is
// the second operand of a load, the first of a store.
static std::optional<AsmAccess> loadOrStore(const Statement &St,
                                            const Operands &Ops) {
  SmallVector<StringRef, 6> Q;
  St.Mnemonic.split(Q, '.');
  bool IsStore = Q[0] == "st";
  if (St.Args.size() != 2 || Q.size() < 2)
    return std::nullopt;
  uint32_t Bytes = typeBytes(Q.back());
  if (!Bytes)
    return std::nullopt;
  pasta_space Space = PASTA_SPACE_GENERIC;
  bool HasSpace = false, HasCache = false, HasNc = false;
  unsigned Lanes = 1;
  for (StringRef X : ArrayRef(Q).slice(1, Q.size() - 2)) {
    if ((X == "global" || isShared(X)) && !HasSpace) {
      HasSpace = true;
      Space = X == "global" ? PASTA_SPACE_GLOBAL : PASTA_SPACE_SHARED;
    } else if (!IsStore && X == "nc" && Space == PASTA_SPACE_GLOBAL && !HasNc &&
               !HasCache) {
      HasNc = true;
    } else if (!HasCache && !HasNc &&
               (IsStore ? (X == "wb" || X == "cg" || X == "cs" || X == "wt")
                        : (X == "ca" || X == "cg" || X == "cs" || X == "lu" ||
                           X == "cv"))) {
      HasCache = true;
    } else if (isCacheHint(X)) {
      continue;
    } else if ((X == "v2" || X == "v4") && Lanes == 1 && Bytes < 16) {
      Lanes = X == "v2" ? 2 : 4;
    } else {
      return std::nullopt; // .volatile, .relaxed, .param, .local, ...
    }
  }
  StringRef Ref = addressRef(St.Args[IsStore ? 0 : 1]);
  Value *Address = Ref.empty() ? nullptr : Ops.value(Ref);
  if (!Address ||
      (Space == PASTA_SPACE_GENERIC && !Address->getType()->isPointerTy()))
    return std::nullopt;
  return AsmAccess{IsStore, Space, Bytes * Lanes, Address};
}

// A constant byte count: an immediate, or an operand that is a constant.
static std::optional<uint32_t> constantBytes(StringRef Arg,
                                             const Operands &Ops) {
  uint32_t N;
  if (!Arg.getAsInteger(10, N))
    return N;
  if (const auto *C = dyn_cast_or_null<ConstantInt>(Ops.value(Arg)))
    if (C->getValue().isIntN(32))
      return static_cast<uint32_t>(C->getZExtValue());
  return std::nullopt;
}

// cp.async.{ca,cg}.shared{::cta}.global[.L2::...] [dst], [src], size{, n}:
// the global read, then the shared write.
static bool asyncCopy(const Statement &St, const Operands &Ops,
                      SmallVectorImpl<AsmAccess> &Out) {
  SmallVector<StringRef, 6> Q;
  St.Mnemonic.split(Q, '.');
  if (Q.size() < 5 || Q.size() > 6 || (Q[2] != "ca" && Q[2] != "cg") ||
      !isShared(Q[3]) || Q[4] != "global" ||
      (Q.size() == 6 && Q[5] != "L2::64B" && Q[5] != "L2::128B" &&
       Q[5] != "L2::256B"))
    return false;
  if (St.Args.size() != 3 && St.Args.size() != 4)
    return false;
  StringRef Dst = addressRef(St.Args[0]), Src = addressRef(St.Args[1]);
  Value *DstV = Dst.empty() ? nullptr : Ops.value(Dst);
  Value *SrcV = Src.empty() ? nullptr : Ops.value(Src);
  std::optional<uint32_t> Size = constantBytes(St.Args[2], Ops);
  if (!DstV || !SrcV || !Size || !(*Size == 4 || *Size == 8 || *Size == 16) ||
      (Q[2] == "cg" && *Size != 16))
    return false;
  uint32_t Read = *Size;
  if (St.Args.size() == 4) {
    std::optional<uint32_t> N = constantBytes(St.Args[3], Ops);
    if (!N || *N > *Size)
      return false; // a run-time source size: not counted
    Read = *N;
  }
  Out.push_back({false, PASTA_SPACE_GLOBAL, Read, SrcV});
  Out.push_back({true, PASTA_SPACE_SHARED, *Size, DstV});
  return true;
}

// The bulk (TMA) copies one thread issues for a block:
//   cp.async.bulk.shared::{cluster,cta}.global.mbarrier::complete_tx::bytes
//     [dst], [src], size, [mbar]   a global read and a shared write of size
//   cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size
//                                  a shared read and a global write of size
// with size a constant (an immediate or a constant operand). The mbarrier's
// transaction count is bookkeeping, not data (as mbarrier instructions).
static bool bulkCopy(const Statement &St, const Operands &Ops,
                     SmallVectorImpl<AsmAccess> &Out) {
  SmallVector<StringRef, 6> Q;
  St.Mnemonic.split(Q, '.');
  if (Q.size() != 6 || Q[2] != "bulk")
    return false;
  bool ToShared = (Q[3] == "shared::cluster" || Q[3] == "shared::cta") &&
                  Q[4] == "global" && Q[5] == "mbarrier::complete_tx::bytes" &&
                  St.Args.size() == 4;
  bool ToGlobal = Q[3] == "global" && Q[4] == "shared::cta" &&
                  Q[5] == "bulk_group" && St.Args.size() == 3;
  if (!ToShared && !ToGlobal)
    return false;
  StringRef Dst = addressRef(St.Args[0]), Src = addressRef(St.Args[1]);
  Value *DstV = Dst.empty() ? nullptr : Ops.value(Dst);
  Value *SrcV = Src.empty() ? nullptr : Ops.value(Src);
  std::optional<uint32_t> Size = constantBytes(St.Args[2], Ops);
  if (!DstV || !SrcV || !Size || !*Size || *Size % 16)
    return false; // a run-time size: not counted
  pasta_space From = ToShared ? PASTA_SPACE_GLOBAL : PASTA_SPACE_SHARED;
  pasta_space To = ToShared ? PASTA_SPACE_SHARED : PASTA_SPACE_GLOBAL;
  Out.push_back({false, From, *Size, SrcV});
  Out.push_back({true, To, *Size, DstV});
  return true;
}

// ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared{::cta}.b16 d, [a]:
// each lane receives 4 bytes per matrix.
static std::optional<AsmAccess> loadMatrix(const Statement &St,
                                           const Operands &Ops) {
  SmallVector<StringRef, 8> Q;
  St.Mnemonic.split(Q, '.');
  unsigned Matrices = 0;
  bool Sync = false, Aligned = false, Shape = false, Shared = false,
       B16 = false, Trans = false;
  for (StringRef X : ArrayRef(Q).drop_front()) {
    bool *Flag = X == "sync"      ? &Sync
                 : X == "aligned" ? &Aligned
                 : X == "m8n8"    ? &Shape
                 : isShared(X)    ? &Shared
                 : X == "b16"     ? &B16
                 : X == "trans"   ? &Trans
                                  : nullptr;
    if (Flag && !*Flag) {
      *Flag = true;
    } else if ((X == "x1" || X == "x2" || X == "x4") && !Matrices) {
      Matrices = X[1] - '0';
    } else {
      return std::nullopt;
    }
  }
  if (!Sync || !Aligned || !Shape || !Shared || !B16 || !Matrices ||
      St.Args.size() != 2)
    return std::nullopt;
  StringRef Ref = addressRef(St.Args[1]);
  Value *Address = Ref.empty() ? nullptr : Ops.value(Ref);
  if (!Address)
    return std::nullopt;
  return AsmAccess{false, PASTA_SPACE_SHARED, 4 * Matrices, Address};
}

// A branch, or a label: alone ("L1:") or glued to the instruction it
// names ("L1:ld.global.u32", which it would hide). A qualifier's "::"
// (".shared::cta") comes after the mnemonic's first '.'; a label's ':'
// before any.
static bool isControl(StringRef Mnemonic) {
  StringRef Op = Mnemonic.split('.').first;
  return Op == "bra" || Op == "brx" || Op == "call" || Op == "ret" ||
         Op == "exit" || Op.contains(':');
}

// Completion bookkeeping of asynchronous copies: they wait for or track
// copies, and move no data of their own (as mbarrier instructions).
static bool movesNoData(StringRef Mnemonic) {
  return Mnemonic == "cp.async.commit_group" ||
         Mnemonic == "cp.async.wait_all" || Mnemonic == "cp.async.wait_group" ||
         Mnemonic == "cp.async.bulk.commit_group" ||
         Mnemonic == "cp.async.bulk.wait_group" ||
         Mnemonic == "cp.async.bulk.wait_group.read" ||
         Mnemonic.starts_with("cp.async.mbarrier.arrive.");
}

AsmMemory pasta::asmMemory(const CallBase &Call) {
  AsmMemory R;
  const auto *IA = dyn_cast<InlineAsm>(Call.getCalledOperand());
  if (!IA)
    return R;
  StringRef Asm = IA->getAsmString();
  if (!asmMentionsMemory(Asm))
    return R;
  R.Kind = AsmMemoryKind::Opaque;
  const Module *M = Call.getModule();
  if (!M || !M->getTargetTriple().isNVPTX() || isa<CallBrInst>(Call) ||
      Asm.contains("//") || Asm.contains("/*"))
    return R;
  Operands Ops(Call);
  bool Control = false, Unknown = false;
  SmallVector<AsmAccess, 2> Accesses;
  for (StringRef S : statementsOf(Asm)) {
    if (S.starts_with("."))
      continue; // a declaration (.reg)
    Statement St = parseStatement(S);
    StringRef Op = St.Mnemonic.split('.').first;
    if (isControl(St.Mnemonic)) {
      Control = true;
      continue;
    }
    if (movesNoData(St.Mnemonic))
      continue;
    if (!asmMentionsMemory(St.Mnemonic.str() + " "))
      continue; // arithmetic, moves, conversions
    if (St.Predicated) {
      Unknown = true; // it may or may not run
      continue;
    }
    if (Op == "ld" || Op == "st") {
      if (std::optional<AsmAccess> A = loadOrStore(St, Ops))
        Accesses.push_back(*A);
      else
        Unknown = true;
    } else if (St.Mnemonic.starts_with("cp.async.bulk.")) {
      Unknown |= !bulkCopy(St, Ops, Accesses);
    } else if (St.Mnemonic.starts_with("cp.async.")) {
      Unknown |= !asyncCopy(St, Ops, Accesses);
    } else if (Op == "ldmatrix") {
      if (std::optional<AsmAccess> A = loadMatrix(St, Ops))
        Accesses.push_back(*A);
      else
        Unknown = true;
    } else {
      Unknown = true;
    }
  }
  // Generic accesses are resolved at run time one per instruction.
  unsigned Generic = count_if(Accesses, [](const AsmAccess &A) {
    return A.Space == PASTA_SPACE_GENERIC;
  });
  // A label or a branch may skip or repeat what follows it (and a label
  // hides the instruction behind it on its statement).
  if (Control)
    return R;
  if (!Unknown && Accesses.empty()) {
    R.Kind = AsmMemoryKind::None; // cp.async.wait_all and the like
    return R;
  }
  if (Unknown || Generic > 1)
    return R;
  R.Kind = AsmMemoryKind::Counted;
  R.Accesses = std::move(Accesses);
  return R;
}

bool pasta::asmAccessReturns(const CallBase &Call) {
  if (asmMemory(Call).Kind != AsmMemoryKind::Counted)
    return false;
  StringRef Asm = cast<InlineAsm>(Call.getCalledOperand())->getAsmString();
  return none_of(statementsOf(Asm), [](StringRef S) {
    StringRef Op = parseStatement(S).Mnemonic.split('.').first;
    return Op == "trap" || Op == "brkpt";
  });
}

// The pointer a global access's address operand holds: the operand, or,
// where the program passed an integer (libcu++'s cp.async takes
// __cvta_generic_to_global's result), the pointer it was made from. Not
// through arithmetic on that integer ("l"((size_t)p + 16 * i)): the
// pointer's page is not the access's.
static Value *pointerOf(const AsmAccess &A) {
  if (A.Address->getType()->isPointerTy())
    return A.Address;
  if (auto *Cast = dyn_cast<PtrToIntOperator>(A.Address))
    return Cast->getPointerOperand();
  return nullptr;
}

// Whether A reaches global memory (or may: generic) through an address
// the working set would see: not a shared one.
static bool mayBeGlobal(const AsmAccess &A) {
  if (A.Space == PASTA_SPACE_SHARED)
    return false;
  Value *P = pointerOf(A);
  if (!P)
    return true; // an integer address: any space
  unsigned AS = P->getType()->getPointerAddressSpace();
  return AS == 0 || AS == 1;
}

Value *pasta::asmTrackedAddress(const CallBase &Call, uint32_t *Bytes,
                                bool *IsStore) {
  if (!Call.isInlineAsm())
    return nullptr;
  AsmMemory R = asmMemory(Call);
  const AsmAccess *One = nullptr;
  Value *Pointer = nullptr;
  for (const AsmAccess &A : R.Accesses) {
    Value *P = A.Space == PASTA_SPACE_SHARED ? nullptr : pointerOf(A);
    if (!P)
      continue;
    if (One)
      return nullptr; // two addresses: the access table has one per row
    One = &A;
    Pointer = P;
  }
  if (!One)
    return nullptr;
  if (Bytes)
    *Bytes = One->Bytes;
  if (IsStore)
    *IsStore = One->IsStore;
  return Pointer;
}

bool pasta::asmHasUntrackedGlobal(const CallBase &Call) {
  if (!Call.isInlineAsm())
    return false;
  AsmMemory R = asmMemory(Call);
  unsigned Global = count_if(R.Accesses, mayBeGlobal);
  if (!Global)
    return false;
  Value *Tracked = asmTrackedAddress(Call);
  return Global > 1 || !Tracked;
}

bool AsmArithmetic::onShuffle() const {
  return any_of(OnShuffle, [](uint32_t N) { return N != 0; });
}

namespace {
// shfl.sync.MODE.b32 d|p, a, b, c, membermask: what sets p.
struct Shuffle {
  AsmShuffleMode Mode;
  StringRef Pred;
  Value *Lane, *Clamp, *Mask;
};
} // namespace

// An i32 operand: an immediate (decimal or 0x hexadecimal) or "$N" of
// type i32.
static Value *i32Operand(StringRef Arg, const Operands &Ops, LLVMContext &Ctx) {
  uint64_t N;
  if (!Arg.getAsInteger(0, N))
    return N <= UINT32_MAX ? ConstantInt::get(Type::getInt32Ty(Ctx), N)
                           : nullptr;
  Value *V = Ops.value(Arg);
  return V && V->getType()->isIntegerTy(32) ? V : nullptr;
}

static std::optional<Shuffle> shuffleOf(const Statement &St,
                                        const Operands &Ops, LLVMContext &Ctx) {
  SmallVector<StringRef, 4> Q;
  St.Mnemonic.split(Q, '.');
  if (Q.size() != 4 || Q[0] != "shfl" || Q[1] != "sync" || Q[3] != "b32" ||
      St.Args.size() != 5)
    return std::nullopt;
  std::optional<AsmShuffleMode> Mode =
      StringSwitch<std::optional<AsmShuffleMode>>(Q[2])
          .Case("up", AsmShuffleMode::Up)
          .Case("down", AsmShuffleMode::Down)
          .Case("bfly", AsmShuffleMode::Bfly)
          .Case("idx", AsmShuffleMode::Idx)
          .Default(std::nullopt);
  StringRef Pred = St.Args[0].split('|').second.trim();
  Value *Lane = i32Operand(St.Args[2], Ops, Ctx);
  Value *Clamp = i32Operand(St.Args[3], Ops, Ctx);
  Value *Mask = i32Operand(St.Args[4], Ops, Ctx);
  if (!Mode || Pred.empty() || !Lane || !Clamp || !Mask)
    return std::nullopt;
  return Shuffle{*Mode, Pred, Lane, Clamp, Mask};
}

// Whether the source lane of `lane` is in range, PTX's shfl.sync rule for
// the predicate output (the emitter's shuffleSourceInRange, at compile
// time).
static bool sourceInRange(AsmShuffleMode Mode, uint32_t Lane, uint32_t B,
                          uint32_t C) {
  uint32_t Src = B & 31, Seg = (C >> 8) & 31;
  uint32_t Min = Lane & Seg, Max = Min | (C & ~Seg & 31);
  switch (Mode) {
  case AsmShuffleMode::Up:
    return int32_t(Lane - Src) >= int32_t(Max);
  case AsmShuffleMode::Down:
    return Lane + Src <= Max;
  case AsmShuffleMode::Bfly:
    return (Lane ^ Src) <= Max;
  case AsmShuffleMode::Idx:
    return (Min | (Src & ~Seg)) <= Max;
  }
  llvm_unreachable("shuffle mode");
}

// The lanes of a warp whose source is in range at one execution of Sh, if
// that is known when compiling: the member mask is the full warp (all 32
// lanes execute the statement together; a full mask in a partial warp is
// undefined) and b and c are constants.
static std::optional<uint32_t> lanesPerWarp(const Shuffle &Sh) {
  auto *Mask = dyn_cast<ConstantInt>(Sh.Mask);
  auto *B = dyn_cast<ConstantInt>(Sh.Lane);
  auto *C = dyn_cast<ConstantInt>(Sh.Clamp);
  if (!Mask || !B || !C || !Mask->isAllOnesValue())
    return std::nullopt;
  uint32_t N = 0;
  for (uint32_t Lane = 0; Lane < 32; ++Lane)
    N += sourceInRange(Sh.Mode, Lane, B->getZExtValue(), C->getZExtValue());
  return N;
}

// The precision and element count of a PTX floating-point type: .f16,
// .bf16, .f32, .f64 and the packed pairs .f16x2, .bf16x2, .f32x2 (two
// elements, counted per element as for vector IR).
static std::optional<std::pair<unsigned, uint32_t>> floatType(StringRef T) {
  return StringSwitch<std::optional<std::pair<unsigned, uint32_t>>>(T)
      .Case("f16", std::make_pair(unsigned(PASTA_PREC_F16), 1u))
      .Case("f16x2", std::make_pair(unsigned(PASTA_PREC_F16), 2u))
      .Case("bf16", std::make_pair(unsigned(PASTA_PREC_BF16), 1u))
      .Case("bf16x2", std::make_pair(unsigned(PASTA_PREC_BF16), 2u))
      .Case("f32", std::make_pair(unsigned(PASTA_PREC_F32), 1u))
      .Case("f32x2", std::make_pair(unsigned(PASTA_PREC_F32), 2u))
      .Case("f64", std::make_pair(unsigned(PASTA_PREC_F64), 1u))
      .Default(std::nullopt);
}

// add, sub, mul (1 FLOP), fma, mad (2) [.rn|.rz|.rm|.rp][.ftz][.sat][.relu]
// of a floating-point type: the precision and FLOPs of one execution by
// one thread; nothing for the rest (integer types, conversions, moves).
static std::optional<std::pair<unsigned, uint32_t>>
floatOp(StringRef Mnemonic) {
  SmallVector<StringRef, 4> Q;
  Mnemonic.split(Q, '.');
  uint32_t Flops = StringSwitch<uint32_t>(Q[0])
                       .Cases({"add", "sub", "mul"}, 1)
                       .Cases({"fma", "mad"}, 2)
                       .Default(0);
  if (!Flops || Q.size() < 2)
    return std::nullopt;
  std::optional<std::pair<unsigned, uint32_t>> Type = floatType(Q.back());
  if (!Type)
    return std::nullopt;
  for (StringRef X : ArrayRef(Q).drop_front().drop_back())
    if (!is_contained({"rn", "rz", "rm", "rp", "ftz", "sat", "relu"}, X))
      return std::nullopt;
  return std::make_pair(Type->first, Flops * Type->second);
}

// Whether St writes predicate P other than as a shuffle's "d|p".
static bool writesPredicate(const Statement &St, StringRef P) {
  if (St.Args.empty())
    return false;
  StringRef D = St.Args[0];
  return D == P || D.split('|').second.trim() == P;
}

AsmArithmetic pasta::asmArithmetic(const CallBase &Call) {
  const auto *IA = dyn_cast<InlineAsm>(Call.getCalledOperand());
  const Module *M = Call.getModule();
  if (!IA || !M || !M->getTargetTriple().isNVPTX() || isa<CallBrInst>(Call))
    return {};
  StringRef Asm = IA->getAsmString();
  if (Asm.contains("//") || Asm.contains("/*"))
    return {};
  Operands Ops(Call);
  AsmArithmetic R;
  std::optional<Shuffle> Sh;
  for (StringRef S : statementsOf(Asm)) {
    if (S.starts_with("."))
      continue; // a declaration (.reg)
    Statement St = parseStatement(S);
    if (isControl(St.Mnemonic))
      return {}; // a label or a branch may skip or repeat what follows
    if (std::optional<Shuffle> New = shuffleOf(St, Ops, Call.getContext())) {
      // One predicate of one shuffle pattern (a 64-bit value is shuffled
      // as two halves setting the same p).
      if (St.Predicated ||
          (Sh && (Sh->Pred != New->Pred || Sh->Mode != New->Mode ||
                  Sh->Lane != New->Lane || Sh->Clamp != New->Clamp ||
                  Sh->Mask != New->Mask)))
        return {};
      Sh = New;
      continue;
    }
    if (Sh && writesPredicate(St, Sh->Pred))
      return {};
    std::optional<std::pair<unsigned, uint32_t>> Op = floatOp(St.Mnemonic);
    if (!Op)
      continue;
    R.Counted = true;
    if (!St.Predicated)
      R.Always[Op->first] += Op->second;
    else if (Sh && St.Guard == Sh->Pred)
      R.OnShuffle[Op->first] += Op->second;
    else
      return {}; // it may or may not run
  }
  if (R.onShuffle()) {
    R.Mode = Sh->Mode;
    R.Lane = Sh->Lane;
    R.Clamp = Sh->Clamp;
    R.LanesPerWarp = lanesPerWarp(*Sh);
  }
  return R;
}
