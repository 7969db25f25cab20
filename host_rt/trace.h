/*===- trace.h - Trace mode: C.A.T.S. scope and memory events -------------===*
 *
 * Internal to libpasta_rt. trace.c records the host side of a trace-mode run
 * (PASTA_TRACE=1 at build time; PASTA_TRACE=0 at run time turns it off):
 * the host functions' scope events (the pass calls __pasta_scope_enter and
 * __pasta_scope_exit), and what the wrappers report: allocations, frees,
 * copies, launches (each a parallel scope around the kernel's device
 * scopes), timed API calls and kernels, and the records of traced launches.
 * At exit report.c hands it every module's tables and asks for the
 * struct pasta_trace (trace_model.h) the writers and analyses read, which
 * trace_build.c builds.
 *
 * Every call is thread-safe. Times are CLOCK_MONOTONIC nanoseconds.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_HOST_RT_TRACE_H
#define PASTA_HOST_RT_TRACE_H

#include "pasta/abi.h"
#include "profile/trace_model.h"

#include <stdint.h>

/* Whether trace mode records (decided once: PASTA_TRACE, default on when
 * the program has trace code). */
int pasta__trace_on(void);
/* Called when a kernel with a trace copy registers: the program has trace
 * code, so trace mode is on unless PASTA_TRACE=0. */
void pasta__trace_code_seen(void);
uint64_t pasta__trace_now(void);

/* An intercepted API call [t0, t1) on the calling thread; correlation:
 * launch id + 1 for launches, else 0. */
void pasta__trace_api(const char *name, uint64_t t0, uint64_t t1,
                      uint64_t correlation);

/* Allocation `id` (the wrappers', from 0) of `size` bytes, made by the call
 * returning to `site`. */
void pasta__trace_alloc(uint64_t id, uint64_t size, const char *kind,
                        const void *site, uint64_t t);
void pasta__trace_free(uint64_t id, const void *site, uint64_t t);
/* A copy or set: reads src (unless src_id is UINT64_MAX) and writes dst
 * (unless dst_id is UINT64_MAX), at these offsets into them. */
void pasta__trace_copy(uint64_t dst_id, uint64_t dst_offset, uint64_t src_id,
                       uint64_t src_offset, uint64_t bytes, const void *site,
                       uint64_t t);

/* A launch: `arg_ids[k]` is the allocation parameter k points into
 * (UINT64_MAX: none), for k < nargs. `module` is the device module's host
 * shadow (the key of pasta__trace_add_module). */
void pasta__trace_launch(uint64_t launch, const char *mangled,
                         const void *module, const uint64_t *arg_ids,
                         uint32_t nargs, const void *site, uint64_t t);
/* A kernel's GPU time, for the Chrome trace. */
void pasta__trace_kernel_span(uint64_t launch, const char *mangled, int device,
                              const void *stream, uint64_t start,
                              uint64_t duration);
/* The records a traced launch left: `stored` of them (at most the buffer's
 * capacity) out of `head` claimed; host clock before the launch and after
 * the read-back, for a launch that waited for its stream (else both 0: no
 * clock pair). */
void pasta__trace_records(uint64_t launch, const char *mangled,
                          const void *module,
                          const struct pasta_trace_record *records,
                          uint64_t stored, uint64_t head, uint64_t t_before,
                          uint64_t t_after);

/* At exit, for every module: `key` is the host descriptor's address (host
 * modules) or the device descriptor's host shadow; desc points at host
 * copies of the tables (copied again here). */
void pasta__trace_add_module(const void *key,
                             const struct pasta_module_desc *desc,
                             const uint64_t *counters);

/* Builds the trace (scopes still open are closed now). Returns 0 and fills
 * *t, or -1 when out of memory or when nothing was traced (*t zeroed).
 * pasta__trace_release frees what it allocated. */
int pasta__trace_build(struct pasta_trace *t, const char *program);
void pasta__trace_release(struct pasta_trace *t);

/* Trace-launch settings for intercept.c. */
uint32_t pasta__trace_launches(void); /* PASTA_TRACE_LAUNCHES (default 2) */
uint32_t pasta__trace_capacity(void); /* PASTA_TRACE_RECORDS (default 65536) */
uint32_t pasta__trace_warps(void);    /* PASTA_TRACE_WARPS (default 64) */

#endif
