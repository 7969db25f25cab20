//===- ThreadExits.cpp - Threads that end inside a function ---------------===//
//
// See ThreadExits.h.
//
//===----------------------------------------------------------------------===//
#include "ThreadExits.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace llvm;

// One statement of an inline assembly string, as written: `exit` ends the
// thread; `@p exit` only some threads, which PASTA leaves alone (its flush
// would count the others twice).
static bool endsThreadStatement(StringRef Statement) {
  Statement = Statement.trim(" \t\r\n{}");
  return Statement == "exit" || Statement == "s_endpgm";
}

bool pasta::endsThread(const Instruction &I) {
  const auto *Call = dyn_cast<CallInst>(&I);
  if (!Call)
    return false;
  // The intrinsics clang's <gpuintrin.h> __gpu_exit() calls.
  if (auto *II = dyn_cast<IntrinsicInst>(Call))
    return II->getIntrinsicID() == Intrinsic::nvvm_exit ||
           II->getIntrinsicID() == Intrinsic::amdgcn_endpgm;
  if (!Call->isInlineAsm())
    return false;
  StringRef Asm = cast<InlineAsm>(Call->getCalledOperand())->getAsmString();
  SmallVector<StringRef, 8> Statements;
  Asm.split(Statements, ';');
  for (StringRef Statement : Statements) {
    SmallVector<StringRef, 4> Lines;
    Statement.split(Lines, '\n');
    for (StringRef Line : Lines)
      if (endsThreadStatement(Line))
        return true;
  }
  return false;
}

SmallVector<Instruction *, 2> pasta::threadEnds(Function &F) {
  SmallVector<Instruction *, 2> Ends;
  for (Instruction &I : instructions(F))
    if (endsThread(I))
      Ends.push_back(&I);
  return Ends;
}

// Whether a declared function (its body elsewhere) surely returns: the
// runtimes' own (PASTA's, printf, the device heap, device-side launches).
// Any other, such as an extern device function of another file in a
// -fgpu-rdc build, may end the thread (exit, trap) before the return.
bool pasta::returnsToCaller(const Function &Callee) {
  StringRef Name = Callee.getName();
  return Name.starts_with("__pasta_") || Name == "vprintf" ||
         Name == "malloc" || Name == "free" ||
         Name.starts_with("cudaGetParameterBuffer") ||
         Name.starts_with("cudaLaunchDevice") || Name.starts_with("__cudaCDP2");
}

static bool mayEndThreadsIn(const Function &F,
                            SmallPtrSetImpl<const Function *> &Seen) {
  if (!Seen.insert(&F).second)
    return false;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      if (isa<UnreachableInst>(I) || pasta::endsThread(I))
        return true;
      const auto *Call = dyn_cast<CallBase>(&I);
      if (!Call || isa<IntrinsicInst>(Call))
        continue;
      const Function *Callee = Call->getCalledFunction();
      if (!Callee || Callee->doesNotReturn() || Call->doesNotReturn())
        return true;
      if (Callee->isDeclaration() ? !pasta::returnsToCaller(*Callee)
                                  : mayEndThreadsIn(*Callee, Seen))
        return true;
    }
  return false;
}

bool pasta::mayEndThreads(const Function &F) {
  SmallPtrSet<const Function *, 8> Seen;
  return mayEndThreadsIn(F, Seen);
}

bool pasta::isReturnOfEveryThread(const BasicBlock &BB) {
  if (!isa<ReturnInst>(BB.getTerminator()))
    return false;
  const Function &F = *BB.getParent();
  for (const BasicBlock &Other : F)
    if (&Other != &BB && isa<ReturnInst>(Other.getTerminator()))
      return false;
  return !mayEndThreads(F);
}
