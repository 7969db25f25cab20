/*===- html_source_view.c - The report's source files and their counts ----===*
 *
 * Each source file with counted lines, hottest first: its text (found by
 * html_source.c) with, beside each line, the columns of line_columns (the
 * profile's lines summed per source line, html_page.c), the divergence
 * columns of a divergence run and the rank columns of a merged profile
 * (html_figures.c), and a heat bar. A long file shows only the lines near
 * counted ones; counted lines the file lacks, or all of them when it was
 * not found, come after it.
 *
 * The bar measures one of heat_measures: bytes + FLOPs, or, in a
 * divergence run, what the access pattern wastes (excess sectors, bank
 * conflicts, divergent branches). A divergence run starts on the first of
 * those that any line has, since bytes alone do not say which line is
 * badly coalesced; a <select> (report.js) switches between them.
 *===----------------------------------------------------------------------===*/
#include "html_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static uint64_t c_executions(const pasta_html_line *l, unsigned arg) {
  (void)arg;
  return l->executions;
}
static uint64_t c_space_bytes(const pasta_html_line *l, unsigned space) {
  return pasta__html_space_bytes(&l->counts, space);
}
static uint64_t c_flops(const pasta_html_line *l, unsigned arg) {
  (void)arg;
  return pasta_counts_flops(&l->counts);
}
static uint64_t c_special(const pasta_html_line *l, unsigned arg) {
  (void)arg;
  return l->counts.special;
}

/* The per-line columns, in order. An optional column is shown only when a
 * line of the profile has a non-zero value in it: address spaces nothing
 * used stay out. The divergence and rank columns follow them, shown when
 * the profile has such figures at all (a 0 there is a finding). */
static const struct line_column {
  const char *key, *header, *title;
  uint64_t (*value)(const pasta_html_line *l, unsigned arg);
  unsigned arg;
  int optional;
} line_columns[] = {
    {"executions", "exec", "thread-level executions of the line's blocks",
     c_executions, 0, 0},
    {"global", "global B", "bytes of global memory", c_space_bytes,
     PASTA_SPACE_GLOBAL, 1},
    {"shared", "shared B", "bytes of shared memory", c_space_bytes,
     PASTA_SPACE_SHARED, 1},
    {"local", "local B", "bytes of local memory", c_space_bytes,
     PASTA_SPACE_LOCAL, 1},
    {"constant", "const B", "bytes of constant memory", c_space_bytes,
     PASTA_SPACE_CONSTANT, 1},
    {"generic", "generic B", "bytes through generic pointers (host code)",
     c_space_bytes, PASTA_SPACE_GENERIC, 1},
    {"flops", "FLOPs", "floating-point operations, every precision", c_flops, 0,
     0},
    {"special", "special", "division, square root, transcendentals", c_special,
     0, 0},
};
enum { NUM_LINE_COLUMNS = sizeof line_columns / sizeof *line_columns };

_Static_assert(NUM_LINE_COLUMNS <= PASTA_HTML_MAX_LINE_COLUMNS,
               "more line columns than pasta_html_source_view.shown holds");

static uint64_t h_weight(const pasta_html_line *l) {
  return pasta__html_line_weight(&l->counts);
}
static uint64_t h_excess_sectors(const pasta_html_line *l) {
  return pasta_div_excess_sectors(l->div);
}
static uint64_t h_bank_conflicts(const pasta_html_line *l) {
  return l->div[PASTA_DIV_BANK_CONFLICTS];
}
static uint64_t h_divergent(const pasta_html_line *l) {
  return l->div[PASTA_DIV_DIVERGENT];
}

/* What the heat bar can measure; the divergence ones only in a divergence
 * run. */
static const struct heat_measure {
  const char *label;
  uint64_t (*value)(const pasta_html_line *l);
  int divergence;
} heat_measures[] = {
    {"bytes + FLOPs", h_weight, 0},
    {"excess sectors", h_excess_sectors, 1},
    {"bank conflicts", h_bank_conflicts, 1},
    {"divergent branches", h_divergent, 1},
};
enum { NUM_HEAT = sizeof heat_measures / sizeof *heat_measures };

_Static_assert(NUM_HEAT <= PASTA_HTML_MAX_HEAT,
               "more heat measures than pasta_html_source_view holds");

/* `l`'s bar for measure h, in tenths of a percent of the hottest line's. */
static unsigned heat_permille(const pasta_html_source_view *v,
                              const pasta_html_line *l, unsigned h) {
  uint64_t x = l ? heat_measures[h].value(l) : 0;
  if (!x || !v->max_heat[h])
    return 0;
  unsigned permille =
      (unsigned)((double)x / (double)v->max_heat[h] * 1000.0 + 0.5);
  return permille > 1000 ? 1000 : permille;
}

/* The bar at v->heat; with a choice of measures, data-heat has its width
 * for each (report.js switches them). */
static void write_heat_cell(FILE *out, const pasta_html_source_view *v,
                            const pasta_html_line *l) {
  fputs("<td class=\"heat\"", out);
  if (v->divergence) {
    fputs(" data-heat=\"", out);
    for (unsigned h = 0; h < NUM_HEAT; ++h)
      fprintf(out, "%s%u", h ? " " : "", heat_permille(v, l, h));
    fputs("\"", out);
  }
  unsigned permille = heat_permille(v, l, v->heat);
  fprintf(out, "><span style=\"width:%u.%u%%\"></span></td>", permille / 10,
          permille % 10);
}

static void write_line_cells(FILE *out, const pasta_html_source_view *v,
                             const pasta_html_line *l) {
  write_heat_cell(out, v, l);
  for (size_t c = 0; c < NUM_LINE_COLUMNS; ++c)
    if (v->shown[c]) {
      if (l)
        pasta__html_num_cell(out, line_columns[c].key,
                             line_columns[c].value(l, line_columns[c].arg), 1);
      else
        fputs("<td class=\"num\"></td>", out);
    }
  const uint64_t *div = l && pasta_div_any(l->div) ? l->div : NULL;
  for (size_t c = 0; v->divergence && c < pasta__html_num_div_columns; ++c)
    if (!pasta__html_div_columns[c].kernel_only)
      pasta__html_div_cell(out, &pasta__html_div_columns[c], div);
  if (v->ranks)
    pasta__html_line_rank_cells(out, v->profile, l);
}

static void write_source_row(FILE *out, const pasta_html_source_view *v,
                             size_t file, uint32_t number, const char *text,
                             const pasta_html_line *l) {
  fprintf(out,
          "<tr id=\"L%zu-%" PRIu32
          "\"%s><td class=\"ln\"><a href=\"#L%zu-%" PRIu32 "\">%" PRIu32 "</a>",
          file, number, l ? " class=\"hit\"" : "", file, number, number);
  /* Figures no site of the line measured: derived from a proof. */
  uint32_t proven =
      l && pasta_div_any(l->div) ? l->div_proven & ~l->div_measured : 0;
  if (proven) {
    char what[256];
    pasta_div_describe_proven(proven, l->div, what, sizeof what);
    fputs("<span class=\"proven\" title=\"", out);
    pasta__markup_text(out, what);
    fputs("\">&#10003;</span>", out);
  }
  fputs("</td>", out);
  write_line_cells(out, v, l);
  fputs("<td class=\"src\"", out);
  if (l && l->function) {
    fputs(" title=\"", out);
    pasta__markup_text(out, l->function);
    if (l->num_functions > 1)
      fprintf(out, " and %u more", l->num_functions - 1);
    fputs("\"", out);
  }
  fputs(">", out);
  pasta__markup_text(out, text);
  fputs("</td></tr>\n", out);
}

static void write_source_header(FILE *out, const pasta_html_source_view *v) {
  fputs("<thead><tr><th>line</th><th>heat</th>", out);
  for (size_t c = 0; c < NUM_LINE_COLUMNS; ++c)
    if (v->shown[c])
      fprintf(out, "<th title=\"%s\">%s</th>", line_columns[c].title,
              line_columns[c].header);
  if (v->divergence)
    pasta__html_div_headers(out, 1);
  if (v->ranks)
    fputs("<th class=\"rank\" title=\"the line's executions: largest "
          "process's / mean over processes\">imbalance</th><th class=\"rank\" "
          "title=\"the process with the most executions\">max at</th>",
          out);
  fputs("<th class=\"src\">source</th></tr></thead>\n", out);
}

/* Files longer than this show only the lines near a counted one (a
 * library header's thousands of lines are not what a reader came for). */
enum { WHOLE_FILE_LINES = 400, CONTEXT_LINES = 8 };

/* Which lines of `src` to show: all of a short file, else those within
 * CONTEXT_LINES of a counted line. show[n] for line n; malloc'd. */
static unsigned char *lines_to_show(const pasta_html_source *src,
                                    const pasta_html_line *first,
                                    size_t count) {
  size_t n = src->num_lines;
  unsigned char *show = malloc(n + 1);
  if (!show)
    return NULL;
  memset(show, n <= WHOLE_FILE_LINES, n + 1);
  for (size_t k = 0; n > WHOLE_FILE_LINES && k < count; ++k) {
    size_t at = first[k].line;
    size_t lo = at > CONTEXT_LINES ? at - CONTEXT_LINES : 1;
    for (size_t i = lo; i <= at + CONTEXT_LINES && i <= n; ++i)
      show[i] = 1;
  }
  return show;
}

/* The file's lines with their counts; then the counted lines it does not
 * have (line 0: no line known; beyond its end: the file changed since the
 * run; all of them when the file was not found). */
static int write_source_lines(FILE *out, const pasta_html_source_view *v,
                              size_t fi, const pasta_html_source *src,
                              const pasta_html_line *first, size_t count) {
  unsigned char *show = lines_to_show(src, first, count);
  if (!show)
    return -1;
  size_t k = 0;
  while (k < count && first[k].line == 0)
    ++k;
  size_t hidden_from = 0;
  for (size_t n = 1; n <= src->num_lines; ++n) {
    const pasta_html_line *l =
        k < count && first[k].line == n ? &first[k++] : NULL;
    if (!show[n]) {
      hidden_from = hidden_from ? hidden_from : n;
      continue;
    }
    if (hidden_from)
      fprintf(out,
              "<tr class=\"gap\"><td colspan=\"99\">lines %zu to %zu: no "
              "counts</td></tr>\n",
              hidden_from, n - 1);
    hidden_from = 0;
    write_source_row(out, v, fi, (uint32_t)n, src->line[n - 1], l);
  }
  if (hidden_from)
    fprintf(out,
            "<tr class=\"gap\"><td colspan=\"99\">lines %zu to %zu: no "
            "counts</td></tr>\n",
            hidden_from, src->num_lines);
  free(show);
  int beyond = k < count || (count && first[0].line == 0);
  if (beyond && src->path)
    fputs("<tr class=\"gap\"><td colspan=\"99\">Counted lines this file "
          "does not have (line 0: unknown; beyond its end: has it changed "
          "since the run?):</td></tr>\n",
          out);
  for (size_t j = 0; j < count && first[j].line == 0; ++j)
    write_source_row(out, v, fi, 0, "", &first[j]);
  for (; k < count; ++k)
    write_source_row(out, v, fi, first[k].line, "", &first[k]);
  return 0;
}

/* One file: its text with the counts beside each line, or, when it was not
 * found, its counted lines alone and a note saying so. */
static int write_source_file(FILE *out, const pasta_html_input *in,
                             const pasta_html_source_view *v, size_t fi,
                             const pasta_html_line *first, size_t count) {
  pasta_html_source src;
  if (pasta__html_source_load(v->files[fi], in->source_roots, in->allowed_roots,
                              in->source_file_roots, &src))
    return -1;
  if (src.refused && in->refused)
    in->refused(in->refused_arg, v->files[fi]);
  fprintf(out, "<section class=\"source\" id=\"f%zu\" data-file=\"", fi);
  pasta__markup_text(out, v->files[fi]);
  fputs("\"><h3>", out);
  pasta__markup_text(out, v->files[fi]);
  fputs("</h3>\n", out);
  if (src.refused) {
    fputs("<p class=\"missing\">Source not read: ", out);
    pasta__markup_text(out, v->files[fi]);
    fputs(" is outside the directories this report may read (the current "
          "directory, the profile's directory and each --source-root DIR). "
          "Its counted lines:</p>\n",
          out);
  } else if (!src.path) {
    fputs("<p class=\"missing\">Source not found: ", out);
    pasta__markup_text(out, v->files[fi]);
    fputs(" (profile made on another machine? pasta-report html "
          "--source-root DIR looks for it under DIR). Its counted lines:</p>\n",
          out);
  } else if (strcmp(src.path, v->files[fi]) != 0) {
    fputs("<p class=\"note\">Read from ", out);
    pasta__markup_text(out, src.path);
    fputs(".</p>\n", out);
  }
  fputs("<table class=\"code\">", out);
  write_source_header(out, v);
  fputs("<tbody>\n", out);
  int rc = write_source_lines(out, v, fi, &src, first, count);
  fputs("</tbody></table></section>\n", out);
  pasta__html_source_free(&src);
  return rc || ferror(out) ? -1 : 0;
}

/* Per heat measure, the hottest line's value; which optional columns any
 * line fills; the measure the bar starts on. */
static void scan_lines(pasta_html_source_view *v) {
  for (size_t i = 0; i < v->num_lines; ++i) {
    const pasta_html_line *l = &v->lines[i];
    for (unsigned h = 0; h < NUM_HEAT; ++h) {
      uint64_t x = heat_measures[h].value(l);
      if (x > v->max_heat[h])
        v->max_heat[h] = x;
    }
    for (size_t c = 0; c < NUM_LINE_COLUMNS; ++c)
      v->shown[c] |= !line_columns[c].optional ||
                     line_columns[c].value(l, line_columns[c].arg) != 0;
  }
  v->heat = 0; /* bytes + FLOPs */
  for (unsigned h = 0; v->divergence && !v->heat && h < NUM_HEAT; ++h)
    if (heat_measures[h].divergence && v->max_heat[h])
      v->heat = h;
}

/* Distinct files in order of their lines' total heat, hottest first. */
static int collect_files(pasta_html_source_view *v) {
  v->files = malloc((v->num_lines ? v->num_lines : 1) * sizeof *v->files);
  uint64_t *weight = malloc((v->num_lines ? v->num_lines : 1) * sizeof *weight);
  if (!v->files || !weight) {
    free(weight);
    return -1;
  }
  for (size_t i = 0; i < v->num_lines; ++i) {
    const pasta_html_line *l = &v->lines[i];
    uint64_t w = heat_measures[v->heat].value(l);
    if (!v->num_files || strcmp(v->files[v->num_files - 1], l->file) != 0) {
      weight[v->num_files] = 0;
      v->files[v->num_files++] = l->file;
    }
    uint64_t *fw = &weight[v->num_files - 1];
    *fw = *fw + w < *fw ? UINT64_MAX : *fw + w;
  }
  /* Insertion sort: a profile has few files. */
  for (size_t i = 1; i < v->num_files; ++i)
    for (size_t j = i; j > 0 && weight[j] > weight[j - 1]; --j) {
      uint64_t tw = weight[j];
      weight[j] = weight[j - 1];
      weight[j - 1] = tw;
      const char *tf = v->files[j];
      v->files[j] = v->files[j - 1];
      v->files[j - 1] = tf;
    }
  free(weight);
  return 0;
}

/* The note above the files, and the bar's measure to choose from in a
 * divergence run. */
static void write_sources_note(FILE *out, const pasta_html_source_view *v) {
  fputs("<p class=\"note\">Per line: thread-level executions, bytes per "
        "address space (load, store and atomic), FLOPs and special "
        "operations",
        out);
  if (v->divergence)
    fputs(", the warp-level divergence figures (as in the Divergence table)",
          out);
  if (v->ranks)
    fputs(", the imbalance of the line's executions over the ranks and the "
          "rank with the most (for a line of one function: spreads do not "
          "add up)",
          out);
  fputs(", summed over every function with code on the line. The bar is the "
        "line's ",
        out);
  if (!v->divergence) {
    fputs("bytes + FLOPs against the hottest line.</p>\n", out);
    return;
  }
  fputs("<label for=\"heat-measure\">measure</label> against the hottest "
        "line's: <select id=\"heat-measure\">",
        out);
  for (unsigned h = 0; h < NUM_HEAT; ++h)
    fprintf(out, "<option value=\"%u\"%s>%s</option>", h,
            h == v->heat ? " selected" : "", heat_measures[h].label);
  fputs("</select></p>\n", out);
}

int pasta__html_write_sources(FILE *out, const pasta_html_input *in,
                              const pasta_html_source_view *v) {
  fputs("<section id=\"sources\"><h2>Source</h2>\n", out);
  if (!v->num_files)
    fputs("<p class=\"note\">No source lines in this profile (built without "
          "debug info?).</p>\n",
          out);
  else
    write_sources_note(out, v);
  int rc = 0;
  for (size_t fi = 0; !rc && fi < v->num_files; ++fi) {
    size_t first = 0;
    while (strcmp(v->lines[first].file, v->files[fi]) != 0)
      ++first;
    size_t end = first;
    while (end < v->num_lines && strcmp(v->lines[end].file, v->files[fi]) == 0)
      ++end;
    rc = write_source_file(out, in, v, fi, &v->lines[first], end - first);
  }
  fputs("</section>\n", out);
  return rc;
}

int pasta__html_source_view_init(pasta_html_source_view *v,
                                 const pasta_profile *p) {
  memset(v, 0, sizeof *v);
  v->profile = p;
  v->divergence = pasta__html_has_divergence(p);
  v->ranks = pasta__html_has_ranks(p);
  int rc = pasta__html_lines(p, &v->lines, &v->num_lines);
  if (!rc) {
    scan_lines(v);
    rc = collect_files(v);
  }
  if (rc)
    pasta__html_source_view_free(v);
  return rc;
}

void pasta__html_source_view_free(pasta_html_source_view *v) {
  free(v->lines);
  free(v->files);
  memset(v, 0, sizeof *v);
}
