/*===- registry.c - The registered modules ---------------------------------===*
 *
 * The table of registered host and device modules and its spinlock, the
 * host counters' flush (__pasta_host_flush) and, in libpasta_rt.so, the pin
 * that keeps this library loaded to the end.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "registry.h"
#include "profile/diag.h"
#include "profile/vec.h"

#include <stdio.h>

struct pasta__registry pasta__registry;

static char pasta__lock_flag;

void pasta__lock(void) {
  while (__atomic_test_and_set(&pasta__lock_flag, __ATOMIC_ACQUIRE))
    ;
}

void pasta__unlock(void) {
  __atomic_clear(&pasta__lock_flag, __ATOMIC_RELEASE);
}

/* Makes room for one more element, or says (once) that a module is lost.
 * Called with the lock held. */
int pasta__grow(void **array, size_t *cap, size_t num, size_t elem) {
  if (pasta__grow_array(array, cap, num, elem) == 0)
    return 0;
  if (!pasta__registry.oom_warned)
    PASTA_WARN("out of memory registering a module; "
               "it will be missing from the profile\n");
  pasta__registry.oom_warned = 1;
  return -1;
}

#ifdef PASTA_RT_SHARED
#include <dlfcn.h>

/* libpasta_rt.so stays loaded until the process ends, even when the only
 * library that needed it is closed with dlclose: the registry, the counts
 * read from unloaded modules and the exit handlers live here. */
__attribute__((constructor)) static void pasta__pin(void) {
  Dl_info info;
  if (dladdr((void *)&pasta__pin, &info) && info.dli_fname)
    dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
}
#endif

/* The registered module whose host shadow is `symbol`, or NULL. Lock held. */
struct pasta__device_module *pasta__find_module(const void *symbol) {
  for (size_t i = pasta__registry.num_device; i-- > 0;)
    if (pasta__registry.device[i].symbol == symbol &&
        !pasta__registry.device[i].gone)
      return &pasta__registry.device[i];
  return NULL;
}

#define PASTA_ABI __attribute__((visibility("default")))

/* What every instrumented host module refers to (pasta/abi.h): objects
 * built for another ABI version do not link against this runtime. */
PASTA_ABI const char PASTA_ABI_SYMBOL_ID = 1;

PASTA_ABI void __pasta_host_flush(uint64_t *counters, uint32_t first,
                                  const uint64_t *values, uint32_t n);

/* The thread-local counts of a host function with many counters
 * (passes/CounterEmissionHost.cpp, range flushes): values[0..n) are the
 * thread's elements of its counters first..first+n; each bit g of groups
 * names the elements [g * group, (g + 1) * group), touched since the
 * function's last flush point. Adds those that are not zero and resets
 * them. */
PASTA_ABI void __pasta_host_flush_groups(uint64_t *counters, uint32_t first,
                                         uint64_t *values, uint32_t n,
                                         uint64_t groups, uint32_t group);

/* glibc's: nonzero while the process has one thread (it turns 0 before
 * a second thread exists). */
extern char __libc_single_threaded;

void __pasta_host_flush(uint64_t *counters, uint32_t first,
                        const uint64_t *values, uint32_t n) {
  if (__libc_single_threaded) {
    for (uint32_t i = 0; i < n; ++i)
      if (values[i])
        counters[first + i] += values[i];
    return;
  }
  for (uint32_t i = 0; i < n; ++i)
    if (values[i])
      __atomic_fetch_add(&counters[first + i], values[i], __ATOMIC_RELAXED);
}

void __pasta_host_flush_groups(uint64_t *counters, uint32_t first,
                               uint64_t *values, uint32_t n, uint64_t groups,
                               uint32_t group) {
  uint64_t *restrict out = counters + first;
  uint64_t *restrict in = values;
  if (__libc_single_threaded) {
    /* Every element of a set group, zero or not, without a test (adding
     * or resetting a zero is harmless): which few of a group's elements
     * are non-zero changes with the path taken, so a test per element was
     * a branch hard to predict (lua's luaV_execute: 45 elements, 11 of
     * them non-zero, per flush), and the loop without it is vectorised. */
    while (groups) {
      uint32_t lo = (uint32_t)__builtin_ctzll(groups) * group;
      uint32_t hi = lo + group < n ? lo + group : n;
      groups &= groups - 1;
      for (uint32_t i = lo; i < hi; ++i) {
        out[i] += in[i];
        in[i] = 0;
      }
    }
    return;
  }
  while (groups) {
    uint32_t lo = (uint32_t)__builtin_ctzll(groups) * group;
    uint32_t hi = lo + group < n ? lo + group : n;
    groups &= groups - 1;
    for (uint32_t i = lo; i < hi; ++i) {
      uint64_t v = in[i];
      if (!v)
        continue;
      in[i] = 0;
      __atomic_fetch_add(&out[i], v, __ATOMIC_RELAXED);
    }
  }
}
