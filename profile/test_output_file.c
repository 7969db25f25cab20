/* pasta__output_write (output_file.h): what happens to what is at the path;
 * the reading helpers (same file, capped reads, paths within roots). */
#define _GNU_SOURCE

#include "output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <unistd.h>

#include "tests/unit/check.h"

static char dir[64];

static int write_text(FILE *f, const void *arg) { return fputs(arg, f) < 0; }

static int write_fails(FILE *f, const void *arg) {
  (void)arg;
  fputs("partial", f);
  errno = ENOSPC;
  return -1;
}

static char *path_of(const char *name) {
  static char buf[8][256];
  static int next;
  char *p = buf[next++ % 8];
  snprintf(p, 256, "%s/%s", dir, name);
  return p;
}

/* The whole file, or NULL. */
static char *slurp(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f)
    return NULL;
  static char buf[4096];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  return buf;
}

static int is_text(const char *path, const char *text) {
  const char *got = slurp(path);
  return got && strcmp(got, text) == 0;
}

static void put(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

/* Sets a file's modification time to `sec` seconds after the epoch. */
static void set_mtime(const char *path, time_t sec) {
  struct timeval tv[2] = {{sec, 0}, {sec, 0}};
  utimes(path, tv);
}

/* Files in dir whose names start with ".": left-over temporary files. */
static int hidden_files(void) {
  char cmd[160];
  snprintf(cmd, sizeof cmd, "ls -A '%s' | grep -c '^\\.'", dir);
  FILE *p = popen(cmd, "r");
  int n = -1;
  if (p) {
    if (fscanf(p, "%d", &n) != 1)
      n = -1;
    pclose(p);
  }
  return n;
}

static const struct timespec since = {1000000, 0}; /* "this process started" */

/* pasta__output_write with a kind that takes any regular file (the rules
 * of modes and places; the kinds are tested below). */
static int ow(const char *path, enum pasta_output_mode mode,
              const struct timespec *start, pasta_output_writer write,
              const void *arg, char **written, char *err, size_t errsize) {
  pasta_output_how how = {mode, PASTA_FILE_ANY, start, NULL};
  return pasta__output_write(path, &how, write, arg, written, err, errsize);
}

static int ow_kind(const char *path, enum pasta_output_mode mode,
                   enum pasta_output_kind kind, const char *text,
                   char **written, char *err, size_t errsize) {
  pasta_output_how how = {mode, kind, &since, NULL};
  return pasta__output_write(path, &how, write_text, text, written, err,
                             errsize);
}

/* Only what is ours of the kind is replaced: an empty file or one that
 * starts like that kind; anything else is refused (REPLACE) or kept with a
 * numbered name instead (UNIQUE), saying why. */
static void test_kinds(void) {
  char err[512], *w = NULL;
  const char *profile = "{\"schema\":\"pasta-profile\",\"version\":4}";
  /* A source file named as the profile: kept, the profile goes to
   * prog.1.c, and err says why. */
  put(path_of("prog.c"), "int main(void) { return 0; }\n");
  set_mtime(path_of("prog.c"), since.tv_sec - 1);
  CHECK_EQ_INT(ow_kind(path_of("prog.c"), PASTA_OUTPUT_UNIQUE,
                       PASTA_FILE_PROFILE, profile, &w, err, sizeof err),
               0);
  CHECK_EQ_STR(w, path_of("prog.1.c"));
  CHECK(is_text(path_of("prog.c"), "int main(void) { return 0; }\n"));
  CHECK(is_text(path_of("prog.1.c"), profile));
  CHECK_HAS_STR(err, "prog.c is not a PASTA profile");
  free(w);
  /* An earlier profile there: replaced. */
  set_mtime(path_of("prog.1.c"), since.tv_sec - 1);
  CHECK_EQ_INT(ow_kind(path_of("prog.1.c"), PASTA_OUTPUT_UNIQUE,
                       PASTA_FILE_PROFILE, profile, &w, err, sizeof err),
               0);
  CHECK_EQ_STR(w, path_of("prog.1.c"));
  free(w);
  /* A profile as json.dump or jq writes it is a profile too. */
  put(path_of("pretty.json"), "{\n  \"schema\": \"pasta-profile\",\n  "
                              "\"version\": 4\n}\n");
  CHECK_EQ_INT(ow_kind(path_of("pretty.json"), PASTA_OUTPUT_REPLACE,
                       PASTA_FILE_PROFILE, profile, &w, err, sizeof err),
               0);
  CHECK(is_text(path_of("pretty.json"), profile));
  free(w);
  /* PASTA_FILE_ANY (PASTA_OVERWRITE=1) replaces it. */
  CHECK_EQ_INT(ow(path_of("prog.c"), PASTA_OUTPUT_UNIQUE, &since, write_text,
                  profile, &w, err, sizeof err),
               0);
  CHECK_EQ_STR(w, path_of("prog.c"));
  CHECK(is_text(path_of("prog.c"), profile));
  free(w);
  /* An empty file is ours: replaced. */
  put(path_of("empty.html"), "");
  set_mtime(path_of("empty.html"), since.tv_sec - 1);
  CHECK_EQ_INT(ow_kind(path_of("empty.html"), PASTA_OUTPUT_REPLACE,
                       PASTA_FILE_HTML, PASTA_HTML_SIGNATURE "x", &w, err,
                       sizeof err),
               0);
  free(w);
  /* An HTML report is replaced by an HTML report, a profile is not. */
  CHECK_EQ_INT(ow_kind(path_of("empty.html"), PASTA_OUTPUT_REPLACE,
                       PASTA_FILE_HTML, PASTA_HTML_SIGNATURE "y", &w, err,
                       sizeof err),
               0);
  CHECK(is_text(path_of("empty.html"), PASTA_HTML_SIGNATURE "y"));
  free(w);
  CHECK_EQ_INT(ow_kind(path_of("prog.1.c"), PASTA_OUTPUT_REPLACE,
                       PASTA_FILE_HTML, PASTA_HTML_SIGNATURE, &w, err,
                       sizeof err),
               -1);
  CHECK_HAS_STR(err, "prog.1.c exists and is not a PASTA HTML report");
  CHECK(is_text(path_of("prog.1.c"), profile));
  /* A link to something else is replaced, never followed. */
  CHECK_EQ_INT(symlink(path_of("prog.1.c"), path_of("to-profile.html")), 0);
  CHECK_EQ_INT(ow_kind(path_of("to-profile.html"), PASTA_OUTPUT_REPLACE,
                       PASTA_FILE_HTML, PASTA_HTML_SIGNATURE, &w, err,
                       sizeof err),
               0);
  free(w);
  CHECK(is_text(path_of("prog.1.c"), profile));
  CHECK(is_text(path_of("to-profile.html"), PASTA_HTML_SIGNATURE));
  /* PASTA_FILE_PASTA: any of the kinds. */
  CHECK_EQ_INT(ow_kind(path_of("prog.1.c"), PASTA_OUTPUT_REPLACE,
                       PASTA_FILE_PASTA, "other", &w, err, sizeof err),
               0);
  free(w);
  CHECK_EQ_INT(pasta__output_kind_of_suffix(".roofline.svg"), PASTA_FILE_SVG);
  CHECK_EQ_INT(pasta__output_kind_of_suffix(".mine"), PASTA_FILE_ANY);
  /* A write-protected profile of an earlier run (chmod a-w: a baseline
   * kept on purpose): kept (before: replaced, as rename allows); any file
   * may be replaced (--force, PASTA_OVERWRITE=1) replaces it. */
  put(path_of("base.json"), profile);
  chmod(path_of("base.json"), 0444);
  set_mtime(path_of("base.json"), since.tv_sec - 1);
  CHECK_EQ_INT(ow_kind(path_of("base.json"), PASTA_OUTPUT_UNIQUE,
                       PASTA_FILE_PROFILE, "{\"schema\":\"pasta-profile\"}", &w,
                       err, sizeof err),
               0);
  CHECK_EQ_STR(w, path_of("base.1.json"));
  CHECK(is_text(path_of("base.json"), profile));
  CHECK_HAS_STR(err, "base.json is not writable");
  free(w);
  CHECK_EQ_INT(ow_kind(path_of("base.json"), PASTA_OUTPUT_REPLACE,
                       PASTA_FILE_PROFILE, "x", &w, err, sizeof err),
               -1);
  CHECK_HAS_STR(err, "base.json exists and is not writable");
  CHECK(is_text(path_of("base.json"), profile));
  CHECK_EQ_INT(ow_kind(path_of("base.json"), PASTA_OUTPUT_REPLACE,
                       PASTA_FILE_ANY, "forced", &w, err, sizeof err),
               0);
  CHECK(is_text(path_of("base.json"), "forced"));
  free(w);
}

/* UNIQUE through links: a link at the name to an earlier profile of the
 * user's is replaced by the file without the "written by another process"
 * note (the link's target keeps its contents); a link that another user
 * planted to a file of the user's never gets it written. */
static void test_links_unique(void) {
  char err[512], *w = NULL;
  const char *profile = "{\"schema\":\"pasta-profile\",\"version\":4}";
  put(path_of("mine.json"), profile);
  set_mtime(path_of("mine.json"), since.tv_sec - 1);
  CHECK_EQ_INT(symlink(path_of("mine.json"), path_of("latest.json")), 0);
  struct timeval tv[2] = {{since.tv_sec - 1, 0}, {since.tv_sec - 1, 0}};
  lutimes(path_of("latest.json"), tv);
  CHECK_EQ_INT(ow_kind(path_of("latest.json"), PASTA_OUTPUT_UNIQUE,
                       PASTA_FILE_PROFILE,
                       "{\"schema\":\"pasta-profile\",\"version\":4,\"n\":2}",
                       &w, err, sizeof err),
               0);
  CHECK_EQ_STR(w, path_of("latest.json"));
  CHECK_EQ_STR(err, "");
  CHECK(is_text(path_of("mine.json"), profile));
  free(w);
  /* Planted: victim.txt is the user's own data. */
  put(path_of("victim.txt"), "precious");
  CHECK_EQ_INT(symlink(path_of("victim.txt"), path_of("planted.json")), 0);
  lutimes(path_of("planted.json"), tv);
  CHECK_EQ_INT(ow_kind(path_of("planted.json"), PASTA_OUTPUT_UNIQUE,
                       PASTA_FILE_PROFILE, profile, &w, err, sizeof err),
               0);
  CHECK(is_text(path_of("victim.txt"), "precious"));
  CHECK_EQ_STR(w, path_of("planted.json"));
  CHECK(is_text(path_of("planted.json"), profile));
  free(w);
  CHECK_EQ_INT(unlink(path_of("planted.json")), 0);
  CHECK_EQ_INT(symlink(path_of("victim.txt"), path_of("planted.json")), 0);
  CHECK_EQ_INT(ow(path_of("planted.json"), PASTA_OUTPUT_REPLACE, NULL,
                  write_text, profile, &w, err, sizeof err),
               0);
  CHECK(is_text(path_of("victim.txt"), "precious"));
  free(w);
}

/* Records the descriptor the file was given. */
static int write_fileno(FILE *f, const void *arg) {
  *(int *)(uintptr_t)arg = fileno(f);
  return fputs("x", f) < 0;
}

/* What the process and the file system around it can do to a write: a
 * file size limit, closed standard descriptors, the modes of what is
 * replaced. */
static void test_process_limits(void) {
  char err[512], *w = NULL;
  struct stat st;
  /* ulimit -f: the write fails with EFBIG (before: SIGXFSZ killed the
   * process, leaving the temporary file), nothing is left behind, and
   * SIGXFSZ is back to its default. */
  struct rlimit old, small;
  if (CHECK_EQ_INT(getrlimit(RLIMIT_FSIZE, &old), 0)) {
    small = old;
    small.rlim_cur = 4;
    CHECK_EQ_INT(setrlimit(RLIMIT_FSIZE, &small), 0);
    CHECK_EQ_INT(ow(path_of("limited.json"), PASTA_OUTPUT_REPLACE, NULL,
                    write_text, "more than four bytes", &w, err, sizeof err),
                 -1);
    setrlimit(RLIMIT_FSIZE, &old);
    CHECK_HAS_STR(err, strerror(EFBIG));
    CHECK(lstat(path_of("limited.json"), &st) != 0);
    CHECK_EQ_INT(hidden_files(), 0);
    struct sigaction now;
    CHECK(sigaction(SIGXFSZ, NULL, &now) == 0 && now.sa_handler == SIG_DFL);
  }
  /* fd 2 closed: the temporary file does not take it (anything printed to
   * stderr meanwhile would land in the file). */
  int saved = dup(2), got = -1;
  close(2);
  int rc = ow(path_of("fd2.json"), PASTA_OUTPUT_REPLACE, NULL, write_fileno,
              &got, &w, err, sizeof err);
  dup2(saved, 2);
  close(saved);
  CHECK_EQ_INT(rc, 0);
  CHECK(got > 2);
  CHECK(is_text(path_of("fd2.json"), "x"));
  free(w);
  /* A replaced file of ours keeps its permissions, not set-user-ID or
   * set-group-ID bits. */
  umask(022);
  put(path_of("suid.json"), "old");
  chmod(path_of("suid.json"), 06750);
  CHECK_EQ_INT(ow(path_of("suid.json"), PASTA_OUTPUT_REPLACE, NULL, write_text,
                  "new", &w, err, sizeof err),
               0);
  CHECK(stat(path_of("suid.json"), &st) == 0 && (st.st_mode & 07777) == 0750);
  free(w);
  /* Another user's file (as root: one chown'ed to nobody), world-writable:
   * replaced by a file of a new file's mode, not 0666. */
  put(path_of("theirs.json"), "old");
  chmod(path_of("theirs.json"), 0666);
  if (chown(path_of("theirs.json"), 65534, 65534) == 0) {
    CHECK_EQ_INT(ow(path_of("theirs.json"), PASTA_OUTPUT_REPLACE, NULL,
                    write_text, "new", &w, err, sizeof err),
                 0);
    CHECK(stat(path_of("theirs.json"), &st) == 0 &&
          (st.st_mode & 07777) == 0644 && st.st_uid == geteuid());
    free(w);
  }
}

/* A path too long for the system: the error keeps its reason. */
static void test_long_path(void) {
  char err[512], *w = NULL;
  size_t n = 5000;
  char *path = malloc(n + 1);
  if (!path)
    return;
  memset(path, 'a', n);
  for (size_t i = 100; i < n; i += 100)
    path[i] = '/';
  path[n] = '\0';
  CHECK_EQ_INT(ow(path, PASTA_OUTPUT_UNIQUE, &since, write_text, "x", &w, err,
                  sizeof err),
               -1);
  CHECK_HAS_STR(err, strerror(ENAMETOOLONG));
  CHECK(strlen(err) < 400);
  free(path);
}

static void test_reading(void) {
  char err[256];
  size_t len = 0;
  /* Same file by identity: another name, a link. */
  put(path_of("in.json"), "{}");
  char dotted[300];
  snprintf(dotted, sizeof dotted, "%s/./in.json", dir);
  CHECK(pasta__same_file(path_of("in.json"), dotted));
  CHECK(pasta__same_file(path_of("in.json"), path_of("in.json")));
  CHECK(!pasta__same_file(path_of("in.json"), path_of("victim.txt")));
  CHECK(!pasta__same_file(path_of("in.json"), path_of("nothing-here")));
  /* Capped reads. */
  char *text =
      pasta__read_capped(path_of("in.json"), 16, &len, err, sizeof err);
  CHECK(text && len == 2 && strcmp(text, "{}") == 0);
  free(text);
  put(path_of("big.json"), "0123456789abcdefX");
  CHECK(pasta__read_capped(path_of("big.json"), 16, &len, err, sizeof err) ==
        NULL);
  CHECK_HAS_STR(err, "limit");
  CHECK(pasta__read_capped("/dev/zero", 16, &len, err, sizeof err) == NULL);
  CHECK_HAS_STR(err, "a device, not a file");
  CHECK(pasta__read_capped(dir, 16, &len, err, sizeof err) == NULL);
  CHECK_HAS_STR(err, "a directory");
  /* A pipe is read to its end, up to the cap. */
  int fds[2];
  if (CHECK_EQ_INT(pipe(fds), 0)) {
    CHECK(write(fds[1], "through a pipe", 14) == 14);
    close(fds[1]);
    char alias[32];
    snprintf(alias, sizeof alias, "/dev/fd/%d", fds[0]);
    text = pasta__read_capped(alias, 64, &len, err, sizeof err);
    CHECK(text && len == 14);
    free(text);
    close(fds[0]);
  }
  /* Paths within roots, after "..", "." and links. */
  char real[PATH_MAX];
  if (!CHECK(realpath(dir, real) != NULL))
    return;
  const char *roots[] = {real, NULL};
  char *r = pasta__path_within(path_of("in.json"), roots);
  CHECK(r != NULL);
  free(r);
  char up[300];
  snprintf(up, sizeof up, "%s/../etc/passwd", dir);
  CHECK(pasta__path_within(up, roots) == NULL);
  CHECK(pasta__path_within("/etc/passwd", roots) == NULL);
  CHECK_EQ_INT(symlink("/etc/passwd", path_of("pw")), 0);
  CHECK(pasta__path_within(path_of("pw"), roots) == NULL);
  char sibling[PATH_MAX + 8];
  snprintf(sibling, sizeof sibling, "%sx", real); /* /tmp/dirx: not under */
  mkdir(sibling, 0700);
  snprintf(up, sizeof up, "%s/f", sibling);
  put(up, "x");
  CHECK(pasta__path_within(up, roots) == NULL);
  unlink(up);
  rmdir(sibling);
}

int main(void) {
  snprintf(dir, sizeof dir, "/tmp/pasta-output-test-XXXXXX");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  char err[512], *w = NULL;

  /* Nothing there: created, 0666 minus the umask. */
  umask(022);
  CHECK_EQ_INT(ow(path_of("new.json"), PASTA_OUTPUT_UNIQUE, &since, write_text,
                  "one", &w, err, sizeof err),
               0);
  CHECK_EQ_STR(w, path_of("new.json"));
  CHECK(is_text(path_of("new.json"), "one"));
  struct stat st;
  CHECK(stat(path_of("new.json"), &st) == 0 && (st.st_mode & 0777) == 0644);
  free(w);

  /* An older regular file (an earlier run's): replaced, mode kept. */
  chmod(path_of("new.json"), 0600);
  set_mtime(path_of("new.json"), since.tv_sec - 1);
  CHECK_EQ_INT(ow(path_of("new.json"), PASTA_OUTPUT_UNIQUE, &since, write_text,
                  "two", &w, err, sizeof err),
               0);
  CHECK_EQ_STR(w, path_of("new.json"));
  CHECK(is_text(path_of("new.json"), "two"));
  CHECK(stat(path_of("new.json"), &st) == 0 && (st.st_mode & 0777) == 0600);
  free(w);

  /* A newer one (another process of this job wrote it): kept; new.1.json,
   * then new.2.json. */
  set_mtime(path_of("new.json"), since.tv_sec + 1);
  CHECK_EQ_INT(ow(path_of("new.json"), PASTA_OUTPUT_UNIQUE, &since, write_text,
                  "three", &w, err, sizeof err),
               0);
  CHECK_EQ_STR(w, path_of("new.1.json"));
  CHECK(is_text(path_of("new.json"), "two"));
  CHECK(is_text(path_of("new.1.json"), "three"));
  free(w);
  set_mtime(path_of("new.1.json"), since.tv_sec + 1);
  CHECK_EQ_INT(ow(path_of("new.json"), PASTA_OUTPUT_UNIQUE, &since, write_text,
                  "four", &w, err, sizeof err),
               0);
  CHECK_EQ_STR(w, path_of("new.2.json"));
  CHECK(is_text(path_of("new.2.json"), "four"));
  free(w);
  /* A numbered name from an earlier run is reused. */
  set_mtime(path_of("new.1.json"), since.tv_sec - 1);
  CHECK_EQ_INT(ow(path_of("new.json"), PASTA_OUTPUT_UNIQUE, &since, write_text,
                  "five", &w, err, sizeof err),
               0);
  CHECK_EQ_STR(w, path_of("new.1.json"));
  CHECK(is_text(path_of("new.1.json"), "five"));
  CHECK(is_text(path_of("new.json"), "two"));
  free(w);
  /* No extension: name.1. */
  put(path_of("plain"), "x");
  CHECK_EQ_INT(ow(path_of("plain"), PASTA_OUTPUT_UNIQUE, NULL, write_text, "y",
                  &w, err, sizeof err),
               0);
  CHECK_EQ_STR(w, path_of("plain.1"));
  free(w);

  /* EXCLUSIVE never replaces; REPLACE always does. */
  CHECK_EQ_INT(ow(path_of("new.json"), PASTA_OUTPUT_EXCLUSIVE, NULL, write_text,
                  "six", &w, err, sizeof err),
               -1);
  CHECK(w == NULL && strstr(err, "new.json exists"));
  CHECK(is_text(path_of("new.json"), "two"));
  CHECK_EQ_INT(ow(path_of("new.json"), PASTA_OUTPUT_REPLACE, NULL, write_text,
                  "seven", &w, err, sizeof err),
               0);
  CHECK(is_text(path_of("new.json"), "seven"));
  free(w);

  /* A failing writer: an error naming the cause, the old file intact, no
   * temporary file left. */
  CHECK_EQ_INT(ow(path_of("new.json"), PASTA_OUTPUT_REPLACE, NULL, write_fails,
                  NULL, &w, err, sizeof err),
               -1);
  CHECK_HAS_STR(err, strerror(ENOSPC));
  CHECK(is_text(path_of("new.json"), "seven"));
  CHECK_EQ_INT(hidden_files(), 0);

  /* A directory, a missing directory, a dangling link: errors. */
  mkdir(path_of("d"), 0755);
  CHECK_EQ_INT(ow(path_of("d"), PASTA_OUTPUT_REPLACE, NULL, write_text, "x", &w,
                  err, sizeof err),
               -1);
  CHECK_HAS_STR(err, "is a directory, not a file");
  CHECK_EQ_INT(ow(path_of("nodir/x.json"), PASTA_OUTPUT_REPLACE, NULL,
                  write_text, "x", &w, err, sizeof err),
               -1);
  CHECK(strstr(err, "cannot create a file in") && strstr(err, "nodir"));
  /* A dangling link: replaced by the file (nothing is created where it
   * points). */
  CHECK_EQ_INT(symlink(path_of("missing"), path_of("dangling")), 0);
  CHECK_EQ_INT(ow(path_of("dangling"), PASTA_OUTPUT_REPLACE, NULL, write_text,
                  "x", &w, err, sizeof err),
               0);
  CHECK(lstat(path_of("dangling"), &st) == 0 && S_ISREG(st.st_mode));
  CHECK(is_text(path_of("dangling"), "x"));
  CHECK(lstat(path_of("missing"), &st) != 0);
  free(w);

  /* A link to a regular file (planted by someone else, say): never
   * followed. The link is replaced by the file; its target is untouched. */
  put(path_of("target.json"), "old");
  CHECK_EQ_INT(symlink(path_of("target.json"), path_of("link.json")), 0);
  CHECK_EQ_INT(ow(path_of("link.json"), PASTA_OUTPUT_REPLACE, NULL, write_text,
                  "via link", &w, err, sizeof err),
               0);
  CHECK_EQ_STR(w, path_of("link.json"));
  CHECK(lstat(path_of("link.json"), &st) == 0 && S_ISREG(st.st_mode));
  CHECK(is_text(path_of("link.json"), "via link"));
  CHECK(is_text(path_of("target.json"), "old"));
  free(w);

  /* A fifo: an error without a reader (never blocks), written into with
   * one, and still a fifo. */
  CHECK_EQ_INT(mkfifo(path_of("fifo"), 0600), 0);
  CHECK_EQ_INT(ow(path_of("fifo"), PASTA_OUTPUT_REPLACE, NULL, write_text, "x",
                  &w, err, sizeof err),
               -1);
  CHECK_HAS_STR(err, "named pipe that no process is reading");
  int rd = open(path_of("fifo"), O_RDONLY | O_NONBLOCK);
  CHECK(rd >= 0);
  CHECK_EQ_INT(ow(path_of("fifo"), PASTA_OUTPUT_REPLACE, NULL, write_text,
                  "through the pipe", &w, err, sizeof err),
               0);
  char buf[64] = {0};
  CHECK(read(rd, buf, sizeof buf - 1) == 16 &&
        strcmp(buf, "through the pipe") == 0);
  close(rd);
  CHECK(lstat(path_of("fifo"), &st) == 0 && S_ISFIFO(st.st_mode));
  free(w);

  /* The null device: written into (discarded), still the device. As root,
   * a node of our own (a bug here must never replace the real /dev/null);
   * otherwise the real one, which only root could replace. */
  const char *null = "/dev/null";
  if (mknod(path_of("null"), S_IFCHR | 0600, makedev(1, 3)) == 0)
    null = path_of("null");
  CHECK_EQ_INT(ow(null, PASTA_OUTPUT_REPLACE, NULL, write_text, "x", &w, err,
                  sizeof err),
               0);
  CHECK(stat(null, &st) == 0 && S_ISCHR(st.st_mode));
  free(w);
  /* Any other device (made where we may, i.e. as root): an error, and the
   * node stays. /dev/zero is major 1, minor 5. */
  if (mknod(path_of("zero"), S_IFCHR | 0600, makedev(1, 5)) == 0) {
    CHECK_EQ_INT(ow(path_of("zero"), PASTA_OUTPUT_REPLACE, NULL, write_text,
                    "x", &w, err, sizeof err),
                 -1);
    CHECK_HAS_STR(err, "is a device, not a file");
    CHECK(lstat(path_of("zero"), &st) == 0 && S_ISCHR(st.st_mode));
  }

  /* /dev/fd/N: into that descriptor, at its offset. */
  int fd = open(path_of("fd.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  CHECK(fd >= 0 && write(fd, "before;", 7) == 7);
  char alias[32];
  snprintf(alias, sizeof alias, "/dev/fd/%d", fd);
  CHECK_EQ_INT(ow(alias, PASTA_OUTPUT_REPLACE, NULL, write_text, "after", &w,
                  err, sizeof err),
               0);
  close(fd);
  CHECK(is_text(path_of("fd.txt"), "before;after"));
  free(w);

  test_kinds();
  test_links_unique();
  test_long_path();
  test_reading();
  test_process_limits();

  CHECK_EQ_INT(hidden_files(), 0);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0)
    fprintf(stderr, "cannot remove %s\n", dir);
  return check_summary("output_file");
}
