/* pasta__output_write (output_file.h): what happens to what is at the path. */
#define _GNU_SOURCE

#include "output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int main(void) {
  snprintf(dir, sizeof dir, "/tmp/pasta-output-test-XXXXXX");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  char err[512], *w = NULL;

  /* Nothing there: created, 0666 minus the umask. */
  umask(022);
  CHECK_EQ_INT(pasta__output_write(path_of("new.json"), PASTA_OUTPUT_UNIQUE,
                                   &since, write_text, "one", &w, err,
                                   sizeof err),
               0);
  CHECK_EQ_STR(w, path_of("new.json"));
  CHECK(is_text(path_of("new.json"), "one"));
  struct stat st;
  CHECK(stat(path_of("new.json"), &st) == 0 && (st.st_mode & 0777) == 0644);
  free(w);

  /* An older regular file (an earlier run's): replaced, mode kept. */
  chmod(path_of("new.json"), 0600);
  set_mtime(path_of("new.json"), since.tv_sec - 1);
  CHECK_EQ_INT(pasta__output_write(path_of("new.json"), PASTA_OUTPUT_UNIQUE,
                                   &since, write_text, "two", &w, err,
                                   sizeof err),
               0);
  CHECK_EQ_STR(w, path_of("new.json"));
  CHECK(is_text(path_of("new.json"), "two"));
  CHECK(stat(path_of("new.json"), &st) == 0 && (st.st_mode & 0777) == 0600);
  free(w);

  /* A newer one (another process of this job wrote it): kept; new.1.json,
   * then new.2.json. */
  set_mtime(path_of("new.json"), since.tv_sec + 1);
  CHECK_EQ_INT(pasta__output_write(path_of("new.json"), PASTA_OUTPUT_UNIQUE,
                                   &since, write_text, "three", &w, err,
                                   sizeof err),
               0);
  CHECK_EQ_STR(w, path_of("new.1.json"));
  CHECK(is_text(path_of("new.json"), "two"));
  CHECK(is_text(path_of("new.1.json"), "three"));
  free(w);
  set_mtime(path_of("new.1.json"), since.tv_sec + 1);
  CHECK_EQ_INT(pasta__output_write(path_of("new.json"), PASTA_OUTPUT_UNIQUE,
                                   &since, write_text, "four", &w, err,
                                   sizeof err),
               0);
  CHECK_EQ_STR(w, path_of("new.2.json"));
  CHECK(is_text(path_of("new.2.json"), "four"));
  free(w);
  /* A numbered name from an earlier run is reused. */
  set_mtime(path_of("new.1.json"), since.tv_sec - 1);
  CHECK_EQ_INT(pasta__output_write(path_of("new.json"), PASTA_OUTPUT_UNIQUE,
                                   &since, write_text, "five", &w, err,
                                   sizeof err),
               0);
  CHECK_EQ_STR(w, path_of("new.1.json"));
  CHECK(is_text(path_of("new.1.json"), "five"));
  CHECK(is_text(path_of("new.json"), "two"));
  free(w);
  /* No extension: name.1. */
  put(path_of("plain"), "x");
  CHECK_EQ_INT(pasta__output_write(path_of("plain"), PASTA_OUTPUT_UNIQUE, NULL,
                                   write_text, "y", &w, err, sizeof err),
               0);
  CHECK_EQ_STR(w, path_of("plain.1"));
  free(w);

  /* EXCLUSIVE never replaces; REPLACE always does. */
  CHECK_EQ_INT(pasta__output_write(path_of("new.json"), PASTA_OUTPUT_EXCLUSIVE,
                                   NULL, write_text, "six", &w, err,
                                   sizeof err),
               -1);
  CHECK(w == NULL && strstr(err, "new.json exists"));
  CHECK(is_text(path_of("new.json"), "two"));
  CHECK_EQ_INT(pasta__output_write(path_of("new.json"), PASTA_OUTPUT_REPLACE,
                                   NULL, write_text, "seven", &w, err,
                                   sizeof err),
               0);
  CHECK(is_text(path_of("new.json"), "seven"));
  free(w);

  /* A failing writer: an error naming the cause, the old file intact, no
   * temporary file left. */
  CHECK_EQ_INT(pasta__output_write(path_of("new.json"), PASTA_OUTPUT_REPLACE,
                                   NULL, write_fails, NULL, &w, err,
                                   sizeof err),
               -1);
  CHECK_HAS_STR(err, strerror(ENOSPC));
  CHECK(is_text(path_of("new.json"), "seven"));
  CHECK_EQ_INT(hidden_files(), 0);

  /* A directory, a missing directory, a dangling link: errors. */
  mkdir(path_of("d"), 0755);
  CHECK_EQ_INT(pasta__output_write(path_of("d"), PASTA_OUTPUT_REPLACE, NULL,
                                   write_text, "x", &w, err, sizeof err),
               -1);
  CHECK_HAS_STR(err, "is a directory, not a file");
  CHECK_EQ_INT(pasta__output_write(path_of("nodir/x.json"),
                                   PASTA_OUTPUT_REPLACE, NULL, write_text, "x",
                                   &w, err, sizeof err),
               -1);
  CHECK(strstr(err, "cannot create a file in") && strstr(err, "nodir"));
  CHECK_EQ_INT(symlink(path_of("missing"), path_of("dangling")), 0);
  CHECK_EQ_INT(pasta__output_write(path_of("dangling"), PASTA_OUTPUT_REPLACE,
                                   NULL, write_text, "x", &w, err, sizeof err),
               -1);
  CHECK_HAS_STR(err, "symbolic link to a missing file");

  /* A link to a regular file: the file is written, the link stays. */
  put(path_of("target.json"), "old");
  CHECK_EQ_INT(symlink(path_of("target.json"), path_of("link.json")), 0);
  CHECK_EQ_INT(pasta__output_write(path_of("link.json"), PASTA_OUTPUT_REPLACE,
                                   NULL, write_text, "via link", &w, err,
                                   sizeof err),
               0);
  CHECK(lstat(path_of("link.json"), &st) == 0 && S_ISLNK(st.st_mode));
  CHECK(is_text(path_of("target.json"), "via link"));
  free(w);

  /* A fifo: an error without a reader (never blocks), written into with
   * one, and still a fifo. */
  CHECK_EQ_INT(mkfifo(path_of("fifo"), 0600), 0);
  CHECK_EQ_INT(pasta__output_write(path_of("fifo"), PASTA_OUTPUT_REPLACE, NULL,
                                   write_text, "x", &w, err, sizeof err),
               -1);
  CHECK_HAS_STR(err, "named pipe that no process is reading");
  int rd = open(path_of("fifo"), O_RDONLY | O_NONBLOCK);
  CHECK(rd >= 0);
  CHECK_EQ_INT(pasta__output_write(path_of("fifo"), PASTA_OUTPUT_REPLACE, NULL,
                                   write_text, "through the pipe", &w, err,
                                   sizeof err),
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
  CHECK_EQ_INT(pasta__output_write(null, PASTA_OUTPUT_REPLACE, NULL, write_text,
                                   "x", &w, err, sizeof err),
               0);
  CHECK(stat(null, &st) == 0 && S_ISCHR(st.st_mode));
  free(w);
  /* Any other device (made where we may, i.e. as root): an error, and the
   * node stays. /dev/zero is major 1, minor 5. */
  if (mknod(path_of("zero"), S_IFCHR | 0600, makedev(1, 5)) == 0) {
    CHECK_EQ_INT(pasta__output_write(path_of("zero"), PASTA_OUTPUT_REPLACE,
                                     NULL, write_text, "x", &w, err,
                                     sizeof err),
                 -1);
    CHECK_HAS_STR(err, "is a device, not a file");
    CHECK(lstat(path_of("zero"), &st) == 0 && S_ISCHR(st.st_mode));
  }

  /* /dev/fd/N: into that descriptor, at its offset. */
  int fd = open(path_of("fd.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  CHECK(fd >= 0 && write(fd, "before;", 7) == 7);
  char alias[32];
  snprintf(alias, sizeof alias, "/dev/fd/%d", fd);
  CHECK_EQ_INT(pasta__output_write(alias, PASTA_OUTPUT_REPLACE, NULL,
                                   write_text, "after", &w, err, sizeof err),
               0);
  close(fd);
  CHECK(is_text(path_of("fd.txt"), "before;after"));
  free(w);

  CHECK_EQ_INT(hidden_files(), 0);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0)
    fprintf(stderr, "cannot remove %s\n", dir);
  return check_summary("output_file");
}
