//===- StaticMix.h - Static cost of instructions -----------------*- C++
//-*-===//
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

#include <cstdint>

namespace llvm {
class DataLayout;
class Instruction;
class Value;
} // namespace llvm

namespace pasta {

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

class StaticMixAnalysis {
public:
  StaticMixAnalysis(const llvm::DataLayout &DL, pasta_target Target)
      : DL(DL), Target(Target) {}

  // Adds the cost of one execution of I to M. Returns true if I contributed.
  // Generic accesses are counted under PASTA_SPACE_GENERIC and, for device
  // targets, reported through Generic so the caller can resolve them at run
  // time.
  bool addInstruction(const llvm::Instruction &I, Mix &M,
                      GenericAccess *Generic) const;

  // The address space an access through Ptr touches, or PASTA_SPACE_GENERIC
  // when it can only be known at run time.
  pasta_space classifyPointer(const llvm::Value *Ptr) const;

private:
  bool addMemory(const llvm::Instruction &I, Mix &M,
                 GenericAccess *Generic) const;
  bool addArithmetic(const llvm::Instruction &I, Mix &M) const;
  pasta_space spaceOfAddressSpace(unsigned AS) const;

  const llvm::DataLayout &DL;
  pasta_target Target;
};

} // namespace pasta

#endif
