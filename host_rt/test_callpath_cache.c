/*===- test_callpath_cache.c - The launch cache gives the real call path --===*
 *
 * Launches through the runtime's wrapper from optimised code without frame
 * pointers (test_callpath_cache_sites.c): one stub, so every launch's
 * wrapper returns to the same address, under different callers. Each
 * launch's recorded path must be the frames a fresh backtrace sees at the
 * launch; every path comes from the cache after its first launch, also
 * through frames with frame pointers (test_callpath_cache_fp.c) and frames
 * that vary in size (VLAs) between launches.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "intercept_internal.h"

#include <execinfo.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"

typedef int (*launch_fn)(const void *, uint64_t, uint32_t, uint64_t, uint32_t,
                         void **, uint64_t, void *);
void __pasta_register_kernel(const void *, const char *, const void *,
                             const void *, const void *, int, uint64_t,
                             const void *);

/* test_callpath_cache_sites.c */
int pasta_test_site_a(int x);
int pasta_test_site_b(int x);
int pasta_test_site_vla(int n);
int pasta_test_site_pressure(int x);
int pasta_test_fp_vla(int n);
int pasta_test_fp_outer(int (*site)(int), int x);
int pasta_test_outer1(int (*site)(int), int x);
int pasta_test_outer2(int (*site)(int), int x);

/* The runtime's analyzer dispatch and lifecycle (not linked here). */
void pasta__notify_launch(const pasta_launch_event *e) { (void)e; }
void pasta__notify_allocation(const pasta_allocation_event *e) { (void)e; }
void pasta__arm_exit(void) {}
void pasta__module_launched(const void *module, int device) {
  (void)module, (void)device;
}

/* The fake vendor: its launch takes the backtrace the path must match. */
static void *truth[64];
static int truth_n;

static int fake_launch(const void *fn, uint64_t gxy, uint32_t gz, uint64_t bxy,
                       uint32_t bz, void **args, uint64_t shmem, void *stream) {
  (void)fn, (void)gxy, (void)gz, (void)bxy, (void)bz, (void)args, (void)shmem,
      (void)stream;
  truth_n = backtrace(truth, 64);
  return 0;
}

static int f_zero(void) { return 0; }
static int f_get_device(int *d) { return *d = 0, 0; }
static int f_capturing(void *s, int *st) { return (void)s, *st = 0, 0; }

static const struct pasta_vendor_ops ops = {.get_device = f_get_device,
                                            .get_last_error = f_zero,
                                            .stream_is_capturing = f_capturing};

char pasta_test_kernel;
launch_fn pasta_test_real = fake_launch;
const struct pasta_vendor_ops *pasta_test_ops = &ops;

/* PASTA_CALL_DEPTH: 4 frames, all in the sites file; with --whole-stack,
 * 16: every path ends at the process's entry (_start), short of 17. */
enum { DEPTH = 3, WHOLE_STACK_DEPTH = 16 };
static int whole_stack;

/* The path the last launch was counted under: the one whose count grew. */
static uint64_t counted[256];

static const struct call_path *counted_path(void) {
  struct kernel *k = pasta__find_kernel(&pasta_test_kernel);
  if (!k)
    return NULL;
  for (size_t i = 0; i < k->num_paths; ++i) {
    uint32_t p = k->paths[i].path;
    if (p < 256 && k->paths[i].launches != counted[p]) {
      counted[p] = k->paths[i].launches;
      return &pasta__st.paths[p];
    }
  }
  return NULL;
}

/* One launch from outer(site): its path is the backtrace's frames from the
 * stub's return address on. Every call comes from here, so the 4th frame is
 * this function in every path. */
__attribute__((noinline)) static void
launch_from(int (*outer)(int (*)(int), int), int (*site)(int), int x,
            const char *what) {
  truth_n = 0;
  outer(site, x);
  const struct call_path *p = counted_path();
  if (!CHECK_MSG(p != NULL, "%s: a path counted", what))
    return;
  int at = -1;
  for (int i = 0; i < truth_n && at < 0; ++i)
    if (truth[i] == p->frames[0])
      at = i;
  CHECK_EQ_U64(p->depth, whole_stack ? (uint64_t)(truth_n - at) : DEPTH + 1);
  CHECK_MSG(at >= 0 && at + (int)p->depth <= truth_n &&
                memcmp(truth + at, p->frames, p->depth * sizeof(void *)) == 0,
            "%s: the recorded path is the backtrace's", what);
}

static void cached_paths(void) {
  for (int round = 0; round < 3; ++round) {
    launch_from(pasta_test_outer1, pasta_test_site_a, round, "outer1 site_a");
    launch_from(pasta_test_outer2, pasta_test_site_a, round, "outer2 site_a");
    launch_from(pasta_test_outer1, pasta_test_site_b, round, "outer1 site_b");
    launch_from(pasta_test_outer2, pasta_test_site_b, round, "outer2 site_b");
  }
  /* Four paths, one stub: each cached at its first launch, then found. */
  CHECK_EQ_U64(pasta__st.num_paths, 4);
  CHECK_EQ_U64(pasta__st.num_cached, 4);
  CHECK_EQ_U64(pasta__st.path_cache_hits, 8);
}

/* A VLA's frame keeps a frame pointer: the frames above it are found from
 * it, whatever its size at each launch. */
static void varying_frame(void) {
  uint64_t hits = pasta__st.path_cache_hits;
  static const int sizes[] = {16, 4096, 100, 16, 70000};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; ++i)
    launch_from(pasta_test_outer1, pasta_test_site_vla, sizes[i], "site_vla");
  CHECK_EQ_U64(pasta__st.num_paths, 5);
  CHECK_EQ_U64(pasta__st.num_cached, 5);
  CHECK_EQ_U64(pasta__st.path_cache_hits, hits + 4);
  /* The other cached paths are still found after them. */
  launch_from(pasta_test_outer2, pasta_test_site_b, 7, "outer2 site_b again");
  CHECK_EQ_U64(pasta__st.path_cache_hits, hits + 5);
}

/* Frames with frame pointers above and between frames without: the
 * outer frame's rbp is still in its register at the launch (site_a), or
 * saved inside a frame that uses rbp for its own values (site_pressure), or
 * saved by the prologue of a VLA's frame (fp_vla); sizes vary between the
 * launches. */
static void frame_pointers(void) {
  uint64_t hits = pasta__st.path_cache_hits;
  size_t paths = pasta__st.num_paths;
  static const int sizes[] = {16, 4096, 100, 70000};
  for (int round = 0; round < 4; ++round) {
    launch_from(pasta_test_fp_outer, pasta_test_site_a, round, "fp_outer a");
    launch_from(pasta_test_fp_outer, pasta_test_site_pressure, round,
                "fp_outer pressure");
    launch_from(pasta_test_fp_outer, pasta_test_fp_vla, sizes[round],
                "fp_outer fp_vla");
    launch_from(pasta_test_outer1, pasta_test_fp_vla, sizes[3 - round],
                "outer1 fp_vla");
  }
  CHECK_EQ_U64(pasta__st.num_paths, paths + 4);
  CHECK_EQ_U64(pasta__st.num_cached, paths + 4);
  CHECK_EQ_U64(pasta__st.path_cache_hits, hits + 12);
}

/* --whole-stack: paths that end where the stack does are cached too. The
 * launches of each round come from the same two call sites. */
__attribute__((noinline)) static void whole_stack_paths(void) {
#pragma clang loop unroll(disable)
  for (int round = 0; round < 3; ++round) {
    launch_from(pasta_test_outer1, pasta_test_site_a, round, "outer1 site_a");
    launch_from(pasta_test_fp_outer, pasta_test_site_pressure, round,
                "fp_outer pressure");
  }
  CHECK_EQ_U64(pasta__st.num_paths, 2);
  CHECK_EQ_U64(pasta__st.num_cached, 2);
  CHECK_EQ_U64(pasta__st.path_cache_hits, 4);
}

int main(int argc, char **argv) {
  whole_stack = argc > 1 && !strcmp(argv[1], "--whole-stack");
  setenv("PASTA_CALL_DEPTH", whole_stack ? "16" : "3", 1);
  setenv("PASTA_TIMING", "0", 1);
  __pasta_register_kernel(&pasta_test_kernel, "_Z6kernelPi", NULL, NULL, NULL,
                          1, 0, NULL);
  if (whole_stack) {
    CHECK_RUN(whole_stack_paths);
    return check_summary("test_callpath_cache --whole-stack");
  }
  CHECK_RUN(cached_paths);
  CHECK_RUN(varying_frame);
  CHECK_RUN(frame_pointers);
  return check_summary("test_callpath_cache");
}
