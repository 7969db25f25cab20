//===- ParameterFields.h - Pointers in by-value parameters ----*- C++ -*-===//
//
// The pointer fields of a kernel's by-value aggregate parameters (the
// pointers a lambda or a functor captured), numbered as abi.h's working-set
// slots PASTA_WS_MAX_ARGS + j: the host registration tells the runtime where
// each one is, the working-set copy reads its slot's allocation. Both
// compiles number them from the parameter's type, so they agree where the
// host's and the device's types agree (CUDA and HIP require it); where they
// do not, a slot holds another pointer's allocation and the access's range
// check fails: slower, never wrong.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_PARAMETERFIELDS_H
#define PASTA_PASSES_PARAMETERFIELDS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Type.h"

#include <cstdint>

namespace llvm {
class DIType;
class LLVMContext;
} // namespace llvm

namespace pasta {

struct ParameterField {
  unsigned Param;
  uint64_t Offset; // bytes into the parameter
};

// Aggregates[k]: the in-memory type of parameter k when it is a struct or
// an array passed by value, else null. The first PASTA_WS_MAX_FIELDS pointer
// fields (8 bytes, generic or global), in parameter order and, within one,
// in offset order through nested structs and arrays.
llvm::SmallVector<ParameterField, 16>
pointerFields(llvm::ArrayRef<llvm::Type *> Aggregates,
              const llvm::DataLayout &DL);

// A type with T's pointers at their offsets (T: a struct, class, union or
// array described by debug info), or null where T holds none or its layout
// is not fully described. For a parameter the host's IR does not type: one
// clang passes indirectly (a class that is not trivially copyable, such as
// CUB's kernel_arg), whose stub gets a bare pointer to a copy.
llvm::Type *pointerLayoutOf(const llvm::DIType *T, llvm::LLVMContext &Ctx);

// Whether T is a struct or an array (a parameter whose fields are numbered).
inline bool isFieldAggregate(const llvm::Type *T) {
  return T && (T->isStructTy() || T->isArrayTy());
}

} // namespace pasta

#endif
