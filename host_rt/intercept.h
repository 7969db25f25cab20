/*===- intercept.h - The runtime's view of launches and memory -----------===*
 *
 * Internal to libpasta_rt: what runtime.c (the report) needs from
 * intercept.c (the wrappers the pass routes the program's CUDA/HIP calls
 * to). The wrappers themselves are ABI entry points, declared in
 * intercept.c.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_HOST_RT_INTERCEPT_H
#define PASTA_HOST_RT_INTERCEPT_H

#include "activity.h"
#include "analyzer.h"

/* Whether the program made any call the runtime intercepts. */
int pasta__activity_seen(void);

/* Waits for the timed launches still in flight, then fills *a (kernels,
 * call paths symbolised, memory, working sets). Returns 0, or -1 when out of
 * memory. pasta__activity_free releases what it allocated. */
int pasta__activity_build(pasta_activity *a);
void pasta__activity_free(pasta_activity *a);

/* Before a device reset: times what is in flight on the current GPU and
 * drops the runtime's events, buffers and the allocations of that GPU. */
void pasta__activity_before_reset(void);

/* In runtime.c: hand a live event to the selected analyzers. */
void pasta__notify_launch(const pasta_launch_event *e);
void pasta__notify_allocation(const pasta_allocation_event *e);

#endif
