/*===- activity_text.c - Activity values as table text --------------------===*/
#include "activity_text.h"
#include "demangle.h"
#include "text_table.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void fmt_change(char *out, size_t size, int64_t plain,
                       int64_t counting) {
  char a[24] = "-", b[24] = "-";
  if (plain >= 0)
    snprintf(a, sizeof a, "%lld", (long long)plain);
  if (counting >= 0)
    snprintf(b, sizeof b, "%lld", (long long)counting);
  snprintf(out, size, "%s -> %s", a, b);
}

/* The counting copy that ran at r's block: the kernel's own, or its
 * register-capped copy. */
static const pasta_copy_resources *
counting_that_ran(const pasta_activity_resources *r) {
  return r->has_capped ? &r->capped : &r->counting;
}

static void fmt_occupancy_change(char *out, size_t size,
                                 const pasta_activity_resources *r) {
  double p = pasta__occupancy(r, &r->plain),
         c = pasta__occupancy(r, counting_that_ran(r));
  char a[16] = "-", b[16] = "-";
  if (p >= 0)
    snprintf(a, sizeof a, "%.0f%%", 100 * p);
  if (c >= 0)
    snprintf(b, sizeof b, "%.0f%%", 100 * c);
  snprintf(out, size, "%s -> %s", a, b);
}

void pasta__fmt_resources(pasta_resources_text *t,
                          const pasta_activity_resources *r) {
  const pasta_copy_resources *c = counting_that_ran(r);
  fmt_change(t->registers, sizeof t->registers, r->plain.registers,
             c->registers);
  fmt_change(t->local_bytes, sizeof t->local_bytes, r->plain.local_bytes,
             c->local_bytes);
  fmt_occupancy_change(t->occupancy, sizeof t->occupancy, r);
}

void pasta__fmt_bytes(char *out, size_t size, uint64_t v) {
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double x = (double)v;
  unsigned u = 0;
  while (x >= 1024.0 && u + 1 < sizeof units / sizeof units[0]) {
    x /= 1024.0;
    ++u;
  }
  if (u == 0)
    snprintf(out, size, "%" PRIu64 " B", v);
  else
    snprintf(out, size, "%.1f %s", x, units[u]);
}

void pasta__fmt_time(char *out, size_t size, double ns) {
  if (ns >= 1e9)
    snprintf(out, size, "%.3f s", ns / 1e9);
  else if (ns >= 1e6)
    snprintf(out, size, "%.3f ms", ns / 1e6);
  else if (ns >= 1e3)
    snprintf(out, size, "%.1f us", ns / 1e3);
  else
    snprintf(out, size, "%.0f ns", ns);
}

static const char *basename_of(const char *path) {
  const char *slash = path ? strrchr(path, '/') : NULL;
  return slash ? slash + 1 : path;
}

/* "function (file:line)" of a frame, as short as it can be. */
void pasta__fmt_frame(char *out, size_t size, const pasta_activity_frame *f) {
  char b1[4 * PASTA__NAME_WIDTH], b2[256], b3[16 * PASTA__NAME_WIDTH];
  pasta__short_name(f->function ? f->function : "?", PASTA__NAME_WIDTH, b1,
                    sizeof b1);
  const char *fn = PASTA__SAFE(b1, b3);
  if (f->file && f->line)
    snprintf(out, size, "%s (%s:%" PRIu32 ")", fn,
             PASTA__SAFE(basename_of(f->file), b2), f->line);
  else if (f->object)
    snprintf(out, size, "%s (%s+0x%" PRIx64 ")", fn,
             PASTA__SAFE(basename_of(f->object), b2), f->offset);
  else
    snprintf(out, size, "%s", fn);
}

double pasta__kernel_time(const pasta_activity_kernel *k, int *estimated) {
  uint64_t ran = k->launches > k->failed ? k->launches - k->failed : 0;
  int est = k->timed && k->timed < ran;
  if (estimated)
    *estimated = est;
  if (!est)
    return (double)k->time_total_ns;
  return (double)k->time_total_ns / (double)k->timed * (double)ran;
}

/* Kernels by GPU time, then launches (descending), as indices. */
static const pasta_activity *sort_base;
static int cmp_kernel(const void *pa, const void *pb) {
  const pasta_activity_kernel *a = &sort_base->kernels[*(const size_t *)pa];
  const pasta_activity_kernel *b = &sort_base->kernels[*(const size_t *)pb];
  double ta = pasta__kernel_time(a, NULL), tb = pasta__kernel_time(b, NULL);
  if (ta != tb)
    return ta < tb ? 1 : -1;
  if (a->launches != b->launches)
    return a->launches < b->launches ? 1 : -1;
  return strcmp(a->name ? a->name : "", b->name ? b->name : "");
}

size_t *pasta__sorted_kernels(const pasta_activity *a) {
  size_t *order = malloc((a->num_kernels ? a->num_kernels : 1) * sizeof *order);
  if (!order)
    return NULL;
  for (size_t i = 0; i < a->num_kernels; ++i)
    order[i] = i;
  sort_base = a;
  qsort(order, a->num_kernels, sizeof *order, cmp_kernel);
  return order;
}

const pasta_activity_path *pasta__top_path(const pasta_activity_kernel *k) {
  const pasta_activity_path *best = NULL;
  for (size_t i = 0; i < k->num_paths; ++i)
    if (!best || k->paths[i].launches > best->launches)
      best = &k->paths[i];
  return best;
}

/* The name column of the first n kernels of `order` (demangle.h). */
char **pasta__kernel_names(const pasta_activity *a, const size_t *order,
                           size_t n) {
  const char **names = malloc((n ? n : 1) * sizeof *names);
  if (!names)
    return NULL;
  for (size_t i = 0; i < n; ++i)
    names[i] = a->kernels[order[i]].name;
  char **cells = pasta__short_safe_names(names, n, PASTA__NAME_WIDTH);
  free(names);
  return cells;
}
