/*===- profile_read.h - The core of a JSON profile, read back -------------===*
 *
 * The inverse of profile_json.h: a parsed profile (json_read.h) checked
 * against PASTA_PROFILE_SCHEMA and the versions this reader knows, and its
 * header, functions, lines and "merged_from" read into the runtime's own
 * model (pasta/profile.h, through pasta_profile_add_func/_line), so the
 * tools print and write it with the runtime's code. Strict, unlike the
 * section readers: a missing or mistyped member is an error. Uses jansson,
 * so it is part of the tools only.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_PROFILE_PROFILE_READ_H
#define PASTA_PROFILE_PROFILE_READ_H

#include <jansson.h>
#include <stddef.h>

#include "pasta/profile.h"

/* Which functions and lines to keep (pasta-report show's filters); NULL
 * members keep everything. `line` sees the profile read so far, whose
 * functions are all read before the first line. */
typedef struct pasta_profile_keep {
  int (*func)(const pasta_profile_func *f, void *arg);
  int (*line)(const pasta_profile *p, const pasta_profile_line *l, void *arg);
  void *arg;
} pasta_profile_keep;

/* Reads `root` into `p` (initialised and empty), keeping what `keep` (may
 * be NULL) selects, and finalizes it. Strings are copied: `root` may go
 * after. Returns 0, or -1 with the first error in `err` (then `p` is
 * freed). */
int pasta__profile_read_json(json_t *root, const pasta_profile_keep *keep,
                             pasta_profile *p, char *err, size_t size);

/* Names a profile shows to people ("name", "function", "kernel",
 * "funcname" members, at any depth) demangled in place when they demangle
 * (demangle.h); "mangled" is left alone. The runtime demangles them when
 * the program has a C++ runtime; a reader that has one makes every
 * profile look the same. */
void pasta__profile_json_demangle(json_t *v);

#endif
