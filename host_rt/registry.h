/*===- registry.h - The registered modules ---------------------------------===*
 *
 * Private to host_rt: the host and device modules the program registered
 * (lifecycle.c registers them, readback.c reads them, report.c reports
 * them), under a spinlock (no libpthread needed for registration).
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_HOST_RT_REGISTRY_H
#define PASTA_HOST_RT_REGISTRY_H

#include "pasta/abi.h"

#include <stddef.h>
#include <stdint.h>

struct pasta__snapshot;

struct pasta__device_module {
  const void *symbol; /* host shadow of the device descriptor */
  struct pasta_vendor_ops ops;
  const struct pasta_vendor_ops *ops_ptr; /* the program's copy */
  void *dso;      /* __dso_handle of the object holding it, or NULL */
  int exit_armed; /* an unload handler runs after its vendor runtime's */
  int gone;       /* its object was unloaded (or the report ran) */
  /* Per GPU: whether one of its kernels ran there (only those GPUs are
   * read: no context on a GPU the program never used). */
  unsigned char used[PASTA_MAX_DEVICES];
  /* Per GPU: counts read before a device reset (which frees that GPU's
   * copy of the counters), summed over banks: added to the final read. */
  uint64_t *carried[PASTA_MAX_DEVICES];
  uint32_t carried_n[PASTA_MAX_DEVICES];
  /* Read when its object was unloaded, or by the device stage at exit:
   * the report uses it as is. */
  struct pasta__snapshot *final;
  int kept; /* the device stage read it (into final, or it failed) */
};

struct pasta__registry {
  const struct pasta_module_desc **host;
  size_t num_host, cap_host;
  struct pasta__device_module *device;
  size_t num_device, cap_device;
  int atexit_done;
  int oom_warned;
  size_t unread; /* device modules that could not be read */
};

#pragma GCC visibility push(hidden)

extern struct pasta__registry pasta__registry;

void pasta__lock(void);
void pasta__unlock(void);
/* Makes room for one more element; called with the lock held. */
int pasta__grow(void **array, size_t *cap, size_t num, size_t elem);
/* The registered module whose host shadow is `symbol`, or NULL. Lock held. */
struct pasta__device_module *pasta__find_module(const void *symbol);

#pragma GCC visibility pop

#endif
