/*===- bandwidth.c - Bandwidth and compute intensity per kernel -----------===*
 *
 * The rows derived from the profile and the activity (they are the
 * profile's "bandwidth" section, written here too); the table and the
 * roofline are the bandwidth analyzer's (analyzers/bandwidth/).
 *===----------------------------------------------------------------------===*/
#include "bandwidth.h"
#include "json_write.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/*===-- Rows --------------------------------------------------------------===*/

double pasta__bw_peak(const pasta_device_peaks *peaks) {
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
  double bw = pasta__bw_peak(peaks), fp = peaks->flops[r->precision];
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

int pasta__bw_rows(const pasta_profile *p, const pasta_activity *a,
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
    counts_per_launch(pasta_profile_find_kernel(p, k->mangled), r);
    derive(r, &a->peaks);
  }
  qsort(out, *n, sizeof *out, cmp_rows);
  *rows = out;
  return 0;
}

/*===-- JSON --------------------------------------------------------------===*/

const char *pasta__bw_time_source_name(enum pasta_bw_time t) {
  return t == PASTA_BW_TIME_PLAIN     ? "plain"
         : t == PASTA_BW_TIME_COUNTED ? "instrumented"
                                      : "none";
}

void pasta__bw_write_copies_json(FILE *out, const pasta_activity_memory *m) {
  fputs("\"copies\":{", out);
  for (unsigned c = 0; c < PASTA_NUM_COPY_KINDS; ++c) {
    fprintf(out,
            "%s\"%s\":{\"count\":%" PRIu64 ",\"bytes\":%" PRIu64
            ",\"pinned\":%" PRIu64 ",\"seconds\":%.9f",
            c ? "," : "", pasta__copy_kind_name(c), m->copies[c],
            m->copy_bytes[c], m->copies_pinned[c], m->copy_ns[c] * 1e-9);
    pasta__json_write_number(
        out, "bandwidth",
        m->copy_ns[c] ? m->copy_bytes[c] / (m->copy_ns[c] * 1e-9) : -1, 0);
    fputs("}", out);
  }
  fputs("}", out);
}

void pasta__bw_write_row_json(FILE *out, const pasta_bw_row *r, int merged,
                              const char *mangled,
                              const uint64_t *time_total_ns) {
  pasta__json_write_string(out, r->kernel ? r->kernel : "?");
  if (merged) {
    fputs(",\"mangled\":", out);
    pasta__json_write_string_or_null(out, mangled);
  }
#define PASTA_X(name) fprintf(out, ",\"" #name "\":%" PRIu64, r->name);
  PASTA_BW_ROW_COUNTS(PASTA_X)
#undef PASTA_X
  fprintf(out, ",\"time_source\":\"%s\"",
          pasta__bw_time_source_name(r->time_source));
  int timed = r->time_source != PASTA_BW_TIME_NONE;
  pasta__json_write_number(out, "time_ns", timed ? r->time_ns : -1, 0);
  if (merged) {
    fputs(",\"time_total_ns\":", out);
    if (timed && time_total_ns)
      fprintf(out, "%" PRIu64, *time_total_ns);
    else
      fputs("null", out);
  }
#define PASTA_X(name, timed_only, unknown)                                     \
  pasta__json_write_number(out, #name, timed_only && !timed ? -1 : r->name, 0);
  PASTA_BW_ROW_AMOUNTS(PASTA_X)
  fputs(",\"flops\":{", out);
  for (unsigned p = 0; p < PASTA_NUM_PRECISIONS; ++p)
    pasta__json_write_number(out, pasta_precision_name(p), r->flops[p], p == 0);
  fputs("}", out);
  PASTA_BW_ROW_RATES(PASTA_X)
#undef PASTA_X
  fprintf(out, ",\"bound\":\"%s\"}", r->bound);
}

int pasta__bw_write_json(FILE *out, const pasta_bw_row *rows, size_t n,
                         const pasta_activity *a) {
  const pasta_device_peaks *k = &a->peaks;
  fprintf(out,
          ",\n\"bandwidth\":{\"sample\":%u,\"device\":{\"index\":%d,"
          "\"compute_capability\":\"%d.%d\",\"sms\":%d,",
          a->sample, k->device, k->cc_major, k->cc_minor, k->sm_count);
  pasta__json_write_number(out, "bandwidth_measured", k->bw_measured, 1);
  pasta__json_write_number(out, "bandwidth_theoretical", k->bw_theoretical, 0);
  fputs(",\"flops\":{", out);
  for (unsigned i = 0; i < PASTA_NUM_PRECISIONS; ++i)
    pasta__json_write_number(out, pasta_precision_name(i), k->flops[i], i == 0);
  fputs("}},\"kernels\":[", out);
  for (size_t i = 0; i < n; ++i) {
    fputs(i ? ",\n  {\"name\":" : "\n  {\"name\":", out);
    pasta__bw_write_row_json(out, &rows[i], 0, NULL, NULL);
  }
  fputs(n ? "\n]," : "],", out);
  pasta__bw_write_copies_json(out, &a->memory);
  fputs("}", out);
  return ferror(out) ? -1 : 0;
}
