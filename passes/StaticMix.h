//===- StaticMix.h - Static cost of instructions ----------------*- C++ -*-===//
//
// What one execution of an instruction does, by the profile's categories:
// loads, stores and atomics (count and bytes) per address space, FLOPs per
// precision, and "special" operations (division, square root,
// transcendentals). Pure analysis: it never changes the IR.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_STATICMIX_H
#define PASTA_PASSES_STATICMIX_H

#include "pasta/abi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace llvm {
class Argument;
class CallBase;
class DataLayout;
class Instruction;
class Value;
} // namespace llvm

namespace pasta {

struct AsmAccess;

struct Mix {
  uint32_t V[PASTA_MIX_NUM] = {};

  bool empty() const;
  void add(const Mix &Other);
};

// The memory access an instruction makes, if it is a plain load or store
// through a pointer whose address space is only known at run time.
struct GenericAccess {
  llvm::Value *Pointer = nullptr;
  bool IsStore = false;
  uint32_t Bytes = 0;
};

// A memcpy, memmove or memset (the intrinsics, their .inline and
// element-wise atomic forms, and calls to the C library's memcpy, memmove,
// memset, bzero and their _chk forms) whose length is known only at run
// time. Its mix counts one load (copies only) and one store per execution;
// its bytes, Length per execution, are the caller's to accumulate.
struct VariableLength {
  llvm::Value *Length = nullptr; // an integer: the bytes it moves
  bool Loads = false;            // a copy: it reads Source
  llvm::Value *SourcePointer = nullptr, *DestPointer = nullptr;
  pasta_space Source = PASTA_SPACE_GENERIC;
  pasta_space Dest = PASTA_SPACE_GENERIC;
};

// Whether Name is one of the C library's block operations counted as
// memory operations (memcpy, memmove, memset, bzero and their _chk forms).
bool isLibcBlockOpName(llvm::StringRef Name);

// Whether Call is a warp-matrix (wmma) fragment load or store intrinsic,
// counted as one access per lane of the fragment's registers.
bool isWmmaMemoryCall(const llvm::CallBase &Call);

class StaticMixAnalysis {
public:
  StaticMixAnalysis(const llvm::DataLayout &DL, pasta_target Target)
      : DL(DL), Target(Target) {}

  // Adds the cost of one execution of I to M. Returns true if I contributed.
  // Generic accesses are counted under PASTA_SPACE_GENERIC and, for device
  // targets, reported through Generic so the caller can resolve them at run
  // time. A memory operation of run-time length is reported through
  // Variable (its bytes are not in M), or not counted without it.
  bool addInstruction(const llvm::Instruction &I, Mix &M,
                      GenericAccess *Generic,
                      VariableLength *Variable = nullptr) const;

  // The address space an access through Ptr touches, or PASTA_SPACE_GENERIC
  // when it can only be known at run time.
  pasta_space classifyPointer(const llvm::Value *Ptr) const;

  // Pointer arguments of device functions that point to one space (global,
  // shared, local) at every call (CalleeCounts.h proves it for the copies it
  // makes): accesses through them are in that space, as through a kernel's
  // pointer arguments in global memory.
  void setArgumentSpaces(
      const llvm::DenseMap<const llvm::Argument *, pasta_space> *Spaces) {
    ArgumentSpaces = Spaces;
  }

private:
  bool addMemory(const llvm::Instruction &I, Mix &M, GenericAccess *Generic,
                 VariableLength *Variable) const;
  bool addBlockOperation(const llvm::Instruction &I, Mix &M,
                         VariableLength *Variable) const;
  bool addInlineAsm(const llvm::CallBase &Call, Mix &M,
                    GenericAccess *Generic) const;
  void addCallAccess(const AsmAccess &A, Mix &M, GenericAccess *Generic) const;
  bool addArithmetic(const llvm::Instruction &I, Mix &M) const;
  pasta_space spaceOfAddressSpace(unsigned AS) const;

  pasta_space spaceOfObject(const llvm::Value *Obj, pasta_space FromAS) const;

  const llvm::DataLayout &DL;
  pasta_target Target;
  const llvm::DenseMap<const llvm::Argument *, pasta_space> *ArgumentSpaces =
      nullptr;
};

} // namespace pasta

#endif
