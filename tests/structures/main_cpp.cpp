// main in C++ without kernels (compiled with pasta-clang++), kernels in two
// .cu files: run_a then run_b. ./cpp_main [exit-helper]: without an
// argument main returns; with exit-helper it ends through exit() called by
// exit_helper.c, compiled by gcc (main's own return never runs).
// Expected counts: main_c.c's EXPECT lines (the same kernels).
#include <cstdio>
#include <cstring>

extern "C" int run_a(int n);
extern "C" int run_b(int n);
extern "C" void structures_leave(int status);

int main(int argc, char **argv) {
  int bad = run_a(1 << 20) | run_b(1 << 20);
  std::printf("structures: %s\n", bad ? "FAILED" : "PASSED");
  if (argc > 1 && std::strcmp(argv[1], "exit-helper") == 0)
    structures_leave(bad);
  return bad;
}
