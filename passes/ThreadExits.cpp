//===- ThreadExits.cpp - Threads that end inside a function ---------------===//
//
// See ThreadExits.h.
//
//===----------------------------------------------------------------------===//
#include "ThreadExits.h"

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
