/*===- trace_tables.c - The C.A.T.S. analyses as tables on the log --------===*/
#include "profile/demangle.h"
#include "profile/json_write.h"
#include "profile/text_table.h"
#include "trace_analyses.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *str(const char *s) { return s ? s : ""; }

enum { MAX_COLS = 10, CELL = 96 };

/* Cells are formatted first; each column is as wide as its widest cell. */
struct table {
  const char *const *titles; /* a leading '<' marks a left-aligned column */
  size_t cols, rows;
  char (*cells)[MAX_COLS][CELL];
};

static int table_init(struct table *t, const char *const *titles, size_t cols,
                      size_t rows) {
  t->titles = titles;
  t->cols = cols;
  t->rows = 0;
  t->cells = calloc(rows ? rows : 1, sizeof *t->cells);
  return t->cells ? 0 : -1;
}

/* Through text_table.c: the titles as the first row. */
static void table_print(FILE *out, struct table *t) {
  int left[MAX_COLS];
  const char *cells[MAX_COLS];
  struct text_table tt = {.cols = t->cols, .left = left};
  for (size_t c = 0; c < t->cols; ++c) {
    left[c] = t->titles[c][0] == '<';
    cells[c] = t->titles[c] + left[c];
  }
  text_table_add(&tt, cells);
  for (size_t r = 0; r < t->rows; ++r) {
    for (size_t c = 0; c < t->cols; ++c)
      cells[c] = t->cells[r][c];
    text_table_add(&tt, cells);
  }
  text_table_print_free(out, &tt);
  free(t->cells);
  t->cells = NULL;
}

static void fmt_bytes(char *out, size_t size, uint64_t v) {
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double x = (double)v;
  unsigned u = 0;
  while (x >= 1024.0 && u + 1 < sizeof units / sizeof units[0])
    x /= 1024.0, ++u;
  if (u == 0)
    snprintf(out, size, "%" PRIu64 " B", v);
  else
    snprintf(out, size, "%.2f %s", x, units[u]);
}

static void fmt_time(char *out, size_t size, uint64_t ns) {
  double x = (double)ns;
  if (ns >= 1000000000u)
    snprintf(out, size, "%.3f s", x / 1e9);
  else if (ns >= 1000000u)
    snprintf(out, size, "%.3f ms", x / 1e6);
  else if (ns >= 1000u)
    snprintf(out, size, "%.1f us", x / 1e3);
  else
    snprintf(out, size, "%" PRIu64 " ns", ns);
}

/* `s` for a terminal: control characters and invalid UTF-8 as '?', cut
 * (with "...") at a character boundary after about `width` bytes. */
static void fmt_text(char *out, size_t size, const char *s, size_t width) {
  const unsigned char *p = (const unsigned char *)str(s);
  size_t n = 0, len;
  if (width > size - 4)
    width = size - 4;
  for (; *p && n < width; p += len ? len : 1) {
    len = (size_t)pasta__json_utf8_length(p);
    if (len > 1 && n + len > width)
      break;
    if (len == 2 && p[0] == 0xc2 && p[1] < 0xa0)
      len = 1; /* a C1 control character (U+0080-U+009F): '?' below */
    if (len > 1) {
      memcpy(out + n, p, len);
      n += len;
    } else {
      out[n++] = len == 1 && *p >= 0x20 && *p != 0x7f ? (char)*p : '?';
    }
  }
  strcpy(out + n, *p ? "..." : "");
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(str(path), '/');
  return slash ? slash + 1 : str(path);
}

static void fmt_where(char *out, size_t size, const char *file, uint32_t line) {
  char f[CELL - 11]; /* room for ":<line>" in a cell */
  fmt_text(f, sizeof f, base_name(file), 48);
  snprintf(out, size, "%s:%" PRIu32, *f ? f : "?", line);
}

static void print_lives(FILE *log, const struct pasta_trace_analysis *a,
                        unsigned top) {
  static const char *const titles[] = {
      "<buffer", "<kind",          "size",         "allocated",
      "used",    "used/allocated", "<allocated at"};
  size_t n = a->num_lives < top ? a->num_lives : top;
  struct table t;
  if (!n || table_init(&t, titles, 7, n))
    return;
  fprintf(log,
          "pasta: trace: buffers by size, allocation vs usage lifetime "
          "(top %zu of %zu):\n",
          n, a->num_lives);
  for (size_t i = 0; i < n; ++i) {
    const struct pasta_trace_buffer_life *l = &a->lives[i];
    char (*row)[CELL] = t.cells[t.rows++];
    fmt_text(row[0], CELL, l->buffer->name, 32);
    fmt_text(row[1], CELL, l->buffer->kind, 16);
    fmt_bytes(row[2], CELL, l->buffer->size);
    fmt_time(row[3], CELL, l->alloc_ns);
    if (!l->freed)
      strcat(row[3], " (never freed)");
    if (!l->used) {
      snprintf(row[4], CELL, "never used");
      snprintf(row[5], CELL, "-");
    } else {
      fmt_time(row[4], CELL, l->use_ns);
      snprintf(row[5], CELL, "%.1f%%",
               l->alloc_ns ? 100.0 * (double)l->use_ns / (double)l->alloc_ns
                           : 100.0);
    }
    fmt_where(row[6], CELL, l->buffer->alloc_file, l->buffer->alloc_line);
  }
  table_print(log, &t);
}

static void print_loop_allocs(FILE *log, const struct pasta_trace_analysis *a,
                              unsigned top) {
  static const char *const titles[] = {"<allocated at", "<in loop", "depth",
                                       "allocations", "bytes"};
  size_t n = a->num_loop_allocs < top ? a->num_loop_allocs : top;
  struct table t;
  if (!n || table_init(&t, titles, 5, n))
    return;
  fprintf(log,
          "pasta: trace: allocations inside loops (top %zu of %zu "
          "sites):\n",
          n, a->num_loop_allocs);
  for (size_t i = 0; i < n; ++i) {
    const struct pasta_trace_loop_allocs *g = &a->loop_allocs[i];
    char (*row)[CELL] = t.cells[t.rows++];
    fmt_where(row[0], CELL, g->alloc_file, g->alloc_line);
    fmt_where(row[1], CELL, g->loop_file, g->loop_line);
    snprintf(row[2], CELL, "%" PRIu32, g->loop_depth);
    snprintf(row[3], CELL, "%" PRIu64, g->allocations);
    fmt_bytes(row[4], CELL, g->bytes);
  }
  table_print(log, &t);
}

static void print_reuse(FILE *log, const struct pasta_trace_analysis *a,
                        unsigned top) {
  static const char *const titles[] = {"size", "<kind", "buffers", "max live",
                                       "saving"};
  size_t n = a->num_reuse < top ? a->num_reuse : top;
  struct table t;
  if (!n || table_init(&t, titles, 5, n))
    return;
  char total[32];
  fmt_bytes(total, sizeof total, a->reuse_saving_bytes);
  fprintf(log,
          "pasta: trace: reuse candidates, buffers of one size and kind "
          "never all live at once (reuse would save %s):\n",
          total);
  for (size_t i = 0; i < n; ++i) {
    const struct pasta_trace_reuse_group *g = &a->reuse[i];
    char (*row)[CELL] = t.cells[t.rows++];
    fmt_bytes(row[0], CELL, g->size);
    fmt_text(row[1], CELL, g->kind, 16);
    snprintf(row[2], CELL, "%zu", g->buffers);
    snprintf(row[3], CELL, "%zu", g->max_live);
    fmt_bytes(row[4], CELL, g->saving_bytes);
  }
  table_print(log, &t);
}

/* "static/dynamic" of one class, or "-". */
static void fmt_class(char *out, size_t size,
                      const struct pasta_trace_scope_summary *s, unsigned k) {
  if (s->static_accesses[k] || s->dynamic_accesses[k])
    snprintf(out, size, "%" PRIu64 "/%" PRIu64, s->static_accesses[k],
             s->dynamic_accesses[k]);
  else
    snprintf(out, size, "-");
}

static void scope_row(char (*row)[CELL],
                      const struct pasta_trace_scope_summary *s) {
  uint64_t other_static = 0, other_dynamic = 0;
  for (unsigned k = 0; k < PASTA_TRACE_NUM_CLASSES; ++k)
    if (k != PASTA_ACCESS_STRIDEK && k != PASTA_ACCESS_INDIRECT) {
      other_static += s->static_accesses[k];
      other_dynamic += s->dynamic_accesses[k];
    }
  char name[CELL];
  pasta__short_name(str(s->funcname), 48, name, sizeof name); /* demangle.h */
  fmt_text(row[0], CELL, name, CELL - 4);
  snprintf(row[1], CELL, "%s",
           pasta__cats_scope_type(s->kind) ? pasta__cats_scope_type(s->kind)
                                           : "?");
  fmt_where(row[2], CELL, s->filename, s->line);
  snprintf(row[3], CELL, "%" PRIu64, s->executions);
  snprintf(row[4], CELL, "%" PRIu32, s->max_loop_nest);
  snprintf(row[5], CELL, "%zu", s->loops);
  fmt_class(row[6], CELL, s, PASTA_ACCESS_STRIDEK);
  fmt_class(row[7], CELL, s, PASTA_ACCESS_INDIRECT);
  if (other_static || other_dynamic)
    snprintf(row[8], CELL, "%" PRIu64 "/%" PRIu64, other_static, other_dynamic);
  else
    snprintf(row[8], CELL, "-");
  fmt_bytes(row[9], CELL, s->footprint_bytes);
}

static void print_scopes(FILE *log, const struct pasta_trace_analysis *a,
                         unsigned top) {
  static const char *const titles[] = {
      "<function", "<scope",   "<at",      "executions", "nest",
      "loops",     "stride-k", "indirect", "other",      "footprint"};
  size_t n = a->num_scopes < top ? a->num_scopes : top;
  struct table t;
  if (!n || table_init(&t, titles, 10, n))
    return;
  fprintf(log,
          "pasta: trace: scopes, functions and kernels first, by stride-k + "
          "indirect accesses (top %zu of %zu; accesses: distinct sites / "
          "executions; nest: deepest loop nest):\n",
          n, a->num_scopes);
  for (size_t i = 0; i < n; ++i)
    scope_row(t.cells[t.rows++], &a->scopes[i]);
  table_print(log, &t);
}

void pasta__trace_analysis_print(FILE *log,
                                 const struct pasta_trace_analysis *a,
                                 unsigned top) {
  char peak[32], final[32], when[32];
  fmt_bytes(peak, sizeof peak, a->peak_bytes);
  fmt_bytes(final, sizeof final, a->final_bytes);
  fmt_time(when, sizeof when, a->peak_time_ns);
  fprintf(log,
          "\npasta: trace: memory footprint peak %s at %s (%zu buffers "
          "live); %s in %zu buffers never freed\n",
          peak, when, a->peak_buffers, final, a->final_buffers);
  print_lives(log, a, top);
  print_loop_allocs(log, a, top);
  print_reuse(log, a, top);
  print_scopes(log, a, top);
}
