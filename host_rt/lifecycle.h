/*===- lifecycle.h - Registration, exit, unload, fork and reset ------------===*
 *
 * Private to host_rt: what the wrappers (the layer above lifecycle.c) tell
 * the runtime. lifecycle.c registers the report's exit handlers and reads
 * modules before whatever would free their counters.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_HOST_RT_LIFECYCLE_H
#define PASTA_HOST_RT_LIFECYCLE_H

/* Called after a vendor call returned (the vendor runtime has
 * initialised), and after a launch of a kernel of module `symbol` on GPU
 * `device` (the first there since the last reset). */
void pasta__arm_exit(void);
void pasta__module_launched(const void *symbol, int device);

#endif
