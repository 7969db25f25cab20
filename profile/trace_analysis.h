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

/* The rows of the "trace" section (docs/trace-format.md, "Analyses") as
 * lists of figures in the profile's order, X(KIND, member, "key"), KIND
 * one of STR (a string, "" when missing), U32, U64, SIZE (size_t). The
 * writer (trace_analysis.c), the reader (trace_read.c) and the CSV columns
 * are generated from them, and the loop and reuse rows' structs too. */
#define PASTA_TRACE_CTYPE_STR const char *
#define PASTA_TRACE_CTYPE_U32 uint32_t
#define PASTA_TRACE_CTYPE_U64 uint64_t
#define PASTA_TRACE_CTYPE_SIZE size_t

/* "footprint": the footprint over time. */
#define PASTA_TRACE_FOOTPRINT(X)                                               \
  X(U64, peak_bytes, "peak_bytes")                                             \
  X(U64, peak_time_ns, "peak_time_ns")                                         \
  X(SIZE, peak_buffers, "peak_buffers")                                        \
  X(U64, final_bytes, "final_bytes")                                           \
  X(SIZE, final_buffers, "final_buffers")

/* A row of "loop_allocations". */
#define PASTA_TRACE_LOOP_ALLOCS(X)                                             \
  X(STR, alloc_file, "file")                                                   \
  X(U32, alloc_line, "line")                                                   \
  X(U64, loop_id, "loop_id")                                                   \
  X(STR, loop_file, "loop_file")                                               \
  X(U32, loop_line, "loop_line")                                               \
  X(U32, loop_depth, "loop_depth") /* the deepest of its allocations' */       \
  X(U64, allocations, "allocations")                                           \
  X(U64, bytes, "bytes")

/* A row of "reuse.groups". */
#define PASTA_TRACE_REUSE_GROUP(X)                                             \
  X(U64, size, "size")                                                         \
  X(STR, kind, "kind")                                                         \
  X(SIZE, buffers, "buffers")                                                  \
  X(SIZE, max_live, "max_live")                                                \
  X(U64, saving_bytes, "saving_bytes") /* size * (buffers - max_live) */

/* A row of "scopes": its figures after "id" and "scope_type", and after
 * "accesses". */
#define PASTA_TRACE_SCOPE(X)                                                   \
  X(STR, funcname, "funcname")                                                 \
  X(STR, filename, "filename")                                                 \
  X(U32, line, "line")                                                         \
  X(U32, col, "col")                                                           \
  X(U64, executions, "executions")                                             \
  X(U32, max_loop_nest, "max_loop_nest")                                       \
  X(SIZE, loops, "loops")
#define PASTA_TRACE_SCOPE_FOOTPRINT(X)                                         \
  X(U64, footprint_bytes, "footprint_bytes")                                   \
  X(SIZE, footprint_buffers, "footprint_buffers")

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
#define PASTA_X(kind, member, key) PASTA_TRACE_CTYPE_##kind member;
  PASTA_TRACE_LOOP_ALLOCS(PASTA_X)
#undef PASTA_X
};

/* Buffers of one size and kind: `max_live` of them at once at most, so
 * that many allocations could serve all of them. */
struct pasta_trace_reuse_group {
#define PASTA_X(kind, member, key) PASTA_TRACE_CTYPE_##kind member;
  PASTA_TRACE_REUSE_GROUP(PASTA_X)
#undef PASTA_X
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
