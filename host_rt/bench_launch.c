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
 *   bench_launch ws [LAUNCHES [REPETITIONS]]  (default 100000 5)
 *
 * ws: working-set launches shaped like nw_tile_kernel at n = 16384 (its
 * four allocations, 2 GiB: 32,773 pages of 64 KiB, 4 banks of flags; six
 * parameters, two pointers; 1,024 blocks). The fake's copies and clears do
 * no work (a GPU's copy engine does them) and its kernel sets no flag, so
 * the flags the runtime reads back are zeros it may find in cache: the
 * runtime's CPU time is a lower bound. Also prints the vendor calls per
 * launch the runtime adds, by kind (a real one costs a microsecond or
 * more on the host). Times are this thread's CPU time in this mode.
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
#include <string.h>
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

static struct pasta_vendor_ops ops = {.device_synchronize = f_zero,
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

static char kernel_handle, ws_handle;

/* Working-set mode (`ws`): the calls beyond a launch, counted. */
enum call_kind { C_RECORD, C_WAIT, C_UP, C_BACK, C_CLEAR, C_SYNC, C_KINDS };
static const char *const call_names[C_KINDS] = {
    "event records", "stream waits", "copies to the GPU",
    "copies back",   "clears",       "event waits"};
static long calls[C_KINDS];
static int ws_mode;

static int f_ws_record(void *e, void *s) {
  (void)e, (void)s;
  ++calls[C_RECORD];
  return 0;
}
static int f_ws_sync(void *e) {
  (void)e;
  ++calls[C_SYNC];
  return 0;
}
static int f_ws_wait(void *s, void *e, unsigned flags) {
  (void)s, (void)e, (void)flags;
  ++calls[C_WAIT];
  return 0;
}
static int f_ws_copy(void *d, const void *s, uint64_t n, int kind, void *st) {
  (void)d, (void)s, (void)n, (void)st;
  ++calls[kind == PASTA_MEMCPY_DEVICE_TO_HOST ? C_BACK : C_UP];
  return 0;
}
static int f_ws_clear(void *p, int v, uint64_t n, void *s) {
  (void)p, (void)v, (void)n, (void)s;
  ++calls[C_CLEAR];
  return 0;
}
static int f_ws_malloc(void **p, uint64_t n) {
  return (*p = calloc(1, n)) ? 0 : 2;
}
static int f_ws_free(void *p) {
  free(p);
  return 0;
}
static int f_ws_host_alloc(void **p, uint64_t n, unsigned flags) {
  (void)flags;
  return f_ws_malloc(p, n);
}
static int f_ws_stream(void **s, unsigned flags) {
  (void)flags;
  *s = &next_event; /* any address: never dereferenced */
  return 0;
}
static int f_ws_event(void **e, unsigned flags) {
  (void)flags;
  return f_event_create(e);
}

/* The program's allocations: addresses only, never touched. */
static uintptr_t next_program_address = (uintptr_t)1 << 40;
static int program_malloc(void **p, uint64_t n) {
  *p = (void *)next_program_address;
  next_program_address += (n + 0xffff) & ~(uint64_t)0xffff;
  return 0;
}
int __pasta_malloc(void **, uint64_t, int (*)(void **, uint64_t),
                   const struct pasta_vendor_ops *);

/* Working-set mode's vendor calls and nw's allocations. */
static void *ws_score, *ws_ref;
static void setup_ws(void) {
  ws_mode = 1;
  setenv("PASTA_WORKING_SET", "1", 1);
  ops.event_record = f_ws_record;
  ops.event_synchronize = f_ws_sync;
  ops.stream_wait_event = f_ws_wait;
  ops.memcpy_async = f_ws_copy;
  ops.memset_async = f_ws_clear;
  ops.malloc = f_ws_malloc;
  ops.free = f_ws_free;
  ops.host_alloc = f_ws_host_alloc;
  ops.free_host = f_ws_free;
  ops.stream_create_with_flags = f_ws_stream;
  ops.stream_destroy = f_stream;
  ops.event_create_with_flags = f_ws_event;
  const uint64_t n = 16384, w = n + 1;
  void *moves, *count;
  if (__pasta_malloc(&ws_score, w * w * 4, program_malloc, &ops) ||
      __pasta_malloc(&ws_ref, n * n * 4, program_malloc, &ops) ||
      __pasta_malloc(&moves, 2 * n * 4, program_malloc, &ops) ||
      __pasta_malloc(&count, 4, program_malloc, &ops))
    fprintf(stderr, "bench_launch: an allocation failed\n");
}

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

/* nw_tile_kernel's host stub: (score, ref, n, diag, first_tile, penalty),
 * 1,024 blocks of 16 threads. */
__attribute__((noinline)) static int ws_stub(int x) {
  int n = 16384, first = 0, penalty = 10;
  void *args[6] = {&ws_score, &ws_ref, &n, &x, &first, &penalty};
  if (direct)
    return fake_launch(&ws_handle, 1024ull | 1ull << 32, 1, 16ull | 1ull << 32,
                       1, args, 0, NULL);
  return __pasta_launch_kernel(&kernel_handle, 1024ull | 1ull << 32, 1,
                               16ull | 1ull << 32, 1, args, 0, NULL,
                               fake_launch, &ops);
}

__attribute__((noinline)) static int stub(int x) {
  if (ws_mode)
    return ws_stub(x);
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

/* Wall time; in working-set mode this thread's CPU time (its per-launch
 * work is larger, and a loaded machine's waits are not the runtime's). */
static double now_ns(void) {
  struct timespec ts;
  clock_gettime(ws_mode ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
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
  if (argc > 1 && strcmp(argv[1], "ws") == 0) {
    setup_ws();
    --argc, ++argv;
  }
  long n = argc > 1 ? atol(argv[1]) : ws_mode ? 100000 : 1000000;
  int reps = argc > 2 ? atoi(argv[2]) : 5;
  if (n <= 0 || reps <= 0 || reps > 100) {
    fprintf(stderr, "usage: bench_launch [ws] [LAUNCHES [REPETITIONS<=100]]\n");
    return 2;
  }
  setenv("PASTA_QUIET", "1", 0);
  if (ws_mode)
    __pasta_register_kernel(&kernel_handle, "_Z14nw_tile_kernelPiPKiiiii", NULL,
                            &ws_handle, NULL, 6, 3, NULL);
  else
    __pasta_register_kernel(&kernel_handle, "_Z6kernelPi", NULL, NULL, NULL, 1,
                            1, NULL);
  per_launch(n / 10 + 1, 1); /* warm-up: options, paths, event pool */
  memset(calls, 0, sizeof calls);
  long wrapped_launches = 0;
  double added[100];
  for (int r = 0; r < reps; ++r) {
    double base = per_launch(n, 0);
    double wrapped = per_launch(n, 1);
    wrapped_launches += n;
    added[r] = wrapped - base;
    printf("rep %d: %.1f ns per launch through the wrapper, %.1f direct, "
           "%.1f added\n",
           r, wrapped, base, added[r]);
  }
  if (ws_mode) {
    long total = 0;
    for (int k = 0; k < C_KINDS; ++k)
      total += calls[k];
    printf("vendor calls per launch beyond the launch: %.3f (",
           (double)total / (double)wrapped_launches);
    for (int k = 0; k < C_KINDS; ++k)
      printf("%s%s %.3f", k ? ", " : "", call_names[k],
             (double)calls[k] / (double)wrapped_launches);
    printf(")\n");
  }
  qsort(added, (size_t)reps, sizeof *added, by_value);
  printf("median %.1f\n", added[reps / 2]);
  return 0;
}
