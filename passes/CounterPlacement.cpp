//===- CounterPlacement.cpp - Which counters a function keeps -------------===//
//
// See CounterPlacement.h.
//
//===----------------------------------------------------------------------===//
#include "CounterPlacement.h"
#include "GridIndices.h"
#include "GridStrideLoops.h"

#include "BlockInvariance.h"
#include "InstrumentationMD.h"
#include "ThreadExits.h"

#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <algorithm>
#include <map>
#include <numeric>

using namespace llvm;
using namespace pasta;

#define DEBUG_TYPE "pasta"

STATISTIC(NumPlacedFunctions, "Functions with placed counters");
STATISTIC(NumMeasured, "Block counters measured (kept by the threads)");
STATISTIC(NumDerived, "Block counters derived at read-back");
STATISTIC(NumBits, "Block counters kept in one bit");
STATISTIC(NumColdEdges, "Bounds checks' cold edges counted instead");
STATISTIC(NumAlike, "Block counters flushed by the first thread block only");

namespace {

// A sparse sum of counted counters: (local index, coefficient), sorted.
using Sum = SmallVector<std::pair<uint32_t, int64_t>, 4>;

void addTo(Sum &Into, const Sum &X, int64_t Sign) {
  Sum Out;
  size_t I = 0, J = 0;
  while (I < Into.size() || J < X.size()) {
    if (J == X.size() || (I < Into.size() && Into[I].first < X[J].first)) {
      Out.push_back(Into[I++]);
    } else if (I == Into.size() || X[J].first < Into[I].first) {
      Out.push_back({X[J].first, Sign * X[J].second});
      ++J;
    } else {
      int64_t C = Into[I].second + Sign * X[J].second;
      if (C)
        Out.push_back({Into[I].first, C});
      ++I, ++J;
    }
  }
  Into = std::move(Out);
}

struct Edge {
  unsigned From = 0, To = 0; // node indices; the virtual node is the last
  bool InTree = false;
  Sum Value; // the edge's count, over the counts of the edges off the tree
};

struct Graph {
  DenseMap<BasicBlock *, unsigned> Node;
  unsigned Root = 0;
  std::vector<Edge> Edges;                       // Edges[0] enters the function
  std::vector<SmallVector<unsigned, 4>> In, Out; // edge indices per node
};

// Terminators whose edges are all known (no indirect branches, no
// exception handling but, in host code, the Itanium ABI's invokes, landing
// pads and resumes, whose edges are in the CFG).
// Branches, switches and returns only. A thread that ends in inline
// assembly (ThreadExits.h) leaves its block for the virtual node
// (buildGraph): the flow after it is not the flow the CFG says.
bool hasPlainControlFlow(Function &F, bool Host) {
  for (BasicBlock &BB : F) {
    const Instruction *T = BB.getTerminator();
    if (!isa<BranchInst, SwitchInst, ReturnInst, UnreachableInst>(T) &&
        !(Host && isa<InvokeInst, ResumeInst>(T)))
      return false;
  }
  return true;
}

// Device code: whether BB holds inline assembly that ends the thread, where
// CounterEmission flushes the thread's counts (ThreadExits.h).
bool endsThreadIn(BasicBlock &BB) {
  return any_of(BB, [](Instruction &I) { return endsThread(I); });
}

// Host code: whether BB holds a call after which the frame may end without
// a return of its own (mayLeaveFrame: an exception, exit(), longjmp), where
// CounterEmission flushes the frame's counts.
bool mayLeaveFrameIn(BasicBlock &BB) {
  return any_of(BB, [](Instruction &I) {
    auto *CB = dyn_cast<CallBase>(&I);
    return CB && mayLeaveFrame(*CB);
  });
}

// The CFG closed by the virtual node: an edge from it to the entry, one from
// each return back to it (a block ending in `unreachable` ends a thread that
// never flushes: no flow leaves it). In host code, also one from each
// `resume` and from each block with a call that may leave the frame; in
// device code, from each block with inline assembly that ends the thread:
// every frame's flushed counts, ended there or not, are then a flow of this
// graph.
Graph buildGraph(Function &F, bool Host) {
  Graph G;
  for (BasicBlock &BB : F)
    G.Node[&BB] = G.Node.size();
  G.Root = G.Node.size();
  auto AddEdge = [&](unsigned From, unsigned To) {
    Edge E;
    E.From = From, E.To = To;
    G.Edges.push_back(E);
  };
  AddEdge(G.Root, G.Node[&F.getEntryBlock()]);
  for (BasicBlock &BB : F) {
    for (BasicBlock *S :
         SmallSetVector<BasicBlock *, 4>(succ_begin(&BB), succ_end(&BB)))
      AddEdge(G.Node[&BB], G.Node[S]);
    if (isa<ReturnInst>(BB.getTerminator()) ||
        (Host &&
         (isa<ResumeInst>(BB.getTerminator()) || mayLeaveFrameIn(BB))) ||
        (!Host && endsThreadIn(BB)))
      AddEdge(G.Node[&BB], G.Root);
  }
  G.In.resize(G.Root + 1);
  G.Out.resize(G.Root + 1);
  for (unsigned E = 0; E < G.Edges.size(); ++E) {
    G.Out[G.Edges[E].From].push_back(E);
    G.In[G.Edges[E].To].push_back(E);
  }
  return G;
}

unsigned findSet(std::vector<unsigned> &Parent, unsigned X) {
  while (Parent[X] != X)
    X = Parent[X] = Parent[Parent[X]];
  return X;
}

// Any spanning tree will do: it only names the independent counts (the
// edges off it) in which every block's count is written.
void chooseSpanningTree(Graph &G) {
  std::vector<unsigned> Parent(G.Root + 1);
  std::iota(Parent.begin(), Parent.end(), 0);
  for (Edge &E : G.Edges) {
    unsigned A = findSet(Parent, E.From), B = findSet(Parent, E.To);
    if (A == B)
      continue;
    Parent[A] = B;
    E.InTree = true;
  }
}

// Each tree edge's count from the counted ones: visit the tree from the
// virtual node, then, children before parents, the edge to a node's parent
// balances what flows in and out of the node through its other edges.
void solveTreeEdges(Graph &G) {
  unsigned N = G.Root + 1;
  std::vector<unsigned> ParentEdge(N, ~0u), Order;
  std::vector<bool> Seen(N, false);
  std::vector<unsigned> Roots{G.Root};
  for (unsigned V = 0; V < G.Root; ++V)
    Roots.push_back(V);
  for (unsigned R : Roots) {
    if (Seen[R])
      continue;
    SmallVector<unsigned, 32> Stack{R};
    Seen[R] = true;
    while (!Stack.empty()) {
      unsigned V = Stack.pop_back_val();
      Order.push_back(V);
      for (const auto *List : {&G.In[V], &G.Out[V]})
        for (unsigned E : *List) {
          const Edge &X = G.Edges[E];
          unsigned W = X.From == V ? X.To : X.From;
          if (!X.InTree || Seen[W])
            continue;
          Seen[W] = true;
          ParentEdge[W] = E;
          Stack.push_back(W);
        }
    }
  }
  for (unsigned V : reverse(Order)) {
    unsigned PE = ParentEdge[V];
    if (PE == ~0u)
      continue;
    Sum In, Out;
    for (unsigned E : G.In[V])
      if (E != PE)
        addTo(In, G.Edges[E].Value, 1);
    for (unsigned E : G.Out[V])
      if (E != PE)
        addTo(Out, G.Edges[E].Value, 1);
    Sum &Value = G.Edges[PE].Value;
    Value.clear();
    // Self-loops are never tree edges; they add to In and Out alike.
    if (G.Edges[PE].To == V) {
      addTo(Value, Out, 1);
      addTo(Value, In, -1);
    } else {
      addTo(Value, In, 1);
      addTo(Value, Out, -1);
    }
  }
}

// An exact fraction; false from an operation that would overflow.
struct Ratio {
  int64_t Num = 0, Den = 1;
};

bool makeRatio(__int128 N, __int128 D, Ratio &Out) {
  if (D < 0)
    N = -N, D = -D;
  __int128 A = N < 0 ? -N : N, B = D;
  while (B) {
    __int128 T = A % B;
    A = B, B = T;
  }
  if (A > 1)
    N /= A, D /= A;
  if (N > INT64_MAX || N < -INT64_MAX || D > INT64_MAX)
    return false;
  Out = {static_cast<int64_t>(N), static_cast<int64_t>(D)};
  return true;
}

// X -= F * Y, over sparse vectors of fractions.
using RatioVec = std::map<uint32_t, Ratio>;
bool subtractScaled(RatioVec &X, const Ratio &F, const RatioVec &Y) {
  for (const auto &[K, V] : Y) {
    Ratio Old = X.count(K) ? X[K] : Ratio{};
    __int128 N =
        (__int128)Old.Num * F.Den * V.Den - (__int128)F.Num * V.Num * Old.Den;
    __int128 D = (__int128)Old.Den * F.Den * V.Den;
    Ratio R;
    if (!makeRatio(N, D, R))
      return false;
    if (R.Num)
      X[K] = R;
    else
      X.erase(K);
  }
  return true;
}

// Gaussian elimination that keeps, for each basis vector, which measured
// candidates it is made of: a candidate that reduces to zero is a
// combination of those, which the host adds up at read-back.
class Basis {
public:
  // Adds candidate C (its linear functional over the graph's counted edges)
  // and returns true if it is independent of those before it (so it must be
  // measured); else fills Combination (candidate -> coefficient). False
  // with an empty Combination when the arithmetic would overflow or the
  // coefficients are not whole numbers: the candidate is then measured.
  bool add(uint32_t C, const Sum &Functional,
           SmallVectorImpl<std::pair<uint32_t, int64_t>> &Combination) {
    Combination.clear();
    RatioVec V, R;
    for (auto [K, Coeff] : Functional)
      V[K] = {Coeff, 1};
    R[C] = {1, 1};
    for (const Row &B : Rows) {
      auto It = V.find(B.Pivot);
      if (It == V.end())
        continue;
      const Ratio &P = B.Vec.at(B.Pivot);
      Ratio F;
      if (!makeRatio((__int128)It->second.Num * P.Den,
                     (__int128)It->second.Den * P.Num, F) ||
          !subtractScaled(V, F, B.Vec) || !subtractScaled(R, F, B.Repr))
        return true;
    }
    if (!V.empty()) {
      Rows.push_back({V.begin()->first, std::move(V), std::move(R)});
      return true;
    }
    // 0 = C + sum(R[K] * K): C = -sum(R[K] * K).
    for (const auto &[K, Ratio] : R) {
      if (K == C)
        continue;
      if (Ratio.Den != 1) {
        Combination.clear();
        return true;
      }
      Combination.push_back({K, -Ratio.Num});
    }
    return false;
  }

private:
  struct Row {
    uint32_t Pivot;
    RatioVec Vec, Repr;
  };
  std::vector<Row> Rows;
};

// Bounds checks. A thread's place in the grid (built from its block's and
// its own index) compared with a bound all threads share (kernel arguments,
// the grid's shape, constants) is inside the bound for nearly every thread:
// `if (i < n)`, `if (base + warp * 32 >= n) return;`. The edge that leaves
// the bound is cold. Counting it, and deriving the blocks inside the bound
// from it, leaves most warps' counters at zero, and a warp whose counts are
// zero skips its atomics at exit. A guess that is wrong costs time, never
// exactness: the counts are derived either way.

// What a value is built from: the block's index, the thread's index, values
// every thread shares (Shared), or something else (Unknown: memory, calls).
struct Origin {
  bool Block = false, Thread = false, Unknown = false;
  bool shared() const { return !Block && !Thread && !Unknown; }
  bool place() const { return Block && Thread && !Unknown; }
  // A thread block's place (a tile's offset: the block index, and what
  // every thread shares), or a thread's.
  bool blockPlace() const { return Block && !Unknown; }
  Origin &operator|=(const Origin &O) {
    Block |= O.Block, Thread |= O.Thread, Unknown |= O.Unknown;
    return *this;
  }
};

Origin unknownOrigin() {
  Origin O;
  O.Unknown = true;
  return O;
}

Origin intrinsicOrigin(Intrinsic::ID ID) {
  Origin O;
  switch (gridRead(ID).Index) {
  case GridIndex::Thread:
    O.Thread = true;
    return O;
  case GridIndex::Block:
    O.Block = true;
    return O;
  case GridIndex::BlockSize:
  case GridIndex::GridSize:
    return O; // the grid's shape
  case GridIndex::None:
    break;
  }
  switch (ID) {
  case Intrinsic::smin:
  case Intrinsic::smax:
  case Intrinsic::umin:
  case Intrinsic::umax:
    return O; // min/max take their operands' origin
  default:
    return unknownOrigin();
  }
}

// Phis take their incoming values' origins; one already being looked at
// (a loop's induction variable, through its back edge) adds nothing more.
Origin originOf(const Value *V, SmallPtrSetImpl<const Value *> &Seen,
                unsigned Depth = 0) {
  if (isa<Constant, Argument>(V))
    return {};
  if (Depth > 12)
    return unknownOrigin();
  if (!Seen.insert(V).second)
    return {};
  if (const auto *L = dyn_cast<LoadInst>(V))
    return launchConstantLoad(*L) ? Origin{} : unknownOrigin();
  Origin O;
  if (const auto *II = dyn_cast<IntrinsicInst>(V)) {
    O = intrinsicOrigin(II->getIntrinsicID());
    if (O.Unknown || O.Block || O.Thread)
      return O;
    for (const Value *Arg : II->args())
      O |= originOf(Arg, Seen, Depth + 1);
    return O;
  }
  if (!isa<BinaryOperator, CastInst, PHINode>(V))
    return unknownOrigin();
  for (const Value *Op : cast<Instruction>(V)->operands())
    O |= originOf(Op, Seen, Depth + 1);
  return O;
}

Origin originOf(const Value *V) {
  SmallPtrSet<const Value *, 16> Seen;
  return originOf(V, Seen);
}

// Whether V is a place in the grid, and -1 when it is a shared bound minus
// a place (a tile's items left, `n - offset`: it shrinks as the place
// grows), +1 for the place itself. In Tiles, a thread block's place that
// changes in that loop will do (a tile's offset: the block index, and what
// every thread shares); a loop's bound built from the block index does not
// change in the loop.
int placeDirection(const Value *V, const Loop *Tiles) {
  using namespace PatternMatch;
  Origin O = originOf(V);
  if (!(Tiles ? O.blockPlace() && !Tiles->isLoopInvariant(V) : O.place()))
    return 0;
  const Value *Bound, *Place;
  if (match(V, m_ZExtOrSExtOrSelf(m_Sub(m_Value(Bound), m_Value(Place)))) &&
      originOf(Bound).shared())
    return -1;
  return 1;
}

// +1 when Cond is true for nearly every thread (a place inside a bound), -1
// when nearly never, 0 when there is no telling. Tiles: a loop in which a
// thread block's place counts as a place (placeDirection).
int usualValue(const Value *Cond, const Loop *Tiles, unsigned Depth = 0) {
  using namespace PatternMatch;
  if (Depth > 4)
    return 0;
  const Value *A, *B;
  if (match(Cond, m_Not(m_Value(A))))
    return -usualValue(A, Tiles, Depth + 1);
  if (match(Cond, m_LogicalAnd(m_Value(A), m_Value(B))))
    return usualValue(A, Tiles, Depth + 1) > 0 &&
                   usualValue(B, Tiles, Depth + 1) > 0
               ? 1
               : 0;
  if (match(Cond, m_LogicalOr(m_Value(A), m_Value(B))))
    return usualValue(A, Tiles, Depth + 1) < 0 &&
                   usualValue(B, Tiles, Depth + 1) < 0
               ? -1
               : 0;
  const auto *Cmp = dyn_cast<ICmpInst>(Cond);
  if (!Cmp || !Cmp->isRelational())
    return 0;
  CmpInst::Predicate Pred = Cmp->getPredicate();
  const Value *L = Cmp->getOperand(0), *R = Cmp->getOperand(1);
  int Direction = placeDirection(L, Tiles);
  if (Direction && originOf(R).shared()) {
    // `place Pred bound`, or `bound - place Pred bound'`
  } else if ((Direction = placeDirection(R, Tiles)) && originOf(L).shared()) {
    Pred = CmpInst::getSwappedPredicate(Pred);
  } else {
    return 0;
  }
  int Below = ICmpInst::isLT(Pred) || ICmpInst::isLE(Pred) ? 1 : -1;
  return Below * Direction;
}

// The successor a bounds check rarely takes, or null. Tiles: see
// usualValue.
BasicBlock *coldSuccessor(BasicBlock &BB, const Loop *Tiles = nullptr) {
  auto *Br = dyn_cast<BranchInst>(BB.getTerminator());
  if (!Br || !Br->isConditional() || isInstrumentation(Br) ||
      Br->getSuccessor(0) == Br->getSuccessor(1))
    return nullptr;
  int Usual = usualValue(Br->getCondition(), Tiles);
  return Usual > 0   ? Br->getSuccessor(1)
         : Usual < 0 ? Br->getSuccessor(0)
                     : nullptr;
}

// Blocks on cycles of the CFG, by cycle: an edge is on a cycle when both
// its ends are on the same one.
DenseMap<BasicBlock *, unsigned> cycleOf(Function &F) {
  DenseMap<BasicBlock *, unsigned> Cycle;
  unsigned Id = 0;
  for (auto I = scc_begin(&F); !I.isAtEnd(); ++I, ++Id)
    if (I.hasCycle())
      for (BasicBlock *BB : *I)
        Cycle[BB] = Id;
  return Cycle;
}

// A bounds check's cold edge, and the local index it has as a candidate.
struct ColdEdge {
  BasicBlock *From, *To;
  uint32_t Candidate;
  // A check of a thread block's tile in a loop over tiles (tileCheck): the
  // edge to its partial tile, counted where it is taken, and the blocks
  // that run only after it too (coldWays).
  bool Tile;
};

// In a loop over a thread block's tiles, the check of whether the tile is
// whole (CUB's agents: `if (num_items - tile_offset >= TILE_ITEMS)`) is
// taken the other way for the last tile alone: its cold successor, or null.
// Not the loop's own exits or back edges: a loop's trip test compares its
// induction variable with a bound that may come from the block index.
BasicBlock *tileCheck(BasicBlock &BB, LoopInfo &LI) {
  Loop *L = LI.getLoopFor(&BB);
  if (!L || L->isLoopExiting(&BB) ||
      any_of(successors(&BB),
             [&](BasicBlock *S) { return S == L->getHeader(); }))
    return nullptr;
  return coldSuccessor(BB, L);
}

// The function's bounds checks' cold edges, numbered from FirstCandidate,
// and the blocks inside them (dominated by a hot successor entered only
// from the check), which are best derived. A check with a loop inside is
// left alone: the loop's counts are flushed by every warp anyway, so the
// cold edge would only move a bit (and it made kmeans_assign's counting
// copy 8% slower, for reasons its PTX does not show).
void findColdEdges(Function &F, DominatorTree &DT, LoopInfo &LI,
                   uint32_t FirstCandidate, SmallVectorImpl<ColdEdge> &Cold,
                   DenseSet<BasicBlock *> &Inside) {
  SmallVector<BasicBlock *, 4> Hot;
  for (BasicBlock &BB : F) {
    BasicBlock *To = coldSuccessor(BB);
    bool Tile = !To && (To = tileCheck(BB, LI));
    if (!To)
      continue;
    BasicBlock *H =
        *find_if(successors(&BB), [&](BasicBlock *S) { return S != To; });
    bool Single = H->getSinglePredecessor() != nullptr;
    if (any_of(LI.getLoopsInPreorder(), [&](Loop *L) {
          return !L->contains(&BB) && DT.dominates(H, L->getHeader());
        }))
      continue;
    Cold.push_back({&BB, To, FirstCandidate + (uint32_t)Cold.size(), Tile});
    if (Single)
      Hot.push_back(H);
  }
  for (BasicBlock &BB : F)
    if (any_of(Hot, [&](BasicBlock *H) { return DT.dominates(H, &BB); }))
      Inside.insert(&BB);
}

// Blocks of a loop over tiles that run only for a partial tile, in the
// same iteration: dominated by the cold successor of a tile check, entered
// from the check alone, and in the check's loop (not in a loop inside it).
// CUB's radix-sort histogram's sixteen guarded loads of its last tile were
// a 64-bit register each through the loop (96 registers against 32 plain).
// Counted where taken (CountedBlock::CountWhereTaken).
DenseSet<BasicBlock *> coldWays(Function &F, DominatorTree &DT, LoopInfo &LI,
                                ArrayRef<ColdEdge> Cold) {
  DenseSet<BasicBlock *> Rare;
  for (const ColdEdge &CE : Cold) {
    Loop *L = LI.getLoopFor(CE.From);
    if (!CE.Tile || CE.To->getSinglePredecessor() != CE.From ||
        LI.getLoopFor(CE.To) != L)
      continue;
    for (BasicBlock &BB : F)
      if (LI.getLoopFor(&BB) == L && DT.dominates(CE.To, &BB))
        Rare.insert(&BB);
  }
  return Rare;
}

// Gives each cold edge a derivation uses (Rows) a counter of its own, on a
// block split into the edge, and renames it in Rows. True if the CFG
// changed.
bool countColdEdges(FunctionPlan &P, ArrayRef<ColdEdge> Cold,
                    const DenseMap<BasicBlock *, unsigned> &Cycle,
                    std::vector<pasta_derived> &Rows) {
  bool Split = false;
  for (const ColdEdge &CE : Cold) {
    uint32_t Source = P.FirstCounter + CE.Candidate;
    if (none_of(Rows,
                [&](const pasta_derived &R) { return R.source == Source; }))
      continue;
    CountedBlock CB;
    CB.BB = SplitEdge(CE.From, CE.To);
    markInstrumentation(CB.BB->getTerminator());
    CB.Counter = P.NumCounters++;
    CB.ColdEdge = true;
    auto From = Cycle.find(CE.From), To = Cycle.find(CE.To);
    CB.Once =
        From == Cycle.end() || To == Cycle.end() || From->second != To->second;
    CB.CountWhereTaken = CB.Once || CE.Tile;
    for (pasta_derived &R : Rows)
      if (R.source == Source)
        R.source = P.FirstCounter + CB.Counter;
    P.Blocks.push_back(std::move(CB));
    Split = true;
    ++NumColdEdges;
  }
  return Split;
}

cl::opt<bool> GridStrideFirstThread(
    "pasta-grid-stride-first-thread", cl::Hidden, cl::init(true),
    cl::desc("PASTA: the grid's first thread counts a grid-stride loop's "
             "runs over a launch (GridStrideLoops.h); 0: every thread counts "
             "its own, as before"));

// A grid-stride loop's header (GridStrideLoops.h): its bound and flags.
void markGridStride(CountedBlock &CB, FunctionAnalysisManager &FAM) {
  if (!GridStrideFirstThread)
    return;
  Function &F = *CB.BB->getParent();
  if (std::optional<GridStrideLoop> G =
          gridStrideLoop(*CB.BB, FAM.getResult<LoopAnalysis>(F),
                         FAM.getResult<PostDominatorTreeAnalysis>(F))) {
    CB.GridStrideBound = G->Bound;
    CB.GridStrideFlags = G->Flags;
  }
}

} // namespace

void pasta::placeCounters(FunctionPlan &P, FunctionAnalysisManager &FAM,
                          std::vector<pasta_derived> &Derived) {
  Function &F = *P.F;
  bool IsKernel = P.Kind == PASTA_FUNC_KERNEL;
  bool Host = P.Kind == PASTA_FUNC_HOST;
  if (P.Blocks.empty())
    return;
  if (!hasPlainControlFlow(F, Host)) {
    LLVM_DEBUG(dbgs() << "pasta: " << F.getName()
                      << ": every block measured (control flow the placement "
                         "does not model)\n");
    return;
  }
  Graph G = buildGraph(F, Host);
  chooseSpanningTree(G);
  uint32_t Counted = 0;
  for (Edge &E : G.Edges)
    if (!E.InTree)
      E.Value = {{Counted++, 1}};
  solveTreeEdges(G);

  // The candidates, in the order they are preferred as measured: what a
  // call's entry counts (a kernel's threads, added by one thread per
  // launch; a device function's calls, its counter 0, which it has
  // anyway), then the cold edges of bounds checks (see coldSuccessor), then
  // blocks that run once per call (a bit each), then the rest (a 64-bit
  // register each), the least frequent first. Blocks inside a bounds check
  // come last in their class, to be derived from its cold edge. Candidates
  // without a counter yet take local indices past the function's: the
  // kernel's threads, then the cold edges.
  DenseMap<BasicBlock *, unsigned> Cycle = cycleOf(F);
  auto &BFI = FAM.getResult<BlockFrequencyAnalysis>(F);
  uint32_t Threads = P.NumCounters;
  SmallVector<ColdEdge, 4> Cold;
  DenseSet<BasicBlock *> Inside;
  if (!Host) // bounds checks of a thread's place in the grid
    findColdEdges(F, FAM.getResult<DominatorTreeAnalysis>(F),
                  FAM.getResult<LoopAnalysis>(F), Threads + 1, Cold, Inside);
  DenseSet<BasicBlock *> Rare;
  if (!Host)
    Rare = coldWays(F, FAM.getResult<DominatorTreeAnalysis>(F),
                    FAM.getResult<LoopAnalysis>(F), Cold);
  SmallVector<CountedBlock *, 16> Order;
  for (CountedBlock &CB : P.Blocks) {
    CB.Once = !Cycle.count(CB.BB);
    CB.CountWhereTaken = Rare.count(CB.BB);
    if (IsKernel && !CB.Once)
      markGridStride(CB, FAM);
    Order.push_back(&CB);
  }
  llvm::stable_sort(Order, [&](CountedBlock *A, CountedBlock *B) {
    // A grid-stride loop's header: counted by the grid's first thread, so
    // measured ahead of every block (the loop's others derived from it).
    if ((A->GridStrideBound != nullptr) != (B->GridStrideBound != nullptr))
      return A->GridStrideBound != nullptr;
    if (A->Once != B->Once)
      return A->Once;
    // Counted where taken: no register, so measured ahead of the loop's
    // other blocks.
    if (A->CountWhereTaken != B->CountWhereTaken)
      return A->CountWhereTaken;
    if (Inside.count(A->BB) != Inside.count(B->BB))
      return !Inside.count(A->BB);
    return BFI.getBlockFreq(A->BB) < BFI.getBlockFreq(B->BB);
  });
  auto InFlow = [&](BasicBlock *BB) {
    Sum Value;
    for (unsigned E : G.In[G.Node[BB]])
      addTo(Value, G.Edges[E].Value, 1);
    return Value;
  };

  uint32_t EntryCandidate = IsKernel ? Threads : 0;
  Basis B;
  SmallVector<std::pair<uint32_t, int64_t>, 8> Combination;
  B.add(EntryCandidate, G.Edges[0].Value, Combination);
  for (const ColdEdge &CE : Cold)
    for (unsigned E : G.Out[G.Node[CE.From]])
      if (G.Edges[E].To == G.Node[CE.To])
        B.add(CE.Candidate, G.Edges[E].Value, Combination);
  std::vector<pasta_derived> Rows;
  for (CountedBlock *CB : Order) {
    CB->Measured = B.add(CB->Counter, InFlow(CB->BB), Combination);
    for (auto [Source, Coeff] : Combination) {
      if (Coeff < INT32_MIN || Coeff > INT32_MAX) {
        for (CountedBlock &Each : P.Blocks)
          Each.Measured = true; // keep every block measured, in 64 bits
        LLVM_DEBUG(dbgs() << "pasta: " << F.getName()
                          << ": every block measured (a derivation's "
                             "coefficient "
                          << Coeff << " does not fit 32 bits)\n");
        return;
      }
      Rows.push_back({P.FirstCounter + CB->Counter, P.FirstCounter + Source,
                      static_cast<int32_t>(Coeff)});
    }
  }
  P.Placed = true;

  // Counters for the sources the derivations use: the threads, and the cold
  // edges.
  uint32_t ThreadsSource = P.FirstCounter + Threads;
  if (IsKernel && any_of(Rows, [&](const pasta_derived &R) {
        return R.source == ThreadsSource;
      }))
    P.ThreadsCounter = P.NumCounters++;
  if (countColdEdges(P, Cold, Cycle, Rows))
    FAM.invalidate(F, PreservedAnalyses::none()); // its CFG changed
  // Not where threads end in inline assembly: which threads end depends on
  // data the analysis does not see, so no count is alike in every block.
  if (IsKernel && threadEnds(F).empty()) {
    DenseSet<const BasicBlock *> Alike = blocksAlikeInEveryThreadBlock(
        F, FAM.getResult<PostDominatorTreeAnalysis>(F));
    for (CountedBlock &CB : P.Blocks) {
      CB.AlikeInEveryBlock = CB.Measured && Alike.count(CB.BB);
      NumAlike += CB.AlikeInEveryBlock;
    }
  }
  llvm::sort(Rows, [](const pasta_derived &A, const pasta_derived &B) {
    return A.counter != B.counter ? A.counter < B.counter : A.source < B.source;
  });
  Derived.insert(Derived.end(), Rows.begin(), Rows.end());
  ++NumPlacedFunctions;
  for (const CountedBlock &CB : P.Blocks) {
    NumMeasured += CB.Measured;
    NumDerived += !CB.Measured;
    NumBits += CB.Measured && CB.Once;
  }
  LLVM_DEBUG({
    auto Blocks = [&](auto Test) { return count_if(P.Blocks, Test); };
    dbgs() << "pasta: " << F.getName() << ": " << P.Blocks.size()
           << " block counters, "
           << Blocks([](const CountedBlock &CB) { return CB.Measured; })
           << " measured (" << Blocks([](const CountedBlock &CB) {
                return CB.Measured && CB.Once;
              })
           << " in one bit, " << Blocks([](const CountedBlock &CB) {
                return CB.AlikeInEveryBlock;
              })
           << " alike in every thread block, "
           << Blocks([](const CountedBlock &CB) { return CB.ColdEdge; })
           << " on split cold edges), "
           << Blocks([](const CountedBlock &CB) { return !CB.Measured; })
           << " derived from " << Rows.size() << " terms\n";
  });
}
