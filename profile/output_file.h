/*===- output_file.h - Write an output file, clobbering nothing ----------===*
 *
 * One function writes every file PASTA produces (the runtime's profile and
 * the files next to it; pasta-report's outputs): plain libc, no pthread.
 *
 *   char *written = NULL;
 *   char err[512];
 *   if (pasta__output_write("same.json", PASTA_OUTPUT_UNIQUE, &start,
 *                          my_writer, my_data, &written, err, sizeof err))
 *     fprintf(stderr, "tool: error: cannot write the profile: %s\n", err);
 *   else if (strcmp(written, "same.json") != 0)
 *     fprintf(stderr, "tool: warning: ... written to %s instead\n", written);
 *   free(written);
 *
 * What is at `path` decides what happens; nothing but a regular file is ever
 * replaced:
 *  - nothing: the file is created;
 *  - a regular file (or a symbolic link to one, which is followed and kept):
 *    replaced or kept according to `mode` (below);
 *  - /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: written into
 *    that file descriptor of this process, whatever it is;
 *  - a named pipe (fifo): written into, when a process reads it (otherwise
 *    an error; the caller is never blocked waiting for a reader);
 *  - /dev/null (the device, under any name): written into, i.e. discarded;
 *  - any other device, a directory, a socket, a link to a missing file: an
 *    error, and nothing is written.
 * Files are written to a unique temporary name in the same directory
 * (mkstemp) and then linked or renamed into place, so a reader never sees a
 * partial file and a failed write leaves what was there. A new file gets
 * mode 0666 minus the umask; a replaced file keeps its mode.
 *
 * Modes, when a regular file is there:
 *  - PASTA_OUTPUT_REPLACE: replace it (an explicit --force).
 *  - PASTA_OUTPUT_EXCLUSIVE: keep it and fail with "... exists".
 *  - PASTA_OUTPUT_UNIQUE: replace it if it was last modified before `since`
 *    (the caller's start: a file of an earlier run); keep a newer one
 *    (another process of the same job, e.g. a forked child or another rank,
 *    wrote it) and write <stem>.1<ext>, <stem>.2<ext>, ... instead (the
 *    first that is free or older than `since`). `since` NULL: never
 *    replace.
 *
 * Returns 0 and sets *written (malloc'd; the caller frees it) to the path
 * actually written, or -1 with one line in err (no trailing newline) that
 * names the path and says what was wrong. Either way errno is preserved.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_HOST_RT_OUTPUT_FILE_H
#define PASTA_HOST_RT_OUTPUT_FILE_H

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

/* Writes the file's contents to f; returns 0, or non-zero on failure. */
typedef int (*pasta_output_writer)(FILE *f, const void *arg);

int pasta__output_write(const char *path, enum pasta_output_mode mode,
                        const struct timespec *since, pasta_output_writer write,
                        const void *arg, char **written, char *err,
                        size_t errsize);

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
 * (pids repeat across nodes, ranks do not). malloc'd, or NULL without
 * memory. */
char *pasta__output_expand(const char *pattern, const char *program,
                           const pasta_output_names *names);

#ifdef __cplusplus
}
#endif

#endif
