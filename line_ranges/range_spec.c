/*===- range_spec.c - Parsing and matching of PASTA_LINES specs -----------===*/
#include "line_ranges.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define EXPECTED "(expected FILE:N[-M][,N[-M]...])"
/* Longest piece of user text quoted in a message. */
#define QUOTE_MAX 120

/* ---- Error messages ---------------------------------------------------- */

/* A bounded, always NUL-terminated message buffer (cap may be 0). */
typedef struct msgbuf {
  char *buf;
  size_t cap, len;
} msgbuf;

static void msg_putn(msgbuf *m, const char *s, size_t n) {
  for (size_t i = 0; i < n && m->len + 1 < m->cap; i++)
    m->buf[m->len++] = s[i];
  if (m->cap)
    m->buf[m->len] = '\0';
}

static void msg_puts(msgbuf *m, const char *s) { msg_putn(m, s, strlen(s)); }

/* Appends 'text', control characters replaced by '?' so the message stays
 * one line, long text shortened with "...". */
static void msg_quote(msgbuf *m, const char *s, size_t n) {
  msg_puts(m, "'");
  for (size_t i = 0; i < n && i < QUOTE_MAX; i++) {
    unsigned char c = (unsigned char)s[i];
    char out = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
    msg_putn(m, &out, 1);
  }
  if (n > QUOTE_MAX)
    msg_puts(m, "...");
  msg_puts(m, "'");
}

/* A span of the input text. */
typedef struct span {
  const char *p;
  size_t n;
} span;

/* Context for messages about one entry. */
typedef struct entry_ctx {
  msgbuf *msg;
  span entry;
  bool has_file;
} entry_ctx;

/* "<what> '<bad>' in PASTA_LINES entry '<entry>': " */
static void msg_head(const entry_ctx *c, const char *what, span bad) {
  msg_puts(c->msg, what);
  msg_puts(c->msg, " ");
  msg_quote(c->msg, bad.p, bad.n);
  msg_puts(c->msg, " in PASTA_LINES entry ");
  msg_quote(c->msg, c->entry.p, c->entry.n);
  msg_puts(c->msg, ": ");
}

static int msg_tail(const entry_ctx *c) {
  msg_puts(c->msg, " " EXPECTED);
  return -1;
}

/* ---- Lexing helpers ---------------------------------------------------- */

static bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
         c == '\f';
}

static span trim(span s) {
  while (s.n && is_space(s.p[0])) {
    s.p++;
    s.n--;
  }
  while (s.n && is_space(s.p[s.n - 1]))
    s.n--;
  return s;
}

/* Last occurrence of c in s, or NULL. */
static const char *span_rchr(span s, char c) {
  for (size_t i = s.n; i > 0; i--)
    if (s.p[i - 1] == c)
      return s.p + i - 1;
  return NULL;
}

static const char *span_chr(span s, char c) {
  for (size_t i = 0; i < s.n; i++)
    if (s.p[i] == c)
      return s.p + i;
  return NULL;
}

/* Parses one line number (already trimmed); on error writes the message
 * for range item `item`. `role` is "start" / "end" / NULL (single line). */
static int parse_line(const entry_ctx *c, span item, span num, const char *role,
                      uint32_t *out) {
  if (num.n == 0) {
    msg_head(c, "bad range", item);
    msg_puts(c->msg, "the ");
    msg_puts(c->msg, role ? role : "line number");
    msg_puts(c->msg, " of the range is missing");
    return msg_tail(c);
  }
  uint64_t v = 0;
  bool overflow = false;
  for (size_t i = 0; i < num.n; i++) {
    char d = num.p[i];
    if (d < '0' || d > '9') {
      msg_head(c, "bad range", item);
      msg_quote(c->msg, num.p, num.n);
      msg_puts(c->msg, " is not a decimal line number");
      if (!c->has_file)
        msg_puts(c->msg, "; a file name must be followed by ':' and "
                         "line ranges");
      return msg_tail(c);
    }
    if (!overflow) {
      v = v * 10 + (uint64_t)(d - '0');
      overflow = v > UINT32_MAX;
    }
  }
  if (overflow) {
    msg_head(c, "bad range", item);
    msg_puts(c->msg, "line number ");
    msg_quote(c->msg, num.p, num.n);
    msg_puts(c->msg, " exceeds the largest line number 4294967295");
    return msg_tail(c);
  }
  if (v == 0) {
    msg_head(c, "bad range", item);
    msg_puts(c->msg, "line numbers start at 1, not ");
    msg_quote(c->msg, num.p, num.n);
    return msg_tail(c);
  }
  *out = (uint32_t)v;
  return 0;
}

static int oom(msgbuf *m) {
  m->len = 0;
  msg_puts(m, "out of memory while parsing PASTA_LINES");
  return -1;
}

/* Parses RANGES (already trimmed, non-empty) into set. */
static int parse_ranges(const entry_ctx *c, span ranges,
                        pasta_interval_set *set) {
  const char *p = ranges.p, *end = ranges.p + ranges.n;
  for (;;) {
    span rest = {p, (size_t)(end - p)};
    const char *comma = span_chr(rest, ',');
    const char *item_end = comma ? comma : end;
    span item = trim((span){p, (size_t)(item_end - p)});
    if (item.n == 0) {
      msg_puts(c->msg, "empty range in PASTA_LINES entry ");
      msg_quote(c->msg, c->entry.p, c->entry.n);
      msg_puts(c->msg, ": there must be a line number or N-M between "
                       "commas");
      return msg_tail(c);
    }
    const char *dash = span_chr(item, '-');
    uint32_t lo, hi;
    if (dash) {
      span a = trim((span){item.p, (size_t)(dash - item.p)});
      span b = trim((span){dash + 1, (size_t)(item.p + item.n - (dash + 1))});
      if (parse_line(c, item, a, "start", &lo) != 0 ||
          parse_line(c, item, b, "end", &hi) != 0)
        return -1;
      if (lo > hi) {
        msg_head(c, "bad range", item);
        msg_puts(c->msg, "the start must not exceed the end");
        return msg_tail(c);
      }
    } else {
      if (parse_line(c, item, item, NULL, &lo) != 0)
        return -1;
      hi = lo;
    }
    if (pasta_interval_set_add(set, lo, hi) != 0)
      return oom(c->msg);
    if (!comma)
      return 0;
    p = comma + 1;
  }
}

/* Parses one trimmed, non-empty entry into e (zeroed by the caller). */
static int parse_entry(msgbuf *m, span entry, pasta_range_entry *e) {
  entry_ctx c = {m, entry, false};
  span ranges = entry;
  const char *colon = span_rchr(entry, ':');
  if (colon) {
    span file = trim((span){entry.p, (size_t)(colon - entry.p)});
    ranges = trim((span){colon + 1, (size_t)(entry.p + entry.n - colon - 1)});
    c.has_file = true;
    if (file.n == 0) {
      msg_puts(m, "empty file name in PASTA_LINES entry ");
      msg_quote(m, entry.p, entry.n);
      msg_puts(m, ": a file name must precede ':' (leave out 'FILE:' to "
                  "select lines of any file)");
      return msg_tail(&c);
    }
    if (ranges.n == 0) {
      msg_puts(m, "missing line ranges in PASTA_LINES entry ");
      msg_quote(m, entry.p, entry.n);
      msg_puts(m, ": nothing follows ':'");
      return msg_tail(&c);
    }
    e->file = malloc(file.n + 1);
    if (!e->file)
      return oom(m);
    memcpy(e->file, file.p, file.n);
    e->file[file.n] = '\0';
  }
  return parse_ranges(&c, ranges, &e->lines);
}

void pasta_range_spec_free(pasta_range_spec *spec) {
  if (!spec)
    return;
  for (size_t i = 0; i < spec->n; i++) {
    free(spec->entries[i].file);
    pasta_interval_set_free(&spec->entries[i].lines);
  }
  free(spec->entries);
  spec->entries = NULL;
  spec->n = 0;
}

int pasta_range_spec_parse(const char *text, pasta_range_spec *out, char *err,
                           size_t errlen) {
  msgbuf m = {err, err ? errlen : 0, 0};
  if (m.cap)
    m.buf[0] = '\0';
  if (!out) {
    msg_puts(&m, "internal error: no output for the PASTA_LINES spec");
    return -1;
  }
  out->entries = NULL;
  out->n = 0;
  size_t cap = 0;
  const char *p = text ? text : "";
  for (;;) {
    const char *semi = strchr(p, ';');
    size_t len = semi ? (size_t)(semi - p) : strlen(p);
    span entry = trim((span){p, len});
    if (entry.n) {
      if (out->n == cap) {
        size_t ncap = cap ? 2 * cap : 4;
        pasta_range_entry *v = ncap <= SIZE_MAX / sizeof(*v)
                                   ? realloc(out->entries, ncap * sizeof(*v))
                                   : NULL;
        if (!v) {
          pasta_range_spec_free(out);
          return oom(&m);
        }
        out->entries = v;
        cap = ncap;
      }
      pasta_range_entry *e = &out->entries[out->n++];
      memset(e, 0, sizeof(*e));
      if (parse_entry(&m, entry, e) != 0) {
        pasta_range_spec_free(out);
        return -1;
      }
    }
    if (!semi)
      break;
    p = semi + 1;
  }
  if (out->n == 0) {
    msg_puts(&m, "PASTA_LINES is empty (expected FILE:N[-M][,N[-M]...] "
                 "entries separated by ';')");
    pasta_range_spec_free(out);
    return -1;
  }
  return 0;
}

bool pasta_range_spec_file_matches(const char *spec_file, const char *path) {
  if (!spec_file)
    return true;
  if (!path)
    return false;
  if (!strchr(spec_file, '/')) {
    const char *base = strrchr(path, '/');
    return strcmp(spec_file, base ? base + 1 : path) == 0;
  }
  size_t ls = strlen(spec_file), lp = strlen(path);
  if (lp == ls)
    return memcmp(path, spec_file, ls) == 0;
  return lp > ls && path[lp - ls - 1] == '/' &&
         memcmp(path + lp - ls, spec_file, ls) == 0;
}

int pasta_range_spec_select(pasta_range_spec *spec, const char *path,
                            uint32_t lo, uint32_t hi) {
  if (!spec)
    return -1;
  for (size_t i = 0; i < spec->n && i <= (size_t)INT_MAX; i++) {
    pasta_range_entry *e = &spec->entries[i];
    if (pasta_range_spec_file_matches(e->file, path) &&
        pasta_interval_set_overlaps(&e->lines, lo, hi)) {
      e->matched++;
      return (int)i;
    }
  }
  return -1;
}
