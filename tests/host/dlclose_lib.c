/* An instrumented host library that tests/host/dlclose_main.c opens, runs
 * and closes before main returns. */
static volatile double sink;

__attribute__((noinline)) void lib_work(int i) {
  if (i & 1)
    sink = sink * 1.5;
}

void lib_run(int n) {
  for (int i = 0; i < n; ++i)
    lib_work(i);
}
