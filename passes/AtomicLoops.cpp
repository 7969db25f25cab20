//===- AtomicLoops.cpp - Loops that wait for global atomics ---------------===//

#include "AtomicLoops.h"

#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

namespace pasta {

static cl::opt<unsigned> AtomicLoopIterations(
    "pasta-atomic-loop-iterations", cl::Hidden, cl::init(4),
    cl::desc("PASTA: a loop running a global atomic whose result it waits "
             "for at least once in this many iterations (estimated) keeps "
             "its counters in local memory in counting copies (0: never)"));

// Generic (0) or global (1), in NVPTX's and AMDGPU's numbering alike.
static bool globalOrGeneric(unsigned AddressSpace) {
  return AddressSpace == 0 || AddressSpace == 1;
}

bool waitsForGlobalAtomic(const Instruction &I) {
  if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    return globalOrGeneric(CX->getPointerAddressSpace());
  if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return !RMW->use_empty() && globalOrGeneric(RMW->getPointerAddressSpace());
  return false;
}

bool AtomicLoops::waits(const Loop *L) {
  if (!AtomicLoopIterations || !L)
    return false;
  auto [It, New] = Known.try_emplace(L, false);
  if (!New)
    return It->second;
  // The waiting atomics' runs per run of the header, estimated: each
  // block's count of them times its frequency, summed, against the
  // header's frequency.
  uint64_t Header = BFI.getBlockFreq(L->getHeader()).getFrequency();
  uint64_t Atomics = 0;
  for (const BasicBlock *BB : L->blocks()) {
    unsigned N = count_if(*BB, waitsForGlobalAtomic);
    Atomics += N * BFI.getBlockFreq(BB).getFrequency();
  }
  It->second = Header && Atomics * AtomicLoopIterations >= Header;
  return It->second;
}

} // namespace pasta
