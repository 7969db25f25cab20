/*===- report_diff.c - pasta-report diff ----------------------------------===*
 *
 * Compares two profiles: per kind of function, the functions matched by
 * mangled name (summed when a name repeats), only those that changed and
 * only their figures that changed (a function that never ran on one side
 * is "new" or "gone"); the lines whose bytes + FLOPs
 * changed most; then the activity sections (report_activity_diff.c) and the
 * trace analyses (report_trace.c).
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "report.h"
#include "report_activity.h"
#include "report_trace.h"

#include "profile/demangle.h"
#include "profile/text_table.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Width of names in the tables (demangle.h shortens longer ones). */
enum { NAME_WIDTH = 48 };

struct kernel_sum {
  const char *name, *mangled;
  uint64_t v[4]; /* launches, global bytes, FLOPs, special */
};

/* What diff compares, per kind of function: kernels and device functions
 * by global bytes (their spaces are resolved), host functions by all their
 * bytes (every host access is "generic"). */
static const struct func_kind {
  const char *title, *metrics[4];
} func_kinds[3] = {
    {"Kernels (exact thread-level counts; change = after - before):",
     {"launches", "global bytes", "FLOPs", "special"}},
    {"Device functions shared by kernels (exact thread-level counts; change "
     "= after - before):",
     {"calls", "global bytes", "FLOPs", "special"}},
    {"Host functions (exact counts; change = after - before):",
     {"calls", "bytes", "FLOPs", "special"}}};

static int cmp_kernel_sum(const void *pa, const void *pb) {
  return strcmp(((const struct kernel_sum *)pa)->mangled,
                ((const struct kernel_sum *)pb)->mangled);
}

/* The functions of `p` of one kind (enum pasta_func_kind). */
static const pasta_profile_func *funcs_of(const pasta_profile *p, unsigned kind,
                                          size_t *n) {
  *n = kind == PASTA_FUNC_KERNEL   ? p->num_kernels
       : kind == PASTA_FUNC_DEVICE ? p->num_device_functions
                                   : p->num_host_functions;
  return kind == PASTA_FUNC_KERNEL   ? p->kernels
         : kind == PASTA_FUNC_DEVICE ? p->device_functions
                                     : p->host_functions;
}

/* The functions of `p` of one kind, summed by mangled name (one per name,
 * sorted). */
static struct kernel_sum *kernel_sums(const pasta_profile *p, unsigned kind,
                                      size_t *n) {
  size_t num;
  const pasta_profile_func *funcs = funcs_of(p, kind, &num);
  struct kernel_sum *s = malloc((num ? num : 1) * sizeof *s);
  if (!s)
    return NULL;
  for (size_t i = 0; i < num; ++i) {
    const pasta_profile_func *f = &funcs[i];
    const pasta_counts *c = &f->counts;
    s[i].name = f->name;
    s[i].mangled = f->mangled;
    s[i].v[0] = f->calls;
    s[i].v[1] =
        kind == PASTA_FUNC_HOST
            ? pasta_counts_bytes(c)
            : pasta__sat_add(pasta__sat_add(c->load_bytes[PASTA_SPACE_GLOBAL],
                                            c->store_bytes[PASTA_SPACE_GLOBAL]),
                             c->atomic_bytes[PASTA_SPACE_GLOBAL]);
    s[i].v[2] = pasta_counts_flops(c);
    s[i].v[3] = c->special;
  }
  if (num)
    qsort(s, num, sizeof *s, cmp_kernel_sum);
  size_t k = 0;
  for (size_t i = 0; i < num; ++i) {
    if (k && strcmp(s[k - 1].mangled, s[i].mangled) == 0) {
      for (unsigned m = 0; m < 4; ++m)
        s[k - 1].v[m] = pasta__sat_add(s[k - 1].v[m], s[i].v[m]);
    } else {
      s[k++] = s[i];
    }
  }
  *n = k;
  return s;
}

/* Whether the function ran (a count or figure that is not 0). */
static int sum_any(const struct kernel_sum *s) {
  return s->v[0] || s->v[1] || s->v[2] || s->v[3];
}

/* |after - before| */
static uint64_t abs_change(uint64_t before, uint64_t after) {
  return after > before ? after - before : before - after;
}

static void fmt_change(char *out, size_t size, uint64_t before,
                       uint64_t after) {
  if (after == before)
    snprintf(out, size, "0");
  else
    snprintf(out, size, "%c%" PRIu64, after > before ? '+' : '-',
             abs_change(before, after));
}

static void fmt_relative(char *out, size_t size, uint64_t before,
                         uint64_t after) {
  if (!before) {
    snprintf(out, size, "-");
    return;
  }
  double r = ((double)after - (double)before) / (double)before * 100.0;
  snprintf(out, size, "%+.1f%%", r);
}

struct kernel_pair {
  const struct kernel_sum *before, *after;
  uint64_t weight; /* |change| of global bytes + |change| of FLOPs */
};

static int cmp_pair(const void *pa, const void *pb) {
  const struct kernel_pair *a = pa, *b = pb;
  if (a->weight != b->weight)
    return a->weight > b->weight ? -1 : 1;
  const struct kernel_sum *ka = a->before ? a->before : a->after;
  const struct kernel_sum *kb = b->before ? b->before : b->after;
  int c = strcmp(ka->name, kb->name);
  return c ? c : strcmp(ka->mangled, kb->mangled);
}

struct line_cost {
  const pasta_profile_line *line;
  uint64_t cost; /* bytes + FLOPs */
};

static int cmp_line_key(const pasta_profile_line *a,
                        const pasta_profile_line *b) {
  int c;
  if (!a->file || !b->file)
    c = (a->file != NULL) - (b->file != NULL);
  else
    c = strcmp(a->file, b->file);
  if (!c && a->line != b->line)
    c = a->line < b->line ? -1 : 1;
  if (!c)
    c = strcmp(a->function, b->function);
  if (!c && a->kind != b->kind)
    c = a->kind < b->kind ? -1 : 1;
  return c;
}

static int cmp_line_cost_key(const void *pa, const void *pb) {
  return cmp_line_key(((const struct line_cost *)pa)->line,
                      ((const struct line_cost *)pb)->line);
}

static struct line_cost *line_costs(const pasta_profile *p) {
  struct line_cost *c = malloc((p->num_lines ? p->num_lines : 1) * sizeof *c);
  if (!c)
    return NULL;
  for (size_t i = 0; i < p->num_lines; ++i) {
    c[i].line = &p->lines[i];
    c[i].cost = pasta__sat_add(pasta_counts_bytes(&p->lines[i].counts),
                               pasta_counts_flops(&p->lines[i].counts));
  }
  if (p->num_lines)
    qsort(c, p->num_lines, sizeof *c, cmp_line_cost_key);
  return c;
}

struct line_change {
  const pasta_profile_line *line;
  uint64_t before, after;
};

static int cmp_line_change(const void *pa, const void *pb) {
  const struct line_change *a = pa, *b = pb;
  uint64_t ca = abs_change(a->before, a->after);
  uint64_t cb = abs_change(b->before, b->after);
  if (ca != cb)
    return ca > cb ? -1 : 1;
  return cmp_line_key(a->line, b->line);
}

/* Keeps the end of a location, where the file name and line are. */
static void fmt_location(char *out, size_t size, const pasta_profile_line *l) {
  char loc[1024], file[1024];
  const char *path = pasta__path_normal(l->file, file, sizeof file);
  snprintf(loc, sizeof loc, "%s:%" PRIu32, path ? path : "?", l->line);
  size_t len = strlen(loc);
  if (len > 48)
    snprintf(out, size, "...%s", loc + len - 45);
  else
    snprintf(out, size, "%s", loc);
}

/* The table of one kind of function; nothing when neither profile has
 * one. */
static int diff_funcs(FILE *out, const pasta_profile *b, const pasta_profile *a,
                      unsigned kind) {
  const struct func_kind *fk = &func_kinds[kind];
  size_t nb = 0, na = 0;
  struct kernel_sum *sb = kernel_sums(b, kind, &nb),
                    *sa = kernel_sums(a, kind, &na);
  struct kernel_pair *pairs = malloc((nb + na + 1) * sizeof *pairs);
  if (!sb || !sa || !pairs) {
    free(sb);
    free(sa);
    free(pairs);
    return -1;
  }
  size_t np = 0, i = 0, j = 0;
  while (i < nb || j < na) {
    int c = i == nb ? 1 : j == na ? -1 : strcmp(sb[i].mangled, sa[j].mangled);
    struct kernel_pair *pr = &pairs[np++];
    pr->before = c <= 0 ? &sb[i++] : NULL;
    pr->after = c >= 0 ? &sa[j++] : NULL;
    pr->weight = 0;
    for (unsigned m = 1; m <= 2; ++m)
      pr->weight = pasta__sat_add(pr->weight,
                                  abs_change(pr->before ? pr->before->v[m] : 0,
                                             pr->after ? pr->after->v[m] : 0));
  }
  /* Only what changed: a function that never ran on one side is new (or
   * gone) on the other; functions whose every figure is equal are left out. */
  size_t kept = 0, same = 0;
  for (size_t k = 0; k < np; ++k) {
    struct kernel_pair *pr = &pairs[k];
    if (pr->before && !sum_any(pr->before))
      pr->before = NULL;
    if (pr->after && !sum_any(pr->after))
      pr->after = NULL;
    int equal = !pr->before && !pr->after;
    if (pr->before && pr->after) {
      equal = 1;
      for (unsigned m = 0; m < 4 && equal; ++m)
        equal = pr->before->v[m] == pr->after->v[m];
      same += equal;
    }
    if (!equal)
      pairs[kept++] = *pr;
  }
  np = kept;
  if (np)
    qsort(pairs, np, sizeof *pairs, cmp_pair);
  if (nb || na)
    fprintf(out, "%s\n", fk->title);
  if (np) {
    static const int left[] = {1, 1, 1, 0, 0, 0, 0};
    struct text_table t = {7, left, NULL, 0, 0};
    const char **full = malloc(np * sizeof *full);
    for (size_t k = 0; full && k < np; ++k)
      full[k] = (pairs[k].before ? pairs[k].before : pairs[k].after)->name;
    char **names = full ? pasta__short_safe_names(full, np, NAME_WIDTH) : NULL;
    free(full);
    int err = !names ||
              text_table_row(
                  &t, kind == PASTA_FUNC_KERNEL ? "kernel" : "function",
                  "status", "metric", "before", "after", "change", "relative");
    for (size_t k = 0; names && k < np; ++k) {
      const struct kernel_pair *pr = &pairs[k];
      const char *status = !pr->before  ? "new"
                           : !pr->after ? "gone"
                                        : "changed";
      int first = 1;
      for (unsigned m = 0; m < 4; ++m) {
        uint64_t vb = pr->before ? pr->before->v[m] : 0;
        uint64_t va = pr->after ? pr->after->v[m] : 0;
        if (vb == va)
          continue; /* the rows that changed */
        char sbuf[32] = "-", sa_buf[32] = "-", ch[32], rel[32];
        if (pr->before)
          snprintf(sbuf, sizeof sbuf, "%" PRIu64, vb);
        if (pr->after)
          snprintf(sa_buf, sizeof sa_buf, "%" PRIu64, va);
        fmt_change(ch, sizeof ch, vb, va);
        fmt_relative(rel, sizeof rel, pr->before ? vb : 0, va);
        err |= text_table_row(&t, first ? names[k] : "", first ? status : "",
                              fk->metrics[m], sbuf, sa_buf, ch, rel);
        first = 0;
      }
    }
    free(names);
    text_table_print_free(out, &t);
    if (err) {
      free(sb);
      free(sa);
      free(pairs);
      return -1;
    }
  } else if (nb || na) {
    fprintf(out, "  none changed\n");
  }
  if (same)
    fprintf(out, "  (%zu unchanged not shown)\n", same);
  if (nb || na)
    fputc('\n', out);
  free(sb);
  free(sa);
  free(pairs);
  return 0;
}

static int diff_lines(FILE *out, const pasta_profile *b, const pasta_profile *a,
                      size_t top) {
  struct line_cost *cb = line_costs(b), *ca = line_costs(a);
  struct line_change *ch =
      malloc((b->num_lines + a->num_lines + 1) * sizeof *ch);
  if (!cb || !ca || !ch) {
    free(cb);
    free(ca);
    free(ch);
    return -1;
  }
  size_t n = 0, i = 0, j = 0;
  while (i < b->num_lines || j < a->num_lines) {
    int c = i == b->num_lines   ? 1
            : j == a->num_lines ? -1
                                : cmp_line_key(cb[i].line, ca[j].line);
    struct line_change *x = &ch[n];
    x->line = c <= 0 ? cb[i].line : ca[j].line;
    x->before = c <= 0 ? cb[i++].cost : 0;
    x->after = c >= 0 ? ca[j++].cost : 0;
    n += x->before != x->after;
  }
  if (n)
    qsort(ch, n, sizeof *ch, cmp_line_change);
  int err = 0;
  if (!n) {
    fprintf(out, "No line's bytes + FLOPs changed.\n");
  } else if (top) {
    size_t shown = n < top ? n : top;
    static const int left[] = {1, 1, 1, 0, 0, 0, 0};
    struct text_table t = {7, left, NULL, 0, 0};
    const char **full = malloc(shown * sizeof *full);
    for (size_t k = 0; full && k < shown; ++k)
      full[k] = ch[k].line->function;
    char **names =
        full ? pasta__short_safe_names(full, shown, NAME_WIDTH) : NULL;
    free(full);
    err = !names || text_table_row(&t, "location", "function", "kind", "before",
                                   "after", "change", "relative");
    for (size_t k = 0; names && k < shown; ++k) {
      char loc[64], sb[32], sa[32], c[32], rel[32];
      fmt_location(loc, sizeof loc, ch[k].line);
      snprintf(sb, sizeof sb, "%" PRIu64, ch[k].before);
      snprintf(sa, sizeof sa, "%" PRIu64, ch[k].after);
      fmt_change(c, sizeof c, ch[k].before, ch[k].after);
      fmt_relative(rel, sizeof rel, ch[k].before, ch[k].after);
      err |= text_table_row(&t, loc, names[k],
                            pasta_kind_name(ch[k].line->kind), sb, sa, c, rel);
    }
    free(names);
    fprintf(out,
            "Top %zu of %zu changed lines, by |change| of bytes + FLOPs:\n",
            shown, n);
    text_table_print_free(out, &t);
  }
  free(cb);
  free(ca);
  free(ch);
  return err;
}

int pasta__cmd_diff(int argc, char **argv) {
  struct pasta__report_args o;
  int rc = pasta__parse_args(argc, argv, "top search-dir", &o);
  if (rc)
    return rc;
  if (o.num_positional != 2)
    return pasta__usage_error("diff takes two profiles, got %zu arguments",
                              o.num_positional);
  pasta_profile before, after;
  json_t *root_before = NULL, *root_after = NULL;
  rc = pasta__load_profile(o.positional[0], NULL, &before, &root_before);
  if (rc)
    return rc;
  rc = pasta__load_profile(o.positional[1], NULL, &after, &root_after);
  if (rc) {
    pasta_profile_free(&before);
    json_decref(root_before);
    return rc;
  }
  printf("== PASTA diff: %s -> %s ==\n", o.positional[0], o.positional[1]);
  int funcs = 0, err = 0;
  for (unsigned kind = PASTA_FUNC_KERNEL; kind <= PASTA_FUNC_HOST; ++kind) {
    size_t nb, na;
    funcs_of(&before, kind, &nb);
    funcs_of(&after, kind, &na);
    funcs |= nb || na;
    err |= diff_funcs(stdout, &before, &after, kind);
  }
  if (!funcs)
    printf("No kernels, device functions or host functions in either "
           "profile: no instrumented function was registered.\n\n");
  if (err || diff_lines(stdout, &before, &after, o.have_top ? o.top : 10) ||
      pasta__report_diff_divergence(stdout, &before, &after) ||
      fputc('\n', stdout) == EOF ||
      pasta__report_diff_activity(stdout, root_before, root_after) ||
      pasta__report_diff_traces(stdout, root_before, root_after)) {
    pasta__report_error("%s", strerror(ENOMEM));
    rc = 1;
  }
  rc |= pasta__finish_output(stdout, "the output");
  pasta_profile_free(&before);
  pasta_profile_free(&after);
  json_decref(root_before);
  json_decref(root_after);
  return rc;
}
