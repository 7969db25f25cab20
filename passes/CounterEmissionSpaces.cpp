//===- CounterEmissionSpaces.cpp - Address spaces of generic accesses ----===//
//
// The run-time address-space counts of generic accesses in loops, a part of
// CounterEmitter (CounterEmission.h). A generic access on a GPU adds, per
// site, how many of its executions (and bytes) were shared or local; the
// rest were global. Kept in registers, those counts are four 64-bit values
// per site carried through the loop: the ray tracer of round 20 (issue
// [overhead-3]) read 23 fields through pointers its setup kernel left in
// global memory, and its counting copy carried 146 such values through
// the sample loop (186 registers against 72; 5 blocks of 64 threads an SM
// instead of 14; 1.34x clang's own build with the same instructions).
//
// Almost every such pointer is global. In a counting build's loops the
// counts are therefore kept in local memory and added only on a cold path:
// one test per base pointer and block (accesses at in-bounds offsets from
// one pointer are in its object, so in its address space), and a branch
// around the adds that a global pointer never takes. The slots are zeroed
// at entry and flushed with the others (in groups that one test skips).
// The counts a callee's twin returns (CalleeCounts.h) into a loop of its
// caller are added the same way, behind one test of them all.
//
//===----------------------------------------------------------------------===//
#include "CounterEmission.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;
using namespace pasta;

#define DEBUG_TYPE "pasta"

STATISTIC(NumGenericAccesses, "Generic accesses resolved at run time");
STATISTIC(NumColdSpaceTests,
          "Run-time address-space tests with their counts off the hot path");

static cl::opt<bool> ColdAddressSpaces(
    "pasta-cold-address-spaces", cl::Hidden, cl::init(true),
    cl::desc("PASTA: in counting builds, the run-time address-space counts "
             "of generic accesses in loops live in local memory, tested once "
             "per base pointer and block and added only where the pointer is "
             "shared or local"));

// The run-time tests of a generic pointer's space: 1 where it is shared
// (local), else 0.
static std::pair<Value *, Value *> testSpaces(IRBuilderBase &B, Module &M,
                                              Value *Ptr) {
  Type *I64 = B.getInt64Ty();
  PointerType *Generic = PointerType::get(B.getContext(), 0);
  Value *Shared = B.CreateCall(
      M.getOrInsertFunction("__pasta_is_shared", I64, Generic), {Ptr});
  Value *Local = B.CreateCall(
      M.getOrInsertFunction("__pasta_is_local", I64, Generic), {Ptr});
  return {Shared, Local};
}

// A generic access outside the cold path (outside loops, a copy of
// run-time length, divergence and trace copies): its four counts added in
// registers at every execution.
void CounterEmitter::emitGenericCounting(IRBuilder<> &B, const GenericSite &G,
                                         ArrayRef<AllocaInst *> Slots) {
  ++NumGenericAccesses;
  Type *I64 = B.getInt64Ty();
  auto [Shared, Local] = testSpaces(B, M, G.What.Pointer);
  uint32_t Base =
      G.Dyn + (G.What.IsStore ? PASTA_DYN_ST_SHARED : PASTA_DYN_LD_SHARED);
  auto Add = [&](uint32_t Slot, Value *V) {
    Value *Old = B.CreateLoad(I64, Slots[Slot]);
    B.CreateStore(B.CreateAdd(Old, V), Slots[Slot]);
  };
  Value *Bytes = G.Length ? B.CreateZExtOrTrunc(G.Length, I64)
                          : ConstantInt::get(I64, G.What.Bytes);
  Add(Base + 0, Shared);
  Add(Base + 1, B.CreateMul(Shared, Bytes));
  Add(Base + 2, Local);
  Add(Base + 3, B.CreateMul(Local, Bytes));
}

// The address-space counter sets of P's generic accesses in loops, and the
// calls in its loops of twins that return such counts (ColdSpaceCalls).
void CounterEmitter::findColdSpaceSets(const FunctionPlan &P) {
  ColdSpaceSets.clear();
  ColdSpaceCalls.clear();
  ColdSpaceCounts.clear();
  ColdSpaceSlots.clear();
  if (!ColdAddressSpaces || !CountingBuild || T.Target == PASTA_TARGET_HOST ||
      P.ThreadLocalCounts)
    return;
  bool Generic = any_of(
      P.Blocks, [](const CountedBlock &CB) { return !CB.Generic.empty(); });
  const SmallVector<CallInst *, 4> *Calls = nullptr;
  if (Returned)
    if (auto It = Returned->CallsIn.find(P.F); It != Returned->CallsIn.end())
      Calls = &It->second;
  if (!Generic && !Calls)
    return;
  LoopInfo *Loops = loopsForNarrowing(*P.F);
  if (!Loops)
    return;
  // A set with a run-time length (a memcpy's bytes) keeps its registers.
  DenseSet<uint32_t> WithLength;
  for (const CountedBlock &CB : P.Blocks)
    for (const GenericSite &G : CB.Generic)
      if (G.Length)
        WithLength.insert(G.Dyn);
  for (const CountedBlock &CB : P.Blocks)
    if (Loops->getLoopFor(CB.BB))
      for (const GenericSite &G : CB.Generic)
        if (!WithLength.count(G.Dyn))
          ColdSpaceSets.insert(G.Dyn);
  if (Calls)
    for (CallInst *CI : *Calls)
      if (Loops->getLoopFor(CI->getParent()))
        ColdSpaceCalls.insert(CI);
}

// Whether the module counter Global is one of a site's run-time
// address-space counters.
static bool isSpaceCounter(const ModuleTables &T, uint32_t Global) {
  return any_of(T.Sites, [&](const pasta_site &S) {
    return S.dyn_counter != PASTA_NONE && Global >= S.dyn_counter &&
           Global < S.dyn_counter + PASTA_DYN_NUM;
  });
}

// A call in a loop of a twin that returns address-space counts (the
// twin's own generic accesses, or those it carries for its callees): the
// caller would carry each through the loop in a register, as its own
// (a six-field read through a pointer, called in a loop: 40 registers
// against 23). Almost always zero, they are added in local memory behind
// one test of them all, as emitColdSpaceCounts adds a pointer's counts.
// Returns the indices into CR.Global it added; the caller adds the rest.
SmallVector<size_t, 8> CounterEmitter::addColdCarriedCounts(
    CallInst *CI, const CountReturn &CR,
    function_ref<AllocaInst *(uint32_t Global)> SlotOf) {
  SmallVector<size_t, 8> Cold;
  if (!ColdSpaceCalls.count(CI))
    return Cold;
  for (size_t K = 0; K < CR.Global.size(); ++K)
    if (isSpaceCounter(T, CR.Global[K]))
      Cold.push_back(K);
  if (Cold.empty())
    return Cold;
  IRBuilder<> B(CI->getNextNode());
  SmallVector<Value *, 8> Values;
  Value *Any = nullptr;
  for (size_t K : Cold) {
    Values.push_back(B.CreateExtractValue(CI, CR.firstCount() + K));
    Any = Any ? B.CreateOr(Any, Values.back()) : Values.back();
  }
  ColdSpaceCount Count;
  Count.Cold = B.CreateICmpNE(Any, B.getInt64(0), "pasta.not.global");
  IRBuilder<ConstantFolder, IRBuilderCallbackInserter> Add(
      Ctx, ConstantFolder(), IRBuilderCallbackInserter([&](Instruction *I) {
        Count.Adds.push_back(I);
      }));
  Add.SetInsertPoint(B.GetInsertPoint());
  for (size_t J = 0; J < Cold.size(); ++J) {
    AllocaInst *Slot = SlotOf(CR.Global[Cold[J]]);
    if (!is_contained(ColdSpaceSlots, Slot))
      ColdSpaceSlots.push_back(Slot);
    Add.CreateStore(
        Add.CreateAdd(Add.CreateLoad(Add.getInt64Ty(), Slot), Values[J]), Slot);
  }
  ColdSpaceCounts.push_back(std::move(Count));
  ++NumColdSpaceTests;
  return Cold;
}

// The counters of each base pointer's accesses in CB, added where its
// first access runs, by instructions that branchAroundColdSpaceCounts
// later moves to a block the pointer's test guards.
void CounterEmitter::emitColdSpaceCounts(const CountedBlock &CB) {
  // By base pointer, and by block: the counting code before may have split
  // CB's block.
  MapVector<std::pair<const Value *, const BasicBlock *>,
            SmallVector<const GenericSite *, 4>>
      ByBase;
  for (const GenericSite &G : CB.Generic)
    if (ColdSpaceSets.count(G.Dyn))
      ByBase[{G.What.Pointer->stripInBoundsOffsets(), G.Access->getParent()}]
          .push_back(&G);
  Type *I64 = Type::getInt64Ty(Ctx);
  for (auto &[Base, Sites] : ByBase) {
    const GenericSite *First = *llvm::min_element(
        Sites, [](const GenericSite *A, const GenericSite *B) {
          return A->Access->comesBefore(B->Access);
        });
    // Accesses and bytes per first counter of a shared/local quadruple.
    MapVector<uint32_t, std::pair<uint64_t, uint64_t>> Sums;
    for (const GenericSite *G : Sites) {
      auto &[Accesses, Bytes] =
          Sums[G->Dyn +
               (G->What.IsStore ? PASTA_DYN_ST_SHARED : PASTA_DYN_LD_SHARED)];
      ++Accesses;
      Bytes += G->What.Bytes;
    }
    IRBuilder<> B(First->Access);
    auto [Shared, Local] = testSpaces(B, M, First->What.Pointer);
    ColdSpaceCount Count;
    Count.Cold = B.CreateICmpNE(B.CreateOr(Shared, Local),
                                ConstantInt::get(I64, 0), "pasta.not.global");
    IRBuilder<ConstantFolder, IRBuilderCallbackInserter> Cold(
        Ctx, ConstantFolder(), IRBuilderCallbackInserter([&](Instruction *I) {
          Count.Adds.push_back(I);
        }));
    Cold.SetInsertPoint(First->Access);
    auto Add = [&](uint32_t Counter, Value *Is, uint64_t Times) {
      AllocaInst *Slot = Slots[Counter];
      if (!is_contained(ColdSpaceSlots, Slot))
        ColdSpaceSlots.push_back(Slot);
      Value *Old = Cold.CreateLoad(I64, Slot);
      Value *Added =
          Times == 1 ? Is : Cold.CreateMul(Is, ConstantInt::get(I64, Times));
      Cold.CreateStore(Cold.CreateAdd(Old, Added), Slot);
    };
    for (auto &[Counter, AccessesBytes] : Sums) {
      auto [Accesses, Bytes] = AccessesBytes;
      Add(Counter + 0, Shared, Accesses);
      Add(Counter + 1, Shared, Bytes);
      Add(Counter + 2, Local, Accesses);
      Add(Counter + 3, Local, Bytes);
    }
    ColdSpaceCounts.push_back(std::move(Count));
    ++NumColdSpaceTests;
  }
}

// Each test's adds go to a block of their own, taken where the pointer is
// shared or local (rarely: branch weights say so). After the counting
// code's other changes to the CFG, before mem2reg's dominator tree.
void CounterEmitter::branchAroundColdSpaceCounts() {
  MDNode *Rarely = MDBuilder(Ctx).createUnlikelyBranchWeights();
  for (ColdSpaceCount &Count : ColdSpaceCounts) {
    Instruction *Then = SplitBlockAndInsertIfThen(
        Count.Cold, Count.Adds.front()->getIterator(), false, Rarely);
    Then->getParent()->setName("pasta.space.cold");
    for (Instruction *I : Count.Adds)
      I->moveBefore(Then->getIterator());
  }
  ColdSpaceCounts.clear();
}
