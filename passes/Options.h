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

  static Options fromCommandLineAndEnvironment();
};

} // namespace pasta

#endif
