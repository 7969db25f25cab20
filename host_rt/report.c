/*===- report.c - Building the profile and running the analyzers -----------===*
 *
 * The report: reads the options, selects the analyzers, builds the
 * activity (intercept side, activity.c), reads every registered module
 * (readback.c), finalizes the profile, builds trace mode's trace, and runs
 * the selected analyzers (the built-in `json` one writes the profile).
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* getpid */

#include "report.h"
#include "analyzer_registry.h"
#include "analyzers/builtin.h"
#include "intercept.h"
#include "output.h"
#include "profile/diag.h"
#include "readback.h"
#include "registry.h"
#include "trace.h"

#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <time.h>
#include <unistd.h>

int pasta__reported;
int pasta__device_read;

/* What the device stage kept for the report. */
static struct pasta__options pasta__stage_options;
static pasta_activity pasta__stage_activity;
static int pasta__stage_have_activity;

/* Whether a host module is still mapped (its descriptor, and with it its
 * tables and counters, which the pass puts in the same object): the report
 * runs after every atexit handler and static destructor, and a library
 * closed with dlclose before then took its module with it (its counts are
 * lost; reading it would crash). */
static int pasta__host_module_mapped(const struct pasta_module_desc *d) {
  Dl_info info;
  return dladdr(d, &info) != 0;
}

/* SIGPIPE and SIGXFSZ, ignored while PASTA writes at exit (see
 * pasta__report), unless the program handles them. */
struct pasta__quiet_signals {
  struct sigaction old[2];
  int restore[2];
};
static const int pasta__quiet_signal[2] = {SIGPIPE, SIGXFSZ};

static void pasta__signals_ignore(struct pasta__quiet_signals *q) {
  struct sigaction ignore = {.sa_handler = SIG_IGN};
  for (int i = 0; i < 2; ++i)
    q->restore[i] = sigaction(pasta__quiet_signal[i], NULL, &q->old[i]) == 0 &&
                    q->old[i].sa_handler == SIG_DFL &&
                    !(q->old[i].sa_flags & SA_SIGINFO) &&
                    sigaction(pasta__quiet_signal[i], &ignore, NULL) == 0;
}

static void pasta__signals_restore(const struct pasta__quiet_signals *q) {
  for (int i = 0; i < 2; ++i)
    if (q->restore[i])
      sigaction(pasta__quiet_signal[i], &q->old[i], NULL);
}

/* The device stage: everything that needs the vendor runtime, once, while
 * it is alive (docs/design.md, "The order at exit"): the options and
 * analyzers, the launches still in flight (finished and timed), and every
 * device module read and kept, as a module closed with dlclose is. */
void pasta__read_devices(void) {
  if (__atomic_exchange_n(&pasta__device_read, 1, __ATOMIC_ACQ_REL))
    return;
  int saved_errno = errno;
  struct pasta__quiet_signals q; /* its warnings go to stderr too */
  pasta__signals_ignore(&q);
  pasta__read_options(&pasta__stage_options);
  pasta__options_copy(&pasta__report_options, &pasta__stage_options);
  pasta__register_builtins();
  pasta__select_analyzers(pasta__stage_options.analyzers, 1);
  pasta__sync_warned = 0; /* said again in the report, if said before */
  /* The names the plugin demangled, for the call paths and launch tables
   * built below: host modules' now; device modules' when they are read,
   * after which the launch table's names are looked up again. */
  pasta__lock();
  for (size_t i = 0; i < pasta__registry.num_host; ++i)
    if (pasta__host_module_mapped(pasta__registry.host[i]))
      pasta_profile_remember_names(pasta__registry.host[i]);
  pasta__unlock();
  /* Launches still in flight finish (and are timed) before the counters
   * are read. */
  pasta__stage_have_activity =
      pasta__activity_seen() &&
      pasta__activity_build(&pasta__stage_activity,
                            pasta__analyzer_active("bandwidth")) == 0;
  if (pasta__activity_seen() && !pasta__stage_have_activity)
    PASTA_WARN("out of memory; launches and memory are "
               "missing from the profile\n");
  pasta__lock();
  for (size_t i = 0; i < pasta__registry.num_device; ++i)
    pasta__keep_device_module(&pasta__registry.device[i]);
  pasta__unlock();
  pasta__signals_restore(&q);
  errno = saved_errno;
}

static void pasta__report_once(void);

/* Collects every registered module and reports, once per process: host
 * modules now, device modules as the device stage kept them. SIGPIPE and
 * SIGXFSZ are ignored meanwhile (unless the program handles them): tables
 * written to a pipe whose reader is gone (`prog 2>&1 | head -1`), or to a
 * file past `ulimit -f`, fail with EPIPE or EFBIG instead of killing the
 * program at exit with status 141 or 153 (before: its exit status
 * changed). */
void pasta__report(void) {
  pasta__read_devices();
  if (__atomic_exchange_n(&pasta__reported, 1, __ATOMIC_ACQ_REL))
    return;
  struct pasta__quiet_signals q;
  pasta__signals_ignore(&q);
  pasta__report_once();
  pasta__signals_restore(&q);
}

static void pasta__report_once(void) {
  int saved_errno = errno;
  /* A set-user-ID, set-group-ID or capability program (AT_SECURE) runs with
   * privileges its caller lacks, but PASTA_OUTPUT and the working directory
   * are the caller's: writing there would write as the program's owner
   * wherever the caller says, and the profile (addresses, call paths)
   * would tell the caller about the privileged process. Nothing is
   * written, no table printed. */
  if (getauxval(AT_SECURE)) {
    PASTA_WARN("this program runs with privileges its "
               "user does not have (set-user-ID, set-group-ID or "
               "capabilities): no profile and no table are written; "
               "profile a copy without them\n");
    errno = saved_errno;
    return;
  }
  struct pasta__options o = pasta__stage_options;
  long pid = (long)getpid();

  pasta_profile p;
  pasta_profile_init(&p);
  p.list_all = o.list_all;
  if (pasta_profile_set_info(&p, pasta__program(), (uint64_t)pid,
                             (int64_t)time(NULL))) {
    PASTA_ERROR("out of memory; no profile written\n");
    errno = saved_errno;
    return;
  }
  pasta_profile_gpu gpus[PASTA_MAX_DEVICES];
  pasta_profile_job job = o.job;
  job.gpus = gpus;
  job.num_gpus = pasta__activity_gpus(gpus);
  if (pasta_profile_set_job(&p, &job))
    PASTA_WARN("out of memory; the profile does not say "
               "which rank, host and GPUs it comes from\n");
  int have_activity = pasta__stage_have_activity;
  pasta_activity *activity = &pasta__stage_activity;
  p.activity = have_activity ? activity : NULL;
  pasta__lock();
  size_t unmapped = 0;
  for (size_t i = 0; i < pasta__registry.num_host; ++i) {
    if (pasta__host_module_mapped(pasta__registry.host[i]))
      pasta__read_host_module(&p, pasta__registry.host[i]);
    else
      ++unmapped;
  }
  if (unmapped)
    PASTA_WARN("%zu instrumented host module%s went with "
               "libraries closed (dlclose) before the report; their counts "
               "are lost\n",
               unmapped, unmapped == 1 ? "" : "s");
  for (size_t i = 0; i < pasta__registry.num_device; ++i)
    pasta__read_device_module(&p, &pasta__registry.device[i]);
  p.num_unread_modules = (uint32_t)pasta__registry.unread;
  pasta__unlock();
  if (have_activity)
    pasta__activity_rename(activity);
  if (pasta_profile_finalize(&p) != PASTA_PROFILE_OK)
    PASTA_WARN("out of memory; the profile has no "
               "lines\n");

  /* Trace mode: the trace, for the `trace` analyzer (which adds its
   * analyses to the profile's "trace" section). */
  struct pasta_trace trace;
  int have_trace = pasta__trace_build(&trace, pasta__program()) == 0;
  if (have_trace)
    p.trace_events = &trace;
  for (size_t i = 0; i < pasta__num_builtin_analyzers; ++i) {
    const pasta__builtin_hooks *h = pasta__builtin_analyzers[i].hooks;
    if (h && h->prepare)
      h->prepare(&p);
  }
  /* A program that closed fd 2 and opened a file of its own there gets no
   * tables in it (PASTA_QUIET's effect; warnings and errors still go to
   * fd 2). */
  int quiet = o.quiet || !pasta__stderr_unchanged();
  pasta_analyzer_context ctx = {stderr,           quiet, o.top_lines,
                                pasta__program(), pid,   pasta__write_sibling};
  pasta__analyzers_report(&p, &ctx);
  for (size_t i = 0; i < pasta__num_builtin_analyzers; ++i) {
    const pasta__builtin_hooks *h = pasta__builtin_analyzers[i].hooks;
    if (h && h->release)
      h->release(&p);
  }
  pasta_profile_free(&p);
  if (have_trace)
    pasta__trace_release(&trace);
  if (have_activity)
    pasta__activity_free(activity);
  fflush(stderr);
  errno = saved_errno;
}
