//===- UniformLoops.h - Loops a warp runs in step ---------------*- C++ -*-===//
//
// What lets a divergence copy (DivergenceMeasures.cpp) take an access's
// warp-level figures once instead of at every execution:
//
//  - a loop whose every branch is warp-uniform (LLVM's uniformity analysis)
//    runs each iteration with the lanes that entered it, those active at its
//    preheader;
//  - the figures of an access depend on its lanes' addresses only through
//    their differences and their alignment: moving every lane's address by
//    the same amount keeps requests and distinct bytes, keeps bank conflicts
//    when the amount is a multiple of 4 bytes (the banks rotate), and keeps
//    sectors when it is a multiple of 32 (the granule, below);
//  - so an access in such a loop whose address moves by a warp-uniform step
//    per iteration (an affine recurrence, or no move) has, when the step is
//    a multiple of the granule, the figures of its first iteration in every
//    iteration; and accesses of one block whose addresses lie a constant
//    multiple of the granule apart have each other's figures (an unrolled
//    loop's loads along a tile row).
//
// The constructor puts the function's loops in simplified form (a preheader,
// exit blocks entered only from the loop) and finds the uniform ones; the
// rest is analysis, and the code that computes a first iteration's address
// and tests a step.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_UNIFORMLOOPS_H
#define PASTA_PASSES_UNIFORMLOOPS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/IR/CycleInfo.h"
#include "llvm/IR/PassManager.h"

#include <cstdint>
#include <memory>
#include <optional>

namespace llvm {
class BasicBlock;
class BranchInst;
class Function;
class Instruction;
class DominatorTree;
class Loop;
class PHINode;
class LoopInfo;
class SCEV;
class SCEVAddRecExpr;
class SCEVExpander;
class IntrinsicInst;
class IRBuilderBase;
class ScalarEvolution;
class Value;
} // namespace llvm

namespace pasta {

class UniformLoops {
public:
  UniformLoops(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
  ~UniformLoops();

  // A loop whose every branch is warp-uniform, with what code around it
  // needs, found before anything is added: where its preheader ends, the
  // blocks outside it entered from it (every way out goes through one), and
  // its iterations per entry (an i64 SCEV) when its latch is its only exit
  // and scalar evolution can count them, else null.
  struct UniformLoop {
    llvm::Loop *L;
    llvm::Instruction *PreheaderEnd;
    llvm::SmallVector<llvm::BasicBlock *, 4> Exits;
    const llvm::SCEV *Trips = nullptr;
  };

  // Whether BB is in a loop at all.
  bool inLoop(const llvm::BasicBlock &BB) const;
  // Whether BB's innermost loop holds a block-wide barrier (__syncthreads),
  // so that its trips are in step across the block's warps.
  bool inBarrierLoop(const llvm::BasicBlock &BB) const;
  // Whether A and B have the same innermost loop (or none).
  bool sameLoop(const llvm::BasicBlock &A, const llvm::BasicBlock &B) const;

  // The innermost loop holding BB when it is such a loop; null otherwise.
  // BB must be a block the function had when this was made.
  const UniformLoop *uniformLoop(const llvm::BasicBlock &BB) const;

  // The loop BB heads when it is not uniform (branches inside it diverge)
  // but every lane that enters it runs its header in every iteration with
  // the lanes it entered with, so that the header's warp and lane counts
  // are the preheader's times U.Trips: its latch is its only exit, on a
  // warp-uniform condition, and scalar evolution counts its iterations; no
  // loop inside it has a divergent exit (lanes leaving one apart may stay
  // apart: DivergencePlan.cpp); it calls nothing but intrinsics (a callee
  // may leave lanes apart). Lanes parted by a branch inside it are trusted
  // to meet again at its latch, as the planner trusts joins. Null
  // otherwise. BB must be a block the function had when this was made.
  const UniformLoop *countedHeader(const llvm::BasicBlock &BB) const;
  // A counted header's branch (countedHeader) in a loop of at most 32
  // iterations, a constant, on `X u< Bound` (either operand order) where X
  // is Start + k in iteration k and Bound is invariant in the loop
  // (nw_tile's anti-diagonal `m - tx u< 16`): at the preheader each lane
  // knows the iterations it takes the branch's true side in. Found at
  // construction; null for any other branch.
  struct IntervalBranch {
    const UniformLoop *U;
    const llvm::SCEV *Start, *Bound;
    uint32_t Trips;
  };
  const IntervalBranch *intervalBranch(const llvm::BranchInst &Br) const;
  // S, invariant in U's loop, computed at the end of U's preheader.
  llvm::Value *expandBefore(const UniformLoop &U, const llvm::SCEV *S);
  // The most visits one call of the function makes to Header: a loop's
  // header in no other cycle (entered at most once per call) whose trips
  // have a constant bound, found at construction; none otherwise.
  std::optional<uint64_t> mostVisits(const llvm::BasicBlock &Header) const;
  // The loop BB is the latch of, when its header is entered only from its
  // preheader and BB and lanes parted inside it meet again by its latch (no
  // loop inside it with a divergent exit, no call but to intrinsics); null
  // otherwise. BB must be a block the function had when this was made.
  const llvm::Loop *latchOf(const llvm::BasicBlock &BB) const;

  // Whether BB (in U) runs once in every iteration of U, U's iterations
  // being known.
  bool runsEveryIteration(const UniformLoop &U, const llvm::BasicBlock &BB);

  // How an access through Ptr, in the uniform loop L, repeats from one
  // iteration to the next: its address at the first iteration (invariant in
  // L); when the step is not known at compile time to be a multiple of
  // Granule bytes, the step to test at run time; and the narrow recurrences
  // the address extends (an int index, `sext {s,+,d}`), each of which must
  // not wrap in L's iterations for the address to move by the step (tested
  // per lane at run time, L's iterations being known). None when the
  // address does not move by a warp-uniform step, or Start cannot be
  // computed before L.
  struct NoWrap {
    const llvm::SCEVAddRecExpr *Narrow;
    bool Signed;
  };
  struct Repeat {
    const llvm::SCEV *Start;
    const llvm::SCEV *StepToTest; // null: no test needed
    llvm::SmallVector<NoWrap, 2> NoWraps;
  };
  std::optional<Repeat> repeatIn(const UniformLoop &L, llvm::Value *Ptr,
                                 uint64_t Granule);

  // The bytes Ptr's address moves per thread index x, when the rest of it is
  // the same in every lane of a row of lanes (a warp whose lanes hold
  // x = 32k + i, or each 16-lane half of a warp in a block 16 wide: block
  // indices, tid.y, tid.z and warp-uniform values are the row's): the
  // address is base + stride * x, base the row's. None when it has
  // another shape, or the stride is not a constant. Index extensions are
  // taken not to wrap between the lanes of a warp (an int index within 31
  // of INT_MAX), as C++ takes signed arithmetic not to overflow.
  // At is the block of the access.
  std::optional<int64_t> laneStride(llvm::Value *Ptr,
                                    const llvm::BasicBlock &At);

  // The bytes Ptr's address moves per thread index y, when it is a sum of
  // such a multiple of y, laneStride's multiple of x and warp-uniform terms
  // without y (B + S * x + P * y: P). None otherwise. At as laneStride's.
  std::optional<int64_t> rowStride(llvm::Value *Ptr,
                                   const llvm::BasicBlock &At);

  // rowStride as an expression (64 bits) where the coefficient is one
  // times values of a kernel's arguments (hotspot's idx = (row0 + 1 + ty)
  // * n + col0 + 1 + tx: 4 * n bytes), a factor the same in every lane and
  // known before the kernel's first instruction; rowStride's constant where
  // it has one. Null otherwise. At as laneStride's.
  const llvm::SCEV *rowStep(llvm::Value *Ptr, const llvm::BasicBlock &At);
  // rowStep's step S, computed before At (none where it cannot be).
  llvm::Value *expandRowStep(const llvm::SCEV *S, llvm::Instruction *At);

  // laneStride, or where the address selects between values of one lane
  // stride (`x > 0 ? a[x - 1] : a[x]`, a clamped neighbour), that stride,
  // with the selects' conditions that are not warp-uniform appended to
  // Conds: the address has it in a warp execution whose active lanes agree
  // on each of them.
  //
  // Likewise where it clamps a lane-affine index against a warp-uniform
  // bound (`max(x - 1, 0)`, `min(x + 1, n - 1)`: an smax, smin, umax or
  // umin intrinsic of one such operand and one uniform): the lane-affine
  // operand's stride, with the clamp appended to Arms. The address has it
  // in a warp execution whose every active lane takes that operand
  // (LaneArm::condition holds in all of them); where all take the bound it
  // is the same in every lane, so agreeing is not enough there.
  // A wrap too: `a % n` (urem) with `a` lane-affine, moving by Step > 0
  // per thread index x, and `n` warp-uniform (Game of Life's neighbours,
  // `(x + 1) % size`): where every lane's remainder is at least Step, no
  // two neighbouring lanes wrap apart, so `a / n` is the same in each row
  // of lanes and the remainder moves as `a` does.
  struct LaneArm {
    llvm::Instruction *Op; // the min/max intrinsic, or the urem
    unsigned Operand = 0;  // a min/max: the lane-affine operand's index
    int64_t Step = 0;      // a urem: what its dividend moves by per x
    // `operand >= bound` (smax, umax) or `<=` (smin, umin), built at B:
    // then the clamp's value is the operand; `remainder >= Step` (urem).
    llvm::Value *condition(llvm::IRBuilderBase &B) const;
  };
  std::optional<int64_t>
  laneStrideIf(llvm::Value *Ptr, const llvm::BasicBlock &At,
               llvm::SmallVectorImpl<llvm::Value *> &Conds,
               llvm::SmallVectorImpl<LaneArm> &Arms);

  // Whether every active lane takes the same way out of Term (a
  // conditional branch or a switch) in every execution: its condition is
  // warp-uniform by LLVM's uniformity analysis (which also knows a value
  // used after a loop the lanes left at different iterations) or by
  // provenUniform. Term must be an instruction the function had when this
  // was made.
  bool uniformCondition(const llvm::Instruction &Term) const;
  // Whether BB ends in a conditional branch or switch that is not
  // uniformCondition. BB must be a block the function had when this was
  // made.
  bool divergentTerminator(const llvm::BasicBlock &BB) const;
  // Whether a load, store or atomic's address is the same in every active lane
  // of a warp (by the analysis or provenUniform). Access must be an instruction
  // the function had when this was made.
  bool uniformAddress(const llvm::Instruction &Access) const;
  // Whether Term's condition is uniform by provenUniform only (the
  // analysis takes it as divergent).
  bool uniformBeyondAnalysis(const llvm::Instruction &Term) const;
  // Loops found uniform, and of those, how many only with provenUniform.
  unsigned uniformLoops() const { return Uniform.size(); }
  unsigned uniformLoopsBeyondAnalysis() const { return LoopsBeyondAnalysis; }

  // Whether BB, in a loop, runs under a divergent branch of that loop (the
  // blocks from the branch up to its immediate post-dominator): in such
  // blocks most executions have some lanes off. BB must be a block the
  // function had when this was made.
  bool underDivergenceInLoop(const llvm::BasicBlock &BB) const;

  // Whether B's address is always A's plus a constant multiple of Granule.
  bool constantApart(llvm::Value *A, llvm::Value *B, uint64_t Granule);

  // The outermost uniform loop around L (L itself when there is none) in
  // which R's start, step to test and narrow recurrences, and L's
  // iterations when R has narrow recurrences, are invariant and can be
  // computed at its preheader: what R's first iteration's addresses give
  // there, L's every entry in it gives, with the same lanes (no branch
  // between is divergent). kmeans' feature loop in its cluster loop.
  const UniformLoop &outermostInvariant(const UniformLoop &L, const Repeat &R);

  // Code at the end of L's preheader (At's, when given: a uniform loop
  // around L in which they are invariant, outermostInvariant): the address
  // Ptr has at L's first iteration, and whether R's step is a multiple of
  // Granule (an i1). Call these before any block of the function is split.
  llvm::Value *startBefore(const UniformLoop &L, llvm::Value *Ptr,
                           const Repeat &R, const UniformLoop *At = nullptr);
  llvm::Value *stepIsMultiple(const UniformLoop &L, const Repeat &R,
                              uint64_t Granule,
                              const UniformLoop *At = nullptr);
  // Whether R's step to test is off a multiple of Granule even where every
  // value it is computed from (a size, a pitch: the SCEV's unknowns) is a
  // multiple of Granule: its fixed part, the step with those values 0, is
  // not a multiple. nw_tile's step 8(n + 1) is (8); lud's 4n is not (0),
  // so lud's steps pass the run-time test wherever n is a multiple of 8.
  bool stepOffWithAlignedValues(const Repeat &R, uint64_t Granule);
  // R's step (StepToTest, bytes per iteration of U) at the preheader's end
  // of U (of At, an outer loop it is invariant in, where given).
  llvm::Value *stepBefore(const UniformLoop &U, const Repeat &R,
                          const UniformLoop *At = nullptr);
  // U's iterations per entry (U.Trips), computed once at its preheader's end
  // (at At's, an outer loop they are invariant in, where given).
  llvm::Value *tripsBefore(const UniformLoop &U,
                           const UniformLoop *At = nullptr);
  // Whether S is invariant in W's loop and can be computed at its preheader.
  bool invariantBefore(const llvm::SCEV *S, const UniformLoop &W);
  // In this lane, whether Cond, the condition of a branch in L's header
  // (a loop that keeps its lanes there, with a computable trip count),
  // holds at every iteration of this entry: an i1 at the end of L's
  // preheader, or null where Cond is not an `and` of values defined
  // outside L and inequalities between such values and affine
  // recurrences of L that do not wrap (such an inequality holds on an
  // interval of iterations, so at every one if at the first and the
  // last). Before any block of the function is split.
  llvm::Value *everyIterationBefore(llvm::Value *Cond, const llvm::Loop &L);
  // The innermost loop holding BB, if any.
  const llvm::Loop *loopOf(const llvm::BasicBlock &BB) const;
  // Whether I is a block barrier (__syncthreads, s_barrier).
  static bool isBlockBarrier(const llvm::Instruction &I);
  // Whether none of R's narrow recurrences wraps in U's iterations, in this
  // lane (an i1 at the end of U's preheader, or At's).
  llvm::Value *laneDoesNotWrap(const UniformLoop &U, const Repeat &R,
                               const UniformLoop *At = nullptr);

private:
  // B's constant distance past A through their GEPs' non-negative indices.
  std::optional<llvm::APInt> indexDifference(llvm::Value *A, llvm::Value *B);
  // Whether V has one value in all active lanes of a warp where At uses it,
  // by a proof the uniformity analysis lacks (it takes every call, NVPTX's
  // block indices and sizes included, and every load through a generic
  // pointer as divergent): a block index or size, the grid's size, a vote
  // or a block-wide barrier's reduction; a plain load of an address proven
  // uniform from memory all lanes share (global, shared or constant: a
  // variable in one of those spaces, or what a kernel's pointer parameter
  // points to, never a thread's stack); arithmetic, comparisons, casts,
  // selects and address computations on such. No phi the analysis does
  // not find uniform but a loop induction proveByInduction assumes (or
  // found), nor a value defined in a loop At is not in (lanes may have left
  // it at different iterations).
  bool provenUniform(const llvm::Value *V, const llvm::BasicBlock &At,
                     unsigned Depth = 0) const;
  // Adds L's branches to ProvenTerms when its inductions carry the proof
  // round the loop (`for (b = blockIdx.x; b < n; b += gridDim.x)`).
  void proveByInduction(const llvm::Loop &L);

  bool sameIterationAt(const llvm::Loop *L, const llvm::BasicBlock &At) const;
  bool sameIterationAt(const llvm::Value *V, const llvm::BasicBlock &At) const;
  bool isUniformStep(const llvm::SCEV *Step, const llvm::BasicBlock &At);
  void markDivergenceInLoops(llvm::Function &F,
                             llvm::FunctionAnalysisManager &FAM);
  std::optional<int64_t>
  operandsCoefficient(const llvm::SCEV *S,
                      llvm::ArrayRef<std::optional<int64_t>> Ops,
                      const llvm::BasicBlock &At);
  std::optional<int64_t> coefficient(bool OfY, const llvm::SCEV *S,
                                     const llvm::BasicBlock &At);
  std::optional<int64_t> leafCoefficient(bool OfY, const llvm::Value *V,
                                         const llvm::BasicBlock &At);
  std::optional<int64_t> xTerm(const llvm::SCEV *S,
                               llvm::ArrayRef<std::optional<int64_t>> Ops,
                               const llvm::BasicBlock &At);
  std::optional<int64_t> yTerm(const llvm::SCEV *S,
                               llvm::ArrayRef<std::optional<int64_t>> Ops,
                               const llvm::BasicBlock &At);
  std::optional<int64_t> xCoefficient(const llvm::SCEV *S,
                                      const llvm::BasicBlock &At);
  std::optional<int64_t> yCoefficient(const llvm::SCEV *S,
                                      const llvm::BasicBlock &At);
  const llvm::SCEV *yStep(const llvm::SCEV *S, const llvm::BasicBlock &At);
  bool ofUniformArguments(const llvm::SCEV *S, const llvm::BasicBlock &At);
  bool isWarpUniform(const llvm::Value *V, const llvm::BasicBlock &At,
                     unsigned Depth = 0);

  const llvm::SCEV *tripsOf(llvm::Loop &L);
  bool headerKeepsLanes(const llvm::Loop &L) const;
  void findIntervalBranch(const UniformLoop &U);
  // Whether lanes parted inside L are trusted to meet again by its latch
  // (as the planner trusts joins): no loop inside it has a divergent exit,
  // and it calls nothing but intrinsics. Before any code is added.
  bool lanesMeetInLoop(const llvm::Loop &L) const;
  const llvm::SCEV *countedTrips(llvm::Loop &L);

  llvm::LoopInfo *LI;
  llvm::DominatorTree *DT;
  llvm::ScalarEvolution *SE;
  llvm::UniformityInfo *UI;
  llvm::CycleInfo *CI;
  std::unique_ptr<llvm::SCEVExpander> Expander;
  llvm::DenseMap<const llvm::Loop *, UniformLoop>
      Uniform; // found at construction
  llvm::DenseMap<const llvm::Loop *, UniformLoop>
      CountedHeaders; // found at construction (countedHeader)
  llvm::DenseMap<const llvm::BranchInst *, IntervalBranch>
      IntervalBranches; // found at construction (intervalBranch)
  llvm::SmallPtrSet<const llvm::Loop *, 8> LanesMeet; // lanesMeetInLoop
  llvm::DenseMap<const UniformLoop *, llvm::Value *> Trips;
  llvm::DenseMap<const llvm::BasicBlock *, uint64_t> MostVisits; // mostVisits
  llvm::SmallPtrSet<const llvm::BasicBlock *, 16> DivergentInLoop;
  unsigned LoopsBeyondAnalysis = 0;
  // Conditional branches and switches provenUniform, found at construction.
  llvm::SmallPtrSet<const llvm::Instruction *, 16> ProvenTerms;
  // Header phis proveByInduction takes as uniform while it tries a loop.
  const llvm::SmallPtrSetImpl<const llvm::PHINode *> *AssumedPhis = nullptr;
  // Loop inductions proveByInduction found uniform.
  llvm::SmallPtrSet<const llvm::PHINode *, 8> InductionPhis;
  // Loads and stores whose address is uniformAddress.
  llvm::SmallPtrSet<const llvm::Instruction *, 16> UniformAddresses;
  // provenUniform's answers while the constructor asks.
  mutable llvm::DenseMap<
      std::pair<const llvm::Value *, const llvm::BasicBlock *>, bool>
      Proven;
  llvm::DenseMap<std::pair<const llvm::SCEV *, const llvm::BasicBlock *>,
                 std::optional<int64_t>>
      Coefficients, YCoefficients;
};

} // namespace pasta

#endif
