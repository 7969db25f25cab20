/*===- options.c - The run-time options, read once -------------------------===*
 *
 * The launch path's options (PASTA_TIMING, PASTA_WORKING_SET, the launch
 * window, ...), read at the first intercepted call, and the report's
 * (PASTA_OUTPUT, PASTA_QUIET, PASTA_TOP_LINES, PASTA_ANALYZERS,
 * PASTA_LIST_ALL, ...), trace mode's (PASTA_TRACE_*), the bandwidth
 * cache's directory and PASTA_LIBDWARF. Every PASTA_* variable of the
 * runtime is read here, through profile/env.h where its rule is env.h's; a
 * bad value is one warning and its default.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "options.h"
#include "intercept_internal.h"
#include "pasta/regex_cost.h"
#include "profile/diag.h"
#include "profile/env.h"

#include <errno.h>
#include <inttypes.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct pasta__launch_options pasta__opt;

static pthread_once_t opt_once = PTHREAD_ONCE_INIT;

void pasta__launch_options_read(struct pasta__launch_options *o) {
  memset(o, 0, sizeof *o);
  const char *timing = getenv("PASTA_TIMING");
  o->timing =
      timing && !strcmp(timing, "all")
          ? TIMING_ALL
          : (pasta__env_flag("PASTA_TIMING", 1) ? TIMING_SAMPLED : TIMING_OFF);
  o->ws = pasta__env_flag("PASTA_WORKING_SET", 0);
  o->divergence = pasta__env_flag("PASTA_DIVERGENCE", 0);
  o->hotness = pasta__env_flag("PASTA_HOTNESS", 0);
  o->depth = (unsigned)pasta__env_u64("PASTA_CALL_DEPTH", 4, 0, MAX_DEPTH);
  o->debug_callpath = pasta__env_flag("PASTA_DEBUG_CALLPATH", 0);
  uint64_t page =
      pasta__env_u64("PASTA_PAGE_SIZE", 65536, 0, UINT64_C(1) << 30);
  if (page < 256 || (page & (page - 1))) {
    PASTA_WARN("ignoring PASTA_PAGE_SIZE=%" PRIu64
               " (a power of two from 256 to 2^30); using 65536\n",
               page);
    page = 65536;
  }
  o->page_shift = (unsigned)__builtin_ctzll(page);
  uint64_t banks = pasta__env_u64("PASTA_WS_PAGE_BANKS", PASTA_WS_PAGE_BANKS, 1,
                                  PASTA_WS_PAGE_BANKS_MAX);
  if (banks & (banks - 1)) {
    PASTA_WARN("ignoring PASTA_WS_PAGE_BANKS=%" PRIu64
               " (a power of two from 1 to %u); using %u\n",
               banks, PASTA_WS_PAGE_BANKS_MAX, PASTA_WS_PAGE_BANKS);
    banks = PASTA_WS_PAGE_BANKS;
  }
  o->ws_page_banks = (unsigned)banks;
  o->sample = (unsigned)pasta__env_u64("PASTA_SAMPLE", 0, 0, 1u << 30);
  o->calibrate = pasta__env_flag("PASTA_CALIBRATE", 1);
  o->start = pasta__env_u64("PASTA_START_GRID_ID", 0, 0, UINT64_MAX);
  o->end = pasta__env_u64("PASTA_END_GRID_ID", UINT64_MAX, 0, UINT64_MAX);
  if (o->start > o->end)
    PASTA_WARN("PASTA_START_GRID_ID=%" PRIu64
               " is after PASTA_END_GRID_ID=%" PRIu64
               ": no launch is counted\n",
               o->start, o->end);
  const char *k = getenv("PASTA_INSTRUMENT_KERNELS");
  if (k && *k && pasta_regex_cost(k) > PASTA_REGEX_MAX_COST) {
    PASTA_WARN("PASTA_INSTRUMENT_KERNELS='%.200s' is too costly "
               "to compile (nested counted repetitions {m,n} expand to more "
               "than %.0f atoms); every kernel is counted\n",
               k, PASTA_REGEX_MAX_COST);
  } else if (k && *k) {
    if (regcomp(&o->kernels_re, k, REG_EXTENDED | REG_NOSUB) == 0) {
      o->kernels = k;
      o->have_kernels_re = 1;
    } else {
      PASTA_WARN("PASTA_INSTRUMENT_KERNELS='%.200s' is not an "
                 "extended regular expression; every kernel is counted\n",
                 k);
    }
  }
}

void pasta__launch_options_free(struct pasta__launch_options *o) {
  if (o->have_kernels_re)
    regfree(&o->kernels_re);
  o->have_kernels_re = 0;
}

static void read_options(void) { pasta__launch_options_read(&pasta__opt); }

void pasta__need_options(void) { pthread_once(&opt_once, read_options); }

/* The next name of a PASTA_ANALYZERS list at *p (blanks trimmed; *len
 * bytes, maybe 0); *p moves past it. NULL at the end of the list. */
const char *pasta__analyzer_list_next(const char **p, size_t *len) {
  if (!**p)
    return NULL;
  const char *s = *p;
  size_t n = strcspn(s, ",;");
  *p = s + n + (s[n] != '\0');
  while (n && (*s == ' ' || *s == '\t')) {
    ++s;
    --n;
  }
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
    --n;
  *len = n;
  return s;
}

int pasta__list_names(const char *list, const char *name) {
  size_t len;
  for (const char *p = list ? list : "", *s;
       (s = pasta__analyzer_list_next(&p, &len));)
    if (strlen(name) == len && strncasecmp(name, s, len) == 0)
      return 1;
  return 0;
}

void pasta__read_options(struct pasta__options *o) {
  const char *v = getenv("PASTA_OUTPUT");
  o->output = v && *v ? v : NULL;
  o->quiet = pasta__env_flag("PASTA_QUIET", 0);
  v = getenv("PASTA_ANALYZERS");
  o->analyzers = v && *v ? v : NULL;
  /* Naming html in PASTA_ANALYZERS asks for the page: PASTA_HTML=0 alone
   * turns it off then. */
  o->html =
      pasta__env_flag("PASTA_HTML", pasta__list_names(o->analyzers, "html"));
  o->overwrite = pasta__env_flag("PASTA_OVERWRITE", 0);
  o->list_all = pasta__env_flag("PASTA_LIST_ALL", 0);
  pasta__job_from_env(&o->job, o->host, sizeof o->host);
  o->top_lines = PASTA__DEFAULT_TOP_LINES;
  v = getenv("PASTA_TOP_LINES");
  if (v && *v) {
    char *end;
    errno = 0;
    unsigned long n = strtoul(v, &end, 10);
    if (errno || *end || *v < '0' || *v > '9' || n > 1000000)
      PASTA_WARN("ignoring PASTA_TOP_LINES='%.80s' (not a count "
                 "up to 1000000); using %u\n",
                 v, o->top_lines);
    else
      o->top_lines = (unsigned)n;
  }
}

/* Trace mode's counts: from 1 to max, and their own warning. */
static uint64_t trace_u64(const char *name, uint64_t fallback, uint64_t max) {
  const char *s = getenv(name);
  if (!s || !*s)
    return fallback;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end || v == 0 || v > max) {
    PASTA_WARN("%s=%s is not a number from 1 to %llu; using "
               "%llu\n",
               name, s, (unsigned long long)max, (unsigned long long)fallback);
    return fallback;
  }
  return v;
}

void pasta__read_trace_options(struct pasta__trace_options *o) {
  o->on = pasta__env_flag("PASTA_TRACE", 1);
  o->launches = (uint32_t)trace_u64("PASTA_TRACE_LAUNCHES", 2, 1u << 20);
  o->capacity = (uint32_t)trace_u64("PASTA_TRACE_RECORDS", 65536, 1u << 26);
  o->warps = (uint32_t)trace_u64("PASTA_TRACE_WARPS", 64, 1u << 24);
  o->max_nodes = (size_t)trace_u64("PASTA_TRACE_EVENTS", 1u << 20, 1u << 28);
  o->max_spans = (size_t)trace_u64("PASTA_TRACE_SPANS", 1u << 20, 1u << 28);
}

int pasta__peaks_cache_path(char *path, size_t size) {
  /* secure_getenv: a set-user-ID program has no cache (its caller's
   * variables would choose where it creates directories). */
  const char *dir = secure_getenv("PASTA_CACHE_DIR"), *base = NULL, *sub = "";
  if (dir && *dir) {
    base = dir;
  } else if ((base = secure_getenv("XDG_CACHE_HOME")) && *base) {
    sub = "/pasta";
  } else if ((base = secure_getenv("HOME")) && *base) {
    sub = "/.cache/pasta";
  } else {
    return 0;
  }
  int n = snprintf(path, size, "%s%s/peaks", base, sub);
  return n > 0 && (size_t)n < size;
}

const char *pasta__libdwarf_option(void) {
  return pasta__env_trusted("PASTA_LIBDWARF");
}

void pasta__options_copy(struct pasta__options *dst,
                         const struct pasta__options *src) {
  *dst = *src;
  dst->job.host = src->job.host ? dst->host : NULL;
}
