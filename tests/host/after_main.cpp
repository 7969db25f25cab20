/* Work done after main: by an atexit handler, a static object's destructor
 * and a destructor function, whether main returns or calls exit()
 * (-DUSE_EXIT). Each is counted.
 *   main:          calls 1; calls work(0) once, registers at_exit_handler.
 *   at_exit_handler: calls 1; calls work(1) and work(2).
 *   in_destructor: calls 1 (from Global's destructor); calls work(3..5).
 *   late:          calls 1 (a destructor function); calls work(6).
 *   work:          calls 1 + 2 + 3 + 1 = 7; one f64 multiply and one add
 *                  each: flops.f64 = 14. */
#include <cstdio>
#include <cstdlib>

static volatile double sink;

__attribute__((noinline)) void work(int k) { sink = sink * 1.5 + k; }

__attribute__((noinline)) void at_exit_handler() {
  work(1);
  work(2);
}

__attribute__((noinline)) void in_destructor() {
  for (int k = 3; k < 6; ++k)
    work(k);
}

struct Global {
  ~Global() { in_destructor(); }
} global;

__attribute__((destructor, noinline)) static void late() { work(6); }

int main() {
  work(0);
  if (std::atexit(at_exit_handler)) {
    std::printf("after_main: FAILED (atexit)\n");
    return 1;
  }
  std::printf("after_main: PASSED\n");
#ifdef USE_EXIT
  std::fflush(stdout);
  std::exit(0);
#endif
  return 0;
}
