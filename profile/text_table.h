/*===- text_table.h - Plain-text tables for pasta-report ------------------===*
 *
 * A table whose columns are as wide as their widest cell, each column left-
 * or right-aligned, cells separated by two spaces (trailing spaces trimmed).
 * Used by pasta-report's diff tables (tools/pasta-report/) and
 * the trace analyses' tables (analyzers/trace/trace_tables.c).
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_PROFILE_TEXT_TABLE_H
#define PASTA_PROFILE_TEXT_TABLE_H

#include <stddef.h>
#include <stdint.h>
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

/* Prints the rows and frees them; t can be reused. Cells are printed as
 * pasta__text_safe shows them. */
void text_table_print_free(FILE *out, struct text_table *t);

/* Names and paths come from the program and from profile files, so they can
 * hold anything: text for a terminal shows them with every control
 * character (C0, DEL, and C1 in UTF-8), every bidirectional control and
 * line separator (U+061C, U+200E, U+200F, U+2028 to U+202E, U+2066 to
 * U+2069) and every byte that is not valid UTF-8 escaped, as \n, \r, \t,
 * \xHH (bytes) or \uXXXX, so that a name can neither move the cursor,
 * change colours, reorder the text around it nor end a row.
 * pasta__text_safe returns `s` when it needs no escaping (NULL stays NULL),
 * else `buf` (`size` bytes) holding the escaped text, cut short to fit.
 * 4 * strlen(s) + 1 bytes always suffice. pasta__text_write writes it. */
const char *pasta__text_safe(const char *s, char *buf, size_t size);
void pasta__text_write(FILE *out, const char *s);

/* pasta__short_names (demangle.h) of the names as pasta__text_safe shows
 * them: escaped before they are shortened, so that a cell never holds half
 * of an escape. Free the result with free(). */
char **pasta__short_safe_names(const char *const *names, size_t n,
                               size_t width);

/* Counts for a table cell: as they are below 100,000, else with K, M, G, T,
 * P or E (powers of 1000) and at most three significant digits ("1.20M").
 * pasta__cell_bytes the same for bytes: as they are below 1024 ("512B"),
 * else in KiB, MiB, ... (powers of 1024). Written to out[0, size). */
void pasta__cell_count(char *out, size_t size, uint64_t v);
void pasta__cell_bytes(char *out, size_t size, uint64_t v);

/* `path` with its "." components and each "DIR/.." pair removed, lexically
 * (the filesystem is not looked at, so a symbolic link is not followed):
 * "programs/../lib/lz4.c" is "lib/lz4.c", "/a/./b//c" is "/a/b/c"; a ".."
 * that climbs above the start of a relative path is kept. Written to `buf`
 * (`size` bytes, cut short to fit); returns `buf` ("." for an empty
 * result), or NULL for a NULL path. */
const char *pasta__path_normal(const char *path, char *buf, size_t size);

#endif
