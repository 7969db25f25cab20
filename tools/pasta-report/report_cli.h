/*===- report_cli.h - pasta-report's command line, shared by its commands -===*
 *
 * The bottom of the tool (report_cli.c): every command parses its options,
 * reports errors and finishes its output through these; the dispatcher
 * (pasta_report.c) prints the usage and sets the parser up.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_TOOLS_REPORT_CLI_H
#define PASTA_TOOLS_REPORT_CLI_H

#include <stddef.h>
#include <stdio.h>

/* The usage lines (also printed after a command-line error). */
void pasta__report_usage(FILE *out);

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
/* Flushes `out`; returns 0, or 1 after an error line naming `what`. */
int pasta__finish_output(FILE *out, const char *what);

/* --source-root options of `html`, --search-dir options, at most this
 * many. */
enum { PASTA__MAX_SOURCE_ROOTS = 16, PASTA__MAX_SEARCH_DIRS = 16 };

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

/* Room for the positional arguments of a command line of argc words, before
 * pasta__parse_args (-1 when out of memory); pasta__cli_end frees it. */
int pasta__cli_begin(int argc);
void pasta__cli_end(void);

/* The --search-dir values given so far, NULL-ended, for the call-path
 * symbolizer (report_load.c). */
const char *const *pasta__search_dirs(void);

#endif
