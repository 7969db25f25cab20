/*===- readback.h - Reading the registered modules -------------------------===*
 *
 * Private to host_rt: reading a module's tables and counters (host
 * modules in place, device modules through their vendor calls) into the
 * profile, for the report, for an unloaded module and before a reset.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_HOST_RT_READBACK_H
#define PASTA_HOST_RT_READBACK_H

#include "pasta/abi.h"
#include "pasta/profile.h"
#include "registry.h"

/* One device module as read from the current GPU: its descriptor and
 * tables (host copies) and its counters summed over banks, plus what was
 * carried over a reset of that GPU. */
struct pasta__snapshot {
  struct pasta_module_desc desc;
  void *funcs, *sites, *scopes, *accesses, *div_rows;
  char *strings;
  uint64_t *sum;
  const char *name;
};

#pragma GCC visibility push(hidden)

/* Set once the report (or a reset) said why device modules cannot be
 * read; the report clears it to say it again. */
extern int pasta__sync_warned;

void pasta__snapshot_free(struct pasta__snapshot *s);
void pasta__read_host_module(pasta_profile *p,
                             const struct pasta_module_desc *d);

/* Zeroes the divergence figures (rows of s->div_rows, in s->sum) of the
 * kernels whose divergence copy never ran, and of the device functions only
 * such a kernel reaches (pasta__activity_divergence_unmeasured). */
void pasta__clear_unmeasured_divergence(const struct pasta__snapshot *s);

/* Reads module m and sums the counts of every GPU into *total: the GPUs its
 * kernels ran on (never a GPU the program did not use), or for a module
 * that never ran, the current one (for its tables). When the program's
 * calls were not intercepted (PASTA_INTERCEPT=0), every GPU. Returns 0,
 * or -1 after a warning. Lock held. */
int pasta__collect_device_module(struct pasta__device_module *m,
                                 struct pasta__snapshot *total);
/* Reads module m (or takes what was read when its object was unloaded) and
 * adds it to p once. Lock held. */
void pasta__read_device_module(pasta_profile *p,
                               struct pasta__device_module *m);
/* The device stage at exit (report.h): reads module m now into m->final
 * (or counts it unread) for the report. Lock held. */
void pasta__keep_device_module(struct pasta__device_module *m);
/* Before a device reset: the current GPU's counts are read and carried, for
 * the modules whose kernels ran there since the last reset. */
void pasta__carry_device_module(struct pasta__device_module *m);

#pragma GCC visibility pop

#endif
