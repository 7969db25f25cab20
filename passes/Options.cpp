//===- Options.cpp - PASTA plugin options ---------------------------------===//
//
// Options reach the plugin either as -mllvm -pasta-* flags or as PASTA_*
// environment variables. Environment variables are the robust path through
// wrappers, CMake and HIP builds (where clang also forwards -mllvm flags to
// the device linker); an explicit flag overrides the environment.
//
//===----------------------------------------------------------------------===//
#include "Options.h"

#include "llvm/Support/CommandLine.h"

#include <cstdlib>
#include <cstring>

using namespace llvm;

static cl::opt<std::string>
    LinesFlag("pasta-lines",
              cl::desc("PASTA: source lines to instrument, e.g. "
                       "'axpy.cu:41-60;bicg.cu:113-115,120' (env PASTA_LINES)"),
              cl::init(""));

static cl::opt<std::string>
    KernelsFlag("pasta-kernels",
                cl::desc("PASTA: regular expression over the kernel names to "
                         "instrument (env PASTA_KERNELS)"),
                cl::init(""));

static cl::opt<bool>
    HostFlag("pasta-host",
             cl::desc("PASTA: also count host functions (env PASTA_HOST=1)"),
             cl::init(false));

static cl::opt<bool> PrintSitesFlag(
    "pasta-print-sites",
    cl::desc("PASTA: print each module's site table to stderr (for tests)"),
    cl::init(false));

static cl::opt<bool> LinkRuntimeFlag(
    "pasta-link-runtime",
    cl::desc("PASTA: link and inline the device runtime (turn off only to "
             "test the calls the pass emits)"),
    cl::init(true), cl::Hidden);

static cl::opt<bool> VariantsFlag(
    "pasta-variants",
    cl::desc("PASTA: also emit each kernel's uninstrumented and working-set "
             "variants (env PASTA_VARIANTS, default 1)"),
    cl::init(true));

static cl::opt<bool> InterceptFlag(
    "pasta-intercept",
    cl::desc("PASTA: route the host's CUDA/HIP launch, allocation, copy and "
             "synchronisation calls through the runtime (env PASTA_INTERCEPT, "
             "default 1)"),
    cl::init(true));

static cl::opt<bool> TraceFlag(
    "pasta-trace",
    cl::desc("PASTA: emit control-flow scope events (a trace copy of each "
             "kernel; host functions too with PASTA_HOST=1) (env PASTA_TRACE)"),
    cl::init(false));

static std::string stringOption(const cl::opt<std::string> &Flag,
                                const char *EnvName) {
  if (Flag.getNumOccurrences())
    return Flag;
  const char *Env = std::getenv(EnvName);
  return Env ? Env : "";
}

static bool boolOption(const cl::opt<bool> &Flag, const char *EnvName) {
  if (Flag.getNumOccurrences())
    return Flag;
  const char *Env = std::getenv(EnvName);
  return Env && *Env && std::strcmp(Env, "0") != 0;
}

// An option that is on unless the flag or the variable says 0.
static bool onByDefault(const cl::opt<bool> &Flag, const char *EnvName) {
  if (Flag.getNumOccurrences())
    return Flag;
  const char *Env = std::getenv(EnvName);
  return !Env || !*Env || std::strcmp(Env, "0") != 0;
}

pasta::Options pasta::Options::fromCommandLineAndEnvironment() {
  Options O;
  O.Lines = stringOption(LinesFlag, "PASTA_LINES");
  O.Kernels = stringOption(KernelsFlag, "PASTA_KERNELS");
  O.Host = boolOption(HostFlag, "PASTA_HOST");
  O.PrintSites = PrintSitesFlag;
  O.LinkRuntime = LinkRuntimeFlag;
  O.Variants = onByDefault(VariantsFlag, "PASTA_VARIANTS");
  O.Intercept = onByDefault(InterceptFlag, "PASTA_INTERCEPT");
  O.Trace = boolOption(TraceFlag, "PASTA_TRACE");
  return O;
}
