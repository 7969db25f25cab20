//===- CounterPlacement.cpp - Which counters a device function keeps -----===//
//
// See CounterPlacement.h.
//
//===----------------------------------------------------------------------===//
#include "CounterPlacement.h"

#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/IR/CFG.h"

#include <algorithm>
#include <map>
#include <numeric>

using namespace llvm;
using namespace pasta;

#define DEBUG_TYPE "pasta"

STATISTIC(NumPlacedFunctions, "Device functions with placed counters");
STATISTIC(NumDerived, "Block counters derived at read-back");
STATISTIC(NumBits, "Block counters kept in one bit");

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
// exception handling).
bool hasPlainControlFlow(Function &F) {
  for (BasicBlock &BB : F)
    if (!isa<BranchInst, SwitchInst, ReturnInst, UnreachableInst>(
            BB.getTerminator()))
      return false;
  return true;
}

// The CFG closed by the virtual node: an edge from it to the entry, one from
// each return back to it (a block ending in `unreachable` ends a thread that
// never flushes: no flow leaves it).
Graph buildGraph(Function &F) {
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
    if (isa<ReturnInst>(BB.getTerminator()))
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

// Blocks on a cycle of the CFG may run more than once per call.
DenseSet<BasicBlock *> blocksOnCycles(Function &F) {
  DenseSet<BasicBlock *> OnCycle;
  for (auto I = scc_begin(&F); !I.isAtEnd(); ++I)
    if (I.hasCycle())
      OnCycle.insert(I->begin(), I->end());
  return OnCycle;
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

} // namespace

void pasta::placeCounters(FunctionPlan &P, FunctionAnalysisManager &FAM,
                          std::vector<pasta_derived> &Derived) {
  Function &F = *P.F;
  if (P.Blocks.empty() || !hasPlainControlFlow(F))
    return;
  bool IsKernel = P.Kind == PASTA_FUNC_KERNEL;
  Graph G = buildGraph(F);
  chooseSpanningTree(G);
  uint32_t Counted = 0;
  for (Edge &E : G.Edges)
    if (!E.InTree)
      E.Value = {{Counted++, 1}};
  solveTreeEdges(G);

  // The candidates, in the order they are preferred as measured: what a
  // call's entry counts (a kernel's threads, added by one thread per
  // launch; a device function's calls, its counter 0, which it has
  // anyway), then blocks that run once per call (a bit each), then the
  // rest (a 64-bit register each), the least frequent first.
  DenseSet<BasicBlock *> OnCycle = blocksOnCycles(F);
  auto &BFI = FAM.getResult<BlockFrequencyAnalysis>(F);
  SmallVector<CountedBlock *, 16> Order;
  for (CountedBlock &CB : P.Blocks) {
    CB.Once = !OnCycle.count(CB.BB);
    Order.push_back(&CB);
  }
  llvm::stable_sort(Order, [&](CountedBlock *A, CountedBlock *B) {
    if (A->Once != B->Once)
      return A->Once;
    return BFI.getBlockFreq(A->BB) < BFI.getBlockFreq(B->BB);
  });
  auto InFlow = [&](BasicBlock *BB) {
    Sum Value;
    for (unsigned E : G.In[G.Node[BB]])
      addTo(Value, G.Edges[E].Value, 1);
    return Value;
  };

  uint32_t Threads = P.NumCounters; // a kernel's, if a derivation uses it
  uint32_t EntryCandidate = IsKernel ? Threads : 0;
  Basis B;
  SmallVector<std::pair<uint32_t, int64_t>, 8> Combination;
  B.add(EntryCandidate, G.Edges[0].Value, Combination);
  std::vector<pasta_derived> Rows;
  bool UsesThreads = false;
  for (CountedBlock *CB : Order) {
    CB->Measured = B.add(CB->Counter, InFlow(CB->BB), Combination);
    for (auto [Source, Coeff] : Combination) {
      if (Coeff < INT32_MIN || Coeff > INT32_MAX)
        return; // keep every block measured
      UsesThreads |= IsKernel && Source == Threads;
      Rows.push_back({P.FirstCounter + CB->Counter, P.FirstCounter + Source,
                      static_cast<int32_t>(Coeff)});
    }
  }
  P.Placed = true;
  if (UsesThreads)
    P.ThreadsCounter = P.NumCounters++;
  llvm::sort(Rows, [](const pasta_derived &A, const pasta_derived &B) {
    return A.counter != B.counter ? A.counter < B.counter : A.source < B.source;
  });
  Derived.insert(Derived.end(), Rows.begin(), Rows.end());
  ++NumPlacedFunctions;
  for (const CountedBlock &CB : P.Blocks) {
    NumDerived += !CB.Measured;
    NumBits += CB.Measured && CB.Once;
  }
}
