/*===- text_table.c - Plain-text tables for pasta-report ------------------===*/
#include "text_table.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int text_table_add(struct text_table *t, const char *const *cells) {
  if (t->rows == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 16;
    char **grown = realloc(t->cells, cap * t->cols * sizeof *grown);
    if (!grown)
      return -1;
    t->cells = grown;
    t->cap = cap;
  }
  int err = 0;
  for (size_t c = 0; c < t->cols; ++c) {
    char *copy = malloc(strlen(cells[c]) + 1);
    if (copy)
      strcpy(copy, cells[c]);
    else
      err = -1;
    t->cells[t->rows * t->cols + c] = copy;
  }
  ++t->rows;
  return err;
}

int text_table_row(struct text_table *t, ...) {
  const char *cells[16];
  va_list ap;
  va_start(ap, t);
  for (size_t c = 0; c < t->cols && c < 16; ++c)
    cells[c] = va_arg(ap, const char *);
  va_end(ap);
  return text_table_add(t, cells);
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
