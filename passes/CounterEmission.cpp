//===- CounterEmission.cpp - The counting code of planned functions -------===//
//
// See CounterEmission.h.
//
//===----------------------------------------------------------------------===//
#include "CounterEmission.h"
#include "DeviceRuntime.h"
#include "InstrumentationMD.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;
using namespace pasta;

#define DEBUG_TYPE "pasta"

STATISTIC(NumFunctions, "Functions instrumented");
STATISTIC(NumGenericAccesses, "Generic accesses resolved at run time");

static constexpr const char *HostFlushName = "__pasta_host_flush";

void CounterEmitter::emitGenericCounting(IRBuilder<> &B, const GenericSite &G,
                                         ArrayRef<AllocaInst *> Slots) {
  ++NumGenericAccesses;
  Type *I64 = B.getInt64Ty();
  FunctionCallee IsShared =
      M.getOrInsertFunction("__pasta_is_shared", I64, PointerType::get(Ctx, 0));
  FunctionCallee IsLocal =
      M.getOrInsertFunction("__pasta_is_local", I64, PointerType::get(Ctx, 0));
  Value *Ptr = G.What.Pointer;
  Value *Shared = B.CreateCall(IsShared, {Ptr});
  Value *Local = B.CreateCall(IsLocal, {Ptr});
  uint32_t Base =
      G.Dyn + (G.What.IsStore ? PASTA_DYN_ST_SHARED : PASTA_DYN_LD_SHARED);
  auto Add = [&](uint32_t Slot, Value *V) {
    Value *Old = B.CreateLoad(I64, Slots[Slot]);
    B.CreateStore(B.CreateAdd(Old, V), Slots[Slot]);
  };
  Value *Bytes = ConstantInt::get(I64, G.What.Bytes);
  Add(Base + 0, Shared);
  Add(Base + 1, B.CreateMul(Shared, Bytes));
  Add(Base + 2, Local);
  Add(Base + 3, B.CreateMul(Local, Bytes));
}

// Functions with at most this many counters flush each counter inline, in
// registers; larger ones stage their counts in local memory and call
// __pasta_flush once, to keep code size bounded.
static constexpr uint32_t InlineFlushLimit = 32;

// The local counters that can be non-zero when the function leaves through
// Exit: the call counter (not for kernels, whose launches are counted at
// entry), and those of blocks from which Exit is reachable (a block that
// cannot reach Exit never ran on a path that ends there).
static SmallVector<uint32_t, 16> liveCounters(const FunctionPlan &P,
                                              BasicBlock *Exit) {
  SmallPtrSet<BasicBlock *, 32> Reaching{Exit};
  SmallVector<BasicBlock *, 32> Work{Exit};
  while (!Work.empty())
    for (BasicBlock *Pred : predecessors(Work.pop_back_val()))
      if (Reaching.insert(Pred).second)
        Work.push_back(Pred);
  SmallVector<uint32_t, 16> Live;
  if (P.Kind != PASTA_FUNC_KERNEL)
    Live.push_back(0);
  for (const CountedBlock &CB : P.Blocks) {
    if (!Reaching.count(CB.BB))
      continue;
    Live.push_back(CB.Counter);
    for (uint32_t Dyn : CB.DynCounters)
      for (uint32_t I = 0; I < PASTA_DYN_NUM; ++I)
        Live.push_back(Dyn + I);
  }
  return Live;
}

// Inline device flush of the counters live at Exit. One test picks the fast
// path for the usual case, a full warp whose counts are all small: then each
// counter costs one warp sum and, if non-zero, one `red` by lane 0. The
// general path handles partial warps and large counts.
void CounterEmitter::emitInlineFlush(Instruction *Exit, FunctionPlan &P,
                                     ArrayRef<AllocaInst *> Slots) {
  IRBuilder<> B(Exit);
  Type *I64 = B.getInt64Ty(), *I32 = B.getInt32Ty();
  PointerType *Global = PointerType::get(Ctx, 1);
  SmallVector<uint32_t, 16> Live = liveCounters(P, Exit->getParent());
  if (Live.empty())
    return; // nothing counted on any path to this return
  SmallVector<Value *, 16> Values;
  Value *Any = nullptr;
  for (uint32_t I : Live) {
    Values.push_back(B.CreateLoad(I64, Slots[I]));
    Any = Any ? B.CreateOr(Any, Values.back()) : Values.back();
  }
  FunctionCallee Row =
      M.getOrInsertFunction(BankRowName, Global, Global, I32, I32);
  Value *Base = B.CreateCall(
      Row, {T.Counters, B.getInt32(T.NumCounters), B.getInt32(T.numBanks())});
  FunctionCallee IsFast = M.getOrInsertFunction(FlushIsFastName, I64, I64);
  Value *Fast = B.CreateICmpNE(B.CreateCall(IsFast, {Any}), B.getInt64(0));
  Instruction *FastT, *SlowT;
  SplitBlockAndInsertIfThenElse(Fast, Exit->getIterator(), &FastT, &SlowT);
  markInstrumentation(
      FastT->getParent()->getSinglePredecessor()->getTerminator());
  // The run-time address-space counters of a site come in groups of
  // PASTA_DYN_NUM that are almost always all zero: one test skips a group.
  static_assert(PASTA_DYN_NUM == 8, "the group flush takes 8 values");
  DenseSet<uint32_t> GroupStarts;
  for (const CountedBlock &CB : P.Blocks)
    GroupStarts.insert(CB.DynCounters.begin(), CB.DynCounters.end());
  auto FlushAll = [&](Instruction *At, const char *One, const char *Group) {
    IRBuilder<> FB(At);
    FunctionCallee FlushOne =
        M.getOrInsertFunction(One, FB.getVoidTy(), Global, I64);
    SmallVector<Type *, 9> GroupArgs{Global};
    GroupArgs.append(PASTA_DYN_NUM, I64);
    FunctionCallee FlushGroup = M.getOrInsertFunction(
        Group, FunctionType::get(FB.getVoidTy(), GroupArgs, false));
    for (size_t K = 0; K < Live.size(); ++K) {
      Value *Slot =
          FB.CreateConstInBoundsGEP1_32(I64, Base, P.FirstCounter + Live[K]);
      if (!GroupStarts.count(Live[K])) {
        FB.CreateCall(FlushOne, {Slot, Values[K]});
        continue;
      }
      SmallVector<Value *, 9> Args{Slot};
      Args.append(Values.begin() + K, Values.begin() + K + PASTA_DYN_NUM);
      FB.CreateCall(FlushGroup, Args);
      K += PASTA_DYN_NUM - 1;
    }
  };
  FlushAll(FastT, FlushCounterFastName, FlushGroupFastName);
  FlushAll(SlowT, FlushCounterName, FlushGroupName);
}

// Device functions only (host ones: emitHostFlushes).
void CounterEmitter::emitFlush(Instruction *Exit, FunctionPlan &P,
                               ArrayRef<AllocaInst *> Slots) {
  if (P.NumCounters <= InlineFlushLimit)
    return emitInlineFlush(Exit, P, Slots);

  IRBuilder<> B(Exit);
  Type *I64 = B.getInt64Ty();
  Type *I32 = B.getInt32Ty();
  PointerType *Generic = PointerType::get(Ctx, 0);
  PointerType *Global = PointerType::get(Ctx, 1);
  Value *First = ConstantInt::get(I32, P.FirstCounter);
  Value *N = ConstantInt::get(I32, P.NumCounters);
  auto LoadCount = [&](uint32_t I) { return B.CreateLoad(I64, Slots[I]); };

  // Out of line: stage the counts, then one call.
  if (!P.Staging) {
    IRBuilder<> EntryB(&*P.F->getEntryBlock().getFirstInsertionPt());
    P.Staging = EntryB.CreateAlloca(ArrayType::get(I64, P.NumCounters),
                                    M.getDataLayout().getAllocaAddrSpace(),
                                    nullptr, "pasta.flush");
  }
  AllocaInst *Staging = P.Staging;
  for (uint32_t I = 0; I < P.NumCounters; ++I)
    B.CreateStore(LoadCount(I),
                  B.CreateConstInBoundsGEP2_32(Staging->getAllocatedType(),
                                               Staging, 0, I));
  Value *StagingGeneric = B.CreatePointerCast(Staging, Generic);
  FunctionCallee Flush = M.getOrInsertFunction(
      DeviceFlushName, B.getVoidTy(), Global, I32, I32, I32, Generic, I32);
  B.CreateCall(Flush, {T.Counters, B.getInt32(T.NumCounters),
                       B.getInt32(T.numBanks()), First, StagingGeneric, N});
}

// Host functions flush inline, one atomic add per counter, up to this many
// counters at one flush point; beyond, through __pasta_host_flush.
static constexpr uint32_t HostInlineFlushLimit = 16;

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
  struct Point {
    Instruction *At;
    bool AfterFlush; // an earlier flush point in the same block
  };
  SmallVector<Point, 16> Points;
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

  DenseMap<BasicBlock *, uint32_t> CounterOf;
  for (const CountedBlock &CB : P.Blocks)
    CounterOf[CB.BB] = CB.Counter;
  BasicBlock *Entry = &F.getEntryBlock();

  struct Dirty {
    uint32_t Counter;
    bool NonZero; // certainly non-zero here: no test needed
  };
  SmallVector<std::pair<Point, SmallVector<Dirty, 8>>, 16> Plan;
  for (const Point &Pt : Points) {
    SmallVector<Dirty, 8> D;
    BasicBlock *BB = Pt.At->getParent();
    if (!Pt.AfterFlush) {
      bool CallCertain = !Reflushed.count(BB);
      SmallPtrSet<BasicBlock *, 32> Seen{BB};
      SmallVector<BasicBlock *, 32> Walk{BB};
      while (!Walk.empty()) {
        BasicBlock *X = Walk.pop_back_val();
        if (auto It = CounterOf.find(X); It != CounterOf.end())
          D.push_back({It->second, X == BB});
        if (X == Entry)
          D.push_back({0, CallCertain});
        for (BasicBlock *Q : predecessors(X))
          if (!HasFlush.count(Q) && Seen.insert(Q).second)
            Walk.push_back(Q);
      }
    }
    Plan.push_back({Pt, std::move(D)});
  }

  Type *I64 = Type::getInt64Ty(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx);
  for (auto &[Pt, D] : Plan) {
    if (D.empty())
      continue;
    llvm::sort(D, [](const Dirty &A, const Dirty &B) {
      return A.Counter < B.Counter;
    });
    Instruction *At = Pt.At;
    bool IsCall = isa<CallBase>(At);
    if (D.size() <= HostInlineFlushLimit) {
      for (const Dirty &C : D) {
        IRBuilder<> B(At);
        Value *V = B.CreateLoad(I64, Slots[C.Counter]);
        Value *Ptr = B.CreateConstInBoundsGEP1_32(I64, T.Counters,
                                                  P.FirstCounter + C.Counter);
        if (!C.NonZero) {
          Instruction *Then = SplitBlockAndInsertIfThen(
              B.CreateICmpNE(V, ConstantInt::get(I64, 0)), At->getIterator(),
              false);
          markInstrumentation(
              Then->getParent()->getSinglePredecessor()->getTerminator());
          B.SetInsertPoint(Then);
        }
        B.CreateAtomicRMW(AtomicRMWInst::Add, Ptr, V, Align(8),
                          AtomicOrdering::Monotonic);
      }
    } else {
      // Out of line: the counters from the lowest to the highest one that
      // may be non-zero, staged (zero where they cannot be), then one call.
      uint32_t Lo = D.front().Counter, Hi = D.back().Counter;
      IRBuilder<> B(At);
      if (!P.Staging) {
        IRBuilder<> EntryB(&*Entry->getFirstInsertionPt());
        P.Staging = EntryB.CreateAlloca(ArrayType::get(I64, P.NumCounters),
                                        M.getDataLayout().getAllocaAddrSpace(),
                                        nullptr, "pasta.flush");
      }
      size_t K = 0;
      for (uint32_t I = Lo; I <= Hi; ++I) {
        Value *V = ConstantInt::get(I64, 0);
        if (K < D.size() && D[K].Counter == I) {
          V = B.CreateLoad(I64, Slots[I]);
          ++K;
        }
        B.CreateStore(
            V, B.CreateConstInBoundsGEP2_32(P.Staging->getAllocatedType(),
                                            P.Staging, 0, I - Lo));
      }
      PointerType *Generic = PointerType::get(Ctx, 0);
      FunctionCallee Flush = M.getOrInsertFunction(HostFlushName, B.getVoidTy(),
                                                   Generic, I32, Generic, I32);
      B.CreateCall(Flush, {T.Counters, B.getInt32(P.FirstCounter + Lo),
                           B.CreatePointerCast(P.Staging, Generic),
                           B.getInt32(Hi - Lo + 1)});
    }
    if (IsCall) {
      IRBuilder<> B(At);
      for (const Dirty &C : D)
        B.CreateStore(ConstantInt::get(I64, 0), Slots[C.Counter]);
    }
  }
}

void CounterEmitter::emit(FunctionPlan &P) {
  Function &F = *P.F;
  Type *I64 = Type::getInt64Ty(Ctx);
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  unsigned AllocaAS = M.getDataLayout().getAllocaAddrSpace();

  SmallVector<AllocaInst *, 16> Slots;
  for (uint32_t I = 0; I < P.NumCounters; ++I)
    Slots.push_back(B.CreateAlloca(I64, AllocaAS, nullptr, "pasta.count"));
  // A launch is counted once, at entry, by the first thread of the grid (so
  // the launch counter costs nothing at exit); other functions count calls
  // per thread. The entry block runs exactly once per call: its counter
  // starts at 1.
  SmallVector<Value *, 16> Initial(P.NumCounters, ConstantInt::get(I64, 0));
  if (P.Kind == PASTA_FUNC_KERNEL)
    B.CreateCall(
        M.getOrInsertFunction(CountLaunchName, B.getVoidTy(),
                              PointerType::get(Ctx, 1)),
        {B.CreateConstInBoundsGEP1_32(I64, T.Counters, P.FirstCounter)});
  else
    Initial[0] = ConstantInt::get(I64, 1);
  for (CountedBlock &CB : P.Blocks)
    if (CB.BB == &Entry)
      Initial[CB.Counter] = ConstantInt::get(I64, 1);
  for (uint32_t I = 0; I < P.NumCounters; ++I)
    B.CreateStore(Initial[I], Slots[I]);

  for (CountedBlock &CB : P.Blocks) {
    if (CB.BB != &Entry) {
      B.SetInsertPoint(CB.BB, CB.BB->getFirstInsertionPt());
      Value *Old = B.CreateLoad(I64, Slots[CB.Counter]);
      B.CreateStore(B.CreateAdd(Old, ConstantInt::get(I64, 1)),
                    Slots[CB.Counter]);
    }
    for (const GenericSite &G : CB.Generic) {
      B.SetInsertPoint(G.Access);
      emitGenericCounting(B, G, Slots);
    }
  }

  if (T.Target == PASTA_TARGET_HOST) {
    emitHostFlushes(P, Slots);
  } else {
    SmallVector<Instruction *, 4> Exits;
    for (BasicBlock &BB : F)
      if (isa<ReturnInst, ResumeInst>(BB.getTerminator()))
        Exits.push_back(BB.getTerminator());
    for (Instruction *Exit : Exits)
      emitFlush(Exit, P, Slots);
  }

  // The counting code changed the CFG: the dominator tree mem2reg needs is
  // computed afresh (and stays valid: mem2reg keeps the CFG).
  FAM.invalidate(F, PreservedAnalyses::none());
  PromoteMemToReg(Slots, FAM.getResult<DominatorTreeAnalysis>(F));
  ++NumFunctions;
}
