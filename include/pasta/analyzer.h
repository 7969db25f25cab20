/*===- analyzer.h - The interface every PASTA analyzer implements ---------===*
 *
 * An analyzer is one analysis of an instrumented program's counts, run by
 * the host runtime (libpasta_rt) when the program ends. The built-in ones —
 * the tables on stderr ("tables") and the JSON profile ("json") — use this
 * interface too. PASTA_ANALYZERS (a comma-separated list of names; default:
 * all registered) selects which run. docs/writing-an-analyzer.md shows how
 * to write one; examples/fp64_lines.c is a complete example.
 *
 * on_launch and on_allocation see the program's launches and allocations
 * as they happen (the calls the pass routes through the runtime).
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_ANALYZER_H
#define PASTA_ANALYZER_H

#include "pasta/abi.h"

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The aggregated profile an analyzer reports on: the model of
 * pasta/profile.h, which profile/ implements. This interface names it only,
 * so that it stands on no layer above; an analyzer that reads the profile
 * includes pasta/profile.h. */
struct pasta_profile;

/* What the runtime tells an analyzer when it reports. */
typedef struct pasta_analyzer_context {
  FILE *log;           /* where human-readable output goes (stderr) */
  int quiet;           /* PASTA_QUIET=1: print nothing but problems */
  unsigned top_lines;  /* PASTA_TOP_LINES */
  const char *program; /* the program's path */
  long pid;
  /* Writes the file <profile path without .json><suffix> (".roofline.svg")
   * with write(file, arg), through a fresh temporary file renamed into
   * place (never through a link, never over a file another process of the
   * job wrote since this one started; a built-in suffix never over a file
   * that is not that kind of PASTA output), then says so on the log
   * (unless quiet) or says why not; `what` names the file in those lines.
   * Returns 0, or -1 when it could not. */
  int (*write_file)(const struct pasta_analyzer_context *ctx,
                    const char *suffix, const char *what,
                    int (*write)(FILE *file, const void *arg), const void *arg);
} pasta_analyzer_context;

/* One kernel launch, after the vendor runtime accepted or refused it. */
typedef struct pasta_launch_event {
  uint64_t id;        /* launch id: every launch of the program, from 0 */
  const char *kernel; /* mangled name, or NULL when never registered */
  const void *handle; /* the host handle the program launched */
  uint32_t grid[3], block[3];
  uint64_t shared_bytes;
  void *stream;
  int variant; /* PASTA_RUN_COUNTING, _PLAIN, _WORKING_SET, _TRACE or
                  _DIVERGENCE */
  int error;   /* what the vendor's launch call returned (0: launched) */
} pasta_launch_event;
enum {
  PASTA_RUN_COUNTING = 0,
  PASTA_RUN_PLAIN = 1,
  PASTA_RUN_WORKING_SET = 2,
  PASTA_RUN_TRACE = 3,
  PASTA_RUN_DIVERGENCE = 4
};

/* One successful allocation or free. */
typedef struct pasta_allocation_event {
  int is_free;   /* 0: allocated, 1: freed */
  unsigned kind; /* enum pasta_alloc_kind (activity.h); frees: 0 */
  uint64_t address;
  uint64_t size; /* 0 for frees */
  int device;    /* -1: pinned host memory */
} pasta_allocation_event;

typedef struct pasta_analyzer {
  const char *name; /* how PASTA_ANALYZERS names it */
  void *state;      /* handed back to every callback */
  /* Optional: once per instrumented module, with its descriptor (pointing
   * at host copies of its tables) and its counters summed over banks and
   * GPUs. Called before the profile is aggregated. */
  void (*on_module)(void *state, const struct pasta_module_desc *desc,
                    const uint64_t *counters);
  /* Once, with the aggregated profile: the analyzer writes its results.
   * Returns 0, or -1 after printing what went wrong. */
  int (*on_report)(void *state, const struct pasta_profile *profile,
                   const pasta_analyzer_context *ctx);
  /* Optional, live: after each launch and each allocation or free the
   * runtime sees. They run on the program's threads (possibly several at
   * once) and must be quick; they must not call the CUDA/HIP runtime. */
  void (*on_launch)(void *state, const pasta_launch_event *event);
  void (*on_allocation)(void *state, const pasta_allocation_event *event);
} pasta_analyzer;

/* Adds an analyzer (copied); call it from a constructor of the program.
 * Returns 0, or -1 when the name is missing, taken, or there are already
 * PASTA_MAX_ANALYZERS. */
#define PASTA_MAX_ANALYZERS 32
int pasta_register_analyzer(const pasta_analyzer *analyzer);

#ifdef __cplusplus
}
#endif

#endif
