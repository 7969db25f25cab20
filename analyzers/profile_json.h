/*===- profile_json.h - PASTA's JSON profile writer -----------------------===*
 *
 * Writes a finalized profile in the format of docs/profile-format.md.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_ANALYZERS_PROFILE_JSON_H
#define PASTA_ANALYZERS_PROFILE_JSON_H

#include <stdio.h>

#include "profile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The "version" the writer emits; readers read it and the older ones down
 * to PASTA_PROFILE_VERSION_OLDEST (docs/profile-format.md, "Versions"). */
#define PASTA_PROFILE_SCHEMA "pasta-profile"
#define PASTA_PROFILE_VERSION 2
#define PASTA_PROFILE_VERSION_OLDEST 1

/* Writes `p` (finalized) as one JSON document. Returns 0, or -1 on a write
 * error (errno is then the stream's). */
int pasta_profile_write_json(FILE *out, const pasta_profile *p);

/* The same document without its closing "}\n", for writers that append
 * members of their own (pasta-report merge). Returns 0 or -1. */
int pasta_profile_write_json_members(FILE *out, const pasta_profile *p);

/* Writes `s` as a JSON string literal (quotes included), escaped per RFC
 * 8259; bytes that are not valid UTF-8 become U+FFFD. */
void pasta_json_write_string(FILE *out, const char *s);
/* The same, but each byte of an invalid UTF-8 sequence is written as
 * \u00XX (its value) instead of U+FFFD: the trace files' rule. */
void pasta_json_write_string_bytes(FILE *out, const char *s);
/* Length of the valid UTF-8 sequence at `s` (1 to 4), or 0 if it is not
 * one. */
int pasta_json_utf8_length(const unsigned char *s);

#ifdef __cplusplus
}
#endif

#endif /* PASTA_ANALYZERS_PROFILE_JSON_H */
