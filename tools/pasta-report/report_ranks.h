/*===- report_ranks.h - Per-rank spread of a merged profile (show) --------===*
 *
 * How `pasta-report show` prints the "ranks" of a merged profile's
 * functions and lines (docs/profile-format.md): a table of each count's
 * min, mean, max, imbalance (max / mean) and the rank holding the max, and
 * in CSV the same as columns of the function and line tables, plus a
 * "processes" block naming each process's rank, host and GPUs.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_TOOLS_REPORT_RANKS_H
#define PASTA_TOOLS_REPORT_RANKS_H

#include <stddef.h>
#include <stdio.h>

#include "pasta/profile.h"

/* The table, when `p` is a merged profile: its functions and its first
 * `top` lines, one row per count that is not 0. Returns 0, or -1 when out
 * of memory. */
int pasta__ranks_write_table(FILE *out, const pasta_profile *p, size_t top);

/* CSV columns ranks.<count>.{min,mean,max,imbalance,max_rank} for the
 * three counts (`work_key` names the first), after a row's others; empty
 * cells for an entry without a spread. Only for merged profiles. */
void pasta__csv_ranks_header(FILE *out, const char *work_key);
void pasta__csv_ranks(FILE *out, const pasta_profile *p,
                      const pasta_rank_stats *r, uint64_t work,
                      const pasta_counts *c);

/* The "# processes" block: index, file, program, pid, rank, size,
 * local_rank, host and GPU UUIDs of each process of a merged profile. */
void pasta__csv_processes(FILE *out, const pasta_profile *p);

#endif
