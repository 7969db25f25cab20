/*===- tables.c - PASTA's human-readable profile tables -------------------===*
 *
 * Every cell is formatted first, then each column is as wide as its widest
 * cell, so the tables stay aligned whatever the magnitudes. Counts use
 * decimal suffixes (K, M, G: 10^3, 10^6, 10^9), sizes binary ones (KiB, MiB,
 * GiB); the exact numbers are in the JSON profile.
 *===----------------------------------------------------------------------===*/
#include "tables.h"
#include "analyzers/builtin.h"
#include "div_tables.h"
#include "profile/diag.h"
#include "profile/sat.h"

#include "profile/demangle.h"
#include "profile/text_table.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* NAME_WIDTH fits CUB's kernels at their short form
 * ("...::DeviceRadixSortExclusiveSumKernel<...>(...)" is 48). */
enum { MAX_COLS = 12, CELL = 128, NAME_WIDTH = 48, LOCATION_WIDTH = 48 };

struct column {
  const char *title;
  int left;     /* left-aligned (text) rather than right-aligned */
  int optional; /* left out when every cell is "-" */
};

struct table {
  const struct column *cols;
  size_t num_cols;
  size_t num_rows;
  char (*cells)[MAX_COLS][CELL];
};

/* "g", "s", "l", "c" and "gen" (which device entries never have). */
static void space_abbrev(char *out, unsigned space) {
  const char *name = pasta_space_name(space);
  if (space == PASTA_SPACE_GENERIC)
    snprintf(out, 4, "%.3s", name);
  else
    snprintf(out, 4, "%.1s", name);
}

/* "g:1.20M s:4096" for the non-zero spaces of `a`, or "-". */
static void fmt_spaces(char *out, size_t size, const uint64_t *a, int bytes) {
  size_t len = 0;
  out[0] = '\0';
  for (unsigned s = 0; s < PASTA_NUM_SPACES; ++s) {
    if (!a[s])
      continue;
    char num[32], abbrev[4];
    if (bytes)
      pasta__cell_bytes(num, sizeof num, a[s]);
    else
      pasta__cell_count(num, sizeof num, a[s]);
    space_abbrev(abbrev, s);
    int n =
        snprintf(out + len, size - len, "%s%s:%s", len ? " " : "", abbrev, num);
    if (n < 0 || (size_t)n >= size - len)
      break;
    len += (size_t)n;
  }
  if (!len)
    snprintf(out, size, "-");
}

static uint64_t sum_spaces(const uint64_t *a) {
  uint64_t sum = 0;
  for (unsigned s = 0; s < PASTA_NUM_SPACES; ++s)
    sum = sum + a[s] < sum ? UINT64_MAX : sum + a[s];
  return sum;
}

/* Either the breakdown by space or, for host functions (where every access
 * is generic), the total. */
static void fmt_group(char *out, size_t size, const uint64_t *a, int bytes,
                      int by_space) {
  if (by_space) {
    fmt_spaces(out, size, a, bytes);
    return;
  }
  uint64_t v = sum_spaces(a);
  if (!v)
    snprintf(out, size, "-");
  else if (bytes)
    pasta__cell_bytes(out, size, v);
  else
    pasta__cell_count(out, size, v);
}

static void fmt_flops(char *out, size_t size, const uint64_t *flops) {
  size_t len = 0;
  out[0] = '\0';
  for (unsigned i = 0; i < PASTA_NUM_PRECISIONS; ++i) {
    if (!flops[i])
      continue;
    char num[32];
    pasta__cell_count(num, sizeof num, flops[i]);
    int n = snprintf(out + len, size - len, "%s%s:%s", len ? " " : "",
                     pasta_precision_name(i), num);
    if (n < 0 || (size_t)n >= size - len)
      break;
    len += (size_t)n;
  }
  if (!len)
    snprintf(out, size, "-");
}

static void fmt_count_or_dash(char *out, size_t size, uint64_t v) {
  if (v)
    pasta__cell_count(out, size, v);
  else
    snprintf(out, size, "-");
}

/* Keeps the end of long text, where file names and lines are. Control
 * characters are escaped (pasta__text_safe) before the text is cut. */
static void fmt_tail(char *out, size_t size, const char *text, size_t width) {
  char safe[CELL * 4];
  text = pasta__text_safe(text, safe, sizeof safe);
  size_t len = strlen(text);
  if (len > width && width > 3)
    snprintf(out, size, "...%s", text + len - (width - 3));
  else
    snprintf(out, size, "%s", text);
}

static int table_init(struct table *t, const struct column *cols,
                      size_t num_cols, size_t rows) {
  t->cols = cols;
  t->num_cols = num_cols;
  t->num_rows = 0;
  t->cells = malloc((rows ? rows : 1) * sizeof *t->cells);
  return t->cells ? 0 : -1;
}

static void table_print(FILE *out, struct table *t) {
  size_t width[MAX_COLS];
  int shown[MAX_COLS];
  for (size_t c = 0; c < t->num_cols; ++c) {
    width[c] = strlen(t->cols[c].title);
    int any = 0;
    for (size_t r = 0; r < t->num_rows; ++r) {
      size_t w = strlen(t->cells[r][c]);
      width[c] = w > width[c] ? w : width[c];
      any |= strcmp(t->cells[r][c], "-") != 0;
    }
    shown[c] = any || !t->cols[c].optional;
  }
  for (size_t r = 0; r <= t->num_rows; ++r) {
    /* Row 0 is the header. */
    const char *sep = "  ";
    char line[MAX_COLS * (CELL + 2) + 1];
    size_t len = 0;
    for (size_t c = 0; c < t->num_cols; ++c) {
      if (!shown[c])
        continue;
      const char *text = r ? t->cells[r - 1][c] : t->cols[c].title;
      int n = snprintf(line + len, sizeof line - len, "%s%*s", sep,
                       t->cols[c].left ? -(int)width[c] : (int)width[c], text);
      if (n > 0)
        len += (size_t)n < sizeof line - len ? (size_t)n : 0;
    }
    while (len && line[len - 1] == ' ')
      line[--len] = '\0';
    fprintf(out, "%s\n", line);
  }
  free(t->cells);
  t->cells = NULL;
}

static const struct column func_cols[] = {
    {"name", 1, 0},       {"launches", 0, 0},     {"loads", 1, 0},
    {"load bytes", 1, 0}, {"stores", 1, 0},       {"store bytes", 1, 0},
    {"atomics", 1, 1},    {"atomic bytes", 1, 1}, {"FLOPs", 1, 0},
    {"special", 0, 1},    {"FLOP/B", 0, 0},
};
enum { NUM_FUNC_COLS = sizeof func_cols / sizeof func_cols[0] };

static int ran(const pasta_profile_func *f) {
  const pasta_counts *c = &f->counts;
  return f->calls || pasta_counts_bytes(c) || pasta_counts_flops(c) ||
         c->special;
}

/* bytes + FLOPs, what every table is ranked by. */
static uint64_t func_cost(const pasta_profile_func *f) {
  return pasta__sat_add(pasta_counts_bytes(&f->counts),
                        pasta_counts_flops(&f->counts));
}

static const pasta_profile_func *rank_base;

/* By cost, then calls, then the profile's own order (by calls, then name). */
static int cmp_rank(const void *pa, const void *pb) {
  size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
  uint64_t ca = func_cost(&rank_base[a]), cb = func_cost(&rank_base[b]);
  if (ca != cb)
    return ca > cb ? -1 : 1;
  if (rank_base[a].calls != rank_base[b].calls)
    return rank_base[a].calls > rank_base[b].calls ? -1 : 1;
  return a < b ? -1 : a > b;
}

/* The indices of the functions that ran, most expensive first; *n_ran is
 * their number. */
static size_t *ranked(const pasta_profile_func *funcs, size_t n,
                      size_t *n_ran) {
  size_t *order = malloc((n ? n : 1) * sizeof *order);
  if (!order)
    return NULL;
  size_t k = 0;
  for (size_t i = 0; i < n; ++i)
    if (ran(&funcs[i]))
      order[k++] = i;
  rank_base = funcs;
  if (k)
    qsort(order, k, sizeof *order, cmp_rank);
  *n_ran = k;
  return order;
}

/* The name column of the first `n` rows of `order`: short forms, distinct
 * (demangle.h). */
static char **name_cells(const pasta_profile_func *funcs, const size_t *order,
                         size_t n) {
  const char **names = calloc(n ? n : 1, sizeof *names);
  if (!names)
    return NULL;
  for (size_t i = 0; i < n; ++i)
    names[i] = funcs[order[i]].name;
  char **cells = pasta__short_safe_names(names, n, NAME_WIDTH);
  free(names);
  return cells;
}

/* At most `top` rows (0: all) of the functions that ran, ranked by bytes +
 * FLOPs like the line table; `omitted` more did not run and are not in the
 * profile. */
static int func_table(FILE *out, const char *title, const char *calls_title,
                      const pasta_profile_func *funcs, size_t n, int by_space,
                      unsigned top, uint64_t omitted) {
  struct column cols[NUM_FUNC_COLS];
  memcpy(cols, func_cols, sizeof cols);
  cols[0].title = title;
  cols[1].title = calls_title;
  struct table t;
  size_t n_ran = 0;
  size_t *order = ranked(funcs, n, &n_ran);
  size_t shown = top && n_ran > top ? top : n_ran;
  char **names = order ? name_cells(funcs, order, shown) : NULL;
  if (!names || table_init(&t, cols, NUM_FUNC_COLS, shown)) {
    free(names);
    free(order);
    return -1;
  }
  for (size_t i = 0; i < shown; ++i) {
    const pasta_profile_func *f = &funcs[order[i]];
    const pasta_counts *c = &f->counts;
    char (*row)[CELL] = t.cells[t.num_rows];
    snprintf(row[0], CELL, "%s", names[t.num_rows++]);
    pasta__cell_count(row[1], CELL, f->calls);
    fmt_group(row[2], CELL, c->loads, 0, by_space);
    fmt_group(row[3], CELL, c->load_bytes, 1, by_space);
    fmt_group(row[4], CELL, c->stores, 0, by_space);
    fmt_group(row[5], CELL, c->store_bytes, 1, by_space);
    fmt_group(row[6], CELL, c->atomics, 0, by_space);
    fmt_group(row[7], CELL, c->atomic_bytes, 1, by_space);
    fmt_flops(row[8], CELL, c->flops);
    fmt_count_or_dash(row[9], CELL, c->special);
    double ci;
    if (pasta_counts_intensity(c, &ci))
      snprintf(row[10], CELL, "%.3g", ci);
    else
      snprintf(row[10], CELL, "-");
  }
  free(names);
  free(order);
  size_t idle = n - n_ran + (size_t)omitted;
  if (t.num_rows) {
    if (shown < n_ran)
      fprintf(out, "%s: top %zu of %zu that ran, by bytes + FLOPs:\n", title,
              shown, n_ran);
    table_print(out, &t);
    if (idle)
      fprintf(out, "  (%zu more never ran)\n", idle);
  } else {
    free(t.cells);
    fprintf(out, "  %s: none of %zu ran\n", title, idle);
  }
  fprintf(out, "\n");
  return 0;
}

static const struct column line_cols[] = {
    {"location", 1, 0},   {"function", 1, 0}, {"kind", 1, 0},
    {"executions", 0, 0}, {"bytes", 0, 0},    {"FLOPs", 0, 0},
};
enum { NUM_LINE_COLS = sizeof line_cols / sizeof line_cols[0] };

static int line_table(FILE *out, const pasta_profile *p, unsigned top) {
  size_t ran = 0;
  for (size_t i = 0; i < p->num_lines; ++i)
    ran += p->lines[i].executions != 0;
  size_t n = ran < top ? ran : top;
  if (!n)
    return 0;
  const char **functions = malloc(n * sizeof *functions);
  for (size_t i = 0, k = 0; functions && i < p->num_lines && k < n; ++i)
    if (p->lines[i].executions)
      functions[k++] = p->lines[i].function;
  char **names =
      functions ? pasta__short_safe_names(functions, n, NAME_WIDTH) : NULL;
  free(functions);
  struct table t;
  if (!names || table_init(&t, line_cols, NUM_LINE_COLS, n)) {
    free(names);
    return -1;
  }
  fprintf(out, "Top %zu of %zu executed lines, by bytes + FLOPs:\n", n, ran);
  for (size_t i = 0; i < p->num_lines && t.num_rows < n; ++i) {
    const pasta_profile_line *l = &p->lines[i];
    if (!l->executions)
      continue;
    char (*row)[CELL] = t.cells[t.num_rows];
    char loc[CELL * 4], file[CELL * 4];
    const char *path = pasta__path_normal(l->file, file, sizeof file);
    snprintf(loc, sizeof loc, "%s:%" PRIu32, path ? path : "?", l->line);
    fmt_tail(row[0], CELL, loc, LOCATION_WIDTH);
    snprintf(row[1], CELL, "%s", names[t.num_rows++]);
    snprintf(row[2], CELL, "%s", pasta_kind_name(l->kind));
    pasta__cell_count(row[3], CELL, l->executions);
    pasta__cell_bytes(row[4], CELL, pasta_counts_bytes(&l->counts));
    pasta__cell_count(row[5], CELL, pasta_counts_flops(&l->counts));
  }
  free(names);
  table_print(out, &t);
  fprintf(out, "\n");
  return 0;
}

int pasta__tables_write(FILE *out, const pasta_profile *p, unsigned top) {
  int err = 0;
  fputs("== PASTA: profile of ", out);
  pasta__text_write(out, p->program ? p->program : "?");
  fprintf(out, " (pid %" PRIu64 ") ==\n", p->pid);
  if (p->num_merged_from)
    fprintf(out, "merged from %zu profiles\n", p->num_merged_from);
  if (p->num_unread_modules)
    fprintf(out,
            "%" PRIu32 " instrumented device module%s could not be read: "
            "their kernels' counts are missing (the lines above say why)\n",
            p->num_unread_modules, p->num_unread_modules == 1 ? "" : "s");
  for (size_t i = 0; i < p->num_uncounted; ++i) {
    fputs("not counted: ", out);
    pasta__text_write(out, p->uncounted[i]);
    fputc('\n', out);
  }
  if (!p->num_kernels && !p->num_device_functions && !p->num_host_functions) {
    if (!p->num_unread_modules)
      fprintf(out, "no instrumented function was registered\n");
    return ferror(out) ? -1 : 0;
  }
  fprintf(out,
          "Loads, stores, atomics and FLOPs are thread-level totals; spaces: "
          "g=global s=shared l=local c=constant\n(generic GPU accesses are "
          "resolved at run time). K/M/G = 10^3/10^6/10^9, KiB/MiB/GiB = "
          "2^10/2^20/2^30.\nFLOP/B = FLOPs per byte of global memory "
          "(host functions: of all memory).\nEvery table is ranked by bytes + "
          "FLOPs.\n\n");
  if (p->num_kernels)
    err |= func_table(out, "kernel", "launches", p->kernels, p->num_kernels, 1,
                      top, 0);
  if (p->num_device_functions)
    err |= func_table(out, "device function (shared by kernels)", "calls",
                      p->device_functions, p->num_device_functions, 1, top,
                      p->omitted.device_functions);
  if (p->num_host_functions)
    err |= func_table(out, "host function", "calls", p->host_functions,
                      p->num_host_functions, 0, top, p->omitted.host_functions);
  if (top)
    err |= line_table(out, p, top);
  err |= pasta__div_tables_write(out, p, top);
  return err || ferror(out) ? -1 : 0;
}

/*===-- The analyzer ----------------------------------------------------===*/

static int report(void *state, const pasta_profile *p,
                  const pasta_analyzer_context *ctx) {
  (void)state;
  if (ctx->quiet)
    return 0;
  /* A fresh line: the program's last output may have ended without one (a
   * "\r" progress line). */
  fputc('\n', ctx->log);
  if (pasta__tables_write(ctx->log, p, ctx->top_lines) == 0)
    return 0;
  PASTA_WARN("could not print every table\n");
  return -1;
}

const pasta_analyzer pasta__tables_analyzer = {.name = "tables",
                                               .on_report = report};
