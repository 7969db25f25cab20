/*===- html_report.c - The report page: kernels, pictures, sources --------===*
 *
 * The page, top to bottom: a summary, the kernel table (report.js sorts it
 * by any column), a divergence run's figures and a merged profile's
 * balance over ranks (html_figures.c), the roofline and hotness pictures
 * (the bandwidth and working-set analyzers' SVG, inline), each kernel's
 * shapes, call paths and hottest lines (links into the source), the
 * working-set statistics, then every source file with its lines' counts
 * (html_source_view.c). Tables are driven by column lists, so a count the
 * profile gains is one row in a list.
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L /* open_memstream, gmtime_r */

#include "html_internal.h"

#include "analyzers/bandwidth/bandwidth_report.h"
#include "analyzers/working_set/hotness_files.h"
#include "profile/activity_text.h"
#include "profile/ws_stats.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Lines a kernel's own list shows (the source view has them all), and
 * lines the balance table shows, as `pasta-report show` does. */
enum { KERNEL_TOP_LINES = 12, BALANCE_TOP_LINES = 20 };

/*===-- The kernel table --------------------------------------------------===*/

/* What one row of the kernel table joins: the kernel's counts, what the
 * runtime saw of its launches, and its bandwidth row. */
struct kernel_row {
  const pasta_profile_func *f;
  const pasta_activity_kernel *launch; /* or NULL */
  const pasta_bw_row *bw;              /* or NULL */
};

static uint64_t k_launches(const struct kernel_row *r) { return r->f->calls; }
static uint64_t k_bytes(const struct kernel_row *r) {
  return pasta_counts_bytes(&r->f->counts);
}
static uint64_t k_global_bytes(const struct kernel_row *r) {
  return pasta__html_space_bytes(&r->f->counts, PASTA_SPACE_GLOBAL);
}
static uint64_t k_flops(const struct kernel_row *r) {
  return pasta_counts_flops(&r->f->counts);
}
static uint64_t k_special(const struct kernel_row *r) {
  return r->f->counts.special;
}

/* The kernel table's count columns, in order (time, intensity and bound-by
 * follow them). A divergence run's figures have a table of their own
 * (html_figures.c): eleven more columns would bury these. */
static const struct kernel_column {
  const char *key, *header, *title;
  uint64_t (*value)(const struct kernel_row *r);
} kernel_columns[] = {
    {"launches", "launches", "grids launched", k_launches},
    {"bytes", "bytes", "bytes loaded, stored and in atomics, every space",
     k_bytes},
    {"global_bytes", "global bytes", "bytes of global memory", k_global_bytes},
    {"flops", "FLOPs", "floating-point operations, every precision", k_flops},
    {"special", "special", "division, square root, transcendentals", k_special},
};
enum { NUM_KERNEL_COLUMNS = sizeof kernel_columns / sizeof *kernel_columns };

static const pasta_activity_kernel *launch_of(const pasta_activity *a,
                                              const pasta_profile_func *f) {
  for (size_t i = 0; a && i < a->num_kernels; ++i) {
    const pasta_activity_kernel *k = &a->kernels[i];
    if (k->mangled ? strcmp(k->mangled, f->mangled) == 0
                   : k->name && strcmp(k->name, f->name) == 0)
      return k;
  }
  return NULL;
}

/* Bandwidth rows name kernels by display name. */
static const pasta_bw_row *bw_of(const pasta_html_input *in,
                                 const pasta_profile_func *f) {
  for (size_t i = 0; i < in->num_bw_rows; ++i)
    if (in->bw_rows[i].kernel && strcmp(in->bw_rows[i].kernel, f->name) == 0)
      return &in->bw_rows[i];
  return NULL;
}

/* The kernel's GPU time (pasta__html_kernel_time), "~" when estimated. */
static void write_time_cell(FILE *out, const pasta_activity_kernel *k) {
  int estimated = 0;
  uint64_t ns = pasta__html_kernel_time(k, &estimated);
  if (!k || !k->timed) {
    fputs("<td class=\"num\" data-col=\"time\" data-v=\"\">-</td>", out);
    return;
  }
  if (!estimated) {
    pasta__html_time_cell(out, "time", ns);
    return;
  }
  fprintf(out,
          "<td class=\"num\" data-col=\"time\" data-v=\"%" PRIu64
          "\" title=\"estimated from %" PRIu64 " timed launches of %" PRIu64
          "\">~",
          ns, k->timed, k->launches - k->failed);
  pasta__html_time(out, ns);
  fputs("</td>", out);
}

static void write_kernel_row(FILE *out, size_t index,
                             const struct kernel_row *r) {
  fprintf(out, "<tr data-kernel=\"");
  pasta__markup_text(out, r->f->mangled);
  /* Long C++ names are cut to two lines by the CSS; the title has them
   * whole. */
  fprintf(out,
          "\"><td class=\"name\" data-col=\"kernel\"><a href=\"#k%zu\" "
          "title=\"",
          index);
  pasta__markup_text(out, r->f->name);
  fputs("\">", out);
  pasta__markup_text(out, r->f->name);
  fputs("</a></td>", out);
  for (size_t c = 0; c < NUM_KERNEL_COLUMNS; ++c)
    pasta__html_num_cell(out, kernel_columns[c].key, kernel_columns[c].value(r),
                         0);
  write_time_cell(out, r->launch);
  double ci;
  pasta__html_real_cell(out, "intensity",
                        pasta_counts_intensity(&r->f->counts, &ci) ? ci : -1.0);
  fputs("<td data-col=\"bound\">", out);
  pasta__markup_text(out, r->bw ? r->bw->bound : "-");
  fputs("</td></tr>\n", out);
}

/* Whether the page has a kernel section: when the profile has kernels, or
 * has no function at all (then the section says so). A host-only profile
 * has none. */
static int has_kernel_section(const pasta_profile *p) {
  return p->num_kernels || (!p->num_device_functions && !p->num_host_functions);
}

/* " N <noun>s that never ran are not listed." (nothing for none), a span
 * with its own id for the tests. */
static void write_not_listed(FILE *out, const char *id, size_t n,
                             const char *noun) {
  if (n)
    fprintf(out,
            " <span id=\"%s\">%zu %s%s that never ran %s not listed.</span>",
            id, n, noun, n == 1 ? "" : "s", n == 1 ? "is" : "are");
}

static void write_kernel_table(FILE *out, const pasta_html_input *in) {
  const pasta_profile *p = in->profile;
  if (!has_kernel_section(p))
    return;
  fputs("<section id=\"kernels\"><h2>Kernels</h2>\n", out);
  if (!p->num_kernels) {
    fputs("<p class=\"note\">No kernels in this profile.</p></section>\n", out);
    return;
  }
  size_t idle = 0;
  for (size_t i = 0; i < p->num_kernels; ++i)
    idle += !p->kernels[i].calls;
  fputs("<p class=\"note\">Click a column's header to sort by it. Time is the "
        "GPU time of the timed launches; intensity is FLOPs per global "
        "byte.",
        out);
  write_not_listed(out, "kernels-not-run", idle, "kernel");
  fputs("</p>\n<table class=\"sortable\" id=\"kernel-table\">\n<thead>"
        "<tr><th data-type=\"text\">kernel</th>",
        out);
  for (size_t c = 0; c < NUM_KERNEL_COLUMNS; ++c)
    fprintf(out, "<th title=\"%s\">%s</th>", kernel_columns[c].title,
            kernel_columns[c].header);
  fputs("<th>GPU time</th><th>FLOP/B</th><th data-type=\"text\">bound by</th>"
        "</tr></thead>\n<tbody>\n",
        out);
  for (size_t i = 0; i < p->num_kernels; ++i) {
    if (!p->kernels[i].calls)
      continue; /* never launched: counted in the note */
    struct kernel_row r = {&p->kernels[i],
                           launch_of(in->activity, &p->kernels[i]),
                           bw_of(in, &p->kernels[i])};
    write_kernel_row(out, i, &r);
  }
  fputs("</tbody></table>\n", out);
  /* Kernels whose counting copy runs differently from the plain one. */
  size_t perturbed = 0;
  for (size_t i = 0; i < p->num_kernels; ++i) {
    const pasta_activity_kernel *k = launch_of(in->activity, &p->kernels[i]);
    char note[8];
    if (!p->kernels[i].calls || !k ||
        !pasta__resources_perturbed(&k->resources, note, sizeof note))
      continue;
    fputs(perturbed++ ? ", "
                      : "<p class=\"warn\" id=\"perturbed\">"
                        "Counting changes the registers, local memory "
                        "or occupancy of: ",
          out);
    fprintf(out, "<a href=\"#k%zu\">", i);
    pasta__markup_text(out, p->kernels[i].name);
    fputs("</a>", out);
  }
  if (perturbed)
    fputs(" (see each kernel).</p>\n", out);
  fputs("</section>\n", out);
}

/* Device functions shared by kernels and host functions (PASTA_HOST=1):
 * the same counts, with calls for launches. The "global bytes" column only
 * when there are device functions (every host access is generic). Long
 * (template) names are clamped to two lines by the CSS; the title has them
 * whole. */
static void write_function_row(FILE *out, const pasta_profile_func *f,
                               int gpu) {
  struct kernel_row r = {f, NULL, NULL};
  fputs("<tr data-function=\"", out);
  pasta__markup_text(out, f->mangled);
  fputs("\"><td class=\"name\" data-col=\"function\"><span title=\"", out);
  pasta__markup_text(out, f->name);
  fputs("\">", out);
  pasta__markup_text(out, f->name);
  fprintf(out, "</span></td><td data-col=\"kind\">%s</td>",
          pasta_kind_name(f->kind));
  for (size_t c = 0; c < NUM_KERNEL_COLUMNS; ++c)
    if (gpu || kernel_columns[c].value != k_global_bytes)
      pasta__html_num_cell(out, c ? kernel_columns[c].key : "calls",
                           kernel_columns[c].value(&r), 0);
  double ci;
  pasta__html_real_cell(out, "intensity",
                        pasta_counts_intensity(&f->counts, &ci) ? ci : -1.0);
  fputs("</tr>\n", out);
}

static uint64_t func_cost(const pasta_profile_func *f) {
  uint64_t b = pasta_counts_bytes(&f->counts);
  uint64_t fl = pasta_counts_flops(&f->counts);
  return b + fl < b ? UINT64_MAX : b + fl;
}

/* By bytes + FLOPs, then calls (the text tables' order). */
static int cmp_func_cost(const void *pa, const void *pb) {
  const pasta_profile_func *a = *(const pasta_profile_func *const *)pa;
  const pasta_profile_func *b = *(const pasta_profile_func *const *)pb;
  uint64_t ca = func_cost(a), cb = func_cost(b);
  if (ca != cb)
    return ca > cb ? -1 : 1;
  if (a->calls != b->calls)
    return a->calls > b->calls ? -1 : 1;
  return a < b ? -1 : a > b;
}

static int write_function_table(FILE *out, const pasta_profile *p) {
  size_t n = p->num_device_functions + p->num_host_functions;
  if (!n)
    return 0;
  /* The functions that ran, most expensive first. */
  const pasta_profile_func **rows = malloc(n * sizeof *rows);
  if (!rows)
    return -1;
  size_t shown = 0;
  for (size_t i = 0; i < p->num_device_functions; ++i)
    if (p->device_functions[i].calls)
      rows[shown++] = &p->device_functions[i];
  for (size_t i = 0; i < p->num_host_functions; ++i)
    if (p->host_functions[i].calls)
      rows[shown++] = &p->host_functions[i];
  if (shown)
    qsort(rows, shown, sizeof *rows, cmp_func_cost);
  int gpu = p->num_device_functions != 0;
  fprintf(out, "<section id=\"functions\"><h2>%s</h2>\n",
          !gpu                    ? "Host functions"
          : p->num_host_functions ? "Device and host functions"
                                  : "Device functions");
  if (gpu)
    fputs("<p class=\"note\">Device functions listed here are reached by "
          "several kernels (a kernel's own are part of its counts); calls are "
          "thread-level for device functions.</p>\n",
          out);
  fputs("<p class=\"note\">Ranked by bytes + FLOPs; click a column's header "
        "to sort by it.",
        out);
  /* Those the profile lists with no call, and those it left out. */
  size_t idle = n - shown + (size_t)p->omitted.device_functions +
                (size_t)p->omitted.host_functions;
  write_not_listed(out, "functions-not-run", idle, "function");
  fputs("</p>\n<table class=\"sortable\" id=\"function-table\">\n<thead><tr>"
        "<th data-type=\"text\">function</th><th data-type=\"text\">kind</th>"
        "<th>calls</th>",
        out);
  for (size_t c = 1; c < NUM_KERNEL_COLUMNS; ++c)
    if (gpu || kernel_columns[c].value != k_global_bytes)
      fprintf(out, "<th title=\"%s\">%s</th>", kernel_columns[c].title,
              kernel_columns[c].header);
  fputs("<th>FLOP/B</th></tr></thead>\n<tbody>\n", out);
  for (size_t i = 0; i < shown; ++i)
    write_function_row(out, rows[i], gpu);
  fputs("</tbody></table></section>\n", out);
  free(rows);
  return 0;
}

/*===-- Pictures ----------------------------------------------------------===*/

/* An SVG writer's output inline: the XML declaration, which HTML does not
 * take, cut off. */
static int write_inline_svg(FILE *out, int (*write)(FILE *, const void *),
                            const void *arg) {
  char *svg = NULL;
  size_t size = 0;
  FILE *mem = open_memstream(&svg, &size);
  if (!mem)
    return -1;
  int rc = write(mem, arg);
  if (fclose(mem) || rc) {
    free(svg);
    return -1;
  }
  const char *start = strstr(svg, "<svg");
  fputs(start ? start : svg, out);
  free(svg);
  return 0;
}

struct roofline_args {
  const pasta_html_input *in;
};

static int roofline(FILE *f, const void *arg) {
  const pasta_html_input *in = ((const struct roofline_args *)arg)->in;
  return pasta__bw_write_roofline_svg(f, in->bw_rows, in->num_bw_rows,
                                      &in->activity->peaks, in->title);
}

static int hotness(FILE *f, const void *arg) {
  const pasta_html_input *in = arg;
  return pasta__hotness_write_svg(f, &in->activity->hotness, in->title);
}

static int has_pictures(const pasta_html_input *in) {
  const pasta_activity *a = in->activity;
  return a && (in->num_bw_rows || a->hotness.num_launches);
}

static int write_pictures(FILE *out, const pasta_html_input *in) {
  const pasta_activity *a = in->activity;
  int have_roofline = a && in->num_bw_rows;
  int have_hotness = a && a->hotness.num_launches;
  if (!have_roofline && !have_hotness)
    return 0;
  int rc = 0;
  fputs("<section id=\"pictures\"><h2>Roofline and hotness</h2>\n", out);
  if (have_roofline) {
    struct roofline_args r = {in};
    fputs("<figure class=\"picture\" id=\"roofline\">", out);
    rc |= write_inline_svg(out, roofline, &r);
    fputs("</figure>\n", out);
  }
  if (have_hotness) {
    fputs("<figure class=\"picture\" id=\"hotness\">", out);
    rc |= write_inline_svg(out, hotness, in);
    fputs("</figure>\n", out);
  }
  fputs("</section>\n", out);
  return rc;
}

/*===-- Each kernel: shapes, call paths, its lines ------------------------===*/

static void write_shapes(FILE *out, const pasta_activity_kernel *k) {
  if (!k->num_shapes)
    return;
  fputs("<p>Shapes: ", out);
  for (size_t i = 0; i < k->num_shapes; ++i) {
    const pasta_activity_shape *s = &k->shapes[i];
    fprintf(out,
            "%s<span class=\"shape\">grid (%" PRIu32 ",%" PRIu32 ",%" PRIu32
            ") block (%" PRIu32 ",%" PRIu32 ",%" PRIu32 ")",
            i ? ", " : "", s->grid[0], s->grid[1], s->grid[2], s->block[0],
            s->block[1], s->block[2]);
    if (s->shared_bytes)
      fprintf(out, " shared %" PRIu64 " B", s->shared_bytes);
    fprintf(out, " &times; %" PRIu64 "</span>", s->launches);
  }
  fputs("</p>\n", out);
}

/* Registers, local memory and occupancy, plain -> counting copy (the
 * register-capped one where that ran), and the note when counting changes
 * how the kernel runs. */
static void write_resources(FILE *out, const pasta_activity_kernel *k) {
  const pasta_activity_resources *r = &k->resources;
  if (!r->known)
    return;
  pasta_resources_text t;
  char note[640];
  pasta__fmt_resources(&t, r);
  fprintf(out,
          "<p class=\"resources\">Plain &rarr; %s, at the first %s"
          "block of %" PRIu32 " threads: registers ",
          r->has_capped ? "register-capped counting copy" : "counting copy",
          r->has_capped ? "capped launch's " : "launch's ", r->block_threads);
  pasta__markup_text(out, t.registers);
  fputs(", local memory ", out);
  pasta__markup_text(out, t.local_bytes);
  fputs(" bytes per thread, occupancy ", out);
  pasta__markup_text(out, t.occupancy);
  fputs(".</p>\n", out);
  if (pasta__kernel_resources_note(k, note, sizeof note)) {
    fputs("<p class=\"warn resources-note\">Note: ", out);
    pasta__markup_text(out, note);
    fputs(".</p>\n", out);
  }
}

/* Divergence mode: the launches the kernel's divergence figures cover,
 * where some ran no divergence copy (pasta__div_coverage_note). */
static void write_div_coverage(FILE *out, const pasta_activity_kernel *k) {
  char note[640];
  if (!pasta__div_coverage_note(k, note, sizeof note))
    return;
  fputs("<p class=\"warn div-coverage\">Note: ", out);
  pasta__markup_text(out, note);
  fputs(".</p>\n", out);
}

static void write_frame(FILE *out, const pasta_activity_frame *fr) {
  fputs("<li>", out);
  pasta__markup_text(out, fr->function ? fr->function : "??");
  if (fr->file) {
    fputs(" <span class=\"where\">", out);
    pasta__markup_text(out, fr->file);
    fprintf(out, ":%" PRIu32 "</span>", fr->line);
  } else if (fr->object) {
    fputs(" <span class=\"where\">", out);
    pasta__markup_text(out, fr->object);
    fprintf(out, "+0x%" PRIx64 "</span>", fr->offset);
  }
  fputs("</li>", out);
}

static void write_call_paths(FILE *out, const pasta_activity_kernel *k) {
  if (!k->num_paths)
    return;
  fputs("<div class=\"callpaths\"><h4>Call paths (innermost first)</h4>\n",
        out);
  for (size_t i = 0; i < k->num_paths; ++i) {
    const pasta_activity_path *path = &k->paths[i];
    fprintf(out, "<p>%" PRIu64 " launch%s:</p><ol class=\"callpath\">",
            path->launches, path->launches == 1 ? "" : "es");
    for (uint32_t j = 0; j < path->num_frames; ++j)
      write_frame(out, &path->frames[j]);
    fputs("</ol>\n", out);
  }
  fputs("</div>\n", out);
}

/* The kernel's hottest lines (the profile's lines are sorted by bytes +
 * FLOPs), each a link to the line in its file. */
static void write_kernel_lines(FILE *out, const pasta_profile *p,
                               const pasta_profile_func *f,
                               const char *const *files, size_t nfiles) {
  size_t shown = 0;
  for (size_t i = 0; i < p->num_lines && shown < KERNEL_TOP_LINES; ++i) {
    const pasta_profile_line *l = &p->lines[i];
    if (strcmp(l->function, f->name) != 0)
      continue;
    if (!shown++)
      fputs("<table class=\"kernel-lines\"><thead><tr><th>line</th>"
            "<th>executions</th><th>bytes</th><th>FLOPs</th></tr></thead>"
            "<tbody>\n",
            out);
    fputs("<tr><td>", out);
    pasta__html_line_link(out, files, nfiles, l->file, l->line);
    fputs("</td>", out);
    pasta__html_num_cell(out, "executions", l->executions, 0);
    pasta__html_num_cell(out, "bytes", pasta_counts_bytes(&l->counts), 0);
    pasta__html_num_cell(out, "flops", pasta_counts_flops(&l->counts), 0);
    fputs("</tr>\n", out);
  }
  if (shown)
    fputs("</tbody></table>\n", out);
}

static void write_kernel_details(FILE *out, const pasta_html_input *in,
                                 const char *const *files, size_t nfiles) {
  const pasta_profile *p = in->profile;
  if (!p->num_kernels)
    return;
  fputs("<section id=\"kernel-details\"><h2>Each kernel</h2>\n", out);
  for (size_t i = 0; i < p->num_kernels; ++i) {
    const pasta_profile_func *f = &p->kernels[i];
    if (!f->calls)
      continue; /* not in the kernel table either */
    fprintf(out, "<article class=\"kernel\" id=\"k%zu\"><h3>", i);
    pasta__markup_text(out, f->name);
    fputs("</h3>\n<p>Defined at ", out);
    pasta__html_line_link(out, files, nfiles, f->file, f->line);
    fprintf(out, "; %" PRIu64 " launch%s.</p>\n", f->calls,
            f->calls == 1 ? "" : "es");
    const pasta_activity_kernel *k = launch_of(in->activity, f);
    if (k) {
      write_shapes(out, k);
      write_resources(out, k);
      write_div_coverage(out, k);
      if (k->ws_launches)
        fprintf(out,
                "<p>Working set: at most %" PRIu64
                " bytes touched of a %" PRIu64 "-byte footprint.</p>\n",
                k->ws_max_touched_bytes, k->ws_max_footprint_bytes);
      write_call_paths(out, k);
    }
    write_kernel_lines(out, p, f, files, nfiles);
    fputs("</article>\n", out);
  }
  fputs("</section>\n", out);
}

/*===-- Working set and memory --------------------------------------------===*/

static void write_stats_row(FILE *out, const char *what,
                            const pasta_ws_stats *s) {
  fprintf(out, "<tr><th>%s</th>", what);
  pasta__html_num_cell(out, "min", s->min, 0);
  pasta__html_real_cell(out, "mean", s->mean);
  pasta__html_num_cell(out, "median", s->median, 0);
  pasta__html_num_cell(out, "p90", s->p90, 0);
  pasta__html_num_cell(out, "max", s->max, 0);
  fputs("</tr>\n", out);
}

/* GPU memory: not for a program that launched no kernel and has none. */
static int has_working_set(const pasta_html_input *in) {
  return in->activity && (in->activity->launches || in->profile->num_kernels);
}

static int write_working_set(FILE *out, const pasta_html_input *in) {
  const pasta_activity *a = in->activity;
  if (!has_working_set(in))
    return 0;
  fputs("<section id=\"working-set\"><h2>Memory and working set</h2>\n", out);
  fputs("<p>Peak allocated: ", out);
  pasta__html_u64(out, a->memory.peak_bytes);
  fputs(" bytes.</p>\n", out);
  if (!a->ws_enabled) {
    fputs("<p class=\"note\">The program ran without PASTA_WORKING_SET=1: no "
          "working sets.</p></section>\n",
          out);
    return 0;
  }
  pasta_ws_stats touched, footprint;
  if (pasta__activity_ws_stats(a, &touched, &footprint))
    return -1;
  fprintf(out,
          "<p>%zu launches tracked, %" PRIu64 " skipped; pages of %" PRIu64
          " bytes.</p>\n<table id=\"ws-stats\"><thead><tr><th>bytes per "
          "launch</th><th>min</th><th>mean</th><th>median</th><th>p90</th>"
          "<th>max</th></tr></thead><tbody>\n",
          touched.count, a->ws_skipped, a->page_size);
  write_stats_row(out, "touched (working set)", &touched);
  write_stats_row(out, "footprint", &footprint);
  fputs("</tbody></table>\n", out);
  if (a->outside) {
    fprintf(out,
            "<p class=\"warn\">%" PRIu64 " accesses fell outside every known "
            "allocation, first in ",
            a->outside);
    pasta__markup_text(out, a->outside_kernel ? a->outside_kernel : "?");
    fputs(" at ", out);
    pasta__markup_text(out, a->outside_file ? a->outside_file : "?");
    fprintf(out, ":%" PRIu32 ".</p>\n", a->outside_line);
  }
  fputs("</section>\n", out);
  return 0;
}

/*===-- The page ----------------------------------------------------------===*/

static void write_summary(FILE *out, const pasta_html_input *in) {
  const pasta_profile *p = in->profile;
  fputs("<header><h1>PASTA report: ", out);
  pasta__markup_text(out, in->title);
  fputs("</h1>\n<p class=\"summary\">Program <code>", out);
  pasta__markup_text(out, p->program ? p->program : "?");
  fprintf(out, "</code>, pid %" PRIu64, p->pid);
  time_t t = (time_t)p->created;
  struct tm tm;
  char when[32];
  if (gmtime_r(&t, &tm) &&
      strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm))
    fprintf(out, ", %s", when);
  if (p->job.host) {
    fputs(", host ", out);
    pasta__markup_text(out, p->job.host);
  }
  if (p->job.rank >= 0)
    fprintf(out, ", rank %" PRId64, p->job.rank);
  if (p->num_merged_from)
    fprintf(out, ", merged from %zu processes", p->num_merged_from);
  fprintf(out,
          ". %zu kernels, %zu device functions, %zu host functions, %zu "
          "lines.</p>\n",
          p->num_kernels, p->num_device_functions, p->num_host_functions,
          p->num_lines);
  if (in->activity && (in->activity->launches || p->num_kernels)) {
    fputs("<p class=\"summary\">", out);
    pasta__html_u64(out, in->activity->launches);
    fputs(" launches, ", out);
    pasta__html_time(out, in->activity->gpu_time_ns);
    fputs(" of GPU time over the timed ones.</p>\n", out);
  }
  /* Links only to the sections the page has. */
  fputs("<nav>", out);
  if (has_kernel_section(p))
    fputs("<a href=\"#kernels\">Kernels</a> ", out);
  if (pasta__html_has_divergence(p))
    fputs("<a href=\"#divergence\">Divergence</a> ", out);
  if (pasta__html_has_ranks(p))
    fputs("<a href=\"#balance\">Balance</a> ", out);
  if (has_pictures(in))
    fputs("<a href=\"#pictures\">Roofline</a> ", out);
  if (p->num_device_functions || p->num_host_functions)
    fputs("<a href=\"#functions\">Functions</a> ", out);
  if (p->num_kernels)
    fputs("<a href=\"#kernel-details\">Each kernel</a> ", out);
  if (has_working_set(in))
    fputs("<a href=\"#working-set\">Working set</a> ", out);
  fputs("<a href=\"#sources\">Source</a></nav></header>\n", out);
}

int pasta__html_write_report(FILE *out, const pasta_html_input *in) {
  pasta_html_source_view v;
  if (pasta__html_source_view_init(&v, in->profile))
    return -1;
  pasta__html_begin(out, in->title);
  write_summary(out, in);
  write_kernel_table(out, in);
  pasta__html_write_div_table(out, in->profile);
  pasta__html_write_balance(out, in->profile, BALANCE_TOP_LINES, v.files,
                            v.num_files);
  int rc = write_function_table(out, in->profile);
  rc |= write_pictures(out, in);
  write_kernel_details(out, in, v.files, v.num_files);
  rc |= write_working_set(out, in);
  rc |= pasta__html_write_sources(out, in, &v);
  rc |= pasta__html_end(out);
  pasta__html_source_view_free(&v);
  return rc ? -1 : 0;
}
