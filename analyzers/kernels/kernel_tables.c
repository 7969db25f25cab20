/*===- kernel_tables.c - Kernel frequency: launches, GPU time, call paths -===*/
#include "kernel_tables.h"
#include "analyzers/builtin.h"
#include "profile/activity_text.h"
#include "profile/diag.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The GPU time of all of a's kernels (pasta__kernel_time); *estimated when
 * any was estimated. */
static double all_kernels_time(const pasta_activity *a, int *estimated) {
  double t = 0;
  *estimated = 0;
  for (size_t i = 0; i < a->num_kernels; ++i) {
    int est;
    t += pasta__kernel_time(&a->kernels[i], &est);
    *estimated |= est;
  }
  return t;
}

/* `all`: all_kernels_time. An estimated total starts with '~'. */
static void kernel_row(FILE *out, double all, const pasta_activity_kernel *k,
                       const char *name) {
  char total[32] = "-", mean[32] = "-", min[32] = "-", max[32] = "-";
  char share[16] = "-", site[256] = "-";
  if (k->timed) {
    int est;
    double t = pasta__kernel_time(k, &est);
    total[0] = '~';
    pasta__fmt_time(total + est, sizeof total - 1, t);
    pasta__fmt_time(mean, sizeof mean,
                    (double)k->time_total_ns / (double)k->timed);
    pasta__fmt_time(min, sizeof min, (double)k->time_min_ns);
    pasta__fmt_time(max, sizeof max, (double)k->time_max_ns);
    if (all > 0)
      snprintf(share, sizeof share, "%.1f%%", 100.0 * t / all);
  }
  const pasta_activity_path *p = pasta__top_path(k);
  if (p && p->num_frames)
    pasta__fmt_frame(site, sizeof site, &p->frames[0]);
  fprintf(out,
          "  %-*s %9" PRIu64 " %8" PRIu64 " %11s %6s %10s %10s %10s %6zu"
          "  %s\n",
          PASTA__NAME_WIDTH, name, k->launches, k->counted, total, share, mean,
          min, max, k->num_shapes, site);
}

static void kernel_paths(FILE *out, const pasta_activity_kernel *k) {
  for (size_t i = 0; i < k->num_paths && i < 3; ++i) {
    const pasta_activity_path *p = &k->paths[i];
    fprintf(out, "    %" PRIu64 "x", p->launches);
    for (uint32_t f = 0; f < p->num_frames; ++f) {
      char frame[256];
      pasta__fmt_frame(frame, sizeof frame, &p->frames[f]);
      fprintf(out, "%s%s", f ? " <- " : "  ", frame);
    }
    fputc('\n', out);
  }
}

/* Registers, local memory and occupancy of the shown kernels whose
 * resources the runtime read, plain -> counting copy, each with a note when
 * the counting copy fits fewer blocks on an SM or uses more local memory. */
static void resources_table(FILE *out, const pasta_activity *a,
                            const size_t *order, char *const *names,
                            size_t shown) {
  int any = 0;
  for (size_t i = 0; i < shown && !any; ++i)
    any = a->kernels[order[i]].resources.known;
  if (!any)
    return;
  fputs("pasta: registers, local memory and occupancy (plain -> counting "
        "copy, at the first launch's block size):\n",
        out);
  fprintf(out, "  %-*s %7s %12s %14s %13s\n", PASTA__NAME_WIDTH, "kernel",
          "block", "registers", "local bytes", "occupancy");
  for (size_t i = 0; i < shown; ++i) {
    const pasta_activity_kernel *k = &a->kernels[order[i]];
    const pasta_activity_resources *r = &k->resources;
    if (!r->known)
      continue;
    pasta_resources_text t;
    char note[640];
    pasta__fmt_resources(&t, r);
    fprintf(out, "  %-*s %7" PRIu32 " %12s %14s %13s\n", PASTA__NAME_WIDTH,
            names[i], r->block_threads, t.registers, t.local_bytes,
            t.occupancy);
    if (pasta__kernel_resources_note(k, note, sizeof note))
      fprintf(out, "    note: %s\n", note);
  }
}

/* Divergence mode: the shown kernels some of whose launches ran no
 * divergence copy, each with what its figures cover
 * (pasta__div_coverage_note). */
static void div_coverage(FILE *out, const pasta_activity *a,
                         const size_t *order, char *const *names,
                         size_t shown) {
  int said = 0;
  for (size_t i = 0; i < shown; ++i) {
    char note[640];
    if (!pasta__div_coverage_note(&a->kernels[order[i]], note, sizeof note))
      continue;
    if (!said)
      fputs("pasta: divergence launches not measured (their kernels' "
            "figures cover fewer launches):\n",
            out);
    said = 1;
    fprintf(out, "  %s\n    note: %s\n", names[i], note);
  }
}

static void memory_summary(FILE *out, const pasta_activity_memory *m) {
  char b[32];
  fputs("pasta: memory:", out);
  int any = 0;
  for (unsigned k = 0; k < PASTA_NUM_ALLOC_KINDS; ++k) {
    if (!m->allocs[k])
      continue;
    pasta__fmt_bytes(b, sizeof b, m->alloc_bytes[k]);
    fprintf(out, "%s %" PRIu64 " %s allocations (%s)", any ? "," : "",
            m->allocs[k], pasta__alloc_kind_name(k), b);
    any = 1;
  }
  if (!any)
    fputs(" no allocations", out);
  pasta__fmt_bytes(b, sizeof b, m->peak_bytes);
  fprintf(out, "; peak %s; %" PRIu64 " frees", b, m->frees);
  if (m->unknown_frees)
    fprintf(out, " (%" PRIu64 " of unknown pointers)", m->unknown_frees);
  if (m->live_allocs_at_exit) {
    pasta__fmt_bytes(b, sizeof b, m->live_bytes_at_exit);
    fprintf(out, "; %" PRIu64 " still allocated at exit (%s)",
            m->live_allocs_at_exit, b);
  }
  fputs("\npasta: copies:", out);
  any = 0;
  for (unsigned k = 0; k < PASTA_NUM_COPY_KINDS; ++k) {
    if (!m->copies[k])
      continue;
    pasta__fmt_bytes(b, sizeof b, m->copy_bytes[k]);
    fprintf(out, "%s %s %" PRIu64 " (%s)", any ? "," : "",
            pasta__copy_kind_name(k), m->copies[k], b);
    any = 1;
  }
  if (!any)
    fputs(" none", out);
  pasta__fmt_bytes(b, sizeof b, m->memset_bytes);
  fprintf(out,
          "; %" PRIu64 " async; %" PRIu64 " memsets (%s); syncs: %" PRIu64
          " device, %" PRIu64 " stream\n",
          m->async_copies, m->memsets, b, m->device_syncs, m->stream_syncs);
}

int pasta__activity_write_tables(FILE *out, const pasta_activity *a,
                                 unsigned top) {
  size_t *order = pasta__sorted_kernels(a);
  if (!order)
    return -1;
  char total[32] = "~";
  int est;
  double all = all_kernels_time(a, &est);
  pasta__fmt_time(total + est, sizeof total - 1, all);
  fprintf(out,
          "\npasta: kernel launches: %" PRIu64
          " launches of %zu kernels, %" PRIu64 " counted; GPU time %s",
          a->launches, a->num_kernels, a->counted, total);
  if (est)
    fprintf(out,
            " (estimated: %" PRIu64 " launches untimed, PASTA_TIMING=all "
            "times every one)",
            a->untimed);
  else if (a->untimed)
    fprintf(out, " (%" PRIu64 " launches untimed)", a->untimed);
  fputc('\n', out);
  fprintf(out, "  %-*s %9s %8s %11s %6s %10s %10s %10s %6s  %s\n",
          PASTA__NAME_WIDTH, "kernel", "launches", "counted", "GPU time",
          "share", "mean", "min", "max", "shapes", "launched from");
  size_t shown = a->num_kernels < top ? a->num_kernels : top;
  char **names = pasta__kernel_names(a, order, shown);
  if (!names) {
    free(order);
    return -1;
  }
  for (size_t i = 0; i < shown; ++i)
    kernel_row(out, all, &a->kernels[order[i]], names[i]);
  if (a->num_kernels > top)
    fprintf(out, "  ... %zu more kernels in the JSON profile\n",
            a->num_kernels - top);
  fputs("pasta: call paths (innermost first):\n", out);
  for (size_t i = 0; i < shown; ++i) {
    const pasta_activity_kernel *k = &a->kernels[order[i]];
    if (!k->num_paths)
      continue;
    fprintf(out, "  %s\n", names[i]);
    kernel_paths(out, k);
  }
  resources_table(out, a, order, names, shown);
  div_coverage(out, a, order, names, shown);
  free(names);
  memory_summary(out, &a->memory);
  free(order);
  return ferror(out) ? -1 : 0;
}

/*===-- The analyzer ----------------------------------------------------===*/

static int report(void *state, const pasta_profile *p,
                  const pasta_analyzer_context *ctx) {
  (void)state;
  if (ctx->quiet || !p->activity)
    return 0;
  if (pasta__activity_write_tables(ctx->log, p->activity, ctx->top_lines) == 0)
    return 0;
  PASTA_WARN("could not print the kernel launches\n");
  return -1;
}

const pasta_analyzer pasta__kernels_analyzer = {.name = "kernels",
                                                .on_report = report};
