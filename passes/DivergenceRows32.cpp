//===- DivergenceRows32.cpp - A divergence copy's body for rows of 32 -----===//
//
// See DivergenceMeasures.h: addRows32Body. A copy whose every measured
// access is lane-shaped and proven in warps of one 32-lane row still held
// the general access helper (some 30 blocks of warp-level code, 64-bit
// masks and addresses) for the warps that are not: ptxas sized the whole
// copy's registers for it (vector_add's copy 48 under its cap, the kernel
// 17), and a streaming kernel ran with 5 blocks of 256 threads per SM
// instead of 8. The row width is the same in every warp of a launch, so
// the copy tests it once at its entry and runs either a body in which it
// is the constant 32 or the copy as it was, called as a function. A copy
// of a kernel for 2-D blocks, whose rows may be 16 wide, gets that only
// with a second body, for rows of 16, whose access helper takes the two
// rows of a warp by arithmetic (__pasta_div_access_rows16).
//
//===----------------------------------------------------------------------===//
#include "DivergenceMeasures.h"
#include "GridIndices.h"
#include "IRHelpers.h"

#include "llvm/Analysis/InstructionSimplify.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;
using namespace pasta;

// Whether F calls only declarations (the runtime's helpers, intrinsics)
// and inline assembly, and takes no argument by value: its copy as a
// function then takes the kernel's arguments as they are.
static bool callsOnlyDeclarations(const Function &F) {
  for (const Argument &A : F.args())
    if (A.hasByValAttr())
      return false;
  for (const Instruction &I : instructions(F))
    if (const auto *CB = dyn_cast<CallBase>(&I)) {
      if (CB->isInlineAsm())
        continue;
      const Function *Callee = CB->getCalledFunction();
      if (!Callee || !Callee->isDeclaration())
        return false;
    }
  return true;
}

// The calls of F to one of Callees.
static SmallVector<CallInst *, 4> callsTo(Function &F,
                                          ArrayRef<FunctionCallee> Callees) {
  SmallVector<CallInst *, 4> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (any_of(Callees, [&](FunctionCallee C) {
            return CI->getCalledOperand() == C.getCallee();
          }))
        Calls.push_back(CI);
  return Calls;
}

// A clone of the copy Copy as a plain function named Copy's name + Suffix:
// internal, without the kernel's attributes, called with its arguments.
static Function *cloneAsFunction(Function &Copy, StringRef Suffix,
                                 ValueToValueMapTy &VMap) {
  Function *F = CloneFunction(&Copy, VMap);
  F->setName(Copy.getName() + Suffix);
  F->setLinkage(GlobalValue::InternalLinkage);
  F->setCallingConv(CallingConv::C);
  AttributeList Attrs = F->getAttributes();
  for (const Attribute &A : Attrs.getFnAttrs())
    if (A.isStringAttribute() && A.getKindAsString().starts_with("nvvm."))
      F->removeFnAttr(A.getKindAsString());
  // The kernel's memory effects (argmem only, say) leave out the runtime's
  // counters: a call must not be taken for one without effects.
  F->removeFnAttr(Attribute::Memory);
  return F;
}

// Replaces the values Known of F by the constant C and folds what follows
// from it.
template <typename InstT>
static void foldKnown(Function &F, ArrayRef<InstT *> Known, Constant *C) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  SmallVector<WeakTrackingVH, 16> Work;
  for (InstT *W : Known) {
    Work.append(W->user_begin(), W->user_end());
    W->replaceAllUsesWith(C);
    W->eraseFromParent();
  }
  while (!Work.empty()) {
    auto *I = dyn_cast_or_null<Instruction>(Work.pop_back_val());
    Value *V = I ? simplifyInstruction(I, DL) : nullptr;
    if (!V || V == I) // itself: unreachable code (%x = add %x, 0)
      continue;
    Work.append(I->user_begin(), I->user_end());
    I->replaceAllUsesWith(V);
    if (isInstructionTriviallyDead(I))
      I->eraseFromParent();
  }
}

// Replaces the calls Widths of F by the constant Width and folds what
// follows from it.
static void foldWidth(Function &F, ArrayRef<CallInst *> Widths,
                      uint32_t Width) {
  foldKnown(F, Widths,
            ConstantInt::get(Type::getInt32Ty(F.getContext()), Width));
}

// Folds F's branches on constants and drops the blocks they leave
// unreachable.
static void dropDeadBlocks(Function &F) {
  for (BasicBlock &BB : F)
    ConstantFoldTerminator(&BB);
  removeUnreachableBlocks(F);
}

// The body for rows of 16 (Body, a clone of the copy): the row width is 16
// there (the stacked width stays a call: 16 or 0), and every AccessLanes
// call, given that width, is AccessRows16, whose figures are the same for
// the accesses rows16Calls admits (stride 0 or the size, aligned, a known
// space) without the general path.
static void makeRows16Body(Function &Body, ArrayRef<CallInst *> Calls,
                           const DivHelpers &H) {
  for (CallInst *CI : Calls) {
    IRBuilder<> B(CI);
    // AccessLanes: ptr, size, stride, space, sectored, width, then the
    // eight figures; AccessRows16 takes them all but the width.
    SmallVector<Value *, 13> Args;
    for (unsigned K = 0; K < CI->arg_size(); ++K)
      if (K != 5)
        Args.push_back(CI->getArgOperand(K));
    CallInst *Rows16 = B.CreateCall(H.AccessRows16, Args);
    CI->replaceAllUsesWith(Rows16);
    CI->eraseFromParent();
  }
  foldWidth(Body, callsTo(Body, {H.RowWidth}), 16);
  dropDeadBlocks(Body);
}

// The AccessLanes call CI, in code whose warps are rows of 32, replaced by
// AccessRow32 (its one-row path alone, which the call takes there for the
// aligned accesses of the calls given to it).
static void useAccessRow32(CallInst *CI, const DivHelpers &H) {
  IRBuilder<> B(CI);
  // AccessLanes: ptr, size, stride, space, sectored, width, then the
  // eight figures; AccessRow32 adds only sectors, ideal sectors and bank
  // conflicts (the last three).
  SmallVector<Value *, 8> Args{CI->getArgOperand(0), CI->getArgOperand(1),
                               CI->getArgOperand(2), CI->getArgOperand(3),
                               CI->getArgOperand(4)};
  for (unsigned K = 11; K < 14; ++K)
    Args.push_back(CI->getArgOperand(K));
  CallInst *Row32 = B.CreateCall(H.AccessRow32, Args);
  CI->replaceAllUsesWith(Row32);
  CI->eraseFromParent();
}

static cl::opt<bool> Rows32UniformBranches(
    "pasta-div-rows32-uniform-branches", cl::init(true), cl::Hidden,
    cl::desc("PASTA: in a body for rows of 32, leave unmeasured the branches "
             "whose condition is the same in every lane of one row (thread "
             "index x past its low 5 bits, y, z, the block's and grid's "
             "indices and sizes, arguments) (off: measured)"));

// Whether V is the same in every lane of a warp whose lanes are one row of
// 32, lane i holding thread index x = 32k + i and one y and z (a
// one-dimensional block, or rows of whole warps): built from constants, a
// kernel's arguments, the block's and grid's indices and sizes, thread
// indices y and z, and x shifted, divided or masked past its low 5 bits
// (`threadIdx.x / 32`, `threadIdx.x & ~31`), through arithmetic, casts,
// comparisons and selects. The reductions' `warp != 0`.
static bool uniformInRows32(const Value *V, unsigned Depth = 0) {
  using namespace PatternMatch;
  if (isa<Constant>(V))
    return true;
  if (const auto *A = dyn_cast<Argument>(V)) // a device function's may differ
    return isKernel(*A->getParent());
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 16)
    return false;
  if (const auto *II = dyn_cast<IntrinsicInst>(I)) {
    GridRead R = gridRead(II->getIntrinsicID());
    return R.Index != GridIndex::None && !readsThreadX(II->getIntrinsicID());
  }
  const Value *X;
  const APInt *C;
  auto IsX = [](const Value *X) {
    const auto *II = dyn_cast<IntrinsicInst>(X);
    return II && readsThreadX(II->getIntrinsicID());
  };
  if ((match(I, m_LShr(m_Value(X), m_APInt(C))) && C->uge(5)) ||
      (match(I, m_UDiv(m_Value(X), m_APInt(C))) && !C->isZero() &&
       C->countr_zero() >= 5 && C->isPowerOf2()) ||
      (match(I, m_And(m_Value(X), m_APInt(C))) && C->countr_zero() >= 5))
    if (IsX(X))
      return true;
  if (!isa<BinaryOperator>(I) && !isa<CastInst>(I) && !isa<CmpInst>(I) &&
      !isa<SelectInst>(I))
    return false;
  return all_of(I->operands(), [&](const Value *Op) {
    return uniformInRows32(Op, Depth + 1);
  });
}

// The condition a branch helper's call CI is given (its `taken`, less the
// zext).
static Value *takenOf(const CallInst *CI) {
  Value *Taken = CI->getArgOperand(0);
  if (auto *Z = dyn_cast<ZExtInst>(Taken))
    return Z->getOperand(0);
  return Taken;
}

// A __pasta_div_branch_none_add call CI whose condition a warp's lanes all
// share: in a warp where it holds, none and others add nothing, so the call
// moves onto the edge its block's branch takes where it fails (taken 0
// there, every lane of the warp active: the lanes at the branch), and a
// warp that goes the body's way runs no measuring code. False where the
// branch is not on that condition.
static bool moveToNoneEdge(CallInst *CI) {
  using namespace PatternMatch;
  auto *Br = dyn_cast<BranchInst>(CI->getParent()->getTerminator());
  if (!Br || !Br->isConditional())
    return false;
  Value *Taken = takenOf(CI), *X;
  unsigned NoneSide;
  if (Taken == Br->getCondition())
    NoneSide = 1;
  else if (match(Taken, m_Not(m_Value(X))) && X == Br->getCondition())
    NoneSide = 0;
  else
    return false;
  BasicBlock *Edge = SplitEdge(CI->getParent(), Br->getSuccessor(NoneSide));
  CI->moveBefore(Edge->getTerminator()->getIterator());
  CI->setArgOperand(0, ConstantInt::get(CI->getArgOperand(0)->getType(), 0));
  return true;
}

// Whether Cond holds in some lanes and fails in others of every full warp
// of one 32-lane row: a test of a lane's place in a group (laneGroup: tid.x
// & M, tid.x % M) against a constant that some of the group's values pass
// and some fail (`lane == 0`, `lane < 8`; each value is some lane's).
static bool splitsFullRow(const Value *Cond) {
  using namespace PatternMatch;
  const Value *X, *L;
  bool Negated = match(Cond, m_Not(m_Value(X)));
  if (Negated)
    Cond = X;
  CmpPredicate Pred;
  const APInt *C;
  if (!match(Cond, m_ICmp(Pred, m_Value(L), m_APInt(C))))
    return false;
  if (Negated)
    Pred = CmpInst::getInversePredicate(Pred);
  bool Pass = false, Fail = false;
  for (uint64_t V = 0, Group = laneGroup(L); V < Group; ++V)
    (ICmpInst::compare(APInt(C->getBitWidth(), V), *C, Pred) ? Pass : Fail) =
        true;
  return Pass && Fail;
}

// In code whose warps are rows of 32 (a body for them), the branch
// helpers' calls on a condition uniformInRows32: a warp's lanes go one way
// there, so the branch's divergent executions are 0 in it and
// __pasta_div_branch_add goes; __pasta_div_branch_none_add keeps its
// no-lane count and others, without its divergent count, on the edge where
// no lane takes the body (moveToNoneEdge). The general function, for other
// row widths, measures them as before. A split branch
// (__pasta_div_branch_split_add) on a lane test that splits every full row
// (splitsFullRow) is told so: a full warp adds nothing there, without a
// vote.
static void dropRows32UniformBranches(Function &F, const DivHelpers &H) {
  if (!Rows32UniformBranches)
    return;
  for (CallInst *CI : callsTo(F, {H.BranchSplitAdd}))
    if (splitsFullRow(takenOf(CI)))
      CI->setArgOperand(3,
                        ConstantInt::get(CI->getArgOperand(3)->getType(), 1));
  for (CallInst *CI : callsTo(F, {H.BranchAdd}))
    if (uniformInRows32(takenOf(CI)))
      CI->eraseFromParent();
  for (CallInst *CI : callsTo(F, {H.BranchNoneAdd}))
    if (uniformInRows32(takenOf(CI))) {
      CI->setArgOperand(3,
                        ConstantInt::get(CI->getArgOperand(3)->getType(), 0));
      moveToNoneEdge(CI);
    }
}

// Splits Copy's entry block below its allocas (they must stay there to
// become registers) into a block Name with the rest; the entry is left
// without a terminator, for a test.
static BasicBlock *splitEntry(Function &Copy, StringRef Name) {
  BasicBlock &Entry = Copy.getEntryBlock();
  auto Top = Entry.getFirstNonPHIOrDbgOrAlloca();
  SmallVector<AllocaInst *, 8> Below;
  for (Instruction &I : make_range(Top, Entry.end()))
    if (auto *AI = dyn_cast<AllocaInst>(&I); AI && AI->isStaticAlloca())
      Below.push_back(AI);
  for (AllocaInst *AI : Below)
    AI->moveBefore(Top);
  BasicBlock *Body = Entry.splitBasicBlock(Top, Name);
  Entry.getTerminator()->eraseFromParent();
  return Body;
}

// A call of F with Copy's arguments at the end of BB, then a return.
static CallInst *callAndReturn(Function &Copy, BasicBlock *BB, Function *F) {
  SmallVector<Value *, 8> Args;
  for (Argument &A : Copy.args())
    Args.push_back(&A);
  IRBuilder<> CB(BB);
  CallInst *Call = CB.CreateCall(F, Args);
  if (DISubprogram *SP = Copy.getSubprogram()) // PASTA's code: line 0
    Call->setDebugLoc(DILocation::get(Copy.getContext(), 0, 0, SP));
  CB.CreateRetVoid();
  return Call;
}

bool pasta::addRows32Body(Function &Copy, ArrayRef<CallInst *> Row32Calls,
                          const DivHelpers &H, ArrayRef<CallInst *> Rows16Calls,
                          StringRef GeneralKernel) {
  if (!callsOnlyDeclarations(Copy))
    return false;
  SmallVector<CallInst *, 4> Widths =
      callsTo(Copy, {H.RowWidth, H.StackedWidth});
  if (Widths.empty())
    return false;
  // Host-chosen (rows of 32 or not): the copy as it was, a kernel of its
  // own that the runtime launches for blocks whose warps are not rows of 32
  // (host_rt/launch.c). The body for rows of 32 then tests nothing, calls
  // nothing: the call took its registers and a stack frame (axpy's copy 32
  // and 48 bytes against 24 and none).
  bool HostChoice = !GeneralKernel.empty() && Rows16Calls.empty();
  ValueToValueMapTy VMap;
  Function *General = nullptr;
  if (HostChoice) {
    General = CloneFunction(&Copy, VMap);
    General->setName(GeneralKernel);
  } else {
    General = cloneAsFunction(Copy, "_general", VMap);
    General->addFnAttr(Attribute::NoInline);
  }
  Function *Rows16 = nullptr;
  if (!Rows16Calls.empty()) {
    ValueToValueMapTy VMap16;
    Rows16 = cloneAsFunction(Copy, "_rows16", VMap16);
    SmallVector<CallInst *, 8> Calls;
    for (CallInst *CI : Rows16Calls)
      Calls.push_back(cast<CallInst>(VMap16[CI]));
    makeRows16Body(*Rows16, Calls, H);
  }

  // The body for rows of 32: both widths are 32 there (a stacked width is
  // the row width when that is 32), a FullRow group's other warps take the
  // one-row path alone, and what tested the width folds away.
  foldWidth(Copy, Widths, 32);
  for (CallInst *CI : Row32Calls)
    useAccessRow32(CI, H);
  dropRows32UniformBranches(Copy, H);
  dropDeadBlocks(Copy);
  if (HostChoice)
    return true;

  BasicBlock *Body = splitEntry(Copy, "pasta.div.body32");
  BasicBlock &Entry = Copy.getEntryBlock();
  BasicBlock *Other = BasicBlock::Create(Copy.getContext(),
                                         "pasta.div.rows.other", &Copy, Body);
  IRBuilder<> B(&Entry);
  Value *Width = B.CreateCall(H.RowWidth, {});
  auto CallAndReturn = [&](BasicBlock *BB, Function *F) {
    return callAndReturn(Copy, BB, F);
  };
  if (!Rows16) {
    B.CreateCondBr(B.CreateICmpEQ(Width, B.getInt32(32), "pasta.div.rows32"),
                   Body, Other);
    CallAndReturn(Other, General);
    return true;
  }
  BasicBlock *Body16 =
      BasicBlock::Create(Copy.getContext(), "pasta.div.body16", &Copy, Other);
  SwitchInst *SI = B.CreateSwitch(Width, Other, 2);
  SI->addCase(B.getInt32(32), Body);
  SI->addCase(B.getInt32(16), Body16);
  CallAndReturn(Other, General);
  // The body for rows of 16 goes in the kernel (its registers are the
  // kernel's: a call would add the call's). Were it not inlined, the call
  // would still compute the same figures.
  InlineFunctionInfo IFI;
  CallInst *Call16 = CallAndReturn(Body16, Rows16);
  if (InlineFunction(*Call16, IFI, /*MergeAttributes=*/false,
                     /*CalleeAAR=*/nullptr, /*InsertLifetime=*/false)
          .isSuccess())
    Rows16->eraseFromParent();
  return true;
}

// V, computed from arguments and constants alone, computed again at the end
// of BB.
static Value *recomputeAt(IRBuilder<> &B, Value *V) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return V;
  Instruction *New = I->clone();
  New->setMetadata(TwinsOkMD, nullptr);
  New->setMetadata(RareMD, nullptr);
  for (Use &Op : New->operands())
    Op.set(recomputeAt(B, Op.get()));
  return B.Insert(New);
}

static cl::opt<bool> InlineTwinsApart(
    "pasta-div-twins-inline", cl::init(false), cl::Hidden,
    cl::desc("PASTA: inline a kernel copy's twins-apart function "
             "(addTwinsApart) into it (off: called)"));

static cl::opt<unsigned> MinTwins(
    "pasta-div-twins-min", cl::init(2), cl::Hidden,
    cl::desc("PASTA: the fewest twins for which a kernel copy tests their "
             "bases at its entry (addTwinsApart); fewer are measured as "
             "without twins (the apart function costs ptxas about as much "
             "as the copy: srad 2.1 -> 3.6 s)"));

// How many twins the test T covers (its TwinsOkMD operand).
static unsigned twinsCovered(const Instruction &T) {
  return cast<ConstantInt>(
             cast<ConstantAsMetadata>(T.getMetadata(TwinsOkMD)->getOperand(0))
                 ->getValue())
      ->getZExtValue();
}

// F's twins' tests (TwinsOkMD).
static SmallVector<Instruction *, 4> twinsTests(Function &F) {
  SmallVector<Instruction *, 4> Tests;
  for (Instruction &I : instructions(F))
    if (I.getMetadata(TwinsOkMD))
      Tests.push_back(&I);
  return Tests;
}

// Every twin of F measures itself, as without twins (its tests false).
static void measureTwinsApart(Function &F) {
  foldKnown(F, ArrayRef<Instruction *>(twinsTests(F)),
            ConstantInt::getFalse(F.getContext()));
  dropDeadBlocks(F);
}

bool pasta::addTwinsApart(Function &Copy, bool HasRowBodies,
                          StringRef GeneralKernel) {
  SmallVector<Instruction *, 4> Tests = twinsTests(Copy);
  if (Tests.empty())
    return false;
  unsigned Twins = 0;
  for (const Instruction *T : Tests)
    Twins += twinsCovered(*T);
  if (HasRowBodies || Twins < MinTwins) {
    // In a body for rows of 32 a full warp's twin costs one row_sectors,
    // and a second call at the entry cost such copies a spill store
    // (vector_add, axpy): as without twins, in the general function too.
    // One twin saves one measurement per warp and doubles what ptxas
    // compiles.
    measureTwinsApart(Copy);
    if (Function *General =
            Copy.getParent()->getFunction((Copy.getName() + "_general").str()))
      measureTwinsApart(*General);
    if (Function *General = GeneralKernel.empty()
                                ? nullptr
                                : Copy.getParent()->getFunction(GeneralKernel))
      measureTwinsApart(*General);
    return false;
  }
  ValueToValueMapTy VMap;
  Function *Apart = cloneAsFunction(Copy, "_twins_apart", VMap);
  Apart->addFnAttr(Attribute::NoInline);
  measureTwinsApart(*Apart); // it runs where some test fails
  BasicBlock *Body = splitEntry(Copy, "pasta.div.twins.together");
  BasicBlock &Entry = Copy.getEntryBlock();
  IRBuilder<> B(&Entry);
  Value *Together = nullptr;
  for (Instruction *T : Tests) {
    Value *Ok = recomputeAt(B, T);
    Together = Together ? B.CreateAnd(Together, Ok) : Ok;
  }
  BasicBlock *Other = BasicBlock::Create(Copy.getContext(),
                                         "pasta.div.twins.apart", &Copy, Body);
  B.CreateCondBr(Together, Body, Other);
  CallInst *Call = callAndReturn(Copy, Other, Apart);
  SmallVector<WeakTrackingVH, 4> Operands;
  for (Instruction *T : Tests)
    Operands.append(T->op_begin(), T->op_end());
  foldKnown(Copy, ArrayRef<Instruction *>(Tests), B.getTrue());
  for (WeakTrackingVH &V : Operands) // what computed the tests in the body
    RecursivelyDeleteTriviallyDeadInstructions(V);
  dropDeadBlocks(Copy);
  // Called, the body the usual launches run has no register of the twins'
  // own measurements (srad's copies spilled nothing, against 4 and 12
  // bytes); inlined, ptxas took less time (srad 3.6 against 3.0 s, 2.1
  // before) and the copies spilled as before.
  InlineFunctionInfo IFI;
  if (InlineTwinsApart &&
      InlineFunction(*Call, IFI, /*MergeAttributes=*/false,
                     /*CalleeAAR=*/nullptr, /*InsertLifetime=*/false)
          .isSuccess())
    Apart->eraseFromParent();
  return true;
}

static cl::opt<bool> RareRows32(
    "pasta-div-rare-rows32", cl::init(true), cl::Hidden,
    cl::desc("PASTA: in a kernel copy's common body (addRareApart), whose "
             "warps are rows of 32, fold the row widths to 32 and measure "
             "FullRow groups with the one-row path alone (off: as before)"));

// The value RareMD says the common body may take I as.
static bool rareCommonValue(const Instruction &I) {
  return cast<ConstantInt>(
             cast<ConstantAsMetadata>(I.getMetadata(RareMD)->getOperand(0))
                 ->getValue())
      ->isOne();
}

// F without RareMD (its job is done).
static void dropRareMD(Function &F) {
  for (Instruction &I : instructions(F))
    I.setMetadata(RareMD, nullptr);
}

// Whether T is %pasta.div.not32 (__pasta_div_stacked_width() != 32).
static bool isNot32(const Instruction &T, const DivHelpers &H) {
  using namespace PatternMatch;
  Value *W;
  CmpPredicate Pred;
  if (!match(&T, m_ICmp(Pred, m_Value(W), m_SpecificInt(32))) ||
      Pred != CmpInst::ICMP_NE)
    return false;
  auto *CI = dyn_cast<CallInst>(W);
  FunctionCallee Stacked = H.StackedWidth;
  return CI && CI->getCalledOperand() == Stacked.getCallee();
}

// The common body of addRareApart, entered only where the stacked width is
// 32: the row width is 32 there too (__pasta_div_stacked_width returns the
// row width or 0), so both widths fold to 32 below the entry and the
// FullRow groups' calls, given width 32 and aligned, take the one-row path
// alone: AccessRow32. The general access path then leaves the body
// (pathfinder's wall[] in its partial edge warps held it in the loop).
static void foldRows32InCommon(Function &Copy, const DivHelpers &H,
                               ArrayRef<CallInst *> FullRowCalls) {
  BasicBlock &Entry = Copy.getEntryBlock();
  SmallVector<CallInst *, 4> Widths;
  for (CallInst *CI : callsTo(Copy, {H.RowWidth, H.StackedWidth}))
    if (CI->getParent() != &Entry) // the entry's test stays a test
      Widths.push_back(CI);
  foldWidth(Copy, Widths, 32);
  for (CallInst *CI : FullRowCalls)
    useAccessRow32(CI, H);
  dropRows32UniformBranches(Copy, H);
}

bool pasta::addRareApart(Function &Copy, const DivHelpers &H,
                         ArrayRef<CallInst *> FullRowCalls,
                         bool &CommonRows32) {
  CommonRows32 = false;
  SmallVector<Instruction *, 4> Tests;
  for (Instruction &I : instructions(Copy))
    if (I.getMetadata(RareMD))
      Tests.push_back(&I);
  if (Tests.empty() || !callsOnlyDeclarations(Copy)) {
    dropRareMD(Copy);
    return false;
  }
  ValueToValueMapTy VMap;
  Function *Rare = cloneAsFunction(Copy, "_rare", VMap);
  Rare->addFnAttr(Attribute::NoInline);
  dropRareMD(*Rare);
  BasicBlock *Body = splitEntry(Copy, "pasta.div.common");
  BasicBlock &Entry = Copy.getEntryBlock();
  IRBuilder<> B(&Entry);
  // Per warp: the votes are the same in its lanes, the width in the launch.
  Value *Common = nullptr;
  for (Instruction *T : Tests) {
    Value *V = recomputeAt(B, T);
    if (!rareCommonValue(*T))
      V = B.CreateNot(V);
    Common = Common ? B.CreateAnd(Common, V) : V;
  }
  BasicBlock *Other =
      BasicBlock::Create(Copy.getContext(), "pasta.div.rare", &Copy, Body);
  B.CreateCondBr(Common, Body, Other);
  callAndReturn(Copy, Other, Rare);
  SmallVector<WeakTrackingVH, 8> Operands;
  for (Instruction *T : Tests)
    Operands.append(T->op_begin(), T->op_end());
  SmallVector<Instruction *, 4> True, False;
  for (Instruction *T : Tests)
    (rareCommonValue(*T) ? True : False).push_back(T);
  bool Rows32 = RareRows32 &&
                any_of(False, [&](Instruction *T) { return isNot32(*T, H); });
  foldKnown(Copy, ArrayRef<Instruction *>(True), B.getTrue());
  foldKnown(Copy, ArrayRef<Instruction *>(False), B.getFalse());
  for (WeakTrackingVH &V : Operands) // what computed the tests in the body
    RecursivelyDeleteTriviallyDeadInstructions(V);
  if (Rows32)
    foldRows32InCommon(Copy, H, FullRowCalls);
  CommonRows32 = Rows32;
  dropDeadBlocks(Copy);
  dropRareMD(Copy);
  return true;
}
