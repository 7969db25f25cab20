//===- CappedCopies.cpp - Register-capped counting copies -----------------===//
//
// See CappedCopies.h.
//
//===----------------------------------------------------------------------===//
#include "CappedCopies.h"
#include "KernelVariants.h"

#include "pasta/abi.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <string>

using namespace llvm;
using namespace llvm::PatternMatch;
using namespace pasta;

#define DEBUG_TYPE "pasta"

STATISTIC(NumCappedCopies, "Register-capped counting copies of kernels");
STATISTIC(NumCappedStubs, "Stubs for kernels whose own bounds fit");
STATISTIC(NumCappedWorkingSetCopies,
          "Register-capped working-set copies of kernels");
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

// The code of Kernel (a counting or working-set kernel) as it is, capped so
// that 1,024 threads fit.
static void addCappedCopy(Function &Kernel, const std::string &Name) {
  ValueToValueMapTy VMap;
  Function *Copy = CloneFunction(&Kernel, VMap);
  Copy->setName(Name);
  Copy->setComdat(nullptr);
  Copy->addFnAttr("nvvm.maxnreg", std::to_string(PASTA_CAPPED_REGISTERS));
  markKernelVariant(*Copy);
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
      ++NumCappedCopies;
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

// OneSweep's binning pass (plain 96 registers, its working-set copy 144),
// the structure launchfit's scatter (96 and 146) and every bundled kernel
// whose working-set copy takes more than 64 registers are at or above it.
static cl::opt<unsigned> WsCappedLiveUnits(
    "pasta-ws-capped-live-units", cl::Hidden, cl::init(64),
    cl::desc("PASTA: a kernel without launch bounds whose plain code holds "
             "at least this many 32-bit units live at once gets a "
             "register-capped working-set copy (0: none does)"));

static cl::opt<bool> PrintLiveUnits(
    "pasta-print-live-units", cl::Hidden, cl::init(false),
    cl::desc("PASTA: print each NVPTX kernel's most live 32-bit units "
             "(the capped working-set copies' estimate)"));

// The 32-bit registers V takes: none for predicates and what has no size.
static unsigned unitsOf(const Value &V, const DataLayout &DL) {
  Type *T = V.getType();
  if (!T->isSized() || T->getScalarType()->isIntegerTy(1))
    return 0;
  return std::max<uint64_t>(
      1, divideCeil(DL.getTypeSizeInBits(T).getFixedValue(), 32));
}

// The value I only offsets or casts, which it takes no register of its own
// beside: an address at constant offsets from another, or an integer a
// constant away, whose uses ptxas folds into immediate offsets or computes
// again (a tile's unrolled row of loads at `x + 512 i` keeps x, not one
// index per element); null for any other I.
static const Value *foldedInto(const Instruction &I) {
  if (isa<AddrSpaceCastInst>(I) || isa<BitCastInst>(I) || isa<ZExtInst>(I) ||
      isa<SExtInst>(I))
    return I.getOperand(0);
  if (const auto *GEP = dyn_cast<GetElementPtrInst>(&I))
    return GEP->hasAllConstantIndices() ? GEP->getPointerOperand() : nullptr;
  const auto *Op = dyn_cast<BinaryOperator>(&I);
  if (!Op || (Op->getOpcode() != Instruction::Add &&
              Op->getOpcode() != Instruction::Sub &&
              Op->getOpcode() != Instruction::Or))
    return nullptr;
  if (isa<ConstantInt>(Op->getOperand(1)))
    return Op->getOperand(0);
  return Op->getOpcode() != Instruction::Sub &&
                 isa<ConstantInt>(Op->getOperand(0))
             ? Op->getOperand(1)
             : nullptr;
}

namespace {
// Backward liveness of F's SSA values over its blocks, as bit vectors
// indexed by value: what each block needs on entry and has live on exit.
struct Liveness {
  DenseMap<const Value *, unsigned> Index;
  SmallVector<unsigned, 64> Units;
  DenseMap<const BasicBlock *, unsigned> BlockIndex;
  std::vector<BitVector> In, Out;

  // The tracked value a use of V keeps live (through folded addresses), or
  // none.
  std::optional<unsigned> root(const Value *V) const {
    while (true) {
      if (auto It = Index.find(V); It != Index.end())
        return It->second;
      const auto *I = dyn_cast<Instruction>(V);
      if (!I || !(V = foldedInto(*I)))
        return std::nullopt;
    }
  }

  explicit Liveness(const Function &F) {
    const DataLayout &DL = F.getDataLayout();
    for (const Instruction &I : instructions(F))
      if (unsigned U =
              isa<AllocaInst>(I) || foldedInto(I) ? 0 : unitsOf(I, DL)) {
        Index[&I] = Units.size();
        Units.push_back(U);
      }
    unsigned N = Units.size(), B = 0;
    for (const BasicBlock &BB : F)
      BlockIndex[&BB] = B++;
    std::vector<BitVector> Use(B, BitVector(N)), Def(B, BitVector(N)),
        PhiOut(B, BitVector(N));
    for (const BasicBlock &BB : F) {
      unsigned Bi = BlockIndex[&BB];
      for (const Instruction &I : BB) {
        if (const auto *Phi = dyn_cast<PHINode>(&I)) {
          for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K)
            if (auto R = root(Phi->getIncomingValue(K)))
              PhiOut[BlockIndex[Phi->getIncomingBlock(K)]].set(*R);
        } else if (!foldedInto(I)) {
          for (const Value *Op : I.operands())
            if (auto R = root(Op); R && !Def[Bi].test(*R))
              Use[Bi].set(*R);
        }
        if (auto It = Index.find(&I); It != Index.end())
          Def[Bi].set(It->second);
      }
    }
    In.assign(B, BitVector(N));
    Out.assign(B, BitVector(N));
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (const BasicBlock &BB : reverse(F)) {
        unsigned Bi = BlockIndex[&BB];
        BitVector NewOut = PhiOut[Bi];
        for (const BasicBlock *S : successors(&BB))
          NewOut |= In[BlockIndex[S]];
        BitVector NewIn = NewOut;
        NewIn.reset(Def[Bi]);
        NewIn |= Use[Bi];
        if (NewIn != In[Bi] || NewOut != Out[Bi]) {
          In[Bi] = std::move(NewIn);
          Out[Bi] = std::move(NewOut);
          Changed = true;
        }
      }
    }
  }

  // The most units live at one point of BB, walking it backwards.
  unsigned mostIn(const BasicBlock &BB) const {
    BitVector Live = Out[BlockIndex.lookup(&BB)];
    unsigned Now = 0;
    for (unsigned V : Live.set_bits())
      Now += Units[V];
    unsigned Most = Now;
    for (const Instruction &I : reverse(BB)) {
      if (isa<PHINode>(I))
        break;
      if (auto It = Index.find(&I); It != Index.end()) {
        // A value defined and never used still takes its register.
        Most = std::max(Most,
                        Live.test(It->second) ? Now : Now + Units[It->second]);
        if (Live.test(It->second)) {
          Live.reset(It->second);
          Now -= Units[It->second];
        }
      }
      if (!foldedInto(I))
        for (const Value *Op : I.operands())
          if (auto R = root(Op); R && !Live.test(*R)) {
            Live.set(*R);
            Now += Units[*R];
          }
      Most = std::max(Most, Now);
    }
    return Most;
  }
};
} // namespace

unsigned pasta::maxLiveUnits(const Function &F) {
  if (F.isDeclaration())
    return 0;
  Liveness L(F);
  unsigned Most = 0;
  for (const BasicBlock &BB : F)
    Most = std::max(Most, L.mostIn(BB));
  return Most;
}

bool pasta::mayOutgrowItsBlocks(Function &F) {
  if (F.getCallingConv() != CallingConv::PTX_Kernel)
    return false;
  if (!PrintLiveUnits && (!WsCappedLiveUnits || boundedByItself(F)))
    return false;
  unsigned Units = maxLiveUnits(F);
  if (PrintLiveUnits)
    errs() << "pasta: live units: " << F.getName() << " " << Units << "\n";
  return WsCappedLiveUnits && !boundedByItself(F) && Units >= WsCappedLiveUnits;
}

void pasta::createCappedWorkingSetCopies(
    Module &M, ArrayRef<Function *> Fns, bool Copies,
    const SmallPtrSetImpl<Function *> &Wide) {
  for (Function *F : Fns) {
    if (F->getCallingConv() != CallingConv::PTX_Kernel)
      continue;
    Function *Ws = M.getFunction((F->getName() + PASTA_WS_SUFFIX).str());
    if (!Ws)
      continue;
    std::string Name = (F->getName() + PASTA_WS_CAPPED_SUFFIX).str();
    if (Copies && Wide.contains(F)) {
      addCappedCopy(*Ws, Name);
      ++NumCappedWorkingSetCopies;
    } else {
      addStub(*Ws, Name);
    }
  }
}
