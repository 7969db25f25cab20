/*===- wrapper.h - What the ABI wrappers share -----------------------------===*
 *
 * Private to the wrapper files (memory.c, sync.c, launch.c, graphs.c,
 * driver_handles.c), the top of host_rt: they alone call up into the
 * runtime's lifecycle (exit arming, modules launched) and hand live events
 * to the analyzers. Nothing below them includes this.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_HOST_RT_WRAPPER_H
#define PASTA_HOST_RT_WRAPPER_H

#include "analyzer_registry.h"
#include "intercept_internal.h"
#include "lifecycle.h"

/* Each wrapper passes its return address (the program's call site) along,
 * and reports the call's duration to trace mode. */
#define PASTA__SITE __builtin_return_address(0)

/* Where that return address lies: the slot above the frame pointer, which
 * __builtin_frame_address gives the wrapper. x86_64 only (the call-path
 * cache, callpath.c); NULL elsewhere. */
#if defined(__x86_64__)
#define PASTA__SITE_SLOT ((void *const *)__builtin_frame_address(0) + 1)
#else
#define PASTA__SITE_SLOT NULL
#endif

/* After one of the program's vendor calls returned: the vendor runtime has
 * initialised, so the report's exit handler can be ordered before its
 * teardown (lifecycle.c). Lock held. */
static inline void pasta__note_call(ops_t *ops) {
  pasta__note_ops(ops);
  pasta__arm_exit();
}

#endif
