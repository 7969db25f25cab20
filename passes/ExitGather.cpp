//===- ExitGather.cpp - Where a kernel's lanes can wait for each other ----===//
//
// See ExitGather.h.
//
//===----------------------------------------------------------------------===//
#include "ExitGather.h"

#include "DeviceRuntime.h"
#include "ThreadExits.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;
using namespace pasta;

namespace {

// Which instructions may have a lane wait for another thread, or never come
// to the return, memoized over the functions called.
class WaitFinder {
public:
  // Whether I may: inside a loop (InLoop), a read of memory that another
  // thread writes (a spin) counts too.
  bool mayWait(const Instruction &I, bool InLoop) {
    if (endsThread(I))
      return true;
    if (readsOthersWrites(I))
      return InLoop;
    const auto *Call = dyn_cast<CallBase>(&I);
    if (!Call)
      return false;
    if (Call->isInlineAsm())
      return true;
    if (isa<IntrinsicInst>(Call)) // barriers, votes, shuffles: convergent
      return Call->isConvergent();
    const Function *Callee = Call->getCalledFunction();
    if (!Callee)
      return true;
    if (isRuntimeFunction(*Callee))
      return false;
    // Every CUDA function is convergent: what counts is what its body does.
    if (Callee->isDeclaration())
      return !returnsToCaller(*Callee) || Call->isConvergent();
    return functionMayWait(*Callee) || (InLoop && functionReads(*Callee));
  }

private:
  // A volatile or atomic load, a compare-and-swap, an atomic whose old
  // value is used: what a loop waiting for another thread reads.
  static bool readsOthersWrites(const Instruction &I) {
    if (const auto *Load = dyn_cast<LoadInst>(&I))
      return Load->isVolatile() || Load->isAtomic();
    if (isa<AtomicCmpXchgInst>(I))
      return true;
    if (isa<AtomicRMWInst>(I))
      return !I.use_empty();
    return false;
  }

  bool functionMayWait(const Function &F) {
    auto [It, New] = Waits.try_emplace(&F, false); // recursion: optimistic
    if (!New)
      return It->second;
    DominatorTree DT(const_cast<Function &>(F));
    LoopInfo LI(DT);
    bool Result = any_of(instructions(F), [&](const Instruction &I) {
      return mayWait(I, LI.getLoopFor(I.getParent()) != nullptr);
    });
    Waits[&F] = Result;
    return Result;
  }

  bool functionReads(const Function &F) {
    auto [It, New] = Reads.try_emplace(&F, false);
    if (!New)
      return It->second;
    bool Result = any_of(instructions(F), [&](const Instruction &I) {
      if (readsOthersWrites(I))
        return true;
      const auto *Call = dyn_cast<CallBase>(&I);
      const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      return Callee && !Callee->isDeclaration() && functionReads(*Callee);
    });
    Reads[&F] = Result;
    return Result;
  }

  DenseMap<const Function *, bool> Waits, Reads;
};

} // namespace

// The blocks from which a block holding such an instruction is reachable,
// that block included: the rest is the tail.
static SmallPtrSet<const BasicBlock *, 32> blocksBeforeTail(Function &F) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  WaitFinder Finder;
  SmallVector<const BasicBlock *, 32> Work;
  for (const BasicBlock &BB : F) {
    bool InLoop = LI.getLoopFor(&BB) != nullptr;
    if (any_of(BB,
               [&](const Instruction &I) { return Finder.mayWait(I, InLoop); }))
      Work.push_back(&BB);
  }
  SmallPtrSet<const BasicBlock *, 32> Before(Work.begin(), Work.end());
  while (!Work.empty())
    for (const BasicBlock *Pred : predecessors(Work.pop_back_val()))
      if (Before.insert(Pred).second)
        Work.push_back(Pred);
  return Before;
}

TailEntries pasta::findWaitFreeTail(Function &F) {
  TailEntries Tail;
  ReturnInst *Return = nullptr;
  for (BasicBlock &BB : F)
    if (auto *RI = dyn_cast<ReturnInst>(BB.getTerminator())) {
      if (Return)
        return Tail; // a lane that takes one return never comes to the other
      Return = RI;
    }
  if (!Return)
    return Tail;
  SmallPtrSet<const BasicBlock *, 32> Before = blocksBeforeTail(F);
  if (Before.count(Return->getParent()))
    return Tail;
  Tail.Return = Return;
  Tail.EntryInTail = !Before.count(&F.getEntryBlock());
  for (BasicBlock &Block : F) { // in order: the output is deterministic
    if (!Before.count(&Block))
      continue;
    const BasicBlock *BB = &Block;
    Instruction *Term = Block.getTerminator();
    // Every way out goes into the tail: the lanes are read once, before the
    // branch, and lanes that go different ways still wait for each other.
    if (succ_size(BB) != 0 && none_of(successors(BB), [&](auto *Succ) {
          return Before.count(Succ);
        })) {
      Tail.Edges.push_back({Term, TailEntries::AtTerminator});
      continue;
    }
    if (!isa<BranchInst, SwitchInst>(Term))
      continue; // no mask for these lanes: they flush ungathered
    SmallPtrSet<const BasicBlock *, 4> Seen, Twice;
    for (const BasicBlock *Succ : successors(BB))
      if (!Seen.insert(Succ).second)
        Twice.insert(Succ);
    for (unsigned I = 0; I < Term->getNumSuccessors(); ++I) {
      const BasicBlock *Succ = Term->getSuccessor(I);
      // Two edges to one block (a switch's cases) cannot be split apart.
      if (!Before.count(Succ) && !Twice.count(Succ))
        Tail.Edges.push_back({Term, I});
    }
  }
  return Tail;
}
