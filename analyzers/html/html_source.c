/*===- html_source.c - Finding and reading the profile's source files -----===*
 *
 * A profile records each file as the compiler saw it, usually an absolute
 * path on the machine that built the program. The report reads the file
 * from there, or, for a profile made elsewhere, from a --source-root: the
 * recorded path's tails are tried under each root (/a/b/c.cu as ROOT/a/b/c.cu,
 * ROOT/b/c.cu, ROOT/c.cu), so a checkout of the same tree anywhere works.
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L /* strdup */

#include "html_internal.h"
#include "profile/output_file.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Larger files are left out (a generated file, not source to read). */
#define MAX_SOURCE_BYTES ((size_t)64 << 20)

/* The whole file, NUL-terminated, or NULL. Regular files only: a profile
 * naming /dev/stdin or a fifo must not hang the writer. */
static char *read_file(const char *path, size_t *size) {
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return NULL;
  char err[128];
  return pasta__read_capped(path, MAX_SOURCE_BYTES, size, err, sizeof err);
}

/* Splits src->text into lines in place ("\r\n" and "\n" both end one). */
static int split_lines(pasta_html_source *src, size_t size) {
  size_t count = 1;
  for (size_t i = 0; i < size; ++i)
    count += src->text[i] == '\n';
  src->line = malloc(count * sizeof *src->line);
  if (!src->line)
    return -1;
  char *s = src->text, *end = src->text + size;
  size_t n = 0;
  while (s < end) {
    char *nl = memchr(s, '\n', (size_t)(end - s));
    src->line[n++] = s;
    if (!nl)
      break;
    *nl = '\0';
    if (nl > s && nl[-1] == '\r')
      nl[-1] = '\0';
    s = nl + 1;
  }
  src->num_lines = n;
  return 0;
}

int pasta__html_named_like_source(const char *path) {
  static const char *const suffixes[] = {
      "c",   "cc",  "cpp", "cxx", "c++",  "C",   "cu", "cuh", "hip",
      "cl",  "h",   "hh",  "hpp", "hxx",  "h++", "H",  "inl", "inc",
      "ipp", "tpp", "tcc", "txx", "cppm", "ixx", "m",  "mm",  "f",
      "f90", "F",   "F90", "s",   "S",    "def"};
  const char *slash = strrchr(path, '/');
  const char *base = slash ? slash + 1 : path;
  const char *dot = strrchr(base, '.');
  if (!dot || dot == base)
    return 0;
  for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; ++i)
    if (strcmp(dot + 1, suffixes[i]) == 0)
      return 1;
  return 0;
}

/* Tries `path`; 1 when it was read, 0 when not, -1 without memory. With
 * `allowed`, the file is read by its real path, and only when that lies
 * under one of them, or under one of `source_only` and is named like
 * source. */
static int try_path(const char *path, const char *const *allowed,
                    const char *const *source_only, pasta_html_source *src) {
  size_t size = 0;
  char *real = NULL;
  if (allowed) {
    struct stat st;
    if (stat(path, &st) != 0)
      return 0;
    real = pasta__path_within(path, allowed);
    if (!real && source_only) {
      real = pasta__path_within(path, source_only);
      if (real && !pasta__html_named_like_source(real)) {
        free(real);
        real = NULL;
      }
    }
    if (!real) {
      src->refused = 1;
      return 0;
    }
  }
  char *text = read_file(real ? real : path, &size);
  free(real);
  if (!text)
    return 0;
  src->text = text;
  src->path = strdup(path);
  if (!src->path || split_lines(src, size))
    return -1;
  return 1;
}

/* ROOT/<tail> for each tail of `file` that starts after a '/', longest
 * first. */
static int try_root(const char *root, const char *file,
                    const char *const *allowed, const char *const *source_only,
                    pasta_html_source *src) {
  size_t rlen = strlen(root);
  char *path = malloc(rlen + strlen(file) + 2);
  if (!path)
    return -1;
  int rc = 0;
  for (const char *tail = file; rc == 0 && tail; tail = strchr(tail + 1, '/')) {
    const char *t = tail;
    while (*t == '/')
      ++t;
    if (!*t)
      break;
    snprintf(path, rlen + strlen(file) + 2, "%s/%s", root, t);
    rc = try_path(path, allowed, source_only, src);
  }
  free(path);
  return rc;
}

int pasta__html_source_load(const char *file, const char *const *roots,
                            const char *const *allowed,
                            const char *const *source_only,
                            pasta_html_source *src) {
  memset(src, 0, sizeof *src);
  int rc = 0;
  for (size_t i = 0; rc == 0 && roots && roots[i]; ++i)
    rc = try_root(roots[i], file, allowed, source_only, src);
  if (rc == 0)
    rc = try_path(file, allowed, source_only, src);
  if (rc == 1)
    src->refused = 0;
  if (rc < 0) {
    pasta__html_source_free(src);
    return -1;
  }
  return 0;
}

void pasta__html_source_free(pasta_html_source *src) {
  free(src->path);
  free(src->text);
  free(src->line);
  memset(src, 0, sizeof *src);
}
