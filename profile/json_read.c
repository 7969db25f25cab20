/*===- json_read.c - PASTA's one JSON reader (jansson) --------------------===*
 *
 * Loading (with the big-integer pre-lexer), the lenient getters and the
 * dump that writes a parsed value back (json_read.h).
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "json_read.h"
#include "json_write.h"
#include "output_file.h"
#include "profile_json.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/*===-- Loading -----------------------------------------------------------===*/

/* PASTA_JSON_BIG_PREFIX as it is written inside a JSON string. */
#define BIG_PREFIX_JSON "\\u0001u64:"

/* Copies `text`, turning each integer token above INT64_MAX outside
 * strings into a string with PASTA_JSON_BIG_PREFIX. */
static char *quote_big_integers(const char *text, size_t len, size_t *out_len) {
  size_t cap = 2 * len + 1;
  char *out = malloc(cap);
  if (!out)
    return NULL;
  size_t o = 0;
  int in_string = 0;
  for (size_t i = 0; i < len;) {
    char c = text[i];
    if (in_string) {
      out[o++] = c;
      ++i;
      if (c == '\\' && i < len)
        out[o++] = text[i++];
      else if (c == '"')
        in_string = 0;
      continue;
    }
    if (c == '"') {
      in_string = 1;
      out[o++] = text[i++];
      continue;
    }
    if (c != '-' && (c < '0' || c > '9')) {
      out[o++] = text[i++];
      continue;
    }
    size_t start = i;
    int digits = 1;
    for (; i < len && text[i] && strchr("-+.eE0123456789", text[i]); ++i)
      digits &= text[i] >= '0' && text[i] <= '9';
    size_t n = i - start;
    int big = digits &&
              (n > 19 || (n == 19 &&
                          memcmp(text + start, "9223372036854775807", 19) > 0));
    if (big) {
      o += (size_t)sprintf(out + o, "\"%s", BIG_PREFIX_JSON);
      memcpy(out + o, text + start, n);
      o += n;
      out[o++] = '"';
    } else {
      memcpy(out + o, text + start, n);
      o += n;
    }
  }
  out[o] = '\0';
  *out_len = o;
  return out;
}

json_t *pasta__json_load_text(const char *text, size_t len, char *err,
                              size_t size) {
  size_t qlen = 0;
  char *quoted = quote_big_integers(text, len, &qlen);
  if (!quoted) {
    snprintf(err, size, "%s", strerror(ENOMEM));
    return NULL;
  }
  json_error_t jerr;
  json_t *root = json_loadb(quoted, qlen, JSON_REJECT_DUPLICATES, &jerr);
  free(quoted);
  if (!root)
    snprintf(err, size, "not valid JSON (line %d, column %d: %s)", jerr.line,
             jerr.column, jerr.text);
  return root;
}

json_t *pasta__json_load_file(const char *path, char *err, size_t size) {
  size_t len = 0;
  /* Never a device (/dev/zero would never end) and never more than the
   * limit (output_file.h). */
  char *text = pasta__read_capped(path, PASTA_MAX_INPUT_BYTES, &len, err, size);
  if (!text)
    return NULL;
  json_t *root = pasta__json_load_text(text, len, err, size);
  free(text);
  return root;
}

/*===-- Getters -----------------------------------------------------------===*/

const char *pasta__json_big_digits(json_t *v) {
  const char *s = json_string_value(v);
  size_t plen = strlen(PASTA_JSON_BIG_PREFIX);
  return s && strncmp(s, PASTA_JSON_BIG_PREFIX, plen) == 0 ? s + plen : NULL;
}

uint64_t pasta__json_u64(json_t *o, const char *key) {
  json_t *v = json_object_get(o, key);
  if (json_is_integer(v) && json_integer_value(v) >= 0)
    return (uint64_t)json_integer_value(v);
  if (json_is_real(v) && json_real_value(v) >= 0)
    return pasta_u64_from_double(json_real_value(v));
  const char *digits = pasta__json_big_digits(v);
  return digits ? (uint64_t)strtoull(digits, NULL, 10) : 0;
}

double pasta__json_num(json_t *o, const char *key, double null_value) {
  json_t *v = json_object_get(o, key);
  return json_is_number(v) ? json_number_value(v) : null_value;
}

const char *pasta__json_str(json_t *o, const char *key) {
  return json_string_value(json_object_get(o, key));
}

json_t *pasta__json_u64_value(uint64_t v) {
  if (v <= INT64_MAX)
    return json_integer((json_int_t)v);
  char text[48];
  snprintf(text, sizeof text, "%s%" PRIu64, PASTA_JSON_BIG_PREFIX, v);
  return json_string(text);
}

/*===-- Writing back ------------------------------------------------------===*/

/* The shortest "%.*g" that reads back as `x`, with a decimal point or an
 * exponent so that it reads back as a real. */
static void write_real(FILE *out, double x) {
  char buf[40];
  for (int prec = 1; prec <= 17; ++prec) {
    snprintf(buf, sizeof buf, "%.*g", prec, x);
    if (strtod(buf, NULL) == x)
      break;
  }
  fputs(buf, out);
  if (!strpbrk(buf, ".eEn"))
    fputs(".0", out);
}

static void dump_object(FILE *out, json_t *v) {
  const char *key;
  json_t *member;
  size_t i = 0;
  fputc('{', out);
  json_object_foreach(v, key, member) {
    if (i++)
      fputc(',', out);
    pasta__json_write_string(out, key);
    fputc(':', out);
    pasta__json_dump(out, member);
  }
  fputc('}', out);
}

static void dump_array(FILE *out, json_t *v) {
  size_t i;
  json_t *member;
  fputc('[', out);
  json_array_foreach(v, i, member) {
    if (i)
      fputc(',', out);
    pasta__json_dump(out, member);
  }
  fputc(']', out);
}

int pasta__json_dump(FILE *out, json_t *v) {
  const char *digits;
  switch (json_typeof(v)) {
  case JSON_OBJECT:
    dump_object(out, v);
    break;
  case JSON_ARRAY:
    dump_array(out, v);
    break;
  case JSON_STRING:
    if ((digits = pasta__json_big_digits(v)))
      fputs(digits, out);
    else
      pasta__json_write_string(out, json_string_value(v));
    break;
  case JSON_INTEGER:
    fprintf(out, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    break;
  case JSON_REAL:
    write_real(out, json_real_value(v));
    break;
  case JSON_TRUE:
    fputs("true", out);
    break;
  case JSON_FALSE:
    fputs("false", out);
    break;
  default:
    fputs("null", out);
    break;
  }
  return ferror(out) ? -1 : 0;
}
