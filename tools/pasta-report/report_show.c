/*===- report_show.c - pasta-report show ----------------------------------===*
 *
 * Re-renders one profile: the tables an instrumented program prints, CSV
 * (report_csv.c) or the profile itself as JSON. --kernel and --file select
 * functions and lines while the profile is read (profile_read.h's keep),
 * and the per-kernel rows and scopes of the other sections on copies of
 * them, whose working-set statistics are then recomputed; totals stay the
 * whole run's.
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "report.h"
#include "report_csv.h"
#include "report_ranks.h"
#include "report_trace.h"

#include "analyzers/bandwidth/bandwidth_report.h"
#include "analyzers/kernels/kernel_tables.h"
#include "analyzers/tables/tables.h"
#include "analyzers/working_set/ws_tables.h"
#include "pasta/regex_cost.h"
#include "profile/activity_read.h"
#include "profile/json_read.h"
#include "profile/profile_json.h"
#include "profile/ws_stats.h"

#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

/*===-- Functions and lines -----------------------------------------------===*/

/* What `show` keeps. */
struct filter {
  regex_t *regex;   /* over display and mangled names, or NULL */
  const char *file; /* substring of the file (or module), or NULL */
};

static int matches(const regex_t *re, const char *s) {
  return s && regexec(re, s, 0, NULL, 0) == 0;
}

/* Any of the strings may be NULL (then it matches nothing). */
static int keep_names(const struct filter *flt, const char *name,
                      const char *mangled, const char *file,
                      const char *module) {
  if (flt->regex && !matches(flt->regex, name) && !matches(flt->regex, mangled))
    return 0;
  if (flt->file && !(file && strstr(file, flt->file)) &&
      !(module && strstr(module, flt->file)))
    return 0;
  return 1;
}

static int keep_func(const pasta_profile_func *f, void *arg) {
  const struct filter *flt = arg;
  return keep_names(flt, f->name, f->mangled, f->file, f->module);
}

/* Lines carry display names only: a line is kept when its function's name
 * matches, or is the name of a function that was kept (so a regex over
 * mangled names selects lines too). */
static int keep_line(const pasta_profile *p, const pasta_profile_line *l,
                     void *arg) {
  const struct filter *flt = arg;
  if (flt->file && !(l->file && strstr(l->file, flt->file)))
    return 0;
  if (!flt->regex || matches(flt->regex, l->function))
    return 1;
  const pasta_profile_func *arrays[] = {p->kernels, p->device_functions,
                                        p->host_functions};
  size_t counts[] = {p->num_kernels, p->num_device_functions,
                     p->num_host_functions};
  for (unsigned a = 0; a < 3; ++a)
    for (size_t i = 0; i < counts[a]; ++i)
      if (strcmp(arrays[a][i].name, l->function) == 0)
        return 1;
  return 0;
}

/*===-- The sections after the function and line tables ------------------===*/

/* In the order the runtime writes them; "traces" is a merged profile's. */
static const char *const section_keys[] = {"launches",  "memory", "working_set",
                                           "bandwidth", "trace",  "traces"};
enum { NUM_SECTIONS = sizeof section_keys / sizeof *section_keys };

/* Whether `flt` keeps launches.kernels entry `k`. The kernel's file and
 * module are those of the profile's "kernels" entries with its mangled name
 * (any of them kept keeps it); a kernel no module registered has none. */
static int keep_launch_kernel(const struct filter *flt, json_t *root,
                              json_t *k) {
  const char *name = pasta__json_str(k, "name");
  const char *mangled = pasta__json_str(k, "mangled");
  int registered = 0;
  size_t i;
  json_t *e;
  json_array_foreach(json_object_get(root, "kernels"), i, e) {
    const char *m = pasta__json_str(e, "mangled");
    if (!mangled || !m || strcmp(m, mangled) != 0)
      continue;
    registered = 1;
    if (keep_names(flt, pasta__json_str(e, "name"), m,
                   pasta__json_str(e, "file"), pasta__json_str(e, "module")))
      return 1;
  }
  return !registered && keep_names(flt, name, mangled, NULL, NULL);
}

/* Removes the elements of `array` for which keep(element, arg) is 0. */
static void remove_unless(json_t *array, int (*keep)(json_t *, void *),
                          void *arg) {
  for (size_t i = json_array_size(array); i-- > 0;)
    if (!keep(json_array_get(array, i), arg))
      json_array_remove(array, i);
}

/* The kernels launches.kernels keeps, by display and mangled name. */
struct kept_kernels {
  json_t *names, *mangled; /* objects used as sets */
};

static int kept(json_t *set, const char *name) {
  return name && json_object_get(set, name) != NULL;
}

/* Working-set launches name their kernel by display name. */
static int keep_ws_row(json_t *row, void *arg) {
  const struct kept_kernels *kk = arg;
  return kept(kk->names, pasta__json_str(row, "kernel"));
}

/* Bandwidth rows: by mangled name in merged profiles, else display name. */
static int keep_bw_row(json_t *row, void *arg) {
  const struct kept_kernels *kk = arg;
  const char *mangled = pasta__json_str(row, "mangled");
  return mangled ? kept(kk->mangled, mangled)
                 : kept(kk->names, pasta__json_str(row, "name"));
}

static int keep_scope(json_t *scope, void *arg) {
  return keep_names(arg, pasta__json_str(scope, "funcname"), NULL,
                    pasta__json_str(scope, "filename"), NULL);
}

static int set_stats(json_t *ws, const char *key, const uint64_t *v, size_t n) {
  pasta_ws_stats st;
  if (pasta__ws_stats_compute(v, n, &st))
    return -1;
  json_t *o = json_object();
  /* One decimal, as the runtime writes it (a mean too large for that is
   * written as it is). */
  double m10 = st.mean * 10 + 0.5;
  double mean = m10 < 18446744073709551616.0
                    ? (double)pasta_u64_from_double(m10) / 10
                    : st.mean;
  return !o || json_object_set_new(o, "max", pasta__json_u64_value(st.max)) ||
         json_object_set_new(o, "min", pasta__json_u64_value(st.min)) ||
         json_object_set_new(o, "mean", json_real(mean)) ||
         json_object_set_new(o, "median", pasta__json_u64_value(st.median)) ||
         json_object_set_new(o, "p90", pasta__json_u64_value(st.p90)) ||
         json_object_set_new(ws, key, o);
}

/* The working-set statistics of the launches left in "per_launch". */
static int restat_working_set(json_t *ws) {
  json_t *per = json_object_get(ws, "per_launch");
  if (!json_is_true(json_object_get(ws, "enabled")) || !json_is_array(per))
    return 0;
  size_t n = json_array_size(per);
  uint64_t *t = malloc((n ? n : 1) * sizeof *t);
  uint64_t *f = malloc((n ? n : 1) * sizeof *f);
  int err = !t || !f;
  for (size_t i = 0; !err && i < n; ++i) {
    t[i] = pasta__json_u64(json_array_get(per, i), "touched_bytes");
    f[i] = pasta__json_u64(json_array_get(per, i), "footprint_bytes");
  }
  err = err || json_object_set_new(ws, "launches", pasta__json_u64_value(n)) ||
        set_stats(ws, "touched_bytes", t, n) ||
        set_stats(ws, "footprint_bytes", f, n);
  free(t);
  free(f);
  return err ? -1 : 0;
}

/* Applies `flt` to the per-kernel rows of the sections in `view` (deep
 * copies): launches.kernels, working_set.per_launch (and its statistics),
 * bandwidth.kernels, and the scopes of the trace analyses. Totals stay the
 * whole run's. */
static int filter_sections(json_t *view, json_t *root,
                           const struct filter *flt) {
  struct kept_kernels kk = {json_object(), json_object()};
  int err = !kk.names || !kk.mangled;
  json_t *kernels =
      json_object_get(json_object_get(view, "launches"), "kernels");
  for (size_t i = json_array_size(kernels); !err && i-- > 0;) {
    json_t *k = json_array_get(kernels, i);
    if (!keep_launch_kernel(flt, root, k)) {
      json_array_remove(kernels, i);
      continue;
    }
    const char *name = pasta__json_str(k, "name");
    const char *mangled = pasta__json_str(k, "mangled");
    if (name)
      err |= json_object_set_new(kk.names, name, json_true());
    if (mangled)
      err |= json_object_set_new(kk.mangled, mangled, json_true());
  }
  json_t *ws = json_object_get(view, "working_set");
  if (!err && ws) {
    remove_unless(json_object_get(ws, "per_launch"), keep_ws_row, &kk);
    err = restat_working_set(ws);
  }
  remove_unless(json_object_get(json_object_get(view, "bandwidth"), "kernels"),
                keep_bw_row, &kk);
  remove_unless(json_object_get(json_object_get(view, "trace"), "scopes"),
                keep_scope, (void *)flt);
  size_t i;
  json_t *e;
  json_array_foreach(json_object_get(view, "traces"), i, e) {
    remove_unless(json_object_get(e, "scopes"), keep_scope, (void *)flt);
  }
  json_decref(kk.names);
  json_decref(kk.mangled);
  return err ? -1 : 0;
}

/* The sections of `root` that show renders, as a new object (section_keys
 * order): the parsed members themselves, or filtered copies when `flt`
 * selects something. NULL when out of memory. */
static json_t *section_view(json_t *root, const struct filter *flt) {
  int filtering = flt->regex || flt->file;
  json_t *view = json_object();
  for (size_t i = 0; view && i < NUM_SECTIONS; ++i) {
    json_t *v = json_object_get(root, section_keys[i]);
    if (!v)
      continue;
    v = filtering ? json_deep_copy(v) : json_incref(v);
    if (!v || json_object_set_new(view, section_keys[i], v)) {
      json_decref(view);
      return NULL;
    }
  }
  if (view && filtering && filter_sections(view, root, flt)) {
    json_decref(view);
    return NULL;
  }
  return view;
}

/* The launch, memory, working-set and bandwidth tables of a profile that
 * has them (the runtime's own writers, on the sections read back: r). */
static int show_activity(FILE *out, const pasta_activity_read *r,
                         unsigned top) {
  int rc = 0;
  if (r->present) {
    rc |= pasta__activity_write_tables(out, &r->activity, top) != 0;
    if (r->activity.ws_enabled)
      rc |= pasta__activity_write_ws_tables(out, &r->activity, top) != 0;
    if (r->num_rows)
      rc |= pasta__bw_write_table(out, r->rows, r->num_rows, &r->activity) != 0;
  }
  return rc;
}

/* The tables an instrumented program prints. The launch table is read
 * first: the divergence table's notes come from it, as at exit. */
static int show_table(const char *path, const struct pasta__report_args *o,
                      const pasta_profile *p, json_t *view, json_t *root) {
  size_t top = o->have_top ? o->top : 20;
  unsigned utop = top > UINT32_MAX ? UINT32_MAX : (unsigned)top;
  int rc = 0;
  pasta_activity_read r;
  if (pasta__activity_read_json(view, &r)) {
    pasta__report_error("%s: %s", path, strerror(ENOMEM));
    return 1;
  }
  pasta_profile shown = *p;
  if (r.present && !shown.activity)
    shown.activity = &r.activity;
  if (pasta__tables_write(stdout, &shown, utop) ||
      pasta__ranks_write_table(stdout, p, top) ||
      show_activity(stdout, &r, utop))
    rc = 1;
  pasta__activity_read_free(&r);
  if (pasta__report_show_traces(stdout, view,
                                json_object_get(root, "merged_from"), utop)) {
    pasta__report_error("%s: %s", path, strerror(ENOMEM));
    rc = 1;
  }
  return rc;
}

/* The function (or line) table, then one block per section. */
static int show_csv(const char *path, const struct pasta__report_args *o,
                    const pasta_profile *p, json_t *view) {
  if (o->lines)
    pasta__csv_lines(stdout, p, o->have_top ? o->top : SIZE_MAX);
  else
    pasta__csv_funcs(stdout, p);
  pasta__csv_processes(stdout, p);
  if (pasta__report_sections_csv(stdout, view) && !ferror(stdout)) {
    pasta__report_error("%s: %s", path, strerror(ENOMEM));
    return 1;
  }
  return 0;
}

/* The profile again: the counts through the runtime's writer, then the
 * sections as they were read (filtered). */
static void show_json(const struct pasta__report_args *o, pasta_profile *p,
                      json_t *view) {
  if (o->have_top && o->top < p->num_lines)
    p->num_lines = o->top; /* the most expensive ones: lines are sorted */
  pasta__profile_write_json_members(stdout, p);
  for (size_t i = 0; i < NUM_SECTIONS; ++i) {
    json_t *v = json_object_get(view, section_keys[i]);
    if (!v)
      continue;
    fprintf(stdout, ",\n\"%s\":", section_keys[i]);
    pasta__json_dump(stdout, v);
  }
  fputs("}\n", stdout);
}

int pasta__cmd_show(int argc, char **argv) {
  struct pasta__report_args o;
  int rc = pasta__parse_args(argc, argv,
                             "kernel file top format lines search-dir", &o);
  if (rc)
    return rc;
  if (o.num_positional != 1)
    return pasta__usage_error("show takes one profile, got %zu arguments",
                              o.num_positional);
  const char *format = o.format ? o.format : "table";
  if (o.lines && strcmp(format, "csv") != 0)
    return pasta__usage_error("--lines goes with --format csv");
  regex_t re;
  struct filter flt = {NULL, o.file};
  if (o.kernel && pasta_regex_cost(o.kernel) > PASTA_REGEX_MAX_COST)
    return pasta__usage_error(
        "--kernel regex '%.200s' is too costly to compile (nested counted "
        "repetitions {m,n} expand to more than %.0f atoms)",
        o.kernel, PASTA_REGEX_MAX_COST);
  if (o.kernel) {
    int err = regcomp(&re, o.kernel, REG_EXTENDED | REG_NOSUB);
    if (err) {
      char msg[128];
      regerror(err, &re, msg, sizeof msg);
      return pasta__usage_error("invalid --kernel regex '%s': %s", o.kernel,
                                msg);
    }
    flt.regex = &re;
  }
  const char *path = o.positional[0];
  pasta_profile p;
  json_t *root = NULL;
  pasta_profile_keep keep = {keep_func, keep_line, &flt};
  rc = pasta__load_profile(path, &keep, &p, &root);
  json_t *view = rc ? NULL : section_view(root, &flt);
  if (flt.regex)
    regfree(&re);
  if (rc)
    return rc;
  if (!view) {
    pasta__report_error("%s: %s", path, strerror(ENOMEM));
    rc = 1;
  } else if (!strcmp(format, "table")) {
    rc = show_table(path, &o, &p, view, root);
  } else if (!strcmp(format, "csv")) {
    rc = show_csv(path, &o, &p, view);
  } else {
    show_json(&o, &p, view);
  }
  rc |= pasta__finish_output(stdout, "the output");
  pasta_profile_free(&p);
  json_decref(view);
  json_decref(root);
  return rc;
}
