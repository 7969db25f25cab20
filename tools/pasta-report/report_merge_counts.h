/*===- report_merge_counts.h - Functions and lines of merge, streamed -----===*
 *
 * pasta-report merge folds each input's function and line entries into
 * running totals, one per distinct entry, and frees the input: memory grows
 * with the number of distinct functions and lines, never with the number of
 * inputs. Beside each total it keeps the entry's spread over the processes
 * (pasta_rank_stats): the smallest and largest process's value and the first
 * process holding the largest, for the entry's launches (calls,
 * executions), bytes and FLOPs. A process without the entry counts 0.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_TOOLS_REPORT_MERGE_COUNTS_H
#define PASTA_TOOLS_REPORT_MERGE_COUNTS_H

#include <stdint.h>

#include "pasta/profile.h"

typedef struct pasta_merge_counts pasta_merge_counts;

/* NULL when out of memory. */
pasta_merge_counts *pasta__merge_counts_new(void);
void pasta__merge_counts_free(pasta_merge_counts *m);

/* Folds in input `in` (finalized), which holds processes first_process to
 * first_process + processes - 1 of the merge (processes > 1: a merged
 * profile, whose entries carry their own spreads). Inputs come in process
 * order. Returns 0, or -1 when out of memory. */
int pasta__merge_counts_add(pasta_merge_counts *m, const pasta_profile *in,
                            uint64_t first_process, uint64_t processes);

/* Adds the merged functions and lines to `out` (not finalized), with their
 * spreads over all `processes` processes; an entry that a merged input
 * had without a spread (a profile older than version 3) gets none. Returns
 * 0, or -1 when out of memory. */
int pasta__merge_counts_build(const pasta_merge_counts *m, uint64_t processes,
                              pasta_profile *out);

/* How many merged entries have no spread (see above). */
size_t pasta__merge_counts_without_spread(const pasta_merge_counts *m);

#endif
