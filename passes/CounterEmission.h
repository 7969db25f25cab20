//===- CounterEmission.h - Counting code of planned functions ---*- C++ -*-===//
//
// Emits the counting code of a function planned by Selection. Each counted
// block gets a per-thread counter (in device functions, only those
// CounterPlacement keeps, some in one bit), kept in a register (an alloca
// promoted by mem2reg; in host functions built without optimization, an
// element of a thread-local array, which costs the frame nothing),
// incremented once per execution; generic
// accesses on GPUs add their run-time address space to per-site counters.
// Nothing touches memory while the function runs. At every return, the
// thread's counts go to the runtime once: __pasta_flush on GPUs
// (warp-reduced, one atomic per warp and counter, banked by block). Host
// functions flush with atomic adds at every return and resume and also
// before every call that may leave the frame without returning
// (exceptions, longjmp, exit, pthread_exit).
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_COUNTEREMISSION_H
#define PASTA_PASSES_COUNTEREMISSION_H

#include "CalleeCounts.h"
#include "ExitGather.h"
#include "ModuleTables.h"
#include "Selection.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class DominatorTree;
class Loop;
class LoopInfo;
class ScalarEvolution;
class TargetTransformInfo;
} // namespace llvm

namespace pasta {

class CounterEmitter {
public:
  // The counters (Tables.Counters) must exist, with Tables.NumCounters
  // final.
  // Returned: the device functions that return their counts to their
  // callers, and what each caller accumulates (CalleeCounts.h), if any.
  // CountingBuild (not a divergence or trace build, whose copies keep the
  // counting code's shape): a kernel's return reached from a few places
  // flushes on each way into it, only what that way can have counted
  // (flushPointsOf), and blocks run once in every iteration of a loop whose
  // iterations scalar evolution counts add the count at the loop's exit
  // (addTripCount), bits of blocks one lane of a warp runs are added by that
  // lane (flushOwnLanes), and a kernel's once-per-thread cold edges are
  // counted where they are taken (InPlace).
  CounterEmitter(llvm::Module &M, ModuleTables &Tables,
                 llvm::FunctionAnalysisManager &FAM,
                 const ReturnedCounts *Returned = nullptr,
                 bool CountingBuild = false)
      : M(M), Ctx(M.getContext()), T(Tables), FAM(FAM), Returned(Returned),
        CountingBuild(CountingBuild) {}

  void emit(FunctionPlan &P);

  // A counter that may be non-zero at a host flush point.
  struct HostDirty {
    uint32_t Counter;
    bool NonZero; // certainly non-zero at the flush point: no test needed
  };

private:
  void countManyWhereTaken(const FunctionPlan &P);
  void emitGenericCounting(llvm::IRBuilder<> &B, const GenericSite &G,
                           llvm::ArrayRef<llvm::AllocaInst *> Slots);
  void emitIncrement(llvm::IRBuilder<> &B, uint32_t Counter);
  // CounterEmissionSpaces.cpp: address-space counts off the hot path.
  void findColdSpaceSets(const FunctionPlan &P);
  void emitColdSpaceCounts(const CountedBlock &CB);
  llvm::SmallVector<size_t, 8> addColdCarriedCounts(
      llvm::CallInst *CI, const CountReturn &CR,
      llvm::function_ref<llvm::AllocaInst *(uint32_t Global)> SlotOf);
  void branchAroundColdSpaceCounts();
  uint32_t globalIndex(const FunctionPlan &P, uint32_t Counter) const;
  void addCalleeCounts(const FunctionPlan &P);
  void addToFrame(llvm::ReturnInst *RI, const FunctionPlan &P,
                  const CountFrame &Frame);
  void flushFrames(llvm::Instruction *Exit);
  uint32_t localIndex(const FunctionPlan &P, uint32_t Global) const;
  void returnCounts(llvm::ReturnInst *RI, const FunctionPlan &P,
                    const CountReturn &CR);
  void emitCarriedFlush(llvm::Instruction *Exit,
                        llvm::ArrayRef<uint32_t> Carried);
  llvm::SmallVector<uint32_t, 16> liveCounters(const FunctionPlan &P,
                                               llvm::BasicBlock *Exit) const;
  llvm::Value *loadCount(llvm::IRBuilder<> &B, uint32_t Counter) const;
  llvm::AllocaInst *staging(FunctionPlan &P, uint32_t Size);
  llvm::GlobalVariable *indexTable(llvm::ArrayRef<uint32_t> Indices,
                                   llvm::StringRef Name);
  void gatherTailLanes(llvm::Instruction *Exit);
  void emitFlush(llvm::Instruction *Exit, FunctionPlan &P);
  bool countsLaunchAtExit(const FunctionPlan &P) const;
  void emitLaunchCount(llvm::IRBuilder<> &B, const FunctionPlan &P,
                       bool Prefetch);
  // An outermost loop's trip count, added at its exit (tripsAtExit), and
  // the mask of the blocks that run in all of its iterations or none
  // (addInvariantTripCount).
  struct LoopTrips {
    llvm::Instruction *At = nullptr; // in the exit, after the count
    llvm::Value *N = nullptr;        // null: not counted at the exit
    // The exit's clearing of the mask that blocks SeenBits % 32 set (a
    // new mask every 32 blocks; the mask is its pointer operand).
    llvm::StoreInst *Clear = nullptr;
    unsigned SeenBits = 0;
  };
  llvm::LoopInfo *loopsForNarrowing(llvm::Function &F);
  llvm::DenseSet<uint32_t> narrowCounters(const FunctionPlan &P);
  void narrowUnboundedLoops(const FunctionPlan &P,
                            llvm::DenseSet<uint32_t> &Narrow);
  void guardNarrowedLoops(FunctionPlan &P);
  void addEachLaneAndZero(llvm::Instruction *At, FunctionPlan &P,
                          llvm::ArrayRef<uint32_t> Counters);
  void shareLikeCounters(FunctionPlan &P,
                         const llvm::DenseSet<uint32_t> &Narrow);
  void indexSitesAndDerived();
  void flushAndZero(llvm::Instruction *At, FunctionPlan &P,
                    llvm::ArrayRef<uint32_t> Counters);
  llvm::DenseSet<llvm::AllocaInst *> countsInLocalMemory(const FunctionPlan &P);
  void findAtomicLoopCounters(const FunctionPlan &P);
  void keepCountsInOneArray(llvm::Function &F,
                            llvm::ArrayRef<llvm::AllocaInst *> Kept);
  void flushArrayDirectly(llvm::CallInst *Flush, llvm::AllocaInst *Array,
                          const llvm::DenseMap<llvm::LoadInst *, unsigned> &Of);
  const LoopTrips *tripsAtExit(llvm::Loop *L, llvm::DominatorTree &DT,
                               llvm::LoopInfo &LI, llvm::ScalarEvolution &SE,
                               const llvm::TargetTransformInfo &TTI);
  bool addTripCount(const CountedBlock &CB, llvm::LoopInfo &LI,
                    llvm::DominatorTree &DT, llvm::ScalarEvolution &SE,
                    const llvm::TargetTransformInfo &TTI);
  bool
  addInvariantTripCount(const CountedBlock &CB, llvm::LoopInfo &LI,
                        llvm::DominatorTree &DT, llvm::ScalarEvolution &SE,
                        const llvm::TargetTransformInfo &TTI,
                        llvm::SmallVectorImpl<llvm::AllocaInst *> &Registers);
  void flushAtOuterBackEdges(FunctionPlan &P);
  void flushAlikeBeforeNests(llvm::BasicBlock *Header, FunctionPlan &P,
                             llvm::ArrayRef<uint32_t> Counters);
  void flushPointsOf(llvm::ReturnInst *RI, const FunctionPlan &P,
                     llvm::SmallVectorImpl<llvm::Instruction *> &Exits);
  llvm::SmallVector<uint32_t, 16>
  flushAlikeFromFirstBlock(llvm::Instruction *Exit, FunctionPlan &P,
                           llvm::ArrayRef<uint32_t> Live);
  llvm::Value *emitBitFlushes(llvm::Instruction *Exit, FunctionPlan &P,
                              llvm::ArrayRef<uint32_t> Bits);
  std::pair<llvm::Instruction *, llvm::Instruction *>
  splitOnRegisterCap(llvm::Instruction *At);
  void emitGroupsIndexedFlush(llvm::Instruction *At, FunctionPlan &P,
                              llvm::ArrayRef<uint32_t> Live,
                              const llvm::DenseSet<uint32_t> &GroupStarts);
  void stageCount(llvm::IRBuilder<> &B, llvm::AllocaInst *Staging, size_t K,
                  uint32_t C);
  void emitIndexedCall(llvm::IRBuilder<> &B, FunctionPlan &P,
                       llvm::AllocaInst *Staging,
                       llvm::ArrayRef<uint32_t> Staged, llvm::Value *N);
  void parkCountsAfterLoops(FunctionPlan &P,
                            llvm::ArrayRef<llvm::AllocaInst *> Registers);
  llvm::Value *loadWhole(llvm::IRBuilder<> &B, llvm::AllocaInst *Slot) const;
  void emitIndexedFlush(llvm::Instruction *At, FunctionPlan &P,
                        llvm::ArrayRef<uint32_t> Live);
  // Row: the bank row a flush before it at Exit read (%smid is read
  // volatile: two reads are not merged), or null.
  void emitInlineFlush(llvm::Instruction *Exit, FunctionPlan &P,
                       llvm::ArrayRef<uint32_t> Live,
                       llvm::Value *Row = nullptr);
  bool countsOnlyColdEdges(const FunctionPlan &P,
                           llvm::ArrayRef<uint32_t> Live) const;
  llvm::Instruction *skipIfAllZero(llvm::Instruction *Exit,
                                   llvm::ArrayRef<uint32_t> Live);
  llvm::Value *flushOwnLanes(llvm::Instruction *Exit, const FunctionPlan &P,
                             llvm::ArrayRef<uint32_t> Live,
                             llvm::SmallVectorImpl<uint32_t> &Rest);
  void emitLaneZeroAdds(
      llvm::IRBuilder<> &B, size_t N,
      llvm::function_ref<llvm::Value *(llvm::IRBuilder<> &, size_t)> CountAt,
      llvm::function_ref<llvm::Value *(llvm::IRBuilder<> &, size_t)> SlotAt,
      llvm::Value *Scale);
  void emitBitFlushFast(
      llvm::IRBuilder<> &B, llvm::AllocaInst *Mask,
      llvm::ArrayRef<uint32_t> Counters,
      llvm::function_ref<llvm::Value *(llvm::IRBuilder<> &, uint32_t)> SlotOf);
  void emitHostFlushes(FunctionPlan &P,
                       llvm::ArrayRef<llvm::AllocaInst *> Slots);
  void emitHostAdds(FunctionPlan &P, llvm::ArrayRef<llvm::AllocaInst *> Slots,
                    llvm::ArrayRef<HostDirty> D, llvm::Instruction *At);
  void findHostOnceCounters(const FunctionPlan &P);
  void emitHostOnceIncrements(FunctionPlan &P);
  struct HostFlushPoint {
    llvm::Instruction *At;
    bool AfterFlush; // an earlier flush point in the same block
  };
  void flushOnPathsInto(
      FunctionPlan &P,
      const llvm::DenseMap<llvm::BasicBlock *, const CountedBlock *> &CountedOf,
      llvm::SmallVectorImpl<HostFlushPoint> &Points,
      llvm::SmallPtrSetImpl<llvm::BasicBlock *> &HasFlush,
      llvm::SmallPtrSetImpl<llvm::Instruction *> &OnPath);
  void emitHostRangeFlushes(
      FunctionPlan &P, llvm::ArrayRef<llvm::AllocaInst *> Slots,
      llvm::ArrayRef<HostFlushPoint> Points,
      const llvm::SmallPtrSetImpl<llvm::BasicBlock *> &HasFlush);
  void keepCountsThreadLocal(llvm::Function &F,
                             llvm::ArrayRef<llvm::AllocaInst *> Registers);

  llvm::Module &M;
  llvm::LLVMContext &Ctx;
  ModuleTables &T;
  llvm::FunctionAnalysisManager &FAM;
  const ReturnedCounts *Returned;
  bool CountingBuild;
  // The kernel being emitted: the ways into its wait-free tail, read before
  // the counting code goes in (ExitGather.h; no return where its lanes are
  // not gathered), and the mask of the lanes each thread entered it with
  // (an alloca until mem2reg; null until the return's flush gathers).
  TailEntries Tail;
  llvm::AllocaInst *TailLanes = nullptr;
  // The function being emitted: the module counter of each count it
  // accumulates for the functions it calls (its counters NumOwn and up).
  llvm::SmallVector<uint32_t, 8> Carried;
  uint32_t NumOwn = 0;
  // The function being emitted: each local counter's register (an alloca
  // until mem2reg) and, for counters kept in one bit of it, which bit.
  llvm::SmallVector<llvm::AllocaInst *, 16> Slots;
  llvm::SmallVector<int, 16> BitOf;
  // The function being emitted: its loops counted at their exits.
  llvm::DenseMap<const llvm::Loop *, LoopTrips> Trips;
  // The function being emitted: its analyses computed after planning
  // (narrowCounters), still valid for the trip counts.
  bool AnalysesFresh = false;
  // The function being emitted: counters its loops' exits add trip counts
  // to (addTripCount, addInvariantTripCount).
  llvm::DenseSet<uint32_t> AddedAtLoopExit;
  // The function being emitted (counting kernels): loops scalar evolution
  // does not bound (spin-waits), by header, with the 32-bit counters of
  // their own blocks that a wrap guard flushes (narrowUnboundedLoops).
  struct GuardedLoop {
    llvm::BasicBlock *Header;
    llvm::SmallVector<uint32_t, 16> Counters;
    // The header's own counter (the guard), or 0: the header has none and
    // Runs, a 32-bit register of the header's runs alone, is the guard.
    uint32_t HeaderCounter = 0;
    llvm::AllocaInst *Runs = nullptr;
  };
  llvm::SmallVector<GuardedLoop, 2> Guarded;
  llvm::DenseSet<uint32_t> GuardedCounters;
  // The function being emitted (counting copies of device code): counters
  // added to in loops that wait for global atomics (AtomicLoops.h), kept
  // in local memory (findAtomicLoopCounters).
  llvm::DenseSet<uint32_t> AtomicLoopCounters;
  // Counters parked in local memory after their loop (parkCountsAfterLoops):
  // the parked part of each by its register's alloca, summed at the flush.
  // Their slots in the order they were made (deterministic output).
  llvm::DenseMap<llvm::AllocaInst *, llvm::AllocaInst *> ParkedOf;
  llvm::SmallVector<llvm::AllocaInst *, 4> Parked;
  // The function being emitted (counting copies of device code): the
  // run-time address-space counter sets (their first counters) of generic
  // accesses in loops, and its calls in loops of twins returning such
  // counts, counted in local memory on a cold path
  // (CounterEmissionSpaces.cpp); each test's adds, moved behind its branch
  // once the rest of the counting code is in; the slots they add to.
  llvm::DenseSet<uint32_t> ColdSpaceSets;
  llvm::SmallPtrSet<const llvm::CallInst *, 4> ColdSpaceCalls;
  struct ColdSpaceCount {
    llvm::Value *Cold = nullptr;
    llvm::SmallVector<llvm::Instruction *, 16> Adds;
  };
  llvm::SmallVector<ColdSpaceCount, 4> ColdSpaceCounts;
  llvm::SmallVector<llvm::AllocaInst *, 8> ColdSpaceSlots;
  // The function being emitted: headers of the loops flushed on their back
  // edges (flushAtOuterBackEdges).
  llvm::SmallPtrSet<llvm::BasicBlock *, 4> FlushedHeaders;
  // The function being emitted (counting builds): bit counters whose block
  // one lane of a warp runs (oneLaneBlock), flushed by that lane alone.
  llvm::DenseSet<uint32_t> OneLane;
  // The function being emitted (counting builds): cold edges counted where
  // they are taken, not flushed.
  llvm::DenseSet<uint32_t> InPlace;
  // Counting builds: functions called in a kernel's crowded loop
  // (countManyWhereTaken), found when the kernel is emitted.
  llvm::SmallPtrSet<const llvm::Function *, 4> CrowdedCallees;
  // Host functions without optimization (optnone): the counts are kept in
  // a thread-local array instead of registers (keepCountsThreadLocal).
  bool ThreadLocalCounts = false;
  // Host functions with register counts: the counters of the blocks in no
  // cycle of the CFG (and the call counter), added to memory in their
  // block instead of a register (findHostOnceCounters).
  llvm::DenseSet<uint32_t> HostOnce;
  // The module's site rows by function and the counters its derived rows
  // name (module indices), for shareLikeCounters; IndexedSites and
  // IndexedDerived: the tables' sizes when they were made.
  llvm::DenseMap<uint32_t, llvm::SmallVector<uint32_t, 0>> SitesOfFunc;
  llvm::DenseSet<uint32_t> InDerivedRows;
  size_t IndexedSites = 0, IndexedDerived = 0;
};

// Keeps one of the two general paths that a kernel's exit flush of many
// groups emits (-pasta-flush-groups-out-of-line) in each function now in M:
// inline where the function's registers are capped (capped copies, launch
// bounds), out of line elsewhere. Run after every copy of the kernels is
// made.
void resolveRegisterCapChoices(llvm::Module &M);

} // namespace pasta

#endif
