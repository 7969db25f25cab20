/*===- div_tables.h - Divergence mode's tables ----------------------------===*/
#ifndef PASTA_ANALYZERS_DIV_TABLES_H
#define PASTA_ANALYZERS_DIV_TABLES_H

#include <stdio.h>

#include "pasta/profile.h"

/* When `p` (finalized) holds divergence figures: the divergence table of
 * kernels and shared device functions, and the top `top` lines by excess
 * sectors, by bank conflicts and by divergent branches. Nothing otherwise.
 * Returns 0, or -1 when out of memory or on a write error. */
int pasta__div_tables_write(FILE *out, const pasta_profile *p, unsigned top);

#endif
