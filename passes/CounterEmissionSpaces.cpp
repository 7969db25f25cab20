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

STATISTIC(NumColdSpaceTests,
          "Run-time address-space tests with their counts off the hot path");

static cl::opt<bool> ColdAddressSpaces(
    "pasta-cold-address-spaces", cl::Hidden, cl::init(true),
    cl::desc("PASTA: in counting builds, the run-time address-space counts "
             "of generic accesses in loops live in local memory, tested once "
             "per base pointer and block and added only where the pointer is "
             "shared or local"));

void CounterEmitter::findColdSpaceSets(const FunctionPlan &P) {
  ColdSpaceSets.clear();
  ColdSpaceCounts.clear();
  ColdSpaceSlots.clear();
  if (!ColdAddressSpaces || !CountingBuild || T.Target == PASTA_TARGET_HOST ||
      P.ThreadLocalCounts || none_of(P.Blocks, [](const CountedBlock &CB) {
        return !CB.Generic.empty();
      }))
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
  PointerType *Generic = PointerType::get(Ctx, 0);
  FunctionCallee IsShared =
      M.getOrInsertFunction("__pasta_is_shared", I64, Generic);
  FunctionCallee IsLocal =
      M.getOrInsertFunction("__pasta_is_local", I64, Generic);
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
    Value *Shared = B.CreateCall(IsShared, {First->What.Pointer});
    Value *Local = B.CreateCall(IsLocal, {First->What.Pointer});
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
