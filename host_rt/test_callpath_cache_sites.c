/*===- test_callpath_cache_sites.c - Launch sites for test_callpath_cache --===*
 *
 * Built -O2 -fomit-frame-pointer, as a program's optimised code is: one
 * stub (so every launch's wrapper returns to the same address) called from
 * two sites, each from two outer functions, and a site with a frame of
 * varying size (a VLA: it keeps a frame pointer).
 *===----------------------------------------------------------------------===*/
#include "pasta/abi.h"

#include <stddef.h>
#include <stdint.h>

typedef int (*launch_fn)(const void *, uint64_t, uint32_t, uint64_t, uint32_t,
                         void **, uint64_t, void *);
int __pasta_launch_kernel(const void *, uint64_t, uint32_t, uint64_t, uint32_t,
                          void **, uint64_t, void *, launch_fn,
                          const struct pasta_vendor_ops *);

/* test_callpath_cache.c: the kernel, the fake vendor's launch and calls. */
extern char pasta_test_kernel;
extern launch_fn pasta_test_real;
extern const struct pasta_vendor_ops *pasta_test_ops;

/* A kernel's host stub. */
__attribute__((noinline)) int pasta_test_stub(int x) {
  void *args[1] = {&x};
  int err = __pasta_launch_kernel(&pasta_test_kernel, 1ull | 1ull << 32, 1,
                                  32ull | 1ull << 32, 1, args, 0, NULL,
                                  pasta_test_real, pasta_test_ops);
  return err + 1; /* no tail call: the stub is a frame */
}

__attribute__((noinline)) int pasta_test_site_a(int x) {
  return pasta_test_stub(x) + 2;
}

__attribute__((noinline)) int pasta_test_site_b(int x) {
  return pasta_test_stub(x) + 3;
}

__attribute__((noinline)) int pasta_test_site_vla(int n) {
  volatile char buf[n];
  buf[0] = 1;
  return pasta_test_stub(buf[0]) + 4;
}

__attribute__((noinline)) int pasta_test_outer1(int (*site)(int), int x) {
  return site(x) + 5;
}

__attribute__((noinline)) int pasta_test_outer2(int (*site)(int), int x) {
  return site(x) + 6;
}

/* Keeps seven values live across the launch, so that -O2 without frame
 * pointers holds one in rbp: the frame saves the caller's rbp inside
 * itself. */
__attribute__((noinline)) int pasta_test_site_pressure(int x) {
  volatile int v[7] = {x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6};
  int a = v[0], b = v[1], c = v[2], d = v[3], e = v[4], f = v[5], g = v[6];
  int r = pasta_test_stub(x);
  return r + a * b + c * d + e * f + g * a + b * c + d * e + f * g;
}
