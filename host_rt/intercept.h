/*===- intercept.h - The runtime's view of launches and memory -------------===*
 *
 * Internal to libpasta_rt: what the runtime's side (readback.c, report.c,
 * lifecycle.c) needs from the recorded launches and memory (options.c and
 * activity.c; the wrappers the pass routes the program's CUDA/HIP calls to
 * are ABI entry points, declared where they are defined).
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_HOST_RT_INTERCEPT_H
#define PASTA_HOST_RT_INTERCEPT_H

#include "pasta/abi.h"
#include "pasta/analyzer.h"
#include "pasta/profile.h"
#include "profile/activity.h"

#include <stddef.h>

#include <regex.h>
#include <stdint.h>

/* The launch path's run-time options, read from the environment once, at
 * the first intercepted call (warnings on stderr for bad values, which are
 * replaced by their defaults). */
/* PASTA_TIMING: 0, none; 1 (default), the first TIMED_FIRST launches of
 * each kernel and then one in TIMED_EVERY (timing.c); all, every launch. */
enum { TIMING_OFF, TIMING_SAMPLED, TIMING_ALL };
enum { TIMED_FIRST = 32, TIMED_EVERY = 64 };
/* The most banks of page flags PASTA_WS_PAGE_BANKS may ask for (the
 * default is abi.h's PASTA_WS_PAGE_BANKS; the device code only reads the
 * number in use from the launch state). */
#define PASTA_WS_PAGE_BANKS_MAX 64u

struct pasta__launch_options {
  int timing;          /* PASTA_TIMING: TIMING_OFF, _SAMPLED (default), _ALL */
  int ws;              /* PASTA_WORKING_SET */
  int divergence;      /* PASTA_DIVERGENCE */
  int hotness;         /* PASTA_HOTNESS=1 (working-set mode only) */
  unsigned depth;      /* PASTA_CALL_DEPTH (default 4, at most 16) */
  int debug_callpath;  /* PASTA_DEBUG_CALLPATH: why paths are not cached */
  unsigned page_shift; /* log2 PASTA_PAGE_SIZE (default 64 KiB) */
  unsigned ws_page_banks; /* PASTA_WS_PAGE_BANKS: most copies of page flags */
  uint64_t start, end;    /* PASTA_START_GRID_ID, PASTA_END_GRID_ID */
  const char *kernels;    /* PASTA_INSTRUMENT_KERNELS */
  regex_t kernels_re;
  int have_kernels_re;
  unsigned sample; /* PASTA_SAMPLE: count launch 0, N, 2N... of each kernel */
  int calibrate;   /* PASTA_CALIBRATE (default 1): time a D2D copy at exit */
};
void pasta__launch_options_read(struct pasta__launch_options *o);
void pasta__launch_options_free(struct pasta__launch_options *o);

/* Whether the program made any call the runtime intercepts. */
int pasta__activity_seen(void);

/* Waits for the timed launches still in flight, then fills *a (kernels,
 * call paths symbolised, memory, working sets; with `calibrate`, the
 * measured memory bandwidth, from the per-user cache when it has it).
 * Returns 0, or -1 when out of memory. pasta__activity_free releases what it
 * allocated. */
int pasta__activity_build(pasta_activity *a, int calibrate);
void pasta__activity_free(pasta_activity *a);
/* Names the launch table's kernels again (pasta_demangle), once the device
 * modules' tables, with the names the plugin demangled, have been read. */
void pasta__activity_rename(pasta_activity *a);

/* The GPUs the program launched on, in device order, into `out` (room for
 * PASTA_MAX_DEVICES); their UUIDs (NULL when unknown) stay valid. Returns
 * how many. */
size_t pasta__activity_gpus(pasta_profile_gpu *out);

/* Whether a launch was seen to fail on the GPU (a fault: the context is
 * lost): then a one-line description of it ("launch 7, the 3rd of kernel
 * 'k(int*)', failed on the GPU: ..."), into buf. */
int pasta__activity_fault(char *buf, size_t size);

/* Whether the program registered a kernel named `mangled` (its mangled
 * name) and none of its launches ran the kernel's divergence copy: then its
 * divergence figures were never measured. 0 for a name never registered. */
int pasta__activity_divergence_unmeasured(const char *mangled);

/* A device module's object is being unloaded: stop using its vendor
 * operations (`ops`), after timing what is in flight. */
void pasta__activity_module_gone(const struct pasta_vendor_ops *ops);

/* Before a device reset: times what is in flight on the current GPU and
 * drops the runtime's events, buffers and the allocations of that GPU. */
void pasta__activity_before_reset(void);

#endif
