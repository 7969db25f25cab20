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
 *   bench_launch wsnw [LAUNCHES [REPETITIONS]]   (default 20470 5)
 *
 * wsnw: as ws, but the launches sweep nw's 2,047 tile diagonals (1 to
 * 1,024 blocks) and the fake kernel sets the flags nw_tile_kernel sets
 * (its tiles' rows of score and ref, in each block's bank): the copy back
 * writes the slots' flags to the host buffer with non-temporal stores, as
 * a GPU's copy engine leaves them (not in the CPU's caches), so the
 * runtime reads them cold. BENCH_WS_WARM=1 copies with memcpy instead (the
 * flags then stay in cache). The fake's own work (making the flags,
 * copying them) is timed and taken off the wrapper's time.
 *
 * Prints one line per repetition and "median NS" last. The usual PASTA_*
 * variables apply (PASTA_CALL_DEPTH=0, PASTA_TIMING=0 take a part away).
 * Built with the runtime, not run as a test: docs/performance.md, "Host
 * time per launch", has the figures and the command.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "intercept.h"
#include "pasta/abi.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

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
static double fake_ns; /* CPU time of the fake's own work (wsnw) */
static int nw_mode;
static double now_ns(void);
static void nw_copy_back(void *d, const void *s, uint64_t n);
static int f_ws_copy(void *d, const void *s, uint64_t n, int kind, void *st) {
  (void)st;
  ++calls[kind == PASTA_MEMCPY_DEVICE_TO_HOST ? C_BACK : C_UP];
  if (nw_mode && kind == PASTA_MEMCPY_DEVICE_TO_HOST) {
    double t0 = now_ns();
    nw_copy_back(d, s, n);
    fake_ns += now_ns() - t0;
  }
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

/* wsnw: nw_tile_kernel at n = 16384, 1,024 x 1,024 tiles of 16 x 16; launch
 * x runs tile diagonal x % NW_DIAGS, one block per tile. */
enum { NW_N = 16384, NW_TILES = NW_N / 16, NW_DIAGS = 2 * NW_TILES - 1 };

/* A working-set launch the fake kernel ran and whose flags were not copied
 * back yet: where its flags are and what it touched. */
struct nw_launch {
  struct pasta_ws_launch h;
  int diag, first, blocks, live;
};
static struct nw_launch nw_seen[64];
static unsigned char *nw_image; /* the flags of a copy back, made here */
static size_t nw_image_cap;

static void nw_record(void **args, uint64_t grid_xy) {
  for (size_t i = 0; i < sizeof nw_seen / sizeof nw_seen[0]; ++i) {
    struct nw_launch *e = &nw_seen[i];
    if (e->live)
      continue;
    memcpy(&e->h, args[7], sizeof e->h);
    e->diag = *(const int *)args[3];
    e->first = *(const int *)args[4];
    e->blocks = (int)(grid_xy & 0xffffffffu);
    e->live = 1;
    return;
  }
  fprintf(stderr, "bench_launch: more launches in flight than tracked\n");
}

/* Sets the flag of byte `at` of an allocation whose first page has flag
 * index `first_flag`, in the bank at `bank` (the device's layout). */
static void nw_set(unsigned char *pages, uint64_t bank, uint64_t first_flag,
                   uint32_t page_shift, uint64_t at) {
  pages[bank + pasta_ws_flag_swizzle(first_flag + (at >> page_shift))] = 1;
}

/* The flags launch e sets: each block's tile rows of score (its border row
 * and column too) and of ref, in the block's bank. */
static void nw_set_flags(unsigned char *pages, const struct nw_launch *e) {
  const struct pasta_ws_launch *h = &e->h;
  uint64_t score = h->args[0].flags - h->pages,
           ref = h->args[1].flags - h->pages;
  const uint64_t w = NW_N + 1;
  for (int b = 0; b < e->blocks; ++b) {
    uint64_t bank =
        (uint64_t)((uint32_t)b & (h->page_banks - 1)) * h->num_pages;
    uint64_t row0 = (uint64_t)(e->first + b) * 16;
    uint64_t col0 = (uint64_t)(e->diag - e->first - b) * 16;
    for (uint64_t r = 0; r <= 16; ++r) {
      uint64_t at = ((row0 + r) * w + col0) * 4;
      nw_set(pages, bank, score, h->page_shift, at);
      nw_set(pages, bank, score, h->page_shift, at + 16 * 4 + 3);
    }
    for (uint64_t r = 0; r < 16; ++r) {
      uint64_t at = ((row0 + r) * NW_N + col0) * 4;
      nw_set(pages, bank, ref, h->page_shift, at);
      nw_set(pages, bank, ref, h->page_shift, at + 15 * 4 + 3);
    }
  }
}

/* The copy engine's copy back of [s, s + n): the flags of the launches whose
 * results lie there, written to d past the CPU's caches. */
static void nw_copy_back(void *d, const void *s, uint64_t n) {
  if (n > nw_image_cap) {
    free(nw_image);
    nw_image_cap = 0;
    if (!(nw_image = malloc(n)))
      return;
    nw_image_cap = n;
  }
  memset(nw_image, 0, n);
  uint64_t from = (uint64_t)(uintptr_t)s;
  for (size_t i = 0; i < sizeof nw_seen / sizeof nw_seen[0]; ++i) {
    struct nw_launch *e = &nw_seen[i];
    if (e->live && e->h.pages >= from && e->h.pages < from + n) {
      nw_set_flags(nw_image + (e->h.pages - from), e);
      e->live = 0;
    }
  }
  static int warm = -1;
  if (warm < 0)
    warm = getenv("BENCH_WS_WARM") && atoi(getenv("BENCH_WS_WARM"));
  uint64_t done = 0;
#if defined(__x86_64__)
  if (!warm && ((uintptr_t)d & 15) == 0) {
    for (; done + 16 <= n; done += 16)
      _mm_stream_si128((__m128i *)((char *)d + done),
                       _mm_loadu_si128((const __m128i *)(nw_image + done)));
    _mm_sfence();
  }
#endif
  memcpy((char *)d + done, nw_image + done, n - done);
}

__attribute__((noinline)) static int fake_launch(const void *fn, uint64_t gxy,
                                                 uint32_t gz, uint64_t bxy,
                                                 uint32_t bz, void **args,
                                                 uint64_t shmem, void *stream) {
  __asm__ volatile("" ::"r"(fn), "r"(gxy), "r"(gz), "r"(bxy), "r"(bz),
                   "r"(args), "r"(shmem), "r"(stream)
                   : "memory");
  if (nw_mode && fn == &ws_handle)
    nw_record(args, gxy);
  return 0;
}

/* A kernel's host stub: through the wrapper, or (direct) straight to the
 * vendor's launch, the baseline. */
static int direct;

/* nw_tile_kernel's host stub: (score, ref, n, diag, first_tile, penalty),
 * 1,024 blocks of 16 threads. */
__attribute__((noinline)) static int ws_stub(int x) {
  int n = NW_N, first = 0, penalty = 10;
  uint64_t blocks = 1024;
  if (nw_mode) { /* nw's wavefront: diagonal x, its tiles */
    x %= NW_DIAGS;
    first = x < NW_TILES ? 0 : x - NW_TILES + 1;
    blocks = (uint64_t)((x < NW_TILES ? x : NW_TILES - 1) - first + 1);
  }
  void *args[6] = {&ws_score, &ws_ref, &n, &x, &first, &penalty};
  if (direct)
    return fake_launch(&kernel_handle, blocks | 1ull << 32, 1,
                       16ull | 1ull << 32, 1, args, 0, NULL);
  return __pasta_launch_kernel(&kernel_handle, blocks | 1ull << 32, 1,
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
  fake_ns = 0;
  double t0 = now_ns();
  if (solve(n))
    fprintf(stderr, "bench_launch: a launch failed\n");
  return (now_ns() - t0 - fake_ns) / (double)n;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc > 1 &&
      (strcmp(argv[1], "ws") == 0 || strcmp(argv[1], "wsnw") == 0)) {
    nw_mode = strcmp(argv[1], "wsnw") == 0;
    setup_ws();
    --argc, ++argv;
  }
  long n = argc > 1  ? atol(argv[1])
           : nw_mode ? 10 * NW_DIAGS
           : ws_mode ? 100000
                     : 1000000;
  int reps = argc > 2 ? atoi(argv[2]) : 5;
  if (n <= 0 || reps <= 0 || reps > 100) {
    fprintf(stderr,
            "usage: bench_launch [ws|wsnw] [LAUNCHES [REPETITIONS<=100]]\n");
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
  pasta_activity act;
  if (nw_mode && pasta__activity_build(&act, 0) == 0) {
    /* The figures, to compare runtimes: each must count the same. */
    uint64_t bytes = 0, allocs = 0;
    for (size_t i = 0; i < act.num_ws_launches; ++i) {
      bytes += act.ws_launches[i].touched_bytes;
      allocs += act.ws_launches[i].touched_allocations;
    }
    printf("working-set launches %zu, touched allocations %llu, touched "
           "bytes %llu\n",
           act.num_ws_launches, (unsigned long long)allocs,
           (unsigned long long)bytes);
    pasta__activity_free(&act);
  }
  qsort(added, (size_t)reps, sizeof *added, by_value);
  printf("median %.1f\n", added[reps / 2]);
  return 0;
}
