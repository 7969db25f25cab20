/*===- trace_analysis.h - The C.A.T.S. analyses' results: the model --------===*
 *
 * What analyzers/trace/ computes from a trace (footprint over time, buffer
 * lifetimes, allocations in loops, reuse candidates, scope summaries), as
 * the JSON profile's "trace" section carries it (docs/trace-format.md,
 * "Analyses"); trace_read.h reads it back.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_PROFILE_TRACE_ANALYSIS_H
#define PASTA_PROFILE_TRACE_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* enum pasta_access_class has this many values (unknown .. indirect). */
#define PASTA_TRACE_NUM_CLASSES 5

/* "func", "loop", "conditional", "parallel", or NULL for another value. */
const char *pasta__cats_scope_type(uint32_t kind);
/* "unknown", "constant", "stride-1", "stride-k", "indirect" ("unknown" for
 * another value). */
const char *pasta__cats_access_class(uint32_t klass);

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

/* One JSON object (docs/trace-format.md, "Analyses"), no newline after. */
void pasta__trace_analysis_json(FILE *out,
                                const struct pasta_trace_analysis *a);

/* Frees what the analyses (or trace_read.h) allocated in `a`. */
void pasta__trace_analysis_free(struct pasta_trace_analysis *a);

#ifdef __cplusplus
}
#endif

#endif
