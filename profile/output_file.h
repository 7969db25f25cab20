/*===- output_file.h - Files PASTA writes and reads, safely ---------------===*
 *
 * The one place for file safety, used by the runtime (host_rt) and the
 * tools alike: plain libc, no pthread.
 *
 * Writing (pasta__output_write): every file PASTA produces (the runtime's
 * profile and the files next to it; pasta-report's outputs).
 *
 *   char *written = NULL;
 *   char err[512];
 *   pasta_output_how how = {PASTA_OUTPUT_UNIQUE, PASTA_FILE_PROFILE, &start,
 *                           "PASTA_OVERWRITE=1"};
 *   if (pasta__output_write("same.json", &how, my_writer, my_data, &written,
 *                           err, sizeof err))
 *     fprintf(stderr, "tool: error: cannot write the profile: %s\n", err);
 *   else if (strcmp(written, "same.json") != 0)
 *     fprintf(stderr, "tool: warning: %s; written to %s instead\n", err,
 *             written);
 *   free(written);
 *
 * The name is never opened for writing: the file is written to a fresh
 * temporary file in the same directory (mkstemp: O_CREAT | O_EXCL, a name
 * no one can have planted) and then linked or renamed into place, so a
 * reader never sees a partial file, a failed write leaves what was there,
 * and a symbolic link at the name is replaced, never followed (its target
 * is never written). A new file gets mode 0666 minus the umask (0600 when
 * the umask cannot be read); a replaced regular file of this user's keeps
 * its permission bits (0777), another user's gets a new file's mode. The
 * temporary file never takes descriptor 0, 1 or 2 (a program that closed
 * them), and a file size limit (SIGXFSZ) makes the write fail, never kills
 * the process. What is at `path` decides what happens:
 *  - nothing: the file is created;
 *  - a regular file, or a symbolic link (to anything): replaced if it is
 *    "ours" (below), else per mode;
 *  - /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N (these names):
 *    written into that file descriptor of this process, whatever it is;
 *  - a named pipe (fifo), not through a link: written into, when a process
 *    reads it (otherwise an error; the caller is never blocked);
 *  - the null device (under any name, not through a link): written into,
 *    i.e. discarded;
 *  - any other device, a directory, a socket: an error, nothing written.
 *
 * "Ours", by `kind`: an empty regular file, or one whose first bytes are
 * those every file of that kind starts with (a PASTA profile's
 * {"schema":"pasta-profile","version":, the HTML report's head, ...);
 * PASTA_FILE_ANY: any regular file (an explicit --force or
 * PASTA_OVERWRITE=1). A regular file without write permission (chmod a-w,
 * or not writable by this process) is never ours but for PASTA_FILE_ANY:
 * "... is not writable". A symbolic link is always ours: the link, not its
 * target, is replaced (in a sticky directory, another user's link cannot
 * be: PASTA_OUTPUT_UNIQUE then uses a numbered name, the others fail).
 *
 * Modes, when something is at the path:
 *  - PASTA_OUTPUT_REPLACE: replace it if it is ours; else fail with
 *    "... is not a <kind> ...".
 *  - PASTA_OUTPUT_EXCLUSIVE: keep it and fail with "... exists".
 *  - PASTA_OUTPUT_UNIQUE: replace it if it is a link, or ours and last
 *    modified before `since` (the caller's start: a file of an earlier
 *    run); keep
 *    anything else (a newer file: another process of the same job, e.g. a
 *    forked child or another rank, wrote it; a file that is not ours) and
 *    write <stem>.1<ext>, <stem>.2<ext>, ... instead (the first that is free
 *    or ours and older than `since`); err then says why the name was not
 *    used. `since` NULL: never replace.
 *
 * Returns 0 and sets *written (malloc'd; the caller frees it) to the path
 * actually written, or -1 with one line in err (no trailing newline) that
 * names the path and says what was wrong; paths in messages are shortened
 * to their first and last characters when long, so the reason is never
 * cut off. Either way errno is preserved.
 *
 * Reading and comparing: pasta__same_file (identity, not names),
 * pasta__read_capped (a whole file, never a device, never more than a
 * limit) and pasta__path_within (a path, resolved, under a directory).
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_PROFILE_OUTPUT_FILE_H
#define PASTA_PROFILE_OUTPUT_FILE_H

#include <stddef.h>
#include <stdio.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

enum pasta_output_mode {
  PASTA_OUTPUT_REPLACE,
  PASTA_OUTPUT_EXCLUSIVE,
  PASTA_OUTPUT_UNIQUE,
};

/* What an existing file at the path must be to be replaced. */
enum pasta_output_kind {
  PASTA_FILE_ANY,          /* any regular file (--force, PASTA_OVERWRITE) */
  PASTA_FILE_PASTA,        /* a file of any of the kinds below */
  PASTA_FILE_PROFILE,      /* a PASTA profile (JSON) */
  PASTA_FILE_HTML,         /* an HTML report */
  PASTA_FILE_SVG,          /* a roofline or hotness picture */
  PASTA_FILE_HOTNESS_CSV,  /* a hotness map */
  PASTA_FILE_CATS,         /* a C.A.T.S. trace */
  PASTA_FILE_CHROME_TRACE, /* a Chrome trace */
};

/* The first bytes of every HTML report (analyzers/html writes them). */
#define PASTA_HTML_SIGNATURE                                                   \
  "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"    \
  "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "        \
  "'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "            \
  "img-src data:\">\n"

/* "a PASTA profile", "an HTML report", ...: for messages. */
const char *pasta__output_kind_name(enum pasta_output_kind kind);

/* The kind of a file the runtime writes beside its profile, from its
 * suffix (".html", ".roofline.svg", ...); PASTA_FILE_ANY for a suffix of
 * no built-in output (another analyzer's, whose format PASTA cannot
 * recognise: its file of an earlier run is replaced). */
enum pasta_output_kind pasta__output_kind_of_suffix(const char *suffix);

typedef struct pasta_output_how {
  enum pasta_output_mode mode;
  enum pasta_output_kind kind;
  const struct timespec *since; /* PASTA_OUTPUT_UNIQUE */
  /* What makes PASTA replace a file it kept because it is not writable or
   * not a PASTA output of `kind` ("PASTA_OVERWRITE=1", "--force"): the
   * reason in err then ends with " (<keep_hint> replaces it)". NULL: no
   * hint. */
  const char *keep_hint;
} pasta_output_how;

/* Writes the file's contents to f; returns 0, or non-zero on failure. */
typedef int (*pasta_output_writer)(FILE *f, const void *arg);

/* See above. On success, when *written is not `path`, err says why. */
int pasta__output_write(const char *path, const pasta_output_how *how,
                        pasta_output_writer write, const void *arg,
                        char **written, char *err, size_t errsize);

/* Whether `path` is the null device (under any name). */
int pasta__is_null_device(const char *path);

/* Whether `path` names a descriptor of this process: /dev/stdout,
 * /dev/stderr, /dev/fd/N, /proc/self/fd/N (written into, not replaced). */
int pasta__is_fd_alias(const char *path);

/* Whether `a` and `b` name the same file (device and inode, after
 * following links), whatever their names; 0 when either does not exist. */
int pasta__same_file(const char *a, const char *b);

/* The file beside the profile `json`: <json without .json><suffix>,
 * malloc'd; NULL without memory. */
char *pasta__sibling_path(const char *json, const char *suffix);

/* `path` made short enough for a message: itself when at most `size` - 1
 * bytes, else its first and last characters around "...". Returns out. */
const char *pasta__short_path(const char *path, char *out, size_t size);

/* The whole file at `path`, NUL-terminated (*len bytes before the NUL),
 * malloc'd; or NULL with one line in err. Only what a reader can come to
 * the end of is read: a regular file of at most `cap` bytes, or a pipe,
 * fifo or socket, read until `cap` bytes; a directory or a device
 * (/dev/zero, a terminal) is refused without reading, and so is a larger
 * file ("... is larger than the N MiB limit"). errno is set on failure. */
char *pasta__read_capped(const char *path, size_t cap, size_t *len, char *err,
                         size_t errsize);

/* Profiles and the other inputs of pasta-report: at most this many bytes. */
#define PASTA_MAX_INPUT_BYTES ((size_t)4 << 30)

/* The real path (realpath: "..", "." and every link resolved) of `path` when
 * it lies under one of the NULL-ended `roots` (real paths themselves), else
 * NULL (also when it does not exist). malloc'd. */
char *pasta__path_within(const char *path, const char *const *roots);

/* What a profile's path may name: its process, rank and host. */
typedef struct pasta_output_names {
  long pid;
  long long rank;   /* -1: not part of a job */
  const char *host; /* NULL when unknown */
} pasta_output_names;

/* `pattern` (PASTA_OUTPUT) with every %p replaced by the pid, %r by the
 * rank (0 outside a job: a job of one) and %h by the host name up to its
 * first dot ("unknown" when unknown, a '/' in it as '_'); any other % is
 * left as it is. Without a pattern, the default name:
 * pasta-<program>-<pid>.json, or in a job pasta-<program>-rank<rank>.json
 * (pids repeat across nodes, ranks do not), <program> being the last
 * component of `program` (trailing slashes dropped), at most 200 bytes.
 * malloc'd, or NULL without memory. */
char *pasta__output_expand(const char *pattern, const char *program,
                           const pasta_output_names *names);

#ifdef __cplusplus
}
#endif

#endif
