/*===- html_diff.c - The page comparing two profiles ----------------------===*
 *
 * Before and after, side by side: the kernels of either profile matched by
 * mangled name (a kernel in one only shows zeros for the other), then the
 * source lines whose bytes + FLOPs changed most, with their text from the
 * second profile's files. When either profile is of a divergence run, the
 * kernels and lines also get the figures a fix of the access pattern
 * changes (sectors, excess sectors, bank conflicts, divergent branches),
 * and lines whose bytes did not change but whose waste did are listed
 * too: a coalescing fix moves the same bytes in fewer sectors.
 *===----------------------------------------------------------------------===*/
#include "html_internal.h"
#include "profile/sat.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Source lines listed: those that changed most. */
enum { DIFF_TOP_LINES = 50 };

static const pasta_profile_func zero_func;
static const pasta_html_line zero_line;

/* after - before, signed, with its sign in the text and the cell's class. */
static void delta_cell(FILE *out, const char *col, uint64_t before,
                       uint64_t after) {
  int up = after >= before;
  uint64_t d = up ? after - before : before - after;
  fprintf(out, "<td class=\"num %s\" data-col=\"%s\" data-v=\"%s%" PRIu64 "\">",
          d == 0 ? ""
          : up   ? "delta-up"
                 : "delta-down",
          col, up ? "" : "-", d);
  fputs(d == 0 ? "0" : up ? "+" : "&minus;", out);
  if (d)
    pasta__html_u64(out, d);
  fputs("</td>", out);
}

static const pasta_activity_kernel *find_launch(const pasta_activity *a,
                                                const char *mangled) {
  for (size_t i = 0; a && i < a->num_kernels; ++i)
    if (a->kernels[i].mangled && strcmp(a->kernels[i].mangled, mangled) == 0)
      return &a->kernels[i];
  return NULL;
}

/* GPU time, estimated as the kernel table does under sampled timing. */
static uint64_t time_of(const pasta_activity *a, const char *mangled) {
  int estimated;
  return pasta__html_kernel_time(find_launch(a, mangled), &estimated);
}

/* The divergence figures the diff compares: those a fix of the access
 * pattern changes. */
static uint64_t d_sectors(const uint64_t *div) {
  return div[PASTA_DIV_SECTORS];
}
static uint64_t d_bank_conflicts(const uint64_t *div) {
  return div[PASTA_DIV_BANK_CONFLICTS];
}
static uint64_t d_divergent(const uint64_t *div) {
  return div[PASTA_DIV_DIVERGENT];
}

static const struct diff_figure {
  const char *key, *what;
  uint64_t (*value)(const uint64_t *div);
} diff_figures[] = {
    {"sectors", "sectors", d_sectors},
    {"excess_sectors", "excess sectors", pasta_div_excess_sectors},
    {"bank_conflicts", "bank conflicts", d_bank_conflicts},
    {"divergent_branches", "divergent branches", d_divergent},
};
enum { NUM_DIFF_DIV = sizeof diff_figures / sizeof *diff_figures };

/* The heads of the divergence figures' columns: before, after, change. */
static void write_div_headers(FILE *out) {
  for (unsigned c = 0; c < NUM_DIFF_DIV; ++c)
    fprintf(out,
            "<th class=\"div\">%s before</th><th class=\"div\">%s after</th>"
            "<th class=\"div\">change</th>",
            diff_figures[c].what, diff_figures[c].what);
}

/* Before, after and the change of one count: three cells. */
static void write_change_cells(FILE *out, const char *key, uint64_t before,
                               uint64_t after) {
  char col[48];
  snprintf(col, sizeof col, "%s_before", key);
  pasta__html_num_cell(out, col, before, 0);
  snprintf(col, sizeof col, "%s_after", key);
  pasta__html_num_cell(out, col, after, 0);
  snprintf(col, sizeof col, "%s_change", key);
  delta_cell(out, col, before, after);
}

static void write_kernel_diff_row(FILE *out, const pasta_html_input *b,
                                  const pasta_html_input *a, int divergence,
                                  const pasta_profile_func *fb,
                                  const pasta_profile_func *fa) {
  const pasta_profile_func *named = fa ? fa : fb;
  fb = fb ? fb : &zero_func;
  fa = fa ? fa : &zero_func;
  fputs("<tr data-kernel=\"", out);
  pasta__markup_text(out, named->mangled);
  fputs("\"><td class=\"name\" data-col=\"kernel\">", out);
  pasta__markup_text(out, named->name);
  fputs("</td>", out);
  uint64_t v[4][2] = {
      {fb->calls, fa->calls},
      {time_of(b->activity, named->mangled),
       time_of(a->activity, named->mangled)},
      {pasta_counts_bytes(&fb->counts), pasta_counts_bytes(&fa->counts)},
      {pasta_counts_flops(&fb->counts), pasta_counts_flops(&fa->counts)}};
  static const char *const key[4] = {"launches", "time_ns", "bytes", "flops"};
  for (int c = 0; c < 4; ++c)
    write_change_cells(out, key[c], v[c][0], v[c][1]);
  for (unsigned c = 0; divergence && c < NUM_DIFF_DIV; ++c)
    write_change_cells(out, diff_figures[c].key, diff_figures[c].value(fb->div),
                       diff_figures[c].value(fa->div));
  fputs("</tr>\n", out);
}

static void write_kernel_diff(FILE *out, const pasta_html_input *b,
                              const pasta_html_input *a, int divergence) {
  fputs("<section id=\"kernels\"><h2>Kernels</h2>\n<table class=\"sortable\" "
        "id=\"kernel-table\"><thead><tr><th data-type=\"text\">kernel</th>",
        out);
  static const char *const what[4] = {"launches", "GPU time (ns)", "bytes",
                                      "FLOPs"};
  for (int c = 0; c < 4; ++c)
    fprintf(out, "<th>%s before</th><th>%s after</th><th>change</th>", what[c],
            what[c]);
  if (divergence)
    write_div_headers(out);
  fputs("</tr></thead><tbody>\n", out);
  const pasta_profile *pa = a->profile, *pb = b->profile;
  for (size_t i = 0; i < pa->num_kernels; ++i)
    write_kernel_diff_row(out, b, a, divergence,
                          pasta_profile_find_kernel(pb, pa->kernels[i].mangled),
                          &pa->kernels[i]);
  for (size_t i = 0; i < pb->num_kernels; ++i)
    if (!pasta_profile_find_kernel(pa, pb->kernels[i].mangled))
      write_kernel_diff_row(out, b, a, divergence, &pb->kernels[i], NULL);
  fputs("</tbody></table></section>\n", out);
}

/*===-- Lines -------------------------------------------------------------===*/

/* One source line in either profile. */
struct line_pair {
  const pasta_html_line *before, *after; /* zero_line when absent */
  uint64_t change;                       /* |weight after - weight before| */
  uint64_t div_change; /* the changes of the divergence figures, summed */
};

static uint64_t abs_diff(uint64_t x, uint64_t y) {
  return x > y ? x - y : y - x;
}

/* Most changed first: by bytes + FLOPs, then by the divergence figures. */
static int by_change_desc(const void *x, const void *y) {
  const struct line_pair *a = x, *b = y;
  if (a->change != b->change)
    return (a->change < b->change) - (a->change > b->change);
  return (a->div_change < b->div_change) - (a->div_change > b->div_change);
}

static int cmp_line(const pasta_html_line *x, const pasta_html_line *y) {
  int c = strcmp(x->file, y->file);
  return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* Both sorted lists walked together (a merge), one pair per line. */
static size_t pair_lines(const pasta_html_line *b, size_t nb,
                         const pasta_html_line *a, size_t na,
                         struct line_pair *pairs) {
  size_t i = 0, j = 0, n = 0;
  while (i < nb || j < na) {
    int c = i == nb ? 1 : j == na ? -1 : cmp_line(&b[i], &a[j]);
    struct line_pair *p = &pairs[n++];
    p->before = c <= 0 ? &b[i++] : &zero_line;
    p->after = c >= 0 ? &a[j++] : &zero_line;
    p->change = abs_diff(pasta__html_line_weight(&p->before->counts),
                         pasta__html_line_weight(&p->after->counts));
    p->div_change = 0;
    for (unsigned c = 0; c < NUM_DIFF_DIV; ++c)
      p->div_change = pasta__sat_add(
          p->div_change, abs_diff(diff_figures[c].value(p->before->div),
                                  diff_figures[c].value(p->after->div)));
  }
  return n;
}

/* The source files the listed lines are in, each read once. */
struct source_cache {
  const char *file[DIFF_TOP_LINES];
  pasta_html_source src[DIFF_TOP_LINES];
  size_t n;
};

/* Line `line` of `file`, or "" when the file or the line is not there. */
static const char *source_line(struct source_cache *c, const char *file,
                               uint32_t line, const pasta_html_input *in) {
  size_t i = 0;
  while (i < c->n && strcmp(c->file[i], file) != 0)
    ++i;
  if (i == c->n) {
    if (c->n == DIFF_TOP_LINES ||
        pasta__html_source_load(file, in->source_roots, in->allowed_roots,
                                in->source_file_roots, &c->src[i]))
      return "";
    c->file[c->n++] = file;
    if (c->src[i].refused && in->refused)
      in->refused(in->refused_arg, file);
  }
  const pasta_html_source *src = &c->src[i];
  return line >= 1 && line <= src->num_lines ? src->line[line - 1] : "";
}

static void free_source_cache(struct source_cache *c) {
  for (size_t i = 0; i < c->n; ++i)
    pasta__html_source_free(&c->src[i]);
}

static void write_line_pair(FILE *out, const struct line_pair *p,
                            int divergence, struct source_cache *cache,
                            const pasta_html_input *after) {
  const pasta_html_line *named = p->after->file ? p->after : p->before;
  fputs("<tr><td class=\"name\">", out);
  pasta__markup_text(out, named->file);
  fprintf(out, ":%" PRIu32 "</td>", named->line);
  uint64_t v[3][2] = {{p->before->executions, p->after->executions},
                      {pasta_counts_bytes(&p->before->counts),
                       pasta_counts_bytes(&p->after->counts)},
                      {pasta_counts_flops(&p->before->counts),
                       pasta_counts_flops(&p->after->counts)}};
  static const char *const key[3] = {"executions", "bytes", "flops"};
  for (int c = 0; c < 3; ++c) {
    char col[32];
    snprintf(col, sizeof col, "%s_before", key[c]);
    pasta__html_num_cell(out, col, v[c][0], 0);
    snprintf(col, sizeof col, "%s_after", key[c]);
    pasta__html_num_cell(out, col, v[c][1], 0);
  }
  for (unsigned c = 0; divergence && c < NUM_DIFF_DIV; ++c)
    write_change_cells(out, diff_figures[c].key,
                       diff_figures[c].value(p->before->div),
                       diff_figures[c].value(p->after->div));
  fputs("<td class=\"src\">", out);
  pasta__markup_text(out, source_line(cache, named->file, named->line, after));
  fputs("</td></tr>\n", out);
}

static int write_line_diff(FILE *out, const pasta_html_input *b,
                           const pasta_html_input *a, int divergence) {
  pasta_html_line *lb = NULL, *la = NULL;
  size_t nb = 0, na = 0;
  struct line_pair *pairs = NULL;
  int rc = -1;
  if (pasta__html_lines(b->profile, &lb, &nb) ||
      pasta__html_lines(a->profile, &la, &na) ||
      !(pairs = malloc((nb + na + 1) * sizeof *pairs)))
    goto done;
  size_t n = pair_lines(lb, nb, la, na, pairs);
  qsort(pairs, n, sizeof *pairs, by_change_desc);
  fprintf(out,
          "<section id=\"lines\"><h2>Lines that changed most</h2>\n<p "
          "class=\"note\">By the change of bytes + FLOPs%s; the top %d.</p>\n"
          "<table class=\"sortable\" id=\"line-table\"><thead><tr><th "
          "data-type=\"text\">line</th><th>executions before</th><th>"
          "executions after</th><th>bytes before</th><th>bytes after</th>"
          "<th>FLOPs before</th><th>FLOPs after</th>",
          divergence ? ", then of the divergence figures" : "", DIFF_TOP_LINES);
  if (divergence)
    write_div_headers(out);
  fputs("<th data-type=\"text\">source</th></tr></thead><tbody>\n", out);
  struct source_cache cache = {.n = 0};
  for (size_t i = 0;
       i < n && i < DIFF_TOP_LINES && (pairs[i].change || pairs[i].div_change);
       ++i)
    write_line_pair(out, &pairs[i], divergence, &cache, a);
  free_source_cache(&cache);
  fputs("</tbody></table></section>\n", out);
  rc = 0;
done:
  free(lb);
  free(la);
  free(pairs);
  return rc;
}

int pasta__html_write_diff(FILE *out, const pasta_html_input *before,
                           const pasta_html_input *after) {
  char title[1024];
  snprintf(title, sizeof title, "%s vs %s", before->title, after->title);
  pasta__html_begin(out, title);
  fputs("<header><h1>PASTA comparison</h1>\n<p class=\"summary\">Before: "
        "<code>",
        out);
  pasta__markup_text(out, before->title);
  fputs("</code>; after: <code>", out);
  pasta__markup_text(out, after->title);
  fputs("</code>. A change is after &minus; before.</p></header>\n", out);
  int divergence = pasta__html_has_divergence(before->profile) ||
                   pasta__html_has_divergence(after->profile);
  write_kernel_diff(out, before, after, divergence);
  int rc = write_line_diff(out, before, after, divergence);
  rc |= pasta__html_end(out);
  return rc ? -1 : 0;
}
