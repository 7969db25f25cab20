/*===- trace_analyses.h - The C.A.T.S. analyses of a trace ----------------===*
 *
 * Computes profile/trace_analysis.h's results from a recorded trace
 * (profile/trace_model.h) and prints them as tables.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_ANALYZERS_TRACE_ANALYSES_H
#define PASTA_ANALYZERS_TRACE_ANALYSES_H

#include <stdio.h>

#include "profile/trace_analysis.h"

/* Fills `out` from `t`. Returns 0, or -1 (ENOMEM) with `out` empty. */
int pasta__trace_analyze(const struct pasta_trace *t,
                         struct pasta_trace_analysis *out);

/* Human tables, `top` rows at most per table. */
void pasta__trace_analysis_print(FILE *log,
                                 const struct pasta_trace_analysis *a,
                                 unsigned top);

#endif
