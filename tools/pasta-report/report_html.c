/*===- report_html.c - pasta-report html ----------------------------------===*
 *
 * Reads one profile (or two, with --diff) into the runtime's model and hands
 * it to the HTML writer the runtime uses for PASTA_HTML=1
 * (analyzers/html/html_report.h), so both pages are the same. The output
 * is written to OUT.tmp and renamed, so a reader never sees half a page.
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "report.h"
#include "report_hotness.h"

#include "analyzers/html/html_report.h"
#include "profile/activity_read.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A profile read for the page: the model, its parsed document (the activity
 * strings point into it) and the activity sections. */
struct loaded {
  pasta_profile profile;
  json_t *root;
  pasta_activity_read activity;
  struct pasta__hotness_csv hotness; /* <profile>.hotness.csv, if any */
  pasta_html_input input;
};

/* <profile without .json><suffix>, malloc'd. */
static char *sibling(const char *profile, const char *suffix) {
  size_t n = strlen(profile);
  if (n >= 5 && strcmp(profile + n - 5, ".json") == 0)
    n -= 5;
  char *path = malloc(n + strlen(suffix) + 1);
  if (path) {
    memcpy(path, profile, n);
    strcpy(path + n, suffix);
  }
  return path;
}

/* The hotness map a PASTA_HOTNESS=1 run wrote beside its profile; a page
 * without it when it is not there or cannot be read (with a warning). */
static void load_hotness(const char *path, struct loaded *l) {
  char *csv = sibling(path, ".hotness.csv");
  char err[256];
  int rc = csv ? pasta__hotness_read_csv(csv, &l->hotness, err, sizeof err) : 1;
  if (rc < 0)
    fprintf(stderr,
            "pasta-report: warning: %s: %s; the page has no hotness map\n", csv,
            err);
  if (rc == 0)
    l->activity.activity.hotness = l->hotness.model;
  free(csv);
}

static int load(const char *path, const struct pasta__options *o,
                struct loaded *l) {
  memset(l, 0, sizeof *l);
  int rc = pasta__load_profile(path, NULL, &l->profile, &l->root);
  if (rc)
    return rc;
  if (pasta__activity_read_json(l->root, &l->activity)) {
    pasta__report_error("%s: out of memory", path);
    pasta_profile_free(&l->profile);
    json_decref(l->root);
    return 1;
  }
  if (l->activity.present)
    load_hotness(path, l);
  l->input = (pasta_html_input){
      .profile = &l->profile,
      .title = path,
      .activity = l->activity.present ? &l->activity.activity : NULL,
      .bw_rows = l->activity.rows,
      .num_bw_rows = l->activity.num_rows,
      .source_roots = o->source_roots,
  };
  return 0;
}

static void unload(struct loaded *l) {
  pasta__hotness_csv_free(&l->hotness);
  pasta__activity_read_free(&l->activity);
  pasta_profile_free(&l->profile);
  json_decref(l->root);
}

/* Writes the page to `path` through `path`.tmp. Returns 0, or 1 after an
 * error line. */
static int write_page(const char *path, const struct loaded *a,
                      const struct loaded *b) {
  size_t n = strlen(path);
  char *tmp = malloc(n + 5);
  if (!tmp) {
    pasta__report_error("%s", strerror(ENOMEM));
    return 1;
  }
  snprintf(tmp, n + 5, "%s.tmp", path);
  FILE *out = fopen(tmp, "w");
  if (!out) {
    pasta__report_error("cannot write %s: %s", tmp, strerror(errno));
    free(tmp);
    return 1;
  }
  int rc = b ? pasta__html_write_diff(out, &a->input, &b->input)
             : pasta__html_write_report(out, &a->input);
  int err = rc ? ENOMEM : 0;
  if (fflush(out) || ferror(out))
    err = errno ? errno : EIO;
  if (fclose(out) && !err)
    err = errno ? errno : EIO;
  if (!err && rename(tmp, path))
    err = errno;
  if (err) {
    pasta__report_error("cannot write %s: %s", path, strerror(err));
    remove(tmp);
  }
  free(tmp);
  return err ? 1 : 0;
}

static int check_output(const struct pasta__options *o, const char *out) {
  for (size_t i = 0; i < o->num_positional; ++i)
    if (strcmp(o->positional[i], out) == 0)
      return pasta__usage_error("the output %s is an input profile", out);
  return 0;
}

int pasta__cmd_html(int argc, char **argv) {
  struct pasta__options o;
  int rc =
      pasta__parse_args(argc, argv, "output source-root diff search-dir", &o);
  if (rc)
    return rc;
  size_t want = o.diff ? 2 : 1;
  if (o.num_positional != want)
    return pasta__usage_error("html%s needs %zu profile%s, got %zu",
                              o.diff ? " --diff" : "", want,
                              want == 1 ? "" : "s", o.num_positional);
  if (o.diff && !o.output)
    return pasta__usage_error("html --diff needs -o OUT.html");
  char *output = o.output ? NULL : sibling(o.positional[0], ".html");
  const char *out = o.output ? o.output : output;
  if (!out) {
    pasta__report_error("%s", strerror(ENOMEM));
    return 1;
  }
  rc = check_output(&o, out);
  struct loaded a, b;
  int have_a = 0, have_b = 0;
  if (!rc && !(rc = load(o.positional[0], &o, &a)))
    have_a = 1;
  if (!rc && o.diff && !(rc = load(o.positional[1], &o, &b)))
    have_b = 1;
  if (!rc)
    rc = write_page(out, &a, have_b ? &b : NULL);
  if (have_a)
    unload(&a);
  if (have_b)
    unload(&b);
  free(output);
  return rc;
}
