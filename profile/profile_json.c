/*===- profile_json.c - PASTA's JSON profile writer -----------------------===*
 *
 * A small hand-written emitter on purpose: this code is linked into every
 * instrumented program (through libpasta_rt), so it must not pull in a JSON
 * library or any other shared-library dependency beyond libc.
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "profile_json.h"
#include "activity.h"
#include "bandwidth.h"
#include "json_write.h"
#include "trace_analysis.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Appends the NUL-terminated `s` at buf + n; returns the new length. */
static size_t put_str(char *buf, size_t n, const char *s) {
  size_t len = strlen(s);
  memcpy(buf + n, s, len);
  return n + len;
}

/* `,"key":{"name":N,...}` of `count` values, formatted in one buffer and
 * written at once (the writer's hot path: every entry has several). */
static void write_group(FILE *out, const char *key, const uint64_t *a,
                        unsigned count, const char *(*name)(unsigned)) {
  char buf[512];
  size_t n = put_str(buf, 0, ",\"");
  n = put_str(buf, n, key);
  n = put_str(buf, n, "\":{");
  for (unsigned i = 0; i < count; ++i) {
    n = put_str(buf, n, i ? ",\"" : "\"");
    n = put_str(buf, n, name(i));
    n = put_str(buf, n, "\":");
    n += pasta__u64_digits(buf + n, a[i]);
  }
  buf[n++] = '}';
  fwrite(buf, 1, n, out);
}

static void write_spaces(FILE *out, const char *key, const uint64_t *a) {
  write_group(out, key, a, PASTA_NUM_SPACES, pasta_space_name);
}

static void write_flops(FILE *out, const uint64_t *flops) {
  write_group(out, "flops", flops, PASTA_NUM_PRECISIONS, pasta_precision_name);
}

/* `"key":{"min","mean","max","imbalance","max_process","max_rank"}`: one
 * count's spread over the processes of a merged profile, whose total is
 * `total`. */
static void write_spread(FILE *out, const char *key, const pasta_rank_spread *s,
                         uint64_t total, const pasta_profile *p) {
  double mean = (double)total / (double)p->num_merged_from;
  fprintf(out, "\"%s\":{\"min\":%" PRIu64 ",\"mean\":", key, s->min);
  pasta__json_write_real(out, mean);
  fprintf(out, ",\"max\":%" PRIu64 ",\"imbalance\":", s->max);
  if (mean > 0)
    pasta__json_write_real(out, (double)s->max / mean);
  else
    fputs("null", out);
  fprintf(out, ",\"max_process\":%" PRIu64 ",\"max_rank\":", s->max_process);
  int64_t rank = s->max_process < p->num_merged_from
                     ? p->merged_from[s->max_process].job.rank
                     : -1;
  if (rank >= 0)
    fprintf(out, "%" PRId64 "}", rank);
  else
    fputs("null}", out);
}

/* `,"ranks":{...}` of an entry of a merged profile; nothing elsewhere.
 * `work_key` names the entry's launches, calls or executions. */
static void write_ranks(FILE *out, const pasta_rank_stats *r,
                        const char *work_key, uint64_t work,
                        const pasta_counts *c, const pasta_profile *p) {
  if (!r || !p->num_merged_from)
    return;
  const char *keys[PASTA_NUM_RANK_METRICS] = {work_key, "bytes", "flops"};
  fputs(",\"ranks\":{", out);
  for (unsigned m = 0; m < PASTA_NUM_RANK_METRICS; ++m) {
    if (m)
      putc(',', out);
    write_spread(out, keys[m], &r->metric[m],
                 pasta_rank_metric_value(m, work, c), p);
  }
  putc('}', out);
}

/* Divergence mode's figures, only when there are some (profiles of runs
 * without it stay as they were). */
static void write_divergence(FILE *out, const uint64_t *div) {
  if (!pasta_div_any(div))
    return;
  fputs(",\"divergence\":{", out);
  for (unsigned i = 0; i < PASTA_DIV_NUM; ++i)
    fprintf(out, "%s\"%s\":%" PRIu64, i ? "," : "", pasta_div_name(i), div[i]);
  putc('}', out);
}

/* A line's figures derived from a proof and those measured (bit i: figure
 * i), as lists of their names, only when there are some. */
static void write_figure_list(FILE *out, const char *key, uint32_t bits) {
  if (!bits)
    return;
  fprintf(out, ",\"%s\":[", key);
  const char *sep = "";
  for (unsigned i = 0; i < PASTA_DIV_NUM; ++i)
    if (bits >> i & 1) {
      fprintf(out, "%s\"%s\"", sep, pasta_div_name(i));
      sep = ",";
    }
  putc(']', out);
}

static void write_func(FILE *out, const pasta_profile_func *f,
                       const char *calls_key, const pasta_profile *p) {
  const pasta_counts *c = &f->counts;
  fputs("{\"name\":", out);
  pasta__json_write_string(out, f->name);
  fputs(",\"mangled\":", out);
  pasta__json_write_string(out, f->mangled);
  fputs(",\"module\":", out);
  pasta__json_write_string_or_null(out, f->module);
  fputs(",\"file\":", out);
  pasta__json_write_string_or_null(out, f->file);
  fprintf(out, ",\"line\":%" PRIu32 ",\"%s\":%" PRIu64, f->line, calls_key,
          f->calls);
#define PASTA_X(name, on_lines) write_spaces(out, #name, c->name);
  PASTA_COUNTS_SPACE_GROUPS(PASTA_X)
#undef PASTA_X
  write_flops(out, c->flops);
  fprintf(out, ",\"special\":%" PRIu64 ",\"compute_intensity\":", c->special);
  double ci;
  if (pasta_counts_intensity(c, &ci))
    pasta__json_write_real(out, ci);
  else
    fputs("null", out);
  write_divergence(out, f->div);
  write_ranks(out, f->ranks, calls_key, f->calls, c, p);
  putc('}', out);
}

static void write_funcs(FILE *out, const char *key, const char *calls_key,
                        const pasta_profile_func *funcs, size_t n,
                        const pasta_profile *p) {
  fprintf(out, ",\n\"%s\":[", key);
  for (size_t i = 0; i < n; ++i) {
    fputs(i ? ",\n  " : "\n  ", out);
    write_func(out, &funcs[i], calls_key, p);
  }
  fputs(n ? "\n]" : "]", out);
}

static void write_line(FILE *out, const pasta_profile_line *l,
                       const pasta_profile *p) {
  fputs("{\"file\":", out);
  pasta__json_write_string_or_null(out, l->file);
  fprintf(out, ",\"line\":%" PRIu32 ",\"function\":", l->line);
  pasta__json_write_string(out, l->function);
  fprintf(out, ",\"kind\":\"%s\",\"executions\":%" PRIu64,
          pasta_kind_name(l->kind), l->executions);
#define PASTA_X(name, on_lines)                                                \
  if (on_lines)                                                                \
    write_spaces(out, #name, l->counts.name);
  PASTA_COUNTS_SPACE_GROUPS(PASTA_X)
#undef PASTA_X
  write_flops(out, l->counts.flops);
  fprintf(out, ",\"special\":%" PRIu64, l->counts.special);
  write_divergence(out, l->div);
  if (pasta_div_any(l->div)) {
    write_figure_list(out, "divergence_proven", l->div_proven);
    write_figure_list(out, "divergence_measured", l->div_measured);
  }
  write_ranks(out, l->ranks, "executions", l->executions, &l->counts, p);
  putc('}', out);
}

/* ISO 8601 UTC, "YYYY-MM-DDTHH:MM:SSZ": four digits of year always (what
 * readers accept); a time outside years 0000-9999 is written as the epoch. */
static void format_time(char *out, size_t size, int64_t seconds) {
  time_t t = (time_t)seconds;
  struct tm tm;
  snprintf(out, size, "1970-01-01T00:00:00Z");
  if (gmtime_r(&t, &tm) && tm.tm_year >= -1900 && tm.tm_year <= 9999 - 1900)
    snprintf(out, size, "%04d-%02d-%02dT%02d:%02d:%02dZ", tm.tm_year + 1900,
             tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

static void write_int_or_null(FILE *out, const char *key, int64_t v) {
  if (v >= 0)
    fprintf(out, "\"%s\":%" PRId64, key, v);
  else
    fprintf(out, "\"%s\":null", key);
}

/* `"job":{...}`: where the process ran. */
static void write_job(FILE *out, const pasta_profile_job *job) {
  fputs("\"job\":{", out);
  write_int_or_null(out, "rank", job->rank);
  putc(',', out);
  write_int_or_null(out, "size", job->size);
  putc(',', out);
  write_int_or_null(out, "local_rank", job->local_rank);
  fputs(",\"launcher\":", out);
  pasta__json_write_string_or_null(out, job->launcher);
  fputs(",\"host\":", out);
  pasta__json_write_string_or_null(out, job->host);
  fputs(",\"gpus\":[", out);
  for (size_t i = 0; i < job->num_gpus; ++i) {
    fprintf(out, "%s{\"index\":%d,\"uuid\":", i ? "," : "", job->gpus[i].index);
    pasta__json_write_string_or_null(out, job->gpus[i].uuid);
    putc('}', out);
  }
  fputs("]}", out);
}

/* The inputs of a merged profile (only merged profiles have the field). */
static void write_merged_from(FILE *out, const pasta_profile *p) {
  if (!p->num_merged_from)
    return;
  fputs(",\n\"merged_from\":[", out);
  for (size_t i = 0; i < p->num_merged_from; ++i) {
    const pasta_profile_source *s = &p->merged_from[i];
    char created[32];
    format_time(created, sizeof created, s->created);
    fputs(i ? ",\n  {\"file\":" : "\n  {\"file\":", out);
    pasta__json_write_string_or_null(out, s->file);
    fputs(",\"program\":", out);
    pasta__json_write_string_or_null(out, s->program);
    fprintf(out, ",\"pid\":%" PRIu64 ",\"created\":\"%s\",", s->pid, created);
    write_job(out, &s->job);
    putc('}', out);
  }
  fputs("\n]", out);
}

/* What the counts miss (only profiles with such notes have the field). */
static void write_uncounted(FILE *out, const pasta_profile *p) {
  if (!p->num_uncounted)
    return;
  fputs(",\n\"uncounted\":[", out);
  for (size_t i = 0; i < p->num_uncounted; ++i) {
    fputs(i ? ",\n  " : "\n  ", out);
    pasta__json_write_string(out, p->uncounted[i]);
  }
  fputs("\n]", out);
}

/* Launches, memory, working sets, and the bandwidth rows built from them
 * and the counts. */
static int write_activity(FILE *out, const pasta_profile *p) {
  if (pasta__activity_write_json(out, p->activity))
    return -1;
  pasta_bw_row *rows;
  size_t n;
  if (pasta__bw_rows(p, p->activity, &rows, &n))
    return -1;
  int rc = pasta__bw_write_json(out, rows, n, p->activity);
  free(rows);
  return rc;
}

int pasta__profile_write_json_members(FILE *out, const pasta_profile *p) {
  char created[32];
  format_time(created, sizeof created, p->created);

  fprintf(out, "{\"schema\":\"%s\",\"version\":%d,\"program\":",
          PASTA_PROFILE_SCHEMA, PASTA_PROFILE_VERSION);
  pasta__json_write_string(out, p->program ? p->program : "");
  fprintf(out, ",\"pid\":%" PRIu64 ",\"created\":\"%s\"", p->pid, created);
  if (!p->num_merged_from) {
    fputs(",\n", out);
    write_job(out, &p->job);
  }
  write_merged_from(out, p);
  fprintf(out,
          ",\n\"omitted\":{\"device_functions\":%" PRIu64
          ",\"host_functions\":%" PRIu64 ",\"lines\":%" PRIu64 "}",
          p->omitted.device_functions, p->omitted.host_functions,
          p->omitted.lines);
  write_uncounted(out, p);
  write_funcs(out, "kernels", "launches", p->kernels, p->num_kernels, p);
  write_funcs(out, "device_functions", "calls", p->device_functions,
              p->num_device_functions, p);
  write_funcs(out, "host_functions", "calls", p->host_functions,
              p->num_host_functions, p);
  fputs(",\n\"lines\":[", out);
  for (size_t i = 0; i < p->num_lines; ++i) {
    fputs(i ? ",\n  " : "\n  ", out);
    write_line(out, &p->lines[i], p);
  }
  fputs(p->num_lines ? "\n]" : "]", out);
  if (p->activity && write_activity(out, p))
    return -1;
  if (p->trace) {
    fputs(",\n\"trace\":", out);
    pasta__trace_analysis_json(out, p->trace);
  }
  return ferror(out) ? -1 : 0;
}

int pasta__profile_write_json(FILE *out, const pasta_profile *p) {
  if (pasta__profile_write_json_members(out, p))
    return -1;
  fputs("}\n", out);
  return ferror(out) ? -1 : 0;
}
