/*===- html_internal.h - Pieces shared by the report and the diff page ----===*
 *
 * Escaping and number cells (html_page.c), the page frame with the embedded
 * CSS and JavaScript, source files found and split into lines
 * (html_source.c), the profile's lines summed per source line, and the
 * source view built from them (html_source_view.c).
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_ANALYZERS_HTML_INTERNAL_H
#define PASTA_ANALYZERS_HTML_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "html_report.h"

/* report.css and report.js (cmake/embed_text.cmake). */
extern const char pasta__html_css[];
extern const char pasta__html_js[];

/* `s` as HTML text or attribute value: & < > " ' escaped, control
 * characters but tab as '?'. NULL writes nothing. */
void pasta__html_text(FILE *out, const char *s);
/* 1234567 as "1,234,567". */
void pasta__html_u64(FILE *out, uint64_t v);
/* A sortable number cell: data-v holds the exact value, the text has
 * thousands separators (empty when `blank` and v is 0). */
void pasta__html_num_cell(FILE *out, const char *col, uint64_t v, int blank);
/* A real number cell (data-v exact, text with 4 significant digits); "-"
 * when v < 0 (unknown). */
void pasta__html_real_cell(FILE *out, const char *col, double v);
/* A time in ns, us, ms or s (4 significant digits). */
void pasta__html_time(FILE *out, uint64_t ns);
/* A time cell: data-v in ns, the text as pasta__html_time writes it. */
void pasta__html_time_cell(FILE *out, const char *col, uint64_t ns);

/* <!DOCTYPE html> ... <body> with the title, and the page's end (the
 * script). The page forbids every network request (a CSP meta tag). */
void pasta__html_begin(FILE *out, const char *title);
int pasta__html_end(FILE *out);

/* A source file, found and split into lines. */
typedef struct pasta_html_source {
  char *path;  /* where it was found, or NULL when it was not */
  char *text;  /* its bytes, NUL-terminated */
  char **line; /* line[i] is line i + 1, without its newline */
  size_t num_lines;
} pasta_html_source;

/* Looks for `file` under each of `roots` (html_report.h says how), then as
 * recorded. A file not found gives path NULL and no lines. Returns 0, or -1
 * when out of memory. */
int pasta__html_source_load(const char *file, const char *const *roots,
                            pasta_html_source *src);
void pasta__html_source_free(pasta_html_source *src);

/* The profile's lines summed per (file, line): one source line's counts
 * over every function and kind that has code there. */
typedef struct pasta_html_line {
  const char *file; /* the profile's string */
  uint32_t line;
  uint64_t executions;
  pasta_counts counts;
  const char *function; /* the first function with code there */
  unsigned num_functions;
} pasta_html_line;

/* Sorted by file, then line; lines without a file are left out. *out is
 * malloc'd. Returns 0 or -1 (out of memory). */
int pasta__html_lines(const pasta_profile *p, pasta_html_line **out, size_t *n);
/* A kernel's GPU time in ns: the timed launches' sum when every launch
 * that ran was timed, else (sampled timing, PASTA_TIMING) their mean times
 * the launches that ran, as the stderr report estimates it (*estimated set
 * to 1). 0 for NULL or a kernel without a timed launch. */
uint64_t pasta__html_kernel_time(const pasta_activity_kernel *k,
                                 int *estimated);
/* Load, store and atomic bytes of one address space (saturating, as the
 * profile's totals do). */
uint64_t pasta__html_space_bytes(const pasta_counts *c, unsigned space);
/* What the heat bar and the "hottest" order use: bytes + FLOPs, as the
 * profile sorts its lines (saturating). */
uint64_t pasta__html_line_weight(const pasta_counts *c);

/* The source view of one profile (html_source_view.c): the summed lines,
 * the distinct files (hottest first), which optional columns any line
 * fills, and the hottest line's weight (a full heat bar). */
enum { PASTA_HTML_MAX_LINE_COLUMNS = 32 };
typedef struct pasta_html_source_view {
  pasta_html_line *lines; /* by file, then line */
  size_t num_lines;
  const char **files;
  size_t num_files;
  unsigned char shown[PASTA_HTML_MAX_LINE_COLUMNS];
  uint64_t max_weight;
} pasta_html_source_view;

/* Returns 0, or -1 when out of memory. */
int pasta__html_source_view_init(pasta_html_source_view *v,
                                 const pasta_profile *p);
void pasta__html_source_view_free(pasta_html_source_view *v);
/* The "Source" section. Returns 0, or -1 (write error, out of memory). */
int pasta__html_write_sources(FILE *out, const pasta_html_input *in,
                              const pasta_html_source_view *v);

#endif
