/*===- text_table.c - Plain-text tables for pasta-report ------------------===*/
#include "text_table.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int text_table_row(struct text_table *t, ...) {
  if (t->rows == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 16;
    char **cells = realloc(t->cells, cap * t->cols * sizeof *cells);
    if (!cells)
      return -1;
    t->cells = cells;
    t->cap = cap;
  }
  va_list ap;
  va_start(ap, t);
  int err = 0;
  for (size_t c = 0; c < t->cols; ++c) {
    const char *s = va_arg(ap, const char *);
    char *copy = malloc(strlen(s) + 1);
    if (copy)
      strcpy(copy, s);
    else
      err = -1;
    t->cells[t->rows * t->cols + c] = copy;
  }
  va_end(ap);
  ++t->rows;
  return err;
}

void text_table_print_free(FILE *out, struct text_table *t) {
  size_t width[16] = {0};
  for (size_t r = 0; r < t->rows; ++r)
    for (size_t c = 0; c < t->cols && c < 16; ++c) {
      const char *s = t->cells[r * t->cols + c];
      size_t w = s ? strlen(s) : 0;
      width[c] = w > width[c] ? w : width[c];
    }
  for (size_t r = 0; r < t->rows; ++r) {
    char line[1024];
    size_t len = 0;
    for (size_t c = 0; c < t->cols && c < 16; ++c) {
      const char *s = t->cells[r * t->cols + c];
      int n = snprintf(line + len, sizeof line - len, "  %*s",
                       t->left[c] ? -(int)width[c] : (int)width[c], s ? s : "");
      if (n > 0)
        len += (size_t)n < sizeof line - len ? (size_t)n : 0;
    }
    while (len && line[len - 1] == ' ')
      line[--len] = '\0';
    fprintf(out, "%s\n", line);
  }
  for (size_t i = 0; i < t->rows * t->cols; ++i)
    free(t->cells[i]);
  free(t->cells);
  t->cells = NULL;
  t->rows = t->cap = 0;
}
