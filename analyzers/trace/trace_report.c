/*===- trace_report.c - The trace analyzer --------------------------------===*
 *
 * Trace mode's outputs: the C.A.T.S. trace and the Chrome trace next to the
 * profile, and the C.A.T.S. analyses on the log. It computes the analyses
 * before any report (prepare), so that the JSON profile carries them too.
 *===----------------------------------------------------------------------===*/
#include "analyzers/builtin.h"
#include "cats_file.h"
#include "chrome_trace.h"
#include "profile/diag.h"
#include "trace_analyses.h"

#include <inttypes.h>
#include <stdlib.h>

static int cats_file(FILE *f, const void *t) { return pasta__cats_write(f, t); }

static int chrome_file(FILE *f, const void *t) {
  return pasta__chrome_trace_write(f, t);
}

static int report(void *state, const pasta_profile *p,
                  const pasta_analyzer_context *ctx) {
  (void)state;
  const struct pasta_trace *tp = p->trace_events;
  if (!tp)
    return 0; /* not built or run in trace mode */
  const struct pasta_trace t = *tp;
  int rc = 0;
  if (ctx->write_file(ctx, ".cats", "C.A.T.S. trace", cats_file, &t) ||
      ctx->write_file(ctx, ".trace.json", "Chrome trace", chrome_file, &t))
    rc = -1;
  if (!ctx->quiet && p->trace)
    pasta__trace_analysis_print(ctx->log, p->trace, ctx->top_lines);
  if (t.events_dropped || t.device_records_dropped)
    PASTA_WARN(
        "the trace is incomplete: %" PRIu64
        " events did not fit (PASTA_TRACE_EVENTS, PASTA_TRACE_SPANS) and "
        "%" PRIu64 " device records did not fit (PASTA_TRACE_RECORDS)\n",
        t.events_dropped, t.device_records_dropped);
  return rc;
}

/* The analyses of p->trace_events, as p->trace. Without memory there are
 * none (the profile then has no "trace" section). */
static int prepare(pasta_profile *p) {
  if (!p->trace_events)
    return 0;
  struct pasta_trace_analysis *a = malloc(sizeof *a);
  if (!a || pasta__trace_analyze(p->trace_events, a) != 0) {
    free(a);
    return -1;
  }
  p->trace = a;
  return 0;
}

static void release(pasta_profile *p) {
  struct pasta_trace_analysis *a = (struct pasta_trace_analysis *)p->trace;
  if (!a)
    return;
  pasta__trace_analysis_free(a);
  free(a);
  p->trace = NULL;
}

const pasta_analyzer pasta__trace_analyzer = {.name = "trace",
                                              .on_report = report};
const pasta__builtin_hooks pasta__trace_hooks = {prepare, release};
