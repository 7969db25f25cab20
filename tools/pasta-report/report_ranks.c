/*===- report_ranks.c - Per-rank spread of a merged profile (show) --------===*
 *
 * The mean is the entry's total over the number of processes and the
 * imbalance max / mean, as the JSON has them (profile_json.c); the rank
 * holding the max is named by its rank and host (merged_from), or by its
 * process index when it ran outside a job.
 *===----------------------------------------------------------------------===*/
#include "report_ranks.h"
#include "report_csv_cell.h"

#include "profile/text_table.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { NAME_WIDTH = 40, CELL = 96 };

static const char *const metric_titles[PASTA_NUM_RANK_METRICS] = {NULL, "bytes",
                                                                  "FLOPs"};

static double mean_of(const pasta_profile *p, uint64_t total) {
  return (double)total / (double)p->num_merged_from;
}

/* "rank 3 (node7)", "rank 3", or "process 3" outside a job. */
static void holder(char *out, size_t size, const pasta_profile *p,
                   uint64_t process) {
  const pasta_profile_job *job =
      process < p->num_merged_from ? &p->merged_from[process].job : NULL;
  if (job && job->rank >= 0 && job->host)
    snprintf(out, size, "rank %" PRId64 " (%s)", job->rank, job->host);
  else if (job && job->rank >= 0)
    snprintf(out, size, "rank %" PRId64, job->rank);
  else
    snprintf(out, size, "process %" PRIu64, process);
}

/* One row per count of the entry that is not 0. */
static int add_rows(struct text_table *t, const pasta_profile *p,
                    const char *kind, const char *name, const char *work_title,
                    const pasta_rank_stats *r, uint64_t work,
                    const pasta_counts *c) {
  int err = 0;
  for (unsigned m = 0; r && m < PASTA_NUM_RANK_METRICS; ++m) {
    uint64_t total = pasta_rank_metric_value(m, work, c);
    if (!total)
      continue;
    const pasta_rank_spread *s = &r->metric[m];
    double mean = mean_of(p, total);
    char min[32], avg[32], max[32], imb[32], at[CELL];
    snprintf(min, sizeof min, "%" PRIu64, s->min);
    snprintf(avg, sizeof avg, "%.2f", mean);
    snprintf(max, sizeof max, "%" PRIu64, s->max);
    snprintf(imb, sizeof imb, "%.2f", (double)s->max / mean);
    holder(at, sizeof at, p, s->max_process);
    err |= text_table_row(t, kind, name, m ? metric_titles[m] : work_title, min,
                          avg, max, imb, at);
  }
  return err;
}

static int add_funcs(struct text_table *t, const pasta_profile *p,
                     const pasta_profile_func *f, size_t n, size_t top) {
  if (n > top)
    n = top;
  const char **names = calloc(n ? n : 1, sizeof *names);
  if (!names)
    return -1;
  for (size_t i = 0; i < n; ++i)
    names[i] = f[i].name;
  char **cells = pasta__short_safe_names(names, n, NAME_WIDTH);
  int err = !cells;
  for (size_t i = 0; cells && i < n; ++i)
    err |= add_rows(t, p, pasta_kind_name(f[i].kind), cells[i],
                    f[i].kind == PASTA_FUNC_KERNEL ? "launches" : "calls",
                    f[i].ranks, f[i].calls, &f[i].counts);
  free(cells); /* one block */
  free(names);
  return err ? -1 : 0;
}

/* "file:line function" of a line, its file cut to the base name. */
static void line_name(char *out, size_t size, const pasta_profile_line *l) {
  const char *file = l->file ? strrchr(l->file, '/') : NULL;
  file = file ? file + 1 : l->file ? l->file : "?";
  char fn[CELL];
  snprintf(out, size, "%s:%" PRIu32 " %s", file, l->line,
           pasta__text_safe(l->function, fn, sizeof fn));
}

int pasta__ranks_write_table(FILE *out, const pasta_profile *p, size_t top) {
  if (!p->num_merged_from)
    return 0;
  static const int left[] = {1, 1, 1, 0, 0, 0, 0, 1};
  struct text_table t = {8, left, NULL, 0, 0};
  int err = text_table_row(&t, "kind", "function", "count", "min", "mean",
                           "max", "imbalance", "max at");
  err |= add_funcs(&t, p, p->kernels, p->num_kernels, top);
  err |= add_funcs(&t, p, p->device_functions, p->num_device_functions, top);
  err |= add_funcs(&t, p, p->host_functions, p->num_host_functions, top);
  for (size_t i = 0; i < p->num_lines && i < top; ++i) {
    const pasta_profile_line *l = &p->lines[i];
    char name[2 * CELL];
    line_name(name, sizeof name, l);
    err |= add_rows(&t, p, "line", name, "executions", l->ranks, l->executions,
                    &l->counts);
  }
  fprintf(out,
          "\nPer-rank balance over %zu processes (imbalance = max / mean; a "
          "process without the entry counts 0)\n",
          p->num_merged_from);
  int empty = t.rows <= 1;
  text_table_print_free(out, &t);
  if (empty)
    fputs("(nothing was counted)\n", out);
  return err ? -1 : 0;
}

void pasta__csv_ranks_header(FILE *out, const char *work_key) {
  static const char *const fields[] = {"min", "mean", "max", "imbalance",
                                       "max_rank"};
  const char *keys[PASTA_NUM_RANK_METRICS] = {work_key, "bytes", "flops"};
  for (unsigned m = 0; m < PASTA_NUM_RANK_METRICS; ++m)
    for (unsigned f = 0; f < 5; ++f)
      fprintf(out, ",ranks.%s.%s", keys[m], fields[f]);
}

void pasta__csv_ranks(FILE *out, const pasta_profile *p,
                      const pasta_rank_stats *r, uint64_t work,
                      const pasta_counts *c) {
  for (unsigned m = 0; m < PASTA_NUM_RANK_METRICS; ++m) {
    if (!r) {
      fputs(",,,,,", out);
      continue;
    }
    const pasta_rank_spread *s = &r->metric[m];
    double mean = mean_of(p, pasta_rank_metric_value(m, work, c));
    fprintf(out, ",%" PRIu64 ",%.17g,%" PRIu64 ",", s->min, mean, s->max);
    if (mean > 0)
      fprintf(out, "%.17g", (double)s->max / mean);
    const pasta_profile_job *job = &p->merged_from[s->max_process].job;
    putc(',', out);
    if (job->rank >= 0)
      fprintf(out, "%" PRId64, job->rank);
  }
}

static void csv_number(FILE *out, int64_t v) {
  putc(',', out);
  if (v >= 0)
    fprintf(out, "%" PRId64, v);
}

void pasta__csv_processes(FILE *out, const pasta_profile *p) {
  if (!p->num_merged_from)
    return;
  fputs("\n# processes\nprocess,file,program,pid,rank,size,local_rank,host,"
        "gpus\n",
        out);
  for (size_t i = 0; i < p->num_merged_from; ++i) {
    const pasta_profile_source *s = &p->merged_from[i];
    fprintf(out, "%zu,", i);
    pasta__csv_string(out, s->file);
    putc(',', out);
    pasta__csv_string(out, s->program);
    fprintf(out, ",%" PRIu64, s->pid);
    csv_number(out, s->job.rank);
    csv_number(out, s->job.size);
    csv_number(out, s->job.local_rank);
    putc(',', out);
    pasta__csv_string(out, s->job.host);
    putc(',', out);
    /* UUIDs joined by spaces: one cell. */
    size_t len = 1;
    for (size_t g = 0; g < s->job.num_gpus; ++g)
      len += (s->job.gpus[g].uuid ? strlen(s->job.gpus[g].uuid) : 1) + 1;
    char *cell = malloc(len);
    if (cell) {
      cell[0] = '\0';
      for (size_t g = 0; g < s->job.num_gpus; ++g) {
        if (g)
          strcat(cell, " ");
        strcat(cell, s->job.gpus[g].uuid ? s->job.gpus[g].uuid : "?");
      }
      pasta__csv_string(out, cell);
      free(cell);
    }
    putc('\n', out);
  }
}
