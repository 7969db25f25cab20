/*===- bandwidth.c - Bandwidth, compute intensity and the roofline --------===*/
#include "bandwidth.h"
#include "demangle.h"
#include "profile_json.h"
#include "text_table.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/*===-- Rows --------------------------------------------------------------===*/

static const pasta_profile_func *find_kernel(const pasta_profile *p,
                                             const char *mangled) {
  for (size_t i = 0; p && mangled && i < p->num_kernels; ++i)
    if (p->kernels[i].mangled && strcmp(p->kernels[i].mangled, mangled) == 0)
      return &p->kernels[i];
  return NULL;
}

double pasta_bw_peak(const pasta_device_peaks *peaks) {
  return peaks->bw_measured > 0 ? peaks->bw_measured : peaks->bw_theoretical;
}

/* Touched bytes per working-set launch of kernel k, or -1. */
static double unique_bytes(const pasta_activity *a, size_t k) {
  double sum = 0;
  uint64_t n = 0;
  for (size_t i = 0; i < a->num_ws_launches; ++i)
    if (a->ws_launches[i].kernel == k) {
      sum += (double)a->ws_launches[i].touched_bytes;
      ++n;
    }
  return n ? sum / (double)n : -1;
}

static void time_per_launch(const pasta_activity_kernel *k, pasta_bw_row *r) {
  if (k->plain_timed) {
    /* Without the first plain launch (it loads the copy) when there are
     * others. */
    r->time_source = PASTA_BW_TIME_PLAIN;
    r->time_ns = k->plain_rest
                     ? (double)k->plain_time_ns / (double)k->plain_rest
                     : (double)k->plain_first_ns;
    r->timed = k->plain_timed;
  } else if (k->timed) {
    r->time_source = PASTA_BW_TIME_COUNTED;
    r->time_ns = (double)k->time_total_ns / (double)k->timed;
    r->timed = k->timed;
  }
}

/* Per-launch counts of one kernel, from its profile entry. */
static void counts_per_launch(const pasta_profile_func *f, pasta_bw_row *r) {
  if (!f || !f->calls)
    return;
  const pasta_counts *c = &f->counts;
  double n = (double)f->calls;
  r->bytes = (double)(c->load_bytes[PASTA_SPACE_GLOBAL] +
                      c->store_bytes[PASTA_SPACE_GLOBAL] +
                      c->atomic_bytes[PASTA_SPACE_GLOBAL]) /
             n;
  for (unsigned i = 0; i < PASTA_NUM_PRECISIONS; ++i)
    r->flops[i] = (double)c->flops[i] / n;
}

static void derive(pasta_bw_row *r, const pasta_device_peaks *peaks) {
  double flops = 0, most = -1;
  for (unsigned i = 0; i < PASTA_NUM_PRECISIONS; ++i) {
    flops += r->flops[i];
    if (r->flops[i] > most) {
      most = r->flops[i];
      r->precision = i;
    }
  }
  if (most <= 0)
    r->precision = PASTA_PREC_F32;
  double seconds = r->time_ns * 1e-9;
  r->bandwidth = seconds > 0 ? r->bytes / seconds : 0;
  r->unique_bandwidth =
      seconds > 0 && r->unique_bytes >= 0 ? r->unique_bytes / seconds : -1;
  r->flop_rate = seconds > 0 ? flops / seconds : 0;
  r->intensity = r->bytes > 0 ? flops / r->bytes : -1;
  double bw = pasta_bw_peak(peaks), fp = peaks->flops[r->precision];
  r->bandwidth_fraction = bw > 0 && seconds > 0 ? r->bandwidth / bw : -1;
  r->flop_fraction = fp > 0 && seconds > 0 ? r->flop_rate / fp : -1;
  r->bound = "-";
  if (r->bytes > 0 && flops == 0)
    r->bound = "memory";
  else if (r->intensity > 0 && bw > 0 && fp > 0)
    r->bound = r->intensity < fp / bw ? "memory" : "compute";
}

static int cmp_rows(const void *pa, const void *pb) {
  const pasta_bw_row *a = pa, *b = pb;
  double ta = a->time_ns * (double)a->launches;
  double tb = b->time_ns * (double)b->launches;
  return (ta < tb) - (ta > tb);
}

int pasta_bw_rows(const pasta_profile *p, const pasta_activity *a,
                  pasta_bw_row **rows, size_t *n) {
  *rows = NULL;
  *n = 0;
  size_t cap = a ? a->num_kernels : 0;
  pasta_bw_row *out = calloc(cap ? cap : 1, sizeof *out);
  if (!out)
    return -1;
  for (size_t i = 0; a && i < a->num_kernels; ++i) {
    const pasta_activity_kernel *k = &a->kernels[i];
    pasta_bw_row *r = &out[(*n)++];
    memset(r, 0, sizeof *r);
    r->kernel = k->name;
    r->launches = k->launches;
    r->counted = k->counted;
    r->unique_bytes = unique_bytes(a, i);
    time_per_launch(k, r);
    counts_per_launch(find_kernel(p, k->mangled), r);
    derive(r, &a->peaks);
  }
  qsort(out, *n, sizeof *out, cmp_rows);
  *rows = out;
  return 0;
}

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

int pasta_bw_write_table(FILE *out, const pasta_bw_row *rows, size_t n,
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
  char **names = pasta_short_safe_names(kernels, n, NAME_WIDTH);
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
            ai, ff, pasta_text_safe(r->bound, bound, sizeof bound));
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
            pasta_copy_kind_name(k), m->copies[k], m->copies_pinned[k], bw);
  }
  return ferror(out) ? -1 : 0;
}

/*===-- JSON --------------------------------------------------------------===*/

static void json_num(FILE *out, const char *key, double v, int first) {
  fprintf(out, "%s\"%s\":", first ? "" : ",", key);
  if (v < 0)
    fputs("null", out);
  else
    fprintf(out, "%.6g", v);
}

static const char *source_name(enum pasta_bw_time t) {
  return t == PASTA_BW_TIME_PLAIN     ? "plain"
         : t == PASTA_BW_TIME_COUNTED ? "instrumented"
                                      : "none";
}

int pasta_bw_write_json(FILE *out, const pasta_bw_row *rows, size_t n,
                        const pasta_activity *a) {
  const pasta_device_peaks *k = &a->peaks;
  fprintf(out,
          ",\n\"bandwidth\":{\"sample\":%u,\"device\":{\"index\":%d,"
          "\"compute_capability\":\"%d.%d\",\"sms\":%d,",
          a->sample, k->device, k->cc_major, k->cc_minor, k->sm_count);
  json_num(out, "bandwidth_measured", k->bw_measured, 1);
  json_num(out, "bandwidth_theoretical", k->bw_theoretical, 0);
  fputs(",\"flops\":{", out);
  for (unsigned i = 0; i < PASTA_NUM_PRECISIONS; ++i)
    json_num(out, pasta_precision_name(i), k->flops[i], i == 0);
  fputs("}},\"kernels\":[", out);
  for (size_t i = 0; i < n; ++i) {
    const pasta_bw_row *r = &rows[i];
    fputs(i ? ",\n  {\"name\":" : "\n  {\"name\":", out);
    pasta_json_write_string(out, r->kernel ? r->kernel : "?");
    fprintf(out,
            ",\"launches\":%" PRIu64 ",\"counted\":%" PRIu64
            ",\"timed\":%" PRIu64 ",\"time_source\":\"%s\"",
            r->launches, r->counted, r->timed, source_name(r->time_source));
    json_num(out, "time_ns", r->time_source ? r->time_ns : -1, 0);
    json_num(out, "bytes", r->bytes, 0);
    json_num(out, "unique_bytes", r->unique_bytes, 0);
    fputs(",\"flops\":{", out);
    for (unsigned p = 0; p < PASTA_NUM_PRECISIONS; ++p)
      json_num(out, pasta_precision_name(p), r->flops[p], p == 0);
    fputs("}", out);
    json_num(out, "bandwidth", r->time_source ? r->bandwidth : -1, 0);
    json_num(out, "unique_bandwidth", r->unique_bandwidth, 0);
    json_num(out, "flop_rate", r->time_source ? r->flop_rate : -1, 0);
    json_num(out, "intensity", r->intensity, 0);
    json_num(out, "bandwidth_fraction", r->bandwidth_fraction, 0);
    json_num(out, "flop_fraction", r->flop_fraction, 0);
    fprintf(out, ",\"bound\":\"%s\"}", r->bound);
  }
  fputs(n ? "\n],\"copies\":{" : "],\"copies\":{", out);
  const pasta_activity_memory *m = &a->memory;
  for (unsigned c = 0; c < PASTA_NUM_COPY_KINDS; ++c) {
    fprintf(out,
            "%s\"%s\":{\"count\":%" PRIu64 ",\"bytes\":%" PRIu64
            ",\"pinned\":%" PRIu64 ",\"seconds\":%.9f",
            c ? "," : "", pasta_copy_kind_name(c), m->copies[c],
            m->copy_bytes[c], m->copies_pinned[c], m->copy_ns[c] * 1e-9);
    json_num(out, "bandwidth",
             m->copy_ns[c] ? m->copy_bytes[c] / (m->copy_ns[c] * 1e-9) : -1, 0);
    fputs("}", out);
  }
  fputs("}}", out);
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

static void svg_text(FILE *out, const char *s) {
  for (; s && *s; ++s) {
    switch (*s) {
    case '&':
      fputs("&amp;", out);
      break;
    case '<':
      fputs("&lt;", out);
      break;
    case '>':
      fputs("&gt;", out);
      break;
    case '"':
      fputs("&quot;", out);
      break;
    default:
      fputc((unsigned char)*s < 0x20 ? '?' : *s, out);
    }
  }
}

static int plottable(const pasta_bw_row *r) {
  return r->time_source != PASTA_BW_TIME_NONE && r->intensity > 0 &&
         r->flop_rate > 0;
}

/* Decades that hold the points and the ceilings' knees. */
static struct axes axes_for(const pasta_bw_row *rows, size_t n,
                            const pasta_device_peaks *peaks) {
  double xmin = 1e-2, xmax = 1e2, ymin = 1e9, ymax = 1e12;
  double bw = pasta_bw_peak(peaks);
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

int pasta_bw_write_roofline_svg(FILE *out, const pasta_bw_row *rows, size_t n,
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
  svg_text(out, title ? title : "PASTA");
  fputs("</text>\n", out);
  svg_axes(out, &a);
  double bw = pasta_bw_peak(peaks);
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
    svg_text(out, r->kernel ? r->kernel : "?");
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
