/*===- diag.h - PASTA's warnings and errors on stderr ---------------------===*
 *
 * Every layer's one-line messages to the user (docs/bad-input.md) start
 * "pasta: warning: " or "pasta: error: ". PASTA_WARN and PASTA_ERROR write
 * that prefix, then their arguments as fprintf's: the format must be a
 * string literal (the prefix is pasted onto it, so a message stays one
 * fprintf) and ends the line itself.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_PROFILE_DIAG_H
#define PASTA_PROFILE_DIAG_H

#include <stdio.h>

#define PASTA_WARN(...) fprintf(stderr, "pasta: warning: " __VA_ARGS__)
#define PASTA_ERROR(...) fprintf(stderr, "pasta: error: " __VA_ARGS__)

#endif
