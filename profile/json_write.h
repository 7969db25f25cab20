/*===- json_write.h - PASTA's one JSON writer -----------------------------===*
 *
 * Every JSON file PASTA writes (the profile, the .cats and Chrome traces,
 * pasta-report's merged profiles) is written with these. Strings are
 * escaped per RFC 8259; numbers never depend on the locale.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_PROFILE_JSON_WRITE_H
#define PASTA_PROFILE_JSON_WRITE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Writes `s` as a JSON string literal (quotes included), escaped per RFC
 * 8259; bytes that are not valid UTF-8 become U+FFFD. */
void pasta__json_write_string(FILE *out, const char *s);
/* The same, but each byte of an invalid UTF-8 sequence is written as
 * \u00XX (its value) instead of U+FFFD: the trace files' rule. */
void pasta__json_write_string_bytes(FILE *out, const char *s);
/* pasta__json_write_string, or null for NULL. */
void pasta__json_write_string_or_null(FILE *out, const char *s);
/* pasta__json_write_string_bytes with NULL read as "" (the trace files). */
void pasta__trace_write_string(FILE *out, const char *s);
/* Length of the valid UTF-8 sequence at `s` (1 to 4), or 0 if it is not
 * one. */
int pasta__json_utf8_length(const unsigned char *s);

/* `v` in decimal, without printf (the profile writes many of them). The
 * digits go to buf (at least 21 bytes, no terminator); returns their
 * number. */
size_t pasta__u64_digits(char *buf, uint64_t v);
void pasta__json_write_u64(FILE *out, uint64_t v);

/* A finite double with 9 significant digits, always a real (2.0, not 2);
 * null when it is not finite. */
void pasta__json_write_real(FILE *out, double x);
/* `"key":v` (after a comma unless first) with 6 significant digits; a
 * negative v (unknown) is null. The bandwidth section's numbers. */
void pasta__json_write_number(FILE *out, const char *key, double v, int first);
/* `v` printed with `format` (one double conversion) when it is finite,
 * else null (JSON has no NaN or infinity). */
void pasta__json_write_finite(FILE *out, const char *format, double v);
/* `,"key":v` and `,"key":"s"` (trace rule: NULL is ""). */
void pasta__json_write_key_u64(FILE *out, const char *key, uint64_t v);
void pasta__json_write_key_string(FILE *out, const char *key, const char *s);

#ifdef __cplusplus
}
#endif

#endif
