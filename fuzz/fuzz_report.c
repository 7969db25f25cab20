/*===- fuzz_report.c - libFuzzer target: profile reader and pasta-report --===*
 *
 * The input is one JSON profile, or two separated by a NUL byte (a profile
 * never holds one). Both are written to files and pasta-report itself
 * (pasta__report_main, pasta_report.h) runs on them as a user would:
 * show (table, csv, csv --lines, json, filtered), diff, html (the report
 * and the --diff page) and merge (of the two files, of a directory and of a
 * glob pattern). Then the invariant:
 * whatever merge writes, show must read back (a profile pasta-report wrote
 * that it cannot read is a bug). Sanitizers catch the rest. Run it with
 * -close_fd_mask=3: pasta-report prints to stdout and stderr.
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "tools/pasta-report/pasta_report.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64], path_a[96], path_b[96], path_out[96], pattern[96];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The temporary directory goes when the fuzzer exits normally. */
static void cleanup(void) {
  char out_dir[96];
  snprintf(out_dir, sizeof out_dir, "%s/out", dir);
  remove(path_out);
  remove(out_dir);
  remove(path_a);
  remove(path_b);
  remove(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  snprintf(dir, sizeof dir, "/tmp/pasta-fuzz-report-XXXXXX");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    abort();
  }
  snprintf(path_a, sizeof path_a, "%s/a.json", dir);
  snprintf(path_b, sizeof path_b, "%s/b.json", dir);
  snprintf(path_out, sizeof path_out, "%s/out/merged.json", dir);
  snprintf(pattern, sizeof pattern, "%s/*.json", dir);
  char out_dir[96];
  snprintf(out_dir, sizeof out_dir, "%s/out", dir);
  if (mkdir(out_dir, 0700) != 0) {
    perror("mkdir");
    abort();
  }
  atexit(cleanup);
  return 0;
}

static void write_file(const char *path, const uint8_t *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
    perror(path);
    abort();
  }
}

/* Runs pasta-report with the NULL-terminated arguments; returns its exit
 * status. */
static int report(const char *first, ...) {
  char *argv[16];
  int argc = 0;
  argv[argc++] = (char *)"pasta-report";
  va_list ap;
  va_start(ap, first);
  for (const char *a = first; a && argc < 15; a = va_arg(ap, const char *))
    argv[argc++] = (char *)a;
  va_end(ap);
  argv[argc] = NULL;
  int rc = pasta__report_main(argc, argv);
  fflush(stdout);
  return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const uint8_t *sep = memchr(data, '\0', size);
  size_t size_a = sep ? (size_t)(sep - data) : size;
  write_file(path_a, data, size_a);
  if (sep)
    write_file(path_b, sep + 1, size - size_a - 1);
  else
    write_file(path_b, data, size);

  if (report("show", path_a, NULL) == 0) {
    report("show", path_a, "--format", "csv", NULL);
    report("show", path_a, "--format", "csv", "--lines", "--top", "3", NULL);
    report("show", path_a, "--format", "json", NULL);
    report("show", path_a, "--kernel", "a|_Z", "--file", ".c", NULL);
  }
  report("diff", path_a, path_b, "--top", "5", NULL);
  /* The HTML pages (their source files are whatever the profile names). */
  report("html", path_a, "-o", path_out, NULL);
  report("html", "--diff", path_a, path_b, "-o", path_out, NULL);
  remove(path_out);
  /* merge of the two files; what it wrote must read back. */
  remove(path_out);
  if (report("merge", path_out, path_a, path_b, NULL) == 0 &&
      report("show", path_out, "--format", "json", NULL) != 0) {
    fprintf(stderr, "fuzz_report: show cannot read what merge wrote\n");
    abort();
  }
  /* a directory and a glob pattern as inputs (the output is elsewhere) */
  report("merge", path_out, dir, "--force", NULL);
  report("merge", path_out, pattern, "--force", NULL);
  remove(path_out);
  return 0;
}
