/*===- text_table.c - Plain-text tables for pasta-report ------------------===*/
#include "text_table.h"
#include "demangle.h"
#include "json_write.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How many bytes at `p` print as they are; 0: escape them. *len is then
 * how many bytes the escape stands for: 1 (a C0 control, DEL, a byte that
 * is not valid UTF-8: \xHH) or a whole character shown as \uXXXX (*cp):
 * a C1 control, or a bidirectional control or line separator, which would
 * reorder or break the text around it on a terminal (U+061C, U+200E,
 * U+200F, U+2028 to U+202E, U+2066 to U+2069: "Trojan Source"). */
static int plain_length(const unsigned char *p, unsigned *cp, int *len) {
  *cp = 0;
  *len = 1;
  if (*p < 0x20 || *p == 0x7f)
    return 0;
  if (*p < 0x80)
    return 1;
  int n = pasta__json_utf8_length(p);
  unsigned c = 0;
  if (n == 2)
    c = (unsigned)(p[0] & 0x1f) << 6 | (p[1] & 0x3f);
  else if (n == 3)
    c = (unsigned)(p[0] & 0x0f) << 12 | (unsigned)(p[1] & 0x3f) << 6 |
        (p[2] & 0x3f);
  if ((n == 2 && c >= 0x80 && c < 0xa0) || c == 0x61c || c == 0x200e ||
      c == 0x200f || (c >= 0x2028 && c <= 0x202e) ||
      (c >= 0x2066 && c <= 0x2069)) {
    *cp = c;
    *len = n;
    return 0;
  }
  return n;
}

/* Writes the escaped form of `s` through put(ctx, bytes, n). */
static void escape(const char *s, void (*put)(void *, const char *, size_t),
                   void *ctx) {
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    unsigned cp;
    int len;
    int n = plain_length(p, &cp, &len);
    if (n) {
      put(ctx, (const char *)p, (size_t)n);
      p += n;
      continue;
    }
    char e[8];
    if (cp)
      snprintf(e, sizeof e, "\\u%04x", cp);
    else if (*p == '\n' || *p == '\r' || *p == '\t')
      snprintf(e, sizeof e, "\\%c", *p == '\n' ? 'n' : *p == '\r' ? 'r' : 't');
    else
      snprintf(e, sizeof e, "\\x%02x", *p);
    put(ctx, e, strlen(e));
    p += len;
  }
}

struct buffer {
  char *p;
  size_t len, size;
  int full;
};

static void put_buffer(void *ctx, const char *s, size_t n) {
  struct buffer *b = ctx;
  if (b->full || b->len + n >= b->size) { /* whole pieces only */
    b->full = 1;
    return;
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
  b->p[b->len] = '\0';
}

static void put_file(void *ctx, const char *s, size_t n) {
  fwrite(s, 1, n, (FILE *)ctx);
}

static int needs_escape(const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  unsigned cp;
  int len;
  for (int n; *p; p += n)
    if (!(n = plain_length(p, &cp, &len)))
      return 1;
  return 0;
}

const char *pasta__text_safe(const char *s, char *buf, size_t size) {
  if (!s || !needs_escape(s))
    return s;
  if (!size)
    return "";
  struct buffer b = {buf, 0, size, 0};
  buf[0] = '\0';
  escape(s, put_buffer, &b);
  return buf;
}

void pasta__text_write(FILE *out, const char *s) {
  if (s)
    escape(s, put_file, out);
}

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
    size_t size = 4 * strlen(cells[c]) + 1;
    char *copy = malloc(size);
    if (copy) {
      const char *safe = pasta__text_safe(cells[c], copy, size);
      if (safe != copy)
        strcpy(copy, safe);
    } else {
      err = -1;
    }
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

char **pasta__short_safe_names(const char *const *names, size_t n,
                               size_t width) {
  char **escaped = calloc(n ? n : 1, sizeof *escaped);
  if (!escaped)
    return NULL;
  for (size_t i = 0; i < n; ++i) {
    const char *name = names[i] ? names[i] : "?";
    size_t size = 4 * strlen(name) + 1;
    escaped[i] = malloc(size);
    if (!escaped[i])
      break;
    if (pasta__text_safe(name, escaped[i], size) == name)
      memcpy(escaped[i], name, strlen(name) + 1); /* nothing to escape */
  }
  char **cells = NULL;
  size_t done = 0;
  while (done < n && escaped[done])
    ++done;
  if (done == n)
    cells = pasta__short_names((const char *const *)escaped, n, width);
  for (size_t i = 0; i < n; ++i)
    free(escaped[i]);
  free(escaped);
  return cells;
}

const char *pasta__path_normal(const char *path, char *buf, size_t size) {
  if (!path || !size)
    return path;
  int absolute = path[0] == '/';
  size_t len = 0, kept = 0; /* kept: components that a ".." may remove */
  if (absolute && size > 1)
    buf[len++] = '/';
  for (const char *s = path; *s;) {
    while (*s == '/')
      ++s;
    size_t n = strcspn(s, "/");
    if (!n)
      break;
    if (n == 1 && s[0] == '.') {
      s += n;
      continue;
    }
    if (n == 2 && s[0] == '.' && s[1] == '.' && (kept || absolute)) {
      if (kept) {
        /* Drop the last component and the '/' before it. */
        while (len > (size_t)absolute && buf[len - 1] != '/')
          --len;
        if (len > (size_t)absolute)
          --len;
        --kept;
      }
      s += n;
      continue;
    }
    if (len > (size_t)absolute && len + 1 < size)
      buf[len++] = '/';
    size_t room = size - 1 - len;
    memcpy(buf + len, s, n < room ? n : room);
    len += n < room ? n : room;
    kept += !(n == 2 && s[0] == '.' && s[1] == '.');
    s += n;
  }
  if (!len && size > 1)
    buf[len++] = '.';
  buf[len] = '\0';
  return buf;
}

/* Scales `v` by `base` with at most three significant digits. */
static void fmt_scaled(char *out, size_t size, uint64_t v, unsigned base,
                       const char *const *units, const char *unit0) {
  if (v < (base == 1024 ? 1024u : 100000u)) {
    snprintf(out, size, "%" PRIu64 "%s", v, unit0);
    return;
  }
  double x = (double)v;
  unsigned u = 0;
  while (x >= base && units[u + 1]) {
    x /= base;
    ++u;
  }
  snprintf(out, size,
           x < 10    ? "%.2f%s"
           : x < 100 ? "%.1f%s"
                     : "%.0f%s",
           x, units[u]);
}

void pasta__cell_count(char *out, size_t size, uint64_t v) {
  static const char *const units[] = {"", "K", "M", "G", "T", "P", "E", NULL};
  fmt_scaled(out, size, v, 1000, units, "");
}

void pasta__cell_bytes(char *out, size_t size, uint64_t v) {
  static const char *const units[] = {"B",   "KiB", "MiB", "GiB",
                                      "TiB", "PiB", "EiB", NULL};
  fmt_scaled(out, size, v, 1024, units, "B");
}
