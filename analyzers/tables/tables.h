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

/* Writes the tables of `p` (finalized) to `out`, with at most `top_lines`
 * rows in the line table (0: no line table). Returns 0, or -1 when out of
 * memory or on a write error. */
int pasta__tables_write(FILE *out, const pasta_profile *p, unsigned top_lines);

#ifdef __cplusplus
}
#endif

#endif /* PASTA_ANALYZERS_TABLES_H */
