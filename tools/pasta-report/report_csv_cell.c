/*===- report_csv_cell.c - One CSV cell (pasta-report) --------------------===*
 *
 * The bottom of pasta-report's CSV: a string as a field, and a JSON value
 * at a dotted path as a cell. The section blocks (report_csv.c) and the
 * per-rank columns (report_ranks.c) both write through these.
 *===----------------------------------------------------------------------===*/
#include "report_csv_cell.h"

#include "profile/json_read.h"
#include "profile/text_table.h"

#include <stdlib.h>
#include <string.h>

/* Whether s is a decimal number, as JSON or C writes one ("-5", "+1.5e3"). */
static int is_number(const char *s) {
  char *end;
  if (!*s || strchr(" \t\n", *s))
    return 0;
  (void)strtod(s, &end);
  return !*end && end != s && !strpbrk(s, "xXnNiIpP");
}

void pasta__csv_string(FILE *out, const char *s) {
  if (!s)
    return;
  /* Control characters and invalid UTF-8 are escaped first, as the text
   * tables show them (pasta__text_safe): a CSV file is read in terminals and
   * by line-oriented tools, so a cell never holds a line break or an
   * escape sequence. */
  size_t size = 4 * strlen(s) + 1;
  char stack[1024], *heap = size > sizeof stack ? malloc(size) : NULL;
  char *buf = heap ? heap : stack;
  s = pasta__text_safe(s, buf, heap ? size : sizeof stack);
  /* A spreadsheet evaluates a cell starting with = + - @ as a formula
   * (=HYPERLINK(...), +cmd|...): a name or path from someone else's profile
   * that starts so is quoted behind a ' (OWASP's CSV injection advice), so
   * it opens as text. A number written as a string stays as it is. */
  int formula = strchr("=+-@", s[0]) && s[0] && !is_number(s);
  if (!formula && !strpbrk(s, ",\"") && s[0] != ' ' &&
      (!*s || s[strlen(s) - 1] != ' ')) {
    fputs(s, out);
  } else {
    putc('"', out);
    if (formula)
      putc('\'', out);
    for (; *s; ++s) {
      if (*s == '"')
        putc('"', out);
      putc(*s, out);
    }
    putc('"', out);
  }
  free(heap);
}

json_t *pasta__csv_at(json_t *o, const char *path) {
  while (o && *path) {
    char key[64];
    size_t n = strcspn(path, ".");
    snprintf(key, sizeof key, "%.*s", (int)n, path);
    o = json_object_get(o, key);
    path += n + (path[n] == '.');
  }
  return o;
}

void pasta__csv_cell(FILE *out, json_t *v) {
  const char *s = json_string_value(v);
  if (!v || json_is_null(v))
    return;
  if (s && !pasta__json_big_digits(v)) {
    pasta__csv_string(out, s);
  } else if (json_is_object(v) || json_is_array(v)) {
    /* Not what the format puts there, but a cell all the same: the JSON
     * text, quoted (it has commas). */
    char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    pasta__csv_string(out, text ? text : "");
    free(text);
  } else {
    pasta__json_dump(out, v);
  }
}
