/*===- output.c - The profile file and its siblings ------------------------===*
 *
 * Output paths (PASTA_OUTPUT with %p, %r, %h, or the default name), the
 * writing of each file without clobbering another process's
 * (profile/output_file.h), the built-in `json` analyzer, and the `html` one
 * that PASTA_HTML=1 turns on (the same page as `pasta-report html`).
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* program_invocation_name */

#include "output.h"
#include "analyzers/html/html_report.h"
#include "profile/bandwidth.h"
#include "profile/diag.h"
#include "profile/output_file.h"
#include "profile/profile_json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct pasta__options pasta__report_options;

const char *pasta__program(void) {
  const char *name = program_invocation_name;
  return name && *name ? name : "unknown";
}

/* The working directory when this process started (getcwd, and its device
 * and inode), or NULL. */
static char *pasta__start_cwd;
static struct stat pasta__start_cwd_st;

/* A relative path names a file in the directory the program was started
 * in, as the user wrote it, even if the program changed its working
 * directory since (chdir, daemon): `path` itself while the working
 * directory is still that one (or the start one is gone), else the start
 * directory joined with it. malloc'd; `path` is freed or returned. */
static char *pasta__from_start_dir(char *path) {
  struct stat now, then;
  if (!path || path[0] == '/' || !pasta__start_cwd)
    return path;
  if (stat(".", &now) == 0 && now.st_dev == pasta__start_cwd_st.st_dev &&
      now.st_ino == pasta__start_cwd_st.st_ino)
    return path;
  if (stat(pasta__start_cwd, &then) != 0 ||
      then.st_dev != pasta__start_cwd_st.st_dev ||
      then.st_ino != pasta__start_cwd_st.st_ino)
    return path;
  size_t n = strlen(pasta__start_cwd), m = strlen(path);
  char *joined = malloc(n + m + 2);
  if (!joined)
    return path;
  memcpy(joined, pasta__start_cwd, n);
  joined[n] = '/';
  memcpy(joined + n + 1, path, m + 1);
  free(path);
  return joined;
}

/* The profile's path: PASTA_OUTPUT with %p, %r and %h replaced, or the
 * default name (output_file.h), relative to the start directory. */
static char *pasta__output_path(const struct pasta__options *o, long pid) {
  pasta_output_names names = {pid, (long long)o->job.rank, o->job.host};
  return pasta__from_start_dir(
      pasta__output_expand(o->output, pasta__program(), &names));
}

/* When this process started (the file system's clock): an output file
 * modified since was written by another process of the same job (a forked
 * child, another rank) and is kept (output_file.h, PASTA_OUTPUT_UNIQUE). */
static struct timespec pasta__start;

/* What fd 2 was when this process started (st_dev, st_ino), or closed. */
static struct stat pasta__start_stderr;
static int pasta__start_stderr_open;

void pasta__stderr_remember(void) {
  pasta__start_stderr_open = fstat(2, &pasta__start_stderr) == 0;
}

__attribute__((constructor)) static void pasta__output_start(void) {
  clock_gettime(CLOCK_REALTIME_COARSE, &pasta__start);
  pasta__stderr_remember();
  pasta__start_cwd = getcwd(NULL, 0);
  if (pasta__start_cwd && (pasta__start_cwd[0] != '/' ||
                           stat(pasta__start_cwd, &pasta__start_cwd_st) != 0)) {
    free(pasta__start_cwd);
    pasta__start_cwd = NULL;
  }
}

int pasta__stderr_unchanged(void) {
  struct stat st;
  int open_now = fstat(2, &st) == 0;
  if (!open_now || !pasta__start_stderr_open)
    return !open_now && !pasta__start_stderr_open;
  return st.st_dev == pasta__start_stderr.st_dev &&
         st.st_ino == pasta__start_stderr.st_ino;
}

/* Writes one output file without clobbering anything (output_file.h); says
 * why not, or where it went when `path` could not be used (another
 * process's file, or a file that is not a PASTA output of that kind). On
 * success *written is the path written (freed by the caller). */
static int pasta__write_output(const char *path, const char *what,
                               enum pasta_output_kind kind,
                               pasta_output_writer write, const void *arg,
                               char **written) {
  char err[1024];
  pasta_output_how how = {PASTA_OUTPUT_UNIQUE,
                          pasta__report_options.overwrite ? PASTA_FILE_ANY
                                                          : kind,
                          &pasta__start, "PASTA_OVERWRITE=1"};
  if (pasta__output_write(path, &how, write, arg, written, err, sizeof err)) {
    PASTA_ERROR("cannot write the %s: %s (PASTA_OUTPUT sets the "
                "profile's path)\n",
                what, err);
    return -1;
  }
  if (strcmp(*written, path) != 0)
    PASTA_WARN("%s; the %s is written to %s instead\n", err, what, *written);
  return 0;
}

/* The note that a file was written, unless quiet or the file went to the
 * null device (nothing was written: docs/bad-input.md). */
static void pasta__say_written(const pasta_analyzer_context *ctx,
                               const char *what, const char *written) {
  if (!ctx->quiet && !pasta__is_null_device(written))
    fprintf(ctx->log, "pasta: %s written to %s\n", what, written);
}

static int pasta__profile_file(FILE *f, const void *p) {
  return pasta__profile_write_json(f, p);
}

static int pasta__json_report(void *state, const pasta_profile *p,
                              const pasta_analyzer_context *ctx) {
  (void)state;
  char *path = pasta__output_path(&pasta__report_options, ctx->pid);
  if (!path) {
    PASTA_ERROR("out of memory; no profile written\n");
    return -1;
  }
  char *written = NULL;
  int rc = pasta__write_output(path, "profile", PASTA_FILE_PROFILE,
                               pasta__profile_file, p, &written);
  if (rc == 0)
    pasta__say_written(ctx, "profile", written);
  free(written);
  free(path);
  return rc == 0 ? 0 : -1;
}

/* Whether the profile at `json` goes nowhere a file can sit beside: the
 * null device (so does everything beside it; before: /dev/null.html,
 * created in /dev as root), or a descriptor (/dev/stdout, /dev/fd/N: no
 * "beside"; one line says so). `json` is judged as the profile's writer
 * sees it: a link to /dev/null is a link, replaced like any other. */
static int pasta__no_siblings(const char *json, const char *what) {
  struct stat at;
  int alias = pasta__is_fd_alias(json);
  int device = alias || (lstat(json, &at) == 0 && S_ISCHR(at.st_mode));
  if (device && pasta__is_null_device(json))
    return 1;
  if (alias)
    PASTA_WARN("the profile goes to %s, which has no directory "
               "to put the %s in: not written (set PASTA_OUTPUT to a file "
               "name)\n",
               json, what);
  return alias;
}

/* Writes <profile path without .json><suffix> with `write`, then says so
 * (unless quiet) or says why not. `what` names the file in those lines. */
int pasta__write_sibling(const pasta_analyzer_context *ctx, const char *suffix,
                         const char *what, int (*write)(FILE *, const void *),
                         const void *arg) {
  char *json = pasta__output_path(&pasta__report_options, ctx->pid);
  if (json && pasta__no_siblings(json, what)) {
    free(json);
    return 0;
  }
  char *path = json ? pasta__sibling_path(json, suffix) : NULL;
  free(json);
  if (!path) {
    PASTA_ERROR("out of memory; no %s written\n", what);
    return -1;
  }
  char *written = NULL;
  int rc = pasta__write_output(path, what, pasta__output_kind_of_suffix(suffix),
                               write, arg, &written);
  if (rc == 0)
    pasta__say_written(ctx, what, written);
  free(written);
  free(path);
  return rc;
}

const pasta_analyzer pasta__json_analyzer = {.name = "json",
                                             .on_report = pasta__json_report};

static int pasta__html_file(FILE *f, const void *in) {
  return pasta__html_write_report(f, in);
}

/* The report page beside the profile, from the profile in memory; source
 * files are read from the paths the compiler recorded. */
static int pasta__html_report(void *state, const pasta_profile *p,
                              const pasta_analyzer_context *ctx) {
  (void)state;
  if (!pasta__report_options.html) {
    if (pasta__list_names(pasta__report_options.analyzers, "html"))
      PASTA_WARN("PASTA_ANALYZERS names html but "
                 "PASTA_HTML=0: no HTML report is written\n");
    return 0;
  }
  pasta_bw_row *rows = NULL;
  size_t n = 0;
  if (p->activity && pasta__bw_rows(p, p->activity, &rows, &n)) {
    PASTA_ERROR("out of memory; no HTML report written\n");
    return -1;
  }
  pasta_html_input in = {.profile = p,
                         .title = ctx->program,
                         .activity = p->activity,
                         .bw_rows = rows,
                         .num_bw_rows = n};
  int rc = ctx->write_file(ctx, ".html", "HTML report", pasta__html_file, &in);
  free(rows);
  return rc;
}

const pasta_analyzer pasta__html_analyzer = {.name = "html",
                                             .on_report = pasta__html_report};
