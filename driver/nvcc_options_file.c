/*===- nvcc_options_file.c - nvcc's options files (-optf FILE, @FILE) -----===*
 *
 * See nvcc_internal.h: the arguments with every options file's arguments in
 * its place.
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "nvcc_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*===-- Options files (-optf FILE, @FILE) ---------------------------------===*/

/* nvcc reads more options from the files named by --options-file (-optf;
 * several comma-separated, as any list option). Their arguments take the
 * place of the option, as if written there. */
enum { OPTIONS_FILE_MAX = 1 << 20, OPTIONS_FILE_DEPTH = 8 };

/* Splits `text` into arguments, as a POSIX shell does without expansions:
 * blanks (space, tab, newline) separate; '...' keeps everything to the
 * next '; "..." keeps everything to the next unescaped " (a backslash
 * escapes " and \ inside); elsewhere a backslash keeps the next character
 * (and drops a newline). Returns 0, -1 when out of memory, or -2 when a
 * quote is not closed. */
static int split_options(const char *text, pasta_strlist *out) {
  size_t n = strlen(text);
  char *arg = malloc(n + 1);
  if (!arg)
    return -1;
  int rc = 0;
  const char *s = text;
  for (;;) {
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
      ++s;
    if (!*s)
      break;
    size_t len = 0;
    while (*s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r') {
      if (*s == '\'') {
        const char *end = strchr(s + 1, '\'');
        if (!end) {
          rc = -2;
          goto done;
        }
        memcpy(arg + len, s + 1, (size_t)(end - s - 1));
        len += (size_t)(end - s - 1);
        s = end + 1;
      } else if (*s == '"') {
        for (++s; *s && *s != '"'; ++s) {
          if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
            ++s;
          arg[len++] = *s;
        }
        if (!*s) {
          rc = -2;
          goto done;
        }
        ++s;
      } else if (*s == '\\' && s[1]) {
        if (s[1] != '\n')
          arg[len++] = s[1];
        s += 2;
      } else {
        arg[len++] = *s++;
      }
    }
    arg[len] = '\0';
    if (nv_push(out, arg)) {
      rc = -1;
      break;
    }
  }
done:
  free(arg);
  return rc;
}

static void expand_args(struct parse *p, int argc, char **argv, int at_files,
                        int depth, pasta_strlist *out);

/* Reads the options file `path` (named by option `how`: "-optf", "@") and
 * expands its arguments into `out`. */
static void options_file(struct parse *p, const char *how, const char *path,
                         int at_files, int depth, pasta_strlist *out) {
  const char *sep = strcmp(how, "@") ? " " : "";
  if (depth >= OPTIONS_FILE_DEPTH) {
    nv_error(p,
             "%s%s%s: options files nested more than %d deep (does one name "
             "itself?)",
             how, sep, path, OPTIONS_FILE_DEPTH);
    return;
  }
  FILE *f = fopen(path, "r");
  if (!f) {
    nv_error(p, "%s%s%s: cannot read the options file: %s", how, sep, path,
             strerror(errno));
    return;
  }
  char *text = malloc(OPTIONS_FILE_MAX + 1);
  errno = 0;
  size_t n = text ? fread(text, 1, OPTIONS_FILE_MAX + 1, f) : 0;
  int bad = text ? ferror(f) : 0, why = errno ? errno : EIO;
  fclose(f);
  if (!text) {
    p->failed = 1;
    return;
  }
  pasta_strlist args = {0};
  if (bad)
    nv_error(p, "%s%s%s: cannot read the options file: %s", how, sep, path,
             strerror(why));
  else if (n > OPTIONS_FILE_MAX)
    nv_error(p, "%s%s%s: an options file larger than 1 MiB", how, sep, path);
  else if (memchr(text, '\0', n))
    nv_error(p, "%s%s%s: not a text file of options", how, sep, path);
  else {
    text[n] = '\0';
    int rc = split_options(text, &args);
    if (rc == -2)
      nv_error(p, "%s%s%s: a quote is not closed", how, sep, path);
    p->failed |= rc == -1;
  }
  free(text);
  if (!p->out->error && args.num <= INT_MAX)
    expand_args(p, (int)args.num, args.at, at_files, depth + 1, out);
  nv_strlist_free(&args);
}

/* Copies argv[0..argc-1] into `out`, each -optf/--options-file FILE[,FILE]
 * (and @FILE when `at_files`) replaced by the arguments its files hold. */
static void expand_args(struct parse *p, int argc, char **argv, int at_files,
                        int depth, pasta_strlist *out) {
  for (int i = 0; i < argc && !p->out->error; ++i) {
    const char *arg = argv[i];
    if (at_files && arg[0] == '@' && arg[1]) {
      options_file(p, "@", arg + 1, at_files, depth, out);
      continue;
    }
    const char *name = arg[0] == '-' ? nv_spelling(arg) : "";
    size_t len = strcspn(name, "=");
    if (!((len == 4 && strncmp(name, "optf", 4) == 0) ||
          (len == 12 && strncmp(name, "options-file", 12) == 0))) {
      p->failed |= nv_push(out, arg);
      continue;
    }
    const char *list = name[len] == '=' ? name + len + 1 : NULL;
    if (!list && i + 1 < argc)
      list = argv[++i];
    if (!list || !*list) {
      nv_error(p, "%s needs a file", arg);
      return;
    }
    char how[16];
    snprintf(how, sizeof how, "%.*s", (int)(name - arg + len), arg);
    char *copy = strdup(list);
    if (!copy) {
      p->failed = 1;
      return;
    }
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save);
         tok && !p->out->error; tok = strtok_r(NULL, ",", &save))
      options_file(p, how, tok, at_files, depth, out);
    free(copy);
  }
}

/* argv[0] and the arguments after it, expanded, into p->expanded: 0, or -1
 * (an error, or out of memory). */
int nv_argv_expanded(struct parse *p, int argc, char **argv, int at_files) {
  p->failed |= nv_push(&p->expanded, argv[0]);
  expand_args(p, argc - 1, argv + 1, at_files, 0, &p->expanded);
  if (p->expanded.num > INT_MAX)
    nv_error(p, "too many arguments");
  return p->failed || p->out->error ? -1 : 0;
}
