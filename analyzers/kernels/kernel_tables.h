/*===- kernel_tables.h - Kernel frequency on the log ----------------------===*/
#ifndef PASTA_ANALYZERS_KERNEL_TABLES_H
#define PASTA_ANALYZERS_KERNEL_TABLES_H

#include <stdio.h>

#include "profile/activity.h"

/* Kernel-frequency table (top `top` kernels by GPU time, then launches),
 * their call paths and the memory summary. Returns 0 or -1 (out of memory or
 * write error). */
int pasta__activity_write_tables(FILE *out, const pasta_activity *a,
                                 unsigned top);

#endif
