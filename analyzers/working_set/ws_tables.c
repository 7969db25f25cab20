/*===- ws_tables.c - Working-set statistics and the per-kernel table ------===*/
#include "ws_tables.h"
#include "analyzers/builtin.h"
#include "hotness_files.h"
#include "profile/activity_text.h"
#include "profile/diag.h"

#include <inttypes.h>
#include <stdlib.h>

static void fmt_stats(char *out, size_t size, const pasta_ws_stats *s) {
  char mx[32], mn[32], avg[32], med[32], p90[32];
  pasta__fmt_bytes(mx, sizeof mx, s->max);
  pasta__fmt_bytes(mn, sizeof mn, s->min);
  pasta__fmt_bytes(avg, sizeof avg, pasta_u64_from_double(s->mean + 0.5));
  pasta__fmt_bytes(med, sizeof med, s->median);
  pasta__fmt_bytes(p90, sizeof p90, s->p90);
  snprintf(out, size, "max %s, min %s, mean %s, median %s, p90 %s", mx, mn, avg,
           med, p90);
}

int pasta__activity_write_ws_tables(FILE *out, const pasta_activity *a,
                                    unsigned top) {
  pasta_ws_stats touched, footprint;
  size_t *order = pasta__sorted_kernels(a);
  if (!order || pasta__activity_ws_stats(a, &touched, &footprint)) {
    free(order);
    return -1;
  }
  char page[32], peak[32], line[256];
  pasta__fmt_bytes(page, sizeof page, a->page_size);
  pasta__fmt_bytes(peak, sizeof peak, a->memory.peak_bytes);
  fprintf(out,
          "\npasta: working set (%zu launches tracked, %s pages; memory "
          "footprint of the program: %s at peak)\n",
          a->num_ws_launches, page, peak);
  fmt_stats(line, sizeof line, &touched);
  fprintf(out, "  touched bytes per launch:           %s\n", line);
  fmt_stats(line, sizeof line, &footprint);
  fprintf(out, "  touched allocations' bytes per launch: %s\n", line);
  fprintf(out, "  %-*s %9s %14s %16s\n", PASTA__NAME_WIDTH, "kernel", "tracked",
          "max touched", "max footprint");
  size_t shown = a->num_kernels < top ? a->num_kernels : top;
  char **names = pasta__kernel_names(a, order, shown);
  for (size_t i = 0; names && i < shown; ++i) {
    const pasta_activity_kernel *k = &a->kernels[order[i]];
    if (!k->ws_launches)
      continue;
    char t[32], f[32];
    pasta__fmt_bytes(t, sizeof t, k->ws_max_touched_bytes);
    pasta__fmt_bytes(f, sizeof f, k->ws_max_footprint_bytes);
    fprintf(out, "  %-*s %9" PRIu64 " %14s %16s\n", PASTA__NAME_WIDTH, names[i],
            k->ws_launches, t, f);
  }
  free(names);
  if (a->outside) {
    fprintf(out,
            "pasta: warning: %" PRIu64 " accesses outside every known "
            "allocation",
            a->outside);
    char b1[256], b2[256];
    if (a->outside_kernel)
      fprintf(out, " (first: %s at %s:%" PRIu32 ")",
              PASTA__SAFE(a->outside_kernel, b1),
              PASTA__SAFE(a->outside_file ? a->outside_file : "?", b2),
              a->outside_line);
    fputs(" — __device__ variables, or memory PASTA did not see allocated\n",
          out);
  }
  if (a->ws_skipped)
    fprintf(out,
            "pasta: warning: %" PRIu64 " launches ran without working-set "
            "tracking (no working-set copy, none whose registers the block "
            "could have, or its buffers could not be set up)\n",
            a->ws_skipped);
  free(order);
  return ferror(out) ? -1 : 0;
}

/*===-- The analyzer ----------------------------------------------------===*/

/* What the hotness writers need: the map and the SVG's title. */
struct hotness_file {
  const pasta_hotness *hotness;
  const char *title;
};

static int hotness_csv(FILE *f, const void *arg) {
  return pasta__hotness_write_csv(f,
                                  ((const struct hotness_file *)arg)->hotness);
}

static int hotness_svg(FILE *f, const void *arg) {
  const struct hotness_file *h = arg;
  return pasta__hotness_write_svg(f, h->hotness, h->title);
}

/* The hotness map as CSV and SVG next to the profile. */
static int write_hotness(const pasta_activity *a,
                         const pasta_analyzer_context *ctx) {
  struct hotness_file h = {&a->hotness, ctx->program};
  int csv =
      ctx->write_file(ctx, ".hotness.csv", "hotness map", hotness_csv, &h);
  int svg =
      ctx->write_file(ctx, ".hotness.svg", "hotness map", hotness_svg, &h);
  return csv || svg ? -1 : 0;
}

static int report(void *state, const pasta_profile *p,
                  const pasta_analyzer_context *ctx) {
  (void)state;
  const pasta_activity *a = p->activity;
  if (!a || !a->ws_enabled)
    return 0;
  int rc = 0;
  if (!ctx->quiet &&
      pasta__activity_write_ws_tables(ctx->log, a, ctx->top_lines) != 0) {
    PASTA_WARN("could not print the working sets\n");
    rc = -1;
  }
  if (a->hotness.num_launches && write_hotness(a, ctx))
    rc = -1;
  return rc;
}

const pasta_analyzer pasta__working_set_analyzer = {.name = "working-set",
                                                    .on_report = report};
