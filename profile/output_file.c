/*===- output_file.c - Files PASTA writes and reads, safely ---------------===*
 *
 * See output_file.h for what happens to what is at the path.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* realpath, mkstemp, fdopen, fchmod under C11 */

#include "output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { MAX_UNIQUE = 1000, SHORT = 200, MAX_PROGRAM = 200 };

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

char *pasta__sibling_path(const char *json, const char *suffix) {
  size_t n = strlen(json);
  if (n >= 5 && strcmp(json + n - 5, ".json") == 0)
    n -= 5;
  char *path = malloc(n + strlen(suffix) + 1);
  if (path) {
    memcpy(path, json, n);
    strcpy(path + n, suffix);
  }
  return path;
}

const char *pasta__short_path(const char *path, char *out, size_t size) {
  size_t n = strlen(path);
  if (size < 16 || n < size) {
    snprintf(out, size, "%s", path);
    return out;
  }
  size_t half = (size - 4) / 2;
  snprintf(out, size, "%.*s...%s", (int)half, path, path + n - half);
  return out;
}

/*===-- What is ours ------------------------------------------------------===*/

/* The first bytes of every file of each kind its writer makes. */
static const char *const signatures[] = {
    [PASTA_FILE_PROFILE] = "{\"schema\":\"pasta-profile\",\"version\":",
    [PASTA_FILE_HTML] = PASTA_HTML_SIGNATURE,
    [PASTA_FILE_SVG] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "
                       "xmlns=\"http://www.w3.org/2000/svg\" ",
    [PASTA_FILE_HOTNESS_CSV] =
        "launch,kernel,allocation,block,block_address,accesses\n",
    [PASTA_FILE_CATS] = "{\"format\":\"pasta-cats\",",
    [PASTA_FILE_CHROME_TRACE] = "{\"traceEvents\":[\n",
};
enum { NUM_KINDS = sizeof signatures / sizeof *signatures };

const char *pasta__output_kind_name(enum pasta_output_kind kind) {
  switch (kind) {
  case PASTA_FILE_ANY:
    return "a regular file";
  case PASTA_FILE_PASTA:
    return "a PASTA output";
  case PASTA_FILE_PROFILE:
    return "a PASTA profile";
  case PASTA_FILE_HTML:
    return "a PASTA HTML report";
  case PASTA_FILE_SVG:
    return "a PASTA picture";
  case PASTA_FILE_HOTNESS_CSV:
    return "a PASTA hotness map";
  case PASTA_FILE_CATS:
    return "a PASTA C.A.T.S. trace";
  case PASTA_FILE_CHROME_TRACE:
    return "a PASTA Chrome trace";
  }
  return "a PASTA output";
}

enum pasta_output_kind pasta__output_kind_of_suffix(const char *suffix) {
  static const struct {
    const char *suffix;
    enum pasta_output_kind kind;
  } known[] = {
      {".json", PASTA_FILE_PROFILE},
      {".html", PASTA_FILE_HTML},
      {".roofline.svg", PASTA_FILE_SVG},
      {".hotness.svg", PASTA_FILE_SVG},
      {".hotness.csv", PASTA_FILE_HOTNESS_CSV},
      {".cats", PASTA_FILE_CATS},
      {".trace.json", PASTA_FILE_CHROME_TRACE},
  };
  for (size_t i = 0; suffix && i < sizeof known / sizeof *known; ++i)
    if (strcmp(suffix, known[i].suffix) == 0)
      return known[i].kind;
  return PASTA_FILE_ANY;
}

static int starts_with(const char *buf, size_t n, const char *sig) {
  size_t len = strlen(sig);
  return n >= len && memcmp(buf, sig, len) == 0;
}

/* Whether what is at `path` (lstat'd: *lst) may be replaced as `kind`: an
 * empty regular file or one that starts like that kind; any symbolic link
 * (the link is replaced, what it names is never touched: a link is no
 * data). Never blocks: only a regular file is opened, with O_NOFOLLOW. */
static int ours(const char *path, const struct stat *lst,
                enum pasta_output_kind kind) {
  if (S_ISLNK(lst->st_mode))
    return 1;
  if (!S_ISREG(lst->st_mode))
    return 0;
  if (kind == PASTA_FILE_ANY)
    return 1;
  int fd =
      open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return 0;
  struct stat st;
  char buf[512];
  ssize_t n = fstat(fd, &st) == 0 && S_ISREG(st.st_mode)
                  ? read(fd, buf, sizeof buf)
                  : -1;
  close(fd);
  if (n < 0)
    return 0;
  if (n == 0)
    return 1;
  /* The JSON kinds also as a pretty-printer (jq, json.dump) rewrote them:
   * without blanks (there are none inside the signatures' strings). */
  char compact[sizeof buf];
  size_t c = 0;
  for (ssize_t i = 0; i < n; ++i)
    if (!strchr(" \t\r\n", buf[i]) || !buf[i])
      compact[c++] = buf[i];
  for (size_t k = 0; k < NUM_KINDS; ++k)
    if (signatures[k] && (kind == PASTA_FILE_PASTA || (size_t)kind == k) &&
        (starts_with(buf, (size_t)n, signatures[k]) ||
         (signatures[k][0] == '{' && starts_with(compact, c, signatures[k]))))
      return 1;
  return 0;
}

/*===-- Writing -----------------------------------------------------------===*/

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
  char shown[SHORT];
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f) {
    say(err, errsize, "cannot write to %s: %s",
        pasta__short_path(path, shown, sizeof shown), strerror(errno));
    if (fd >= 0)
      close(fd);
    return -1;
  }
  /* Profiles are written in one pass: larger blocks, fewer calls (glibc
   * takes a size only with a buffer). */
  enum { BUFFER = 1 << 16 };
  char *buffer = malloc(BUFFER);
  if (buffer)
    setvbuf(f, buffer, _IOFBF, BUFFER);
  errno = 0;
  int failed = write(f, arg) != 0 || fflush(f) != 0;
  int e = errno ? errno : EIO;
  if (fclose(f) != 0 && !failed) {
    failed = 1;
    e = errno ? errno : EIO;
  }
  free(buffer);
  if (failed)
    say(err, errsize, "cannot write to %s: %s",
        pasta__short_path(path, shown, sizeof shown), strerror(e));
  return failed ? -1 : 0;
}

/* 0666 minus the process's umask, read without changing it (umask(2)
 * would change it for the program's other threads meanwhile); 0600 when it
 * cannot be read (no /proc): never more than the user's files get. */
static mode_t new_file_mode(void) {
  mode_t mask = 077;
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

/* Whether *st was last modified before since. */
static int older_than(const struct stat *st, const struct timespec *since) {
  if (!since)
    return 0;
  if (st->st_mtim.tv_sec != since->tv_sec)
    return st->st_mtim.tv_sec < since->tv_sec;
  return st->st_mtim.tv_nsec < since->tv_nsec;
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
  int fd = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
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

/* Renames the temporary file over what is at `at` (lstat'd: *lst). A
 * regular file of this user's keeps its permissions (not set-user-ID,
 * set-group-ID or sticky bits); another user's file (a shared directory)
 * is replaced by a file with a new file's mode, never with the other
 * user's permissions. 0, or -1 with errno set. */
static int replace(const char *tmp, const char *at, const struct stat *lst) {
  if (S_ISREG(lst->st_mode) && lst->st_uid == geteuid())
    chmod(tmp, lst->st_mode & 0777);
  return rename(tmp, at);
}

/* The temporary file is complete: installs it at `target` per `how`. */
static int install(const char *tmp, const char *target,
                   const pasta_output_how *how, char **written, char *err,
                   size_t errsize) {
  char shown[SHORT], why[SHORT + 128] = "";
  const char *kind = pasta__output_kind_name(how->kind);
  char hint[96] = "";
  if (how->keep_hint)
    snprintf(hint, sizeof hint, " (%s replaces it)", how->keep_hint);
  for (unsigned n = 0; n < MAX_UNIQUE; ++n) {
    char *at = n ? numbered(target, n) : dup_string(target);
    if (!at) {
      say(err, errsize, "cannot write %s: %s",
          pasta__short_path(target, shown, sizeof shown), strerror(ENOMEM));
      return -1;
    }
    pasta__short_path(at, shown, sizeof shown);
    int rc = place_new(tmp, at);
    struct stat lst;
    if (rc == 0) {
      unlink(tmp);
      *written = at;
      if (n)
        say(err, errsize, "%s", why);
      return 0;
    }
    if (rc == 1 && lstat(at, &lst) != 0) {
      rc = -1; /* gone again: only a race gets here */
      errno = errno == ENOENT ? EAGAIN : errno;
    }
    if (rc < 0) {
      say(err, errsize, "cannot create %s: %s", shown, strerror(errno));
      free(at);
      return -1;
    }
    /* Something is at `at`. A regular file write-protected by its owner
     * (chmod a-w: a baseline kept on purpose), or one this process may
     * not write, is kept unless any file may be replaced (--force,
     * PASTA_OVERWRITE=1): rename would replace it all the same. */
    int locked = S_ISREG(lst.st_mode) && how->kind != PASTA_FILE_ANY &&
                 (!(lst.st_mode & 0222) || access(at, W_OK) != 0);
    int is_ours = !locked && ours(at, &lst, how->kind);
    if (how->mode == PASTA_OUTPUT_EXCLUSIVE) {
      say(err, errsize, "%s exists", shown);
    } else if (how->mode == PASTA_OUTPUT_REPLACE) {
      if (is_ours && replace(tmp, at, &lst) == 0) {
        *written = at;
        return 0;
      }
      if (is_ours)
        say(err, errsize, "cannot replace %s: %s", shown, strerror(errno));
      else if (locked)
        say(err, errsize, "%s exists and is not writable%s", shown, hint);
      else
        say(err, errsize, "%s exists and is not %s%s", shown, kind, hint);
    } else if (is_ours &&
               (S_ISLNK(lst.st_mode) || older_than(&lst, how->since))) {
      /* A link is never another process's output (those are renamed into
       * place as regular files), whenever it was made. */
      if (replace(tmp, at, &lst) == 0) {
        *written = at;
        if (n)
          say(err, errsize, "%s", why);
        return 0;
      }
      /* Not ours to replace after all (another user's, in a sticky
       * directory): kept, like any other. */
      if (!n)
        snprintf(why, sizeof why, "%s cannot be replaced (%s)", shown,
                 strerror(errno));
      free(at);
      continue;
    } else {
      if (!n && locked)
        snprintf(why, sizeof why, "%s is not writable%s", shown, hint);
      else if (!n && !is_ours)
        snprintf(why, sizeof why, "%s is not %s%s", shown, kind, hint);
      else if (!n)
        snprintf(why, sizeof why,
                 "%s was written by another process since this one started",
                 shown);
      free(at);
      continue;
    }
    free(at);
    return -1;
  }
  say(err, errsize,
      "%s and %u numbered names after it are taken (written by other "
      "processes since this one started, or not %s)",
      pasta__short_path(target, shown, sizeof shown), (unsigned)MAX_UNIQUE - 1,
      kind);
  return -1;
}

/* A regular file (or a link, or nothing): written to a fresh temporary
 * file next to `target`, then put in place. */
static int write_regular(const char *target, const pasta_output_how *how,
                         pasta_output_writer write, const void *arg,
                         char **written, char *err, size_t errsize) {
  const char *slash = strrchr(target, '/');
  const char *base = slash ? slash + 1 : target;
  int dirlen = slash ? (int)(slash - target) : 1;
  const char *dir = slash ? target : ".";
  if (slash && slash == target)
    dirlen = 1; /* "/name" */
  size_t size = strlen(target) + 64;
  char *tmp = malloc(size), shown[SHORT];
  if (!tmp) {
    say(err, errsize, "cannot write %s: %s",
        pasta__short_path(target, shown, sizeof shown), strerror(ENOMEM));
    return -1;
  }
  /* Short enough for NAME_MAX whatever the base name. */
  snprintf(tmp, size, "%.*s/.%.64s.pasta-XXXXXX", dirlen, dir, base);
  int fd = mkostemp(tmp, O_CLOEXEC);
  if (fd >= 0 && fd <= 2) {
    /* A program that closed stdin, stdout or stderr: the file would get
     * that descriptor, and anything printed to it until the end would land
     * in the file. */
    int high = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    close(fd);
    fd = high;
    if (fd < 0)
      unlink(tmp);
  }
  if (fd < 0) {
    int e = errno;
    char d[SHORT];
    snprintf(d, sizeof d, "%.*s", dirlen < SHORT ? dirlen : SHORT - 1, dir);
    if (dirlen >= SHORT) {
      char *full = malloc((size_t)dirlen + 1);
      if (full) {
        snprintf(full, (size_t)dirlen + 1, "%.*s", dirlen, dir);
        pasta__short_path(full, d, sizeof d);
        free(full);
      }
    }
    say(err, errsize, "cannot create a file in %s: %s", d, strerror(e));
    free(tmp);
    return -1;
  }
  fchmod(fd, new_file_mode());
  int rc = write_fd(fd, target, write, arg, err, errsize);
  if (rc == 0)
    rc = install(tmp, target, how, written, err, errsize);
  if (rc != 0)
    unlink(tmp);
  free(tmp);
  return rc;
}

static int write_into(const char *path, int flags, pasta_output_writer write,
                      const void *arg, char **written, char *err,
                      size_t errsize) {
  char shown[SHORT];
  pasta__short_path(path, shown, sizeof shown);
  int fd = open(path, O_WRONLY | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC | flags);
  if (fd < 0) {
    if (errno == ENXIO)
      say(err, errsize, "%s is a named pipe that no process is reading", shown);
    else
      say(err, errsize, "cannot open %s: %s", shown, strerror(errno));
    return -1;
  }
  if (flags & O_NONBLOCK)
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  if (write_fd(fd, path, write, arg, err, errsize))
    return -1;
  *written = dup_string(path);
  return *written ? 0 : -1;
}

int pasta__is_fd_alias(const char *path) { return path && fd_alias(path) >= 0; }

int pasta__is_null_device(const char *path) {
  struct stat st, null;
  return path && stat(path, &st) == 0 && S_ISCHR(st.st_mode) &&
         stat("/dev/null", &null) == 0 && S_ISCHR(null.st_mode) &&
         null.st_rdev == st.st_rdev;
}

static int write_any(const char *path, const pasta_output_how *how,
                     pasta_output_writer write, const void *arg, char **written,
                     char *err, size_t errsize) {
  char shown[SHORT];
  if (!*path) {
    say(err, errsize, "the file name is empty");
    return -1;
  }
  pasta__short_path(path, shown, sizeof shown);
  int alias = fd_alias(path);
  if (alias >= 0) {
    int fd = fcntl(alias, F_DUPFD_CLOEXEC, 3);
    if (fd < 0) {
      say(err, errsize, "cannot write to %s: %s", shown, strerror(errno));
      return -1;
    }
    if (write_fd(fd, path, write, arg, err, errsize))
      return -1;
    *written = dup_string(path);
    return *written ? 0 : -1;
  }
  /* What is at the name itself: a link there is never followed. */
  struct stat lst;
  if (lstat(path, &lst) != 0) {
    if (errno != ENOENT) {
      say(err, errsize, "cannot write %s: %s", shown, strerror(errno));
      return -1;
    }
    return write_regular(path, how, write, arg, written, err, errsize);
  }
  if (S_ISREG(lst.st_mode) || S_ISLNK(lst.st_mode))
    return write_regular(path, how, write, arg, written, err, errsize);
  if (S_ISFIFO(lst.st_mode))
    return write_into(path, O_NONBLOCK, write, arg, written, err, errsize);
  if (S_ISCHR(lst.st_mode)) {
    if (pasta__is_null_device(path))
      return write_into(path, 0, write, arg, written, err, errsize);
    say(err, errsize, "%s is a device, not a file; nothing was written to it",
        shown);
    return -1;
  }
  say(err, errsize, "%s is %s, not a file", shown,
      S_ISDIR(lst.st_mode)    ? "a directory"
      : S_ISBLK(lst.st_mode)  ? "a block device"
      : S_ISSOCK(lst.st_mode) ? "a socket"
                              : "something else");
  return -1;
}

int pasta__output_write(const char *path, const pasta_output_how *how,
                        pasta_output_writer write, const void *arg,
                        char **written, char *err, size_t errsize) {
  int saved = errno;
  *written = NULL;
  if (err && errsize)
    *err = '\0';
  /* Under a file size limit (ulimit -f), a write past it raises SIGXFSZ,
   * which by default kills the process: at exit, the program would end
   * with a signal instead of its own status, leaving the temporary file.
   * Ignored meanwhile, the write fails with EFBIG instead (one error line);
   * a handler of the program's is left as it is. */
  struct sigaction ignore = {.sa_handler = SIG_IGN}, old;
  int xfsz = sigaction(SIGXFSZ, NULL, &old) == 0 && old.sa_handler == SIG_DFL &&
             !(old.sa_flags & SA_SIGINFO) &&
             sigaction(SIGXFSZ, &ignore, NULL) == 0;
  int rc = path && write && how
               ? write_any(path, how, write, arg, written, err, errsize)
               : (say(err, errsize, "no file name"), -1);
  if (xfsz)
    sigaction(SIGXFSZ, &old, NULL);
  if (rc == 0 && !*written) {
    char shown[SHORT];
    say(err, errsize, "%s: %s", pasta__short_path(path, shown, sizeof shown),
        strerror(ENOMEM));
    rc = -1;
  }
  errno = saved;
  return rc;
}

/*===-- Reading and comparing ---------------------------------------------===*/

int pasta__same_file(const char *a, const char *b) {
  struct stat sa, sb;
  return a && b && stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
         sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Why a file of mode `mode` is not read, or NULL when it may be. */
static const char *unreadable(mode_t mode) {
  if (S_ISDIR(mode))
    return "a directory, not a file";
  if (S_ISCHR(mode) || S_ISBLK(mode))
    return "a device, not a file (devices are never read)";
  return NULL;
}

char *pasta__read_capped(const char *path, size_t cap, size_t *len, char *err,
                         size_t errsize) {
  struct stat st;
  const char *why = NULL;
  if (stat(path, &st) == 0 && (why = unreadable(st.st_mode)) != NULL) {
    say(err, errsize, "%s", why);
    errno = EINVAL;
    return NULL;
  }
  int fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0 || fstat(fd, &st) != 0 || (why = unreadable(st.st_mode))) {
    int e = fd < 0 ? errno : why ? EINVAL : errno;
    say(err, errsize, "%s", why ? why : strerror(e));
    if (fd >= 0)
      close(fd);
    errno = e;
    return NULL;
  }
  int too_big = S_ISREG(st.st_mode) && (uint64_t)st.st_size > (uint64_t)cap;
  size_t n = 0, size = S_ISREG(st.st_mode) && !too_big ? (size_t)st.st_size + 1
                                                       : 65536;
  char *buf = too_big ? NULL : malloc(size + 1);
  int e = too_big ? EFBIG : buf ? 0 : ENOMEM;
  while (!e) {
    if (n == size) {
      size_t bigger = size > cap / 2 ? cap + 1 : size * 2;
      char *b = bigger > size ? realloc(buf, bigger + 1) : NULL;
      if (!b) {
        e = bigger > size ? ENOMEM : EFBIG;
        break;
      }
      buf = b;
      size = bigger;
    }
    ssize_t got = read(fd, buf + n, size - n);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0)
      e = errno;
    else if (got == 0)
      break;
    else if ((n += (size_t)got) > cap)
      e = EFBIG;
  }
  close(fd);
  if (e) {
    free(buf);
    if (e == EFBIG)
      say(err, errsize, "larger than the %zu MiB limit on what is read",
          cap >> 20);
    else
      say(err, errsize, "%s", strerror(e));
    errno = e;
    return NULL;
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

char *pasta__path_within(const char *path, const char *const *roots) {
  char *real = realpath(path, NULL);
  for (size_t i = 0; real && roots && roots[i]; ++i) {
    size_t n = strlen(roots[i]);
    while (n > 1 && roots[i][n - 1] == '/')
      --n;
    if (n == 1 && roots[i][0] == '/')
      return real;
    if (strncmp(real, roots[i], n) == 0 && (real[n] == '/' || !real[n]))
      return real;
  }
  free(real);
  return NULL;
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
    /* The program's last path component (argv[0] is whatever the program's
     * parent passed: "dir/", "a/b//" name no directory here), at most
     * MAX_PROGRAM bytes of it, so the name stays one file name in the
     * current directory that the file system takes. */
    const char *base = program ? program : "";
    size_t len = strlen(base);
    while (len && base[len - 1] == '/')
      --len;
    const char *start = base;
    for (size_t i = 0; i < len; ++i)
      if (base[i] == '/')
        start = base + i + 1;
    len -= (size_t)(start - base);
    if (!len) {
      start = "unknown";
      len = strlen(start);
    }
    if (len > MAX_PROGRAM)
      len = MAX_PROGRAM;
    size_t size = len + sizeof rank + sizeof pid + sizeof "pasta--rank.json";
    char *path = malloc(size);
    if (path && names->rank >= 0)
      snprintf(path, size, "pasta-%.*s-rank%s.json", (int)len, start, rank);
    else if (path)
      snprintf(path, size, "pasta-%.*s-%s.json", (int)len, start, pid);
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
