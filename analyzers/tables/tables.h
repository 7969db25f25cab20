/*===- tables.h - PASTA's human-readable profile tables -------------------===*
 *
 * Renders a finalized profile as aligned text tables: kernels, device
 * functions shared by several kernels, host functions and the top lines.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_ANALYZERS_TABLES_H
#define PASTA_ANALYZERS_TABLES_H

#include <stdio.h>

#include "pasta/profile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the tables of `p` (finalized) to `out`, each ranked by bytes +
 * FLOPs, with at most `top` rows in every table (0: every function that ran
 * and no line table). Returns 0, or -1 when out of memory or on a write
 * error. */
int pasta__tables_write(FILE *out, const pasta_profile *p, unsigned top);

#ifdef __cplusplus
}
#endif

#endif /* PASTA_ANALYZERS_TABLES_H */
