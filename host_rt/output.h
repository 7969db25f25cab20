/*===- output.h - The report's output files --------------------------------===*
 *
 * Private to host_rt: where the profile and its sibling files go, and the
 * built-in `json` analyzer that writes the profile.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_HOST_RT_OUTPUT_H
#define PASTA_HOST_RT_OUTPUT_H

#include "options.h"
#include "pasta/analyzer.h"

#include <stdio.h>

#pragma GCC visibility push(hidden)

/* The options of the report in progress (set by pasta__report). */
extern struct pasta__options pasta__report_options;

/* The program's name (program_invocation_name, or "unknown"). */
const char *pasta__program(void);

/* Whether fd 2 is the file it was when the process started (or closed
 * then and now): the tables go there only then, not into a file the
 * program opened as fd 2 after closing it. */
int pasta__stderr_unchanged(void);
/* Records what fd 2 is now as the file it was at the start (done by a
 * constructor; the runtime's tests call it after redirecting fd 2). */
void pasta__stderr_remember(void);

/* Writes <profile path without .json><suffix> with `write`, then says so
 * (unless quiet) or says why not (pasta_analyzer_context.write_sibling). */
int pasta__write_sibling(const pasta_analyzer_context *ctx, const char *suffix,
                         const char *what, int (*write)(FILE *, const void *),
                         const void *arg);

/* `json`: writes the profile to PASTA_OUTPUT or the default name. */
extern const pasta_analyzer pasta__json_analyzer;
/* `html`: with PASTA_HTML=1, the HTML report beside the profile
 * (<profile>.html, analyzers/html/html_report.h). */
extern const pasta_analyzer pasta__html_analyzer;

#pragma GCC visibility pop

#endif
