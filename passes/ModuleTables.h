//===- ModuleTables.h - A module's tables and descriptor --------*- C++ -*-===//
//
// What the counting pass records about a module while it instruments it (the
// function, site, scope and access tables, their strings, the counters) and
// how it emits them: as globals described by one struct pasta_module_desc
// (include/pasta/abi.h), which the host runtime reads. Device modules export
// the descriptor as __pasta_desc_<module id>; host modules register theirs
// from a constructor.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_MODULETABLES_H
#define PASTA_PASSES_MODULETABLES_H

#include "pasta/abi.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <utility>
#include <vector>

namespace pasta {

// A stable identifier of a translation unit that the host and the device
// compilations of it both derive (from the source file name).
std::string moduleId(const llvm::Module &M);

// Which runtime a module's code runs against.
pasta_target targetOf(const llvm::Module &M);

// A symbol as people read it, by LLVM's demangler (Itanium manglings,
// clang's newest included: constrained templates, `Tn` parameters, lambdas
// in templates), so that reports never depend on the C++ runtime of the
// machine that shows them; "" when the symbol is no mangling it can read.
// A kernel that -fgpu-rdc made unique ("<mangled>__intern__<hex>") reads as
// the name before the suffix.
std::string demangledName(llvm::StringRef Symbol);

// NUL-separated strings, each stored once; rows refer to them by offset.
class StringTable {
public:
  uint32_t intern(llvm::StringRef S);
  const std::string &blob() const { return Blob; }

private:
  std::string Blob;
  llvm::StringMap<uint32_t> Offsets;
};

struct ModuleTables {
  explicit ModuleTables(llvm::Module &M)
      : Target(targetOf(M)), Id(moduleId(M)) {}

  // Device counters: as many banks as fit (see numBanks in the .cpp); host
  // counters: one.
  uint32_t numBanks() const;
  // The counters, empty-sized until emit() (the flushes name them first).
  void createCounters(llvm::Module &M);
  // Host modules: the descriptor, before emit() makes it.
  llvm::GlobalVariable *hostDescriptor(llvm::Module &M);
  // The tables, the counters at their final size and the descriptor.
  void emit(llvm::Module &M);

  // For lit tests: one line per function and site, per scope and access.
  void printSites(llvm::raw_ostream &OS) const;
  void printScopes(llvm::raw_ostream &OS) const;

  pasta_target Target;
  std::string Id;
  StringTable Strings;
  std::vector<pasta_func> Funcs;
  std::vector<pasta_site> Sites;
  std::vector<pasta_scope> ScopeRows;
  std::vector<std::pair<llvm::Instruction *, pasta_access>> Accesses;
  std::vector<pasta_derived> Derived;
  std::vector<pasta_div_row> DivRows; // PASTA_DIVERGENCE=1 builds only
  // What the counts miss, one compile-time warning each (Selection.h's
  // UncountedNotes): the descriptor's `uncounted` string, lines joined.
  std::vector<std::string> Uncounted;
  uint32_t NumCounters = 0; // per bank
  llvm::GlobalVariable *Counters = nullptr;

private:
  // The counters at their final size, Banks rows of NumCounters.
  void finalizeCounters(llvm::Module &M, uint32_t Banks);

  llvm::GlobalVariable *DescPlaceholder = nullptr;
};

} // namespace pasta

#endif
