//===- Options.cpp - PASTA plugin options ---------------------------------===//
//
// Options reach the plugin either as -mllvm -pasta-* flags or as PASTA_*
// environment variables. Environment variables are the robust path through
// wrappers, CMake and HIP builds (where clang also forwards -mllvm flags to
// the device linker); an explicit flag overrides the environment.
//
//===----------------------------------------------------------------------===//
#include "Options.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/CommandLine.h"

#include <cxxabi.h>

#include <cstdlib>
#include <cstring>
#include <optional>

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

static cl::opt<std::string> RuntimeFlag(
    "pasta-runtime",
    cl::desc("PASTA: the libpasta_rt.so an instrumented program loads when "
             "it is not linked with one (default: the one beside the "
             "plugin; PASTA_RUNTIME at run time overrides it)"),
    cl::init(""));

static cl::opt<std::string> VariantsFlag(
    "pasta-variants",
    cl::desc("PASTA: also emit each kernel's uninstrumented and working-set "
             "variants: 1/0, or only one of them, plain or ws (env "
             "PASTA_VARIANTS, default 1; plain in divergence builds)"),
    cl::init(""));

static cl::opt<bool> InterceptFlag(
    "pasta-intercept",
    cl::desc("PASTA: route the host's CUDA/HIP launch, allocation, copy and "
             "synchronisation calls through the runtime (env PASTA_INTERCEPT, "
             "default 1)"),
    cl::init(true));

static cl::opt<bool> PlaceCountersFlag(
    "pasta-place-counters",
    cl::desc("PASTA: in device functions, derive the block counters that "
             "follow from others at read-back and count blocks that run once "
             "per call in bits (env PASTA_PLACE_COUNTERS, default 1)"),
    cl::init(true));

static cl::opt<bool> CalleeCountsFlag(
    "pasta-callee-counts",
    cl::desc("PASTA: device functions called directly hand their counts to "
             "their callers instead of flushing them at every return (env "
             "PASTA_CALLEE_COUNTS, default 1)"),
    cl::init(true));

static cl::opt<bool> CappedCopiesFlag(
    "pasta-capped-copies",
    cl::desc("PASTA: give every NVPTX kernel without launch bounds a "
             "counting copy capped at 64 registers, launched where the "
             "counting kernel's registers do not fit the block (off: stubs "
             "only, such launches run the plain copy uncounted) (env "
             "PASTA_CAPPED_COPIES, default 1)"),
    cl::init(true));

static cl::opt<bool> TraceFlag(
    "pasta-trace",
    cl::desc("PASTA: emit control-flow scope events (a trace copy of each "
             "kernel; host functions too with PASTA_HOST=1) (env PASTA_TRACE)"),
    cl::init(false));

static cl::opt<bool> DivergenceFlag(
    "pasta-divergence",
    cl::desc("PASTA: emit a divergence copy of each kernel (warp-level "
             "coalescing, sectors, bank conflicts and branch divergence per "
             "line) (env PASTA_DIVERGENCE)"),
    cl::init(false));

static cl::opt<int> DivMaxRegistersFlag(
    "pasta-div-maxnreg",
    cl::desc("PASTA: at most this many registers per thread in the NVPTX "
             "kernels' divergence copies, 0 for no cap (env "
             "PASTA_DIV_MAXNREG; default 48, or 64 for kernels that loop "
             "over an index range)"),
    cl::init(-1));

static cl::opt<int> DivDrainEveryFlag(
    "pasta-div-drain-every",
    cl::desc("PASTA: drain the divergence copies' loop registers at least "
             "every N loop-header visits (env PASTA_DIV_DRAIN_EVERY; for "
             "tests of the drain; default 0: as rarely as is safe)"),
    cl::init(0), cl::Hidden);

static cl::opt<std::string> CleanupFlag(
    "pasta-cleanup",
    cl::desc("PASTA: after inlining the device runtime, clean up the "
             "divergence copies (div), every instrumented copy (all) or none "
             "(0) (env PASTA_CLEANUP; default 0)"),
    cl::init(""));

static cl::opt<int> WSCompactAboveFlag(
    "pasta-ws-compact-above",
    cl::desc("PASTA: kernels whose working-set copy tracks more accesses "
             "than this (with the device functions it calls) get a compact "
             "copy (env PASTA_WS_COMPACT_ABOVE; default 32)"),
    cl::init(-1));

static std::string stringOption(const cl::opt<std::string> &Flag,
                                const char *EnvName) {
  if (Flag.getNumOccurrences())
    return Flag;
  const char *Env = std::getenv(EnvName);
  return Env ? Env : "";
}

// 1/0, on/off, true/false, yes/no in any case (as the runtime, host_rt/env.c).
static std::optional<bool> parseFlag(StringRef S) {
  for (StringRef Yes : {"1", "on", "true", "yes"})
    if (S.equals_insensitive(Yes))
      return true;
  for (StringRef No : {"0", "off", "false", "no"})
    if (S.equals_insensitive(No))
      return false;
  return std::nullopt;
}

// A yes/no option: the flag if given, else the variable, else Default. A
// value that is no yes/no is an error (reported by the counting pass).
static bool flagOption(const cl::opt<bool> &Flag, const char *EnvName,
                       bool Default, std::vector<std::string> &Errors) {
  if (Flag.getNumOccurrences())
    return Flag;
  const char *Env = std::getenv(EnvName);
  if (!Env || !*Env)
    return Default;
  if (std::optional<bool> B = parseFlag(Env))
    return *B;
  StringRef Shown = StringRef(Env).take_front(80);
  Errors.push_back((Twine(EnvName) + "='" + Shown + "'" +
                    (Shown.size() < std::strlen(Env) ? "..." : "") +
                    " is not 1/0, on/off, true/false or yes/no")
                       .str());
  return Default;
}

// A number option as given: the flag's value if it was given, else the
// variable's, else empty.
static std::string givenNumber(const cl::opt<int> &Flag, const char *EnvName) {
  if (Flag.getNumOccurrences())
    return std::to_string(Flag);
  const char *Env = std::getenv(EnvName);
  return Env ? Env : "";
}

// The error for a number option given as Given.
static std::string badNumber(const char *EnvName, StringRef Given,
                             const Twine &Expected) {
  return (Twine(EnvName) + "='" + Given.take_front(80) + "' is not " + Expected)
      .str();
}

// A register cap: -1 when not given (chosen per kernel). ptxas takes
// .maxnreg from 16 up; 0 means none.
static int registerCapOption(std::vector<std::string> &Errors) {
  std::string Given = givenNumber(DivMaxRegistersFlag, "PASTA_DIV_MAXNREG");
  if (Given.empty())
    return -1;
  unsigned N = 0;
  if (!StringRef(Given).getAsInteger(10, N) &&
      (N == 0 || (N >= 16 && N <= 255)))
    return N;
  Errors.push_back(badNumber("PASTA_DIV_MAXNREG", Given,
                             "a register count: give 16 to 255, or 0 for "
                             "no cap"));
  return -1;
}

// A count (0 or more) given by Flag or EnvName, Default when not given or
// not a count (then an error saying what is expected: Expect).
static unsigned countOption(const cl::opt<int> &Flag, const char *EnvName,
                            unsigned Default, const char *Expect,
                            std::vector<std::string> &Errors) {
  std::string Given = givenNumber(Flag, EnvName);
  unsigned N = Default;
  if (Given.empty() || !StringRef(Given).getAsInteger(10, N))
    return N;
  Errors.push_back(badNumber(EnvName, Given, Expect));
  return Default;
}

// Which copies of the kernels to emit: yes/no for both, or one of them
// (plain: launch windows and sampling, no working-set mode; ws: working-set
// mode, launches outside the window counted). The working-set copies were
// most of what instrumentation added to compile time (issue [overhead-3]).
// Returns whether it was given.
static bool variantsOption(pasta::Options &O) {
  std::string Given = stringOption(VariantsFlag, "PASTA_VARIANTS");
  if (Given.empty())
    return false;
  StringRef S(Given);
  if (S.equals_insensitive("plain")) {
    O.WorkingSetCopies = false;
  } else if (S.equals_insensitive("ws")) {
    O.PlainCopies = false;
  } else if (std::optional<bool> B = parseFlag(S)) {
    O.Variants = *B;
  } else {
    StringRef Shown = S.take_front(80);
    O.Errors.push_back(("PASTA_VARIANTS='" + Shown + "'" +
                        (Shown.size() < S.size() ? "..." : "") +
                        " is not 1/0 (on/off, true/false, yes/no), plain or ws")
                           .str());
  }
  return true;
}

// Which copies get the cleanup after the runtime is inlined: div, all, or
// a yes/no (yes: div).
static void cleanupOption(pasta::Options &O) {
  using Cleanup = pasta::Options::Cleanup;
  std::string Given = stringOption(CleanupFlag, "PASTA_CLEANUP");
  StringRef S(Given);
  if (S.empty())
    return;
  if (S.equals_insensitive("div"))
    O.CleanupCopies = Cleanup::Divergence;
  else if (S.equals_insensitive("all"))
    O.CleanupCopies = Cleanup::All;
  else if (std::optional<bool> B = parseFlag(S))
    O.CleanupCopies = *B ? Cleanup::Divergence : Cleanup::None;
  else
    O.Errors.push_back(("PASTA_CLEANUP='" + S.take_front(80) +
                        "' is not div, all or 1/0 (on/off, true/false, "
                        "yes/no)")
                           .str());
}

pasta::Options pasta::Options::fromCommandLineAndEnvironment() {
  Options O;
  O.Lines = stringOption(LinesFlag, "PASTA_LINES");
  O.Kernels = stringOption(KernelsFlag, "PASTA_KERNELS");
  O.Host = flagOption(HostFlag, "PASTA_HOST", false, O.Errors);
  O.PrintSites = PrintSitesFlag;
  O.LinkRuntime = LinkRuntimeFlag;
  O.RuntimePath = RuntimeFlag;
  bool VariantsGiven = variantsOption(O);
  O.Intercept = flagOption(InterceptFlag, "PASTA_INTERCEPT", true, O.Errors);
  O.Trace = flagOption(TraceFlag, "PASTA_TRACE", false, O.Errors);
  O.Divergence =
      flagOption(DivergenceFlag, "PASTA_DIVERGENCE", false, O.Errors);
  // A divergence build is made for divergence runs, which never launch the
  // working-set copies; compiled anyway they were a tenth of a large
  // kernel's divergence build. PASTA_VARIANTS=1 (or ws) keeps them.
  if (O.Divergence && !VariantsGiven)
    O.WorkingSetCopies = false;
  O.PlaceCounters =
      flagOption(PlaceCountersFlag, "PASTA_PLACE_COUNTERS", true, O.Errors);
  O.CalleeCounts =
      flagOption(CalleeCountsFlag, "PASTA_CALLEE_COUNTS", true, O.Errors);
  O.CappedCopies =
      flagOption(CappedCopiesFlag, "PASTA_CAPPED_COPIES", true, O.Errors);
  O.DivMaxRegisters = registerCapOption(O.Errors);
  cleanupOption(O);
  // The drain interval (0: none) and the working-set copies' size budget.
  O.DivDrainVisits =
      countOption(DivDrainEveryFlag, "PASTA_DIV_DRAIN_EVERY", 0,
                  "a count of loop-header visits: give 0 or more", O.Errors);
  O.WSCompactAbove =
      countOption(WSCompactAboveFlag, "PASTA_WS_COMPACT_ABOVE", 32,
                  "a count of accesses: give 0 or more", O.Errors);
  return O;
}

bool pasta::kernelNameMatches(const llvm::Regex &Filter,
                              llvm::StringRef Mangled) {
  if (Filter.match(Mangled))
    return true;
  std::string Symbol = Mangled.str();
  int Status = -1;
  char *Shown = abi::__cxa_demangle(Symbol.c_str(), nullptr, nullptr, &Status);
  bool Match = Shown && Status == 0 && Filter.match(Shown);
  std::free(Shown);
  return Match || Filter.match(llvm::demangle(Symbol));
}

void pasta::reportWarning(LLVMContext &Ctx, const Twine &Msg) {
  Ctx.diagnose(DiagnosticInfoGeneric(Twine("pasta: ") + Msg, DS_Warning));
}

void pasta::reportError(LLVMContext &Ctx, const Twine &Msg) {
  Ctx.diagnose(DiagnosticInfoGeneric(Twine("pasta: ") + Msg, DS_Error));
}
