//===- CappedCopies.cpp - Register-capped counting copies -----------------===//
//
// See CappedCopies.h.
//
//===----------------------------------------------------------------------===//
#include "CappedCopies.h"
#include "KernelVariants.h"

#include "pasta/abi.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <string>

using namespace llvm;
using namespace llvm::PatternMatch;
using namespace pasta;

#define DEBUG_TYPE "pasta"

STATISTIC(NumCappedCopies, "Register-capped counting copies of kernels");
STATISTIC(NumCappedStubs, "Stubs for kernels whose own bounds fit");
STATISTIC(NumOneThreadKernels, "Kernels whose work one thread runs, capped "
                               "themselves instead of a capped copy");

// An integer function attribute of F ("nvvm.maxnreg"), 0 when absent.
static unsigned attributeNumber(const Function &F, StringRef Name) {
  unsigned N = 0;
  if (!F.hasFnAttribute(Name) ||
      F.getFnAttribute(Name).getValueAsString().getAsInteger(10, N))
    return 0;
  return N;
}

// Whether ptxas already fits every block F can be launched with: launch
// bounds (.maxntid, .reqntid: ptxas keeps the registers under what that
// many threads may have) or a register cap no higher than the copy's.
static bool boundedByItself(const Function &F) {
  if (F.hasFnAttribute("nvvm.maxntid") || F.hasFnAttribute("nvvm.reqntid"))
    return true;
  unsigned Own = attributeNumber(F, "nvvm.maxnreg");
  return Own && Own <= PASTA_CAPPED_REGISTERS;
}

// A kernel of Kernel's type under the copy's name that returns at once;
// its largest block is one thread, which tells the runtime that it is no
// copy to launch.
static void addStub(Function &Kernel, const std::string &Name) {
  Function *Stub = createOneThreadStub(Kernel, Name);
  Stub->setComdat(nullptr);
  Stub->removeFnAttr("nvvm.maxnreg");
  Stub->removeFnAttr("nvvm.reqntid");
  markKernelVariant(*Stub);
  ++NumCappedStubs;
}

// The counting code of Kernel as it is, capped so that 1,024 threads fit.
static void addCappedCopy(Function &Kernel, const std::string &Name) {
  ValueToValueMapTy VMap;
  Function *Copy = CloneFunction(&Kernel, VMap);
  Copy->setName(Name);
  Copy->setComdat(nullptr);
  Copy->addFnAttr("nvvm.maxnreg", std::to_string(PASTA_CAPPED_REGISTERS));
  markKernelVariant(*Copy);
  ++NumCappedCopies;
}

// Adds to Zero the special registers (threadIdx.x, ...) that V == 0
// proves zero: V itself, or each operand of an `or` (clang's optimizer
// folds `threadIdx.x == 0 && blockIdx.x == 0` into `(tid | ctaid) == 0`).
static void addZeroRegisters(const Value *V, SmallSet<Intrinsic::ID, 4> &Zero) {
  const Value *L, *R;
  if (match(V, m_Or(m_Value(L), m_Value(R)))) {
    addZeroRegisters(L, Zero);
    addZeroRegisters(R, Zero);
  } else if (match(V, m_ZExt(m_Value(L)))) {
    addZeroRegisters(L, Zero);
  } else if (const auto *II = dyn_cast<IntrinsicInst>(V)) {
    Zero.insert(II->getIntrinsicID());
  }
}

// Adds to Zero the special registers that Cond being Holds proves zero:
// `x == 0` (true), `x != 0` (false), and both sides of a logical and
// (true) or or (false).
static void addZeroRegisters(const Value *Cond, bool Holds,
                             SmallSet<Intrinsic::ID, 4> &Zero) {
  const Value *L, *R;
  CmpPredicate Pred;
  if (Holds ? match(Cond, m_LogicalAnd(m_Value(L), m_Value(R)))
            : match(Cond, m_LogicalOr(m_Value(L), m_Value(R)))) {
    addZeroRegisters(L, Holds, Zero);
    addZeroRegisters(R, Holds, Zero);
  } else if (match(Cond, m_ICmp(Pred, m_Value(L), m_Zero())) &&
             Pred == (Holds ? ICmpInst::ICMP_EQ : ICmpInst::ICMP_NE)) {
    addZeroRegisters(L, Zero);
  }
}

// A block that only returns (a guard's way out).
static bool onlyReturns(const BasicBlock &BB) {
  const Instruction *First = &*BB.getFirstNonPHIOrDbg();
  return isa<ReturnInst>(First) && BB.getTerminator() == First;
}

// Whether I does no work of the program's: what a guard computes (special
// register reads, comparisons, arithmetic) or frame bookkeeping.
static bool guardOnly(const Instruction &I) {
  if (const auto *II = dyn_cast<IntrinsicInst>(&I))
    return II->isAssumeLikeIntrinsic() || !II->mayHaveSideEffects();
  return isa<AllocaInst>(I) || (!I.mayReadOrWriteMemory() && !isa<CallBase>(I));
}

// The block where the work of kernel F starts when every path into it
// passes branches that prove threadIdx.x and blockIdx.x zero and every
// other path returns at once; null otherwise. Walks the guard's branches
// from the entry block (one branch where the optimizer folded the tests).
static const BasicBlock *
oneThreadWork(const Function &F, SmallPtrSetImpl<const BasicBlock *> &Guard) {
  SmallSet<Intrinsic::ID, 4> Zero;
  const BasicBlock *BB = &F.getEntryBlock();
  while (true) {
    const auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (!Br || !Br->isConditional() || !all_of(*BB, [&](const Instruction &I) {
          return &I == Br || guardOnly(I);
        }))
      break;
    bool OnTrue = onlyReturns(*Br->getSuccessor(1));
    if (!OnTrue && !onlyReturns(*Br->getSuccessor(0)))
      break;
    Guard.insert(BB);
    addZeroRegisters(Br->getCondition(), OnTrue, Zero);
    BB = Br->getSuccessor(OnTrue ? 0 : 1);
  }
  if (!Zero.count(Intrinsic::nvvm_read_ptx_sreg_tid_x) ||
      !Zero.count(Intrinsic::nvvm_read_ptx_sreg_ctaid_x))
    return nullptr;
  return BB;
}

bool pasta::runsInOneThread(const Function &F) {
  if (F.isDeclaration() || F.getCallingConv() != CallingConv::PTX_Kernel)
    return false;
  SmallPtrSet<const BasicBlock *, 4> Guard;
  const BasicBlock *Work = oneThreadWork(F, Guard);
  if (!Work || Guard.contains(Work))
    return false;
  DominatorTree DT(const_cast<Function &>(F));
  return all_of(F, [&](const BasicBlock &BB) {
    return Guard.contains(&BB) || DT.dominates(Work, &BB) || onlyReturns(BB);
  });
}

SmallVector<Function *, 4>
pasta::createCappedCopies(Module &M, ArrayRef<Function *> Fns, bool Copies,
                          const SmallPtrSetImpl<Function *> &OneThread) {
  SmallVector<Function *, 4> CapItself;
  for (Function *F : Fns) {
    if (F->getCallingConv() != CallingConv::PTX_Kernel)
      continue;
    std::string Name = (F->getName() + PASTA_CAPPED_SUFFIX).str();
    bool Bounded = boundedByItself(*F);
    // One thread's work gains nothing from registers above the cap that a
    // copy would keep (the other threads only test the guard), so the
    // kernel takes the cap itself and ptxas compiles its counting code once.
    if (Copies && !Bounded && OneThread.contains(F) &&
        !F->hasFnAttribute("nvvm.maxnreg")) {
      CapItself.push_back(F);
      addStub(*F, Name);
    } else if (Copies && !Bounded) {
      addCappedCopy(*F, Name);
    } else {
      addStub(*F, Name);
    }
  }
  return CapItself;
}

void pasta::capCountingKernels(ArrayRef<Function *> Kernels) {
  for (Function *F : Kernels) {
    F->addFnAttr("nvvm.maxnreg", std::to_string(PASTA_CAPPED_REGISTERS));
    ++NumOneThreadKernels;
  }
}
