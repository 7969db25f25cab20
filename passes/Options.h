//===- Options.h - PASTA plugin options -------------------------*- C++ -*-===//
//
// The options every PASTA pass receives, gathered once from -pasta-* flags
// (which win) and PASTA_* environment variables.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_OPTIONS_H
#define PASTA_PASSES_OPTIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Regex.h"

#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
}

namespace pasta {

struct Options {
  std::string Lines;       // PASTA_LINES: source line ranges to instrument
  std::string Kernels;     // PASTA_KERNELS: regex over kernel names
  bool Host = false;       // PASTA_HOST=1: also count host functions
  bool PrintSites = false; // -pasta-print-sites: dump the site table (tests)
  bool LinkRuntime = true; // -pasta-link-runtime=0: leave runtime calls (tests)
  // -pasta-runtime=PATH: the libpasta_rt.so instrumented host code loads
  // when the program has none (empty: the one beside the plugin).
  std::string RuntimePath;
  // PASTA_VARIANTS=0: no plain and working-set copies of kernels (launch
  // windows and working-set mode then have nothing to launch).
  bool Variants = true;
  // PASTA_VARIANTS=plain / ws: only the plain (no working-set mode) or only
  // the working-set copies (launches outside the window are counted). Both
  // true unless one of those is given; meaningful only with Variants.
  bool PlainCopies = true;
  bool WorkingSetCopies = true;
  // PASTA_INTERCEPT=0: leave the program's CUDA/HIP runtime calls alone.
  bool Intercept = true;
  // PASTA_TRACE=1: C.A.T.S. scope events in host functions (with
  // PASTA_HOST=1) and a trace copy of every kernel.
  bool Trace = false;
  // PASTA_DIVERGENCE=1: a divergence copy of every kernel (Divergence.h).
  bool Divergence = false;
  // PASTA_DIV_MAXNREG=N: at most N registers per thread in NVPTX kernels'
  // divergence copies (0: no cap; -1 when unset: chosen by kernel,
  // DivergenceEmission.cpp's capRegisters). The measuring code needs registers
  // the kernel does not; a cap keeps enough warps resident to hide memory
  // latency.
  int DivMaxRegisters = -1;
  // PASTA_DIV_DRAIN_EVERY=N: the divergence copies drain their 32-bit loop
  // registers to the counters at least every N loop-header visits (0: as
  // rarely as their bound allows, DivergenceMeasures.cpp). For tests of the
  // drain.
  uint32_t DivDrainVisits = 0;
  // PASTA_CLEANUP=div / all / 0: after the device runtime's helpers are
  // inlined, which copies get a short cleanup pipeline (DeviceRuntime.cpp):
  // the divergence copies only, every copy the helpers went into (the
  // counting, capped, working-set and trace copies too), or none (the
  // default until a GPU run shows the pipeline costs no kernel time).
  enum class Cleanup { None, Divergence, All };
  Cleanup CleanupCopies = Cleanup::None;
  // PASTA_WS_COMPACT_ABOVE=N: a kernel whose working-set copy, with the
  // copies of the device functions it calls, tracks more than N accesses
  // gets a compact copy (one call per batch of four, nothing inline:
  // cheaper to compile, slower to run; KernelVariants.h).
  unsigned WSCompactAbove = 32;
  // PASTA_PLACE_COUNTERS=0: device functions count every counted block in a
  // 64-bit register, none derived, none in bits (CounterPlacement.h).
  bool PlaceCounters = true;
  // PASTA_CALLEE_COUNTS=0: device functions flush their counts at every
  // return instead of handing them to their callers (CalleeCounts.h).
  bool CalleeCounts = true;
  // PASTA_CAPPED_COPIES=0: every NVPTX kernel's register-capped counting
  // copy is a stub (CappedCopies.h): blocks the counting kernel's registers
  // do not fit then run the plain copy, uncounted, with a warning. Saves
  // the copy's compile (ptxas compiles the counting code again, under a
  // cap that may make it spill) where no launch needs it.
  bool CappedCopies = true;
  // PASTA_* yes/no variables whose value is none of 1/0, on/off, true/false,
  // yes/no: one message each, reported as errors by the counting pass.
  std::vector<std::string> Errors;

  static Options fromCommandLineAndEnvironment();
};

// Whether PASTA_KERNELS' regex matches a kernel: its symbol, its name as
// the report prints it (LLVM's demangling, which writes lambdas as
// `main::'lambda'(float)`), or the C++ runtime's __cxa_demangle of it
// (`main::{lambda(float)#1}`, as older reports printed it).
bool kernelNameMatches(const llvm::Regex &Filter, llvm::StringRef Mangled);

// Diagnostics of the passes ("pasta: " + Msg), through the compiler's
// handler: errors fail the compilation.
void reportWarning(llvm::LLVMContext &Ctx, const llvm::Twine &Msg);
void reportError(llvm::LLVMContext &Ctx, const llvm::Twine &Msg);

} // namespace pasta

#endif
