//===- Options.h - PASTA plugin options --------------------------*- C++
//-*-===//
//
// The options every PASTA pass receives, gathered once from -pasta-* flags
// (which win) and PASTA_* environment variables.
//
//===----------------------------------------------------------------------===//
#ifndef PASTA_PASSES_OPTIONS_H
#define PASTA_PASSES_OPTIONS_H

#include <string>

namespace pasta {

struct Options {
  std::string Lines;       // PASTA_LINES: source line ranges to instrument
  std::string Kernels;     // PASTA_KERNELS: regex over kernel names
  bool Host = false;       // PASTA_HOST=1: also count host functions
  bool PrintSites = false; // -pasta-print-sites: dump the site table (tests)
  bool LinkRuntime = true; // -pasta-link-runtime=0: leave runtime calls (tests)
  // PASTA_VARIANTS=0: no plain and working-set copies of kernels (launch
  // windows and working-set mode then have nothing to launch).
  bool Variants = true;
  // PASTA_INTERCEPT=0: leave the program's CUDA/HIP runtime calls alone.
  bool Intercept = true;
  // PASTA_TRACE=1: C.A.T.S. scope events in host functions (with
  // PASTA_HOST=1) and a trace copy of every kernel.
  bool Trace = false;

  static Options fromCommandLineAndEnvironment();
};

} // namespace pasta

#endif
