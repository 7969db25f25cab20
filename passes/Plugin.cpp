//===- Plugin.cpp - Registration of libpasta.so ---------------------------===//
//
// -fpass-plugin=libpasta.so adds PASTA after the optimizer (so counts
// describe the code that runs) in both the host and the device compilation.
// `opt -load-pass-plugin libpasta.so -passes=pasta-count` (or
// pasta-host-registration, pasta-runtime-binding) runs one pass alone, for
// tests. -pasta-unroll-private-arrays adds a loop pass before clang's full
// unroller (PrivateArrayUnroll.h) and a function pass at the end of each
// function's simplification (PrivateRefSelects.h).
//
//===----------------------------------------------------------------------===//
#include "AccessClassification.h"
#include "CountingPass.h"
#include "HostRegistration.h"
#include "ManagedVariables.h"
#include "PrivateArrayUnroll.h"
#include "PrivateRefSelects.h"
#include "RuntimeBinding.h"
#include "SharedAddressConstants.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"

using namespace llvm;

static void addPastaPasses(ModulePassManager &MPM) {
  pasta::Options Opts = pasta::Options::fromCommandLineAndEnvironment();
  MPM.addPass(pasta::ManagedVariablesPass());
  MPM.addPass(pasta::SharedAddressConstantsPass());
  MPM.addPass(pasta::CountingPass(Opts));
  MPM.addPass(pasta::HostRegistrationPass(Opts));
  MPM.addPass(pasta::RuntimeBindingPass(Opts.RuntimePath));
}

static void registerCallbacks(PassBuilder &PB) {
  // Before clang's full unroller (PrivateArrayUnroll.h): the instrumented
  // copies and the plain one are made from the unrolled code.
  PB.registerLateLoopOptimizationsEPCallback(
      [](LoopPassManager &LPM, OptimizationLevel) {
        if (pasta::privateArrayUnrollRequested())
          LPM.addPass(pasta::PrivateArrayUnrollPass());
      });
  // At the end of each function's simplification (after its callees are
  // inlined and its loops unrolled): fields read through a reference chosen
  // among private objects (PrivateRefSelects.h).
  PB.registerScalarOptimizerLateEPCallback(
      [](FunctionPassManager &FPM, OptimizationLevel) {
        if (pasta::privateArrayUnrollRequested())
          FPM.addPass(pasta::PrivateRefSelectsPass());
      });
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
        addPastaPasses(MPM);
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        pasta::Options Opts = pasta::Options::fromCommandLineAndEnvironment();
        if (Name == "pasta-managed") {
          MPM.addPass(pasta::ManagedVariablesPass());
          return true;
        }
        if (Name == "pasta-shared-address-constants") {
          MPM.addPass(pasta::SharedAddressConstantsPass());
          return true;
        }
        if (Name == "pasta-count") {
          MPM.addPass(pasta::CountingPass(Opts));
          return true;
        }
        if (Name == "pasta-host-registration") {
          MPM.addPass(pasta::HostRegistrationPass(Opts));
          return true;
        }
        if (Name == "pasta-runtime-binding") {
          MPM.addPass(pasta::RuntimeBindingPass(Opts.RuntimePath));
          return true;
        }
        if (Name == "pasta") {
          addPastaPasses(MPM);
          return true;
        }
        return false;
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, LoopPassManager &LPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != "pasta-unroll-private-arrays")
          return false;
        LPM.addPass(pasta::PrivateArrayUnrollPass());
        return true;
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "pasta-private-ref-selects") {
          FPM.addPass(pasta::PrivateRefSelectsPass());
          return true;
        }
        if (Name != "pasta-print-access-classes")
          return false;
        FPM.addPass(pasta::AccessClassPrinterPass(errs()));
        return true;
      });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "pasta", LLVM_VERSION_STRING,
          registerCallbacks};
}
