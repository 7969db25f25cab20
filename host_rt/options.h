/*===- options.h - The report's run-time options ---------------------------===*
 *
 * Private to host_rt: the report's PASTA_* options, trace mode's, and the
 * few read where they are used (the bandwidth cache's directory, the
 * libdwarf to load), all read by options.c, the one file of the runtime
 * that reads the environment (the launch path's options are in
 * intercept.h).
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_HOST_RT_OPTIONS_H
#define PASTA_HOST_RT_OPTIONS_H

#include "pasta/profile.h"

#include <stddef.h>
#include <stdint.h>

enum { PASTA__DEFAULT_TOP_LINES = 20 };

struct pasta__options {
  const char *output;    /* PASTA_OUTPUT, or NULL for the default name */
  int quiet;             /* PASTA_QUIET: no tables, no notes on stderr */
  unsigned top_lines;    /* PASTA_TOP_LINES */
  const char *analyzers; /* PASTA_ANALYZERS, or NULL for all */
  int html;      /* PASTA_HTML (default: PASTA_ANALYZERS names html): the
                    HTML report beside the profile */
  int overwrite; /* PASTA_OVERWRITE: replace any regular file at an output
                    path, not only a PASTA output of its kind */
  int list_all;  /* PASTA_LIST_ALL: list every function and line in the
                    profile, run or not (default: only what ran, with a
                    count of the others) */
  /* The process's place in a job (the launcher's environment); job.host
   * is `host` or NULL, so a copy of the options must point it at its own
   * (pasta__options_copy). No GPUs. */
  pasta_profile_job job;
  char host[256];
};

/* Trace mode's (trace.c), read when it first decides. */
struct pasta__trace_options {
  int on;            /* PASTA_TRACE (default on) */
  uint32_t launches; /* PASTA_TRACE_LAUNCHES */
  uint32_t capacity; /* PASTA_TRACE_RECORDS */
  uint32_t warps;    /* PASTA_TRACE_WARPS */
  size_t max_nodes;  /* PASTA_TRACE_EVENTS */
  size_t max_spans;  /* PASTA_TRACE_SPANS */
};

#pragma GCC visibility push(hidden)

/* The next name of a PASTA_ANALYZERS list at *p (names separated by
 * commas or semicolons, blanks around them trimmed; *len bytes, maybe 0);
 * *p moves past it. NULL at the end of the list. */
const char *pasta__analyzer_list_next(const char **p, size_t *len);
/* Whether a PASTA_ANALYZERS list names `name` (any letter case). */
int pasta__list_names(const char *list, const char *name);

/* The one place that reads the environment. */
void pasta__read_options(struct pasta__options *o);

void pasta__read_trace_options(struct pasta__trace_options *o);

/* The per-user file that caches measured bandwidths (peaks.c), one
 * "<key> <bytes/s>" line per kind of GPU: $PASTA_CACHE_DIR,
 * $XDG_CACHE_HOME/pasta or ~/.cache/pasta, then /peaks. 0 when there is no
 * such place. */
int pasta__peaks_cache_path(char *path, size_t size);

/* PASTA_LIBDWARF (the libdwarf the symbolizer loads; symbolize.h), or NULL;
 * never for a set-user-ID program. */
const char *pasta__libdwarf_option(void);

/* *dst = *src, job.host pointing into dst. */
void pasta__options_copy(struct pasta__options *dst,
                         const struct pasta__options *src);

#pragma GCC visibility pop

#endif
