//===- AccessClassification.cpp - How a memory access's address moves -----===//
//
// See AccessClassification.h for the classes. The work is in two walks:
//
//  - over the IR: every SCEVUnknown of the offset (and the base pointer) is
//    traced back through the instructions scalar evolution could not see
//    into, to find loads (indirect accesses), thread indices (lane-varying
//    offsets) and loads of private variables (opaque: -O0 code).
//  - over the SCEV: the change of the offset when one variable, a loop's
//    iteration or the thread index in x, grows by one. Sums and products by
//    invariants are linear; a recurrence of the loop contributes its step;
//    anything else that moves with the variable is non-affine.
//
//===----------------------------------------------------------------------===//
#include "AccessClassification.h"
#include "GridIndices.h"
#include "IRHelpers.h"
#include "InlineAsmMemory.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ModuleSlotTracker.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <optional>

using namespace llvm;
using namespace pasta;

// Longest offset string; longer ones end in "...".
static constexpr size_t MaxOffsetChars = 100;
// Values visited when tracing one SCEVUnknown back through the IR.
static constexpr unsigned MaxTracedValues = 256;

StringRef pasta::accessClassName(pasta_access_class Class) {
  switch (Class) {
  case PASTA_ACCESS_CONSTANT:
    return "constant";
  case PASTA_ACCESS_STRIDE1:
    return "stride-1";
  case PASTA_ACCESS_STRIDEK:
    return "stride-k";
  case PASTA_ACCESS_INDIRECT:
    return "indirect";
  case PASTA_ACCESS_UNKNOWN:
    break;
  }
  return "unknown";
}

//===----------------------------------------------------------------------===//
// Where the values in an offset come from
//===----------------------------------------------------------------------===//

namespace {
struct Origins {
  bool Loaded = false;  // a value loaded from memory
  bool ThreadX = false; // the thread index in x
  bool Lane = false;    // tid.x, the lane id: differs between lanes of a warp
  bool Opaque = false;  // a private variable's load, or too much to trace

  Origins &operator|=(const Origins &O) {
    Loaded |= O.Loaded;
    ThreadX |= O.ThreadX;
    Lane |= O.Lane;
    Opaque |= O.Opaque;
    return *this;
  }
};
} // namespace

// Indices that differ between the lanes of a warp. tid.y and tid.z do not
// count: like the block index, they are the same for the lanes of a warp
// when blockDim.x is a multiple of the warp size.
static bool isLaneVarying(Intrinsic::ID ID) {
  return readsThreadX(ID) || ID == Intrinsic::nvvm_read_ptx_sreg_laneid ||
         ID == Intrinsic::amdgcn_mbcnt_lo || ID == Intrinsic::amdgcn_mbcnt_hi;
}

// What a load from Ptr yields: a kernel parameter (nothing), a private
// variable (opaque) or data.
static Origins originsOfLoad(const Value *Ptr) {
  Origins O;
  const Value *Object = getUnderlyingObject(Ptr);
  if (const auto *A = dyn_cast<Argument>(Object)) {
    if (A->hasByValAttr() || A->hasByRefAttr())
      return O;
  } else if (const auto *Call = dyn_cast<CallBase>(Object)) {
    // llvm.amdgcn.kernarg.segment.ptr, implicitarg.ptr, dispatch.ptr, ...
    if (Call->getIntrinsicID() != Intrinsic::not_intrinsic &&
        Call->doesNotAccessMemory())
      return O;
  } else if (isa<AllocaInst>(Object)) {
    O.Opaque = true;
    return O;
  }
  O.Loaded = true;
  return O;
}

// Traces Root back through the IR to the loads and thread indices it is
// computed from. Arguments, constants and the results of calls are leaves.
static Origins traceValue(const Value *Root) {
  Origins O;
  SmallVector<const Value *, 16> Work{Root};
  SmallPtrSet<const Value *, 32> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    if (Seen.size() > MaxTracedValues) {
      O.Opaque = true;
      break;
    }
    const auto *I = dyn_cast<Instruction>(V);
    if (!I || isa<AllocaInst>(I))
      continue;
    if (const auto *Load = dyn_cast<LoadInst>(I)) {
      O |= originsOfLoad(Load->getPointerOperand());
      continue;
    }
    if (isa<AtomicRMWInst, AtomicCmpXchgInst>(I)) {
      O.Loaded = true;
      continue;
    }
    if (const auto *Call = dyn_cast<CallBase>(I)) {
      Intrinsic::ID ID = Call->getIntrinsicID();
      if (ID == Intrinsic::not_intrinsic)
        continue;
      O.ThreadX |= readsThreadX(ID);
      O.Lane |= isLaneVarying(ID);
      if (isLaneVarying(ID))
        continue;
      if (Call->mayReadFromMemory()) {
        O.Loaded = true;
        continue;
      }
      append_range(Work, Call->args());
      continue;
    }
    append_range(Work, I->operands());
  }
  return O;
}

namespace {
struct UnknownCollector {
  SmallVector<const Value *, 8> Values;
  bool follow(const SCEV *S) {
    if (const auto *U = dyn_cast<SCEVUnknown>(S))
      Values.push_back(U->getValue());
    return true;
  }
  bool isDone() const { return false; }
};
} // namespace

static Origins originsOf(const SCEV *S) {
  UnknownCollector Collector;
  visitAll(S, Collector);
  Origins O;
  for (const Value *V : Collector.Values)
    O |= traceValue(V);
  return O;
}

//===----------------------------------------------------------------------===//
// How the offset changes with one variable
//===----------------------------------------------------------------------===//

namespace {
// The change of an expression when the variable grows by one: Step if it is
// affine in the variable; non-affine if it moves in another way; opaque if
// it moves through a value scalar evolution cannot see into.
struct Change {
  enum KindTy { Affine, NonAffine, Opaque } Kind = Affine;
  const SCEV *Step = nullptr;

  bool isZero() const { return Kind == Affine && Step->isZero(); }
};

// Decides the change of a leaf of the walk, or returns std::nullopt to have
// the walk look into the operands.
using LeafFn = function_ref<std::optional<Change>(const SCEV *)>;
} // namespace

static Change affine(const SCEV *Step) { return {Change::Affine, Step}; }

static Change zeroChange(ScalarEvolution &SE, const SCEV *S) {
  return affine(SE.getZero(SE.getEffectiveSCEVType(S->getType())));
}

static Change changeOf(const SCEV *S, LeafFn Leaf, ScalarEvolution &SE,
                       DenseMap<const SCEV *, Change> &Memo);

static Change changeOfUncached(const SCEV *S, LeafFn Leaf, ScalarEvolution &SE,
                               DenseMap<const SCEV *, Change> &Memo) {
  if (std::optional<Change> C = Leaf(S))
    return *C;
  Type *Ty = SE.getEffectiveSCEVType(S->getType());
  SmallVector<Change, 4> Ops;
  Change::KindTy Worst = Change::Affine;
  for (const SCEV *Op : S->operands()) {
    Ops.push_back(changeOf(Op, Leaf, SE, Memo));
    Worst = std::max(Worst, Ops.back().Kind);
  }
  if (Worst != Change::Affine)
    return {Worst, nullptr};
  bool Moves = any_of(Ops, [](const Change &C) { return !C.isZero(); });
  if (!Moves)
    return zeroChange(SE, S);

  switch (S->getSCEVType()) {
  case scTruncate:
  case scZeroExtend:
  case scSignExtend:
  case scPtrToInt:
    // Taken not to wrap: the step keeps its sign.
    return affine(SE.getTruncateOrSignExtend(Ops[0].Step, Ty));
  case scAddExpr: {
    SmallVector<const SCEV *, 4> Steps;
    for (const Change &C : Ops)
      Steps.push_back(C.Step);
    return affine(SE.getAddExpr(Steps));
  }
  case scMulExpr: {
    // Linear only if a single factor moves.
    const auto *Mul = cast<SCEVMulExpr>(S);
    if (count_if(Ops, [](const Change &C) { return !C.isZero(); }) > 1)
      return {Change::NonAffine, nullptr};
    SmallVector<const SCEV *, 4> Factors;
    for (auto [Op, C] : zip(Mul->operands(), Ops))
      Factors.push_back(C.isZero() ? Op : C.Step);
    return affine(SE.getMulExpr(Factors));
  }
  default:
    return {Change::NonAffine, nullptr};
  }
}

// Expressions share subexpressions: each is walked once.
static Change changeOf(const SCEV *S, LeafFn Leaf, ScalarEvolution &SE,
                       DenseMap<const SCEV *, Change> &Memo) {
  auto It = Memo.find(S);
  if (It != Memo.end())
    return It->second;
  Change C = changeOfUncached(S, Leaf, SE, Memo);
  Memo[S] = C;
  return C;
}

static Change changeAlongLoop(const SCEV *S, const Loop *L,
                              ScalarEvolution &SE) {
  auto Leaf = [&](const SCEV *E) -> std::optional<Change> {
    if (SE.isLoopInvariant(E, L))
      return zeroChange(SE, E);
    if (const auto *AR = dyn_cast<SCEVAddRecExpr>(E)) {
      if (AR->getLoop() != L)
        return Change{Change::Opaque, nullptr}; // an inner loop's exit value
      if (!AR->isAffine())
        return Change{Change::NonAffine, nullptr};
      return affine(AR->getStepRecurrence(SE));
    }
    if (isa<SCEVUnknown>(E))
      return Change{Change::Opaque, nullptr};
    return std::nullopt;
  };
  DenseMap<const SCEV *, Change> Memo;
  return changeOf(S, Leaf, SE, Memo);
}

static Change changeAcrossThreads(const SCEV *S, ScalarEvolution &SE) {
  auto Leaf = [&](const SCEV *E) -> std::optional<Change> {
    const auto *U = dyn_cast<SCEVUnknown>(E);
    if (!U)
      return std::nullopt;
    if (const auto *Call = dyn_cast<CallBase>(U->getValue()))
      if (readsThreadX(Call->getIntrinsicID()))
        return affine(SE.getOne(E->getType()));
    // What is computed from tid.x in a way scalar evolution cannot see moves
    // with it in an unknown way.
    if (traceValue(U->getValue()).ThreadX)
      return Change{Change::Opaque, nullptr};
    return zeroChange(SE, E);
  };
  DenseMap<const SCEV *, Change> Memo;
  return changeOf(S, Leaf, SE, Memo);
}

// Stride-1 or stride-k from the change of the offset.
static void classifyChange(const Change &C, uint64_t ElemSize,
                           AccessPattern &P) {
  if (C.Kind == Change::Opaque || C.isZero())
    return;
  P.Class = PASTA_ACCESS_STRIDEK;
  const auto *Step =
      C.Kind == Change::Affine ? dyn_cast<SCEVConstant>(C.Step) : nullptr;
  if (!Step || Step->getAPInt().getSignificantBits() > 64)
    return;
  int64_t Bytes = Step->getAPInt().getSExtValue();
  int64_t Size = static_cast<int64_t>(ElemSize);
  if (Bytes % Size != 0)
    return;
  int64_t K = Bytes / Size;
  if (K == 1 || K == -1)
    P.Class = PASTA_ACCESS_STRIDE1;
  if (K >= INT32_MIN && K <= INT32_MAX)
    P.Stride = static_cast<int32_t>(K);
}

//===----------------------------------------------------------------------===//
// Printing the offset
//===----------------------------------------------------------------------===//

static const SCEV *stripCasts(const SCEV *S) {
  while (const auto *Cast = dyn_cast<SCEVCastExpr>(S))
    S = Cast->getOperand();
  return S;
}

namespace {
// Writes an offset's scalar evolution as text. Unnamed values are printed
// by their slot numbers through one tracker for all of a function's
// accesses: printAsOperand without one numbers the whole function (and its
// metadata) again for each value: quadratic in a kernel's size (MCX's
// mcx_core.cu: the pass 18.5 s of CPU, 1.4 s with one; issue [overhead-3]).
class OffsetWriter {
public:
  explicit OffsetWriter(ModuleSlotTracker &MST) : MST(MST) {}
  std::string offsetString(const SCEV *S);

private:
  ModuleSlotTracker &MST;
  std::string valueName(const Value *V);
  std::string loopVariable(const Loop *L);
  std::string exprString(const SCEV *S);
  void collectTerms(const SCEV *S, SmallVectorImpl<std::string> &Terms,
                    SmallVectorImpl<std::string> &Constants);
  std::string factorString(const SCEV *S);
  std::string productString(const SCEV *Coefficient, std::string Rest);
  std::string joinTerms(const SCEV *S);
};
} // namespace

std::string OffsetWriter::valueName(const Value *V) {
  if (const auto *Call = dyn_cast<CallBase>(V)) {
    // Thread and block indices by their short names: tid.x, ctaid.x, ...
    const Function *Callee = Call->getCalledFunction();
    if (Callee && Callee->isIntrinsic() && Call->arg_empty()) {
      StringRef Name = Callee->getName();
      if (Name.consume_front("llvm.nvvm.read.ptx.sreg.") ||
          Name.consume_front("llvm.amdgcn."))
        return Name.str();
    }
  }
  std::string Out;
  raw_string_ostream OS(Out);
  V->printAsOperand(OS, /*PrintType=*/false, MST);
  return Out;
}

std::string OffsetWriter::loopVariable(const Loop *L) {
  const BasicBlock *Header = L->getHeader();
  if (Header->hasName())
    return ("i<" + Header->getName() + ">").str();
  std::string Out;
  raw_string_ostream OS(Out);
  Header->printAsOperand(OS, /*PrintType=*/false, MST);
  return "i<" + StringRef(Out).ltrim('%').str() + ">";
}

// S as a factor of a product: a sum of several terms goes in parentheses.
std::string OffsetWriter::factorString(const SCEV *S) {
  SmallVector<std::string, 4> Terms, Constants;
  collectTerms(S, Terms, Constants);
  std::string Str = exprString(S);
  if (Terms.size() + Constants.size() > 1)
    return "(" + Str + ")";
  return Str;
}

std::string OffsetWriter::productString(const SCEV *Coefficient,
                                        std::string Rest) {
  if (const auto *C = dyn_cast<SCEVConstant>(Coefficient)) {
    if (C->getAPInt().isOne())
      return Rest;
    if (C->getAPInt().isAllOnes())
      return "-" + Rest;
  }
  return factorString(Coefficient) + "*" + Rest;
}

// The terms of a sum, constants last (scalar evolution puts them first).
void OffsetWriter::collectTerms(const SCEV *S,
                                SmallVectorImpl<std::string> &Terms,
                                SmallVectorImpl<std::string> &Constants) {
  S = stripCasts(S);
  if (const auto *Add = dyn_cast<SCEVAddExpr>(S)) {
    for (const SCEV *Op : Add->operands())
      collectTerms(Op, Terms, Constants);
    return;
  }
  if (const auto *AR = dyn_cast<SCEVAddRecExpr>(S); AR && AR->isAffine()) {
    if (!AR->getStart()->isZero())
      collectTerms(AR->getStart(), Terms, Constants);
    Terms.push_back(
        productString(AR->getOperand(1), loopVariable(AR->getLoop())));
    return;
  }
  if (const auto *C = dyn_cast<SCEVConstant>(S)) {
    if (!C->isZero())
      Constants.push_back(exprString(C));
    return;
  }
  Terms.push_back(exprString(S));
}

std::string OffsetWriter::joinTerms(const SCEV *S) {
  SmallVector<std::string, 4> Terms, Constants;
  collectTerms(S, Terms, Constants);
  append_range(Terms, Constants);
  if (Terms.empty())
    return "0";
  std::string Out = Terms.front();
  for (StringRef T : ArrayRef(Terms).drop_front()) {
    if (T.consume_front("-"))
      Out += " - ";
    else
      Out += " + ";
    Out += T;
  }
  return Out;
}

std::string OffsetWriter::exprString(const SCEV *S) {
  S = stripCasts(S);
  switch (S->getSCEVType()) {
  case scConstant: {
    std::string Out;
    raw_string_ostream OS(Out);
    cast<SCEVConstant>(S)->getAPInt().print(OS, /*isSigned=*/true);
    return Out;
  }
  case scVScale:
    return "vscale";
  case scUnknown:
    return valueName(cast<SCEVUnknown>(S)->getValue());
  case scAddExpr:
    return joinTerms(S);
  case scMulExpr: {
    const auto *Mul = cast<SCEVMulExpr>(S);
    std::string Rest;
    for (const SCEV *Op : Mul->operands().drop_front())
      Rest += (Rest.empty() ? "" : "*") + factorString(Op);
    return productString(Mul->getOperand(0), Rest);
  }
  case scUDivExpr: {
    const auto *Div = cast<SCEVUDivExpr>(S);
    return "(" + factorString(Div->getLHS()) + " / " +
           factorString(Div->getRHS()) + ")";
  }
  case scAddRecExpr: {
    const auto *AR = cast<SCEVAddRecExpr>(S);
    if (AR->isAffine())
      return joinTerms(S);
    std::string Out = "{";
    for (const SCEV *Op : AR->operands())
      Out += (Out.size() > 1 ? ",+," : "") + exprString(Op);
    return Out + "}<" + loopVariable(AR->getLoop()).substr(2);
  }
  default: {
    StringRef Name;
    switch (S->getSCEVType()) {
    case scUMaxExpr:
      Name = "umax";
      break;
    case scSMaxExpr:
      Name = "smax";
      break;
    case scUMinExpr:
      Name = "umin";
      break;
    case scSMinExpr:
      Name = "smin";
      break;
    case scSequentialUMinExpr:
      Name = "umin_seq";
      break;
    default:
      Name = "?";
      break;
    }
    std::string Out = (Name + "(").str();
    for (const SCEV *Op : S->operands())
      Out += (Out.back() == '(' ? "" : ", ") + exprString(Op);
    return Out + ")";
  }
  }
}

std::string OffsetWriter::offsetString(const SCEV *S) {
  std::string Out = exprString(S);
  if (Out.size() > MaxOffsetChars)
    Out = Out.substr(0, MaxOffsetChars - 3) + "...";
  return Out;
}

//===----------------------------------------------------------------------===//
// Classification
//===----------------------------------------------------------------------===//

static Type *accessedType(const Instruction &I) {
  if (const auto *Load = dyn_cast<LoadInst>(&I))
    return Load->getType();
  if (const auto *Store = dyn_cast<StoreInst>(&I))
    return Store->getValueOperand()->getType();
  if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return RMW->getValOperand()->getType();
  if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    return CX->getNewValOperand()->getType();
  if (const auto *Call = dyn_cast<CallBase>(&I);
      Call && scopedAtomicPointer(*Call))
    return Call->getType(); // atomicAdd_system, ...: the value's type
  return nullptr;
}

AccessPattern pasta::classifyAccess(Instruction &I, Value *Ptr,
                                    ScalarEvolution &SE, LoopInfo &LI,
                                    ModuleSlotTracker &MST) {
  AccessPattern P;
  if (!SE.isSCEVable(Ptr->getType()))
    return P; // a vector of pointers
  const Loop *Innermost = LI.getLoopFor(I.getParent());
  const SCEV *Address = SE.getSCEVAtScope(SE.getSCEV(Ptr), Innermost);
  const SCEV *Base = SE.getPointerBase(Address);
  const SCEV *Offset = SE.removePointerBase(Address);
  if (isa<SCEVCouldNotCompute>(Base) || isa<SCEVCouldNotCompute>(Offset))
    return P;
  P.Offset = OffsetWriter(MST).offsetString(Offset);

  Origins O = originsOf(Offset);
  Origins BaseOrigins = originsOf(Base);
  if (O.Loaded || BaseOrigins.Loaded) {
    P.Class = PASTA_ACCESS_INDIRECT;
    return P;
  }
  // A base that differs between lanes in ways the offset does not show.
  O.Opaque |= BaseOrigins.Opaque || BaseOrigins.Lane;

  Type *Ty = accessedType(I);
  const DataLayout &DL = I.getModule()->getDataLayout();
  uint64_t ElemSize =
      Ty ? std::max<uint64_t>(DL.getTypeStoreSize(Ty).getKnownMinValue(), 1)
         : 1;
  uint32_t AsmBytes = 0; // counted inline PTX: the bytes of its access
  if (const auto *Call = dyn_cast<CallBase>(&I);
      Call && asmTrackedAddress(*Call, &AsmBytes))
    ElemSize = std::max<uint32_t>(AsmBytes, 1);

  for (const Loop *L = Innermost; L; L = L->getParentLoop()) {
    if (!SE.isLoopInvariant(Base, L))
      return P; // the base pointer moves in a way scalar evolution missed
    if (SE.isLoopInvariant(Offset, L))
      continue;
    classifyChange(changeAlongLoop(Offset, L, SE), ElemSize, P);
    return P;
  }

  if (O.Opaque)
    return P;
  if (!O.Lane) {
    P.Class = PASTA_ACCESS_CONSTANT;
    return P;
  }
  if (O.ThreadX)
    classifyChange(changeAcrossThreads(Offset, SE), ElemSize, P);
  return P;
}

//===----------------------------------------------------------------------===//
// pasta-print-access-classes
//===----------------------------------------------------------------------===//

static Value *accessedPointer(Instruction &I, bool &IsWrite) {
  IsWrite = !isa<LoadInst>(I);
  if (auto *Load = dyn_cast<LoadInst>(&I))
    return Load->getPointerOperand();
  if (auto *Store = dyn_cast<StoreInst>(&I))
    return Store->getPointerOperand();
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return RMW->getPointerOperand();
  if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    return CX->getPointerOperand();
  if (auto *Call = dyn_cast<CallBase>(&I))
    return scopedAtomicPointer(*Call);
  return nullptr;
}

PreservedAnalyses AccessClassPrinterPass::run(Function &F,
                                              FunctionAnalysisManager &FAM) {
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  ModuleSlotTracker MST(F.getParent(), /*ShouldInitializeAllMetadata=*/false);
  MST.incorporateFunction(F);
  for (Instruction &I : instructions(F)) {
    bool IsWrite;
    Value *Ptr = accessedPointer(I, IsWrite);
    if (!Ptr)
      continue;
    AccessPattern P = classifyAccess(I, Ptr, SE, LI, MST);
    const DebugLoc &Loc = I.getDebugLoc();
    OS << "pasta: access " << F.getName() << ' ' << (Loc ? Loc.getLine() : 0)
       << ':' << (Loc ? Loc.getCol() : 0) << ' ' << (IsWrite ? 'w' : 'r') << ' '
       << accessClassName(P.Class) << " stride=" << P.Stride
       << " offset=" << P.Offset << '\n';
  }
  return PreservedAnalyses::all();
}
