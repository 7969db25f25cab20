/*===- cats.h - The C.A.T.S. trace file and the analyses of a trace -------===*
 *
 * pasta_cats_write() writes trace mode's events (trace_model.h) as the JSON
 * file that the C.A.T.S. viewer (github.com/spcl/cats-viz) reads, with the
 * extra fields of docs/trace-format.md. pasta_trace_analyze() derives from
 * the same trace what C.A.T.S. reports about memory and scopes: the peak
 * footprint, allocation against usage lifetimes, allocations inside loops,
 * buffers one allocation could serve (reuse), and per-scope summaries of
 * loop nests, access classes and footprints. Plain C on libc; no state
 * besides what the caller passes.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_ANALYZERS_CATS_H
#define PASTA_ANALYZERS_CATS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace_model.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PASTA_CATS_FORMAT "pasta-cats"
/* enum pasta_access_class has this many values (unknown .. indirect). */
#define PASTA_TRACE_NUM_CLASSES 5

/* Writes `t` as one .cats JSON document. Returns 0; -1 with errno EINVAL
 * (nothing written) when an event has an unknown type or scope kind, or -1
 * on a write error. */
int pasta_cats_write(FILE *out, const struct pasta_trace *t);

/* Writes `s` (NULL reads as "") as a JSON string literal: quotes,
 * backslashes and control characters escaped, valid UTF-8 passed through,
 * every byte of an invalid sequence written as \u00XX (its value). */
void pasta_trace_write_string(FILE *out, const char *s);

/* "func", "loop", "conditional", "parallel", or NULL for another value. */
const char *pasta_cats_scope_type(uint32_t kind);
/* "unknown", "constant", "stride-1", "stride-k", "indirect" ("unknown" for
 * another value). */
const char *pasta_cats_access_class(uint32_t klass);

/* One buffer's allocation lifetime against its usage lifetime. */
struct pasta_trace_buffer_life {
  const struct pasta_trace_buffer *buffer;
  uint64_t alloc_ns; /* t_free (or the end of the trace) - t_alloc */
  uint64_t use_ns;   /* t_last_use - t_first_use; 0 when never used */
  int used;          /* uses != 0 and t_first_use is known */
  int freed;
};

/* Allocations made at one site inside one host loop. */
struct pasta_trace_loop_allocs {
  const char *alloc_file;
  uint32_t alloc_line;
  uint64_t loop_id;
  const char *loop_file;
  uint32_t loop_line;
  uint32_t loop_depth; /* the deepest of its allocations' */
  uint64_t allocations, bytes;
};

/* Buffers of one size and kind: `max_live` of them at once at most, so
 * that many allocations could serve all of them. */
struct pasta_trace_reuse_group {
  uint64_t size;
  const char *kind;
  size_t buffers, max_live;
  uint64_t saving_bytes; /* size * (buffers - max_live) */
};

/* One static scope, aggregated over all its instances in the events. */
struct pasta_trace_scope_summary {
  uint64_t id;
  uint32_t kind; /* enum pasta_scope_kind */
  const char *funcname, *filename;
  uint32_t line, col;
  size_t first_event;     /* index of its first entry */
  uint64_t executions;    /* sum of its entries' counts */
  uint32_t max_loop_nest; /* deepest loop nest inside, itself included */
  size_t loops;           /* distinct loop scopes inside, itself excluded */
  /* By enum pasta_access_class: distinct access sites inside it, and the
   * sum of their events' counts. */
  uint64_t static_accesses[PASTA_TRACE_NUM_CLASSES];
  uint64_t dynamic_accesses[PASTA_TRACE_NUM_CLASSES];
  uint64_t footprint_bytes; /* sizes of the distinct buffers accessed */
  size_t footprint_buffers;
};

struct pasta_trace_analysis {
  uint64_t end_ns; /* the latest time in the trace */
  /* Footprint over time (frees before allocations at equal times). */
  uint64_t peak_bytes, peak_time_ns; /* first time the peak was reached */
  size_t peak_buffers;
  uint64_t final_bytes; /* never freed */
  size_t final_buffers;
  struct pasta_trace_buffer_life *lives; /* by size, descending */
  size_t num_lives;
  struct pasta_trace_loop_allocs *loop_allocs; /* by bytes, descending */
  size_t num_loop_allocs;
  struct pasta_trace_reuse_group *reuse; /* by saving, descending */
  size_t num_reuse;
  uint64_t reuse_saving_bytes; /* over all groups */
  /* Functions and kernels (func, parallel) first, then the other scopes;
   * each part by dynamic stride-k + indirect accesses, then executions,
   * descending, then first appearance. */
  struct pasta_trace_scope_summary *scopes;
  size_t num_scopes;
};

/* Fills `out` from `t`. Returns 0, or -1 (ENOMEM) with `out` empty. */
int pasta_trace_analyze(const struct pasta_trace *t,
                        struct pasta_trace_analysis *out);
void pasta_trace_analysis_free(struct pasta_trace_analysis *a);

/* Human tables, `top` rows at most per table. */
void pasta_trace_analysis_print(FILE *log, const struct pasta_trace_analysis *a,
                                unsigned top);
/* One JSON object (docs/trace-format.md, "Analyses"), no newline after. */
void pasta_trace_analysis_json(FILE *out, const struct pasta_trace_analysis *a);

#ifdef __cplusplus
}
#endif

#endif /* PASTA_ANALYZERS_CATS_H */
