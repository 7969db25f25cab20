/* A program that ends with quick_exit: its at_quick_exit handler's work is
 * counted too (quick_exit runs neither atexit handlers nor destructors).
 *   main:    calls 1; calls work(0..2), registers on_quick_exit and calls
 *            quick_exit(0), which does not return.
 *   on_quick_exit: calls 1; calls work(3) and work(4).
 *   work:    calls 3 + 2 = 5; one f64 multiply and one add each:
 *            flops.f64 = 10. */
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

__attribute__((noinline)) void work(int k) { sink = sink * 1.5 + k; }

__attribute__((noinline)) void on_quick_exit(void) {
  work(3);
  work(4);
}

int main(void) {
  for (int k = 0; k < 3; ++k)
    work(k);
  if (at_quick_exit(on_quick_exit)) {
    printf("quick_exit: FAILED (at_quick_exit)\n");
    return 1;
  }
  printf("quick_exit: PASSED\n");
  fflush(stdout);
  quick_exit(0);
}
