/*===- bench_launch.c - Host time the launch wrapper adds, without a GPU --===*
 *
 * Calls the runtime's launch wrapper (__pasta_launch_kernel, from
 * libpasta_rt.a as programs link it) N times with a fake vendor runtime
 * whose launch and event calls do nothing, and prints the nanoseconds per
 * launch through the wrapper, less those of calling the fake launch
 * directly: what the runtime itself costs on the host per launch. Launches
 * alternate between two call sites, each under a few frames of "program",
 * as a kernel's host stub called from a program's loop would.
 *
 *   bench_launch [LAUNCHES [REPETITIONS]]     (default 1000000 5)
 *
 * Prints one line per repetition and "median NS" last. The usual PASTA_*
 * variables apply (PASTA_CALL_DEPTH=0, PASTA_TIMING=0 take a part away).
 * Built with the runtime, not run as a test: docs/performance.md, "Host
 * time per launch", has the figures and the command.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "pasta/abi.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef int (*launch_fn)(const void *, uint64_t, uint32_t, uint64_t, uint32_t,
                         void **, uint64_t, void *);
int __pasta_launch_kernel(const void *, uint64_t, uint32_t, uint64_t, uint32_t,
                          void **, uint64_t, void *, launch_fn,
                          const struct pasta_vendor_ops *);
void __pasta_register_kernel(const void *, const char *, const void *,
                             const void *, const void *, int, uint64_t,
                             const void *);

/* The fake vendor: every call succeeds at once. Events are distinct
 * addresses that are never dereferenced. */
static uintptr_t next_event;
static int f_zero(void) { return 0; }
static int f_stream(void *s) { return (void)s, 0; }
static int f_get_device(int *d) { return *d = 0, 0; }
static int f_event_create(void **e) {
  next_event += 16;
  *e = (void *)next_event;
  return 0;
}
static int f_event_record(void *e, void *s) { return (void)e, (void)s, 0; }
static int f_event(void *e) { return (void)e, 0; }
static int f_elapsed(float *ms, void *a, void *b) {
  (void)a, (void)b;
  *ms = 0.001f;
  return 0;
}
static int f_capturing(void *s, int *st) { return (void)s, *st = 0, 0; }

static const struct pasta_vendor_ops ops = {.device_synchronize = f_zero,
                                            .get_device = f_get_device,
                                            .stream_synchronize = f_stream,
                                            .get_last_error = f_zero,
                                            .event_create = f_event_create,
                                            .event_record = f_event_record,
                                            .event_synchronize = f_event,
                                            .event_elapsed_time = f_elapsed,
                                            .event_destroy = f_event,
                                            .stream_is_capturing = f_capturing,
                                            .vendor = PASTA_VENDOR_CUDA};

static char kernel_handle;

__attribute__((noinline)) static int fake_launch(const void *fn, uint64_t gxy,
                                                 uint32_t gz, uint64_t bxy,
                                                 uint32_t bz, void **args,
                                                 uint64_t shmem, void *stream) {
  __asm__ volatile("" ::"r"(fn), "r"(gxy), "r"(gz), "r"(bxy), "r"(bz),
                   "r"(args), "r"(shmem), "r"(stream)
                   : "memory");
  return 0;
}

/* A kernel's host stub: through the wrapper, or (direct) straight to the
 * vendor's launch, the baseline. */
static int direct;

__attribute__((noinline)) static int stub(int x) {
  void *args[1] = {&x};
  if (direct)
    return fake_launch(&kernel_handle, 1ull | 1ull << 32, 1, 32ull | 1ull << 32,
                       1, args, 0, NULL);
  return __pasta_launch_kernel(&kernel_handle, 1ull | 1ull << 32, 1,
                               32ull | 1ull << 32, 1, args, 0, NULL,
                               fake_launch, &ops);
}

/* The program: two call sites of the stub, a few frames deep. */
__attribute__((noinline)) static int site_a(int i) { return stub(i) + 1; }
__attribute__((noinline)) static int site_b(int i) { return stub(i) + 2; }
__attribute__((noinline)) static int step(int i) {
  return i & 1 ? site_a(i) : site_b(i);
}
__attribute__((noinline)) static int solve(long n) {
  int rc = 0;
  for (long i = 0; i < n; ++i)
    rc |= step((int)i) - 1 - !(i & 1);
  return rc;
}

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Nanoseconds per launch over n launches. */
static double per_launch(long n, int through_wrapper) {
  direct = !through_wrapper;
  double t0 = now_ns();
  if (solve(n))
    fprintf(stderr, "bench_launch: a launch failed\n");
  return (now_ns() - t0) / (double)n;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  int reps = argc > 2 ? atoi(argv[2]) : 5;
  if (n <= 0 || reps <= 0 || reps > 100) {
    fprintf(stderr, "usage: bench_launch [LAUNCHES [REPETITIONS<=100]]\n");
    return 2;
  }
  setenv("PASTA_QUIET", "1", 0);
  __pasta_register_kernel(&kernel_handle, "_Z6kernelPi", NULL, NULL, NULL, 1, 1,
                          NULL);
  per_launch(n / 10 + 1, 1); /* warm-up: options, paths, event pool */
  double added[100];
  for (int r = 0; r < reps; ++r) {
    double base = per_launch(n, 0);
    double wrapped = per_launch(n, 1);
    added[r] = wrapped - base;
    printf("rep %d: %.1f ns per launch through the wrapper, %.1f direct, "
           "%.1f added\n",
           r, wrapped, base, added[r]);
  }
  qsort(added, (size_t)reps, sizeof *added, by_value);
  printf("median %.1f\n", added[reps / 2]);
  return 0;
}
