/*===- report.h - pasta-report's internals shared between its files -------===*
 *
 * The command line (pasta_report.c) hands each command (report_show.c,
 * report_merge.c, report_diff.c) its arguments; every file reports errors
 * the same way and reads profiles through report_load.c.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_TOOLS_REPORT_H
#define PASTA_TOOLS_REPORT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pasta/profile.h"
#include "profile/profile_read.h"

/* Counts saturate instead of wrapping. */
static inline uint64_t pasta__sat_add(uint64_t a, uint64_t b) {
  return a + b < a ? UINT64_MAX : a + b;
}

/* "pasta-report: error: ..." on one line. File names (from a directory or
 * a pattern) and the text near a JSON syntax error (from the file) can hold
 * anything: the message is written as pasta__text_write shows text, with
 * control characters and invalid UTF-8 escaped, so neither can send the
 * terminal an escape sequence or split the line. */
void pasta__report_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
/* "pasta-report: warning: ..." on one line, escaped alike. */
void pasta__report_warning(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
/* A command-line error: the line above, then the usage. Returns 2. */
int pasta__usage_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
/* diff: the divergence figures of the kernels that have some in either
 * profile (report_diff_div.c); nothing when neither has any. Returns 0, or
 * -1 when out of memory. */
int pasta__report_diff_divergence(FILE *out, const pasta_profile *before,
                                  const pasta_profile *after);
/* Flushes `out`; returns 0, or 1 after an error line naming `what`. */
int pasta__finish_output(FILE *out, const char *what);

/* --source-root options of `html`, at most this many. */
enum { PASTA__MAX_SOURCE_ROOTS = 16 };

/* pasta-report's command line (host_rt/options.h has the runtime's). */
struct pasta__report_args {
  const char **positional; /* into argv; as many as there are */
  size_t num_positional;
  const char *kernel, *file, *format;
  const char *output;                                    /* -o / --output */
  const char *source_roots[PASTA__MAX_SOURCE_ROOTS + 1]; /* NULL-ended */
  size_t num_source_roots;
  size_t top;
  int have_top, lines, force, diff;
};

/* The options of argv[2...]; `allowed` lists the command's own, separated
 * by spaces. Returns 0, or 2 after a usage error. */
int pasta__parse_args(int argc, char **argv, const char *allowed,
                      struct pasta__report_args *o);

/* A --search-dir for the call-path symbolizer; -1 when there are 16. */
int pasta__add_search_dir(const char *dir);

/* Reads `path` into `p` (initialised here, finalized on success), keeping
 * what `keep` (may be NULL) selects. With `parsed`, the parsed document
 * (json_read.h) is left there for the caller to read the other sections
 * from (json_decref it). Returns 0, or 2 after printing one error line. */
int pasta__load_profile(const char *path, const pasta_profile_keep *keep,
                        pasta_profile *p, json_t **parsed);

int pasta__cmd_show(int argc, char **argv);
int pasta__cmd_merge(int argc, char **argv);
int pasta__cmd_diff(int argc, char **argv);
int pasta__cmd_html(int argc, char **argv);

#endif
