/*===- json_write.c - PASTA's one JSON writer -----------------------------===*
 *
 * A small hand-written emitter on purpose: this code is linked into every
 * instrumented program (through libpasta_rt), so it must not pull in a JSON
 * library or any other shared-library dependency beyond libc.
 *===----------------------------------------------------------------------===*/
#include "json_write.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

int pasta__json_utf8_length(const unsigned char *s) {
  unsigned char b = s[0];
  unsigned char lo = 0x80, hi = 0xbf;
  int n;
  if (b < 0x80)
    return 1;
  if (b >= 0xc2 && b <= 0xdf)
    n = 2;
  else if (b >= 0xe0 && b <= 0xef) {
    n = 3;
    if (b == 0xe0)
      lo = 0xa0;
    else if (b == 0xed)
      hi = 0x9f; /* no surrogates */
  } else if (b >= 0xf0 && b <= 0xf4) {
    n = 4;
    if (b == 0xf0)
      lo = 0x90;
    else if (b == 0xf4)
      hi = 0x8f; /* up to U+10FFFF */
  } else
    return 0;
  if (s[1] < lo || s[1] > hi)
    return 0;
  for (int i = 2; i < n; ++i)
    if (s[i] < 0x80 || s[i] > 0xbf)
      return 0;
  return n;
}

/* Invalid UTF-8 bytes become U+FFFD (profiles), or \u00XX of the byte
 * (traces: a reader gets the byte's value back). */
static void write_json_string(FILE *out, const char *s, int keep_bytes) {
  const unsigned char *p = (const unsigned char *)s;
  putc('"', out);
  while (*p) {
    /* A run of printable ASCII that needs no escape, in one write: a
     * profile's C++ names run to kilobytes each. */
    const unsigned char *run = p;
    while (*p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
      ++p;
    if (p > run)
      fwrite(run, 1, (size_t)(p - run), out);
    if (!*p)
      break;
    unsigned char c = *p;
    switch (c) {
    case '"':
      fputs("\\\"", out);
      break;
    case '\\':
      fputs("\\\\", out);
      break;
    case '\b':
      fputs("\\b", out);
      break;
    case '\f':
      fputs("\\f", out);
      break;
    case '\n':
      fputs("\\n", out);
      break;
    case '\r':
      fputs("\\r", out);
      break;
    case '\t':
      fputs("\\t", out);
      break;
    default:
      if (c < 0x20) {
        fprintf(out, "\\u%04x", c);
      } else {
        int n = pasta__json_utf8_length(p);
        if (!n) {
          if (keep_bytes)
            fprintf(out, "\\u%04x", c);
          else
            fputs("\\ufffd", out);
          n = 1;
        } else {
          fwrite(p, 1, (size_t)n, out);
        }
        p += n;
        continue;
      }
    }
    ++p;
  }
  putc('"', out);
}

void pasta__json_write_string(FILE *out, const char *s) {
  write_json_string(out, s, 0);
}

void pasta__json_write_string_bytes(FILE *out, const char *s) {
  write_json_string(out, s, 1);
}

void pasta__json_write_string_or_null(FILE *out, const char *s) {
  if (s)
    pasta__json_write_string(out, s);
  else
    fputs("null", out);
}

void pasta__trace_write_string(FILE *out, const char *s) {
  pasta__json_write_string_bytes(out, s ? s : "");
}

size_t pasta__u64_digits(char *buf, uint64_t v) {
  char tmp[20];
  size_t n = 0;
  do {
    tmp[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  for (size_t i = 0; i < n; ++i)
    buf[i] = tmp[n - 1 - i];
  return n;
}

void pasta__json_write_u64(FILE *out, uint64_t v) {
  char buf[24];
  fwrite(buf, 1, pasta__u64_digits(buf, v), out);
}

void pasta__json_write_real(FILE *out, double x) {
  char buf[64];
  if (!isfinite(x)) {
    fputs("null", out);
    return;
  }
  snprintf(buf, sizeof buf, "%.9g", x);
  int real = 0;
  for (char *c = buf; *c; ++c) {
    if (*c == ',')
      *c = '.';
    real |= *c == '.' || *c == 'e';
  }
  fputs(buf, out);
  if (!real)
    fputs(".0", out); /* always a real: 2.0, not 2 */
}

void pasta__json_write_number(FILE *out, const char *key, double v, int first) {
  fprintf(out, "%s\"%s\":", first ? "" : ",", key);
  if (v < 0)
    fputs("null", out);
  else
    fprintf(out, "%.6g", v);
}

void pasta__json_write_key_u64(FILE *out, const char *key, uint64_t v) {
  fprintf(out, ",\"%s\":%" PRIu64, key, v);
}

void pasta__json_write_key_string(FILE *out, const char *key, const char *s) {
  fprintf(out, ",\"%s\":", key);
  pasta__trace_write_string(out, s);
}

void pasta__json_write_finite(FILE *out, const char *format, double v) {
  if (v == v && v - v == 0)
    fprintf(out, format, v);
  else
    fputs("null", out);
}
