/*===- cats_file.h - The C.A.T.S. trace file ------------------------------===*/
#ifndef PASTA_ANALYZERS_CATS_FILE_H
#define PASTA_ANALYZERS_CATS_FILE_H

#include <stdio.h>

#include "profile/trace_model.h"

#define PASTA_CATS_FORMAT "pasta-cats"

/* Writes `t` as one .cats JSON document. Returns 0; -1 with errno EINVAL
 * (nothing written) when an event has an unknown type or scope kind, or -1
 * on a write error. */
int pasta__cats_write(FILE *out, const struct pasta_trace *t);

#endif
