/* A program that closes fd 2 and opens a file of its own, which gets fd 2
 * (the lowest free descriptor): PASTA's tables at exit must not go into it
 * (tests/run_safe_io.sh, group small). */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static double twice(double x) { return 2 * x; }

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  close(2);
  int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd != 2)
    return 1;
  const char data[] = "the program's data\n";
  if (write(fd, data, strlen(data)) != (ssize_t)strlen(data))
    return 1;
  printf("%g\n", twice(21));
  return 0;
}
