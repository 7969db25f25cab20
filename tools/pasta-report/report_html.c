/*===- report_html.c - pasta-report html ----------------------------------===*
 *
 * Reads one profile (or two, with --diff) into the runtime's model and hands
 * it to the HTML writer the runtime uses for PASTA_HTML=1
 * (analyzers/html/html_report.h), so both pages are the same. The page is
 * written through profile/output_file.h: a fresh temporary file renamed
 * over OUT, which is replaced only when it is an HTML report (or --force),
 * never when it is one of the inputs. Source files are read only from
 * under the source roots: --source-root DIRs, the current directory and
 * each profile's own directory; a profile names files, it does not choose
 * which ones are read.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* realpath, GLOB_ONLYDIR */

#include "report.h"
#include "report_hotness.h"

#include "analyzers/html/html_report.h"
#include "profile/activity_read.h"
#include "profile/output_file.h"

#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A profile read for the page: the model, its parsed document (the activity
 * strings point into it) and the activity sections. */
struct loaded {
  pasta_profile profile;
  json_t *root;
  pasta_activity_read activity;
  struct pasta__hotness_csv hotness; /* <profile>.hotness.csv, if any */
  pasta_html_input input;
};

/* The hotness map a PASTA_HOTNESS=1 run wrote beside its profile; a page
 * without it when it is not there or cannot be read (with a warning). */
static void load_hotness(const char *path, struct loaded *l) {
  char *csv = pasta__sibling_path(path, ".hotness.csv");
  char err[256];
  int rc = csv ? pasta__hotness_read_csv(csv, &l->hotness, err, sizeof err) : 1;
  if (rc < 0)
    pasta__report_warning("%s: %s; the page has no hotness map", csv, err);
  if (rc == 0)
    l->activity.activity.hotness = l->hotness.model;
  free(csv);
}

/* The directories source files may be read from (real paths,
 * NULL-terminated), and the files refused for lying elsewhere. In the
 * list of all roots, source_dir is the list of the roots where only files
 * named like source are read (the current and the profile's directory). */
struct roots {
  char **dir;
  size_t n, cap;
  size_t refused;
  char **source_dir;
};

/* Adds the real path of `dir` once (a directory that does not exist adds
 * nothing). Returns 0, or -1 without memory. */
static int add_root(struct roots *r, const char *dir) {
  char *real = realpath(dir, NULL);
  if (!real)
    return errno == ENOMEM ? -1 : 0;
  for (size_t i = 0; i < r->n; ++i)
    if (strcmp(r->dir[i], real) == 0) {
      free(real);
      return 0;
    }
  if (r->n + 2 > r->cap) {
    size_t cap = r->cap ? 2 * r->cap : 16;
    char **d = realloc(r->dir, cap * sizeof *d);
    if (!d) {
      free(real);
      return -1;
    }
    r->dir = d;
    r->cap = cap;
  }
  r->dir[r->n++] = real;
  r->dir[r->n] = NULL;
  return 0;
}

/* The directory holding `path`. */
static int add_parent(struct roots *r, const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    return add_root(r, ".");
  size_t n = slash == path ? 1 : (size_t)(slash - path);
  char *dir = malloc(n + 1);
  if (!dir)
    return -1;
  memcpy(dir, path, n);
  dir[n] = '\0';
  int rc = add_root(r, dir);
  free(dir);
  return rc;
}

/* The system's header directories (the C library's, the compilers', CUDA's
 * and ROCm's): public text that kernels include (Thrust, CUB, clang's CUDA
 * wrappers), not the user's files. */
static int add_system_roots(struct roots *r) {
  static const char *const patterns[] = {
      "/usr/include",
      "/usr/local/include",
      "/usr/local/cuda*/include",
      "/usr/local/cuda*/targets/*/include",
      "/usr/lib/cuda/include",
      "/opt/cuda/include",
      "/usr/lib/llvm-*/lib/clang/*/include",
      "/usr/lib/clang/*/include",
      "/usr/lib64/clang/*/include",
      "/usr/lib/gcc/*/*/include",
      "/opt/rocm*/include",
  };
  int rc = 0;
  for (size_t i = 0; !rc && i < sizeof patterns / sizeof *patterns; ++i) {
    glob_t g;
    if (glob(patterns[i], GLOB_ONLYDIR, NULL, &g) != 0)
      continue;
    for (size_t k = 0; !rc && k < g.gl_pathc; ++k)
      rc = add_root(r, g.gl_pathv[k]);
    globfree(&g);
  }
  static const char *const homes[] = {"CUDA_HOME", "CUDA_PATH", "ROCM_PATH"};
  for (size_t i = 0; !rc && i < sizeof homes / sizeof *homes; ++i) {
    const char *home = getenv(homes[i]);
    if (!home || !*home || strlen(home) > PATH_MAX)
      continue;
    char dir[PATH_MAX + 16];
    snprintf(dir, sizeof dir, "%s/include", home);
    rc = add_root(r, dir);
  }
  return rc;
}

static void free_roots(struct roots *r) {
  for (size_t i = 0; i < r->n; ++i)
    free(r->dir[i]);
  free(r->dir);
}

enum { MAX_REFUSED_LINES = 10 };

/* One line per file refused, up to MAX_REFUSED_LINES (a summary follows at
 * the end). */
static void refused(void *arg, const char *file) {
  struct roots *r = arg;
  if (++r->refused <= MAX_REFUSED_LINES)
    pasta__report_warning(
        "source file %s is outside the source roots (--source-root DIR, the "
        "system's header directories; for files named like source, .c .cu "
        ".h ..., the current directory and the profile's directory); not "
        "read",
        file);
}

static int load(const char *path, const struct pasta__report_args *o,
                struct roots *roots, struct loaded *l) {
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
      .allowed_roots = (const char *const *)roots->dir,
      .source_file_roots = (const char *const *)roots->source_dir,
      .refused = refused,
      .refused_arg = roots,
  };
  return 0;
}

static void unload(struct loaded *l) {
  pasta__hotness_csv_free(&l->hotness);
  pasta__activity_read_free(&l->activity);
  pasta_profile_free(&l->profile);
  json_decref(l->root);
}

struct page {
  const struct loaded *a, *b;
};

static int page_writer(FILE *out, const void *arg) {
  const struct page *p = arg;
  return p->b ? pasta__html_write_diff(out, &p->a->input, &p->b->input)
              : pasta__html_write_report(out, &p->a->input);
}

/* Writes the page to `path` (output_file.h: a fresh temporary file, then
 * renamed). Returns 0, or 1 after an error line. */
static int write_page(const char *path, int force, const struct loaded *a,
                      const struct loaded *b) {
  struct page page = {a, b};
  pasta_output_how how = {PASTA_OUTPUT_REPLACE,
                          force ? PASTA_FILE_ANY : PASTA_FILE_HTML, NULL,
                          "--force"};
  char err[512], *written = NULL;
  int rc = pasta__output_write(path, &how, page_writer, &page, &written, err,
                               sizeof err);
  if (rc)
    pasta__report_error("cannot write the page: %s", err);
  free(written);
  return rc ? 1 : 0;
}

/* The output must be none of the files read: compared as files (device
 * and inode), so ./a.json, a hard link or a symbolic link to the input
 * are the input too. */
static int check_output(const struct pasta__report_args *o, const char *out) {
  for (size_t i = 0; i < o->num_positional; ++i) {
    char *csv = pasta__sibling_path(o->positional[i], ".hotness.csv");
    int same = strcmp(o->positional[i], out) == 0 ||
               pasta__same_file(o->positional[i], out);
    int same_csv = csv && pasta__same_file(csv, out);
    free(csv);
    if (same || same_csv)
      return pasta__usage_error("the output %s is %s%s", out,
                                same ? "the input profile "
                                     : "the hotness "
                                       "map of ",
                                o->positional[i]);
  }
  return 0;
}

/* Whether the profile at `path` is a regular file in a directory of its
 * own: not read from a pipe or a descriptor (/dev/stdin, /dev/fd/63 of
 * <(...), /proc/self/fd/0), whose "directory" is /dev or /proc. */
static int has_own_directory(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
         strncmp(path, "/dev/", 5) != 0 && strncmp(path, "/proc/", 6) != 0 &&
         !pasta__is_fd_alias(path);
}

int pasta__cmd_html(int argc, char **argv) {
  struct pasta__report_args o;
  int rc = pasta__parse_args(argc, argv,
                             "output source-root diff search-dir force", &o);
  if (rc)
    return rc;
  size_t want = o.diff ? 2 : 1;
  if (o.num_positional != want)
    return pasta__usage_error("html%s needs %zu profile%s, got %zu",
                              o.diff ? " --diff" : "", want,
                              want == 1 ? "" : "s", o.num_positional);
  if (o.diff && !o.output)
    return pasta__usage_error("html --diff needs -o OUT.html");
  /* A profile read from a pipe or a descriptor (/dev/stdin, <(...)) has no
   * directory of its own: no page beside it (before: /dev/stdin.html, in
   * /dev as root) and no source root there (/dev holds /dev/shm). */
  if (!o.output && !has_own_directory(o.positional[0]))
    return pasta__usage_error("html of %s (a pipe or a descriptor: no "
                              "directory to put the page in) needs -o OUT.html",
                              o.positional[0]);
  char *output =
      o.output ? NULL : pasta__sibling_path(o.positional[0], ".html");
  const char *out = o.output ? o.output : output;
  if (!out) {
    pasta__report_error("%s", strerror(ENOMEM));
    return 1;
  }
  rc = check_output(&o, out);
  struct roots roots = {.dir = NULL};
  for (size_t i = 0; !rc && o.source_roots[i]; ++i) {
    /* A mistyped root would otherwise leave every file "not found". */
    struct stat st;
    int found = stat(o.source_roots[i], &st) == 0;
    if (!found || !S_ISDIR(st.st_mode))
      pasta__report_warning("--source-root %s: %s; ignored", o.source_roots[i],
                            found ? "not a directory" : strerror(errno));
    else
      rc = add_root(&roots, o.source_roots[i]);
  }
  /* The current directory and the profile's: a profile is someone else's
   * data, and html often runs in one's home: only files named like source
   * are read there (never .ssh/id_rsa or notes.txt). */
  struct roots source_only = {.dir = NULL};
  if (!rc)
    rc = add_root(&source_only, ".");
  for (size_t i = 0; !rc && i < o.num_positional; ++i)
    if (has_own_directory(o.positional[i]))
      rc = add_parent(&source_only, o.positional[i]);
  if (!rc)
    rc = add_system_roots(&roots);
  /* no root at all: still a list, an empty one */
  if (!rc && !roots.dir)
    rc = (roots.dir = calloc(1, sizeof *roots.dir)) ? 0 : -1;
  if (!rc && !source_only.dir)
    rc = (source_only.dir = calloc(1, sizeof *source_only.dir)) ? 0 : -1;
  roots.source_dir = source_only.dir;
  if (rc < 0) {
    pasta__report_error("%s", strerror(ENOMEM));
    rc = 1;
  }
  struct loaded a, b;
  int have_a = 0, have_b = 0;
  if (!rc && !(rc = load(o.positional[0], &o, &roots, &a)))
    have_a = 1;
  if (!rc && o.diff && !(rc = load(o.positional[1], &o, &roots, &b)))
    have_b = 1;
  if (!rc)
    rc = write_page(out, o.force, &a, have_b ? &b : NULL);
  if (roots.refused > MAX_REFUSED_LINES)
    fprintf(stderr,
            "pasta-report: warning: %zu source files outside the source roots "
            "were not read (the first %d are named above)\n",
            roots.refused, MAX_REFUSED_LINES);
  if (have_a)
    unload(&a);
  if (have_b)
    unload(&b);
  free_roots(&roots);
  free_roots(&source_only);
  free(output);
  return rc;
}
