/*===- json_read.h - PASTA's one JSON reader (jansson) --------------------===*
 *
 * The reading counterpart of json_write.h, for the tools (pasta-report, the
 * fuzz targets, the tests): loading a profile file so that every count
 * survives, lenient getters for the section readers (activity_read.h,
 * trace_read.h), and writing a parsed value back as the writers write it.
 * Uses jansson, so it is never part of libpasta_rt.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_PROFILE_JSON_READ_H
#define PASTA_PROFILE_JSON_READ_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Integers above INT64_MAX are valid in a profile (counts are unsigned
 * 64-bit) but not in jansson: pasta__json_load_file turns such tokens into
 * strings with this prefix before parsing, and the readers accept them. */
#define PASTA_JSON_BIG_PREFIX "\001u64:"

/* Parses the file at `path` (duplicate keys rejected), big integers quoted
 * as above. Returns the document, or NULL with one line in `err` (the
 * system's error, or where the JSON is not valid). */
json_t *pasta__json_load_file(const char *path, char *err, size_t size);

/* The same for `len` bytes of JSON text in memory. */
json_t *pasta__json_load_text(const char *text, size_t len, char *err,
                              size_t size);

/* The digits of a big integer quoted as above, or NULL when `v` is not
 * one. */
const char *pasta__json_big_digits(json_t *v);

/* Lenient getters: member `key` of `o` (any of them may be missing).
 * pasta__json_u64: an unsigned integer (a big one as above, a real
 * clamped), 0 when it is missing, null or negative. pasta__json_num: a
 * number, or `null_value`. pasta__json_str: a string, or NULL. */
uint64_t pasta__json_u64(json_t *o, const char *key);
double pasta__json_num(json_t *o, const char *key, double null_value);
const char *pasta__json_str(json_t *o, const char *key);

/* `v` as a JSON integer, or as a big integer quoted as above. NULL when
 * out of memory. */
json_t *pasta__json_u64_value(uint64_t v);

/* Writes `v` as compact JSON (keys in their order in `v`): a string with
 * PASTA_JSON_BIG_PREFIX as the integer it stands for, a real number with
 * the fewest digits that read back as the same double, and every other
 * string escaped as the profile writer does. So a section read by
 * pasta-report is written back with the same values. Returns 0, or -1 on a
 * write error. */
int pasta__json_dump(FILE *out, json_t *v);

#endif
