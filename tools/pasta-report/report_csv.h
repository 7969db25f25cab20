/*===- report_csv.h - CSV of a profile's sections (pasta-report show) -----===*
 *
 * `pasta-report show --format csv` prints the function (or line) table
 * first, then one block per section the profile has: launches, memory,
 * working_set, bandwidth, and the trace analyses (trace.footprint,
 * trace.buffers, trace.loop_allocations, trace.reuse, trace.scopes). Each
 * block is a blank line, a line "# NAME", a header row and its rows; nested
 * JSON fields become dotted column names, as the function table's
 * "load_bytes.global". Works on the parsed profile (jansson), so it is part
 * of pasta-report only.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_TOOLS_REPORT_CSV_H
#define PASTA_TOOLS_REPORT_CSV_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "pasta/profile.h"

/* The blocks of the sections `root` has (docs/user-guide.md lists their
 * columns). Returns 0, or -1 when out of memory or on a write error. */
int pasta__report_sections_csv(FILE *out, json_t *root);

/* The table of kernels, device and host functions (every count), or of
 * the first `top` lines, with a header row. */
void pasta__csv_funcs(FILE *out, const pasta_profile *p);
void pasta__csv_lines(FILE *out, const pasta_profile *p, size_t top);

#endif
