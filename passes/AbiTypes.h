//===- AbiTypes.h - LLVM types of the structs in pasta/abi.h ----*- C++ -*-===//
//
// The pass's view of include/pasta/abi.h, generated from the same X-macros
// as the C structs: for each shared struct, an enum naming its fields, the
// kind and C offset of each, its LLVM type, and a builder of constants that
// takes fields by name (never by counting). Field kinds map to LLVM types
// here, once. verifyLayouts() checks that LLVM lays every struct out at the
// C compiler's offsets.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_ABITYPES_H
#define PASTA_PASSES_ABITYPES_H

#include "pasta/abi.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"

#include <cassert>
#include <cstddef>
#include <type_traits>

namespace llvm {
class DataLayout;
}

namespace pasta::abi {

// The field kinds of abi.h, plus FN: a vendor function pointer.
enum class Kind { U32, I32, U64, ADDR, MIX, WS_ARGS, FN };

llvm::Type *typeOf(Kind K, llvm::LLVMContext &Ctx);

struct FieldInfo {
  Kind K;
  size_t Offset; // offsetof in the C struct
  const char *Name;
};

// Struct info types: Name, the C struct, its field list.
#define PASTA_ABI_STRUCTS(X)                                                   \
  X(Func, pasta_func, PASTA_FUNC_FIELDS)                                       \
  X(Site, pasta_site, PASTA_SITE_FIELDS)                                       \
  X(Scope, pasta_scope, PASTA_SCOPE_FIELDS)                                    \
  X(Access, pasta_access, PASTA_ACCESS_FIELDS)                                 \
  X(Derived, pasta_derived, PASTA_DERIVED_FIELDS)                              \
  X(DivRow, pasta_div_row, PASTA_DIV_ROW_FIELDS)                               \
  X(ModuleDesc, pasta_module_desc, PASTA_MODULE_DESC_FIELDS)                   \
  X(WsAlloc, pasta_ws_alloc, PASTA_WS_ALLOC_FIELDS)                            \
  X(WsArg, pasta_ws_arg, PASTA_WS_ARG_FIELDS)                                  \
  X(WsLaunch, pasta_ws_launch, PASTA_WS_LAUNCH_FIELDS)                         \
  X(TraceRecord, pasta_trace_record, PASTA_TRACE_RECORD_FIELDS)                \
  X(TraceLaunch, pasta_trace_launch, PASTA_TRACE_LAUNCH_FIELDS)

#define PASTA_ABI_FIELD_ENUM(kind, name) name,
#define PASTA_ABI_FIELD_INFO(kind, name)                                       \
  FieldInfo{Kind::kind, offsetof(CType, name), #name},
#define PASTA_ABI_STRUCT(Name, CStruct, FIELDS)                                \
  struct Name {                                                                \
    using CType = CStruct;                                                     \
    static constexpr const char *CName = #CStruct;                             \
    enum Field : unsigned { FIELDS(PASTA_ABI_FIELD_ENUM) NumFields };          \
    static constexpr FieldInfo Fields[] = {FIELDS(PASTA_ABI_FIELD_INFO)};      \
  };
PASTA_ABI_STRUCTS(PASTA_ABI_STRUCT)
#undef PASTA_ABI_STRUCT

// struct pasta_vendor_ops: its function pointers, then `vendor` and `abi`.
#define PASTA_ABI_VENDOR_ENUM(ret, name, params, cuda, hip) name,
#define PASTA_ABI_VENDOR_INFO(ret, name, params, cuda, hip)                    \
  FieldInfo{Kind::FN, offsetof(CType, name), #name},
struct VendorOps {
  using CType = pasta_vendor_ops;
  static constexpr const char *CName = "pasta_vendor_ops";
  enum Field : unsigned {
    PASTA_VENDOR_OPS_FUNCTIONS(PASTA_ABI_VENDOR_ENUM) vendor,
    abi,
    NumFields,
    NumFunctions = vendor
  };
  static constexpr FieldInfo Fields[] = {
      PASTA_VENDOR_OPS_FUNCTIONS(PASTA_ABI_VENDOR_INFO)
          FieldInfo{Kind::U64, offsetof(CType, vendor), "vendor"},
      FieldInfo{Kind::FN, offsetof(CType, abi), "abi"}};
};
#undef PASTA_ABI_VENDOR_INFO
#undef PASTA_ABI_VENDOR_ENUM
#undef PASTA_ABI_FIELD_INFO
#undef PASTA_ABI_FIELD_ENUM

// The LLVM type of a C scalar or pointer (host code: pointers in address
// space 0), and of a C function pointer type.
template <typename T> llvm::Type *typeOfC(llvm::LLVMContext &Ctx) {
  if constexpr (std::is_pointer_v<T>)
    return llvm::PointerType::get(Ctx, 0);
  else if constexpr (std::is_void_v<T>)
    return llvm::Type::getVoidTy(Ctx);
  else if constexpr (std::is_same_v<T, float>)
    return llvm::Type::getFloatTy(Ctx);
  else {
    static_assert(std::is_integral_v<T>, "no LLVM type for this C type");
    return llvm::IntegerType::get(Ctx, sizeof(T) * 8);
  }
}

template <typename R, typename... Ps>
llvm::FunctionType *functionTypeOf(R (*)(Ps...), llvm::LLVMContext &Ctx) {
  llvm::SmallVector<llvm::Type *, 8> Params{typeOfC<Ps>(Ctx)...};
  return llvm::FunctionType::get(typeOfC<R>(Ctx), Params, false);
}

// The type of the function a vendor-ops field points to.
llvm::FunctionType *vendorOpType(VendorOps::Field F, llvm::LLVMContext &Ctx);

// The literal LLVM struct type of S.
template <typename S> llvm::StructType *structType(llvm::LLVMContext &Ctx) {
  llvm::SmallVector<llvm::Type *, 32> Types;
  for (const FieldInfo &F : S::Fields)
    Types.push_back(typeOf(F.K, Ctx));
  return llvm::StructType::get(Ctx, Types);
}

// Whether S is a flat array of 32-bit words (the tables the pass emits as
// [N x i32]).
template <typename S> constexpr bool isWords() {
  size_t Words = 0;
  for (const FieldInfo &F : S::Fields) {
    if (F.K == Kind::U32 || F.K == Kind::I32)
      Words += 1;
    else if (F.K == Kind::MIX)
      Words += PASTA_MIX_NUM;
    else
      return false;
  }
  return Words * 4 == sizeof(typename S::CType);
}

// A constant of struct S, filled in field by field.
template <typename S> class StructBuilder {
public:
  explicit StructBuilder(llvm::LLVMContext &Ctx)
      : Ctx(Ctx), Values(S::NumFields, nullptr) {}

  StructBuilder &set(typename S::Field F, llvm::Constant *C) {
    assert(C->getType() == typeOf(S::Fields[F].K, Ctx) && "wrong field type");
    Values[F] = C;
    return *this;
  }
  StructBuilder &setInt(typename S::Field F, uint64_t V) {
    return set(F, llvm::ConstantInt::get(typeOf(S::Fields[F].K, Ctx), V));
  }
  llvm::Constant *get() const {
    assert(llvm::all_of(Values, [](llvm::Constant *C) { return C; }) &&
           "every field must be set");
    return llvm::ConstantStruct::get(structType<S>(Ctx), Values);
  }

private:
  llvm::LLVMContext &Ctx;
  llvm::SmallVector<llvm::Constant *, 32> Values;
};

// Checks, once per process, that a 64-bit DataLayout puts every field of
// every shared struct at its C offset; a mismatch is a fatal error (the pass
// would emit data the runtimes misread).
void verifyLayouts();

} // namespace pasta::abi

#endif
