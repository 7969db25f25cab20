/*===- report_trace.c - show, merge and diff of the trace analyses --------===*
 *
 * show reads the section back into the runtime's struct (trace_read.h) and
 * prints it with the runtime's own table writer (cats.c). merge keeps one
 * analysis per process: a trace describes one process's buffers, times and
 * scopes, and sums or maxima of them would describe no run (a peak
 * footprint of two processes is not the sum of their peaks, and their
 * times are on different clocks). diff pairs scopes by type, function, file,
 * line and column (their ids are hashes of the same) and compares the
 * dynamic stride-k and indirect accesses, the ones a data layout change is
 * meant to remove.
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "report_trace.h"
#include "report.h"

#include "analyzers/trace/trace_analyses.h"
#include "profile/json_read.h"
#include "profile/json_write.h"
#include "profile/profile_json.h"
#include "profile/text_table.h"
#include "profile/trace_read.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/*===-- show --------------------------------------------------------------===*/

static int print_trace(FILE *out, json_t *trace, unsigned top) {
  pasta_trace_read r;
  if (pasta__trace_analysis_read(trace, &r))
    return -1;
  pasta__trace_analysis_print(out, &r.analysis, top);
  pasta__trace_read_free(&r);
  return ferror(out) ? -1 : 0;
}

int pasta__report_show_traces(FILE *out, json_t *sections, json_t *merged_from,
                              unsigned top) {
  json_t *one = json_object_get(sections, "trace");
  if (json_is_object(one))
    return print_trace(out, one, top);
  json_t *list = json_object_get(sections, "traces");
  size_t i;
  json_t *e;
  int rc = 0;
  json_array_foreach(list, i, e) {
    uint64_t process = pasta__json_u64(e, "process");
    json_t *src = json_array_get(merged_from, (size_t)process);
    const char *program = json_string_value(json_object_get(src, "program"));
    const char *file = json_string_value(json_object_get(src, "file"));
    fprintf(out, "\npasta: trace of process %" PRIu64, process);
    if (src) {
      fputs(" (", out);
      pasta__text_write(out, program ? program : "?");
      fprintf(out, ", pid %" PRIu64 ", from ", pasta__json_u64(src, "pid"));
      pasta__text_write(out, file ? file : "?");
      fputc(')', out);
    }
    fputs(":\n", out);
    rc |= print_trace(out, e, top);
  }
  return rc;
}

/*===-- merge -------------------------------------------------------------===*/

/* One entry of "traces": "process" first, then the members of `t` but its
 * own "process". */
static void write_entry(FILE *out, size_t k, uint64_t process, json_t *t) {
  const char *key;
  json_t *v;
  fputs(k ? ",\n  " : ",\n\"traces\":[\n  ", out);
  fprintf(out, "{\"process\":%" PRIu64, process);
  json_object_foreach(t, key, v) {
    if (strcmp(key, "process") == 0)
      continue;
    fputc(',', out);
    pasta__json_write_string(out, key);
    fputc(':', out);
    pasta__json_dump(out, v);
  }
  fputc('}', out);
}

int pasta__report_merge_traces_add(FILE *out, json_t *root,
                                   size_t first_process, size_t *written) {
  json_t *one = json_object_get(root, "trace");
  json_t *list = json_object_get(root, "traces");
  size_t j;
  json_t *e;
  if (json_is_object(one)) {
    write_entry(out, (*written)++, first_process, one);
  } else {
    json_array_foreach(list, j, e) {
      if (json_is_object(e))
        write_entry(out, (*written)++,
                    first_process + pasta__json_u64(e, "process"), e);
    }
  }
  return ferror(out) ? -1 : 0;
}

int pasta__report_merge_traces_end(FILE *out, size_t written) {
  if (written)
    fputs("\n]", out);
  return ferror(out) ? -1 : 0;
}

/*===-- diff --------------------------------------------------------------===*/

static uint64_t abs_change(uint64_t before, uint64_t after) {
  return after > before ? after - before : before - after;
}

/* before, after ("-" when absent), change and relative change. */
static void fmt_cells(char cells[4][32], int have_b, uint64_t b, int have_a,
                      uint64_t a) {
  uint64_t vb = have_b ? b : 0, va = have_a ? a : 0;
  snprintf(cells[0], 32, "-");
  snprintf(cells[1], 32, "-");
  if (have_b)
    snprintf(cells[0], 32, "%" PRIu64, b);
  if (have_a)
    snprintf(cells[1], 32, "%" PRIu64, a);
  if (va == vb)
    snprintf(cells[2], 32, "0");
  else
    snprintf(cells[2], 32, "%c%" PRIu64, va > vb ? '+' : '-',
             abs_change(vb, va));
  if (!have_b || !vb)
    snprintf(cells[3], 32, "-");
  else
    snprintf(cells[3], 32, "%+.1f%%",
             ((double)va - (double)vb) / (double)vb * 100.0);
}

static int diff_totals(FILE *out, const struct pasta_trace_analysis *b,
                       const struct pasta_trace_analysis *a) {
  const struct {
    const char *name;
    uint64_t b, a;
  } rows[] = {
      {"peak footprint (B)", b->peak_bytes, a->peak_bytes},
      {"buffers live at peak", b->peak_buffers, a->peak_buffers},
      {"never freed (B)", b->final_bytes, a->final_bytes},
      {"buffers", b->num_lives, a->num_lives},
      {"reuse saving (B)", b->reuse_saving_bytes, a->reuse_saving_bytes},
  };
  static const int left[] = {1, 0, 0, 0, 0};
  struct text_table t = {5, left, NULL, 0, 0};
  int err =
      text_table_row(&t, "trace", "before", "after", "change", "relative");
  for (size_t i = 0; i < sizeof rows / sizeof *rows; ++i) {
    char c[4][32];
    fmt_cells(c, 1, rows[i].b, 1, rows[i].a);
    err |= text_table_row(&t, rows[i].name, c[0], c[1], c[2], c[3]);
  }
  fputs("\nTrace analyses (change = after - before):\n", out);
  text_table_print_free(out, &t);
  return err;
}

struct scope_pair {
  const struct pasta_trace_scope_summary *b, *a;
  uint64_t weight; /* |change| of stride-k + |change| of indirect */
};

static uint64_t hot(const struct pasta_trace_scope_summary *s) {
  return s ? pasta__sat_add(s->dynamic_accesses[PASTA_ACCESS_STRIDEK],
                            s->dynamic_accesses[PASTA_ACCESS_INDIRECT])
           : 0;
}

static int same_scope(const struct pasta_trace_scope_summary *x,
                      const struct pasta_trace_scope_summary *y) {
  return x->kind == y->kind && x->line == y->line && x->col == y->col &&
         strcmp(x->funcname, y->funcname) == 0 &&
         strcmp(x->filename, y->filename) == 0;
}

static int cmp_scope_pair(const void *pa, const void *pb) {
  const struct scope_pair *x = pa, *y = pb;
  if (x->weight != y->weight)
    return x->weight < y->weight ? 1 : -1;
  uint64_t hx = hot(x->a) > hot(x->b) ? hot(x->a) : hot(x->b);
  uint64_t hy = hot(y->a) > hot(y->b) ? hot(y->a) : hot(y->b);
  if (hx != hy)
    return hx < hy ? 1 : -1;
  const struct pasta_trace_scope_summary *sx = x->b ? x->b : x->a;
  const struct pasta_trace_scope_summary *sy = y->b ? y->b : y->a;
  int c = strcmp(sx->funcname, sy->funcname);
  if (c)
    return c;
  return sx->line != sy->line ? (sx->line < sy->line ? -1 : 1) : 0;
}

/* "file:line" of a scope, the file without its directories. */
static void fmt_at(char *out, size_t size,
                   const struct pasta_trace_scope_summary *s) {
  const char *slash = strrchr(s->filename, '/');
  const char *base = slash ? slash + 1 : s->filename;
  snprintf(out, size, "%s:%" PRIu32, *base ? base : "?", s->line);
}

static int diff_scopes(FILE *out, const struct pasta_trace_analysis *b,
                       const struct pasta_trace_analysis *a) {
  size_t cap = b->num_scopes + a->num_scopes;
  struct scope_pair *p = calloc(cap ? cap : 1, sizeof *p);
  unsigned char *taken = calloc(a->num_scopes ? a->num_scopes : 1, 1);
  if (!p || !taken) {
    free(p);
    free(taken);
    return -1;
  }
  size_t np = 0, quiet = 0;
  for (size_t i = 0; i < b->num_scopes; ++i) {
    p[np] = (struct scope_pair){&b->scopes[i], NULL, 0};
    for (size_t j = 0; j < a->num_scopes; ++j)
      if (!taken[j] && same_scope(&b->scopes[i], &a->scopes[j])) {
        taken[j] = 1;
        p[np].a = &a->scopes[j];
        break;
      }
    ++np;
  }
  for (size_t j = 0; j < a->num_scopes; ++j)
    if (!taken[j])
      p[np++] = (struct scope_pair){NULL, &a->scopes[j], 0};
  /* Only scopes with such accesses on either side are listed. */
  size_t listed = 0;
  for (size_t i = 0; i < np; ++i) {
    if (!hot(p[i].b) && !hot(p[i].a)) {
      ++quiet;
      continue;
    }
    p[i].weight = 0;
    for (unsigned k = PASTA_ACCESS_STRIDEK; k <= PASTA_ACCESS_INDIRECT; ++k)
      p[i].weight = pasta__sat_add(
          p[i].weight, abs_change(p[i].b ? p[i].b->dynamic_accesses[k] : 0,
                                  p[i].a ? p[i].a->dynamic_accesses[k] : 0));
    p[listed++] = p[i];
  }
  int err = 0;
  if (!listed) {
    fprintf(out,
            "No scope has stride-k or indirect accesses in either profile "
            "(%zu scopes before, %zu after).\n",
            b->num_scopes, a->num_scopes);
  } else {
    qsort(p, listed, sizeof *p, cmp_scope_pair);
    static const int left[] = {1, 1, 1, 1, 1, 0, 0, 0, 0};
    struct text_table t = {9, left, NULL, 0, 0};
    err = text_table_row(&t, "function", "scope", "at", "status", "metric",
                         "before", "after", "change", "relative");
    for (size_t i = 0; i < listed; ++i) {
      const struct pasta_trace_scope_summary *sb = p[i].b, *sa = p[i].a;
      const struct pasta_trace_scope_summary *any = sb ? sb : sa;
      const char *type = pasta__cats_scope_type(any->kind);
      char at[96];
      fmt_at(at, sizeof at, any);
      const char *status = !sb           ? "added"
                           : !sa         ? "removed"
                           : p[i].weight ? "changed"
                                         : "same";
      for (unsigned k = PASTA_ACCESS_STRIDEK; k <= PASTA_ACCESS_INDIRECT; ++k) {
        char c[4][32];
        fmt_cells(c, sb != NULL, sb ? sb->dynamic_accesses[k] : 0, sa != NULL,
                  sa ? sa->dynamic_accesses[k] : 0);
        int first = k == PASTA_ACCESS_STRIDEK;
        err |= text_table_row(&t, first ? any->funcname : "",
                              first ? (type ? type : "?") : "", first ? at : "",
                              first ? status : "", pasta__cats_access_class(k),
                              c[0], c[1], c[2], c[3]);
      }
    }
    fprintf(out,
            "Scopes with stride-k or indirect accesses, by |change| of their "
            "dynamic counts (%zu more scopes have none):\n",
            quiet);
    text_table_print_free(out, &t);
  }
  free(p);
  free(taken);
  return err;
}

int pasta__report_diff_traces(FILE *out, json_t *before, json_t *after) {
  json_t *tb = json_object_get(before, "trace");
  json_t *ta = json_object_get(after, "trace");
  int lb = json_is_array(json_object_get(before, "traces"));
  int la = json_is_array(json_object_get(after, "traces"));
  int ob = json_is_object(tb), oa = json_is_object(ta);
  if (!ob && !oa && !lb && !la)
    return 0;
  if (!ob || !oa) {
    fprintf(out, "\nTrace analyses not compared: %s.\n",
            lb || la ? "a merged profile keeps one per process (\"traces\")"
            : ob     ? "only the before profile has a trace section"
                     : "only the after profile has a trace section");
    return ferror(out) ? -1 : 0;
  }
  pasta_trace_read rb, ra;
  if (pasta__trace_analysis_read(tb, &rb))
    return -1;
  if (pasta__trace_analysis_read(ta, &ra)) {
    pasta__trace_read_free(&rb);
    return -1;
  }
  int err = diff_totals(out, &rb.analysis, &ra.analysis) ||
            diff_scopes(out, &rb.analysis, &ra.analysis);
  pasta__trace_read_free(&rb);
  pasta__trace_read_free(&ra);
  return err || ferror(out) ? -1 : 0;
}
