//===- DeviceRuntime.cpp - Link PASTA's device runtime --------------------===//
//
// device_rt/device_rt.c is compiled to bitcode for each GPU target at build
// time and embedded in libpasta.so, so users add no flag and no file for the
// device side. It is linked after instrumentation, with LinkOnlyNeeded.
//
//===----------------------------------------------------------------------===//
#include "DeviceRuntime.h"
#include "DivergenceOneLane.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Transforms/Scalar/ADCE.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/LoopUnrollPass.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

static const unsigned char NVPTXRuntime[] = {
#include "device_rt_nvptx64.inc"
};
static const unsigned char NVPTXSm70Runtime[] = {
#include "device_rt_nvptx64_sm70.inc"
};
static const unsigned char AMDGCNRuntime[] = {
#include "device_rt_amdgcn.inc"
};
static const unsigned char AMDGCNWave32Runtime[] = {
#include "device_rt_amdgcn_w32.inc"
};

// The GPU generation M is compiled for (the "target-cpu" of its functions,
// e.g. sm_90 -> 90), or 0 if none says.
static unsigned nvptxSmVersion(const Module &M) {
  for (const Function &F : M) {
    StringRef CPU = F.getFnAttribute("target-cpu").getValueAsString();
    unsigned SM = 0;
    if (CPU.consume_front("sm_") &&
        !CPU.take_while(isDigit).getAsInteger(10, SM))
      return SM;
  }
  return 0;
}

// Whether M is compiled for 32-wide wavefronts (RDNA): the runtime's warp
// size is a compile-time constant, so wave32 modules need their own build.
static bool isWave32(const Module &M) {
  for (const Function &F : M)
    if (F.getFnAttribute("target-features")
            .getValueAsString()
            .contains("+wavefrontsize32"))
      return true;
  return false;
}

static StringRef embeddedRuntime(const Module &M, pasta_target Target) {
  if (Target == PASTA_TARGET_NVPTX && nvptxSmVersion(M) >= 80)
    return StringRef(reinterpret_cast<const char *>(NVPTXRuntime),
                     sizeof NVPTXRuntime);
  if (Target == PASTA_TARGET_NVPTX)
    return StringRef(reinterpret_cast<const char *>(NVPTXSm70Runtime),
                     sizeof NVPTXSm70Runtime);
  if (isWave32(M))
    return StringRef(reinterpret_cast<const char *>(AMDGCNWave32Runtime),
                     sizeof AMDGCNWave32Runtime);
  return StringRef(reinterpret_cast<const char *>(AMDGCNRuntime),
                   sizeof AMDGCNRuntime);
}

// The runtime is compiled for one CPU; inside M it must use the user's.
static void adoptTargetAttributes(Module &M, Function &RT) {
  for (const char *Key : {"target-cpu", "target-features"}) {
    RT.removeFnAttr(Key);
    for (Function &F : M)
      if (!F.isDeclaration() && !pasta::isRuntimeFunction(F) &&
          F.hasFnAttribute(Key)) {
        RT.addFnAttr(F.getFnAttribute(Key));
        break;
      }
  }
}

// The working-set copies keep the two allocations each thread touched last
// in six allocas, and the trace copies their recorded-scope masks in two
// (KernelVariants.cpp); once the runtime calls are inlined they are plain
// loads and stores, and become registers.
static constexpr const char *RuntimeSlotMD = "pasta.runtime.slot";

void pasta::markRuntimeSlot(AllocaInst *Slot) {
  Slot->setMetadata(RuntimeSlotMD, MDNode::get(Slot->getContext(), {}));
}

static void promoteRuntimeSlots(Module &M, FunctionAnalysisManager &FAM) {
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    SmallVector<AllocaInst *, 2> Allocas;
    for (Instruction &I : F.getEntryBlock())
      if (auto *AI = dyn_cast<AllocaInst>(&I))
        if (AI->getMetadata(RuntimeSlotMD) && isAllocaPromotable(AI))
          Allocas.push_back(AI);
    if (Allocas.empty())
      continue;
    PromoteMemToReg(Allocas, FAM.getResult<DominatorTreeAnalysis>(F));
  }
}

// The cleanup after inlining (PASTA_CLEANUP). The helpers are written for
// any block shape and any access; inlined into a copy with the copy's
// constants, their branches fold, a value two helpers compute is computed
// once, and a loop of constant trips (the sector count's bit-spreading
// loops) is written out. Nothing here runs after the optimizer otherwise:
// the pass itself runs at its last extension point. No InstCombine and no
// LICM: under the copies' register caps, what they rewrite or hoist spills
// (lud_internal's copy at 32 registers 0 -> 360 spilled
// bytes with InstCombine, and lud 2.38x -> 4.45x on an H200; LICM: nw_tile
// 116 -> 220 bytes).
static FunctionPassManager cleanupPipeline() {
  FunctionPassManager FPM;
  FPM.addPass(SimplifyCFGPass());
  FPM.addPass(EarlyCSEPass(/*UseMemorySSA=*/true));
  FPM.addPass(createFunctionToLoopPassAdaptor(LoopFullUnrollPass()));
  FPM.addPass(SimplifyCFGPass());
  FPM.addPass(ADCEPass());
  return FPM;
}

// Whether F, a function the helpers were inlined into, gets the cleanup.
// The runtime's own functions never do (optimized when it was built, and
// those inlined everywhere are erased); the divergence copies are the
// kernels' K__pasta_div and its parts and twins, and the device functions'
// copies for them, all named with PASTA_DIV_SUFFIX inside.
static bool wantsCleanup(const Function &F, pasta::Options::Cleanup Which) {
  if (pasta::isRuntimeFunction(F))
    return false;
  switch (Which) {
  case pasta::Options::Cleanup::None:
    // A divergence copy its pass marked (DivergenceMeasures.cpp: a copy
    // whose warps mostly return clean, -pasta-div-cleanup-clean-exits).
    return F.hasFnAttribute(pasta::DivCleanupAttr);
  case pasta::Options::Cleanup::Divergence:
    return F.getName().contains(PASTA_DIV_SUFFIX);
  case pasta::Options::Cleanup::All:
    return true;
  }
  return false;
}

static void cleanUp(ArrayRef<Function *> Fns, FunctionAnalysisManager &FAM) {
  FunctionPassManager FPM = cleanupPipeline();
  for (Function *F : Fns)
    FPM.run(*F, FAM);
}

static void inlineHelpers(Module &M, FunctionAnalysisManager &FAM,
                          pasta::Options::Cleanup Which) {
  SmallVector<CallBase *, 32> Calls;
  for (Function &F : M)
    if (!F.isDeclaration() && pasta::isRuntimeFunction(F) &&
        F.hasFnAttribute(Attribute::AlwaysInline))
      for (User *U : F.users())
        if (auto *CB = dyn_cast<CallBase>(U))
          Calls.push_back(CB);
  SmallPtrSet<Function *, 16> Changed;
  for (CallBase *CB : Calls) {
    Changed.insert(CB->getFunction());
    InlineFunctionInfo IFI;
    StringRef Name = CB->getCalledOperand()->getName();
    InlineResult R = InlineFunction(*CB, IFI);
    if (!R.isSuccess()) // a call that does not match the runtime's definition
      M.getContext().diagnose(DiagnosticInfoGeneric(
          "pasta: internal error: cannot inline the device runtime's " + Name +
              " (" + R.getFailureReason() +
              "): the pass and device_rt.c disagree on its signature",
          DS_Error));
  }
  for (Function *F : Changed)
    FAM.invalidate(*F, PreservedAnalyses::none());
  // Chosen before the erasing below, in the module's order (a build's
  // output must not depend on pointer values).
  SmallVector<Function *, 16> ToClean;
  for (Function &F : M)
    if (Changed.count(&F) && wantsCleanup(F, Which))
      ToClean.push_back(&F);
  for (Function &F : make_early_inc_range(M))
    if (pasta::isRuntimeFunction(F) && F.use_empty() && !F.isDeclaration() &&
        F.hasLocalLinkage()) {
      FAM.clear(F, F.getName());
      F.eraseFromParent();
    }
  promoteRuntimeSlots(M, FAM);
  cleanUp(ToClean, FAM);
}

bool pasta::linkDeviceRuntime(Module &M, pasta_target Target,
                              FunctionAnalysisManager &FAM,
                              Options::Cleanup Which) {
  LLVMContext &Ctx = M.getContext();
  auto Buffer = MemoryBuffer::getMemBuffer(embeddedRuntime(M, Target),
                                           "pasta-device-runtime", false);
  Expected<std::unique_ptr<Module>> RT =
      parseBitcodeFile(Buffer->getMemBufferRef(), Ctx);
  if (!RT) {
    Ctx.diagnose(DiagnosticInfoGeneric(
        "pasta: the embedded device runtime is unreadable (" +
            toString(RT.takeError()) + "): rebuild libpasta.so",
        DS_Error));
    return false;
  }
  // The user's module decides ABI-level flags (e.g. the AMD code object
  // version); the runtime must not bring its own.
  if (NamedMDNode *Flags = (*RT)->getModuleFlagsMetadata())
    (*RT)->eraseNamedMetadata(Flags);
  (*RT)->setTargetTriple(M.getTargetTriple());
  (*RT)->setDataLayout(M.getDataLayout());
  if (Linker::linkModules(M, std::move(*RT), Linker::Flags::LinkOnlyNeeded)) {
    Ctx.diagnose(DiagnosticInfoGeneric(
        "pasta: linking the device runtime failed", DS_Error));
    return false;
  }
  for (Function &F : M)
    if (pasta::isRuntimeFunction(F) && !F.isDeclaration()) {
      F.setLinkage(GlobalValue::InternalLinkage);
      adoptTargetAttributes(M, F);
    }
  inlineHelpers(M, FAM, Which);
  specialiseOneLaneCopies(M, FAM);
  return true;
}
