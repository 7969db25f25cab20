/*===- html_page.c - Escaping, number cells, the page frame, line sums ----===*
 *
 * The small pieces both pages are made of. Every string that comes from a
 * profile or a source file goes through pasta__markup_text, so a function
 * name such as `operator<` or a file holding "</script>" stays text.
 *===----------------------------------------------------------------------===*/
#include "html_internal.h"
#include "profile/output_file.h"
#include "profile/sat.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void pasta__html_u64(FILE *out, uint64_t v) {
  char digits[32];
  int n = snprintf(digits, sizeof digits, "%" PRIu64, v);
  for (int i = 0; i < n; ++i) {
    if (i && (n - i) % 3 == 0)
      fputc(',', out);
    fputc(digits[i], out);
  }
}

void pasta__html_num_cell(FILE *out, const char *col, uint64_t v, int blank) {
  fprintf(out, "<td class=\"num\" data-col=\"%s\" data-v=\"%" PRIu64 "\">", col,
          v);
  if (v || !blank)
    pasta__html_u64(out, v);
  fputs("</td>", out);
}

void pasta__html_real_cell(FILE *out, const char *col, double v) {
  if (v < 0 || v != v) {
    fprintf(out, "<td class=\"num\" data-col=\"%s\" data-v=\"\">-</td>", col);
    return;
  }
  fprintf(out, "<td class=\"num\" data-col=\"%s\" data-v=\"%.17g\">%.4g</td>",
          col, v, v);
}

void pasta__html_time(FILE *out, uint64_t ns) {
  static const char *const unit[] = {"ns", "us", "ms", "s"};
  double t = (double)ns;
  unsigned u = 0;
  while (u < 3 && t >= 1000) {
    t /= 1000;
    ++u;
  }
  fprintf(out, "%.4g %s", t, unit[u]);
}

void pasta__html_time_cell(FILE *out, const char *col, uint64_t ns) {
  fprintf(out, "<td class=\"num\" data-col=\"%s\" data-v=\"%" PRIu64 "\">", col,
          ns);
  pasta__html_time(out, ns);
  fputs("</td>", out);
}

/* Index of `file` among the source files shown, or -1. */
static long file_index(const char *const *files, size_t n, const char *file) {
  for (size_t i = 0; file && i < n; ++i)
    if (strcmp(files[i], file) == 0)
      return (long)i;
  return -1;
}

void pasta__html_line_link(FILE *out, const char *const *files, size_t n,
                           const char *file, uint32_t line) {
  long f = file_index(files, n, file);
  if (f >= 0)
    fprintf(out, "<a href=\"#L%ld-%" PRIu32 "\">", f, line);
  pasta__markup_text(out, file ? file : "?");
  fprintf(out, ":%" PRIu32 "%s", line, f >= 0 ? "</a>" : "");
}

void pasta__html_begin(FILE *out, const char *title) {
  /* No request may leave the page: the report must open the same on a
   * machine without network, and profile text can never load anything. */
  fputs(PASTA_HTML_SIGNATURE /* output_file.h recognises the page by it */
        "<meta name=\"viewport\" content=\"width=device-width\">\n<title>",
        out);
  pasta__markup_text(out, title);
  fputs("</title>\n<style>\n", out);
  fputs(pasta__html_css, out);
  fputs("</style>\n</head>\n<body>\n<div id=\"pasta-errors\" "
        "role=\"alert\"></div>\n",
        out);
}

int pasta__html_end(FILE *out) {
  fputs("<script>\n", out);
  fputs(pasta__html_js, out);
  fputs("</script>\n</body>\n</html>\n", out);
  return ferror(out) ? -1 : 0;
}

/*===-- Lines summed per source line -------------------------------------===*/

uint64_t pasta__html_kernel_time(const pasta_activity_kernel *k,
                                 int *estimated) {
  *estimated = 0;
  if (!k || !k->timed)
    return 0;
  uint64_t ran = k->launches > k->failed ? k->launches - k->failed : 0;
  if (k->timed >= ran)
    return k->time_total_ns;
  *estimated = 1;
  return pasta_u64_from_double(
      (double)k->time_total_ns / (double)k->timed * (double)ran + 0.5);
}

uint64_t pasta__html_space_bytes(const pasta_counts *c, unsigned space) {
  return pasta__sat_add(
      pasta__sat_add(c->load_bytes[space], c->store_bytes[space]),
      c->atomic_bytes[space]);
}

uint64_t pasta__html_line_weight(const pasta_counts *c) {
  return pasta__sat_add(pasta_counts_bytes(c), pasta_counts_flops(c));
}

static int by_file_line(const void *a, const void *b) {
  const pasta_html_line *x = a, *y = b;
  int c = strcmp(x->file, y->file);
  if (c)
    return c;
  return (x->line > y->line) - (x->line < y->line);
}

int pasta__html_lines(const pasta_profile *p, pasta_html_line **out,
                      size_t *n) {
  pasta_html_line *v = malloc((p->num_lines ? p->num_lines : 1) * sizeof *v);
  *out = v;
  *n = 0;
  if (!v)
    return -1;
  size_t k = 0;
  for (size_t i = 0; i < p->num_lines; ++i) {
    const pasta_profile_line *l = &p->lines[i];
    if (!l->file)
      continue;
    pasta_html_line *h = &v[k++];
    *h = (pasta_html_line){.file = l->file,
                           .line = l->line,
                           .executions = l->executions,
                           .counts = l->counts,
                           .ranks = l->ranks,
                           .function = l->function,
                           .num_functions = 1,
                           .div_proven = l->div_proven,
                           .div_measured = l->div_measured};
    memcpy(h->div, l->div, sizeof h->div);
  }
  qsort(v, k, sizeof *v, by_file_line);
  size_t m = 0;
  for (size_t i = 0; i < k; ++i) {
    if (m && by_file_line(&v[m - 1], &v[i]) == 0) {
      v[m - 1].executions =
          pasta__sat_add(v[m - 1].executions, v[i].executions);
      pasta_counts_add(&v[m - 1].counts, &v[i].counts);
      for (unsigned d = 0; d < PASTA_DIV_NUM; ++d)
        v[m - 1].div[d] = pasta__sat_add(v[m - 1].div[d], v[i].div[d]);
      v[m - 1].div_proven |= v[i].div_proven;
      v[m - 1].div_measured |= v[i].div_measured;
      v[m - 1].ranks = NULL; /* spreads do not add up */
      v[m - 1].num_functions++;
      continue;
    }
    v[m++] = v[i];
  }
  *n = m;
  return 0;
}
