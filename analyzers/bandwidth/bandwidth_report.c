/*===- bandwidth_report.c - The bandwidth table and the roofline SVG ------===*/
#include "bandwidth_report.h"
#include "analyzers/builtin.h"
#include "profile/demangle.h"
#include "profile/diag.h"
#include "profile/markup.h"
#include "profile/text_table.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/*===-- Table -------------------------------------------------------------===*/

static void fmt_rate(char *out, size_t size, double v, const char *unit) {
  if (v <= 0)
    snprintf(out, size, "-");
  else if (v >= 1e12)
    snprintf(out, size, "%.2f T%s", v / 1e12, unit);
  else if (v >= 1e9)
    snprintf(out, size, "%.1f G%s", v / 1e9, unit);
  else
    snprintf(out, size, "%.1f M%s", v / 1e6, unit);
}

static void fmt_fraction(char *out, size_t size, double f) {
  if (f < 0)
    snprintf(out, size, "-");
  else
    snprintf(out, size, "%.0f%%", 100 * f);
}

static void peaks_line(FILE *out, const pasta_device_peaks *k) {
  char bw[32], bwt[32], fp[32], dp[32];
  fmt_rate(bw, sizeof bw, k->bw_measured, "B/s");
  fmt_rate(bwt, sizeof bwt, k->bw_theoretical, "B/s");
  fmt_rate(fp, sizeof fp, k->flops[PASTA_PREC_F32], "FLOP/s");
  fmt_rate(dp, sizeof dp, k->flops[PASTA_PREC_F64], "FLOP/s");
  fprintf(out,
          "pasta: device %d (sm_%d%d, %d SMs): memory %s measured (D2D copy), "
          "%s theoretical; f32 %s, f64 %s peak (no tensor cores)\n",
          k->device, k->cc_major, k->cc_minor, k->sm_count, bw, bwt, fp, dp);
}

int pasta__bw_write_table(FILE *out, const pasta_bw_row *rows, size_t n,
                          const pasta_activity *a) {
  fputs("\npasta: bandwidth and compute intensity (per launch; times of "
        "plain launches: p, of instrumented ones: i)\n",
        out);
  peaks_line(out, &a->peaks);
  const char **kernels = malloc((n ? n : 1) * sizeof *kernels);
  if (!kernels)
    return -1;
  for (size_t i = 0; i < n; ++i)
    kernels[i] = rows[i].kernel;
  /* Short and distinct (demangle.h): CUB's fit at their short form. */
  enum { NAME_WIDTH = 48 };
  char **names = pasta__short_safe_names(kernels, n, NAME_WIDTH);
  free(kernels);
  if (!names)
    return -1;
  fprintf(out, "  %-*s %8s %8s %12s %11s %5s %11s %11s %8s %5s  %s\n",
          NAME_WIDTH, "kernel", "launches", "counted", "time", "requested",
          "peak", "unique", "FLOP/s", "FLOP/B", "peak", "bound");
  for (size_t i = 0; i < n; ++i) {
    const pasta_bw_row *r = &rows[i];
    char t[32] = "-", bw[32], ubw[32], fl[32], ai[16] = "-", fb[16], ff[16];
    if (r->time_source != PASTA_BW_TIME_NONE)
      snprintf(t, sizeof t, "%.1f us %c", r->time_ns / 1e3,
               r->time_source == PASTA_BW_TIME_PLAIN ? 'p' : 'i');
    fmt_rate(bw, sizeof bw, r->bandwidth, "B/s");
    fmt_rate(ubw, sizeof ubw, r->unique_bandwidth, "B/s");
    fmt_rate(fl, sizeof fl, r->flop_rate, "F/s");
    if (r->intensity >= 0)
      snprintf(ai, sizeof ai, "%.3g", r->intensity);
    fmt_fraction(fb, sizeof fb, r->bandwidth_fraction);
    fmt_fraction(ff, sizeof ff, r->flop_fraction);
    char bound[64];
    fprintf(out,
            "  %-*s %8" PRIu64 " %8" PRIu64
            " %12s %11s %5s %11s %11s %8s %5s  %s\n",
            NAME_WIDTH, names[i], r->launches, r->counted, t, bw, fb, ubw, fl,
            ai, ff, pasta__text_safe(r->bound, bound, sizeof bound));
  }
  free(names);
  if (a->sample > 1)
    fprintf(out,
            "pasta: PASTA_SAMPLE=%u: one launch in %u of each kernel counted; "
            "per-launch counts are theirs, totals extrapolate\n",
            a->sample, a->sample);
  const pasta_activity_memory *m = &a->memory;
  for (unsigned k = 0; k < PASTA_NUM_COPY_KINDS; ++k) {
    uint64_t sync = m->copies[k];
    if (!sync || !m->copy_ns[k])
      continue;
    char bw[32];
    fmt_rate(bw, sizeof bw, (double)m->copy_bytes[k] / (m->copy_ns[k] * 1e-9),
             "B/s");
    fprintf(out,
            "pasta: copies %s: %" PRIu64 " (%" PRIu64
            " from/to pinned memory), %s over the synchronous ones\n",
            pasta__copy_kind_name(k), m->copies[k], m->copies_pinned[k], bw);
  }
  return ferror(out) ? -1 : 0;
}

/*===-- Roofline SVG ------------------------------------------------------===*/

enum { SVG_W = 800, SVG_H = 520, LEFT = 90, RIGHT = 30, TOP = 50, BOTTOM = 60 };

struct axes {
  double x0, x1, y0, y1; /* log10 ranges */
};

static double log10_of(double v) {
  /* log10 without libm: the runtime links libc only. */
  int e = 0;
  while (v >= 10) {
    v /= 10;
    ++e;
  }
  while (v > 0 && v < 1) {
    v *= 10;
    --e;
  }
  /* v in [1, 10): log10(v) by a short series on ln. */
  double y = (v - 1) / (v + 1), y2 = y * y, ln = 0, term = y;
  for (int k = 1; k < 40; k += 2) {
    ln += term / k;
    term *= y2;
  }
  return e + 2 * ln / 2.302585092994046;
}

static double px_x(const struct axes *a, double v) {
  return LEFT +
         (log10_of(v) - a->x0) / (a->x1 - a->x0) * (SVG_W - LEFT - RIGHT);
}

static double px_y(const struct axes *a, double v) {
  return SVG_H - BOTTOM -
         (log10_of(v) - a->y0) / (a->y1 - a->y0) * (SVG_H - TOP - BOTTOM);
}

static double pow10_int(int e) {
  double v = 1;
  for (; e > 0; --e)
    v *= 10;
  for (; e < 0; ++e)
    v /= 10;
  return v;
}

static int plottable(const pasta_bw_row *r) {
  return r->time_source != PASTA_BW_TIME_NONE && r->intensity > 0 &&
         r->flop_rate > 0;
}

/* Decades that hold the points and the ceilings' knees. */
static struct axes axes_for(const pasta_bw_row *rows, size_t n,
                            const pasta_device_peaks *peaks) {
  double xmin = 1e-2, xmax = 1e2, ymin = 1e9, ymax = 1e12;
  double bw = pasta__bw_peak(peaks);
  for (unsigned p = 0; p < PASTA_NUM_PRECISIONS; ++p)
    if (peaks->flops[p] > ymax)
      ymax = peaks->flops[p];
  for (size_t i = 0; i < n; ++i) {
    if (!plottable(&rows[i]))
      continue;
    if (rows[i].intensity < xmin)
      xmin = rows[i].intensity;
    if (rows[i].intensity > xmax)
      xmax = rows[i].intensity;
    if (rows[i].flop_rate < ymin)
      ymin = rows[i].flop_rate;
  }
  if (bw > 0 && bw * xmin < ymin)
    ymin = bw * xmin;
  struct axes a = {
      (double)(int)(log10_of(xmin) - 1), (double)(int)(log10_of(xmax) + 1),
      (double)(int)(log10_of(ymin) - 1), (double)(int)(log10_of(ymax) + 1)};
  return a;
}

static void svg_axes(FILE *out, const struct axes *a) {
  fprintf(out,
          "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
          "stroke=\"#333\"/>\n",
          LEFT, TOP, SVG_W - LEFT - RIGHT, SVG_H - TOP - BOTTOM);
  for (int e = (int)a->x0; e <= (int)a->x1; ++e)
    fprintf(out,
            "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" "
            "text-anchor=\"middle\">1e%d</text>\n",
            px_x(a, pow10_int(e)), SVG_H - BOTTOM + 16, e);
  for (int e = (int)a->y0; e <= (int)a->y1; ++e)
    fprintf(out,
            "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" "
            "text-anchor=\"end\">1e%d</text>\n",
            LEFT - 6, px_y(a, pow10_int(e)) + 4, e);
  fprintf(out,
          "<text x=\"%d\" y=\"%d\" font-size=\"13\" text-anchor=\"middle\">"
          "arithmetic intensity (FLOP per byte of global memory)</text>\n"
          "<text x=\"18\" y=\"%d\" font-size=\"13\" text-anchor=\"middle\" "
          "transform=\"rotate(-90 18 %d)\">FLOP/s</text>\n",
          (LEFT + SVG_W - RIGHT) / 2, SVG_H - 18, (TOP + SVG_H - BOTTOM) / 2,
          (TOP + SVG_H - BOTTOM) / 2);
}

static const char *const colors[PASTA_NUM_PRECISIONS] = {"#1b9e77", "#7570b3",
                                                         "#d95f02", "#e7298a"};

/* min(bw * x, peak) from the left edge to the right. */
static void svg_ceiling(FILE *out, const struct axes *a, double bw, double peak,
                        unsigned precision) {
  double xl = pow10_int((int)a->x0), xr = pow10_int((int)a->x1);
  double knee = peak / bw;
  if (knee < xl)
    knee = xl;
  if (knee > xr)
    knee = xr;
  double yl = bw * xl < peak ? bw * xl : peak;
  fprintf(out,
          "<polyline class=\"ceiling\" fill=\"none\" stroke=\"%s\" "
          "stroke-width=\"2\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>\n"
          "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"%s\" "
          "text-anchor=\"end\">%s peak %.1f TFLOP/s</text>\n",
          colors[precision], px_x(a, xl), px_y(a, yl), px_x(a, knee),
          px_y(a, peak), px_x(a, xr), px_y(a, peak), px_x(a, xr) - 4,
          px_y(a, peak) - 5, colors[precision], pasta_precision_name(precision),
          peak / 1e12);
}

int pasta__bw_write_roofline_svg(FILE *out, const pasta_bw_row *rows, size_t n,
                                 const pasta_device_peaks *peaks,
                                 const char *title) {
  struct axes a = axes_for(rows, n, peaks);
  fprintf(out,
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
          "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n"
          "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
          "<text x=\"%d\" y=\"24\" font-size=\"15\">Roofline: ",
          SVG_W, SVG_H, SVG_W, SVG_H, LEFT);
  pasta__markup_text(out, title ? title : "PASTA");
  fputs("</text>\n", out);
  svg_axes(out, &a);
  double bw = pasta__bw_peak(peaks);
  if (bw > 0) {
    for (unsigned p = 0; p < PASTA_NUM_PRECISIONS; ++p)
      if (peaks->flops[p] > 0)
        svg_ceiling(out, &a, bw, peaks->flops[p], p);
    fprintf(out,
            "<text x=\"%d\" y=\"%d\" font-size=\"11\">memory %.2f TB/s "
            "(%s)</text>\n",
            LEFT + 6, TOP + 14, bw / 1e12,
            peaks->bw_measured > 0 ? "measured" : "theoretical");
  }
  size_t skipped = 0;
  for (size_t i = 0; i < n; ++i) {
    const pasta_bw_row *r = &rows[i];
    if (!plottable(r)) {
      ++skipped;
      continue;
    }
    fprintf(out,
            "<circle class=\"kernel\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\" "
            "fill=\"%s\" stroke=\"black\"><title>",
            px_x(&a, r->intensity), px_y(&a, r->flop_rate),
            colors[r->precision]);
    pasta__markup_text(out, r->kernel ? r->kernel : "?");
    fprintf(out, ": %.3g FLOP/B, %.3g GFLOP/s, %s-bound</title></circle>\n",
            r->intensity, r->flop_rate / 1e9, r->bound);
  }
  if (skipped)
    fprintf(out,
            "<text x=\"%d\" y=\"%d\" font-size=\"11\">%zu kernels without "
            "FLOPs or a time are not shown</text>\n",
            LEFT + 6, TOP + 28, skipped);
  fputs("</svg>\n", out);
  return ferror(out) ? -1 : 0;
}

/*===-- The analyzer ----------------------------------------------------===*/

struct roofline {
  const pasta_bw_row *rows;
  size_t n;
  const pasta_device_peaks *peaks;
  const char *title;
};

static int roofline_svg(FILE *f, const void *arg) {
  const struct roofline *r = arg;
  return pasta__bw_write_roofline_svg(f, r->rows, r->n, r->peaks, r->title);
}

/* Bandwidth, intensity and bound-by per kernel, and the roofline SVG next
 * to the profile. */
static int report(void *state, const pasta_profile *p,
                  const pasta_analyzer_context *ctx) {
  (void)state;
  const pasta_activity *a = p->activity;
  if (!a || !a->num_kernels)
    return 0;
  pasta_bw_row *rows;
  size_t n;
  if (pasta__bw_rows(p, a, &rows, &n)) {
    PASTA_WARN("out of memory; no bandwidth table\n");
    return -1;
  }
  int rc = 0;
  if (!ctx->quiet && pasta__bw_write_table(ctx->log, rows, n, a))
    rc = -1;
  struct roofline r = {rows, n, &a->peaks, ctx->program};
  if (ctx->write_file(ctx, ".roofline.svg", "roofline", roofline_svg, &r))
    rc = -1;
  free(rows);
  return rc;
}

const pasta_analyzer pasta__bandwidth_analyzer = {.name = "bandwidth",
                                                  .on_report = report};
