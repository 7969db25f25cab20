/*===- report_activity_diff.c - Diff of the activity sections -------------===*
 *
 * Reads the sections of two profiles back (activity_read.h), pairs their
 * kernels by mangled name and prints them side by side: launches, GPU time,
 * achieved bandwidth and working set, then the memory totals.
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "report.h"
#include "report_activity.h"

#include "profile/activity_read.h"
#include "profile/bandwidth.h"
#include "profile/text_table.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* One side of a kernel in the diff. */
struct side {
  const pasta_activity_kernel *k; /* NULL: not in this profile */
  const pasta_bw_row *bw;         /* its bandwidth row, or NULL */
};

struct pair {
  struct side b, a;
};

static const char *pair_name(const struct pair *p) {
  const pasta_activity_kernel *k = p->b.k ? p->b.k : p->a.k;
  return k->name ? k->name : "?";
}

static uint64_t abs_diff(uint64_t x, uint64_t y) {
  return x > y ? x - y : y - x;
}

/* Biggest change of GPU time first, then of launches, then by name. */
static int cmp_pair(const void *pa, const void *pb) {
  const struct pair *x = pa, *y = pb;
  uint64_t tx = abs_diff(x->b.k ? x->b.k->time_total_ns : 0,
                         x->a.k ? x->a.k->time_total_ns : 0);
  uint64_t ty = abs_diff(y->b.k ? y->b.k->time_total_ns : 0,
                         y->a.k ? y->a.k->time_total_ns : 0);
  if (tx != ty)
    return tx < ty ? 1 : -1;
  uint64_t lx =
      abs_diff(x->b.k ? x->b.k->launches : 0, x->a.k ? x->a.k->launches : 0);
  uint64_t ly =
      abs_diff(y->b.k ? y->b.k->launches : 0, y->a.k ? y->a.k->launches : 0);
  if (lx != ly)
    return lx < ly ? 1 : -1;
  int c = strcmp(pair_name(x), pair_name(y));
  if (c)
    return c;
  const pasta_activity_kernel *kx = x->b.k ? x->b.k : x->a.k;
  const pasta_activity_kernel *ky = y->b.k ? y->b.k : y->a.k;
  return strcmp(pasta__activity_kernel_key(kx), pasta__activity_kernel_key(ky));
}

/* Before and after of kernels by key; sorted by cmp_pair. */
static struct pair *pair_kernels(const pasta_activity *b,
                                 const pasta_bw_row *const *bb,
                                 const pasta_activity *a,
                                 const pasta_bw_row *const *ab, size_t *n) {
  size_t cap = b->num_kernels + a->num_kernels;
  struct pair *p = calloc(cap ? cap : 1, sizeof *p);
  if (!p)
    return NULL;
  size_t np = 0;
  for (size_t i = 0; i < b->num_kernels; ++i)
    p[np++].b = (struct side){&b->kernels[i], bb[i]};
  for (size_t i = 0; i < a->num_kernels; ++i) {
    size_t j = 0;
    while (j < np && (p[j].a.k || !p[j].b.k ||
                      strcmp(pasta__activity_kernel_key(p[j].b.k),
                             pasta__activity_kernel_key(&a->kernels[i])) != 0))
      ++j;
    if (j == np)
      ++np;
    p[j].a = (struct side){&a->kernels[i], ab[i]};
  }
  qsort(p, np, sizeof *p, cmp_pair);
  *n = np;
  return p;
}

static void fmt_ratio(char *out, size_t size, int have_b, double b, int have_a,
                      double a) {
  if (have_b && have_a && b > 0)
    snprintf(out, size, a / b >= 0.01 || a == 0 ? "%.2fx" : "%.2gx", a / b);
  else
    snprintf(out, size, "-");
}

/* One metric row: values as text ("-" when absent) and the ratio. Returns
 * whether before and after print the same. */
static int metric_row(struct text_table *t, int *err, const char *kernel,
                      const char *status, const char *metric,
                      const char *before, const char *after, int have_b,
                      double b, int have_a, double a) {
  char ratio[32];
  fmt_ratio(ratio, sizeof ratio, have_b, b, have_a, a);
  *err |= text_table_row(t, kernel, status, metric, before, after, ratio);
  return strcmp(before, after) == 0;
}

static void fmt_u64(char *out, size_t size, int have, uint64_t v) {
  if (have)
    snprintf(out, size, "%" PRIu64, v);
  else
    snprintf(out, size, "-");
}

/* Achieved bandwidth in GB/s (3 significant digits); "*" when timed on
 * instrumented launches; "-" without a time or bytes (no counted launch). */
static int fmt_bandwidth(char *out, size_t size, const pasta_bw_row *r) {
  if (!r || r->time_source == PASTA_BW_TIME_NONE || r->bandwidth <= 0) {
    snprintf(out, size, "-");
    return 0;
  }
  snprintf(out, size, "%.3g%s", r->bandwidth / 1e9,
           r->time_source == PASTA_BW_TIME_COUNTED ? "*" : "");
  return 1;
}

/* The rows of one kernel, with its status in the first row. */
static int pair_rows(struct text_table *t, const struct pair *p) {
  const pasta_activity_kernel *kb = p->b.k, *ka = p->a.k;
  char cell[5][2][48];
  struct {
    const char *name;
    int have[2];
    double v[2];
  } m[5];
  unsigned n = 0;
  const pasta_activity_kernel *k[2] = {kb, ka};
  const pasta_bw_row *bw[2] = {p->b.bw, p->a.bw};

  m[n].name = "launches";
  for (int s = 0; s < 2; ++s) {
    m[n].have[s] = k[s] != NULL;
    m[n].v[s] = k[s] ? (double)k[s]->launches : 0;
    fmt_u64(cell[n][s], sizeof cell[n][s], k[s] != NULL,
            k[s] ? k[s]->launches : 0);
  }
  ++n;
  m[n].name = "GPU time (us)";
  for (int s = 0; s < 2; ++s) {
    m[n].have[s] = k[s] && k[s]->timed;
    m[n].v[s] = k[s] ? (double)k[s]->time_total_ns : 0;
    if (m[n].have[s])
      snprintf(cell[n][s], sizeof cell[n][s], "%.1f", m[n].v[s] / 1e3);
    else
      snprintf(cell[n][s], sizeof cell[n][s], "-");
  }
  ++n;
  int any_bw = 0;
  for (int s = 0; s < 2; ++s) {
    m[n].have[s] = fmt_bandwidth(cell[n][s], sizeof cell[n][s], bw[s]);
    m[n].v[s] = m[n].have[s] ? bw[s]->bandwidth : 0;
    any_bw |= m[n].have[s];
  }
  if (any_bw) {
    m[n].name = "bandwidth (GB/s)";
    ++n;
  }
  if ((kb && kb->ws_launches) || (ka && ka->ws_launches)) {
    m[n].name = "max footprint (B)";
    m[n + 1].name = "max touched (B)";
    for (int s = 0; s < 2; ++s) {
      int have = k[s] && k[s]->ws_launches;
      m[n].have[s] = m[n + 1].have[s] = have;
      m[n].v[s] = have ? (double)k[s]->ws_max_footprint_bytes : 0;
      m[n + 1].v[s] = have ? (double)k[s]->ws_max_touched_bytes : 0;
      fmt_u64(cell[n][s], sizeof cell[n][s], have,
              have ? k[s]->ws_max_footprint_bytes : 0);
      fmt_u64(cell[n + 1][s], sizeof cell[n + 1][s], have,
              have ? k[s]->ws_max_touched_bytes : 0);
    }
    n += 2;
  }
  int same = kb && ka;
  for (unsigned i = 0; i < n && same; ++i)
    same = strcmp(cell[i][0], cell[i][1]) == 0;
  const char *status = !kb    ? "added"
                       : !ka  ? "removed"
                       : same ? "same"
                              : "changed";
  int err = 0;
  for (unsigned i = 0; i < n; ++i)
    metric_row(t, &err, i ? "" : pair_name(p), i ? "" : status, m[i].name,
               cell[i][0], cell[i][1], m[i].have[0], m[i].v[0], m[i].have[1],
               m[i].v[1]);
  return err;
}

static int diff_memory(FILE *out, const pasta_activity_read *b,
                       const pasta_activity_read *a) {
  const pasta_activity_read *r[2] = {b, a};
  uint64_t v[6][2];
  static const char *const names[6] = {"allocations", "allocated bytes",
                                       "copies",      "copied bytes",
                                       "memsets",     "peak bytes"};
  for (int s = 0; s < 2; ++s) {
    const pasta_activity_memory *m = &r[s]->activity.memory;
    for (unsigned i = 0; i < 6; ++i)
      v[i][s] = 0;
    for (unsigned k = 0; k < PASTA_NUM_ALLOC_KINDS; ++k) {
      v[0][s] = pasta__sat_add(v[0][s], m->allocs[k]);
      v[1][s] = pasta__sat_add(v[1][s], m->alloc_bytes[k]);
    }
    for (unsigned k = 0; k < PASTA_NUM_COPY_KINDS; ++k) {
      v[2][s] = pasta__sat_add(v[2][s], m->copies[k]);
      v[3][s] = pasta__sat_add(v[3][s], m->copy_bytes[k]);
    }
    v[4][s] = m->memsets;
    v[5][s] = m->peak_bytes;
  }
  static const int left[] = {1, 0, 0, 0};
  struct text_table t = {4, left, NULL, 0, 0};
  int err = text_table_row(&t, "memory", "before", "after", "ratio");
  for (unsigned i = 0; i < 6; ++i) {
    char sb[32], sa[32], ratio[32];
    fmt_u64(sb, sizeof sb, b->present, v[i][0]);
    fmt_u64(sa, sizeof sa, a->present, v[i][1]);
    fmt_ratio(ratio, sizeof ratio, b->present, (double)v[i][0], a->present,
              (double)v[i][1]);
    err |= text_table_row(&t, names[i], sb, sa, ratio);
  }
  fputs("Memory (sums over allocations and copies; peak of the largest "
        "process):\n",
        out);
  text_table_print_free(out, &t);
  return err;
}

int pasta__report_diff_activity(FILE *out, json_t *before, json_t *after) {
  pasta_activity_read rb, ra;
  if (pasta__activity_read_json(before, &rb))
    return -1;
  if (pasta__activity_read_json(after, &ra)) {
    pasta__activity_read_free(&rb);
    return -1;
  }
  int err = 0;
  if (!rb.present && !ra.present) {
    /* The runtime writes these sections once it sees a CUDA or HIP call.
     * Without them, counted kernels mean that their launches went unseen;
     * without kernels, the programs made no such call (host code only). */
    int kernels = json_array_size(json_object_get(before, "kernels")) ||
                  json_array_size(json_object_get(after, "kernels"));
    fputs(kernels ? "No launches, GPU times, bandwidth or working sets in "
                    "either profile: their kernels were counted but PASTA saw "
                    "none of their launches (host code built without the "
                    "plugin, or with PASTA_INTERCEPT=0).\n"
                  : "No launches, GPU times, bandwidth or working sets in "
                    "either profile: PASTA saw no CUDA or HIP call in either "
                    "program.\n",
          out);
  } else {
    const pasta_bw_row **bb = pasta__activity_rows_by_kernel(
        &rb, json_object_get(before, "bandwidth"));
    const pasta_bw_row **ab = pasta__activity_rows_by_kernel(
        &ra, json_object_get(after, "bandwidth"));
    size_t np = 0;
    struct pair *p =
        bb && ab ? pair_kernels(&rb.activity, bb, &ra.activity, ab, &np) : NULL;
    err = !p;
    if (p) {
      static const int left[] = {1, 1, 1, 0, 0, 0};
      struct text_table t = {6, left, NULL, 0, 0};
      err |= text_table_row(&t, "kernel", "status", "metric", "before", "after",
                            "ratio");
      for (size_t i = 0; i < np; ++i)
        err |= pair_rows(&t, &p[i]);
      fputs("Launches, GPU time, bandwidth and working sets (ratio = after / "
            "before; GB/s* timed on instrumented launches only):\n",
            out);
      text_table_print_free(out, &t);
      fputc('\n', out);
      err |= diff_memory(out, &rb, &ra);
    }
    free(p);
    free((void *)bb);
    free((void *)ab);
  }
  pasta__activity_read_free(&rb);
  pasta__activity_read_free(&ra);
  return err || ferror(out) ? -1 : 0;
}
