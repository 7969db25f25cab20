//===- CappedCopies.cpp - Register-capped counting copies -----------------===//
//
// See CappedCopies.h.
//
//===----------------------------------------------------------------------===//
#include "CappedCopies.h"
#include "KernelVariants.h"

#include "pasta/abi.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <string>

using namespace llvm;
using namespace pasta;

#define DEBUG_TYPE "pasta"

STATISTIC(NumCappedCopies, "Register-capped counting copies of kernels");
STATISTIC(NumCappedStubs, "Stubs for kernels whose own bounds fit");

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

void pasta::createCappedCopies(Module &M, ArrayRef<Function *> Fns,
                               bool Copies) {
  for (Function *F : Fns) {
    if (F->getCallingConv() != CallingConv::PTX_Kernel)
      continue;
    std::string Name = (F->getName() + PASTA_CAPPED_SUFFIX).str();
    if (Copies && !boundedByItself(*F))
      addCappedCopy(*F, Name);
    else
      addStub(*F, Name);
  }
}
