//===- Scopes.cpp - Control-flow scopes of a function (C.A.T.S.) ----------===//
//
// See Scopes.h.
//
//===----------------------------------------------------------------------===//
#include "Scopes.h"
#include "InstrumentationMD.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

#include <algorithm>
#include <map>

using namespace llvm;
using namespace pasta;

#define DEBUG_TYPE "pasta"

STATISTIC(NumScopes, "Control-flow scopes recorded (trace mode)");
STATISTIC(NumScopeEdgesSplit, "Edges split to enter or leave a scope");

static void locate(Scope &S, const DILocation *Loc) {
  if (!Loc || !Loc->getLine())
    return;
  S.Line = Loc->getLine();
  S.Col = Loc->getColumn();
  S.Dir = Loc->getDirectory();
  S.File = Loc->getFilename();
}

static void locate(Scope &S, const Instruction *I) {
  if (I)
    locate(S, I->getDebugLoc().get());
}

FunctionScopes::FunctionScopes(Function &F, FunctionAnalysisManager &FAM,
                               bool IsKernel, StringRef StableName)
    : F(F), FAM(FAM), DT(FAM.getResult<DominatorTreeAnalysis>(F)),
      PDT(FAM.getResult<PostDominatorTreeAnalysis>(F)),
      LI(FAM.getResult<LoopAnalysis>(F)) {
  Scope Fn;
  Fn.Kind = IsKernel ? PASTA_SCOPE_PARALLEL : PASTA_SCOPE_FUNC;
  Fn.Head = &F.getEntryBlock();
  if (DISubprogram *SP = F.getSubprogram())
    Fn.Line = SP->getLine();
  for (BasicBlock &BB : F)
    Fn.Blocks.insert(&BB);
  Scopes.push_back(std::move(Fn));
  for (Loop *L : LI)
    addLoops(L);
  for (BasicBlock &BB : F)
    addConditional(&BB);
  linkParents();
  assignIds(StableName);
}

void FunctionScopes::addLoops(Loop *L) {
  Scope S;
  S.Kind = PASTA_SCOPE_LOOP;
  S.Head = L->getHeader();
  S.L = L;
  S.LoopDepth = L->getLoopDepth();
  locate(S, &*S.Head->getFirstNonPHIOrDbgOrAlloca());
  if (DebugLoc DL = L->getStartLoc(); DL)
    locate(S, DL.get());
  for (BasicBlock *BB : L->blocks())
    S.Blocks.insert(BB);
  // Edges that cannot take a block of their own (into exception pads,
  // from indirect branches) leave the loop unmatched: not a scope.
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 4> Exits;
  L->getExitEdges(Exits);
  bool Splittable = llvm::none_of(Exits, [](auto E) {
    return E.second->isEHPad() || isa<IndirectBrInst>(E.first->getTerminator());
  });
  if (S.Head->isEHPad())
    Splittable = false; // its entering edges cannot take a block either
  for (BasicBlock *P : predecessors(S.Head))
    if (!L->contains(P) && isa<IndirectBrInst>(P->getTerminator()))
      Splittable = false;
  if (Splittable)
    Scopes.push_back(std::move(S));
  for (Loop *Sub : *L)
    addLoops(Sub);
}

// A branch whose region stays inside its loop and reaches its immediate
// post-dominator on every path (see Scopes.h).
void FunctionScopes::addConditional(BasicBlock *B) {
  Instruction *T = B->getTerminator();
  auto *Br = dyn_cast<BranchInst>(T);
  if ((!(Br && Br->isConditional()) && !isa<SwitchInst>(T)) ||
      isInstrumentation(T))
    return;
  Loop *L = LI.getLoopFor(B);
  for (BasicBlock *Succ : successors(B))
    if (L && (Succ == L->getHeader() || !L->contains(Succ)))
      return; // a latch or an exiting branch: part of the loop's own scope
  DomTreeNode *Node = PDT.getNode(B);
  DomTreeNode *IDom = Node ? Node->getIDom() : nullptr;
  BasicBlock *Merge = IDom ? IDom->getBlock() : nullptr;
  if (!Merge || (L && (!L->contains(Merge) || Merge == L->getHeader())))
    return;
  Scope S;
  S.Kind = PASTA_SCOPE_CONDITIONAL;
  S.Head = B;
  S.Merge = Merge;
  S.LoopDepth = LI.getLoopDepth(B);
  locate(S, T);
  SmallVector<BasicBlock *, 8> Work;
  for (BasicBlock *Succ : successors(B))
    if (Succ != Merge && S.Blocks.insert(Succ).second)
      Work.push_back(Succ);
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (BB == B || succ_empty(BB) ||
        (L && (!L->contains(BB) || BB == L->getHeader())))
      return; // leaves the region another way than through Merge
    if (!DT.dominates(B, BB))
      return; // entered another way than through B (a goto into it)
    for (BasicBlock *Succ : successors(BB)) {
      if (Succ->isEHPad() && Succ != Merge)
        return;
      if (Succ != Merge && S.Blocks.insert(Succ).second)
        Work.push_back(Succ);
    }
  }
  for (BasicBlock *P : predecessors(Merge))
    if ((P == B || S.Blocks.count(P)) &&
        isa<IndirectBrInst>(P->getTerminator()))
      return;
  if (Merge->isEHPad())
    return;
  Scopes.push_back(std::move(S));
}

static bool contains(const Scope &Outer, const Scope &Inner) {
  if (!Outer.Blocks.count(Inner.Head))
    return false;
  return llvm::all_of(Inner.Blocks, [&](const BasicBlock *BB) {
    return Outer.Blocks.count(BB) != 0;
  });
}

// Each scope's parent is the smallest other scope that holds all of it. A
// conditional that straddles another scope's boundary is dropped.
void FunctionScopes::linkParents() {
  std::vector<Scope> Kept{std::move(Scopes[0])};
  std::vector<Scope> Rest(std::make_move_iterator(Scopes.begin() + 1),
                          std::make_move_iterator(Scopes.end()));
  // Larger scopes first, so that a parent always precedes its children. A
  // conditional and a loop with the same blocks are a guard and the loop it
  // guards (a region never holds its loop's header): the guard first.
  std::stable_sort(Rest.begin(), Rest.end(),
                   [](const Scope &A, const Scope &B) {
                     if (A.Blocks.size() != B.Blocks.size())
                       return A.Blocks.size() > B.Blocks.size();
                     return A.Kind == PASTA_SCOPE_CONDITIONAL &&
                            B.Kind != PASTA_SCOPE_CONDITIONAL;
                   });
  for (Scope &S : Rest) {
    uint32_t Parent = 0;
    bool Straddles = false;
    for (uint32_t P = 1; P < Kept.size(); ++P) {
      const Scope &C = Kept[P];
      bool Holds = contains(C, S);
      bool Overlaps = C.Blocks.count(S.Head) ||
                      llvm::any_of(S.Blocks, [&](const BasicBlock *BB) {
                        return C.Blocks.count(BB) != 0;
                      });
      if (Holds && (Parent == 0 || C.Nesting >= Kept[Parent].Nesting))
        Parent = P; // the innermost of the scopes that hold it
      else if (Overlaps && !Holds && !contains(S, C))
        Straddles = true;
    }
    if (Straddles && S.Kind == PASTA_SCOPE_CONDITIONAL)
      continue;
    S.Parent = Parent;
    S.Nesting = Kept[Parent].Nesting + 1;
    Kept.push_back(std::move(S));
  }
  Scopes = std::move(Kept);
}

// FNV-1a of the stable name, kind, line, column and the ordinal among
// scopes that share all of these: stable across builds of the same source.
void FunctionScopes::assignIds(StringRef StableName) {
  NumScopes += Scopes.size();
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> Seen;
  for (Scope &S : Scopes) {
    uint32_t Ordinal = Seen[{S.Kind, S.Line, S.Col}]++;
    uint32_t H = 2166136261u;
    auto Mix = [&](uint32_t V) {
      for (int I = 0; I < 4; ++I) {
        H ^= (V >> (8 * I)) & 0xff;
        H *= 16777619u;
      }
    };
    for (char C : StableName) {
      H ^= static_cast<unsigned char>(C);
      H *= 16777619u;
    }
    Mix(S.Kind);
    Mix(S.Line);
    Mix(S.Col);
    Mix(Ordinal);
    S.Id = H ? H : 1;
  }
}

uint32_t FunctionScopes::innermost(const BasicBlock *BB) const {
  uint32_t Best = 0;
  for (uint32_t I = 1; I < Scopes.size(); ++I)
    if (Scopes[I].Blocks.count(BB) && Scopes[I].Nesting >= Scopes[Best].Nesting)
      Best = I;
  return Best;
}

// Splits the edge From -> To, every copy of it at once (a switch may branch
// to To from several cases): the new block, or null when it cannot be split.
static BasicBlock *splitAllEdges(BasicBlock *From, BasicBlock *To) {
  Instruction *T = From->getTerminator();
  for (unsigned I = 0, N = T->getNumSuccessors(); I < N; ++I) {
    if (T->getSuccessor(I) != To)
      continue;
    if (!isCriticalEdge(T, I, /*AllowIdenticalEdges=*/false))
      return SplitEdge(From, To);
    return SplitCriticalEdge(
        T, I, CriticalEdgeSplittingOptions().setMergeIdenticalEdges());
  }
  return nullptr;
}

namespace {
struct EdgeEvent {
  bool IsExit;
  uint32_t Scope;
};
} // namespace

void FunctionScopes::instrument(const ScopeHooks &H) {
  LLVMContext &Ctx = F.getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&*Entry.getFirstInsertionPt());
  if (H.Prologue)
    H.Prologue(B);
  unsigned AS = F.getParent()->getDataLayout().getAllocaAddrSpace();

  // Collect every event before the CFG changes.
  MapVector<std::pair<BasicBlock *, BasicBlock *>, SmallVector<EdgeEvent, 2>>
      Edges;
  DenseMap<uint32_t, AllocaInst *> Trips;
  SmallVector<std::pair<BasicBlock *, uint32_t>, 4> AtEnd; // conditionals
  for (uint32_t I = 1; I < Scopes.size(); ++I) {
    Scope &S = Scopes[I];
    // Every distinct edge once: a switch lists an edge once per case.
    if (S.Kind == PASTA_SCOPE_LOOP) {
      for (BasicBlock *P : SmallSetVector<BasicBlock *, 4>(pred_begin(S.Head),
                                                           pred_end(S.Head)))
        if (!S.L->contains(P))
          Edges[{P, S.Head}].push_back({false, I});
      SmallVector<std::pair<BasicBlock *, BasicBlock *>, 4> Exits;
      S.L->getExitEdges(Exits);
      SmallSetVector<std::pair<BasicBlock *, BasicBlock *>, 4> Distinct;
      for (auto E : Exits)
        Distinct.insert({const_cast<BasicBlock *>(E.first),
                         const_cast<BasicBlock *>(E.second)});
      for (auto E : Distinct)
        Edges[E].push_back({true, I});
      Trips[I] = B.CreateAlloca(I32, AS, nullptr, "pasta.trips");
      continue;
    }
    AtEnd.push_back({S.Head, I});
    for (BasicBlock *P : SmallSetVector<BasicBlock *, 4>(pred_begin(S.Merge),
                                                         pred_end(S.Merge)))
      if (P == S.Head || S.Blocks.count(P))
        Edges[{P, S.Merge}].push_back({true, I});
  }

  // The function's own scope.
  H.Enter(B, 0);
  // Left by a return or by an exception passing through (resume); a
  // landing pad that catches one is back in its own scope.
  SmallVector<BasicBlock *, 4> Pads;
  for (BasicBlock &BB : F) {
    Instruction *T = BB.getTerminator();
    if (isa<ReturnInst, ResumeInst>(T)) {
      IRBuilder<> R(T);
      H.Exit(R, 0, nullptr);
    }
    if (BB.isLandingPad())
      Pads.push_back(&BB);
  }
  for (BasicBlock *Pad : Pads)
    if (H.Resume) {
      IRBuilder<> R(&*Pad->getFirstInsertionPt());
      H.Resume(R, innermost(Pad));
    }
  for (auto [Head, I] : AtEnd) {
    IRBuilder<> E(Head->getTerminator());
    H.Enter(E, I);
  }
  // An iteration is counted when it reaches a latch: completed iterations,
  // the same for rotated (-O2) and unrotated (-O0) loops; an iteration left
  // through break or return is not one.
  for (auto &[I, Slot] : Trips) {
    SmallVector<BasicBlock *, 2> Latches;
    Scopes[I].L->getLoopLatches(Latches);
    for (BasicBlock *Latch :
         SmallSetVector<BasicBlock *, 2>(Latches.begin(), Latches.end())) {
      IRBuilder<> E(&*Latch->getFirstInsertionPt());
      E.CreateStore(E.CreateAdd(E.CreateLoad(I32, Slot), E.getInt32(1)), Slot);
    }
  }
  for (auto &[Edge, Events] : Edges) {
    std::stable_sort(Events.begin(), Events.end(),
                     [&](const EdgeEvent &A, const EdgeEvent &B) {
                       if (A.IsExit != B.IsExit)
                         return A.IsExit; // exits first
                       uint32_t NA = Scopes[A.Scope].Nesting,
                                NB = Scopes[B.Scope].Nesting;
                       return A.IsExit ? NA > NB : NA < NB;
                     });
    BasicBlock *Mid = splitAllEdges(Edge.first, Edge.second);
    if (!Mid)
      continue; // not splittable (the scopes above avoid such edges)
    ++NumScopeEdgesSplit;
    IRBuilder<> E(Mid->getTerminator());
    for (const EdgeEvent &Ev : Events) {
      AllocaInst *Slot = Trips.lookup(Ev.Scope);
      if (Ev.IsExit) {
        H.Exit(E, Ev.Scope, Slot ? E.CreateLoad(I32, Slot) : nullptr);
        continue;
      }
      if (Slot)
        E.CreateStore(E.getInt32(0), Slot);
      H.Enter(E, Ev.Scope);
    }
  }

  // The edges split above changed the CFG. Then the trip counters are
  // registers again.
  FAM.invalidate(F, PreservedAnalyses::none());
  SmallVector<AllocaInst *, 4> Promotable;
  for (auto &[I, Slot] : Trips)
    if (isAllocaPromotable(Slot))
      Promotable.push_back(Slot);
  if (!Promotable.empty())
    PromoteMemToReg(Promotable, FAM.getResult<DominatorTreeAnalysis>(F));
}
