/*===- fp64_lines.c - Example analyzer: where the FP64 work is ------------===*
 *
 * A complete PASTA analyzer in one file (docs/writing-an-analyzer.md): at
 * exit it lists the source lines with the most double-precision FLOPs and
 * the share of all f64 FLOPs each does, e.g. to find what keeps a kernel
 * off the faster f32 units. Link this file into an instrumented program (it
 * registers itself from a constructor); select it with
 * PASTA_ANALYZERS=fp64-lines (default: every registered analyzer runs).
 *===----------------------------------------------------------------------===*/
#include "pasta/analyzer.h"
#include "pasta/profile.h"

#include <inttypes.h>
#include <stdlib.h>

enum { FP64_TOP = 5 };

static int by_f64_desc(const void *a, const void *b) {
  uint64_t x =
      (*(const pasta_profile_line *const *)a)->counts.flops[PASTA_PREC_F64];
  uint64_t y =
      (*(const pasta_profile_line *const *)b)->counts.flops[PASTA_PREC_F64];
  return x < y ? 1 : x > y ? -1 : 0;
}

static int fp64_lines_report(void *state, const pasta_profile *p,
                             const pasta_analyzer_context *ctx) {
  (void)state;
  const pasta_profile_line **lines = calloc(p->num_lines + 1, sizeof *lines);
  if (!lines) {
    fprintf(stderr, "fp64-lines: error: out of memory\n");
    return -1;
  }
  size_t n = 0;
  uint64_t total = 0;
  for (size_t i = 0; i < p->num_lines; ++i) {
    uint64_t f = p->lines[i].counts.flops[PASTA_PREC_F64];
    if (f) {
      lines[n++] = &p->lines[i];
      total += f;
    }
  }
  qsort(lines, n, sizeof *lines, by_f64_desc);
  fprintf(ctx->log, "fp64-lines: %" PRIu64 " f64 FLOPs on %zu lines\n", total,
          n);
  for (size_t i = 0; i < n && i < FP64_TOP; ++i) {
    uint64_t f = lines[i]->counts.flops[PASTA_PREC_F64];
    fprintf(ctx->log, "fp64-lines: %s:%u %s %" PRIu64 " (%.1f%%)\n",
            lines[i]->file ? lines[i]->file : "?", lines[i]->line,
            lines[i]->function, f, 100.0 * (double)f / (double)total);
  }
  free(lines);
  return 0;
}

__attribute__((constructor)) static void fp64_lines_register(void) {
  static const pasta_analyzer analyzer = {.name = "fp64-lines",
                                          .on_report = fp64_lines_report};
  if (pasta_register_analyzer(&analyzer))
    fprintf(stderr, "fp64-lines: warning: could not register\n");
}
