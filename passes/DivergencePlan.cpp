//===- DivergencePlan.cpp - What divergence copies measure ----------------===//
//
// See Divergence.h: planDivergence. Planning runs on the functions as the
// optimizer left them (so PASTA's own code is never measured): each memory
// access on global (1), shared (3) or generic (0) memory, each conditional
// branch and switch, and each (block, line)'s instruction count get a row,
// found by (function, file, line); blocks whose executions follow from a
// block above them share its counters, and the figures that follow from a
// block's counters are derived at read-back (DivergenceFigures.h). The code
// that measures the plan is DivergenceEmission.cpp's.
//
//===----------------------------------------------------------------------===//
#include "DeviceRuntime.h"
#include "Divergence.h"
#include "DivergenceFigures.h"
#include "GridIndices.h"
#include "IRHelpers.h"
#include "InstrumentationMD.h"
#include "Selection.h"
#include "ThreadExits.h"

#include "pasta/abi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/CommandLine.h"

#include <map>

using namespace llvm;
using namespace pasta;

#define DEBUG_TYPE "pasta"

static cl::opt<bool> DeriveBodies(
    "pasta-div-derive-bodies", cl::init(true),
    cl::desc("PASTA: count the warp executions of a body outside loops at "
             "its branch instead of in every warp that runs it: block 0's "
             "times the grid's blocks where every block enters it alike "
             "(launchBody), else the branch's less those in which no lane "
             "took it (derivedBody) (off: measured)"));

static cl::opt<bool> SplitBodies(
    "pasta-div-split-bodies", cl::init(true),
    cl::desc("PASTA: a derived body's branch on a lane test that no 32-lane "
             "row takes whole (`lane == 0`) counts the executions in which "
             "every lane takes the body's side, and read-back derives its "
             "divergent ones (splitBody) (off: counted)"));

static cl::opt<bool> DeriveReturns(
    "pasta-div-derive-returns", cl::init(true),
    cl::desc("PASTA: a kernel's sole return counts only the groups of lanes "
             "that come to it without lane 0, and read-back adds the "
             "launch's warps and threads (soleReturn) (off: measured)"));

// On an H200 it took gaussian 1.98x -> 1.83x the plain build, lud 2.00x ->
// 1.95x, backprop's steps 5-7% faster, but coalescing's transposes +29% and
// +90% (dgemm and matmul_tiled +1.2-1.4%), every profile equal. The
// transposes' copies are held to 32 registers by the tile cap, and the
// class code's values spilled there (1,264 -> 1,480 bytes of spill stores a
// thread): on by default for the kernels whose copy that cap does not hold
// (TileCappedClasses).
static cl::opt<bool> LaunchClasses(
    "pasta-div-launch-classes", cl::init(true),
    cl::desc("PASTA: count an NVPTX 2-D kernel's launch warps, and its "
             "derived bodies' no-lane executions, per class of launches too, "
             "so that read-back derives what full warps of rows stacked in y "
             "add (DivergencePlan::LaunchClass) (off: each warp adds it)"));

static cl::opt<bool> TileCappedClasses(
    "pasta-div-launch-classes-tile-capped", cl::init(false),
    cl::desc("PASTA: launch classes for kernels whose divergence copy gets "
             "the 32-register tile cap too (tileCappedKernel)"));

static unsigned knownAddressSpace(Value *Ptr, unsigned Depth = 0);

// The space every caller's pointer for Arg points into, when every use of
// Arg's function in this module is a direct call of it and all agree; else
// generic. The divergence copy of a device function is called only from
// the copies of its callers here (a caller in another module calls the
// original), so its linkage does not matter, but a use other than a call
// (its address taken, llvm.used) may call it with anything. bfs's
// `__noinline__` visit, handed a kernel's parameters, is the first kind.
// Two calls deep and 32 calls wide at most, so that an access's walk stays
// short (no cache: a function with more callers stays generic).
static unsigned callersAddressSpace(const Argument &Arg, unsigned Depth) {
  const Function &F = *Arg.getParent();
  if (Depth > 1 || F.use_empty() || F.hasNUsesOrMore(33))
    return PASTA_DIV_GENERIC;
  std::optional<unsigned> Common;
  for (const Use &U : F.uses()) {
    auto *CB = dyn_cast<CallBase>(U.getUser());
    if (!CB || !CB->isCallee(&U) || CB->arg_size() != F.arg_size())
      return PASTA_DIV_GENERIC;
    unsigned AS =
        knownAddressSpace(CB->getArgOperand(Arg.getArgNo()), Depth + 1);
    if (AS == PASTA_DIV_GENERIC || (Common && *Common != AS))
      return PASTA_DIV_GENERIC;
    Common = AS;
  }
  return Common.value_or(PASTA_DIV_GENERIC);
}

// The space of an object a generic pointer points into when known: a shared
// or global variable seen through an address-space cast, a kernel's pointer
// parameter (global), a device function's pointer parameter whose every
// caller's is known alike; else generic.
static unsigned objectAddressSpace(const Value *Obj, unsigned Depth) {
  unsigned AS = Obj->getType()->getPointerAddressSpace();
  if (AS == PASTA_DIV_GLOBAL || AS == PASTA_DIV_SHARED)
    return AS;
  if (auto *Arg = dyn_cast<Argument>(Obj)) {
    if (Arg->hasByValAttr() || Arg->hasByRefAttr())
      return PASTA_DIV_GENERIC;
    CallingConv::ID CC = Arg->getParent()->getCallingConv();
    if (CC == CallingConv::PTX_Kernel || CC == CallingConv::AMDGPU_KERNEL)
      return PASTA_DIV_GLOBAL;
    return callersAddressSpace(*Arg, Depth);
  }
  return PASTA_DIV_GENERIC;
}

// The address space Ptr points into: its own, or for a generic pointer the
// one its object is known to be in (a shared or global variable seen
// through an address-space cast, a kernel's pointer parameter: global), so
// the copies test neither at run time and figures are kept per space.
static unsigned knownAddressSpace(Value *Ptr, unsigned Depth) {
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  if (AS != PASTA_DIV_GENERIC)
    return AS;
  // Through selects and phis (`x > 0 ? &a[x - 1] : &a[x]`): the space all
  // the objects share.
  SmallVector<const Value *, 4> Objs;
  getUnderlyingObjects(Ptr, Objs);
  std::optional<unsigned> Common;
  for (const Value *Obj : Objs) {
    unsigned ObjAS = objectAddressSpace(Obj, Depth);
    if (ObjAS == PASTA_DIV_GENERIC || (Common && *Common != ObjAS))
      return AS;
    Common = ObjAS;
  }
  return Common.value_or(AS);
}

// The pointer, address space and size of a memory access the copies
// measure; false for anything else (constant and local memory, intrinsics).
static bool measuredAccess(Instruction &I, const DataLayout &DL,
                           DivergencePlan::Access &A) {
  Value *Ptr = nullptr;
  Type *T = nullptr;
  A.Sectored = true;
  if (auto *LI = dyn_cast<LoadInst>(&I)) {
    Ptr = LI->getPointerOperand();
    T = LI->getType();
  } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
    Ptr = SI->getPointerOperand();
    T = SI->getValueOperand()->getType();
  } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    Ptr = RMW->getPointerOperand();
    T = RMW->getValOperand()->getType();
    A.Sectored = false;
  } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
    Ptr = CX->getPointerOperand();
    T = CX->getNewValOperand()->getType();
    A.Sectored = false;
  }
  if (!Ptr || !T->isSized())
    return false;
  unsigned AS = knownAddressSpace(Ptr);
  if (AS != PASTA_DIV_GENERIC && AS != PASTA_DIV_GLOBAL &&
      AS != PASTA_DIV_SHARED)
    return false;
  // Stack slots are generic pointers on NVPTX: not memory the warp shares.
  // Nor are a kernel's by-value parameters (param space, read with ld.param:
  // no global request for Nsight Compute either).
  if (isa<AllocaInst>(Ptr->stripPointerCasts()))
    return false;
  if (auto *Arg = dyn_cast<Argument>(getUnderlyingObject(Ptr)))
    if (Arg->hasByValAttr() || Arg->hasByRefAttr())
      return false;
  A.I = &I;
  A.Space = AS;
  if (AS != PASTA_DIV_GENERIC &&
      Ptr->getType()->getPointerAddressSpace() == PASTA_DIV_GENERIC) {
    SmallVector<const Value *, 4> Objs;
    getUnderlyingObjects(Ptr, Objs);
    A.CallersSpace = any_of(Objs, [](const Value *Obj) {
      auto *Arg = dyn_cast<Argument>(Obj);
      CallingConv::ID CC =
          Arg ? Arg->getParent()->getCallingConv() : CallingConv::C;
      return Arg && CC != CallingConv::PTX_Kernel &&
             CC != CallingConv::AMDGPU_KERNEL;
    });
  }
  A.Size = static_cast<uint32_t>(DL.getTypeStoreSize(T).getKnownMinValue());
  return A.Size != 0;
}

namespace {

// Rows by (function, file, line), added to the tables on first use.
class RowIndex {
public:
  RowIndex(ModuleTables &T, uint32_t Func, uint32_t FnFile)
      : T(T), Func(Func), FnFile(FnFile) {}

  // The row of Line, which location From (nullptr: the function's own
  // line) gives: in From's file.
  uint32_t rowFor(const DILocation *From, uint32_t Line) {
    uint32_t File = FnFile;
    if (const DILocation *L = From)
      if (auto *Scope = L->getScope())
        File = T.Strings.intern(
            joinPath(Scope->getDirectory(), Scope->getFilename()));
    auto [It, New] = Rows.try_emplace({File, Line}, 0);
    if (!New)
      return It->second;
    It->second = static_cast<uint32_t>(T.DivRows.size());
    pasta_div_row R{};
    R.func = Func;
    R.file = File;
    R.line = Line;
    R.counter = T.NumCounters;
    T.NumCounters += PASTA_DIV_NUM;
    T.DivRows.push_back(R);
    return It->second;
  }

private:
  ModuleTables &T;
  uint32_t Func, FnFile;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> Rows;
};

} // namespace

// Each instruction's line: its own, else the previous one in the block,
// else the next one, else the function's; with the location it comes from
// (whose file it is in), nullptr for the function's.
using LineFrom = std::pair<uint32_t, const DILocation *>;
static SmallVector<LineFrom, 16> blockLines(BasicBlock &BB, uint32_t FnLine) {
  SmallVector<LineFrom, 16> Lines;
  LineFrom Last{0, nullptr};
  for (Instruction &I : BB) {
    const DILocation *Loc = userLocation(I);
    if (Loc && Loc->getLine())
      Last = {Loc->getLine(), Loc};
    Lines.push_back(Last);
  }
  LineFrom Next{FnLine, nullptr};
  for (size_t K = Lines.size(); K-- > 0;) {
    if (Lines[K].first)
      Next = Lines[K];
    else
      Lines[K] = Next;
  }
  return Lines;
}

// Whether the code after I may run with other lanes than the code before
// it in the same block: a call of code PASTA does not see into (not an
// intrinsic).
static bool startsSegment(const Instruction &I) {
  const auto *Call = dyn_cast<CallBase>(&I);
  return Call && !isa<IntrinsicInst>(Call) && !Call->isInlineAsm();
}

// Whether BB holds code of the program's besides phis (not only PASTA's
// own, as a block split into a counted edge does): the blocks planDivergence
// plans (and measures).
static bool hasProgramCode(const BasicBlock &BB) {
  return any_of(BB, [](const Instruction &I) {
    return !isInstrumentation(&I) && !isa<PHINode>(I);
  });
}

// Whether I may gather lanes that came to it apart (after it, a warp may
// run with fewer separate groups of lanes than before it): a segment's
// start, or an operation the lanes wait for each other at: a barrier,
// __syncwarp, a *_sync shuffle, vote or match, or inline assembly, which
// clang marks convergent in device code because it may hold any of these.
// PASTA's own calls gather nothing.
static bool mayGatherLanes(const Instruction &I) {
  if (startsSegment(I))
    return true;
  const auto *Call = dyn_cast<CallBase>(&I);
  return Call && Call->isConvergent() && !isInstrumentation(&I) &&
         !(Call->getCalledFunction() &&
           isRuntimeFunction(*Call->getCalledFunction()));
}

// Whether I gathers all of a warp's lanes that are still running, as one
// group: a barrier every thread of the block reaches at the same
// instruction (__syncthreads, s_barrier) or __syncwarp() of the whole warp.
static bool gathersWarp(const Instruction &I) {
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  if (!II)
    return false;
  switch (II->getIntrinsicID()) {
  case Intrinsic::nvvm_barrier_cta_sync_aligned_all:
  case Intrinsic::amdgcn_s_barrier:
    return true;
  case Intrinsic::nvvm_bar_warp_sync: {
    const auto *Mask = dyn_cast<ConstantInt>(II->getArgOperand(0));
    return Mask && Mask->isMinusOne();
  }
  default:
    return false;
  }
}

// Blocks a walk below one block may visit, and dominators tried per block
// (both bound the planning time of huge functions).
static constexpr unsigned MaxBlocksWalked = 256;
static constexpr unsigned MaxDominatorsTried = 32;

namespace {

// Plans one function's blocks (planDivergence).
class FunctionPlanner {
public:
  FunctionPlanner(const FunctionPlan &P, ModuleTables &T, DivergencePlan &Plan,
                  UniformityInfo &UI, bool Capped32)
      : T(T), Plan(Plan), PF(T.Funcs[P.Index]), Rows(T, P.Index, PF.file),
        DL(P.F->getDataLayout()), UI(UI), IsKernel(P.Kind == PASTA_FUNC_KERNEL),
        ReadsThreadY(IsKernel && readsThreadY(*P.F)),
        TileCapped(IsKernel && Capped32) {
    for (const CountedBlock &CB : P.Blocks)
      CountingCounter[CB.BB] = P.FirstCounter + CB.Counter;
    DT.recalculate(*P.F);
    LI.analyze(DT);
    findBlocksRunOnceAfter(*P.F);
  }

  // After every block is planned: a conditional branch on the condition of
  // a branch above it, in a block that runs once after that branch's with
  // its lanes (`if (c) ...; __syncthreads(); if (c) ...`), sends the same
  // lanes the same ways, so its divergent executions are that branch's,
  // derived at read-back, where that branch is the only one of its row
  // (the row's counter is then its own) and repeats none itself.
  void deriveRepeatedBranches() {
    auto Mine = MutableArrayRef(Plan.Branches).drop_front(FirstBranch);
    DenseMap<uint32_t, unsigned> BranchesOf; // row -> branches
    for (const DivergencePlan::Branch &Br : Mine)
      ++BranchesOf[Br.Row];
    // Dominators first: a branch's first is final before it is looked at.
    DT.updateDFSNumbers();
    SmallVector<DivergencePlan::Branch *, 16> Order;
    for (DivergencePlan::Branch &Br : Mine)
      Order.push_back(&Br);
    llvm::sort(Order, [&](auto *X, auto *Y) {
      return DT.getNode(X->Term->getParent())->getDFSNumIn() <
             DT.getNode(Y->Term->getParent())->getDFSNumIn();
    });
    for (DivergencePlan::Branch *Later : Order)
      for (DivergencePlan::Branch *First : Order) {
        // A split branch's divergent executions are derived already.
        if (First == Later || Splits.count(Later->Term))
          break;
        if (BranchesOf[First->Row] == 1 && First->Row != Later->Row &&
            !First->Repeated && repeatsBranch(*First->Term, *Later->Term)) {
          derive(T, T.DivRows[Later->Row].counter + PASTA_DIV_DIVERGENT,
                 T.DivRows[First->Row].counter + PASTA_DIV_DIVERGENT, 1);
          Later->Repeated = true;
          break;
        }
      }
  }

  // After every block is planned: the divergent executions of each branch
  // that counts the executions no lane or every lane takes its body's side
  // instead (splitBody) are its executions less those, at read-back. Here,
  // after the rows deriving its block's warps and before those that derive
  // a later branch's from its row (deriveRepeatedBranches).
  void deriveSplitBranches() {
    for (const DivergencePlan::Branch &Br :
         ArrayRef(Plan.Branches).drop_front(FirstBranch))
      if (auto It = Splits.find(Br.Term); It != Splits.end()) {
        uint32_t Divergent = T.DivRows[Br.Row].counter + PASTA_DIV_DIVERGENT;
        derive(T, Divergent, Br.Warps, 1);
        derive(T, Divergent, It->second.first, -1);  // none
        derive(T, Divergent, It->second.second, -1); // all
      }
  }

  // BB's sites, its counters and the rows deriving figures from them.
  void planBlock(BasicBlock &BB) {
    SmallVector<LineFrom, 16> Lines = blockLines(BB, PF.line);
    std::map<uint32_t, uint32_t> InstsOf; // row -> instructions
    SmallVector<Instruction *, 2> Calls;  // each starts a segment after it
    size_t FirstAccess = Plan.Accesses.size();
    size_t FirstBranch = Plan.Branches.size();
    SmallVector<size_t, 8> AccessSegment, BranchSegment;
    size_t K = 0;
    for (Instruction &I : BB) {
      auto [Line, From] = Lines[K++];
      uint32_t Row = Rows.rowFor(From, Line);
      // PASTA's own (a block split into a counted edge): not the program's.
      if (isInstrumentation(&I))
        continue;
      if (!isa<PHINode>(I))
        ++InstsOf[Row];
      DivergencePlan::Access A;
      if (measuredAccess(I, DL, A)) {
        A.Row = Row;
        Plan.Accesses.push_back(A);
        AccessSegment.push_back(Calls.size());
      }
      auto *Br = dyn_cast<BranchInst>(&I);
      if ((Br && Br->isConditional() && !isa<Constant>(Br->getCondition())) ||
          isa<SwitchInst>(I)) {
        Plan.Branches.push_back({&I, Row, 0});
        BranchSegment.push_back(Calls.size());
      }
      if (startsSegment(I))
        Calls.push_back(&I);
    }
    if (T.Target == PASTA_TARGET_NVPTX)
      joinVectorAccesses(FirstAccess, AccessSegment);
    if (InstsOf.empty())
      return;
    DivergencePlan::Block Planned = countersOf(BB);
    Plan.Blocks.push_back(Planned);
    // Warp executions by segment, counted where a site needs them.
    SmallVector<uint32_t, 2> Warps(Calls.size() + 1, PASTA_NONE);
    Warps[0] = Planned.Warps;
    auto WarpsOf = [&](size_t Segment) {
      if (Warps[Segment] == PASTA_NONE) {
        Warps[Segment] = T.NumCounters++;
        Plan.Segments.push_back({Calls[Segment - 1], Warps[Segment]});
      }
      return Warps[Segment];
    };
    for (size_t I = 0; I < AccessSegment.size(); ++I) {
      DivergencePlan::Access &A = Plan.Accesses[FirstAccess + I];
      A.Warps = WarpsOf(AccessSegment[I]);
      A.Threads = Planned.Threads;
    }
    for (size_t I = 0; I < BranchSegment.size(); ++I)
      Plan.Branches[FirstBranch + I].Warps = WarpsOf(BranchSegment[I]);
    deriveFromBlock(T, Planned, InstsOf,
                    ArrayRef(Plan.Accesses).drop_front(FirstAccess),
                    ArrayRef(Plan.Branches).drop_front(FirstBranch));
  }

private:
  // NVPTX's back end joins adjacent accesses of one base into one vector
  // access (its load-store vectorizer runs after PASTA): the four element
  // loads of an int4 become one ld.global.v4, one request for ncu. Each run
  // it surely joins is measured as one access of the joined size at its
  // first element (the others are not measured): 2 or 4 loads, or stores,
  // of 4 or 8 bytes each, at most 16 bytes, next to each other in the
  // block and in memory from one base, the first aligned to the joined
  // size, with nothing between them that may write memory (for stores:
  // touch it) or start a segment. Segment holds each access's segment.
  void joinVectorAccesses(size_t First, SmallVectorImpl<size_t> &Segment) {
    auto &Acc = Plan.Accesses;
    for (size_t K = First; K < Acc.size(); ++K) {
      size_t N = vectorRun(K, First, Segment);
      if (N < 2)
        continue;
      Acc[K].Size *= N;
      Acc.erase(Acc.begin() + K + 1, Acc.begin() + K + N);
      auto Seg = Segment.begin() + (K - First);
      Segment.erase(Seg + 1, Seg + N);
    }
  }

  // How many planned accesses from Plan.Accesses[K] on the vectorizer
  // joins into one (1: none).
  size_t vectorRun(size_t K, size_t First, ArrayRef<size_t> Segment) {
    const auto &Acc = Plan.Accesses;
    const DivergencePlan::Access &Lead = Acc[K];
    uint32_t Elem = Lead.Size;
    if (!isSimpleAccess(*Lead.I) || (Elem != 4 && Elem != 8))
      return 1;
    bool Load = isa<LoadInst>(Lead.I);
    APInt Start;
    const Value *Base = baseOf(*Lead.I, Start);
    size_t N = 1;
    for (; N < 16 / Elem && K + N < Acc.size(); ++N) {
      const DivergencePlan::Access &Next = Acc[K + N];
      if (Segment[K + N - First] != Segment[K - First] || Next.Size != Elem ||
          Next.Space != Lead.Space || !isSimpleAccess(*Next.I) ||
          isa<LoadInst>(Next.I) != Load ||
          !nothingBetween(*Acc[K + N - 1].I, *Next.I, Load))
        break;
      APInt Offset;
      if (baseOf(*Next.I, Offset) != Base ||
          Offset.getBitWidth() != Start.getBitWidth() ||
          Offset != Start + N * Elem)
        break;
    }
    // A vector of 2 or 4 elements, as aligned as it is long.
    uint64_t Aligned = getLoadStoreAlignment(Lead.I).value();
    while (N > 1 && ((N & (N - 1)) != 0 || Aligned < N * Elem))
      --N;
    return N;
  }

  static bool isSimpleAccess(const Instruction &I) {
    if (const auto *L = dyn_cast<LoadInst>(&I))
      return L->isSimple();
    if (const auto *S = dyn_cast<StoreInst>(&I))
      return S->isSimple();
    return false;
  }

  // The pointer a load or store I uses, less its constant offset (set in
  // Offset, at the pointer's index width).
  const Value *baseOf(const Instruction &I, APInt &Offset) const {
    const Value *Ptr = getLoadStorePointerOperand(&I);
    Offset = APInt(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
    return Ptr->stripAndAccumulateConstantOffsets(DL, Offset,
                                                  /*AllowNonInbounds=*/true);
  }

  // Whether nothing between From and To (one block, From first) keeps the
  // vectorizer from joining them: no write to memory between two loads,
  // no memory access at all between two stores, no call.
  static bool nothingBetween(const Instruction &From, const Instruction &To,
                             bool Loads) {
    for (const Instruction *I = From.getNextNode(); I && I != &To;
         I = I->getNextNode())
      if (isa<CallBase>(I) ||
          (Loads ? I->mayWriteToMemory() : I->mayReadOrWriteMemory()))
        return false;
    return true;
  }

  // BB's counters: those of the block above it that it runs once after
  // (not measured in BB), else its own warp counter and, for thread-level
  // executions, the counting code's count of the block where it has one.
  DivergencePlan::Block countersOf(BasicBlock &BB) {
    auto Counting = CountingCounter.find(&BB);
    auto Above = RunsOnceAfter.find(&BB);
    if (Above != RunsOnceAfter.end()) {
      DivergencePlan::Block Top = countersOf(*Above->second);
      Top.BB = &BB;
      Top.Measured = false;
      Top.Launch = false;
      Top.OwnThreads = false;
      if (Counting != CountingCounter.end())
        Top.Threads = Counting->second;
      return Top;
    }
    if (auto It = OwnCounters.find(&BB); It != OwnCounters.end())
      return It->second;
    DivergencePlan::Block Own{&BB, 0, 0, false};
    if (IsKernel && BB.isEntryBlock()) {
      // Every warp a launch starts runs a kernel's entry once with all its
      // lanes: both counters are the launch's, added once (Block::Launch).
      Own.Warps = T.NumCounters++;
      Own.Threads = T.NumCounters++;
      Own.OwnThreads = true;
      Own.Measured = false;
      Own.Launch = true;
      launchClasses(Own.Warps);
    } else if (Counting != CountingCounter.end() && launchBody(BB)) {
      // Its warps: the grid's blocks times block 0's (launchBody), added
      // by block 0's branch; no row derives them.
      auto *Br = cast<BranchInst>(BB.getSinglePredecessor()->getTerminator());
      Own.Warps = T.NumCounters++;
      Own.Threads = Counting->second;
      Own.Measured = false;
      Plan.NoneTakens.push_back(
          {Br, Br->getSuccessor(0) == &BB ? 0u : 1u, Own.Warps, true});
    } else if (derivedBody(BB)) {
      // Its warps: the branch block's, less the branch's executions in
      // which no lane took BB's side (derivedBody); its active lanes, where
      // the counting code does not count it, the branch block's less those
      // that did not take it. The branch block's counters first, so that
      // the rows deriving them come before these.
      BasicBlock &P = *BB.getSinglePredecessor();
      auto *Br = cast<BranchInst>(P.getTerminator());
      DivergencePlan::Block Top = countersOf(P);
      uint32_t None = T.NumCounters++;
      Own.Warps = T.NumCounters++;
      Own.Measured = false;
      const DivergencePlan::LaunchClass *Launch = launchClassOf(Top.Warps);
      if (Launch && !(Counting != CountingCounter.end() &&
                      splitBody(*Br, Br->getSuccessor(0) == &BB ? 0 : 1)))
        noneClasses(*Launch, Own.Warps, None);
      derive(T, Own.Warps, Top.Warps, 1);
      derive(T, Own.Warps, None, -1);
      DivergencePlan::NoneTaken NT{Br, Br->getSuccessor(0) == &BB ? 0u : 1u,
                                   None};
      if (Counting != CountingCounter.end()) {
        Own.Threads = Counting->second;
        if (splitBody(*Br, NT.Side)) {
          NT.All = T.NumCounters++;
          Splits[Br] = {NT.None, NT.All};
        }
      } else {
        NT.Others = T.NumCounters++;
        Own.Threads = T.NumCounters++;
        derive(T, Own.Threads, Top.Threads, 1);
        derive(T, Own.Threads, NT.Others, -1);
      }
      Plan.NoneTakens.push_back(NT);
    } else if (soleReturn(BB)) {
      // Its warps: the launch's plus the groups of lanes without lane 0
      // (Block::Regroups); its lanes: the launch's threads, where the
      // counting code does not count it. The entry's counters first.
      DivergencePlan::Block Entry = countersOf(BB.getParent()->getEntryBlock());
      Own.Regroups = T.NumCounters++;
      Own.Warps = T.NumCounters++;
      Own.Measured = false;
      derive(T, Own.Warps, Entry.Warps, 1);
      derive(T, Own.Warps, Own.Regroups, 1);
      Own.Threads =
          Counting != CountingCounter.end() ? Counting->second : Entry.Threads;
    } else {
      Own.Warps = T.NumCounters++;
      Own.OwnThreads = Counting == CountingCounter.end();
      Own.Threads = Own.OwnThreads ? T.NumCounters++ : Counting->second;
    }
    // Planned once (the checks above may have planned blocks above it).
    assert(!OwnCounters.count(&BB) && "a block's counters planned twice");
    OwnCounters[&BB] = Own;
    return Own;
  }

  // DivergencePlan::LaunchClass of the kernel entry's warp counter Warps:
  // its launch warps per class, in an NVPTX kernel that reads thread index
  // y (one whose warps may hold rows stacked in y).
  void launchClasses(uint32_t Warps) {
    if (!LaunchClasses || T.Target != PASTA_TARGET_NVPTX || !ReadsThreadY ||
        (TileCapped && !TileCappedClasses))
      return;
    Plan.LaunchClasses.push_back({Warps, T.NumCounters});
    T.NumCounters += DivergencePlan::NumLaunchClasses;
  }

  // The launch class of warp counter Warps, if it has one.
  const DivergencePlan::LaunchClass *launchClassOf(uint32_t Warps) const {
    for (const DivergencePlan::LaunchClass &C : Plan.LaunchClasses)
      if (C.Warps == Warps)
        return &C;
    return nullptr;
  }

  // The launch class of a derived body whose warp counter Warps is
  // Launch's warps less None (not a split body's: its helper adds to None
  // or to All): None's adds made in launches of a class, per class, too.
  void noneClasses(const DivergencePlan::LaunchClass &Launch, uint32_t Warps,
                   uint32_t None) {
    DivergencePlan::LaunchClass C{Warps, Launch.LaunchWarps, None,
                                  T.NumCounters};
    T.NumCounters += DivergencePlan::NumLaunchClasses;
    Plan.LaunchClasses.push_back(C);
  }

  // Whether F reads thread index y (NVPTX).
  static bool readsThreadY(const Function &F) {
    return any_of(instructions(F), [](const Instruction &I) {
      const auto *II = dyn_cast<IntrinsicInst>(&I);
      return II && II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_tid_y;
    });
  }

  // Whether BB is an if-then body outside loops whose warp executions follow
  // from its branch's: entered only from one side of a two-way conditional
  // branch that the lanes may take apart, in a block with no call (so that
  // the branch runs with the lanes at the block's top), the other side
  // being a join (entered from elsewhere too, past a counted edge's block:
  // in `if (c) {...}` BB leads there; an if-else's sides or a block of its
  // own after an early return are left measured, since either side may be
  // the one most warps skip), and a condition whose form says most warps
  // have a lane going BB's way (mostWarpsEnter).
  // Each warp execution of the branch in which some lane goes to BB is one
  // of BB's with those lanes (the planner's trust that lanes going one way
  // together run it together), so BB's are the branch's less those in which
  // no lane went its way: the branch's helper counts those
  // (__pasta_div_branch_none_add), and a warp running BB adds nothing.
  bool derivedBody(const BasicBlock &BB) const {
    if (!DeriveBodies || BB.isEntryBlock() || LI.getLoopFor(&BB))
      return false;
    const BasicBlock *P = BB.getSinglePredecessor();
    auto *Br = P ? dyn_cast<BranchInst>(P->getTerminator()) : nullptr;
    if (!Br || !Br->isConditional() || isa<Constant>(Br->getCondition()) ||
        Br->getSuccessor(0) == Br->getSuccessor(1) || LI.getLoopFor(P) ||
        !UI.hasDivergentTerminator(*P) || any_of(*P, startsSegment))
      return false;
    // One body per branch (the emission keeps one counter per branch).
    if (any_of(Plan.NoneTakens, [&](const DivergencePlan::NoneTaken &NT) {
          return NT.Term == Br;
        }))
      return false;
    // The other side, past blocks of PASTA's own (a counted edge's).
    unsigned Side = Br->getSuccessor(0) == &BB ? 0 : 1;
    const BasicBlock *Other = Br->getSuccessor(1 - Side);
    for (unsigned Hops = 0;
         Hops < 4 && !hasProgramCode(*Other) && Other->getSingleSuccessor();
         ++Hops)
      Other = Other->getSingleSuccessor();
    return !Other->getSinglePredecessor() &&
           mostWarpsEnter(Br->getCondition(), Side == 0);
  }

  // Whether BB is a kernel's sole return, run once by every thread a launch
  // starts: no other block returns or ends in `unreachable`, and nothing
  // the kernel runs may end a thread before it (ThreadExits.h; a call
  // that does not return; an indirect call). Every warp then brings all
  // its lanes there, in one or more groups, exactly one of which holds
  // lane 0 (a warp's threads are its lowest lanes: lane 0 runs in every
  // warp of a launch). Its warp executions are measured otherwise where a
  // divergent loop lies before it (bfs_expand's edges), in every warp,
  // though most warps reach it whole (Block::Regroups).
  bool soleReturn(const BasicBlock &BB) const {
    return DeriveReturns && IsKernel && !BB.isEntryBlock() &&
           isReturnOfEveryThread(BB);
  }

  // Whether a derived body's branch Br (its body on Side) counts the
  // executions in which every active lane takes Side, with those in which
  // none does, instead of its divergent ones (derived from the three at
  // read-back: deriveSplitBranches): where its condition on that side
  // holds only for a lane test that some lane of every 32-lane row fails
  // (`lane == 0`, `lane < 8`, `(tid & 1) == 0`), a warp of one full row
  // never takes it whole, and with the body's derived warps (mostWarpsEnter)
  // seldom in no lane, so such a warp, which adds its divergent execution
  // (a first-lane `red`), adds nothing. Only where the counting code counts
  // the body (the branch then adds no lanes of its own in a split warp).
  bool splitBody(const BranchInst &Br, unsigned Side) const {
    return SplitBodies && notWholeRow(Br.getCondition(), Side == 0);
  }

  // Whether Cond is Taken in no warp of one full 32-lane row in every lane:
  // it holds only where a lane test (laneInGroup against a constant) does,
  // whose lanes 0..31 do not all pass.
  bool notWholeRow(const Value *Cond, bool Taken, unsigned Depth = 0) const {
    using namespace PatternMatch;
    const Value *A, *B;
    if (Depth < 4 &&
        ((Taken && match(Cond, m_LogicalAnd(m_Value(A), m_Value(B)))) ||
         (!Taken && match(Cond, m_LogicalOr(m_Value(A), m_Value(B))))))
      return notWholeRow(A, Taken, Depth + 1) ||
             notWholeRow(B, Taken, Depth + 1);
    CmpPredicate Pred;
    const APInt *C;
    if (!match(Cond, m_ICmp(Pred, m_Value(A), m_APInt(C))) || !laneInGroup(A))
      return false;
    if (!Taken)
      Pred = CmpInst::getInversePredicate(Pred);
    // The group's values 0..Group-1 all occur in a row of 32 (Group divides
    // 32): one that fails the test is a lane that does not take Taken.
    uint64_t Group = laneGroup(A);
    for (uint64_t V = 0; V < Group; ++V)
      if (!ICmpInst::compare(APInt(C->getBitWidth(), V), *C, Pred))
        return true;
    return false;
  }

  // Whether BB's warp executions are the grid's blocks times block 0's: BB
  // is entered only from one side of a two-way conditional branch outside
  // loops, in a block that shares the kernel entry's counters (every thread
  // of every block runs it once, with its warp's lanes: runsOnceAfter from
  // the entry, no exit or call before it), on a condition of the thread's
  // index in its block and of values the same in every block (sameInBlocks).
  // Every block then sends the same warps to BB, whatever the grid. Block
  // 0's branch counts them (__pasta_div_branch_launch_add); in the other
  // blocks no warp adds for BB, however few of them enter it (a tree
  // reduction's `tid < s`, `ty % 2^i == 0`, `tid == 0`).
  bool launchBody(BasicBlock &BB) {
    if (!DeriveBodies || !IsKernel || BB.isEntryBlock() || LI.getLoopFor(&BB))
      return false;
    BasicBlock *P = BB.getSinglePredecessor();
    auto *Br = P ? dyn_cast<BranchInst>(P->getTerminator()) : nullptr;
    if (!Br || !Br->isConditional() || isa<Constant>(Br->getCondition()) ||
        Br->getSuccessor(0) == Br->getSuccessor(1) || LI.getLoopFor(P) ||
        any_of(*P, startsSegment) ||
        any_of(Plan.NoneTakens, [&](const DivergencePlan::NoneTaken &NT) {
          return NT.Term == Br;
        }))
      return false;
    BasicBlock &Entry = P->getParent()->getEntryBlock();
    DivergencePlan::Block Top = countersOf(Entry);
    if (!Top.Launch || countersOf(*P).Warps != Top.Warps)
      return false;
    unsigned Budget = 64;
    return sameInBlocks(Br->getCondition(), Budget);
  }

  // Whether V, in every thread, depends only on the thread's index in its
  // block, the block's and the grid's sizes, constants and a kernel's
  // scalar parameters (so two threads at the same place in two blocks
  // compute the same V), through arithmetic, casts, comparisons, selects
  // and min/max, at most Budget instructions.
  static bool sameInBlocks(const Value *V, unsigned &Budget) {
    if (isa<Constant>(V))
      return true;
    if (const auto *Arg = dyn_cast<Argument>(V))
      return !Arg->getType()->isPointerTy() && !Arg->hasByValAttr() &&
             !Arg->hasByRefAttr();
    const auto *I = dyn_cast<Instruction>(V);
    if (!I || Budget == 0)
      return false;
    --Budget;
    if (const auto *II = dyn_cast<IntrinsicInst>(I)) {
      GridIndex G = gridRead(II->getIntrinsicID()).Index;
      if (G == GridIndex::Thread || G == GridIndex::BlockSize ||
          G == GridIndex::GridSize)
        return true;
      switch (II->getIntrinsicID()) {
      case Intrinsic::smin:
      case Intrinsic::smax:
      case Intrinsic::umin:
      case Intrinsic::umax:
        break;
      default:
        return false;
      }
    } else if (!isa<BinaryOperator>(I) && !isa<CastInst>(I) &&
               !isa<CmpInst>(I) && !isa<SelectInst>(I)) {
      return false;
    }
    return all_of(I->operands(), [&](const Value *Op) {
      return isa<Function>(Op) || sameInBlocks(Op, Budget);
    });
  }

  // Whether most warps that run a branch on Cond have a lane going to the
  // side where Cond is Taken, as far as its form says: the no-lane count
  // (derivedBody) must be rarer than the body's warps, or it costs more
  // than it saves. Two forms, and ands or ors of them on that side:
  //  - a bounds check of a grid-wide index, `i < n` or `i >= 0` (i built
  //    from the thread index and warp-uniform values such as blockIdx.x *
  //    blockDim.x, nothing loaded, n warp-uniform): only the warps past
  //    either end skip it (`i >= n` on the false side);
  //  - a lane test that lane 0 of a group of lanes passes, `(tid & 31) ==
  //    0` or `lane < k` (tid & 31: every warp holds such a lane).
  // Not a block-local test (`tid < s` in a tree reduction, whose later
  // steps most warps skip), nor one on loaded data (bfs's `frontier[u]`).
  bool mostWarpsEnter(const Value *Cond, bool Taken, unsigned Depth = 0) const {
    using namespace PatternMatch;
    const Value *A, *B;
    // An and on its true side, an or on its false side: both parts hold.
    if (Depth < 4 &&
        ((Taken && match(Cond, m_LogicalAnd(m_Value(A), m_Value(B)))) ||
         (!Taken && match(Cond, m_LogicalOr(m_Value(A), m_Value(B))))))
      return mostWarpsEnter(A, Taken, Depth + 1) &&
             mostWarpsEnter(B, Taken, Depth + 1);
    CmpPredicate Pred;
    if (!match(Cond, m_ICmp(Pred, m_Value(A), m_Value(B))))
      return false;
    if (!Taken)
      Pred = CmpInst::getInversePredicate(Pred);
    // The index on the left.
    if (warpUniform(A)) {
      std::swap(A, B);
      Pred = CmpInst::getSwappedPredicate(Pred);
    }
    if (!warpUniform(B))
      return false;
    bool Below = ICmpInst::isLT(Pred) || ICmpInst::isLE(Pred);
    if (laneInGroup(A))
      return Below || (Pred == ICmpInst::ICMP_EQ && match(B, m_Zero()));
    // Above a bound of at most 0 (`i >= 0`): only the first warps miss it.
    const APInt *Low;
    bool AboveStart = ICmpInst::isSigned(Pred) &&
                      (ICmpInst::isGT(Pred) || ICmpInst::isGE(Pred)) &&
                      match(B, m_APInt(Low)) && !Low->isStrictlyPositive();
    IndexParts Parts;
    indexParts(A, Parts);
    return (Below || AboveStart) && Parts.Thread && Parts.Wide && !Parts.Other;
  }

  // Whether V is the same in every lane of a warp: what LLVM's uniformity
  // analysis says, or arithmetic on such values and on the block's index
  // and size and the grid's (calls, to the analysis on NVPTX).
  bool warpUniform(const Value *V, unsigned Depth = 0) const {
    if (UI.isUniform(V))
      return true;
    const auto *I = dyn_cast<Instruction>(V);
    if (!I || Depth > 12)
      return false;
    if (const auto *II = dyn_cast<IntrinsicInst>(I)) {
      GridIndex G = gridRead(II->getIntrinsicID()).Index;
      return G == GridIndex::Block || G == GridIndex::BlockSize ||
             G == GridIndex::GridSize;
    }
    if (!isa<BinaryOperator>(I) && !isa<CastInst>(I) && !isa<CmpInst>(I) &&
        !isa<SelectInst>(I))
      return false;
    return all_of(I->operands(),
                  [&](const Value *Op) { return warpUniform(Op, Depth + 1); });
  }

  // tid.x & M (M + 1 a power of 2 up to 32) or tid.x % 2^k: a lane's place
  // in a group of lanes that every warp holds whole (GridIndices.h).
  static bool laneInGroup(const Value *V) { return laneGroup(V) != 0; }

  // What an index is built from (mostWarpsEnter): the thread's index,
  // something that makes it grid-wide (the block's index, or a
  // warp-uniform value computed from it, such as blockIdx.x * blockDim.x),
  // or anything else that differs between lanes (a load, a call, a phi).
  struct IndexParts {
    bool Thread = false, Wide = false, Other = false;
  };
  void indexParts(const Value *V, IndexParts &P, unsigned Depth = 0) const {
    if (isa<Constant>(V) || isa<Argument>(V))
      return;
    const auto *I = dyn_cast<Instruction>(V);
    if (!I || Depth > 12) {
      P.Other = true;
      return;
    }
    if (const auto *II = dyn_cast<IntrinsicInst>(I)) {
      GridRead R = gridRead(II->getIntrinsicID());
      P.Thread |= R.Index == GridIndex::Thread;
      P.Wide |= R.Index == GridIndex::Block;
      if (R.Index != GridIndex::None)
        return;
    }
    if (warpUniform(I)) {
      P.Wide = true; // a uniform value computed in the kernel
      return;
    }
    if (!isa<BinaryOperator>(I) && !isa<CastInst>(I)) {
      P.Other = true;
      return;
    }
    for (const Value *Op : I->operands())
      indexParts(Op, P, Depth + 1);
  }

  // Whether B runs exactly once after each run of A, which dominates it
  // and has the same innermost loop L (or none): every path from A reaches
  // B before it goes back to L's header, leaves L or ends the function, so
  // B runs once in each of A's iterations (or calls), and only after A. B
  // then has A's executions if a warp runs it with the lanes it ran A with:
  //  - lanes that part at a branch come back together where its paths meet
  //    (the compiler's reconvergence point), but those that leave a loop
  //    apart (a divergent exit) may stay apart: no such loop may lie
  //    between A and B. Not even a barrier after it is trusted to bring
  //    them back: in CUB's Onesweep sort that gave requests +3% against
  //    ncu, and rejecting every such loop gives what measuring every block
  //    gives;
  //  - lanes that came to A apart must not be gathered before B (a barrier,
  //    a *_sync operation: mayGatherLanes), unless they came to A together
  //    (entersTogether);
  //  - a call may return its lanes apart: none may lie between them.
  bool runsOnceAfter(const BasicBlock &A, const BasicBlock &B, const Loop *L) {
    bool Together = entersTogether(A);
    SmallPtrSet<const BasicBlock *, 16> Seen{&A};
    SmallVector<const BasicBlock *, 16> Work{&A};
    while (!Work.empty()) {
      const BasicBlock *X = Work.pop_back_val();
      if (succ_empty(X) ||
          any_of(*X, Together ? startsSegment : mayGatherLanes) ||
          leavesLoopApart(*X, L))
        return false;
      for (const BasicBlock *S : successors(X)) {
        if (S == &B)
          continue;
        if (L && (S == L->getHeader() || !L->contains(S)))
          return false;
        if (!Seen.insert(S).second)
          continue;
        if (Seen.size() > MaxBlocksWalked)
          return false;
        Work.push_back(S);
      }
    }
    return true;
  }

  // Whether lanes may leave X's loop (one inside L) apart at X's branch.
  bool leavesLoopApart(const BasicBlock &X, const Loop *L) const {
    const Loop *XL = LI.getLoopFor(&X);
    return XL && XL != L && UI.hasDivergentTerminator(X) &&
           any_of(successors(&X),
                  [&](const BasicBlock *S) { return !XL->contains(S); });
  }

  // Whether Later branches on First's condition with First's lanes each
  // time First runs: conditional branches of two blocks with no call, the
  // later one's running once after the first's (runsOnceAfter).
  bool repeatsBranch(const Instruction &First, const Instruction &Later) {
    const auto *A = dyn_cast<BranchInst>(&First);
    const auto *B = dyn_cast<BranchInst>(&Later);
    if (!A || !B || !A->isConditional() || !B->isConditional() ||
        A->getCondition() != B->getCondition())
      return false;
    const BasicBlock &X = *A->getParent(), &Y = *B->getParent();
    const Loop *L = LI.getLoopFor(&X);
    return &X != &Y && DT.dominates(&X, &Y) && LI.getLoopFor(&Y) == L &&
           none_of(X, startsSegment) && none_of(Y, startsSegment) &&
           runsOnceAfter(X, Y, L);
  }

  // Whether a warp's lanes that run A run it together, once per arrival:
  // going up from A, every path meets a whole-warp gather (gathersWarp) or
  // a kernel's entry (its lanes start together) before any call, and no
  // branch on the way that lanes may take apart (divergent: a loop's exit
  // too) has two successors that lead on to A with no gather in between.
  // Unlike runsOnceAfter this does not trust lanes that part at a branch
  // to meet again where its paths do: in CUB's Onesweep sort, trusting it
  // here let a barrier gather lanes that came to A apart (requests +4%
  // against ncu). A subset of the lanes (after `if (tid < n)`) is one
  // group.
  bool entersTogether(const BasicBlock &A) {
    auto [It, New] = EntersTogether.try_emplace(&A, false);
    if (New)
      It->second = lanesComeTogether(A);
    return It->second;
  }

  bool lanesComeTogether(const BasicBlock &A) const {
    // Blocks whose top leads on to A with no gather (A's own top too).
    SmallPtrSet<const BasicBlock *, 16> LeadOn{&A};
    SmallPtrSet<const BasicBlock *, 16> Seen;
    SmallVector<const BasicBlock *, 16> Work(predecessors(&A));
    if (Work.empty())
      return IsKernel && A.isEntryBlock();
    while (!Work.empty()) {
      const BasicBlock *X = Work.pop_back_val();
      if (!Seen.insert(X).second)
        continue;
      if (Seen.size() > MaxBlocksWalked)
        return false;
      // Only the code after X's last gather leads on to A.
      auto Gather = find_if(reverse(*X), gathersWarp);
      auto After =
          Gather == X->rend() ? X->begin() : std::next(Gather->getIterator());
      if (std::any_of(After, X->end(), startsSegment))
        return false;
      if (Gather != X->rend())
        continue;
      LeadOn.insert(X);
      if (X->isEntryBlock() && !IsKernel)
        return false;
      append_range(Work, predecessors(X));
    }
    return none_of(Seen, [&](const BasicBlock *X) {
      if (!UI.hasDivergentTerminator(*X))
        return false;
      SmallPtrSet<const BasicBlock *, 4> Ways;
      for (const BasicBlock *S : successors(X))
        if (LeadOn.contains(S))
          Ways.insert(S);
      return Ways.size() > 1;
    });
  }

  // A block entered only from a conditional branch on C, when the branch's
  // block runs once after a block above it that branches on C too, whose
  // successor on the same side is entered only from there (`if (c) {...}
  // __syncthreads(); if (c) {...}`): that successor, which runs exactly
  // when BB does, with the same lanes (C is one value per lane, and the
  // two branches run with the same lanes). Null when there is none.
  BasicBlock *sameSideBlock(BasicBlock &BB) {
    BasicBlock *P = BB.getSinglePredecessor();
    auto *Br = P ? dyn_cast<BranchInst>(P->getTerminator()) : nullptr;
    if (!Br || !Br->isConditional() ||
        Br->getSuccessor(0) == Br->getSuccessor(1))
      return nullptr;
    unsigned Side = Br->getSuccessor(0) == &BB ? 0 : 1;
    const Loop *L = LI.getLoopFor(P);
    unsigned Tried = 0;
    for (DomTreeNode *Up = DT.getNode(P)->getIDom();
         Up && Tried < MaxDominatorsTried; Up = Up->getIDom(), ++Tried) {
      BasicBlock &X = *Up->getBlock();
      auto *XBr = dyn_cast<BranchInst>(X.getTerminator());
      if (!XBr || !XBr->isConditional() ||
          XBr->getCondition() != Br->getCondition())
        continue;
      BasicBlock *A = XBr->getSuccessor(Side);
      if (A != XBr->getSuccessor(1 - Side) && A->getSinglePredecessor() == &X &&
          hasProgramCode(*A) && LI.getLoopFor(&X) == L &&
          LI.getLoopFor(A) == LI.getLoopFor(&BB) && runsOnceAfter(X, *P, L))
        return A;
    }
    return nullptr;
  }

  // For each block with program code, the highest block with program code
  // above it in the dominator tree that it runs once after, if any; else
  // the block it runs with on the same side of a repeated branch.
  void findBlocksRunOnceAfter(Function &F) {
    for (BasicBlock &BB : F) {
      DomTreeNode *Node = DT.getNode(&BB);
      if (!Node || !hasProgramCode(BB))
        continue;
      const Loop *L = LI.getLoopFor(&BB);
      BasicBlock *Top = nullptr;
      unsigned Tried = 0;
      for (DomTreeNode *Up = Node->getIDom(); Up && Tried < MaxDominatorsTried;
           Up = Up->getIDom(), ++Tried) {
        BasicBlock &A = *Up->getBlock();
        if (LI.getLoopFor(&A) == L && hasProgramCode(A) &&
            runsOnceAfter(A, BB, L))
          Top = &A;
      }
      if (!Top)
        Top = sameSideBlock(BB);
      if (Top)
        RunsOnceAfter[&BB] = Top;
    }
    // The highest such block is measured: follow chains to it.
    for (auto &[BB, Top] : RunsOnceAfter)
      for (auto It = RunsOnceAfter.find(Top); It != RunsOnceAfter.end();
           It = RunsOnceAfter.find(Top))
        Top = It->second;
  }

  ModuleTables &T;
  DivergencePlan &Plan;
  const pasta_func &PF;
  RowIndex Rows;
  const DataLayout &DL;
  DenseMap<const BasicBlock *, uint32_t> CountingCounter;
  DenseMap<const BasicBlock *, BasicBlock *> RunsOnceAfter;
  DenseMap<const BasicBlock *, DivergencePlan::Block> OwnCounters;
  UniformityInfo &UI;
  bool IsKernel;
  bool ReadsThreadY; // a kernel that does (launchClasses)
  bool TileCapped;   // tileCappedKernel (launchClasses)
  DominatorTree DT;
  LoopInfo LI;
  size_t FirstBranch = Plan.Branches.size(); // this function's first
  // This function's split branches (splitBody): their None and All.
  DenseMap<const Instruction *, std::pair<uint32_t, uint32_t>> Splits;
  DenseMap<const BasicBlock *, bool> EntersTogether;
};

} // namespace

DivergencePlan pasta::planDivergence(ArrayRef<FunctionPlan> Plans,
                                     ModuleTables &T,
                                     FunctionAnalysisManager &FAM,
                                     int MaxRegisters) {
  DivergencePlan Plan;
  for (const FunctionPlan &P : Plans) {
    bool Capped32 = T.Target == PASTA_TARGET_NVPTX &&
                    tileCappedKernel(*P.F, MaxRegisters, FAM);
    FunctionPlanner Planner(
        P, T, Plan, FAM.getResult<UniformityInfoAnalysis>(*P.F), Capped32);
    for (BasicBlock &BB : *P.F)
      Planner.planBlock(BB);
    Planner.deriveSplitBranches();
    Planner.deriveRepeatedBranches();
    // The counting code goes in next: nothing may read this one later.
    PreservedAnalyses Kept = PreservedAnalyses::all();
    Kept.abandon<UniformityInfoAnalysis>();
    FAM.invalidate(*P.F, Kept);
  }
  return Plan;
}
