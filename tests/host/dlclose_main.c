/* Opens an instrumented host library (argv[1]), runs it and closes it
 * before main returns: the report, which runs after main, must not read the
 * library's unmapped module (it crashed); it says its counts are lost.
 *   main: calls 1. */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv) {
  void *h = argc > 1 ? dlopen(argv[1], RTLD_NOW) : NULL;
  void (*run)(int) = h ? (void (*)(int))dlsym(h, "lib_run") : NULL;
  if (!run) {
    printf("dlclose: FAILED (%s)\n", dlerror());
    return 1;
  }
  run(10);
  dlclose(h);
  printf("dlclose: PASSED\n");
  return 0;
}
