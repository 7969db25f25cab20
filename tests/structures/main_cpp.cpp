// main in C++ without kernels (compiled with pasta-clang++), kernels in two
// .cu files: run_a then run_b, return from main.
#include <cstdio>

extern "C" int run_a(int n);
extern "C" int run_b(int n);

int main() {
  int bad = run_a(1 << 20) | run_b(1 << 20);
  std::printf("structures: %s\n", bad ? "FAILED" : "PASSED");
  return bad;
}
