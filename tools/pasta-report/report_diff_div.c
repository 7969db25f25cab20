/*===- report_diff_div.c - pasta-report diff: divergence figures ----------===*
 *
 * Kernels (by mangled name) with divergence figures in either profile:
 * excess sectors, bank conflicts, divergent branches and distinct bytes,
 * before and after, each with its change. Nothing when neither profile
 * comes from a PASTA_DIVERGENCE=1 run.
 *===----------------------------------------------------------------------===*/
#include "report.h"

#include "profile/demangle.h"
#include "profile/text_table.h"

#include <inttypes.h>
#include <string.h>

enum { CELL = 48, NAME_WIDTH = 40 };

/* "before -> after (+change)". */
static void fmt_pair(char *out, uint64_t before, uint64_t after) {
  uint64_t d = after > before ? after - before : before - after;
  snprintf(out, CELL, "%" PRIu64 " -> %" PRIu64 " (%s%" PRIu64 ")", before,
           after,
           after == before  ? ""
           : after > before ? "+"
                            : "-",
           d);
}

static int diff_row(struct text_table *t, const char *name, const uint64_t *b,
                    const uint64_t *a) {
  char c[4][CELL];
  fmt_pair(c[0], pasta_div_excess_sectors(b), pasta_div_excess_sectors(a));
  fmt_pair(c[1], b[PASTA_DIV_BANK_CONFLICTS], a[PASTA_DIV_BANK_CONFLICTS]);
  fmt_pair(c[2], b[PASTA_DIV_DIVERGENT], a[PASTA_DIV_DIVERGENT]);
  fmt_pair(c[3], pasta_div_distinct_bytes(b), pasta_div_distinct_bytes(a));
  return text_table_row(t, name, c[0], c[1], c[2], c[3]);
}

/* Kernels of `p` with figures that `other` lacks entirely (first = 1: p is
 * the before profile) go in too, against zeros. */
static int add_rows(struct text_table *t, const pasta_profile *p,
                    const pasta_profile *other, int first, size_t *rows) {
  static const uint64_t none[PASTA_DIV_NUM];
  int err = 0;
  for (size_t i = 0; i < p->num_kernels; ++i) {
    const pasta_profile_func *f = &p->kernels[i];
    const pasta_profile_func *g = pasta_profile_find_kernel(other, f->mangled);
    int mine = pasta_div_any(f->div), theirs = g && pasta_div_any(g->div);
    if (!mine && !theirs)
      continue;
    if (!first && theirs)
      continue; /* already a row, from the before profile */
    char name[4 * NAME_WIDTH + 8];
    pasta__short_name(f->name, NAME_WIDTH, name, sizeof name);
    const uint64_t *o = g ? g->div : none;
    err |= first ? diff_row(t, name, f->div, o) : diff_row(t, name, o, f->div);
    ++*rows;
  }
  return err;
}

static int any_divergence(const pasta_profile *p) {
  for (size_t i = 0; i < p->num_kernels; ++i)
    if (pasta_div_any(p->kernels[i].div))
      return 1;
  return 0;
}

int pasta__report_diff_divergence(FILE *out, const pasta_profile *before,
                                  const pasta_profile *after) {
  if (!any_divergence(before) && !any_divergence(after))
    return 0;
  static const int left[5] = {1};
  struct text_table t = {5, left, NULL, 0, 0};
  int err = text_table_row(&t, "kernel", "excess sectors", "bank conflicts",
                           "divergent branches", "distinct bytes");
  size_t rows = 0;
  err |= add_rows(&t, before, after, 1, &rows);
  err |= add_rows(&t, after, before, 0, &rows);
  fprintf(out, "\nDivergence (before -> after):\n");
  text_table_print_free(out, &t);
  return err;
}
