/*===- chrome_trace.h - Trace mode's spans as a Chrome trace --------------===*
 *
 * Writes the timed spans of a trace (trace_model.h) in the Chrome
 * trace-event JSON format that ui.perfetto.dev and chrome://tracing open:
 * a "Host" process with a thread per host thread, a process per GPU with a
 * thread per stream, a process per traced launch with a thread per sampled
 * warp, and a flow arrow from each API call to the kernel it launched
 * (docs/trace-format.md).
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_ANALYZERS_CHROME_TRACE_H
#define PASTA_ANALYZERS_CHROME_TRACE_H

#include <stdio.h>

#include "profile/trace_model.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PASTA_CHROME_TRACE_FORMAT "pasta-chrome-trace"

/* Writes `t`'s spans as one JSON document. Returns 0, or -1 when out of
 * memory (ENOMEM) or on a write error. */
int pasta__chrome_trace_write(FILE *out, const struct pasta_trace *t);

#ifdef __cplusplus
}
#endif

#endif /* PASTA_ANALYZERS_CHROME_TRACE_H */
