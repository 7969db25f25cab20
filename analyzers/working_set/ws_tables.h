/*===- ws_tables.h - The working-set tables on the log --------------------===*/
#ifndef PASTA_ANALYZERS_WS_TABLES_H
#define PASTA_ANALYZERS_WS_TABLES_H

#include <stdio.h>

#include "profile/activity.h"

/* Working-set statistics and the per-kernel working-set table, with
 * warnings for accesses outside every allocation and untracked launches.
 * Returns 0 or -1. */
int pasta__activity_write_ws_tables(FILE *out, const pasta_activity *a,
                                    unsigned top);

#endif
