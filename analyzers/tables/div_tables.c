/*===- div_tables.c - Divergence mode's tables ----------------------------===*
 *
 * The "divergence" table (one row per kernel or shared device function with
 * divergence figures) and the top lines by excess sectors, by bank
 * conflicts and by divergent branches. Printed after the other tables when
 * the profile holds divergence figures (PASTA_DIVERGENCE=1 runs).
 *===----------------------------------------------------------------------===*/
#include "div_tables.h"

#include "profile/activity.h"
#include "profile/demangle.h"
#include "profile/text_table.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { CELL = 64, NAME_WIDTH = 48 };

/* num / den with two decimals, or "-" when den is 0. */
static void fmt_ratio(char *out, uint64_t num, uint64_t den) {
  if (!den)
    snprintf(out, CELL, "-");
  else
    snprintf(out, CELL, "%.2f", (double)num / (double)den);
}

/* num / den as a percentage, or "-". */
static void fmt_percent(char *out, uint64_t num, uint64_t den) {
  if (!den)
    snprintf(out, CELL, "-");
  else
    snprintf(out, CELL, "%.1f%%", 100.0 * (double)num / (double)den);
}

static uint64_t requests(const uint64_t *d) {
  return d[PASTA_DIV_REQUESTS_GLOBAL] + d[PASTA_DIV_REQUESTS_SHARED];
}

/* One row of the divergence table. */
static int func_row(struct text_table *t, const char *name, const uint64_t *d) {
  char c[11][CELL];
  pasta__cell_count(c[0], CELL, requests(d));
  pasta__cell_count(c[1], CELL, d[PASTA_DIV_BYTES]);
  pasta__cell_count(c[2], CELL, pasta_div_distinct_bytes(d));
  pasta__cell_count(c[3], CELL, d[PASTA_DIV_SECTORS]);
  fmt_ratio(c[4], d[PASTA_DIV_SECTORS], d[PASTA_DIV_REQUESTS_GLOBAL]);
  pasta__cell_count(c[5], CELL, pasta_div_excess_sectors(d));
  pasta__cell_count(c[6], CELL, d[PASTA_DIV_BANK_CONFLICTS]);
  pasta__cell_count(c[7], CELL, d[PASTA_DIV_BRANCHES]);
  pasta__cell_count(c[8], CELL, d[PASTA_DIV_DIVERGENT]);
  fmt_percent(c[9], d[PASTA_DIV_DIVERGENT], d[PASTA_DIV_BRANCHES]);
  fmt_ratio(c[10], d[PASTA_DIV_THREAD_EXECS], d[PASTA_DIV_WARP_EXECS]);
  return text_table_row(t, name, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
                        c[8], c[9], c[10]);
}

static const int func_left[12] = {1};

/* Under the table: the kernels with figures some of whose launches ran no
 * divergence copy (the launch table, where the profile has one), each
 * with what its figures cover (pasta__div_coverage_note). */
static void coverage_notes(FILE *out, const pasta_profile *p) {
  const pasta_activity *a = p->activity;
  for (size_t i = 0; a && i < p->num_kernels; ++i) {
    const pasta_profile_func *f = &p->kernels[i];
    if (!pasta_div_any(f->div) || !f->mangled)
      continue;
    for (size_t j = 0; j < a->num_kernels; ++j) {
      const pasta_activity_kernel *k = &a->kernels[j];
      char note[640], name[4 * NAME_WIDTH + 8];
      if (!k->mangled || strcmp(k->mangled, f->mangled) ||
          !pasta__div_coverage_note(k, note, sizeof note))
        continue;
      pasta__short_name(f->name, NAME_WIDTH, name, sizeof name);
      fprintf(out, "  note: %s: %s\n", name, note);
      break;
    }
  }
}

/* Kernels, then shared device functions, that have figures. */
static int func_table(FILE *out, const pasta_profile *p) {
  struct text_table t = {12, func_left, NULL, 0, 0};
  int err = text_table_row(&t, "kernel", "requests", "req B", "distinct B",
                           "sectors", "sect/req", "excess sect", "bank confl",
                           "branches", "divergent", "div %", "lanes/inst");
  const pasta_profile_func *groups[2] = {p->kernels, p->device_functions};
  size_t counts[2] = {p->num_kernels, p->num_device_functions};
  for (int g = 0; g < 2; ++g)
    for (size_t i = 0; i < counts[g]; ++i) {
      const pasta_profile_func *f = &groups[g][i];
      if (!pasta_div_any(f->div))
        continue;
      char name[4 * NAME_WIDTH + 8];
      pasta__short_name(f->name, NAME_WIDTH, name, sizeof name);
      err |= func_row(&t, name, f->div);
    }
  fprintf(out, "\ndivergence (warp-level; sectors of global loads/stores, "
               "bank conflicts of shared accesses):\n");
  text_table_print_free(out, &t);
  coverage_notes(out, p);
  return err;
}

struct ranked {
  const pasta_profile_line *line;
  uint64_t key;
};

static int cmp_ranked(const void *pa, const void *pb) {
  const struct ranked *a = pa, *b = pb;
  return (a->key < b->key) - (a->key > b->key);
}

typedef uint64_t (*line_key)(const uint64_t *div);

static uint64_t key_excess(const uint64_t *d) {
  return pasta_div_excess_sectors(d);
}
static uint64_t key_conflicts(const uint64_t *d) {
  return d[PASTA_DIV_BANK_CONFLICTS];
}
static uint64_t key_divergent(const uint64_t *d) {
  return d[PASTA_DIV_DIVERGENT];
}

/* "file:line" of a line, the file's last component only. */
static void fmt_location(char *out, const pasta_profile_line *l) {
  const char *file = l->file ? l->file : "?";
  const char *slash = strrchr(file, '/');
  snprintf(out, CELL, "%s:%" PRIu32, slash ? slash + 1 : file, l->line);
}

/* The three figures each top table shows besides its key. */
static void line_cells(char c[4][CELL], int which, const uint64_t *d) {
  if (which == 0) {
    pasta__cell_count(c[0], CELL, pasta_div_excess_sectors(d));
    pasta__cell_count(c[1], CELL, d[PASTA_DIV_SECTORS]);
    pasta__cell_count(c[2], CELL, d[PASTA_DIV_IDEAL_SECTORS]);
    fmt_ratio(c[3], d[PASTA_DIV_SECTORS], d[PASTA_DIV_REQUESTS_GLOBAL]);
  } else if (which == 1) {
    pasta__cell_count(c[0], CELL, d[PASTA_DIV_BANK_CONFLICTS]);
    pasta__cell_count(c[1], CELL, d[PASTA_DIV_REQUESTS_SHARED]);
    fmt_ratio(c[2], d[PASTA_DIV_BANK_CONFLICTS] + d[PASTA_DIV_REQUESTS_SHARED],
              d[PASTA_DIV_REQUESTS_SHARED]);
    pasta__cell_count(c[3], CELL, d[PASTA_DIV_DISTINCT_SHARED]);
  } else {
    pasta__cell_count(c[0], CELL, d[PASTA_DIV_DIVERGENT]);
    pasta__cell_count(c[1], CELL, d[PASTA_DIV_BRANCHES]);
    fmt_percent(c[2], d[PASTA_DIV_DIVERGENT], d[PASTA_DIV_BRANCHES]);
    fmt_ratio(c[3], d[PASTA_DIV_THREAD_EXECS], d[PASTA_DIV_WARP_EXECS]);
  }
}

static const char *const top_titles[3][6] = {
    {"top lines by excess sectors", "excess sect", "sectors", "ideal",
     "sect/req", "function"},
    {"top lines by bank conflicts", "bank confl", "shared req",
     "wavefronts/req", "distinct B", "function"},
    {"top lines by divergent branches", "divergent", "branches", "div %",
     "lanes/inst", "function"}};

static const int top_left[6] = {1, 0, 0, 0, 0, 1};

/* The top `top` lines by one key; nothing when no line has it. */
static int top_table(FILE *out, const pasta_profile *p, unsigned top, int which,
                     struct ranked *rank) {
  static const line_key keys[3] = {key_excess, key_conflicts, key_divergent};
  size_t n = 0;
  for (size_t i = 0; i < p->num_lines; ++i) {
    uint64_t k = keys[which](p->lines[i].div);
    if (k)
      rank[n++] = (struct ranked){&p->lines[i], k};
  }
  if (!n)
    return 0;
  qsort(rank, n, sizeof *rank, cmp_ranked);
  struct text_table t = {6, top_left, NULL, 0, 0};
  int err = text_table_row(&t, "line", top_titles[which][1],
                           top_titles[which][2], top_titles[which][3],
                           top_titles[which][4], top_titles[which][5]);
  for (size_t i = 0; i < n && i < top; ++i) {
    char loc[CELL], c[4][CELL], name[4 * NAME_WIDTH + 8];
    fmt_location(loc, rank[i].line);
    line_cells(c, which, rank[i].line->div);
    pasta__short_name(rank[i].line->function, NAME_WIDTH, name, sizeof name);
    err |= text_table_row(&t, loc, c[0], c[1], c[2], c[3], name);
  }
  fprintf(out, "\n%s:\n", top_titles[which][0]);
  text_table_print_free(out, &t);
  return err;
}

/* The lines with a figure derived from a compile-time proof and measured at
 * none of their sites, by requests and branches. */
static int proven_table(FILE *out, const pasta_profile *p, unsigned top,
                        struct ranked *rank) {
  size_t n = 0;
  for (size_t i = 0; i < p->num_lines; ++i) {
    const pasta_profile_line *l = &p->lines[i];
    if (pasta_div_proven(l) && pasta_div_any(l->div))
      rank[n++] =
          (struct ranked){l, requests(l->div) + l->div[PASTA_DIV_BRANCHES]};
  }
  if (!n)
    return 0;
  qsort(rank, n, sizeof *rank, cmp_ranked);
  static const int left[4] = {1, 0, 1, 1};
  struct text_table t = {4, left, NULL, 0, 0};
  int err = text_table_row(&t, "line", "requests", "not measured", "function");
  for (size_t i = 0; i < n && i < top; ++i) {
    char loc[CELL], req[CELL], what[160], name[4 * NAME_WIDTH + 8];
    fmt_location(loc, rank[i].line);
    pasta__cell_count(req, CELL, requests(rank[i].line->div));
    pasta_div_describe_proven(pasta_div_proven(rank[i].line), rank[i].line->div,
                              what, sizeof what);
    pasta__short_name(rank[i].line->function, NAME_WIDTH, name, sizeof name);
    err |= text_table_row(&t, loc, req, what, name);
  }
  fprintf(out,
          "\nlines proven at compile time (%zu; figures derived from the "
          "address's shape or a uniform condition, not measured; lane-affine "
          "ones where the block's rows of lanes are 32 wide):\n",
          n);
  text_table_print_free(out, &t);
  return err;
}

int pasta__div_tables_write(FILE *out, const pasta_profile *p, unsigned top) {
  int any = 0;
  for (size_t i = 0; i < p->num_kernels && !any; ++i)
    any = pasta_div_any(p->kernels[i].div);
  for (size_t i = 0; i < p->num_device_functions && !any; ++i)
    any = pasta_div_any(p->device_functions[i].div);
  if (!any)
    return 0;
  int err = func_table(out, p);
  struct ranked *rank =
      malloc((p->num_lines ? p->num_lines : 1) * sizeof *rank);
  if (!rank)
    return -1;
  for (int which = 0; which < 3 && top; ++which)
    err |= top_table(out, p, top, which, rank);
  if (top)
    err |= proven_table(out, p, top, rank);
  free(rank);
  return err || ferror(out) ? -1 : 0;
}
