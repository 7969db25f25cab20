/*===- profile_json.h - PASTA's JSON profile writer -----------------------===*
 *
 * Writes a finalized profile in the format of docs/profile-format.md.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_PROFILE_PROFILE_JSON_H
#define PASTA_PROFILE_PROFILE_JSON_H

#include <stdio.h>

#include "pasta/profile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The "version" the writer emits; readers read it and the older ones down
 * to PASTA_PROFILE_VERSION_OLDEST (docs/profile-format.md, "Versions"). */
#define PASTA_PROFILE_SCHEMA "pasta-profile"
#define PASTA_PROFILE_VERSION 6
#define PASTA_PROFILE_VERSION_OLDEST 1

/* Writes `p` (finalized) as one JSON document. Returns 0, or -1 on a write
 * error (errno is then the stream's). */
int pasta__profile_write_json(FILE *out, const pasta_profile *p);

/* The same document without its closing "}\n", for writers that append
 * members of their own (pasta-report merge). Returns 0 or -1. */
int pasta__profile_write_json_members(FILE *out, const pasta_profile *p);

#ifdef __cplusplus
}
#endif

#endif /* PASTA_PROFILE_PROFILE_JSON_H */
