//===- ModuleTables.cpp - A module's PASTA tables and descriptor ----------===//
//
// Emission and printing of the tables the counting pass fills (see
// ModuleTables.h).
//
//===----------------------------------------------------------------------===//
#include "ModuleTables.h"
#include "AbiTypes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <algorithm>

using namespace llvm;
using namespace pasta;

static constexpr const char *HostRegisterName = "__pasta_register_host_module";

// The tables are emitted as arrays of 32-bit words.
static_assert(abi::isWords<abi::Func>(), "pasta_func must be all 32-bit");
static_assert(abi::isWords<abi::Site>(), "pasta_site must be all 32-bit");
static_assert(abi::isWords<abi::Scope>(), "pasta_scope must be all 32-bit");
static_assert(abi::isWords<abi::Access>(), "pasta_access must be all 32-bit");

std::string pasta::moduleId(const Module &M) {
  uint64_t H = 0xcbf29ce484222325ull; // FNV-1a 64
  for (unsigned char C : M.getSourceFileName()) {
    H ^= C;
    H *= 0x100000001b3ull;
  }
  return utohexstr(H, /*LowerCase=*/true, /*Width=*/16);
}

pasta_target pasta::targetOf(const Module &M) {
  Triple T(M.getTargetTriple());
  if (T.isNVPTX())
    return PASTA_TARGET_NVPTX;
  if (T.isAMDGCN())
    return PASTA_TARGET_AMDGCN;
  return PASTA_TARGET_HOST;
}

std::string pasta::demangledName(StringRef Symbol) {
  std::string Shown = llvm::demangle(Symbol);
  if (Shown != Symbol)
    return Shown;
  size_t At = Symbol.find("__intern__");
  StringRef Hex = At == StringRef::npos ? "" : Symbol.substr(At + 10);
  if (Hex.empty() || !all_of(Hex, isHexDigit))
    return "";
  StringRef Base = Symbol.take_front(At);
  Shown = llvm::demangle(Base);
  return Shown != Base ? Shown : "";
}

uint32_t StringTable::intern(StringRef S) {
  auto It = Offsets.find(S);
  if (It != Offsets.end())
    return It->second;
  uint32_t Off = static_cast<uint32_t>(Blob.size());
  Blob.append(S.begin(), S.end());
  Blob.push_back('\0');
  Offsets[S] = Off;
  return Off;
}

// Device counters get as many banks as fit in PASTA_DEVICE_COUNTER_BYTES,
// within [PASTA_DEVICE_MIN_BANKS, PASTA_DEVICE_MAX_BANKS]: the flushes of a
// grid's warps then hit thousands of addresses instead of a few hundred,
// which is what bounds their cost on streaming kernels.
uint32_t ModuleTables::numBanks() const {
  if (Target == PASTA_TARGET_HOST)
    return 1;
  uint64_t RowBytes = std::max<uint64_t>(NumCounters, 1) * 8;
  uint64_t Fit = PASTA_DEVICE_COUNTER_BYTES / RowBytes;
  Fit =
      std::clamp<uint64_t>(Fit, PASTA_DEVICE_MIN_BANKS, PASTA_DEVICE_MAX_BANKS);
  return static_cast<uint32_t>(llvm::bit_floor(Fit));
}

void ModuleTables::createCounters(Module &M) {
  LLVMContext &Ctx = M.getContext();
  unsigned AS = Target == PASTA_TARGET_HOST ? 0 : 1;
  Counters = new GlobalVariable(
      M, Type::getInt64Ty(Ctx), false, GlobalValue::InternalLinkage,
      ConstantInt::get(Type::getInt64Ty(Ctx), 0), "__pasta_counters_" + Id,
      nullptr, GlobalValue::NotThreadLocal, AS);
}

GlobalVariable *ModuleTables::hostDescriptor(Module &M) {
  if (!DescPlaceholder)
    DescPlaceholder = new GlobalVariable(
        M, Type::getInt8Ty(M.getContext()), true, GlobalValue::ExternalLinkage,
        nullptr, "__pasta_host_desc_placeholder");
  return DescPlaceholder;
}

static Constant *u32Array(LLVMContext &Ctx, const uint32_t *Data, size_t N) {
  return ConstantDataArray::get(Ctx, ArrayRef<uint32_t>(Data, N));
}

// A table followed (at the next multiple of 8 bytes) by an address. The
// NVPTX printer writes a global whose initializer holds no address byte by
// byte (".b8 t[N] = {7, 0, 0, 0, ...}") and one that holds addresses as
// 64-bit words (".u64 t[N/8] = {7, ...}"): an eighth of the numbers for
// ptxas to parse (MCX's 3 MB of tables: ptxas 0.78 -> 0.19 s of CPU). The
// table's bytes are unchanged; the runtime reads its rows by their number in
// the descriptor, never the word after them.
static Constant *withTrailingAddress(const DataLayout &DL, Constant *Table,
                                     Constant *Address) {
  LLVMContext &Ctx = Table->getContext();
  uint64_t Size = DL.getTypeAllocSize(Table->getType());
  auto *PadTy = ArrayType::get(Type::getInt8Ty(Ctx), alignTo(Size, 8) - Size);
  return ConstantStruct::getAnon(
      {Table, ConstantAggregateZero::get(PadTy), Address}, /*Packed=*/true);
}

// The counters were created (empty-sized) before emission so the flush
// calls could name them; give them their final size now.
void ModuleTables::finalizeCounters(Module &M, uint32_t Banks) {
  unsigned AS = Target == PASTA_TARGET_HOST ? 0 : 1;
  auto *CountTy = ArrayType::get(Type::getInt64Ty(M.getContext()),
                                 uint64_t(Banks) * NumCounters);
  auto *Final =
      new GlobalVariable(M, CountTy, false, GlobalValue::InternalLinkage,
                         ConstantAggregateZero::get(CountTy), "", nullptr,
                         GlobalValue::NotThreadLocal, AS);
  Final->setAlignment(Align(8));
  Final->takeName(Counters);
  Counters->replaceAllUsesWith(Final);
  Counters->eraseFromParent();
  Counters = Final;
}

void ModuleTables::emit(Module &M) {
  LLVMContext &Ctx = M.getContext();
  unsigned AS = Target == PASTA_TARGET_HOST ? 0 : 1;
  Type *I64 = Type::getInt64Ty(Ctx);
  // The counters first: on NVPTX every table ends with their address.
  uint32_t Banks = numBanks();
  finalizeCounters(M, Banks);
  Constant *CountersAddress = ConstantExpr::getPtrToInt(Counters, I64);
  auto MakeGlobal = [&](StringRef Name, Constant *Init, bool IsConst) {
    if (Target == PASTA_TARGET_NVPTX)
      Init = withTrailingAddress(M.getDataLayout(), Init, CountersAddress);
    auto *GV = new GlobalVariable(
        M, Init->getType(), IsConst, GlobalValue::InternalLinkage, Init,
        Name + "_" + Id, nullptr, GlobalValue::NotThreadLocal, AS);
    GV->setAlignment(Align(8));
    return GV;
  };
  auto AddressOf = [&](GlobalVariable *GV) {
    return ConstantExpr::getPtrToInt(GV, I64);
  };

  std::string Blob = Strings.blob();
  uint32_t ModuleName = Strings.intern(M.getSourceFileName());
  // After the module's name: offset 0 means no note.
  uint32_t UncountedNote =
      Uncounted.empty() ? 0 : Strings.intern(join(Uncounted, "\n"));
  Blob = Strings.blob();
  auto *StrGV = MakeGlobal(
      "__pasta_strings", ConstantDataArray::getString(Ctx, Blob, false), true);
  auto *FuncGV =
      MakeGlobal("__pasta_funcs",
                 u32Array(Ctx, reinterpret_cast<const uint32_t *>(Funcs.data()),
                          Funcs.size() * sizeof(pasta_func) / 4),
                 true);
  auto *SiteGV =
      MakeGlobal("__pasta_sites",
                 u32Array(Ctx, reinterpret_cast<const uint32_t *>(Sites.data()),
                          Sites.size() * sizeof(pasta_site) / 4),
                 true);

  std::vector<pasta_access> AccessRows;
  for (auto &[I, Row] : Accesses)
    AccessRows.push_back(Row);
  auto *ScopeGV = MakeGlobal(
      "__pasta_scopes",
      u32Array(Ctx, reinterpret_cast<const uint32_t *>(ScopeRows.data()),
               ScopeRows.size() * sizeof(pasta_scope) / 4),
      true);
  auto *AccessGV = MakeGlobal(
      "__pasta_accesses",
      u32Array(Ctx, reinterpret_cast<const uint32_t *>(AccessRows.data()),
               AccessRows.size() * sizeof(pasta_access) / 4),
      true);

  auto *DerivedGV = MakeGlobal(
      "__pasta_derived",
      u32Array(Ctx, reinterpret_cast<const uint32_t *>(Derived.data()),
               Derived.size() * sizeof(pasta_derived) / 4),
      true);

  auto *DivGV = MakeGlobal(
      "__pasta_div_rows",
      u32Array(Ctx, reinterpret_cast<const uint32_t *>(DivRows.data()),
               DivRows.size() * sizeof(pasta_div_row) / 4),
      true);

  using F = abi::ModuleDesc;
  abi::StructBuilder<F> D(Ctx);
  D.setInt(F::magic, PASTA_ABI_MAGIC)
      .setInt(F::version, PASTA_ABI_VERSION)
      .setInt(F::target, Target)
      .setInt(F::num_banks, Banks)
      .setInt(F::num_funcs, Funcs.size())
      .setInt(F::num_sites, Sites.size())
      .setInt(F::num_counters, NumCounters)
      .setInt(F::strings_size, Blob.size())
      .set(F::funcs, AddressOf(FuncGV))
      .set(F::sites, AddressOf(SiteGV))
      .set(F::strings, AddressOf(StrGV))
      .set(F::counters, AddressOf(Counters))
      .setInt(F::module_name, ModuleName)
      .setInt(F::num_scopes, ScopeRows.size())
      .setInt(F::num_accesses, AccessRows.size())
      .set(F::scopes, AddressOf(ScopeGV))
      .set(F::accesses, AddressOf(AccessGV))
      .setInt(F::num_derived, Derived.size())
      .setInt(F::uncounted, UncountedNote)
      .set(F::derived, AddressOf(DerivedGV))
      .setInt(F::num_div_rows, DivRows.size())
      .setInt(F::div_pad, 0)
      .set(F::div_rows, AddressOf(DivGV));
  Constant *Desc = D.get();
  auto *DescTy = Desc->getType();

  if (Target == PASTA_TARGET_HOST) {
    auto *DescGV = MakeGlobal("__pasta_host_desc", Desc, true);
    if (DescPlaceholder) {
      DescPlaceholder->replaceAllUsesWith(DescGV);
      DescPlaceholder->eraseFromParent();
    }
    Function *Ctor = Function::Create(
        FunctionType::get(Type::getVoidTy(Ctx), false),
        GlobalValue::InternalLinkage, "__pasta_host_ctor_" + Id, M);
    IRBuilder<> B(BasicBlock::Create(Ctx, "", Ctor));
    B.CreateCall(M.getOrInsertFunction(HostRegisterName, B.getVoidTy(),
                                       PointerType::get(Ctx, 0)),
                 {DescGV});
    B.CreateRetVoid();
    appendToGlobalCtors(M, Ctor, 0);
    return;
  }
  // The descriptor is the one symbol the host looks up by name.
  auto *DescGV = new GlobalVariable(
      M, DescTy, true, GlobalValue::ExternalLinkage, Desc,
      PASTA_DESC_PREFIX + Id, nullptr, GlobalValue::NotThreadLocal, AS);
  DescGV->setAlignment(Align(8));
  DescGV->setVisibility(GlobalValue::DefaultVisibility);
  appendToUsed(M, {DescGV});
}

// One line per function and per site, stable and readable, for lit tests:
//   pasta: site F:L func=<name> counter=C [dyn=D] [bytes=B] ld.global=2
//   ldB.global=8 ... (with bytes=B, ldB/stB are per byte of counter B)
void ModuleTables::printSites(raw_ostream &OS) const {
  static const char *Spaces[] = {
#define PASTA_X(id, name) name,
      PASTA_SPACES(PASTA_X)
#undef PASTA_X
  };
  static const char *Precisions[] = {
#define PASTA_X(id, name) name,
      PASTA_PRECISIONS(PASTA_X)
#undef PASTA_X
  };
  const std::string &Str = Strings.blob();
  auto At = [&](uint32_t Off) {
    return Off == PASTA_NONE ? StringRef("?") : StringRef(Str.c_str() + Off);
  };
  static const char *Kinds[] = {"kernel", "device", "host"};
  for (const pasta_func &F : Funcs) {
    OS << "pasta: func " << At(F.name) << " kind=" << Kinds[F.kind]
       << " calls=" << F.calls_counter;
    if (F.display != PASTA_NONE)
      OS << " shown=\"" << At(F.display) << '"';
    OS << "\n";
  }
  struct Group {
    const char *Name;
    unsigned Base, Count;
  };
  const Group Groups[] = {
      {"ld.", PASTA_MIX_LOADS, PASTA_NUM_SPACES},
      {"st.", PASTA_MIX_STORES, PASTA_NUM_SPACES},
      {"ldB.", PASTA_MIX_LOAD_BYTES, PASTA_NUM_SPACES},
      {"stB.", PASTA_MIX_STORE_BYTES, PASTA_NUM_SPACES},
      {"atom.", PASTA_MIX_ATOMICS, PASTA_NUM_SPACES},
      {"atomB.", PASTA_MIX_ATOMIC_BYTES, PASTA_NUM_SPACES},
      {"flop.", PASTA_MIX_FLOPS, PASTA_NUM_PRECISIONS},
  };
  for (const pasta_site &S : Sites) {
    OS << "pasta: site " << sys::path::filename(At(S.file)) << ":" << S.line
       << " func=" << At(Funcs[S.func].name) << " counter=" << S.counter;
    if (S.dyn_counter != PASTA_NONE)
      OS << " dyn=" << S.dyn_counter;
    if (S.bytes_counter == PASTA_WARP_TOTAL)
      OS << " per-warp";
    else if (S.bytes_counter != PASTA_NONE)
      OS << " bytes=" << S.bytes_counter;
    for (const Group &G : Groups)
      for (unsigned I = 0; I < G.Count; ++I)
        if (S.mix[G.Base + I])
          OS << " " << G.Name
             << (G.Base == PASTA_MIX_FLOPS ? Precisions[I] : Spaces[I]) << "="
             << S.mix[G.Base + I];
    if (S.mix[PASTA_MIX_SPECIAL])
      OS << " special=" << S.mix[PASTA_MIX_SPECIAL];
    OS << "\n";
  }
  // Derived counters, one line each: "pasta: derived 3 = +1*c5 -1*c6".
  for (size_t I = 0; I < Derived.size();) {
    uint32_t C = Derived[I].counter;
    OS << "pasta: derived " << C << " =";
    for (; I < Derived.size() && Derived[I].counter == C; ++I)
      OS << " " << (Derived[I].coeff < 0 ? "" : "+") << Derived[I].coeff << "*c"
         << Derived[I].source;
    OS << "\n";
  }
  for (const pasta_div_row &R : DivRows)
    OS << "pasta: div " << sys::path::filename(At(R.file)) << ":" << R.line
       << " func=" << At(Funcs[R.func].name) << " counters=" << R.counter
       << ".." << R.counter + PASTA_DIV_NUM - 1 << " proven=0x"
       << utohexstr(R.proven) << " measured=0x" << utohexstr(R.measured)
       << "\n";
  OS << "pasta: module counters=" << NumCounters << "\n";
}

// One line per scope and per access, for lit tests:
//   pasta: scope 2 loop parent=0 line=12:5 depth=1 func=<name>
//   pasta: access site=3 scope=2 r stride-1 stride=1 param=0 bytes=4
void ModuleTables::printScopes(raw_ostream &OS) const {
  static const char *Kinds[] = {"func", "loop", "conditional", "parallel"};
  static const char *Classes[] = {"unknown", "constant", "stride-1", "stride-k",
                                  "indirect"};
  const std::string &Str = Strings.blob();
  for (size_t I = 0; I < ScopeRows.size(); ++I) {
    const pasta_scope &S = ScopeRows[I];
    OS << "pasta: scope " << I << " " << Kinds[S.kind] << " parent=";
    if (S.parent == PASTA_NONE)
      OS << "none";
    else
      OS << S.parent;
    OS << " line=" << S.line << ":" << S.col << " depth=" << S.loop_depth
       << " func=" << StringRef(Str.c_str() + S.func) << "\n";
  }
  for (auto &[I, A] : Accesses) {
    OS << "pasta: access site=" << A.site << " scope=" << A.scope << " "
       << char(A.mode) << " " << Classes[A.klass] << " stride=" << A.stride
       << " param=";
    if (A.param == PASTA_NONE)
      OS << "none";
    else
      OS << A.param;
    OS << " bytes=" << A.bytes << " line=" << A.line << "\n";
  }
}
