/* A program that changes its working directory before it ends: a relative
 * PASTA_OUTPUT (or the default name) still names a file in the directory
 * it was started in (tests/run_safe_io.sh, group process).
 *   chdir_exit chdir DIR  ends in DIR
 *   chdir_exit rmcwd      ends in a directory it made and removed
 *   chdir_exit wait       prints nothing, ends after 0.3 s (the reader of
 *                         its stderr pipe is gone by then) */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double twice(double x) { return 2 * x; }

int main(int argc, char **argv) {
  if (argc >= 3 && strcmp(argv[1], "chdir") == 0) {
    if (chdir(argv[2]) != 0)
      return 1;
  } else if (argc >= 2 && strcmp(argv[1], "rmcwd") == 0) {
    if (mkdir("gone", 0700) != 0 || chdir("gone") != 0 || rmdir("../gone"))
      return 1;
  } else if (argc >= 2 && strcmp(argv[1], "wait") == 0) {
    struct timespec t = {0, 300000000};
    nanosleep(&t, NULL);
    return twice(21) == 42 ? 0 : 1;
  } else {
    return 2;
  }
  printf("%g\n", twice(21));
  return 0;
}
