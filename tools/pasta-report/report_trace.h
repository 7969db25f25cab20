/*===- report_trace.h - The trace analyses in pasta-report ----------------===*
 *
 * The "trace" section of a profile (trace mode's C.A.T.S. analyses,
 * docs/trace-format.md "Analyses") in pasta-report: its tables again
 * (show), the "traces" list of a merged profile (merge), and peak footprint
 * and per-scope stride-k / indirect accesses before and after (diff). Works
 * on profiles parsed with jansson, so it is part of pasta-report only.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_TOOLS_REPORT_TRACE_H
#define PASTA_TOOLS_REPORT_TRACE_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* The tables the program printed for the "trace" member of `sections`
 * (`top` rows per table at most), or for each entry of a merged profile's
 * "traces", each under a line naming its process (from `merged_from`, the
 * profile's member, may be NULL). Nothing when there is neither. Returns 0,
 * or -1 when out of memory or on a write error. */
int pasta__report_show_traces(FILE *out, json_t *sections, json_t *merged_from,
                              unsigned top);

/* The "traces" list of a merged profile, one input at a time:
 * merge_traces_add writes the "trace" of `root`, or each entry of its
 * "traces" when it is a merged profile, as entries of ",\n\"traces\":[..."
 * (the list's opening with the first entry), numbering their processes
 * from first_process; *written counts the entries so far (start at 0).
 * merge_traces_end closes the list (nothing when it is empty). Each
 * returns 0, or -1 on a write error. */
int pasta__report_merge_traces_add(FILE *out, json_t *root,
                                   size_t first_process, size_t *written);
int pasta__report_merge_traces_end(FILE *out, size_t written);

/* When both profiles have a "trace": peak footprint, never-freed bytes and
 * reuse saving, then per scope its dynamic stride-k and indirect accesses,
 * before and after. One line when only one profile has a trace, or either
 * is a merged profile with "traces"; nothing when neither has one. Returns
 * 0, or -1 when out of memory or on a write error. */
int pasta__report_diff_traces(FILE *out, json_t *before, json_t *after);

#endif
