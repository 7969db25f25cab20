//===- AbiTypes.cpp - LLVM types of the structs in pasta/abi.h ------------===//
//
// The field kinds' LLVM types, and the check that LLVM's layout of each
// shared struct is the C compiler's (see AbiTypes.h).
//
//===----------------------------------------------------------------------===//
#include "AbiTypes.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/ErrorHandling.h"

#include <mutex>

using namespace llvm;
using namespace pasta;

Type *abi::typeOf(Kind K, LLVMContext &Ctx) {
  switch (K) {
  case Kind::U32:
  case Kind::I32:
    return Type::getInt32Ty(Ctx);
  case Kind::U64:
  case Kind::ADDR:
    return Type::getInt64Ty(Ctx);
  case Kind::MIX:
    return ArrayType::get(Type::getInt32Ty(Ctx), PASTA_MIX_NUM);
  case Kind::WS_ARGS:
    return ArrayType::get(structType<WsArg>(Ctx), PASTA_WS_ARG_SLOTS);
  case Kind::FN:
    return PointerType::get(Ctx, 0);
  }
  llvm_unreachable("unknown ABI field kind");
}

FunctionType *abi::vendorOpType(VendorOps::Field F, LLVMContext &Ctx) {
  switch (F) {
#define PASTA_X(ret, name, params, cuda, hip)                                  \
  case VendorOps::name:                                                        \
    return functionTypeOf(decltype(pasta_vendor_ops::name){}, Ctx);
    PASTA_VENDOR_OPS_FUNCTIONS(PASTA_X)
#undef PASTA_X
  default:
    llvm_unreachable("not a function field of struct pasta_vendor_ops");
  }
}

// The first field of S whose LLVM offset differs from its C offset
// ("sizeof" if only the sizes differ), or null.
template <typename S>
static const char *mismatch(const DataLayout &DL, LLVMContext &Ctx) {
  const StructLayout *L = DL.getStructLayout(abi::structType<S>(Ctx));
  for (unsigned I = 0; I < S::NumFields; ++I)
    if (L->getElementOffset(I) != S::Fields[I].Offset)
      return S::Fields[I].Name;
  if (L->getSizeInBytes() != sizeof(typename S::CType))
    return "sizeof";
  return nullptr;
}

// x86-64's DataLayout: the host modules' and, for these structs (all
// naturally aligned 32- and 64-bit fields), nvptx64's and amdgcn's too.
static constexpr const char *Layout64 =
    "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:"
    "64-S128";

void abi::verifyLayouts() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    LLVMContext Ctx;
    DataLayout DL(Layout64);
    auto Check = [&](const char *Field, const char *CName) {
      if (Field)
        report_fatal_error(Twine("pasta: internal error: struct ") + CName +
                           " field '" + Field +
                           "' is not where LLVM would put it (pasta/abi.h)");
    };
#define PASTA_X(Name, CStruct, FIELDS)                                         \
  Check(mismatch<Name>(DL, Ctx), Name::CName);
    PASTA_ABI_STRUCTS(PASTA_X)
#undef PASTA_X
    Check(mismatch<VendorOps>(DL, Ctx), VendorOps::CName);
  });
}
