// nvcc's dialect in a host C++ file (driver/nvcc_command.c,
// dialect_warnings): nvcc compiles a .cpp with g++, which takes the
// `register` storage class and a class object passed to a variadic
// function (a logger given a std::string for its %s; a Huffman coder's
// decompress.cpp). pasta-nvcc compiles each host file with clang, which
// made both errors; now warnings, as in its CUDA files. Built with
// nvcc_dialect_kernel.cu in one command, as that coder's build does, and
// alone with -c (ctests nvcc-dialect-host, nvcc-dialect-host-only).
#include <cstdarg>
#include <cstdio>
#include <string>

void launch_doubled(int *values, int n);

static void log_it(int level, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  if (level > 1)
    vfprintf(stderr, format, ap);
  va_end(ap);
}

int main(int argc, char **argv) {
  std::string name = argc > 1 ? argv[1] : "input";
  if (argc > 99) // never run: clang's call would abort
    log_it(2, "cannot read %s\n", name);
  register int n = 32;
  int values[32];
  for (register int i = 0; i < n; ++i)
    values[i] = i;
  launch_doubled(values, n);
  printf("%d\n", values[n - 1]);
  return 0;
}
