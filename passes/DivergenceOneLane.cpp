//===- DivergenceOneLane.cpp - One-lane divergence copies -----------------===//
//
// See DivergenceOneLane.h.
//
//===----------------------------------------------------------------------===//
#include "DivergenceOneLane.h"
#include "CappedCopies.h"
#include "KernelVariants.h"
#include "pasta/abi.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/ADCE.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SCCP.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

static cl::opt<bool> OneLaneCopies(
    "pasta-div-one-lane", cl::init(true),
    cl::desc("PASTA: give kernels that look launched with one-thread blocks "
             "a divergence copy specialised to one-lane warps, which the "
             "runtime launches for blocks of one thread (off: a stub)"));

// Whether I reads a thread index or the block's shape: an intrinsic, or
// inline assembly naming the register.
static bool readsThreadIndex(const Instruction &I) {
  const auto *Call = dyn_cast<CallBase>(&I);
  if (!Call)
    return false;
  if (const auto *Asm = dyn_cast<InlineAsm>(Call->getCalledOperand())) {
    StringRef S = Asm->getAsmString();
    return S.contains("%tid") || S.contains("%ntid");
  }
  switch (Call->getIntrinsicID()) {
  case Intrinsic::nvvm_read_ptx_sreg_tid_x:
  case Intrinsic::nvvm_read_ptx_sreg_tid_y:
  case Intrinsic::nvvm_read_ptx_sreg_tid_z:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_x:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_y:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_z:
    return true;
  default:
    return false;
  }
}

// Whether F or a function it calls (directly) reads a thread index.
static bool reachesThreadIndex(const Function &F,
                               SmallPtrSetImpl<const Function *> &Seen) {
  if (F.isDeclaration() || !Seen.insert(&F).second)
    return false;
  for (const Instruction &I : instructions(F)) {
    if (readsThreadIndex(I))
      return true;
    if (const auto *Call = dyn_cast<CallBase>(&I))
      if (const Function *Callee = Call->getCalledFunction())
        if (reachesThreadIndex(*Callee, Seen))
          return true;
  }
  return false;
}

bool pasta::looksSerial(const Function &F) {
  if (F.isDeclaration() || F.getCallingConv() != CallingConv::PTX_Kernel)
    return false;
  if (runsInOneThread(F))
    return true;
  SmallPtrSet<const Function *, 4> Seen;
  return !reachesThreadIndex(F, Seen);
}

void pasta::addOneLaneCopy(const Function &Kernel, Function &Copy,
                           bool Serial) {
  std::string Name = (Kernel.getName() + PASTA_DIV_ONE_LANE_SUFFIX).str();
  if (!OneLaneCopies || !Serial) {
    createOneThreadStub(Copy, Name);
    return;
  }
  ValueToValueMapTy VMap;
  Function *OneLane = CloneFunction(&Copy, VMap);
  OneLane->setName(Name);
  OneLane->addFnAttr(DivOneLaneAttr);
}

// What V, a call in a warp whose only active lane is lane 0 of a block of
// one thread, returns, or null when that is not known here. Each answer is
// the instruction's own for that warp: the thread index 0, the block
// 1 x 1 x 1, the active mask {0}, a vote of lane 0's predicate alone, a
// shuffle that reads lane 0 (the helpers mask out what an inactive lane
// would give: nvptxintrin.h), a warp sum of lane 0's value alone.
static Value *oneLaneValue(CallBase &Call) {
  Type *Ty = Call.getType();
  auto Const = [&](uint64_t V) -> Value * {
    return Ty->isIntegerTy() ? ConstantInt::get(Ty, V) : nullptr;
  };
  if (auto *Asm = dyn_cast<InlineAsm>(Call.getCalledOperand())) {
    StringRef S = Asm->getAsmString();
    if (S.starts_with("mov.u32 $0, %tid.") || S == "mov.u32 $0, %laneid;" ||
        S == "mov.u32 $0, %lanemask_lt;")
      return Const(0);
    // redux.sync.<op>.<type> $0, $1, $2: lane 0's value ($1) alone.
    if (S.starts_with("redux.sync.") && S.ends_with(" $0, $1, $2;") &&
        Call.arg_size() == 2 && Call.getArgOperand(0)->getType() == Ty)
      return Call.getArgOperand(0);
    return nullptr;
  }
  switch (Call.getIntrinsicID()) {
  case Intrinsic::nvvm_read_ptx_sreg_tid_x:
  case Intrinsic::nvvm_read_ptx_sreg_tid_y:
  case Intrinsic::nvvm_read_ptx_sreg_tid_z:
  case Intrinsic::nvvm_read_ptx_sreg_laneid:
  case Intrinsic::nvvm_read_ptx_sreg_lanemask_lt:
    return Const(0);
  case Intrinsic::nvvm_read_ptx_sreg_ntid_x:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_y:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_z:
  case Intrinsic::nvvm_read_ptx_sreg_lanemask_eq:
  case Intrinsic::nvvm_read_ptx_sreg_lanemask_le:
  case Intrinsic::nvvm_activemask:
  case Intrinsic::nvvm_match_any_sync_i32:
  case Intrinsic::nvvm_match_any_sync_i64:
    return Const(1);
  case Intrinsic::nvvm_read_ptx_sreg_lanemask_ge:
    return Const(0xffffffffu);
  case Intrinsic::nvvm_read_ptx_sreg_lanemask_gt:
    return Const(0xfffffffeu);
  case Intrinsic::nvvm_vote_ballot_sync:
    return new ZExtInst(Call.getArgOperand(1), Ty, "", Call.getIterator());
  case Intrinsic::nvvm_vote_all_sync:
  case Intrinsic::nvvm_vote_any_sync:
    return Call.getArgOperand(1);
  case Intrinsic::nvvm_vote_uni_sync:
    return ConstantInt::getTrue(Ty);
  case Intrinsic::nvvm_shfl_sync_idx_i32:
  case Intrinsic::nvvm_shfl_sync_idx_f32:
  case Intrinsic::nvvm_shfl_sync_up_i32:
  case Intrinsic::nvvm_shfl_sync_up_f32:
  case Intrinsic::nvvm_shfl_sync_down_i32:
  case Intrinsic::nvvm_shfl_sync_down_f32:
  case Intrinsic::nvvm_shfl_sync_bfly_i32:
  case Intrinsic::nvvm_shfl_sync_bfly_f32:
    return Call.getArgOperand(1);
  default:
    return nullptr;
  }
}

// Puts lane 0's answers into F; returns whether anything changed.
static bool putOneLane(Function &F) {
  SmallVector<std::pair<CallBase *, Value *>, 32> Answers;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (Value *V = oneLaneValue(*Call))
        Answers.push_back({Call, V});
  for (auto [Call, V] : Answers) {
    Call->replaceAllUsesWith(V);
    Call->eraseFromParent();
  }
  return !Answers.empty();
}

// The folding after the answers: no register cap to keep (blocks of one
// thread leave an SM's registers unused), so InstCombine is welcome here.
static FunctionPassManager oneLanePipeline() {
  FunctionPassManager FPM;
  FPM.addPass(SCCPPass());
  FPM.addPass(InstCombinePass());
  FPM.addPass(SimplifyCFGPass());
  FPM.addPass(EarlyCSEPass(/*UseMemorySSA=*/true));
  FPM.addPass(InstCombinePass());
  FPM.addPass(ADCEPass());
  FPM.addPass(SimplifyCFGPass());
  return FPM;
}

void pasta::specialiseOneLaneCopies(Module &M, FunctionAnalysisManager &FAM) {
  FunctionPassManager FPM = oneLanePipeline();
  for (Function &F : M) {
    if (F.isDeclaration() || !F.hasFnAttribute(DivOneLaneAttr))
      continue;
    F.removeFnAttr(DivOneLaneAttr);
    if (!putOneLane(F))
      continue;
    FAM.invalidate(F, PreservedAnalyses::none());
    FPM.run(F, FAM);
  }
}
