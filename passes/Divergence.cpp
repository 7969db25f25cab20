//===- Divergence.cpp - Divergence copies of kernels ----------------------===//
//
// See Divergence.h. Planning runs on the functions as the optimizer left
// them (so PASTA's own code is never measured): each memory access on
// global (1), shared (3) or generic (0) memory, each conditional branch and
// switch, and each (block, line)'s instruction count get a row, found by
// (function, file, line). The copies are clones (KernelVariants.h) of the
// instrumented functions; the planned instructions are found in them
// through the clone's value map. A figure measured outside loops is added
// to its counter where it is measured; one measured in a loop goes to an
// i32 alloca, zeroed at entry, promoted to a register once the runtime's
// helpers are inlined, drained before it can overflow, and flushed at every
// return like counting mode's counters (an inline fast path for full warps,
// the out-of-line __pasta_flush otherwise). What repeats in warp-uniform loops
// is measured once per loop entry (CopyMeasures, UniformLoops.h).
//
//===----------------------------------------------------------------------===//
#include "Divergence.h"
#include "DeviceRuntime.h"
#include "InstrumentationMD.h"
#include "KernelVariants.h"
#include "Selection.h"
#include "ThreadExits.h"
#include "UniformLoops.h"

#include "pasta/abi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/InstructionSimplify.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Path.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

#include <array>
#include <deque>
#include <map>
#include <string>
#include <tuple>

using namespace llvm;
using namespace pasta;

#define DEBUG_TYPE "pasta"

STATISTIC(NumOutOfLineAccesses,
          "Divergence copies' access measurements called out of line");

static constexpr const char *DivAccessName = "__pasta_div_access";
static constexpr const char *DivBranchName = "__pasta_div_branch";
static constexpr const char *DivSwitchName = "__pasta_div_switch";
static constexpr const char *DivBlockName = "__pasta_div_block";
static constexpr const char *DivBranchAddName = "__pasta_div_branch_add";
static constexpr const char *DivSwitchAddName = "__pasta_div_switch_add";
static constexpr const char *DivBlockAddName = "__pasta_div_block_add";
static constexpr const char *DivCountLaunchName = "__pasta_div_count_launch";
static constexpr const char *DivAddName = "__pasta_div_add";
static constexpr const char *DivAllLanesName = "__pasta_div_all_lanes";
static constexpr const char *DivUniformName = "__pasta_div_uniform";
static constexpr const char *DivAccessLanesName = "__pasta_div_access_lanes";
static constexpr const char *DivRowWidthName = "__pasta_div_row_width";
static constexpr const char *DivAccessOutName = "__pasta_div_access_out";
static constexpr const char *DivAccessLanesOutName =
    "__pasta_div_access_lanes_out";
static constexpr const char *FlushName = "__pasta_flush";

// The space of an object a generic pointer points into when known: a shared
// or global variable seen through an address-space cast, a kernel's pointer
// parameter (global); else generic.
static unsigned objectAddressSpace(const Value *Obj) {
  unsigned AS = Obj->getType()->getPointerAddressSpace();
  if (AS == PASTA_DIV_GLOBAL || AS == PASTA_DIV_SHARED)
    return AS;
  if (auto *Arg = dyn_cast<Argument>(Obj)) {
    CallingConv::ID CC = Arg->getParent()->getCallingConv();
    if ((CC == CallingConv::PTX_Kernel || CC == CallingConv::AMDGPU_KERNEL) &&
        !Arg->hasByValAttr() && !Arg->hasByRefAttr())
      return PASTA_DIV_GLOBAL;
  }
  return PASTA_DIV_GENERIC;
}

// The address space Ptr points into: its own, or for a generic pointer the
// one its object is known to be in (a shared or global variable seen
// through an address-space cast, a kernel's pointer parameter: global), so
// the copies test neither at run time and figures are kept per space.
static unsigned knownAddressSpace(Value *Ptr) {
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  if (AS != PASTA_DIV_GENERIC)
    return AS;
  // Through selects and phis (`x > 0 ? &a[x - 1] : &a[x]`): the space all
  // the objects share.
  SmallVector<const Value *, 4> Objs;
  getUnderlyingObjects(Ptr, Objs);
  std::optional<unsigned> Common;
  for (const Value *Obj : Objs) {
    unsigned ObjAS = objectAddressSpace(Obj);
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
  A.Size = static_cast<uint32_t>(DL.getTypeStoreSize(T).getKnownMinValue());
  return A.Size != 0;
}

// Where an instruction counts: its location, except that code inlined from
// clang's own wrapper headers (__clang_cuda_builtin_vars.h's threadIdx.x,
// __clang_cuda_math.h, __clang_hip_*.h) counts at the line that used it,
// not as a row of its own for a header line the user never wrote.
static const DILocation *userLocation(const Instruction &I) {
  const DILocation *L = I.getDebugLoc().get();
  while (L && L->getInlinedAt() &&
         sys::path::filename(L->getFilename()).starts_with("__clang_"))
    L = L->getInlinedAt();
  return L;
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

// Counter To += Coeff * counter From, at read-back.
static void derive(ModuleTables &T, uint32_t To, uint32_t From,
                   uint32_t Coeff) {
  T.Derived.push_back({To, From, static_cast<int32_t>(Coeff)});
}

// The figures of a block's sites that follow from the block's two counters
// (DivergencePlan::Block): each line's instructions, each branch's
// executions, and each access's requests and requested bytes when its
// address space is known (a generic one is split between spaces per lane,
// at run time).
static void deriveFromBlock(ModuleTables &T, const DivergencePlan::Block &B,
                            const std::map<uint32_t, uint32_t> &InstsOf,
                            ArrayRef<DivergencePlan::Access> Accesses,
                            ArrayRef<DivergencePlan::Branch> Branches) {
  auto Figure = [&](uint32_t Row, unsigned Index) {
    return T.DivRows[Row].counter + Index;
  };
  for (auto [Row, Insts] : InstsOf) {
    derive(T, Figure(Row, PASTA_DIV_WARP_EXECS), B.Warps, Insts);
    derive(T, Figure(Row, PASTA_DIV_THREAD_EXECS), B.Threads, Insts);
  }
  for (const DivergencePlan::Branch &Br : Branches)
    derive(T, Figure(Br.Row, PASTA_DIV_BRANCHES), Br.Warps, 1);
  for (const DivergencePlan::Access &A : Accesses) {
    if (A.Space == PASTA_DIV_GENERIC)
      continue;
    derive(T,
           Figure(A.Row, A.Space == PASTA_DIV_SHARED
                             ? PASTA_DIV_REQUESTS_SHARED
                             : PASTA_DIV_REQUESTS_GLOBAL),
           A.Warps, 1);
    derive(T, Figure(A.Row, PASTA_DIV_BYTES), B.Threads, A.Size);
  }
}

// Whether __pasta_div_access_lanes takes an access like A at a base uniform
// in each row of lanes plus Stride bytes per thread index x: 0 (one element
// per row) or the size (consecutive elements), or a larger multiple of a
// power-of-2 size up to 32 (a column of a tile, a padded row) whose figures
// follow from the lane mask: for a shared load or store of at most 4
// bytes, a multiple of 4 (a word per lane, its bank a multiple of the
// stride's words past the first's); for a global one, 32 or more (a sector
// per lane) or a power of 2 (lanes per sector); for an atomic, any.
static bool lanesHelperTakes(const DivergencePlan::Access &A, int64_t Stride) {
  if (Stride == 0 || Stride == int64_t(A.Size))
    return true;
  if (!isPowerOf2_32(A.Size) || A.Size > 32 || Stride < int64_t(A.Size) ||
      Stride % A.Size != 0 || Stride > INT32_MAX)
    return false;
  if (!A.Sectored)
    return A.Space != PASTA_DIV_GENERIC;
  if (A.Space == PASTA_DIV_SHARED)
    return A.Size <= 4 && Stride % 4 == 0;
  return A.Space == PASTA_DIV_GLOBAL &&
         (Stride >= 32 || isPowerOf2_64(uint64_t(Stride)));
}

// The figures of an access at a base uniform in each row of lanes plus
// Stride bytes per thread index x (lanesHelperTakes) that
// __pasta_div_access_lanes leaves to read-back (device_rt.c,
// pasta_div_lanes_derived): its distinct bytes (its size per active lane,
// or per execution for stride 0); for a global load or store the sectors
// and ideal sectors of a full warp from a 32-byte boundary per execution
// (one and ceil(size / 32) for stride 0; else the size for stride = size,
// and the stride, at most 32, for larger strides); for a shared one at a
// larger stride, the bank conflicts of a full warp (lanes whose words are
// a multiple of 32 words apart share a bank: gcd(stride / 4, 32) lanes per
// bank). The helper adds only the measured figures' difference from these,
// 0 for full warps of aligned rows.
static void deriveLaneShaped(ModuleTables &T, const DivergencePlan::Access &A,
                             uint64_t Stride) {
  uint32_t Row = T.DivRows[A.Row].counter;
  bool Shared = A.Space == PASTA_DIV_SHARED;
  bool Wider = Stride != 0 && Stride != A.Size;
  derive(T,
         Row + (Shared ? PASTA_DIV_DISTINCT_SHARED : PASTA_DIV_DISTINCT_GLOBAL),
         Stride ? A.Threads : A.Warps, A.Size);
  if (!A.Sectored)
    return;
  if (Shared) {
    uint64_t Words = Stride / 4;
    uint64_t PerBank =
        Words ? uint64_t(1) << std::min(countr_zero(Words), 5) : 1;
    if (Wider && PerBank > 1)
      derive(T, Row + PASTA_DIV_BANK_CONFLICTS, A.Warps, PerBank - 1);
    return;
  }
  uint64_t Sectors = !Stride  ? 1
                     : !Wider ? A.Size
                              : std::min<uint64_t>(Stride, 32);
  derive(T, Row + PASTA_DIV_SECTORS, A.Warps, Sectors);
  derive(T, Row + PASTA_DIV_IDEAL_SECTORS, A.Warps,
         Stride ? A.Size : (A.Size + 31) / 32);
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
                  UniformityInfo &UI)
      : T(T), Plan(Plan), PF(T.Funcs[P.Index]), Rows(T, P.Index, PF.file),
        DL(P.F->getDataLayout()), UI(UI),
        IsKernel(P.Kind == PASTA_FUNC_KERNEL) {
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
        if (First == Later)
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
    auto [It, New] = OwnCounters.try_emplace(&BB);
    if (New && IsKernel && BB.isEntryBlock()) {
      // Every warp a launch starts runs a kernel's entry once with all its
      // lanes: both counters are the launch's, added once (Block::Launch).
      uint32_t Warps = T.NumCounters++;
      It->second = {&BB, Warps, T.NumCounters++, true};
      It->second.Measured = false;
      It->second.Launch = true;
    } else if (New) {
      It->second = {&BB, T.NumCounters++, 0, false};
      It->second.OwnThreads = Counting == CountingCounter.end();
      It->second.Threads =
          It->second.OwnThreads ? T.NumCounters++ : Counting->second;
    }
    return It->second;
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
  DominatorTree DT;
  LoopInfo LI;
  size_t FirstBranch = Plan.Branches.size(); // this function's first
  DenseMap<const BasicBlock *, bool> EntersTogether;
};

} // namespace

DivergencePlan pasta::planDivergence(ArrayRef<FunctionPlan> Plans,
                                     ModuleTables &T,
                                     FunctionAnalysisManager &FAM) {
  DivergencePlan Plan;
  for (const FunctionPlan &P : Plans) {
    FunctionPlanner Planner(P, T, Plan,
                            FAM.getResult<UniformityInfoAnalysis>(*P.F));
    for (BasicBlock &BB : *P.F)
      Planner.planBlock(BB);
    Planner.deriveRepeatedBranches();
    // The counting code goes in next: nothing may read this one later.
    PreservedAnalyses Kept = PreservedAnalyses::all();
    Kept.abandon<UniformityInfoAnalysis>();
    FAM.invalidate(*P.F, Kept);
  }
  return Plan;
}

namespace {

// Whether an access's measurement produces a figure: requests and bytes
// only in generic accesses (known spaces derive them from their block's
// counters, deriveFromBlock), the figures of the address space it is known
// to be in (generic: either), and sectors and bank conflicts for loads and
// stores only.
static bool accessMeasures(const DivergencePlan::Access &A, unsigned Figure) {
  bool Global = A.Space != PASTA_DIV_SHARED;
  bool Shared = A.Space != PASTA_DIV_GLOBAL;
  switch (Figure) {
  case PASTA_DIV_REQUESTS_GLOBAL:
  case PASTA_DIV_REQUESTS_SHARED:
  case PASTA_DIV_BYTES: // known spaces: derived from the block's counters
    return A.Space == PASTA_DIV_GENERIC;
  case PASTA_DIV_DISTINCT_GLOBAL:
    return Global;
  case PASTA_DIV_DISTINCT_SHARED:
    return Shared;
  case PASTA_DIV_SECTORS:
  case PASTA_DIV_IDEAL_SECTORS:
    return Global && A.Sectored;
  case PASTA_DIV_BANK_CONFLICTS:
    return Shared && A.Sectored;
  default:
    return true;
  }
}

// The alignment a uniform move of every lane's address must keep for the
// access's figures to stay the same (UniformLoops.h): 32-byte sectors for a
// load or store that can be global, 4-byte bank words for one that can only
// be shared, nothing for atomics (requests and bytes only).
static uint64_t figureGranule(const DivergencePlan::Access &A) {
  if (!A.Sectored)
    return 1;
  return A.Space == PASTA_DIV_SHARED ? 4 : 32;
}

// The runtime's measuring helpers (device_rt.c, "Divergence mode").
struct DivHelpers {
  FunctionCallee Access, AccessLanes, Branch, Switch, Block, Add, BankRow,
      AllLanes, Uniform, RowWidth;
  // The access helpers out of line, their figures written to an array.
  FunctionCallee AccessOut, AccessLanesOut;
  // The branch, switch and block helpers for code outside loops: they add
  // to the counters themselves.
  FunctionCallee BranchAdd, SwitchAdd, BlockAdd;
  // A kernel entry's warps and threads, added once per launch.
  FunctionCallee CountLaunch;
};

// A planned access in a divergence copy: its pointer there.
struct AccessSite {
  const DivergencePlan::Access *A;
  Instruction *I;
  Value *Ptr;
};

// Accesses of one block with the same figures (same size, kind and space,
// addresses a constant multiple of the granule apart): measured once, at the
// first, or once per entry of the uniform loop holding the block when the
// first's address repeats there (Repeat).
struct AccessGroup {
  SmallVector<const AccessSite *, 4> Members;
  const UniformLoops::UniformLoop *Loop = nullptr;
  std::optional<UniformLoops::Repeat> Repeat;
  bool InLoop = false;               // the block is in a loop (uniform or not)
  std::optional<int64_t> LaneStride; // the first's (UniformLoops::laneStride)
  // The conditions the lanes must agree on for LaneStride to hold (selects
  // in the address: UniformLoops::laneStrideIf); tested at each measurement.
  SmallVector<Value *, 2> LaneConds;
  // Not lane-shaped as far as the pass can tell, but worth the general
  // helper's test of its lanes for rows at run time (tryRows).
  bool TryRows = false;
};

// A copy with more access groups than this calls the access helpers out of
// line (__pasta_div_access_out): each inlined helper is some 30 basic
// blocks of warp-level code, so a kernel with hundreds of accesses got a
// copy tens of times its size (a generated kernel of 67 blocks: 3,985 in
// its copy, and ptxas over a minute on it). The bundled kernels have at
// most 27 (lud's perimeter kernel) and keep the helpers inline; CUB's radix
// sort kernels (49 to 219) do not.
static constexpr size_t OutOfLineAccessGroups = 32;

// Groups compared with each new access of a block (bounds the planning
// time of huge unrolled blocks).
static constexpr size_t MaxGroupsCompared = 32;

// The most lanes of a warp (AMD's wave64).
static constexpr uint64_t MaxLanes = 64;

// The most any figure of one warp-level execution of A can be, or differ
// from what the pass derives for it: bytes and distinct bytes are at most
// a lane's size per lane, sectors ceil(size / 32) + 1 per lane, bank
// conflicts one per lane, requests 1.
static uint64_t mostPerExecution(const DivergencePlan::Access &A) {
  return MaxLanes * (uint64_t(A.Size) + 2);
}

// One divergence copy being instrumented. Where a figure goes depends on
// where it is measured:
//
//  - outside every loop (code that runs at most once per call): straight to
//    its counter, by the lane that measured it (the *_add helpers, or
//    __pasta_div_add under one test of what an access helper returns), so
//    it needs no register and no warp sum at the return;
//  - in a loop whose branches are all uniform (UniformLoops.h) the active
//    lanes are those at its preheader in every iteration: the figures that
//    depend only on the lanes (a block's, its branch's, and its accesses'
//    whose addresses repeat) are taken once at the preheader and added times
//    the block's executions: the loop's trip count, at the preheader, when
//    the block runs in every iteration and the count is known; else a
//    register counting them, in the loop's exit blocks (to the counter or a
//    register, by where the add is);
//  - in other loops: registers, by (row, figure) for the access and branch
//    figures, by block for the active-lane figures (a block's lines share
//    its two registers: each line's figures are its instruction count times
//    the block's, formed at the flush), flushed at every return.
//
// The registers are 32 bits wide: a 64-bit one takes two of the copy's
// registers, which run under a cap (capRegisters), and what they save is
// spills in loops. Each add to one is bounded (slot's Most), so a count of
// loop header visits drains them before one can overflow
// (drainBeforeOverflow).
// The runtime's helpers add to them modulo 2^32 and they are read as signed
// values (an access helper adds measured less derived figures). What a
// uniform loop's exit adds in another loop, a figure per entry times the
// entry's executions, has no bound: it goes to the register when it is
// below MaxFold, else straight to the counter.
class CopyMeasures {
public:
  CopyMeasures(Function &Copy, ModuleTables &T, UniformLoops &Loops,
               const DivHelpers &H, uint32_t DrainVisits)
      : Copy(Copy), T(T), Loops(Loops), H(H), DrainVisits(DrainVisits),
        EntryBody(&*Copy.getEntryBlock().getFirstInsertionPt()) {}

  // A counter's register (in loops whose branches are not all uniform),
  // for a site that adds at most Most to it (either sign).
  AllocaInst *slot(uint32_t Counter, uint64_t Most,
                   const Twine &Name = "pasta.div") {
    SlotBounds[Counter] += Most;
    AllocaInst *&S = Slots[Counter];
    if (!S)
      S = newRegister(Name);
    return S;
  }

  // Where the runtime's helpers put a figure the site cannot produce (a
  // shared figure of a global access, sectors of an atomic): a register
  // that is never flushed, so it and the arithmetic feeding it go away.
  AllocaInst *discard() {
    if (!Discard)
      Discard = newRegister("pasta.div.none");
    return Discard;
  }

  // The counters of Planned's block (in the copy: BB), measured at its top.
  // Its active lanes only when the counting code does not count it
  // (OwnThreads).
  void addBlock(BasicBlock &BB, const DivergencePlan::Block &Planned) {
    if (Planned.Launch) {
      IRBuilder<> B(EntryBody);
      B.CreateCall(H.CountLaunch,
                   {counter(B, Planned.Warps), counter(B, Planned.Threads)});
      return;
    }
    if (!Planned.Measured)
      return;
    // After the registers; in the entry block, after the code above them.
    Instruction *Top =
        BB.isEntryBlock() ? EntryBody : &*BB.getFirstInsertionPt();
    addLanes(BB, Top, Planned.Warps,
             Planned.OwnThreads ? Planned.Threads : PASTA_NONE);
  }

  // A segment's warp executions (DivergencePlan::Segment), right after the
  // call that starts it.
  void addSegment(Instruction &Call, uint32_t Warps) {
    addLanes(*Call.getParent(), Call.getNextNode(), Warps, PASTA_NONE);
  }

  // Counter Warps += the warp-level executions of BB's code at At, Threads
  // (unless PASTA_NONE) += their active lanes. In a uniform loop, the
  // preheader's lanes times BB's executions; outside loops, measured (one
  // __pasta_div_block call) and added there; in another loop, added to
  // registers.
  void addLanes(BasicBlock &BB, Instruction *At, uint32_t Warps,
                uint32_t Threads) {
    bool WithThreads = Threads != PASTA_NONE;
    if (const UniformLoops::UniformLoop *U = Loops.uniformLoop(BB)) {
      HoistedLoop &HL = hoisted(*U);
      Count N = executions(BB, *U);
      addFold(*U, {Warps, HL.Leader, 1, 1, N});
      if (WithThreads)
        addFold(*U, {Threads, HL.Lanes, 1, MaxLanes, N});
      return;
    }
    IRBuilder<> B(At);
    if (!Loops.inLoop(BB)) {
      // Without threads, the warps' slot again: the helper leaves it.
      Value *W = counter(B, Warps);
      B.CreateCall(H.BlockAdd, {W, WithThreads ? counter(B, Threads) : W,
                                B.getInt32(WithThreads)});
      return;
    }
    B.CreateCall(H.Block, {B.getInt32(1), slot(Warps, 1, "pasta.div.bw"),
                           WithThreads ? slot(Threads, MaxLanes, "pasta.div.bt")
                                       : discard()});
  }

  // Whether a conditional branch or switch of `Row` diverges (its
  // executions are its block's). It never does on a warp-uniform condition
  // (a loop's bound, a kernel argument), nor in a uniform loop.
  void addBranch(Instruction &Term, uint32_t Row) {
    BasicBlock &BB = *Term.getParent();
    if (Loops.uniformLoop(BB) || Loops.uniformCondition(Term))
      return;
    IRBuilder<> B(&Term);
    auto *BI = dyn_cast<BranchInst>(&Term);
    Value *Taken =
        BI ? B.CreateZExt(BI->getCondition(), B.getInt32Ty())
           : B.CreateZExtOrTrunc(cast<SwitchInst>(Term).getCondition(),
                                 B.getInt64Ty());
    uint32_t Divergent = figure(Row, PASTA_DIV_DIVERGENT);
    if (Loops.inLoop(BB)) {
      B.CreateCall(BI ? H.Branch : H.Switch,
                   {Taken, discard(), slot(Divergent, 1)});
      return;
    }
    B.CreateCall(BI ? H.BranchAdd : H.SwitchAdd,
                 {Taken, counter(B, Divergent)});
  }

  // Groups one block's accesses (in order) and decides where each group is
  // measured. Changes no code: every block must be planned before any is
  // measured.
  void planAccesses(ArrayRef<AccessSite> Sites) {
    const UniformLoops::UniformLoop *U =
        Loops.uniformLoop(*Sites.front().I->getParent());
    size_t First = Groups.size();
    for (const AccessSite &S : Sites) {
      AccessGroup *G = nullptr;
      for (size_t K = Groups.size(); K > First && !G; --K) {
        if (Groups.size() - K >= MaxGroupsCompared)
          break;
        if (sameFigures(*Groups[K - 1].Members.front(), S))
          G = &Groups[K - 1];
      }
      if (!G) {
        G = &Groups.emplace_back();
        G->Loop = U;
        G->InLoop = Loops.inLoop(*S.I->getParent());
      }
      G->Members.push_back(&S);
    }
    for (size_t K = First; K < Groups.size(); ++K) {
      AccessGroup &G = Groups[K];
      const AccessSite &Rep = *G.Members.front();
      if (G.Loop)
        G.Repeat = Loops.repeatIn(*G.Loop, Rep.Ptr, figureGranule(*Rep.A));
      G.LaneStride =
          Loops.laneStrideIf(Rep.Ptr, *Rep.I->getParent(), G.LaneConds);
      G.TryRows = !laneShaped(G) && tryRows(Rep);
      if (laneShaped(G) && Rep.A->Space != PASTA_DIV_GENERIC)
        for (const AccessSite *S : G.Members)
          deriveLaneShaped(T, *S->A, *G.LaneStride);
    }
  }

  // The planned accesses: first what goes in preheaders (addresses computed
  // with scalar evolution, which needs the blocks as they were), then each
  // group at its first access (splitting blocks for steps tested at run
  // time).
  void measureAccesses() {
    OutOfLine = Groups.size() > OutOfLineAccessGroups;
    SmallVector<std::pair<AccessGroup *, Value *>, 8> Tested;
    for (AccessGroup &G : Groups)
      if (G.Repeat)
        if (Value *Ok = measureOncePerEntry(G))
          Tested.push_back({&G, Ok});
    for (AccessGroup &G : Groups)
      if (!G.Repeat)
        measureGroupAt(G, G.Members.front()->I, G.InLoop);
    for (auto [G, Ok] : Tested) {
      IRBuilder<> B(G->Members.front()->I);
      Instruction *Then = SplitBlockAndInsertIfThen(
          B.CreateNot(Ok), G->Members.front()->I->getIterator(),
          /*Unreachable=*/false);
      markInstrumentation(
          Then->getParent()->getSinglePredecessor()->getTerminator());
      measureGroupAt(*G, Then, /*InLoop=*/true);
    }
  }

  // The uniform loops' folds, the registers' drains, then their flush at
  // every return and before inline assembly that ends the thread
  // (ThreadExits.h).
  void emitFlushes() {
    emitFolds();
    drainBeforeOverflow();
    if (Slots.empty())
      return;
    SmallVector<Instruction *, 4> Exits = threadEnds(Copy);
    for (BasicBlock &BB : Copy)
      if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
        Exits.push_back(Ret);
    for (Instruction *Exit : Exits)
      emitFlush(Exit);
  }

private:
  // The counter of figure Index of divergence row Row.
  uint32_t figure(uint32_t Row, unsigned Index) const {
    return T.DivRows[Row].counter + Index;
  }

  // How many times a block of a uniform loop ran in the loop's current
  // entry: the loop's iterations when the block runs in each (known at the
  // preheader), else a register set to 0 at the preheader and counted at
  // the top of the block.
  struct Count {
    AllocaInst *Register = nullptr;
    Value *Trips = nullptr;
  };

  // Counter += PerEntry * Times * Count, with PerEntry taken as 0 when Ok
  // (set in the preheader) is false: at the preheader when the count is
  // known there, else in the loop's exit blocks.
  struct Fold {
    uint32_t Counter;
    AllocaInst *PerEntry;
    uint32_t Times;
    uint64_t Most; // the most PerEntry can be (either sign)
    Count N;
    Value *Ok = nullptr;
  };
  struct HoistedLoop {
    AllocaInst *Leader = nullptr;        // 1 in the first active lane, else 0
    AllocaInst *Lanes = nullptr;         // the active lanes, in the first lane
    SmallVector<Fold, 8> Folds;          // in the exit blocks
    SmallVector<Fold, 4> PreheaderFolds; // at the preheader, in a loop
  };

  // A uniform loop's record, with its leader and lanes taken in the
  // preheader (__pasta_div_block's figures of one execution).
  HoistedLoop &hoisted(const UniformLoops::UniformLoop &U) {
    auto [It, New] = Hoisted.try_emplace(&U);
    if (New) {
      It->second.Leader = newRegister("pasta.div.leader");
      It->second.Lanes = newRegister("pasta.div.lanes");
      HoistOrder.push_back(&U);
      IRBuilder<> B(U.PreheaderEnd);
      zero(B, {It->second.Leader, It->second.Lanes});
      B.CreateCall(H.Block,
                   {B.getInt32(1), It->second.Leader, It->second.Lanes});
    }
    return It->second;
  }

  Count executions(BasicBlock &BB, const UniformLoops::UniformLoop &U) {
    if (Loops.runsEveryIteration(U, BB))
      return {nullptr, Loops.tripsBefore(U)};
    AllocaInst *&N = Executions[&BB];
    if (!N) {
      N = newRegister("pasta.div.n", /*Wide=*/true); // no bound
      IRBuilder<> PB(U.PreheaderEnd);
      zero(PB, {N});
      IRBuilder<> B(&*BB.getFirstInsertionPt());
      B.CreateStore(B.CreateAdd(B.CreateLoad(B.getInt64Ty(), N), B.getInt64(1)),
                    N);
    }
    return {N, nullptr};
  }

  // In another loop a fold adds a branch (emitFoldsAt), so it waits until
  // every block is measured: the blocks' loops are looked up by block.
  void addFold(const UniformLoops::UniformLoop &U, const Fold &F) {
    if (!F.N.Trips) {
      Hoisted[&U].Folds.push_back(F);
      return;
    }
    if (Loops.inLoop(*U.PreheaderEnd->getParent())) {
      Hoisted[&U].PreheaderFolds.push_back(F);
      return;
    }
    IRBuilder<> B(U.PreheaderEnd);
    emitFoldsAt(B, /*InLoop=*/false, F);
  }

  // F's figure: its figure per entry times N executions.
  static Value *foldValue(IRBuilder<> &B, const Fold &F, Value *N) {
    Value *PerEntry = load(B, F.PerEntry);
    if (F.Ok)
      PerEntry = B.CreateSelect(F.Ok, PerEntry, B.getInt64(0));
    return times(B, B.CreateMul(PerEntry, N), F.Times);
  }

  static Value *executionsOf(IRBuilder<> &B, const Fold &F) {
    return F.N.Trips ? F.N.Trips : load(B, F.N.Register);
  }

  // Folds outside loops: straight to their counters. In another loop, the
  // folds of one count of executions, under one test of the count: to the
  // registers when every figure is at most MaxFold (the usual case: a
  // short inner loop), else straight to the counters.
  void emitFoldsAt(IRBuilder<> &B, bool InLoop, ArrayRef<Fold> Folds) {
    if (!InLoop) {
      for (const Fold &F : Folds) {
        Value *V = foldValue(B, F, executionsOf(B, F));
        B.CreateCall(H.Add, {counter(B, F.Counter), V});
      }
      return;
    }
    MapVector<Value *, SmallVector<const Fold *, 8>> ByCount;
    for (const Fold &F : Folds)
      ByCount[F.N.Trips ? F.N.Trips : F.N.Register].push_back(&F);
    for (auto &[Key, Group] : ByCount) {
      uint64_t Most = 1;
      for (const Fold *F : Group)
        Most = std::max(Most, F->Most * F->Times);
      Value *N = executionsOf(B, *Group.front());
      Value *Small =
          B.CreateICmpULE(N, B.getInt64(MaxFold / Most), "pasta.div.small");
      Instruction *SmallT, *LargeT;
      SplitBlockAndInsertIfThenElse(Small, B.GetInsertPoint(), &SmallT,
                                    &LargeT);
      markInstrumentation(
          SmallT->getParent()->getSinglePredecessor()->getTerminator());
      IRBuilder<> SB(SmallT), LB(LargeT);
      Value *Row = freshRow(LB);
      for (const Fold *F : Group) {
        addFigure(SB, /*InLoop=*/true, F->Counter, foldValue(SB, *F, N),
                  MaxFold);
        Value *V = foldValue(LB, *F, N);
        LB.CreateCall(H.Add, {counter(LB, F->Counter, Row), V});
      }
    }
  }

  // The most a fold adds to a register in another loop.
  static constexpr uint64_t MaxFold = 1 << 20;

  static void zero(IRBuilder<> &B, ArrayRef<AllocaInst *> Registers) {
    for (AllocaInst *R : Registers)
      B.CreateStore(ConstantInt::get(R->getAllocatedType(), 0), R);
  }

  // A register's value as an i64 (a 32-bit one sign-extended).
  static Value *load(IRBuilder<> &B, AllocaInst *R) {
    return B.CreateSExtOrBitCast(B.CreateLoad(R->getAllocatedType(), R),
                                 B.getInt64Ty());
  }

  // Whether G's addresses are a base uniform in each row of lanes plus a
  // stride per thread index x that __pasta_div_access_lanes takes
  // (lanesHelperTakes): measured with it.
  static bool laneShaped(const AccessGroup &G) {
    return G.LaneStride &&
           lanesHelperTakes(*G.Members.front()->A, *G.LaneStride);
  }

  // Whether the general helper should test an access's lanes for rows (a
  // min or max of a lane-shaped index, a select between two, a column walk
  // whose step, x times a row length, is known only at run time): not in
  // the blocks a loop runs under its own divergent branch, whose warps are
  // mostly partial. There the test would always fail, and its code costs
  // the copy registers.
  bool tryRows(const AccessSite &S) {
    return !Loops.underDivergenceInLoop(*S.I->getParent());
  }

  // Whether access S has the figures of the group led by R.
  bool sameFigures(const AccessSite &R, const AccessSite &S) {
    // Same segment of the block too: a call between them may change the
    // lanes (DivergencePlan::Segment).
    return R.A->Size == S.A->Size && R.A->Space == S.A->Space &&
           R.A->Sectored == S.A->Sectored && R.A->Warps == S.A->Warps &&
           Loops.constantApart(R.Ptr, S.Ptr, figureGranule(*S.A));
  }

  // Each row of a group with how many of its accesses it holds.
  static std::map<uint32_t, uint32_t> rowsOf(const AccessGroup &G) {
    std::map<uint32_t, uint32_t> Rows;
    for (const AccessSite *S : G.Members)
      ++Rows[S->A->Row];
    return Rows;
  }

  // One measurement of an access like G's first at Ptr, whose figures go
  // to Out(figure) (the discard register for those it cannot produce):
  // __pasta_div_access, or __pasta_div_access_lanes when the address is a
  // base uniform in each row of lanes plus 0 or the access size per thread
  // index x. Both take the warp's row width, read once per call.
  // Returns the call, whose value is 0 when no lane added a figure.
  template <typename OutFn>
  Value *callAccess(IRBuilder<> &B, Value *Ptr, const AccessGroup &G,
                    OutFn Out) {
    const DivergencePlan::Access &A = *G.Members.front()->A;
    if (Ptr->getType()->getPointerAddressSpace() != 0)
      Ptr = B.CreateAddrSpaceCast(Ptr, B.getPtrTy());
    bool Lanes = laneShaped(G);
    SmallVector<Value *, 14> Args{Ptr, B.getInt32(A.Size)};
    if (Lanes)
      Args.push_back(B.getInt32(uint32_t(*G.LaneStride)));
    Value *Width = Lanes || G.TryRows ? rowWidth() : B.getInt32(0);
    if (Lanes && !G.LaneConds.empty())
      Width = B.CreateSelect(lanesAgree(B, G.LaneConds), Width, B.getInt32(0),
                             "pasta.div.width");
    Args.append({B.getInt32(A.Space), B.getInt32(A.Sectored), Width});
    if (OutOfLine) {
      // The figures land in an array of the copy's; the measured ones go
      // on to their registers.
      if (!OutArray) {
        IRBuilder<> EB(&*Copy.getEntryBlock().getFirstInsertionPt());
        OutArray = EB.CreateAlloca(
            ArrayType::get(EB.getInt32Ty(), PASTA_DIV_BANK_CONFLICTS + 1),
            Copy.getParent()->getDataLayout().getAllocaAddrSpace(), nullptr,
            "pasta.div.out");
      }
      Args.push_back(OutArray);
      Value *Added = B.CreateCall(Lanes ? H.AccessLanesOut : H.AccessOut, Args);
      for (unsigned Fig = PASTA_DIV_REQUESTS_GLOBAL;
           Fig <= PASTA_DIV_BANK_CONFLICTS; ++Fig) {
        if (!accessMeasures(A, Fig))
          continue;
        AllocaInst *R = Out(Fig);
        Value *V = B.CreateLoad(
            B.getInt32Ty(),
            B.CreateConstInBoundsGEP2_32(OutArray->getAllocatedType(), OutArray,
                                         0, Fig - PASTA_DIV_REQUESTS_GLOBAL));
        // 32 bits, as the inline helper adds (also to a wide register).
        B.CreateStore(B.CreateAdd(B.CreateLoad(B.getInt32Ty(), R), V), R);
      }
      ++NumOutOfLineAccesses;
      return Added;
    }
    for (unsigned Fig = PASTA_DIV_REQUESTS_GLOBAL;
         Fig <= PASTA_DIV_BANK_CONFLICTS; ++Fig)
      Args.push_back(accessMeasures(A, Fig) ? Out(Fig) : discard());
    return B.CreateCall(Lanes ? H.AccessLanes : H.Access, Args);
  }

  // Whether the active lanes agree on each condition (an i1): then an
  // address selecting between values of one lane stride has that stride;
  // else the helper, given row width 0, takes its general path and takes
  // back what the pass derived.
  Value *lanesAgree(IRBuilder<> &B, ArrayRef<Value *> Conds) {
    Value *All = nullptr;
    for (Value *C : Conds) {
      Value *Agree = B.CreateICmpNE(
          B.CreateCall(H.Uniform, {B.CreateZExt(C, B.getInt32Ty())}),
          B.getInt32(0));
      All = All ? B.CreateAnd(All, Agree) : Agree;
    }
    return All;
  }

  // The width of this call's rows of lanes (__pasta_div_row_width), read
  // at the entry.
  Value *rowWidth() {
    if (!RowWidth) {
      IRBuilder<> B(EntryBody);
      RowWidth = B.CreateCall(H.RowWidth, {});
    }
    return RowWidth;
  }

  // One measurement of G before At: in a loop, straight into the registers
  // of a lone access, else into scratch registers added to each row's
  // figures as many times as it has accesses in the group (outside loops,
  // only when the helper says a lane added: the warps whose figures are all
  // derived skip every add).
  void measureGroupAt(const AccessGroup &G, Instruction *At, bool InLoop) {
    const AccessSite &Rep = *G.Members.front();
    IRBuilder<> B(At);
    if (InLoop && G.Members.size() == 1) {
      uint64_t Most = mostPerExecution(*Rep.A);
      callAccess(B, Rep.Ptr, G, [&](unsigned Fig) {
        return slot(figure(Rep.A->Row, Fig), Most);
      });
      return;
    }
    zero(B, scratch());
    Value *Added =
        callAccess(B, Rep.Ptr, G, [&](unsigned Fig) { return scratch()[Fig]; });
    if (!InLoop) {
      bankRow(); // above the split: it must dominate the adds
      Instruction *Then = SplitBlockAndInsertIfThen(
          B.CreateICmpNE(Added, B.getInt32(0)), At->getIterator(),
          /*Unreachable=*/false);
      markInstrumentation(
          Then->getParent()->getSinglePredecessor()->getTerminator());
      B.SetInsertPoint(Then);
    }
    for (auto [Row, Times] : rowsOf(G))
      for (unsigned Fig = PASTA_DIV_REQUESTS_GLOBAL;
           Fig <= PASTA_DIV_BANK_CONFLICTS; ++Fig)
        if (accessMeasures(*Rep.A, Fig))
          addFigure(B, InLoop, figure(Row, Fig),
                    times(B, load(B, scratch()[Fig]), Times),
                    Times * mostPerExecution(*Rep.A));
  }

  // G's figures taken in its loop's preheader, at its first access's address
  // there, and added in the exit blocks times its block's executions. When
  // the step must be tested at run time, returns the test (G is measured at
  // its access too when it fails), else null.
  Value *measureOncePerEntry(const AccessGroup &G) {
    const UniformLoops::UniformLoop &U = *G.Loop;
    const AccessSite &Rep = *G.Members.front();
    hoisted(U);
    Value *Ok = G.Repeat->StepToTest
                    ? Loops.stepIsMultiple(U, *G.Repeat, figureGranule(*Rep.A))
                    : nullptr;
    if (!G.Repeat->NoWraps.empty()) {
      // Each lane tests its own index; the figures need all of them.
      Value *Lane = Loops.laneDoesNotWrap(U, *G.Repeat);
      IRBuilder<> B(U.PreheaderEnd);
      Value *All = B.CreateICmpNE(
          B.CreateCall(H.AllLanes, {B.CreateZExt(Lane, B.getInt32Ty())}),
          B.getInt32(0), "pasta.div.nowrap.all");
      Ok = Ok ? B.CreateAnd(Ok, All) : All;
    }
    Value *Start = Loops.startBefore(U, Rep.Ptr, *G.Repeat);
    std::array<AllocaInst *, PASTA_DIV_NUM> PerEntry{};
    IRBuilder<> B(U.PreheaderEnd);
    for (unsigned Fig = PASTA_DIV_REQUESTS_GLOBAL;
         Fig <= PASTA_DIV_BANK_CONFLICTS; ++Fig)
      if (accessMeasures(*Rep.A, Fig)) {
        PerEntry[Fig] = newRegister("pasta.div.once");
        zero(B, {PerEntry[Fig]});
      }
    callAccess(B, Start, G, [&](unsigned Fig) { return PerEntry[Fig]; });
    Count N = executions(*Rep.I->getParent(), U);
    for (auto [Row, Times] : rowsOf(G))
      for (unsigned Fig = PASTA_DIV_REQUESTS_GLOBAL;
           Fig <= PASTA_DIV_BANK_CONFLICTS; ++Fig)
        if (PerEntry[Fig])
          addFold(U, {figure(Row, Fig), PerEntry[Fig], Times,
                      mostPerExecution(*Rep.A), N, Ok});
    return Ok;
  }

  static Value *times(IRBuilder<> &B, Value *V, uint64_t Times) {
    return Times == 1 ? V : B.CreateMul(V, B.getInt64(Times));
  }

  // Counter += V, V being 0 in every lane but the one that measured: in a
  // loop to its register (|V| at most Most), else to the counter.
  void addFigure(IRBuilder<> &B, bool InLoop, uint32_t Counter, Value *V,
                 uint64_t Most) {
    if (InLoop) {
      AllocaInst *R = slot(Counter, Most);
      B.CreateStore(B.CreateAdd(B.CreateLoad(B.getInt32Ty(), R),
                                B.CreateTrunc(V, B.getInt32Ty())),
                    R);
      return;
    }
    B.CreateCall(H.Add, {counter(B, Counter), V});
  }

  // Counter's slot in this thread block's row (Row, else the entry's).
  Value *counter(IRBuilder<> &B, uint32_t Counter, Value *Row = nullptr) {
    return B.CreateConstInBoundsGEP1_32(B.getInt64Ty(), Row ? Row : bankRow(),
                                        Counter);
  }

  // This thread block's row computed here: for code that rarely runs in a
  // loop, which should not keep the entry's row live across the loop, and
  // for the flushes.
  Value *freshRow(IRBuilder<> &B) {
    return B.CreateCall(H.BankRow, {T.Counters, B.getInt32(T.NumCounters),
                                    B.getInt32(T.numBanks())});
  }

  // This thread block's row of counters, computed at the entry.
  Value *bankRow() {
    if (!BankRow) {
      IRBuilder<> B(EntryBody);
      BankRow = freshRow(B);
    }
    return BankRow;
  }

  // The uniform loops' figures: in each of their exit blocks, and those
  // that wait for their preheader.
  void emitFolds() {
    for (const UniformLoops::UniformLoop *U : HoistOrder) {
      const HoistedLoop &HL = Hoisted[U];
      IRBuilder<> PB(U->PreheaderEnd);
      emitFoldsAt(PB, /*InLoop=*/true, HL.PreheaderFolds);
      for (BasicBlock *Exit : U->Exits) {
        IRBuilder<> B(&*Exit->getFirstInsertionPt());
        bool InLoop = Loops.inLoop(*Exit);
        emitFoldsAt(B, InLoop, HL.Folds);
      }
    }
  }

  // Registers for one measurement of a group, reused by every group.
  ArrayRef<AllocaInst *> scratch() {
    if (!Scratch[0])
      for (AllocaInst *&R : Scratch)
        R = newRegister("pasta.div.t");
    return Scratch;
  }

  // A register of 32 bits (what the runtime's helpers add to), or 64.
  AllocaInst *newRegister(const Twine &Name, bool Wide = false) {
    IRBuilder<> B(&*Copy.getEntryBlock().getFirstInsertionPt());
    unsigned AS = Copy.getParent()->getDataLayout().getAllocaAddrSpace();
    Type *Ty = Wide ? B.getInt64Ty() : B.getInt32Ty();
    AllocaInst *S = B.CreateAlloca(Ty, AS, nullptr, Name);
    markRuntimeSlot(S);
    B.CreateStore(ConstantInt::get(Ty, 0), S);
    return S;
  }

  // Every register's value, by counter.
  std::map<uint32_t, Value *> slotValues(IRBuilder<> &B) {
    std::map<uint32_t, Value *> Values;
    for (auto &[Counter, Slot] : Slots)
      Values[Counter] = load(B, Slot);
    return Values;
  }

  // The 32-bit registers could overflow in a long loop. The header of the
  // innermost loop around each add counts its visits: every cycle through
  // a block passes that header (the pass keeps no add of an irreducible
  // cycle in a register), so between two visits of it a thread runs each
  // block of that loop (outside inner loops) at most once, and adds at
  // most SlotBound (the largest of SlotBounds) to any one register there.
  // Each such header counts its own visits and, every Limit of them, each
  // lane adds the registers added to in its loop to their counters and
  // zeroes them. A register added to under K headers gets fewer than
  // Limit visits' adds from each since it was last drained, so Limit * K *
  // SlotBound < 2^31 keeps it from overflowing. That is every 2^31 / (64 x
  // (size + 2)) visits for a register of an access measured in a loop,
  // 2^11 for one a fold adds to: rare. (Only an access of some 32 MiB,
  // which no GPU load is, could add 2^31 in one visit.) The drain is plain
  // code, not a call (a call in a loop costs the loop registers), and needs
  // no lanes but its own. (A drain of every register at every header, as
  // this was, made the code of a kernel with L loops and R registers grow
  // with L x R.)
  void drainBeforeOverflow() {
    if (Slots.empty())
      return;
    uint64_t SlotBound = 1;
    for (auto &[Counter, Most] : SlotBounds)
      SlotBound = std::max(SlotBound, Most);
    DominatorTree DT(Copy);
    LoopInfo LI(DT);
    // Each header's registers, in the order of their counters.
    MapVector<BasicBlock *, SmallVector<uint32_t, 16>> RegistersOf;
    std::map<uint32_t, uint64_t> HeadersOf; // by counter
    for (auto &[Counter, Slot] : Slots) {
      SmallPtrSet<BasicBlock *, 4> Seen;
      for (User *U : Slot->users())
        if (Loop *L = LI.getLoopFor(cast<Instruction>(U)->getParent()))
          if (Seen.insert(L->getHeader()).second)
            RegistersOf[L->getHeader()].push_back(Counter);
      HeadersOf[Counter] = Seen.size();
    }
    if (RegistersOf.empty())
      return;
    uint64_t MostHeaders = 1;
    for (auto &[Counter, K] : HeadersOf)
      MostHeaders = std::max(MostHeaders, K);
    uint64_t Limit =
        std::max<uint64_t>(1, INT32_MAX / (SlotBound * MostHeaders));
    if (DrainVisits)
      Limit = std::min<uint64_t>(Limit, DrainVisits);
    for (auto &[Header, Counters] : RegistersOf) {
      AllocaInst *Visits = newRegister("pasta.div.visits");
      Instruction *Top = &*Header->getFirstInsertionPt();
      IRBuilder<> B(Top);
      Value *N =
          B.CreateAdd(B.CreateLoad(B.getInt32Ty(), Visits), B.getInt32(1));
      B.CreateStore(N, Visits);
      Instruction *Then = SplitBlockAndInsertIfThen(
          B.CreateICmpUGE(N, B.getInt32(uint32_t(Limit))), Top->getIterator(),
          /*Unreachable=*/false);
      markInstrumentation(
          Then->getParent()->getSinglePredecessor()->getTerminator());
      IRBuilder<> DB(Then);
      Value *Row = freshRow(DB);
      SmallVector<Value *, 16> Values;
      for (uint32_t Counter : Counters)
        Values.push_back(load(DB, Slots.at(Counter)));
      for (size_t K = 0; K < Counters.size(); ++K)
        DB.CreateCall(H.Add, {counter(DB, Counters[K], Row), Values[K]});
      for (uint32_t Counter : Counters)
        zero(DB, {Slots.at(Counter)});
      zero(DB, {Visits});
    }
  }

  // The most registers a return flushes with the inline fast path (as
  // counting mode's CounterEmission.cpp, InlineFlushLimit).
  static constexpr size_t InlineFlushLimit = 32;

  // At every return, as counting mode flushes: one test picks the fast path
  // for the usual case (a full warp, every register below 2^27), inline:
  // each register costs one warp sum and at most one `red` by lane 0. The
  // general path stages the registers for the runtime's out-of-line
  // __pasta_flush, one call per run of nearby counters.
  void emitFlush(Instruction *Ret) {
    Module &M = *Copy.getParent();
    LLVMContext &Ctx = M.getContext();
    Type *I64 = Type::getInt64Ty(Ctx);
    PointerType *Global = PointerType::get(Ctx, 1);
    IRBuilder<> B(Ret);
    std::map<uint32_t, Value *> Values = slotValues(B);
    // Many registers: the general path alone. An inline warp sum and `red`
    // per register (each a branch) made the copy of a kernel with hundreds
    // of loop figures several times its size, and ptxas's time with it;
    // a flush at the return runs once per thread.
    if (Values.size() > InlineFlushLimit)
      return emitStagedFlush(Ret, Values);
    Value *Any = nullptr;
    for (auto &[Counter, V] : Values)
      Any = Any ? B.CreateOr(Any, V) : V;
    FunctionCallee IsFast = M.getOrInsertFunction(FlushIsFastName, I64, I64);
    Value *Fast = B.CreateICmpNE(B.CreateCall(IsFast, {Any}), B.getInt64(0));
    Instruction *FastT, *SlowT;
    SplitBlockAndInsertIfThenElse(Fast, Ret->getIterator(), &FastT, &SlowT);
    markInstrumentation(
        FastT->getParent()->getSinglePredecessor()->getTerminator());
    IRBuilder<> FB(FastT);
    Value *Row = freshRow(FB);
    FunctionCallee FlushFast = M.getOrInsertFunction(
        FlushCounterFastName, FB.getVoidTy(), Global, I64);
    for (auto &[Counter, V] : Values)
      FB.CreateCall(FlushFast, {counter(FB, Counter, Row), V});
    emitStagedFlush(SlowT, Values);
  }

  // Values staged by runs of counters less than PASTA_DIV_NUM apart (a
  // row's figures, a block's pair), 0 between them, one __pasta_flush each.
  void emitStagedFlush(Instruction *At,
                       const std::map<uint32_t, Value *> &Values) {
    Module &M = *Copy.getParent();
    LLVMContext &Ctx = M.getContext();
    Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
    PointerType *Global = PointerType::get(Ctx, 1);
    PointerType *Generic = PointerType::get(Ctx, 0);
    FunctionCallee Flush = M.getOrInsertFunction(
        FlushName, Type::getVoidTy(Ctx), Global, I32, I32, I32, Generic, I32);
    auto *StageTy = ArrayType::get(I64, PASTA_DIV_NUM);
    if (!Stage) {
      IRBuilder<> EntryB(&*Copy.getEntryBlock().getFirstInsertionPt());
      Stage =
          EntryB.CreateAlloca(StageTy, M.getDataLayout().getAllocaAddrSpace(),
                              nullptr, "pasta.div.flush");
    }
    IRBuilder<> B(At);
    for (auto It = Values.begin(); It != Values.end();) {
      uint32_t First = It->first, Last = First;
      std::array<Value *, PASTA_DIV_NUM> Run{};
      for (; It != Values.end() && It->first - First < PASTA_DIV_NUM; ++It) {
        Run[It->first - First] = It->second;
        Last = It->first;
      }
      for (uint32_t I = 0; I <= Last - First; ++I)
        B.CreateStore(Run[I] ? Run[I] : B.getInt64(0),
                      B.CreateConstInBoundsGEP2_32(StageTy, Stage, 0, I));
      B.CreateCall(Flush, {T.Counters, B.getInt32(T.NumCounters),
                           B.getInt32(T.numBanks()), B.getInt32(First),
                           B.CreatePointerCast(Stage, Generic),
                           B.getInt32(Last - First + 1)});
    }
  }

  Function &Copy;
  ModuleTables &T;
  UniformLoops &Loops;
  const DivHelpers &H;
  uint32_t DrainVisits; // at most this many header visits between drains
  std::map<uint32_t, AllocaInst *> Slots; // by counter
  // By counter: the most one pass through a loop adds to its register.
  std::map<uint32_t, uint64_t> SlotBounds;
  std::deque<AccessGroup> Groups;
  std::map<const UniformLoops::UniformLoop *, HoistedLoop> Hoisted;
  SmallVector<const UniformLoops::UniformLoop *, 4> HoistOrder;
  std::map<BasicBlock *, AllocaInst *> Executions;
  std::array<AllocaInst *, PASTA_DIV_NUM> Scratch{};
  AllocaInst *Discard = nullptr;
  // Whether the access helpers are called out of line (many groups), and
  // the array they write their figures to.
  bool OutOfLine = false;
  AllocaInst *OutArray = nullptr;
  AllocaInst *Stage = nullptr; // the general path's staging, made on demand
  Value *BankRow = nullptr;    // for figures added where measured
  Value *RowWidth = nullptr;
  // The entry block's first instruction before any register was made: the
  // registers go above it, code at the top of the entry block before it.
  Instruction *EntryBody;
};

} // namespace

// The counting code's flush by the grid's first thread block
// (CounterEmission.cpp) made every warp's again in a divergence copy: row
// 0's slots become the warp's bank row's, the scale 1. Its code raised
// matmul_tiled's copy from 80 to 85 registers (past an allocation step of
// 8: a thread block fewer per SM), inline or out of line; the copies run
// at several times the plain kernel's time, where a flush per warp is
// noise.
static void flushAlikePerWarp(Function &Copy, ModuleTables &T,
                              FunctionCallee BankRow) {
  SmallVector<CallInst *, 2> Scales;
  for (BasicBlock &BB : Copy)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallInst>(&I))
        if (Function *Callee = Call->getCalledFunction())
          if (Callee->getName() == FirstBlockScaleName)
            Scales.push_back(Call);
  const DataLayout &DL = Copy.getDataLayout();
  for (CallInst *Scale : Scales) {
    IRBuilder<> B(Scale);
    Value *Row = B.CreateCall(BankRow, {T.Counters, B.getInt32(T.NumCounters),
                                        B.getInt32(T.numBanks())});
    for (User *U : make_early_inc_range(Scale->users())) {
      auto *Flush = dyn_cast<CallInst>(U);
      if (!Flush)
        continue;
      IRBuilder<> FB(Flush);
      for (Use &Arg : Flush->args()) {
        if (!Arg->getType()->isPointerTy())
          continue;
        APInt Offset(DL.getIndexTypeSizeInBits(Arg->getType()), 0);
        Value *Base = Arg->stripAndAccumulateConstantOffsets(DL, Offset, false);
        if (Base == T.Counters)
          Arg.set(FB.CreateConstInBoundsGEP1_64(FB.getInt8Ty(), Row,
                                                Offset.getZExtValue()));
      }
    }
    SmallVector<BasicBlock *, 2> Tests;
    for (User *U : Scale->users())
      if (auto *Test = dyn_cast<Instruction>(U); Test && !isa<CallInst>(Test))
        Tests.push_back(Test->getParent());
    Scale->replaceAllUsesWith(ConstantInt::get(Scale->getType(), 1));
    Scale->eraseFromParent();
    for (BasicBlock *BB : Tests) // `scale != 0` is true now
      for (Instruction &I : make_early_inc_range(*BB))
        if (Value *V = simplifyInstruction(&I, {DL})) {
          I.replaceAllUsesWith(V);
          I.eraseFromParent();
        }
    for (BasicBlock *BB : Tests)
      ConstantFoldTerminator(BB);
  }
}

static Instruction *inCopy(ValueToValueMapTy &VMap, Value *Original) {
  auto It = VMap.find(Original);
  return It == VMap.end() ? nullptr : dyn_cast<Instruction>(It->second);
}

static Value *accessPointer(Instruction *I) {
  if (Value *Ptr = getLoadStorePointerOperand(I))
    return Ptr;
  if (auto *RMW = dyn_cast<AtomicRMWInst>(I))
    return RMW->getPointerOperand();
  return cast<AtomicCmpXchgInst>(I)->getPointerOperand();
}

// Whether F or a function it calls has a loop (the runtime's helpers are
// still declarations here, so only the program's own code counts).
static bool reachesLoop(const Function &F,
                        SmallPtrSetImpl<const Function *> &Seen) {
  if (F.isDeclaration() || !Seen.insert(&F).second)
    return false;
  SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 4> Backedges;
  FindFunctionBackedges(F, Backedges);
  if (!Backedges.empty())
    return true;
  for (const Instruction &I : instructions(F))
    if (const auto *Call = dyn_cast<CallBase>(&I))
      if (const Function *Callee = Call->getCalledFunction())
        if (reachesLoop(*Callee, Seen))
          return true;
  return false;
}

// The register cap of an NVPTX kernel's divergence copy (ptxas's
// .maxnreg). The measuring code holds figures and addresses the kernel
// does not, and ptxas gives the copies 50 to 170 registers where the
// kernels take 10 to 40: too few warps stay resident to hide memory
// latency. What the cap spills costs once per thread in a kernel without
// loops, once per iteration in one with them, so by default the first
// gets 48 registers and the second 64 (the best of 32, 40, 48, 64 and no
// cap when the bundled programs were timed with each on an H200). Requested
// sets every kernel's (0: none). A lower cap of the kernel's own is kept,
// and launch bounds with a minimum of blocks per SM are the program's own
// word on its occupancy (CUB gives its single-block kernels 1), so such a
// copy gets none.
static void capRegisters(Function &Kernel, int Requested) {
  if (!Requested || Kernel.hasFnAttribute("nvvm.minctasm"))
    return;
  unsigned Cap = Requested;
  if (Requested < 0) {
    SmallPtrSet<const Function *, 8> Seen;
    Cap = reachesLoop(Kernel, Seen) ? 64 : 48;
  }
  unsigned Own = 0;
  if (Kernel.hasFnAttribute("nvvm.maxnreg") &&
      !Kernel.getFnAttribute("nvvm.maxnreg")
           .getValueAsString()
           .getAsInteger(10, Own) &&
      Own && Own <= Cap)
    return;
  Kernel.addFnAttr("nvvm.maxnreg", std::to_string(Cap));
}

// The divergence copy of Kernel as it is before its cap, named Kernel +
// PASTA_DIV_UNCAPPED_SUFFIX: a grid that fits in one wave of it gains
// nothing from the cap's extra resident warps and would only pay for its
// spills, so the runtime launches this one then (host_rt/launch.c). Made
// for every NVPTX kernel when caps are on, so that the host, which cannot
// see the device code, can register it by name.
static void addUncappedCopy(const Function &Kernel, Function &Copy) {
  ValueToValueMapTy VMap;
  Function *Uncapped = CloneFunction(&Copy, VMap);
  Uncapped->setName(Kernel.getName() + PASTA_DIV_UNCAPPED_SUFFIX);
}

void pasta::createDivergenceVariants(Module &M, ArrayRef<Function *> Fns,
                                     const DivergencePlan &Plan,
                                     ModuleTables &T,
                                     FunctionAnalysisManager &FAM,
                                     int MaxRegisters, uint32_t DrainVisits) {
  LLVMContext &Ctx = M.getContext();
  Type *Void = Type::getVoidTy(Ctx), *I32 = Type::getInt32Ty(Ctx),
       *I64 = Type::getInt64Ty(Ctx);
  PointerType *Generic = PointerType::get(Ctx, 0);
  PointerType *Private =
      PointerType::get(Ctx, M.getDataLayout().getAllocaAddrSpace());
  SmallVector<Type *, 13> AccessParams{Generic, I32, I32, I32, I32};
  AccessParams.append(8, Private);
  DivHelpers H;
  H.Access = M.getOrInsertFunction(DivAccessName,
                                   FunctionType::get(I32, AccessParams, false));
  H.Branch = M.getOrInsertFunction(DivBranchName, Void, I32, Private, Private);
  H.Switch = M.getOrInsertFunction(DivSwitchName, Void, I64, Private, Private);
  H.Block = M.getOrInsertFunction(DivBlockName, Void, I32, Private, Private);
  PointerType *Global = PointerType::get(Ctx, 1);
  H.Add = M.getOrInsertFunction(DivAddName, Void, Global, I64);
  H.BranchAdd = M.getOrInsertFunction(DivBranchAddName, Void, I32, Global);
  H.SwitchAdd = M.getOrInsertFunction(DivSwitchAddName, Void, I64, Global);
  H.BlockAdd =
      M.getOrInsertFunction(DivBlockAddName, Void, Global, Global, I32);
  H.CountLaunch =
      M.getOrInsertFunction(DivCountLaunchName, Void, Global, Global);
  H.AllLanes = M.getOrInsertFunction(DivAllLanesName, I32, I32);
  H.Uniform = M.getOrInsertFunction(DivUniformName, I32, I32);
  SmallVector<Type *, 14> LanesParams{Generic, I32, I32, I32, I32, I32};
  LanesParams.append(8, Private);
  H.AccessLanes = M.getOrInsertFunction(
      DivAccessLanesName, FunctionType::get(I32, LanesParams, false));
  H.RowWidth = M.getOrInsertFunction(DivRowWidthName, I32);
  H.AccessOut = M.getOrInsertFunction(DivAccessOutName, I32, Generic, I32, I32,
                                      I32, I32, Private);
  H.AccessLanesOut = M.getOrInsertFunction(DivAccessLanesOutName, I32, Generic,
                                           I32, I32, I32, I32, I32, Private);
  H.BankRow = M.getOrInsertFunction(BankRowName, Global, Global, I32, I32);

  ValueToValueMapTy VMap;
  DenseMap<Function *, Function *> CopyOf =
      createCopies(M, Fns, PASTA_DIV_SUFFIX, VMap);
  // Loops are simplified and analyzed before any code goes in.
  std::map<Function *, std::unique_ptr<UniformLoops>> LoopsOf;
  for (auto &[F, Copy] : CopyOf)
    LoopsOf[Copy] = std::make_unique<UniformLoops>(*Copy, FAM);
  std::map<Function *, CopyMeasures> Measures;
  auto MeasuresOf = [&](Instruction *I) -> CopyMeasures & {
    Function *F = I->getFunction();
    return Measures.try_emplace(F, *F, T, *LoopsOf.at(F), H, DrainVisits)
        .first->second;
  };

  for (const DivergencePlan::Block &Planned : Plan.Blocks) {
    auto It = VMap.find(Planned.BB);
    if (It == VMap.end())
      continue;
    auto *BB = cast<BasicBlock>(It->second);
    MeasuresOf(&*BB->getFirstInsertionPt()).addBlock(*BB, Planned);
  }
  for (const DivergencePlan::Segment &Seg : Plan.Segments)
    if (Instruction *Call = inCopy(VMap, Seg.After))
      MeasuresOf(Call).addSegment(*Call, Seg.Warps);
  for (const DivergencePlan::Branch &Br : Plan.Branches)
    if (Instruction *I = Br.Repeated ? nullptr : inCopy(VMap, Br.Term))
      MeasuresOf(I).addBranch(*I, Br.Row);
  // Accesses by block, in order (the plan lists them so).
  MapVector<BasicBlock *, SmallVector<AccessSite, 8>> SitesOf;
  for (const DivergencePlan::Access &A : Plan.Accesses)
    if (Instruction *I = inCopy(VMap, A.I))
      SitesOf[I->getParent()].push_back({&A, I, accessPointer(I)});
  for (auto &[BB, Sites] : SitesOf)
    MeasuresOf(Sites.front().I).planAccesses(Sites);
  for (auto &[F, CM] : Measures) {
    CM.measureAccesses();
    CM.emitFlushes();
  }
  for (auto &[F, Copy] : CopyOf)
    flushAlikePerWarp(*Copy, T, H.BankRow);
  for (auto &[F, Copy] : CopyOf)
    FAM.invalidate(*Copy, PreservedAnalyses::none());
  // In the kernels' order, so that the module's order is the same each time.
  if (T.Target == PASTA_TARGET_NVPTX && MaxRegisters)
    for (Function *F : Fns)
      if (isKernel(*F)) {
        addUncappedCopy(*F, *CopyOf.at(F));
        capRegisters(*CopyOf.at(F), MaxRegisters);
      }
}
