/*===- text_table.h - Plain-text tables for pasta-report ------------------===*
 *
 * A table whose columns are as wide as their widest cell, each column left-
 * or right-aligned, cells separated by two spaces (trailing spaces trimmed).
 * Used by pasta-report's diff tables (pasta_report.c, report_activity.c) and
 * the trace analyses' tables (cats.c).
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_ANALYZERS_TEXT_TABLE_H
#define PASTA_ANALYZERS_TEXT_TABLE_H

#include <stddef.h>
#include <stdio.h>

struct text_table {
  size_t cols;     /* at most 16 are printed */
  const int *left; /* per column: left-aligned */
  char **cells;    /* rows * cols, owned */
  size_t rows, cap;
};

/* Appends a row of t->cols strings (copied). Returns 0, or -1 when out of
 * memory (the row is still added; its missing cells print empty). */
int text_table_row(struct text_table *t, ...);
/* The same with the row's t->cols strings in an array. */
int text_table_add(struct text_table *t, const char *const *cells);

/* Prints the rows and frees them; t can be reused. */
void text_table_print_free(FILE *out, struct text_table *t);

#endif
