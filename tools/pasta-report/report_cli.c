/*===- report_cli.c - pasta-report's command line, shared by its commands -===*
 *
 * The bottom of pasta-report: the usage, the one-line error and warning
 * messages, the options each command parses, and the flush that checks the
 * output was written. It calls no other file of the tool.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* vasprintf */

#include "report_cli.h"

#include "profile/text_table.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: pasta-report show PROFILE [--kernel REGEX] [--file SUBSTR] "
    "[--top N]\n"
    "                         [--format table|csv|json] [--lines]\n"
    "       pasta-report merge OUT.json INPUT... [--force]\n"
    "       pasta-report diff BEFORE.json AFTER.json [--top N]\n"
    "       pasta-report html PROFILE.json [-o OUT.html] [--source-root DIR]\n"
    "       pasta-report html --diff BEFORE.json AFTER.json -o OUT.html\n"
    "       (each also takes --search-dir DIR, repeatable)\n"
    "       pasta-report --help\n";

void pasta__report_usage(FILE *out) { fputs(usage_text, out); }

/* "pasta-report: <what>: <message>\n", the message escaped
 * (pasta__text_write). */
static void report_line(const char *what, const char *fmt, va_list ap) {
  char *text = NULL;
  fprintf(stderr, "pasta-report: %s: ", what);
  if (vasprintf(&text, fmt, ap) >= 0) {
    pasta__text_write(stderr, text);
    free(text);
  } else {
    fputs("(out of memory)", stderr);
  }
  fputc('\n', stderr);
}

void pasta__report_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report_line("error", fmt, ap);
  va_end(ap);
}

void pasta__report_warning(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report_line("warning", fmt, ap);
  va_end(ap);
}

/* A command-line error: one line naming the problem, then the usage. */
int pasta__usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report_line("error", fmt, ap);
  va_end(ap);
  pasta__report_usage(stderr);
  return 2;
}

int pasta__finish_output(FILE *out, const char *what) {
  if (fflush(out) != 0 || ferror(out)) {
    pasta__report_error("cannot write %s: %s", what,
                        strerror(errno ? errno : EIO));
    return 1;
  }
  return 0;
}

/*===-- Command line ------------------------------------------------------===*/

/* Room for argc positional arguments (pasta__cli_begin allocates it): any
 * number of inputs, as many as the command line holds. */
static const char **positional_storage;

int pasta__cli_begin(int argc) {
  positional_storage = malloc((size_t)argc * sizeof *positional_storage);
  return positional_storage ? 0 : -1;
}

void pasta__cli_end(void) {
  free(positional_storage);
  positional_storage = NULL;
}

/* --search-dir values, for the call-path symbolizer (NULL-ended). */
static const char *search_dirs[PASTA__MAX_SEARCH_DIRS + 1];
static size_t num_search_dirs;

const char *const *pasta__search_dirs(void) { return search_dirs; }

int pasta__parse_args(int argc, char **argv, const char *allowed,
                      struct pasta__report_args *o) {
  memset(o, 0, sizeof *o);
  o->positional = positional_storage;
  for (int i = 2; i < argc; ++i) {
    /* -o is --output (the one short option, as compilers spell it). */
    const char *arg = strcmp(argv[i], "-o") == 0 ? "--output" : argv[i];
    if (strncmp(arg, "--", 2) != 0 || !arg[2]) {
      if (arg[0] == '-' && arg[1] && strcmp(arg, "--") != 0)
        return pasta__usage_error("unknown option '%s'", arg);
      o->positional[o->num_positional++] = arg;
      continue;
    }
    char name[32];
    const char *eq = strchr(arg, '=');
    size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
    snprintf(name, sizeof name, "%.*s", (int)(n < 31 ? n : 31), arg);
    char needle[40];
    snprintf(needle, sizeof needle, " %s ", name + 2);
    char list[128];
    snprintf(list, sizeof list, " %s ", allowed);
    if (n >= 31 || !strstr(list, needle))
      return pasta__usage_error("unknown option '%.*s' for '%s'", (int)n, arg,
                                argv[1]);
    int flag = !strcmp(name, "--lines") || !strcmp(name, "--force") ||
               !strcmp(name, "--diff");
    const char *value = NULL;
    if (flag) {
      if (eq)
        return pasta__usage_error("option '%s' takes no value", name);
    } else if (eq) {
      value = eq + 1;
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      return pasta__usage_error("option '%s' needs a value", name);
    }
    if (!strcmp(name, "--lines")) {
      o->lines = 1;
    } else if (!strcmp(name, "--force")) {
      o->force = 1;
    } else if (!strcmp(name, "--diff")) {
      o->diff = 1;
    } else if (!strcmp(name, "--output")) {
      o->output = value;
    } else if (!strcmp(name, "--source-root")) {
      if (o->num_source_roots == PASTA__MAX_SOURCE_ROOTS)
        return pasta__usage_error("too many --source-root options (at most "
                                  "%d)",
                                  PASTA__MAX_SOURCE_ROOTS);
      o->source_roots[o->num_source_roots++] = value;
    } else if (!strcmp(name, "--search-dir")) {
      if (num_search_dirs == PASTA__MAX_SEARCH_DIRS)
        return pasta__usage_error("too many --search-dir options (at most %d)",
                                  PASTA__MAX_SEARCH_DIRS);
      search_dirs[num_search_dirs++] = value;
    } else if (!strcmp(name, "--kernel")) {
      o->kernel = value;
    } else if (!strcmp(name, "--file")) {
      o->file = value;
    } else if (!strcmp(name, "--format")) {
      if (strcmp(value, "table") && strcmp(value, "csv") &&
          strcmp(value, "json"))
        return pasta__usage_error("unknown format '%s' (table, csv or json)",
                                  value);
      o->format = value;
    } else if (!strcmp(name, "--top")) {
      char *end;
      errno = 0;
      unsigned long long top = strtoull(value, &end, 10);
      if (!*value || *end || value[0] == '-' || errno)
        return pasta__usage_error("invalid --top value '%s'", value);
      o->top = top > SIZE_MAX ? SIZE_MAX : (size_t)top;
      o->have_top = 1;
    }
  }
  return 0;
}
