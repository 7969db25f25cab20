/*===- html_figures.c - Divergence figures and per-rank spreads -----------===*
 *
 * The two kinds of figure only some profiles have, each shown only when
 * the profile has it: the warp-level divergence figures of a
 * PASTA_DIVERGENCE=1 run (docs/profile-format.md, "Divergence figures"),
 * as a table of kernels and as source-view columns; and the per-process
 * spreads of a profile written by `pasta-report merge`, as a balance table
 * and two source-view columns. Derived figures (excess sectors, divergent
 * share, lanes per instruction) are computed here as the stderr tables
 * compute them (analyzers/tables/div_tables.c); the mean and imbalance of
 * a spread as `pasta-report show` prints them (mean = total / processes).
 *===----------------------------------------------------------------------===*/
#include "html_internal.h"

#include <inttypes.h>
#include <string.h>

/*===-- Divergence --------------------------------------------------------===*/

static int any_func_div(const pasta_profile_func *f, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (pasta_div_any(f[i].div))
      return 1;
  return 0;
}

int pasta__html_has_divergence(const pasta_profile *p) {
  for (size_t i = 0; i < p->num_lines; ++i)
    if (pasta_div_any(p->lines[i].div))
      return 1;
  return any_func_div(p->kernels, p->num_kernels) ||
         any_func_div(p->device_functions, p->num_device_functions);
}

static double ratio_of(uint64_t num, uint64_t den) {
  return den ? (double)num / (double)den : -1.0;
}

static uint64_t d_requests_global(const uint64_t *d) {
  return d[PASTA_DIV_REQUESTS_GLOBAL];
}
static uint64_t d_requests_shared(const uint64_t *d) {
  return d[PASTA_DIV_REQUESTS_SHARED];
}
static uint64_t d_sectors(const uint64_t *d) { return d[PASTA_DIV_SECTORS]; }
static uint64_t d_bank_conflicts(const uint64_t *d) {
  return d[PASTA_DIV_BANK_CONFLICTS];
}
static uint64_t d_branches(const uint64_t *d) { return d[PASTA_DIV_BRANCHES]; }
static uint64_t d_divergent(const uint64_t *d) {
  return d[PASTA_DIV_DIVERGENT];
}
static double d_sectors_per_request(const uint64_t *d) {
  return ratio_of(d[PASTA_DIV_SECTORS], d[PASTA_DIV_REQUESTS_GLOBAL]);
}
/* A percentage, as the stderr table's "div %". */
static double d_divergent_share(const uint64_t *d) {
  double r = ratio_of(d[PASTA_DIV_DIVERGENT], d[PASTA_DIV_BRANCHES]);
  return r < 0 ? r : 100.0 * r;
}
static double d_lanes_per_instruction(const uint64_t *d) {
  return ratio_of(d[PASTA_DIV_THREAD_EXECS], d[PASTA_DIV_WARP_EXECS]);
}

/* In the order of the stderr table (requests split by space). */
const pasta_html_div_column pasta__html_div_columns[] = {
    {"requests_global", "global req",
     "warp-level global loads, stores and atomics", d_requests_global, NULL,
     NULL, 0},
    {"requests_shared", "shared req", "warp-level shared memory accesses",
     d_requests_shared, NULL, NULL, 0},
    {"distinct_bytes", "distinct B",
     "bytes the requests moved: per request, the union of the lanes' "
     "accesses (global + shared)",
     pasta_div_distinct_bytes, NULL, NULL, 0},
    {"sectors", "sectors", "32-byte sectors touched by global loads and stores",
     d_sectors, NULL, NULL, 0},
    {"sectors_per_request", "sect/req",
     "sectors per global request: 4 for coalesced floats, 32 at worst", NULL,
     d_sectors_per_request, "%.2f", 1},
    {"excess_sectors", "excess sect",
     "sectors beyond the fewest that could hold the bytes (sectors - ideal "
     "sectors)",
     pasta_div_excess_sectors, NULL, NULL, 0},
    {"bank_conflicts", "bank confl",
     "shared memory bank conflicts: wavefronts beyond one per phase",
     d_bank_conflicts, NULL, NULL, 0},
    {"branches", "branches", "warp-level conditional branches", d_branches,
     NULL, NULL, 0},
    {"divergent_branches", "divergent",
     "branches whose active lanes went different ways", d_divergent, NULL, NULL,
     0},
    {"divergent_share", "div&nbsp;%", "divergent / branches", NULL,
     d_divergent_share, "%.1f%%", 0},
    {"lanes_per_instruction", "lanes/inst",
     "active lanes per warp-level instruction (32: the whole warp)", NULL,
     d_lanes_per_instruction, "%.2f", 0},
};
const size_t pasta__html_num_div_columns =
    sizeof pasta__html_div_columns / sizeof *pasta__html_div_columns;

void pasta__html_div_cell(FILE *out, const pasta_html_div_column *c,
                          const uint64_t *div) {
  double r = div && c->ratio ? c->ratio(div) : -1.0;
  if (div && c->count) {
    pasta__html_num_cell(out, c->key, c->count(div), 0);
  } else if (r >= 0) {
    fprintf(out, "<td class=\"num\" data-col=\"%s\" data-v=\"%.17g\">", c->key,
            r);
    fprintf(out, c->format, r);
    fputs("</td>", out);
  } else {
    fprintf(out, "<td class=\"num\" data-col=\"%s\" data-v=\"\">%s</td>",
            c->key, div ? "-" : "");
  }
}

void pasta__html_div_headers(FILE *out, int source_view) {
  for (size_t c = 0; c < pasta__html_num_div_columns; ++c) {
    const pasta_html_div_column *col = &pasta__html_div_columns[c];
    if (!source_view || !col->kernel_only)
      fprintf(out, "<th class=\"div\" title=\"%s\">%s</th>", col->title,
              col->header);
  }
}

static void write_div_row(FILE *out, const pasta_profile_func *f) {
  fputs("<tr data-function=\"", out);
  pasta__markup_text(out, f->mangled);
  fputs("\"><td class=\"name\" data-col=\"function\" title=\"", out);
  pasta__markup_text(out, f->name);
  fputs("\">", out);
  pasta__markup_text(out, f->name);
  fprintf(out, "</td><td data-col=\"kind\">%s</td>", pasta_kind_name(f->kind));
  for (size_t c = 0; c < pasta__html_num_div_columns; ++c)
    pasta__html_div_cell(out, &pasta__html_div_columns[c], f->div);
  fputs("</tr>\n", out);
}

void pasta__html_write_div_table(FILE *out, const pasta_profile *p) {
  if (!pasta__html_has_divergence(p))
    return;
  fputs("<section id=\"divergence\"><h2>Divergence</h2>\n<p class=\"note\">"
        "Warp-level figures of the divergence run (PASTA_DIVERGENCE=1): one "
        "warp executing an instruction counts once. Kernels and the device "
        "functions several kernels share; hover a header for its meaning. "
        "The source view has them per line.</p>\n<table class=\"sortable\" "
        "id=\"divergence-table\">\n<thead><tr><th data-type=\"text\">function"
        "</th><th data-type=\"text\">kind</th>",
        out);
  pasta__html_div_headers(out, 0);
  fputs("</tr></thead>\n<tbody>\n", out);
  for (size_t i = 0; i < p->num_kernels; ++i)
    if (pasta_div_any(p->kernels[i].div))
      write_div_row(out, &p->kernels[i]);
  for (size_t i = 0; i < p->num_device_functions; ++i)
    if (pasta_div_any(p->device_functions[i].div))
      write_div_row(out, &p->device_functions[i]);
  fputs("</tbody></table></section>\n", out);
}

/*===-- Per-rank spreads --------------------------------------------------===*/

static int any_func_ranks(const pasta_profile_func *f, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (f[i].ranks)
      return 1;
  return 0;
}

int pasta__html_has_ranks(const pasta_profile *p) {
  if (!p->num_merged_from)
    return 0;
  for (size_t i = 0; i < p->num_lines; ++i)
    if (p->lines[i].ranks)
      return 1;
  return any_func_ranks(p->kernels, p->num_kernels) ||
         any_func_ranks(p->device_functions, p->num_device_functions) ||
         any_func_ranks(p->host_functions, p->num_host_functions);
}

/* The process holding the max: "rank 3 (node7)", "rank 3", or "process 3"
 * outside a job; data-v is its job rank ("" without one). */
static void max_at_cell(FILE *out, const pasta_profile *p, uint64_t process) {
  const pasta_profile_job *job =
      process < p->num_merged_from ? &p->merged_from[process].job : NULL;
  fprintf(out, "<td data-col=\"max_rank\" data-process=\"%" PRIu64 "\"",
          process);
  if (!job || job->rank < 0) {
    fprintf(out, " data-v=\"\">process %" PRIu64 "</td>", process);
    return;
  }
  fprintf(out, " data-v=\"%" PRId64 "\">rank %" PRId64, job->rank, job->rank);
  if (job->host) {
    fputs(" (", out);
    pasta__markup_text(out, job->host);
    fputs(")", out);
  }
  fputs("</td>", out);
}

/* max / mean, with mean = total / processes; -1 when the total is 0. */
static double imbalance(const pasta_profile *p, uint64_t max, uint64_t total) {
  if (!total || !p->num_merged_from)
    return -1.0;
  return (double)max / ((double)total / (double)p->num_merged_from);
}

static const char *const metric_keys[PASTA_NUM_RANK_METRICS] = {NULL, "bytes",
                                                                "flops"};

/* An entry of the balance table: a function, or a line (its "file:line"
 * a link into the source view's `files`, then its function). */
struct balance_entry {
  const char *kind, *name;
  const char *work; /* what its calls count: launches, calls, executions */
  const pasta_profile_line *line; /* or NULL */
  const char *const *files;
  size_t num_files;
};

static void write_entry_cell(FILE *out, const struct balance_entry *e) {
  fputs("<td class=\"name\" data-col=\"entry\">", out);
  if (e->line) {
    pasta__html_line_link(out, e->files, e->num_files, e->line->file,
                          e->line->line);
    fputs(" ", out);
  }
  pasta__markup_text(out, e->name);
  fputs("</td>", out);
}

/* One row per count of the entry that is not 0, as `show` prints them. */
static void write_balance_rows(FILE *out, const pasta_profile *p,
                               const struct balance_entry *e,
                               const pasta_rank_stats *r, uint64_t calls,
                               const pasta_counts *c) {
  for (unsigned m = 0; r && m < PASTA_NUM_RANK_METRICS; ++m) {
    uint64_t total = pasta_rank_metric_value(m, calls, c);
    if (!total)
      continue;
    const pasta_rank_spread *s = &r->metric[m];
    fprintf(out, "<tr><td data-col=\"kind\">%s</td>", e->kind);
    write_entry_cell(out, e);
    fprintf(out, "<td data-col=\"count\">%s</td>",
            m ? metric_keys[m] : e->work);
    pasta__html_num_cell(out, "min", s->min, 0);
    pasta__html_real_cell(out, "mean",
                          (double)total / (double)p->num_merged_from);
    pasta__html_num_cell(out, "max", s->max, 0);
    pasta__html_real_cell(out, "imbalance", imbalance(p, s->max, total));
    max_at_cell(out, p, s->max_process);
    fputs("</tr>\n", out);
  }
}

static void write_func_balance(FILE *out, const pasta_profile *p,
                               const pasta_profile_func *f, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    struct balance_entry e = {
        .kind = pasta_kind_name(f[i].kind),
        .name = f[i].name,
        .work = f[i].kind == PASTA_FUNC_KERNEL ? "launches" : "calls"};
    write_balance_rows(out, p, &e, f[i].ranks, f[i].calls, &f[i].counts);
  }
}

void pasta__html_write_balance(FILE *out, const pasta_profile *p,
                               size_t top_lines, const char *const *files,
                               size_t num_files) {
  if (!pasta__html_has_ranks(p))
    return;
  fprintf(out,
          "<section id=\"balance\"><h2>Balance over ranks</h2>\n<p "
          "class=\"note\">This profile merges %zu processes (pasta-report "
          "merge). Per entry and count: the smallest and the largest "
          "process's value, the mean over all processes (a process without "
          "the entry counts 0), imbalance = max / mean (1 is perfect "
          "balance) and the process holding the max. Functions, then the "
          "profile's %zu heaviest lines.</p>\n<table class=\"sortable\" "
          "id=\"balance-table\">\n<thead><tr><th data-type=\"text\">kind</th>"
          "<th data-type=\"text\">entry</th><th data-type=\"text\">count</th>"
          "<th>min</th><th>mean</th><th>max</th><th>imbalance</th>"
          "<th data-type=\"text\">max at</th></tr></thead>\n<tbody>\n",
          p->num_merged_from, top_lines);
  write_func_balance(out, p, p->kernels, p->num_kernels);
  write_func_balance(out, p, p->device_functions, p->num_device_functions);
  write_func_balance(out, p, p->host_functions, p->num_host_functions);
  for (size_t i = 0; i < p->num_lines && i < top_lines; ++i) {
    const pasta_profile_line *l = &p->lines[i];
    struct balance_entry e = {"line", l->function, "executions",
                              l,      files,       num_files};
    write_balance_rows(out, p, &e, l->ranks, l->executions, &l->counts);
  }
  fputs("</tbody></table></section>\n", out);
}

void pasta__html_line_rank_cells(FILE *out, const pasta_profile *p,
                                 const pasta_html_line *l) {
  const pasta_rank_spread *s =
      l && l->ranks ? &l->ranks->metric[PASTA_RANK_WORK] : NULL;
  if (!s || !l->executions) {
    fputs("<td class=\"num\" data-col=\"imbalance\" data-v=\"\"></td>"
          "<td data-col=\"max_rank\" data-v=\"\"></td>",
          out);
    return;
  }
  pasta__html_real_cell(out, "imbalance", imbalance(p, s->max, l->executions));
  max_at_cell(out, p, s->max_process);
}
