/*===- output_file.c - Write an output file, clobbering nothing ----------===*
 *
 * See output_file.h for what happens to what is at the path.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* realpath, mkstemp, fdopen, fchmod under C11 */

#include "output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { MAX_UNIQUE = 1000 };

static void say(char *err, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void say(char *err, size_t size, const char *fmt, ...) {
  if (!err || !size)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, size, fmt, ap);
  va_end(ap);
}

static char *dup_string(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d)
    memcpy(d, s, n);
  return d;
}

/* The descriptor a path names, for /dev/stdout, /dev/stderr, /dev/fd/N and
 * /proc/self/fd/N; -1 for any other path. */
static int fd_alias(const char *path) {
  if (strcmp(path, "/dev/stdout") == 0)
    return 1;
  if (strcmp(path, "/dev/stderr") == 0)
    return 2;
  const char *n = NULL;
  if (strncmp(path, "/dev/fd/", 8) == 0)
    n = path + 8;
  else if (strncmp(path, "/proc/self/fd/", 14) == 0)
    n = path + 14;
  if (!n || *n < '0' || *n > '9')
    return -1;
  char *end;
  long fd = strtol(n, &end, 10);
  return *end || fd > INT_MAX ? -1 : (int)fd;
}

/* Runs the writer on an open descriptor (closed here). */
static int write_fd(int fd, const char *path, pasta_output_writer write,
                    const void *arg, char *err, size_t errsize) {
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f) {
    say(err, errsize, "cannot write to %s: %s", path, strerror(errno));
    if (fd >= 0)
      close(fd);
    return -1;
  }
  errno = 0;
  int failed = write(f, arg) != 0 || fflush(f) != 0;
  int e = errno ? errno : EIO;
  if (fclose(f) != 0 && !failed) {
    failed = 1;
    e = errno ? errno : EIO;
  }
  if (failed)
    say(err, errsize, "cannot write to %s: %s", path, strerror(e));
  return failed ? -1 : 0;
}

/* 0666 minus the process's umask, read without changing it. */
static mode_t new_file_mode(void) {
  mode_t mask = 022;
  FILE *f = fopen("/proc/self/status", "r");
  if (f) {
    char line[256];
    while (fgets(line, sizeof line, f))
      if (strncmp(line, "Umask:", 6) == 0) {
        mask = (mode_t)strtoul(line + 6, NULL, 8);
        break;
      }
    fclose(f);
  }
  return 0666 & ~mask;
}

/* <stem>.<n><ext> for base name <stem><ext> (ext: the last dot's suffix). */
static char *numbered(const char *path, unsigned n) {
  const char *slash = strrchr(path, '/');
  const char *base = slash ? slash + 1 : path;
  const char *dot = strrchr(base, '.');
  if (!dot || dot == base)
    dot = base + strlen(base);
  size_t size = strlen(path) + 16;
  char *s = malloc(size);
  if (s)
    snprintf(s, size, "%.*s.%u%s", (int)(dot - path), path, n, dot);
  return s;
}

/* Whether a regular file at path was last modified before since. */
static int older_than(const char *path, const struct timespec *since) {
  struct stat st;
  if (!since || lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return 0;
  if (st.st_mtim.tv_sec != since->tv_sec)
    return st.st_mtim.tv_sec < since->tv_sec;
  return st.st_mtim.tv_nsec < since->tv_nsec;
}

/* Puts the finished temporary file at `to` unless something is there:
 * 0 done, 1 something is there, -1 another error (errno set). */
static int place_new(const char *tmp, const char *to) {
  if (link(tmp, to) == 0)
    return 0;
  if (errno == EEXIST)
    return 1;
  if (errno != EPERM && errno != EOPNOTSUPP && errno != EMLINK &&
      errno != ENOSYS)
    return -1;
  /* No hard links here: reserve the name, then rename over the reservation. */
  int fd = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    return errno == EEXIST ? 1 : -1;
  close(fd);
  if (rename(tmp, to) == 0)
    return 0;
  int e = errno;
  unlink(to);
  errno = e;
  return -1;
}

/* The temporary file is complete: installs it at `target` per mode. */
static int install(const char *tmp, const char *target,
                   enum pasta_output_mode mode, const struct timespec *since,
                   char **written, char *err, size_t errsize) {
  int renamed = 0; /* tmp is gone (renamed into place) */
  char *at = dup_string(target);
  int rc = at ? place_new(tmp, at) : -1;
  if (!at)
    errno = ENOMEM;
  if (rc == 1 && mode == PASTA_OUTPUT_EXCLUSIVE) {
    say(err, errsize, "%s exists", target);
    free(at);
    return -1;
  }
  if (rc == 1 && (mode == PASTA_OUTPUT_REPLACE || older_than(at, since))) {
    struct stat st;
    if (lstat(at, &st) == 0 && S_ISREG(st.st_mode)) {
      chmod(tmp, st.st_mode & 07777);
      rc = rename(tmp, at) == 0 ? 0 : -1;
      renamed = rc == 0;
    }
  }
  for (unsigned n = 1; rc == 1 && n < MAX_UNIQUE; ++n) {
    free(at);
    at = numbered(target, n);
    if (!at) {
      errno = ENOMEM;
      rc = -1;
      break;
    }
    rc = place_new(tmp, at);
    if (rc == 1 && older_than(at, since)) {
      rc = rename(tmp, at) == 0 ? 0 : -1;
      renamed = rc == 0;
    }
  }
  if (rc == 1) {
    say(err, errsize,
        "%s and %u numbered names after it were written by other processes "
        "since this one started",
        target, (unsigned)MAX_UNIQUE - 1);
    free(at);
    return -1;
  }
  if (rc != 0) {
    say(err, errsize, "cannot create %s: %s", at ? at : target,
        strerror(errno));
    free(at);
    return -1;
  }
  if (!renamed)
    unlink(tmp);
  *written = at;
  return 0;
}

/* A regular file: written to a temporary file next to `target`, then put
 * in place. */
static int write_regular(const char *target, enum pasta_output_mode mode,
                         const struct timespec *since,
                         pasta_output_writer write, const void *arg,
                         char **written, char *err, size_t errsize) {
  const char *slash = strrchr(target, '/');
  const char *base = slash ? slash + 1 : target;
  int dirlen = slash ? (int)(slash - target) : 1;
  const char *dir = slash ? target : ".";
  if (slash && slash == target)
    dirlen = 1; /* "/name" */
  size_t size = strlen(target) + 64;
  char *tmp = malloc(size);
  if (!tmp) {
    say(err, errsize, "cannot write %s: %s", target, strerror(ENOMEM));
    return -1;
  }
  /* Short enough for NAME_MAX whatever the base name. */
  snprintf(tmp, size, "%.*s/.%.64s.pasta-XXXXXX", dirlen, dir, base);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    say(err, errsize, "cannot create a file in %.*s: %s", dirlen, dir,
        strerror(errno));
    free(tmp);
    return -1;
  }
  fchmod(fd, new_file_mode());
  int rc = write_fd(fd, tmp, write, arg, err, errsize);
  if (rc == 0)
    rc = install(tmp, target, mode, since, written, err, errsize);
  if (rc != 0)
    unlink(tmp);
  free(tmp);
  return rc;
}

static int write_into(const char *path, int flags, pasta_output_writer write,
                      const void *arg, char **written, char *err,
                      size_t errsize) {
  int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | flags);
  if (fd < 0) {
    if (errno == ENXIO)
      say(err, errsize, "%s is a named pipe that no process is reading", path);
    else
      say(err, errsize, "cannot open %s: %s", path, strerror(errno));
    return -1;
  }
  if (flags & O_NONBLOCK)
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  if (write_fd(fd, path, write, arg, err, errsize))
    return -1;
  *written = dup_string(path);
  return *written ? 0 : -1;
}

static int write_any(const char *path, enum pasta_output_mode mode,
                     const struct timespec *since, pasta_output_writer write,
                     const void *arg, char **written, char *err,
                     size_t errsize) {
  if (!*path) {
    say(err, errsize, "the file name is empty");
    return -1;
  }
  int alias = fd_alias(path);
  if (alias >= 0) {
    int fd = fcntl(alias, F_DUPFD_CLOEXEC, 3);
    if (fd < 0) {
      say(err, errsize, "cannot write to %s: %s", path, strerror(errno));
      return -1;
    }
    if (write_fd(fd, path, write, arg, err, errsize))
      return -1;
    *written = dup_string(path);
    return *written ? 0 : -1;
  }
  struct stat st, lst;
  if (stat(path, &st) != 0) {
    if (errno != ENOENT) {
      say(err, errsize, "cannot write %s: %s", path, strerror(errno));
      return -1;
    }
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
      say(err, errsize, "%s is a symbolic link to a missing file", path);
      return -1;
    }
    return write_regular(path, mode, since, write, arg, written, err, errsize);
  }
  if (S_ISREG(st.st_mode)) {
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
      /* Follow the link: the file it names is written, the link stays. */
      char *real = realpath(path, NULL);
      if (!real) {
        say(err, errsize, "cannot resolve %s: %s", path, strerror(errno));
        return -1;
      }
      int rc =
          write_regular(real, mode, since, write, arg, written, err, errsize);
      free(real);
      return rc;
    }
    return write_regular(path, mode, since, write, arg, written, err, errsize);
  }
  if (S_ISFIFO(st.st_mode))
    return write_into(path, O_NONBLOCK, write, arg, written, err, errsize);
  if (S_ISCHR(st.st_mode)) {
    struct stat null;
    if (stat("/dev/null", &null) == 0 && S_ISCHR(null.st_mode) &&
        null.st_rdev == st.st_rdev)
      return write_into(path, 0, write, arg, written, err, errsize);
    say(err, errsize, "%s is a device, not a file; nothing was written to it",
        path);
    return -1;
  }
  say(err, errsize, "%s is %s, not a file", path,
      S_ISDIR(st.st_mode)    ? "a directory"
      : S_ISBLK(st.st_mode)  ? "a block device"
      : S_ISSOCK(st.st_mode) ? "a socket"
                             : "something else");
  return -1;
}

int pasta__output_write(const char *path, enum pasta_output_mode mode,
                        const struct timespec *since, pasta_output_writer write,
                        const void *arg, char **written, char *err,
                        size_t errsize) {
  int saved = errno;
  *written = NULL;
  if (err && errsize)
    *err = '\0';
  int rc = path && write
               ? write_any(path, mode, since, write, arg, written, err, errsize)
               : (say(err, errsize, "no file name"), -1);
  if (rc == 0 && !*written) {
    say(err, errsize, "%s: %s", path, strerror(ENOMEM));
    rc = -1;
  }
  errno = saved;
  return rc;
}

/*===-- Output names ------------------------------------------------------===*/

/* The host name up to its first dot, made safe for a file name. */
static void short_host(const char *host, char *out, size_t size) {
  snprintf(out, size, "%s", host && *host ? host : "unknown");
  out[strcspn(out, ".")] = '\0';
  for (char *c = out; *c; ++c)
    if (*c == '/')
      *c = '_';
  if (!out[0])
    snprintf(out, size, "unknown");
}

/* What %<c> stands for, or NULL when it is not one of ours. */
static const char *substitution(char c, const char *pid, const char *rank,
                                const char *host) {
  return c == 'p' ? pid : c == 'r' ? rank : c == 'h' ? host : NULL;
}

char *pasta__output_expand(const char *pattern, const char *program,
                           const pasta_output_names *names) {
  char pid[24], rank[24], host[256];
  snprintf(pid, sizeof pid, "%ld", names->pid);
  snprintf(rank, sizeof rank, "%lld", names->rank < 0 ? 0 : names->rank);
  short_host(names->host, host, sizeof host);
  if (!pattern) {
    const char *slash = program ? strrchr(program, '/') : NULL;
    const char *base = slash && slash[1] ? slash + 1 : program;
    base = base && *base ? base : "unknown";
    size_t size = strlen(base) + sizeof rank + sizeof "pasta--rank.json";
    char *path = malloc(size);
    if (path && names->rank >= 0)
      snprintf(path, size, "pasta-%s-rank%s.json", base, rank);
    else if (path)
      snprintf(path, size, "pasta-%s-%s.json", base, pid);
    return path;
  }
  size_t size = 1;
  for (const char *s = pattern; *s; ++s) {
    const char *sub = s[0] == '%' ? substitution(s[1], pid, rank, host) : NULL;
    size += sub ? strlen(sub) : 1;
    s += sub != NULL;
  }
  char *path = malloc(size), *d = path;
  for (const char *s = pattern; path && *s; ++s) {
    const char *sub = s[0] == '%' ? substitution(s[1], pid, rank, host) : NULL;
    if (!sub) {
      *d++ = *s;
      continue;
    }
    size_t n = strlen(sub);
    memcpy(d, sub, n);
    d += n;
    ++s;
  }
  if (path)
    *d = '\0';
  return path;
}
