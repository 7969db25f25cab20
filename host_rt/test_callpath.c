/*===- test_callpath.c - Call paths recorded here, resolved elsewhere -----===*
 *
 * Launches a fake kernel through the runtime's launch wrapper from two
 * sites, one in this executable and one in a shared object
 * (test_callpath_lib.c), then writes the profile the runtime would write at
 * exit (launches with their call paths) to argv[1], and prints one line per
 * site, "site FUNCTION FILE LINE", with the line taken with __LINE__ at the
 * call. tests/check_callpaths.py runs it with PASTA_LIBDWARF=none, as on a
 * machine without libdwarf, and checks that the frames carry module, build
 * id and address but no file:line, and that pasta-report resolves them
 * (function and file:line) on this machine, also when the module has moved
 * (--search-dir). Built -g -O0 so the call lines are where the source
 * puts them.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "intercept.h"
#include "pasta/abi.h"
#include "pasta/profile.h"
#include "profile/activity.h"
#include "profile/profile_json.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int __pasta_launch_kernel(const void *, uint64_t, uint32_t, uint64_t, uint32_t,
                          void **, uint64_t, void *,
                          int (*)(const void *, uint64_t, uint32_t, uint64_t,
                                  uint32_t, void **, uint64_t, void *),
                          const struct pasta_vendor_ops *);
void __pasta_register_kernel(const void *, const char *, const void *,
                             const void *, const void *, int, uint64_t,
                             const void *);

/* test_callpath_lib.c */
typedef int (*pasta_test_launcher)(unsigned *line);
int pasta_test_lib_launch(pasta_test_launcher launch, unsigned *line);

/* The runtime's analyzer dispatch (analyzer_registry.c, not linked here). */
void pasta__notify_launch(const pasta_launch_event *e) { (void)e; }
void pasta__notify_allocation(const pasta_allocation_event *e) { (void)e; }
void pasta__arm_exit(void) {}
void pasta__module_launched(const void *module, int device) {
  (void)module, (void)device;
}

/* A fake vendor runtime: events hold a time. */
static double clock_ms;
static int f_zero(void) { return 0; }
static int f_stream(void *s) { return (void)s, 0; }
static int f_get_device(int *d) { return *d = 0, 0; }
static int f_event_create(void **e) {
  return (*e = calloc(1, sizeof(double))) ? 0 : 2;
}
static int f_event_record(void *e, void *s) {
  (void)s;
  clock_ms += 0.25;
  *(double *)e = clock_ms;
  return 0;
}
static int f_event_sync(void *e) { return (void)e, 0; }
static int f_elapsed(float *ms, void *a, void *b) {
  *ms = (float)(*(double *)b - *(double *)a);
  return 0;
}
static int f_free(void *p) { return free(p), 0; }
static int f_capturing(void *s, int *st) { return (void)s, *st = 0, 0; }

static const struct pasta_vendor_ops ops = {.device_synchronize = f_zero,
                                            .get_device = f_get_device,
                                            .stream_synchronize = f_stream,
                                            .get_last_error = f_zero,
                                            .event_create = f_event_create,
                                            .event_record = f_event_record,
                                            .event_synchronize = f_event_sync,
                                            .event_elapsed_time = f_elapsed,
                                            .event_destroy = f_free,
                                            .stream_is_capturing = f_capturing};

static char kernel_handle;

static int fake_launch(const void *fn, uint64_t gxy, uint32_t gz, uint64_t bxy,
                       uint32_t bz, void **args, uint64_t shmem, void *stream) {
  (void)fn, (void)gxy, (void)gz, (void)bxy, (void)bz, (void)args, (void)shmem,
      (void)stream;
  return 0;
}

/* What a kernel's host stub does: launch through the wrapper. Its call
 * line is the innermost frame of the program's own code. */
__attribute__((noinline)) static int launch_here(unsigned *line) {
  void *args[1] = {NULL};
  *line = __LINE__ + 1;
  return __pasta_launch_kernel(&kernel_handle, 1ull | (1ull << 32), 1,
                               32ull | (1ull << 32), 1, args, 0, NULL,
                               fake_launch, &ops);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_callpath PROFILE.json\n");
    return 2;
  }
  setenv("PASTA_CALL_DEPTH", "8", 1);
  __pasta_register_kernel(&kernel_handle, "_Z6kernelPc", NULL, NULL, NULL, 1, 1,
                          NULL);
  unsigned stub_line = 0, lib_line = 0, main_line = 0;
  main_line = __LINE__ + 1;
  int rc = launch_here(&stub_line);
  rc |= pasta_test_lib_launch(launch_here, &lib_line);
  /* Two calls on one line: two return addresses, one path as the source
   * reads (a loop unrolled into several calls makes the same). */
  unsigned twice_line = __LINE__ + 1;
  rc |= launch_here(&stub_line) | launch_here(&stub_line);
  printf("twice main test_callpath.c %u\n", twice_line);
  printf("site launch_here test_callpath.c %u\n", stub_line);
  printf("site main test_callpath.c %u\n", main_line);
  printf("site pasta_test_lib_launch test_callpath_lib.c %u\n", lib_line);

  pasta_activity act;
  pasta_profile p;
  pasta_profile_init(&p);
  if (rc || pasta__activity_build(&act, 0) != 0 ||
      pasta_profile_set_info(&p, argv[0], 1, 0) != 0 ||
      pasta_profile_finalize(&p) != 0) {
    fprintf(stderr, "test_callpath: setting up failed\n");
    return 1;
  }
  p.activity = &act;
  FILE *f = fopen(argv[1], "w");
  int err = !f || pasta__profile_write_json(f, &p) != 0;
  if (f)
    err |= fclose(f) != 0;
  pasta__activity_free(&act);
  pasta_profile_free(&p);
  if (err) {
    fprintf(stderr, "test_callpath: cannot write %s\n", argv[1]);
    return 1;
  }
  return 0;
}
