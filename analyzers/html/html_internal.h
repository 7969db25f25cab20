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
#include "profile/markup.h"

/* report.css and report.js (cmake/embed_text.cmake). */
extern const char pasta__html_css[];
extern const char pasta__html_js[];

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

/* "file:line", a link to the line in the source view when `file` is one
 * of its `files` (the view's index is the section's). */
void pasta__html_line_link(FILE *out, const char *const *files, size_t n,
                           const char *file, uint32_t line);

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
  int refused; /* found, but outside the allowed roots: not read */
} pasta_html_source;

/* Looks for `file` under each of `roots` (html_report.h says how), then as
 * recorded; with `allowed` (html_report.h, allowed_roots), a candidate
 * whose real path is outside them is skipped (src->refused is set when
 * one existed and nothing allowed was found); under `source_only`
 * (html_report.h, source_file_roots), only files named like source are
 * allowed. A file not found gives path
 * NULL and no lines. Returns 0, or -1 when out of memory. */
int pasta__html_source_load(const char *file, const char *const *roots,
                            const char *const *allowed,
                            const char *const *source_only,
                            pasta_html_source *src);
void pasta__html_source_free(pasta_html_source *src);

/* The profile's lines summed per (file, line): one source line's counts
 * and divergence figures over every function and kind that has code
 * there. */
typedef struct pasta_html_line {
  const char *file; /* the profile's string */
  uint32_t line;
  uint64_t executions;
  pasta_counts counts;
  uint64_t div[PASTA_DIV_NUM];
  uint32_t div_proven, div_measured; /* as pasta_profile_line's */
  /* A merged profile's per-process spread of the line's one entry; NULL
   * when it has none or when several entries were summed (spreads do not
   * add up). */
  const pasta_rank_stats *ranks;
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

/*===-- Divergence and per-rank figures (html_figures.c) ------------------===*/

/* Whether any kernel, function or line of `p` has divergence figures
 * (a PASTA_DIVERGENCE=1 run), and whether `p` is a merged profile with
 * per-process spreads. */
int pasta__html_has_divergence(const pasta_profile *p);
int pasta__html_has_ranks(const pasta_profile *p);

/* One divergence column: a count, or a ratio of two counts (ratio set;
 * "-" when its denominator is 0) written with `format`. */
typedef struct pasta_html_div_column {
  const char *key, *header, *title;
  uint64_t (*count)(const uint64_t *div);
  double (*ratio)(const uint64_t *div); /* < 0: no value */
  const char *format;                   /* of a ratio's text */
  int kernel_only;                      /* not a source-view column */
} pasta_html_div_column;

extern const pasta_html_div_column pasta__html_div_columns[];
extern const size_t pasta__html_num_div_columns;

/* The column's cell for `div`; an empty cell (data-v "") when div is NULL
 * (the entry has no figures). */
void pasta__html_div_cell(FILE *out, const pasta_html_div_column *c,
                          const uint64_t *div);
/* The <th> cells of the divergence columns (all, or the source view's). */
void pasta__html_div_headers(FILE *out, int source_view);

/* The kernels' (and shared device functions') divergence figures, when
 * the profile has any. */
void pasta__html_write_div_table(FILE *out, const pasta_profile *p);
/* A merged profile's per-process spreads of every function and of the
 * profile's first `top_lines` lines (links into the source view's
 * `files`), when it has any. */
void pasta__html_write_balance(FILE *out, const pasta_profile *p,
                               size_t top_lines, const char *const *files,
                               size_t num_files);
/* A line's spread in the source view: the imbalance (max / mean) of its
 * executions and the rank that holds the max; empty cells without a
 * spread. */
void pasta__html_line_rank_cells(FILE *out, const pasta_profile *p,
                                 const pasta_html_line *l);

/* The source view of one profile (html_source_view.c): the summed lines,
 * the distinct files (hottest first), which optional columns any line
 * fills, which figures the profile has, and per heat-bar measure the
 * hottest line's value (a full bar). */
enum { PASTA_HTML_MAX_LINE_COLUMNS = 32, PASTA_HTML_MAX_HEAT = 8 };
typedef struct pasta_html_source_view {
  const pasta_profile *profile;
  pasta_html_line *lines; /* by file, then line */
  size_t num_lines;
  const char **files;
  size_t num_files;
  unsigned char shown[PASTA_HTML_MAX_LINE_COLUMNS];
  int divergence, ranks;
  uint64_t max_heat[PASTA_HTML_MAX_HEAT];
  unsigned heat; /* the measure the bar starts on */
} pasta_html_source_view;

/* Returns 0, or -1 when out of memory. */
int pasta__html_source_view_init(pasta_html_source_view *v,
                                 const pasta_profile *p);
void pasta__html_source_view_free(pasta_html_source_view *v);
/* The "Source" section. Returns 0, or -1 (write error, out of memory). */
int pasta__html_write_sources(FILE *out, const pasta_html_input *in,
                              const pasta_html_source_view *v);

#endif
