/*===- exit_paths.c - Device counts survive every way a program ends ------===*
 *
 * A program that is not instrumented itself (like a main compiled by gcc):
 * it never calls __pasta_main_exit. Its "CUDA runtime" is fake_vendor.h's,
 * which, like the real one, registers its teardown with atexit at its
 * first call and fails every call after it ("driver shutting down"). Its
 * kernel `app_kernel` runs with 4 blocks of 256 threads, 3 times unless the
 * mode says otherwise:
 *   launches 3, block executions 3 x 1024 = 3072, global stores 3072,
 *   global store bytes 4 x 3072 = 12288.
 * ./exit_paths MODE:
 *   return      return from main
 *   exit-thread exit(0) from a second thread
 *   quick-exit  quick_exit(0)
 *   dlclose     also runs lib_kernel (2 blocks, once: 512 stores, 2048
 *               bytes) in exit_lib.so, then dlclose's it before returning
 *   reset       cudaDeviceReset (wrapped at link time, link_glue.c) after
 *               the 3 launches, then 1 more launch: 4 launches, 4096 stores
 *   atexit      an atexit handler, registered after the 3 launches, makes
 *               1 more: 4 launches, 4096 stores (device counts are read
 *               after the program's own exit handlers, before the
 *               vendor's teardown)
 *   fault       synchronises after each launch; the 3rd faults: the
 *               profile is written (3 launches, no device counts) and
 *               stderr names launch 2 (the 3rd of app_kernel)
 * The test (run_exit_paths.sh) checks each profile.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#define FAKE_PREFIX app_
#define FAKE_FUNC "app_kernel"
#define FAKE_FILE "exit_paths.cu"
#include "fake_vendor.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* The program's reset (fake_reset.c: in another object, so that the link
 * wraps the call, -Wl,--wrap=cudaDeviceReset) frees the counters. */
int cudaDeviceReset(void);
void app_reset_device(void);
void app_reset_device(void) {
  memset(app_module.counters, 0, sizeof app_module.counters);
}

static void launch_at_exit(void) { app_run(4); }

static void *exit_from_thread(void *arg) {
  (void)arg;
  exit(0);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "return";
  int fault = strcmp(mode, "fault") == 0;
  for (int i = 0; i < 3; ++i) {
    app_fault_next_launch = fault && i == 2;
    if (app_run(4)) {
      fprintf(stderr, "exit_paths: launch failed\n");
      return 1;
    }
    /* A checked program synchronises after each launch: it sees the
     * fault there. */
    int err = fault ? __pasta_device_synchronize(app_sync, &app_ops) : 0;
    if (err) {
      printf("exit_paths: synchronize: %s\n", app_error_string(err));
      return 1;
    }
  }
  if (strcmp(mode, "reset") == 0) {
    cudaDeviceReset();
    app_run(4);
  }
  if (strcmp(mode, "atexit") == 0 && atexit(launch_at_exit)) {
    fprintf(stderr, "exit_paths: atexit failed\n");
    return 1;
  }
  if (strcmp(mode, "dlclose") == 0) {
    void *lib = dlopen(argc > 2 ? argv[2] : "./exit_lib.so", RTLD_NOW);
    int (*run)(uint32_t) = lib ? (int (*)(uint32_t))dlsym(lib, "lib_run") : 0;
    if (!run || run(2) || dlclose(lib)) {
      fprintf(stderr, "exit_paths: %s\n", dlerror());
      return 1;
    }
  }
  printf("exit_paths: PASSED (%s)\n", mode);
  fflush(stdout);
  if (strcmp(mode, "exit-thread") == 0) {
    pthread_t t;
    pthread_create(&t, NULL, exit_from_thread, NULL);
    pthread_join(t, NULL);
  }
  if (strcmp(mode, "quick-exit") == 0)
    quick_exit(0);
  return 0;
}
