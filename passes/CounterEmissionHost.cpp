//===- CounterEmissionHost.cpp - The counting code of host functions ------===//
//
// The host half of CounterEmitter (CounterEmission.h): where a host
// function's counts go to memory (every return and resume, and before
// every call that may leave the frame), what each flush point adds, and
// the thread-local counts of -O0 functions and very large ones.
//
//===----------------------------------------------------------------------===//
#include "CounterEmission.h"
#include "InstrumentationMD.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;
using namespace pasta;

#define DEBUG_TYPE "pasta"

static constexpr const char *HostFlushName = "__pasta_host_flush";
static constexpr const char *HostFlushGroupsName = "__pasta_host_flush_groups";

// Host functions' atomic adds (once the process has threads, and always in
// -O0 code) are inline up to this many counters at one flush point;
// beyond, through __pasta_host_flush. Plain adds are always inline.
static constexpr uint32_t HostInlineFlushLimit = 16;

// A function with many counters, kept thread-local
// (FunctionPlan::RangeFlushes): each flush point flushes the counters from
// the lowest to the highest one that may be non-zero there (adding a zero
// is harmless: the elements are the thread's and each flush resets what it
// covers), found by one forward pass over the blocks on ranges instead of a
// backward walk per flush point, which took points x blocks steps and, with
// a store per counter, as many instructions. A flush point with a range
// flushes, through __pasta_host_flush_groups, the groups of counters a
// mask says were touched since the last one (below).
void CounterEmitter::emitHostRangeFlushes(
    FunctionPlan &P, ArrayRef<AllocaInst *> Slots,
    ArrayRef<HostFlushPoint> Points,
    const SmallPtrSetImpl<BasicBlock *> &HasFlush) {
  struct Range {
    uint32_t Lo = UINT32_MAX, Hi = 0;
    bool empty() const { return Lo > Hi; }
    void add(uint32_t C) {
      Lo = std::min(Lo, C);
      Hi = std::max(Hi, C);
    }
    bool add(const Range &R) {
      bool Changed = R.Lo < Lo || R.Hi > Hi;
      Lo = std::min(Lo, R.Lo);
      Hi = std::max(Hi, R.Hi);
      return Changed;
    }
  };
  Function &F = *P.F;
  // What each block adds to (its counter, its sites' bytes counters, the
  // call counter at entry), and what may be non-zero when it is entered:
  // the union over its predecessors without a flush point of theirs.
  DenseMap<BasicBlock *, Range> Own, In;
  for (const CountedBlock &CB : P.Blocks) {
    Range &R = Own[CB.BB];
    if (CB.Measured)
      R.add(CB.Counter);
    for (uint32_t C : CB.BytesCounters)
      R.add(C);
  }
  Own[&F.getEntryBlock()].add(0);
  ReversePostOrderTraversal<Function *> RPO(&F);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (BasicBlock *BB : RPO)
      for (BasicBlock *Q : predecessors(BB))
        if (!HasFlush.count(Q)) {
          Range Out = In.lookup(Q);
          Out.add(Own.lookup(Q));
          Changed |= In[BB].add(Out);
        }
  }
  // Which counters are non-zero is also tracked as the function runs, in
  // 64 groups of consecutive counters: each counted block sets its
  // counters' group bits in a mask (one `or` in a register), and a flush
  // point flushes and resets the groups whose bits are set, then clears the
  // mask. The ranges above are what may be non-zero over every path; where
  // paths join (an interpreter's dispatch loop joins all its handlers) they
  // grow to nearly every counter, while the mask holds only the groups the
  // path taken since the last flush point touched: in lua's luaV_execute a
  // flush before each call tested and zeroed hundreds of counters.
  // Exactness is unchanged: every
  // counter added to since the last flush point is in a set group, and the
  // elements of a group's other counters are zero (the thread's, reset at
  // each flush).
  Type *I64 = Type::getInt64Ty(Ctx), *I32 = Type::getInt32Ty(Ctx);
  PointerType *Generic = PointerType::get(Ctx, 0);
  FunctionCallee Flush =
      M.getOrInsertFunction(HostFlushGroupsName, Type::getVoidTy(Ctx), Generic,
                            I32, Generic, I32, I64, I32);
  uint32_t Group = (P.NumCounters + 63) / 64;
  DenseMap<BasicBlock *, const CountedBlock *> CountedOf;
  for (const CountedBlock &CB : P.Blocks)
    CountedOf[CB.BB] = &CB;
  auto GroupBits = [&](BasicBlock *BB) {
    uint64_t Bits = 0;
    if (const CountedBlock *CB = CountedOf.lookup(BB)) {
      if (CB->Measured)
        Bits |= uint64_t(1) << (CB->Counter / Group);
      for (uint32_t C : CB->BytesCounters)
        Bits |= uint64_t(1) << (C / Group);
    }
    if (BB == &F.getEntryBlock())
      Bits |= 1; // the call counter, 0
    return Bits;
  };
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> EB(&Entry, Entry.getFirstInsertionPt());
  AllocaInst *Dirty = EB.CreateAlloca(I64, nullptr, "pasta.dirty");
  EB.CreateStore(EB.getInt64(GroupBits(&Entry)), Dirty);
  for (BasicBlock &BB : F) {
    uint64_t Bits = &BB == &Entry ? 0 : GroupBits(&BB);
    if (!Bits)
      continue;
    IRBuilder<> B(&BB, BB.getFirstInsertionPt());
    B.CreateStore(B.CreateOr(B.CreateLoad(I64, Dirty), Bits), Dirty);
  }
  for (const HostFlushPoint &Pt : Points) {
    if (Pt.AfterFlush) // the block's earlier flush point left nothing
      continue;
    BasicBlock *BB = Pt.At->getParent();
    Range R = In.lookup(BB);
    R.add(Own.lookup(BB));
    if (R.empty())
      continue;
    IRBuilder<> B(Pt.At);
    B.CreateCall(Flush, {T.Counters, B.getInt32(P.FirstCounter), Slots[0],
                         B.getInt32(P.NumCounters), B.CreateLoad(I64, Dirty),
                         B.getInt32(Group)});
    B.CreateStore(B.getInt64(0), Dirty);
  }
  // The CFG is final here (keepCountsThreadLocal only rewrites the
  // counters' uses): the mask becomes a register.
  DominatorTree DT(F);
  PromoteMemToReg({Dirty}, DT);
}

// Flush points in blocks reached from several others (returns, calls that
// may leave the frame) that would test more counters than this are
// flushed on each path into them instead, when that halves the tests.
static constexpr uint32_t HostSplitFlush = 4;

// The counters that may be non-zero at the end of BB: those of the blocks
// from which BB is reachable without passing a flush point (HasFlush), BB
// included, whose counter is certainly non-zero.
static SmallVector<CounterEmitter::HostDirty, 8>
dirtyAtEnd(BasicBlock *BB,
           const DenseMap<BasicBlock *, const CountedBlock *> &CountedOf,
           const SmallPtrSetImpl<BasicBlock *> &HasFlush, bool CallCertain,
           const DenseSet<uint32_t> &InMemory) {
  SmallVector<CounterEmitter::HostDirty, 8> D;
  BasicBlock *Entry = &BB->getParent()->getEntryBlock();
  SmallPtrSet<BasicBlock *, 32> Seen{BB};
  SmallVector<BasicBlock *, 32> Walk{BB};
  while (!Walk.empty()) {
    BasicBlock *X = Walk.pop_back_val();
    if (auto It = CountedOf.find(X); It != CountedOf.end()) {
      if (It->second->Measured && // else derived at read-back
          !InMemory.count(It->second->Counter))
        D.push_back({It->second->Counter, X == BB});
      for (uint32_t C : It->second->BytesCounters)
        D.push_back({C, false}); // a length may be zero
    }
    if (X == Entry && !InMemory.count(0))
      D.push_back({0, CallCertain});
    for (BasicBlock *Q : predecessors(X))
      if (!HasFlush.count(Q) && Seen.insert(Q).second)
        Walk.push_back(Q);
  }
  return D;
}

// A flush point in a block reached from several others flushes what every
// path to it may have counted: a return (clang merges a function's returns
// into one block) in a function whose paths count different blocks (a
// parser's cases), or a call that may leave the frame after a switch (the
// move of a std::variant). Most of those counters are zero on the path
// taken, yet each is tested, and each lives in a register (or a stack
// slot), its value merged by a phi, until the flush. When the flush would
// test more than HostSplitFlush counters, and a path into its block would
// test at most half as many on average, each path flushes its own at its
// end instead (in a block split into the edge when its block branches
// elsewhere too), and the flush point only its own block's: no path tests
// more, and a counter lives only along the paths that count it.
void CounterEmitter::flushOnPathsInto(
    FunctionPlan &P,
    const DenseMap<BasicBlock *, const CountedBlock *> &CountedOf,
    SmallVectorImpl<HostFlushPoint> &Points,
    SmallPtrSetImpl<BasicBlock *> &HasFlush,
    SmallPtrSetImpl<Instruction *> &OnPath) {
  SmallVector<BasicBlock *, 8> Targets; // returns, blocks with such a call
  for (BasicBlock &BB : *P.F)
    if (HasFlush.count(&BB) || isa<ReturnInst>(BB.getTerminator()))
      Targets.push_back(&BB);
  for (BasicBlock *R : Targets) {
    SmallSetVector<BasicBlock *, 8> Preds(pred_begin(R), pred_end(R));
    if (Preds.size() < 2 || any_of(Preds, [](BasicBlock *Q) {
          return !isa<BranchInst, SwitchInst, InvokeInst>(Q->getTerminator());
        }))
      continue;
    size_t AtPoint = dirtyAtEnd(R, CountedOf, HasFlush, false, HostOnce).size();
    if (AtPoint <= HostSplitFlush)
      continue;
    // Worth it when a path tests at most half as many, on average.
    size_t OnPaths = 0;
    for (BasicBlock *Q : Preds)
      if (!HasFlush.count(Q))
        OnPaths += dirtyAtEnd(Q, CountedOf, HasFlush, false, HostOnce).size();
    if (2 * OnPaths > AtPoint * Preds.size())
      continue;
    for (BasicBlock *Q : Preds) {
      if (HasFlush.count(Q)) // a call that may leave ends it: nothing after
        continue;
      BasicBlock *At = Q;
      if (Q->getSingleSuccessor() != R) {
        auto Options = CriticalEdgeSplittingOptions().setMergeIdenticalEdges();
        At = SplitKnownCriticalEdge(Q->getTerminator(),
                                    GetSuccessorNumber(Q, R), Options);
        if (!At)
          continue;
        markInstrumentation(At->getTerminator());
      }
      Points.push_back({At->getTerminator(), false});
      HasFlush.insert(At);
      OnPath.insert(At->getTerminator());
    }
  }
}

// Host counts are kept in registers and flushed, with atomic adds, before
// every call that may leave the frame without returning to it (mayLeaveFrame)
// and at every return and resume; a flush before a call resets what it
// flushed to zero. So whatever ends a frame's life (a return, an exception
// unwinding it with or without a landing pad, longjmp, exit() or
// pthread_exit below it, a fork's child starting from zero), every count of
// that frame is in memory by then, exactly once.
//
// A flush point flushes only the counters that may be non-zero there: those
// of the blocks from which it is reachable without passing another flush
// point (a block's counter is incremented at its top, so a block holding a
// flush point never contributes past it), and the call counter while no
// flush may have happened since entry.
void CounterEmitter::emitHostFlushes(FunctionPlan &P,
                                     ArrayRef<AllocaInst *> Slots) {
  Function &F = *P.F;
  SmallVector<HostFlushPoint, 16> Points;
  SmallPtrSet<BasicBlock *, 16> HasFlush;
  for (BasicBlock &BB : F) {
    bool Seen = false;
    for (Instruction &I : BB) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (CB && mayLeaveFrame(*CB)) {
        Points.push_back({&I, Seen});
        Seen = true;
        HasFlush.insert(&BB);
      } else if (isa<ReturnInst, ResumeInst>(&I)) {
        Points.push_back({&I, Seen});
      }
    }
  }
  // Each block's counter and its sites' bytes counters (added to before
  // any flush point in the block: a call that may leave the frame ends it).
  DenseMap<BasicBlock *, const CountedBlock *> CountedOf;
  for (const CountedBlock &CB : P.Blocks)
    CountedOf[CB.BB] = &CB;
  // Flush points on the paths into another: they reset what they flush.
  SmallPtrSet<Instruction *, 16> OnPath;
  if (!ThreadLocalCounts)
    flushOnPathsInto(P, CountedOf, Points, HasFlush, OnPath);

  // Blocks that may be entered after some flush point ran.
  SmallPtrSet<BasicBlock *, 32> Reflushed;
  SmallVector<BasicBlock *, 32> Work;
  for (BasicBlock *BB : HasFlush)
    for (BasicBlock *S : successors(BB))
      if (Reflushed.insert(S).second)
        Work.push_back(S);
  while (!Work.empty())
    for (BasicBlock *S : successors(Work.pop_back_val()))
      if (Reflushed.insert(S).second)
        Work.push_back(S);

  if (P.RangeFlushes)
    return emitHostRangeFlushes(P, Slots, Points, HasFlush);

  SmallVector<std::pair<HostFlushPoint, SmallVector<HostDirty, 8>>, 16> Plan;
  for (const HostFlushPoint &Pt : Points) {
    SmallVector<HostDirty, 8> D;
    BasicBlock *BB = Pt.At->getParent();
    if (!Pt.AfterFlush)
      D = dirtyAtEnd(BB, CountedOf, HasFlush, !Reflushed.count(BB), HostOnce);
    Plan.push_back({Pt, std::move(D)});
  }

  Type *I64 = Type::getInt64Ty(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx);
  for (auto &[Pt, D] : Plan) {
    if (D.empty())
      continue;
    llvm::sort(D, [](const HostDirty &A, const HostDirty &B) {
      return A.Counter < B.Counter;
    });
    Instruction *At = Pt.At;
    bool IsCall = isa<CallBase>(At);
    if (!ThreadLocalCounts) {
      emitHostAdds(P, Slots, D, At);
    } else if (D.size() <= HostInlineFlushLimit) {
      for (const HostDirty &C : D) {
        IRBuilder<> B(At);
        Value *V = B.CreateLoad(I64, Slots[C.Counter]);
        Value *Ptr = B.CreateConstInBoundsGEP1_32(I64, T.Counters,
                                                  P.FirstCounter + C.Counter);
        // Thread-local counts (-O0) are added even when zero: a test would
        // split the block, and every value of the program's that crosses
        // the split would take a stack slot of its own.
        B.CreateAtomicRMW(AtomicRMWInst::Add, Ptr, V, Align(8),
                          AtomicOrdering::Monotonic);
      }
    } else {
      // The thread-local elements of the counters from the lowest to the
      // highest one that may be non-zero themselves, no staging copy on the
      // stack (keepCountsThreadLocal turns Slots[Lo] into the address of
      // element Lo, followed by the others), through one call, then reset
      // by one memset (a store each made a flush point's code grow with the
      // counters before it: quadratic in a big function whose flush points
      // see most of its counters).
      uint32_t Lo = D.front().Counter, Hi = D.back().Counter;
      IRBuilder<> B(At);
      PointerType *Generic = PointerType::get(Ctx, 0);
      FunctionCallee Flush = M.getOrInsertFunction(HostFlushName, B.getVoidTy(),
                                                   Generic, I32, Generic, I32);
      B.CreateCall(Flush, {T.Counters, B.getInt32(P.FirstCounter + Lo),
                           Slots[Lo], B.getInt32(Hi - Lo + 1)});
      B.CreateMemSet(Slots[Lo], B.getInt8(0), uint64_t(Hi - Lo + 1) * 8,
                     Align(8));
      continue;
    }
    // Thread-local counts outlive the frame: a return resets them too.
    if (IsCall || ThreadLocalCounts || OnPath.count(At)) {
      IRBuilder<> B(At);
      for (const HostDirty &C : D)
        B.CreateStore(ConstantInt::get(I64, 0), Slots[C.Counter]);
    }
  }
}

// Splits the block before At on glibc's __libc_single_threaded (declared
// in M where it is not yet): the first instruction of the side that runs
// while the process has one thread, and of the other side. The branch is
// PASTA's.
static std::pair<Instruction *, Instruction *>
splitOnSingleThreaded(Module &M, Instruction *At) {
  Type *I8 = Type::getInt8Ty(M.getContext());
  GlobalVariable *Single = M.getGlobalVariable("__libc_single_threaded");
  if (!Single)
    Single = new GlobalVariable(M, I8, false, GlobalValue::ExternalLinkage,
                                nullptr, "__libc_single_threaded");
  IRBuilder<> B(At);
  Value *One =
      B.CreateICmpNE(B.CreateLoad(I8, Single), ConstantInt::get(I8, 0));
  Instruction *Plain = nullptr, *Atomic = nullptr;
  SplitBlockAndInsertIfThenElse(One, At->getIterator(), &Plain, &Atomic);
  markInstrumentation(
      Plain->getParent()->getSinglePredecessor()->getTerminator());
  return {Plain, Atomic};
}

// The adds of one host flush point before `At`: the function's counters
// D, each certainly non-zero when NonZero (else added only when it is not
// zero: a count is zero at most flush points of a loop or a recursion, and
// even a plain add of zero would chain every call through one memory
// word). While the process has one thread (glibc's __libc_single_threaded,
// which turns false before a second thread exists and stays so) the adds
// are plain and inline, a test and an add each; otherwise relaxed atomic
// adds, inline up to HostInlineFlushLimit counters, else staged on the
// stack for one call of __pasta_host_flush (code that runs only once the
// process has threads, where a lock-prefixed add costs about 20 cycles,
// as much as a small function: docs/performance.md, "Host-code counting").
void CounterEmitter::emitHostAdds(FunctionPlan &P, ArrayRef<AllocaInst *> Slots,
                                  ArrayRef<HostDirty> D, Instruction *At) {
  Type *I64 = Type::getInt64Ty(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx);
  auto EmitAdds = [&](Instruction *Before, bool Atomic) {
    for (const HostDirty &C : D) {
      IRBuilder<> B(Before);
      Value *V = B.CreateLoad(I64, Slots[C.Counter]);
      Value *Ptr = B.CreateConstInBoundsGEP1_32(I64, T.Counters,
                                                P.FirstCounter + C.Counter);
      if (!C.NonZero) {
        Instruction *Then = SplitBlockAndInsertIfThen(
            B.CreateICmpNE(V, ConstantInt::get(I64, 0)), Before->getIterator(),
            false);
        markInstrumentation(
            Then->getParent()->getSinglePredecessor()->getTerminator());
        B.SetInsertPoint(Then);
      }
      if (Atomic)
        B.CreateAtomicRMW(AtomicRMWInst::Add, Ptr, V, Align(8),
                          AtomicOrdering::Monotonic);
      else
        B.CreateStore(B.CreateAdd(B.CreateLoad(I64, Ptr), V), Ptr);
    }
  };
  // The counters from the lowest to the highest one that may be non-zero,
  // staged (zero where they cannot be), then one call.
  auto EmitStaged = [&](Instruction *Before) {
    uint32_t Lo = D.front().Counter, Hi = D.back().Counter;
    IRBuilder<> B(Before);
    PointerType *Generic = PointerType::get(Ctx, 0);
    FunctionCallee Flush = M.getOrInsertFunction(HostFlushName, B.getVoidTy(),
                                                 Generic, I32, Generic, I32);
    AllocaInst *Staging = staging(P, P.NumCounters);
    size_t K = 0;
    for (uint32_t I = Lo; I <= Hi; ++I) {
      Value *V = ConstantInt::get(I64, 0);
      if (K < D.size() && D[K].Counter == I) {
        V = B.CreateLoad(I64, Slots[I]);
        ++K;
      }
      B.CreateStore(V, B.CreateConstInBoundsGEP2_32(Staging->getAllocatedType(),
                                                    Staging, 0, I - Lo));
    }
    B.CreateCall(Flush, {T.Counters, B.getInt32(P.FirstCounter + Lo),
                         B.CreatePointerCast(Staging, Generic),
                         B.getInt32(Hi - Lo + 1)});
  };
  auto EmitAtomic = [&](Instruction *Before) {
    if (D.size() <= HostInlineFlushLimit)
      EmitAdds(Before, true);
    else
      EmitStaged(Before);
  };
  const Triple TT(M.getTargetTriple());
  if (!TT.isOSLinux() || !TT.isGNUEnvironment()) {
    EmitAtomic(At);
    return;
  }
  auto [Plain, Atomic] = splitOnSingleThreaded(M, At);
  EmitAdds(Plain, false);
  EmitAtomic(Atomic);
}

// Host functions built without optimization (optnone, -O0): the counts
// live in a thread-local array of the function's, not in registers. At -O0
// every value that crosses a block boundary gets a stack slot of its own, so
// register counts grew each frame by 8 bytes or more per counter (and deep
// recursion that ran plainly overflowed the stack); memory the thread owns
// costs the frame nothing. Counts are sums: activations of the same
// function on one thread (recursion) add into the same elements, each flush
// moves what is there to the module's counters and resets it, and every
// increment is followed by a flush of its counter before the frame can be
// left (emitHostFlushes), so each count is flushed once. Each use of a
// register becomes an address computed where it is used.
void CounterEmitter::keepCountsThreadLocal(Function &F,
                                           ArrayRef<AllocaInst *> Registers) {
  Type *I64 = Type::getInt64Ty(Ctx);
  auto *Ty = ArrayType::get(I64, Registers.size());
  auto *Counts = new GlobalVariable(M, Ty, false, GlobalValue::InternalLinkage,
                                    ConstantAggregateZero::get(Ty),
                                    "__pasta_tls." + F.getName(), nullptr,
                                    GlobalValue::GeneralDynamicTLSModel);
  Counts->setDSOLocal(true); // local-exec in executables, local-dynamic in PIC
  Counts->setAlignment(Align(8));
  DenseMap<AllocaInst *, unsigned> Index;
  for (size_t R = 0; R < Registers.size(); ++R) {
    assert(Registers[R]->getAllocatedType() == I64 && "host counts are 64-bit");
    Index[Registers[R]] = R;
  }
  // In an executable the address is folded into each access (%fs:offset):
  // it is computed at each use. In a shared library it is a call to
  // __tls_get_addr: computed once for the uses that follow in the block up
  // to a call (kept across a call, it would take a stack slot).
  bool Shared = M.getPICLevel() != PICLevel::NotPIC &&
                M.getPIELevel() == PIELevel::Default;
  for (BasicBlock &BB : F) {
    Value *Base = nullptr;
    for (Instruction &I : BB) {
      for (Use &U : I.operands()) {
        auto *A = dyn_cast<AllocaInst>(U.get());
        auto It = A ? Index.find(A) : Index.end();
        if (It == Index.end())
          continue;
        IRBuilder<> B(&I);
        if (!Base || !Shared)
          Base = B.CreateThreadLocalAddress(Counts);
        U.set(B.CreateConstInBoundsGEP2_32(Ty, Base, 0, It->second));
      }
      if (isa<CallBase>(I) && !isa<IntrinsicInst>(I))
        Base = nullptr;
    }
  }
  for (AllocaInst *A : Registers)
    A->eraseFromParent();
}

static cl::opt<bool> HostOnceInMemory(
    "pasta-host-once-in-memory",
    cl::desc("PASTA: host functions with register counts add the counters "
             "of blocks in no cycle to memory in the block (to compare)"),
    cl::init(true), cl::Hidden);

// A block in no cycle of the CFG runs at most once per call. In a host
// function with register counts, its counter (and the call counter, the
// entry's) is added to memory in the block, a test of
// __libc_single_threaded and one add, instead of living in a register until
// the next flush point tests it: in a small function called in a loop
// (lua's lua_compare, once per comparison of table.sort) the flush point
// before its call that may leave tested a register per block of the paths
// into it, all kept in callee-saved registers or stack slots. Exactness
// is unchanged: the add runs in the block, before any flush point of it,
// so whatever ends the frame finds it in memory, once. Thread-local counts
// (-O0, range flushes) are left as they are.
void CounterEmitter::findHostOnceCounters(const FunctionPlan &P) {
  HostOnce.clear();
  if (T.Target != PASTA_TARGET_HOST || P.ThreadLocalCounts || !HostOnceInMemory)
    return;
  DenseSet<BasicBlock *> InCycle;
  for (scc_iterator<Function *> I = scc_begin(P.F); !I.isAtEnd(); ++I)
    if (I.hasCycle())
      InCycle.insert(I->begin(), I->end());
  HostOnce.insert(0);
  for (const CountedBlock &CB : P.Blocks)
    if (CB.Measured && !InCycle.count(CB.BB))
      HostOnce.insert(CB.Counter);
}

// The adds of findHostOnceCounters' counters, in their block before its
// first call that may leave the frame (a `setjmp` returns twice, a
// `longjmp` never), else before its terminator (emitHostFlushes split a
// block before a flush point with something to flush: the start, up to
// there, is the block still); plain while the process has one thread (as
// emitHostAdds), else relaxed atomic.
void CounterEmitter::emitHostOnceIncrements(FunctionPlan &P) {
  if (HostOnce.empty())
    return;
  DenseMap<uint32_t, BasicBlock *> BlockOf;
  BlockOf[0] = &P.F->getEntryBlock();
  for (const CountedBlock &CB : P.Blocks)
    if (HostOnce.count(CB.Counter))
      BlockOf[CB.Counter] = CB.BB;
  SmallVector<uint32_t, 16> Order(HostOnce.begin(), HostOnce.end());
  llvm::sort(Order);
  Type *I64 = Type::getInt64Ty(Ctx);
  const Triple TT(M.getTargetTriple());
  bool Glibc = TT.isOSLinux() && TT.isGNUEnvironment();
  for (uint32_t C : Order) {
    Instruction *At = BlockOf[C]->getTerminator();
    for (Instruction &I : *BlockOf[C])
      if (auto *CB = dyn_cast<CallBase>(&I); CB && mayLeaveFrame(*CB)) {
        At = CB;
        break;
      }
    IRBuilder<> B(At);
    Value *Ptr =
        B.CreateConstInBoundsGEP1_32(I64, T.Counters, P.FirstCounter + C);
    Value *One = ConstantInt::get(I64, 1);
    if (!Glibc) {
      B.CreateAtomicRMW(AtomicRMWInst::Add, Ptr, One, Align(8),
                        AtomicOrdering::Monotonic);
      continue;
    }
    auto [Plain, Atomic] = splitOnSingleThreaded(M, At);
    B.SetInsertPoint(Plain);
    B.CreateStore(B.CreateAdd(B.CreateLoad(I64, Ptr), One), Ptr);
    B.SetInsertPoint(Atomic);
    B.CreateAtomicRMW(AtomicRMWInst::Add, Ptr, One, Align(8),
                      AtomicOrdering::Monotonic);
  }
}
