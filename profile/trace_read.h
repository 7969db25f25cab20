/*===- trace_read.h - The profile's "trace" section, read back ------------===*
 *
 * For pasta-report: turns the "trace" object of a JSON profile (the C.A.T.S.
 * analyses, docs/trace-format.md "Analyses") back into the struct
 * pasta_trace_analysis that analyzers/trace/trace_analyses.c derives from a
 * trace, so that pasta__trace_analysis_print() prints the tables the program
 * printed. Lenient, like activity_read.h: a missing or mistyped member reads as
 * 0,
 * "" or empty. Uses jansson, so it is part of the tools only.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_PROFILE_TRACE_READ_H
#define PASTA_PROFILE_TRACE_READ_H

#include <jansson.h>

#include "trace_analysis.h"
#include "trace_model.h"

/* What pasta__trace_analysis_read() fills. The arrays of `analysis` and
 * `buffers` are owned here (pasta__trace_read_free frees them); the strings
 * point into the json_t, which must outlive this. */
typedef struct pasta_trace_read {
  struct pasta_trace_analysis analysis;
  /* The buffers the "buffers" entries describe: analysis.lives[i].buffer is
   * &buffers[i]. Only the fields the analyses' JSON carries are set (id,
   * name, kind, size, allocation file and line); the times are unknown. */
  struct pasta_trace_buffer *buffers;
} pasta_trace_read;

/* Reads `trace` (the profile's "trace" object, or one entry of a merged
 * profile's "traces") into `out`. Returns 0, or -1 when out of memory (then
 * `out` is empty). */
int pasta__trace_analysis_read(json_t *trace, pasta_trace_read *out);
void pasta__trace_read_free(pasta_trace_read *r);

#endif
