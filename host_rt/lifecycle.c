/*===- lifecycle.c - Registration, exit, unload, fork and device reset -----===*
 *
 * When the runtime reads the modules (docs/design.md, "Why counts survive
 * every program structure and exit path"): the ABI calls that register
 * modules and their objects, the report's exit handlers (armed again after
 * each vendor call: lifecycle.h), the unload handler of each module's
 * object, the fork handler, and the reads carried over a device reset.
 * The top of the runtime's side: only the wrappers call into it.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "lifecycle.h"
#include "intercept.h"
#include "pasta/abi.h"
#include "profile/diag.h"
#include "readback.h"
#include "registry.h"
#include "report.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PASTA_ABI __attribute__((visibility("default")))

static void pasta__carry_all(void);

PASTA_ABI void __pasta_register_host_module(const struct pasta_module_desc *);
PASTA_ABI void __pasta_register_device_module(const void *desc_symbol,
                                              const struct pasta_vendor_ops *);
PASTA_ABI void __pasta_module_dso(const void *desc_symbol, void *dso);
PASTA_ABI void __pasta_main_exit(void);
PASTA_ABI void __pasta_before_device_reset(void);
PASTA_ABI void __pasta_reset_begin(void);
PASTA_ABI void __pasta_reset_end(void);

/* glibc: run f(arg) when the object `dso` is unloaded (dlclose) or at exit,
 * in reverse order of registration with atexit handlers. */
int __cxa_atexit(void (*f)(void *), void *arg, void *dso);

static void pasta__arm_module(struct pasta__device_module *m);

/* The order at exit (docs/design.md, "The order at exit"): device counts
 * are read by the exit handler registered after the vendor runtime
 * initialised (pasta__arm_exit), which runs before the vendor's teardown;
 * host counts at the very end, by the runtime's destructor below, after
 * every atexit handler and static destructor of the program; quick_exit
 * runs neither, so its handlers do both. */
static void pasta__atexit(void) { pasta__read_devices(); }
static void pasta__at_quick_exit(void) { pasta__report(); }

/* After every atexit handler (they, and the program's static destructors,
 * run first: glibc runs the objects' destructors last) and after the
 * program's own destructors of default priority (101 runs last of those in
 * the same object: libpasta_rt.a linked into the executable). In
 * libpasta_rt.so it runs after the destructors of every object that links
 * it. */
__attribute__((destructor(101))) static void pasta__lifecycle_end(void) {
  if (pasta__registry.atexit_done)
    pasta__report();
}

/* Called with the lock held, at the first module's registration (a
 * constructor): a handler for quick_exit, which runs no destructor.
 * Programs that use a vendor runtime get another from pasta__arm_exit. */
static void pasta__first_registration(void) {
  if (pasta__registry.atexit_done)
    return;
  pasta__registry.atexit_done = 1;
  if (at_quick_exit(pasta__at_quick_exit))
    PASTA_WARN("cannot register a quick_exit handler; "
               "a program that ends with quick_exit writes no "
               "profile\n");
}

/* 0 until the report's exit handlers were registered after the vendor
 * runtime initialised; back to 0 after a device reset (the vendor runtime
 * may initialise, and register its teardown, again). */
static int pasta__exit_armed;

/* Called by the wrappers after a vendor call returned. The CUDA and HIP
 * runtimes register their teardown (which makes every later call fail with
 * "driver shutting down") with atexit when they initialise, that is at the
 * program's first call into them; exit handlers run in reverse order of
 * registration, so a handler registered now runs before that teardown,
 * however the program ends: return from a main compiled by anyone, exit()
 * from any thread, quick_exit. Registering again is harmless: the report
 * runs once. */
void pasta__arm_exit(void) {
  if (__atomic_load_n(&pasta__exit_armed, __ATOMIC_ACQUIRE) ||
      __atomic_exchange_n(&pasta__exit_armed, 1, __ATOMIC_ACQ_REL))
    return;
  if (atexit(pasta__atexit) || at_quick_exit(pasta__at_quick_exit))
    PASTA_WARN("cannot register an exit handler; device "
               "counts may be lost if the program does not return from "
               "an instrumented main\n");
}

/* Called by the wrappers after a launch of a kernel of module `symbol` on
 * GPU `device` (the first on that GPU since the last reset). */
void pasta__module_launched(const void *symbol, int device) {
  if (!symbol)
    return;
  int armed = 0;
  pasta__lock();
  struct pasta__device_module *m = pasta__find_module(symbol);
  if (m) {
    if (!m->exit_armed) {
      m->exit_armed = armed = 1;
      pasta__arm_module(m);
    }
    if (device >= 0 && device < (int)PASTA_MAX_DEVICES)
      m->used[device] = 1;
  }
  pasta__unlock();
  /* At exit the report runs before the module handlers (which then have
   * nothing to do), while every vendor call is still there. */
  if (armed) {
    __atomic_store_n(&pasta__exit_armed, 0, __ATOMIC_RELEASE);
    pasta__arm_exit();
  }
}

void __pasta_register_host_module(const struct pasta_module_desc *desc) {
  if (!desc)
    return;
  pasta__lock();
  pasta__first_registration();
  if (!pasta__grow((void **)&pasta__registry.host, &pasta__registry.cap_host,
                   pasta__registry.num_host, sizeof *pasta__registry.host))
    pasta__registry.host[pasta__registry.num_host++] = desc;
  pasta__unlock();
}

void __pasta_register_device_module(const void *desc_symbol,
                                    const struct pasta_vendor_ops *ops) {
  if (!desc_symbol || !ops || !ops->memcpy_from_symbol || !ops->memcpy ||
      !ops->device_synchronize) {
    PASTA_WARN("ignoring a device module registered "
               "without its descriptor or vendor calls\n");
    return;
  }
  pasta__lock();
  pasta__first_registration();
  if (!pasta__grow((void **)&pasta__registry.device,
                   &pasta__registry.cap_device, pasta__registry.num_device,
                   sizeof *pasta__registry.device)) {
    struct pasta__device_module *m =
        &pasta__registry.device[pasta__registry.num_device++];
    memset(m, 0, sizeof *m);
    m->symbol = desc_symbol;
    m->ops = *ops;
    m->ops_ptr = ops;
  }
  pasta__unlock();
}

static void pasta__module_unloading(void *index);

/* Runs pasta__module_unloading(m) when m's object is unloaded or at exit.
 * Registered once at registration (so that a module whose object is
 * dlclose'd is never read afterwards) and once more at its first launch,
 * after its vendor runtime initialised: handlers run in reverse order, so
 * that one runs before the vendor runtime's own teardown. Lock held. */
static void pasta__arm_module(struct pasta__device_module *m) {
  if (!m->dso)
    return;
  uintptr_t index = (uintptr_t)(m - pasta__registry.device) + 1;
  if (__cxa_atexit(pasta__module_unloading, (void *)index, m->dso))
    PASTA_WARN("cannot register an unload handler; a "
               "module in a library closed with dlclose is lost\n");
}

/* Inserted by the pass after __pasta_register_device_module: the object
 * (executable or shared library) that holds the module. */
void __pasta_module_dso(const void *desc_symbol, void *dso) {
  pasta__lock();
  struct pasta__device_module *m = pasta__find_module(desc_symbol);
  if (m && !m->dso) {
    m->dso = dso;
    pasta__arm_module(m);
  }
  pasta__unlock();
}

/* When m's object is unloaded (dlclose), or at exit before the vendor
 * runtime's teardown: its counts and tables are read now, while its code,
 * its vendor runtime and its device image are still there. */
static void pasta__module_unloading(void *index) {
  size_t i = (size_t)(uintptr_t)index - 1;
  const struct pasta_vendor_ops *ops = NULL;
  pasta__lock();
  struct pasta__device_module *m =
      i < pasta__registry.num_device ? &pasta__registry.device[i] : NULL;
  if (m && !m->gone) {
    if (m->exit_armed && !m->kept) {
      struct pasta__snapshot total;
      struct pasta__snapshot *keep = malloc(sizeof *keep);
      if (keep && pasta__collect_device_module(m, &total) == 0) {
        *keep = total;
        m->final = keep;
      } else {
        free(keep);
        ++pasta__registry.unread;
      }
    }
    m->gone = 1;
    ops = m->ops_ptr;
  }
  pasta__unlock();
  if (ops)
    pasta__activity_module_gone(ops);
}

/* A forked child starts counting from zero: its profile holds what it did
 * after fork() returned, the parent's holds the rest, and a merge of both
 * counts everything once. Instrumented frames flush before calling fork()
 * (CountingPass), so no count of the parent's is left in the child's
 * registers; the host counters the parent flushed are zeroed here. */
static void pasta__fork_child(void) {
  for (size_t i = 0; i < pasta__registry.num_host; ++i) {
    const struct pasta_module_desc *d = pasta__registry.host[i];
    if (pasta_profile_check_desc(d) == PASTA_PROFILE_OK && d->counters)
      memset((void *)(uintptr_t)d->counters, 0,
             (size_t)d->num_banks * d->num_counters * sizeof(uint64_t));
  }
  pasta__reported = 0;
  pasta__device_read = 0;
  pasta__unlock();
}

__attribute__((constructor)) static void pasta__lifecycle_start(void) {
  if (pthread_atfork(pasta__lock, pasta__unlock, pasta__fork_child))
    PASTA_WARN("cannot register a fork handler; a "
               "forked child's profile repeats its parent's counts\n");
}

/* Inserted by the pass before main returns and before calls to exit():
 * the device stage, when no exit handler was registered after a vendor
 * runtime initialised (the program's calls were not intercepted), as that
 * runtime's teardown may run before any handler of ours. Host counts are
 * collected later, after atexit handlers and static destructors. */
void __pasta_main_exit(void) {
  if (__atomic_load_n(&pasta__exit_armed, __ATOMIC_ACQUIRE))
    return;
  pasta__lock();
  size_t devices = pasta__registry.num_device;
  pasta__unlock();
  if (devices)
    pasta__read_devices();
}

/* Before each call to cudaDeviceReset / hipDeviceReset: inserted by the pass
 * in instrumented code, and called by the link-time wrapper (link_glue.c)
 * for calls from any code. The reset frees the current GPU's counters, so
 * read them now and carry them over; a second call before the next launch
 * finds nothing new to carry. */
/* Set by __pasta_before_device_reset until the reset it precedes is done:
 * an instrumented call to cudaDeviceReset in a program linked with the
 * wrapper (link_glue.c) goes through both, and must carry once. */
static __thread int pasta__reset_carried;

void __pasta_before_device_reset(void) {
  pasta__reset_carried = 1;
  pasta__carry_all();
}

/* link_glue.c's wrapper of cudaDeviceReset / hipDeviceReset, around the
 * real call: carries unless the pass's hook just did. */
void __pasta_reset_begin(void) {
  if (!pasta__reset_carried)
    pasta__carry_all();
}

void __pasta_reset_end(void) { pasta__reset_carried = 0; }

static void pasta__carry_all(void) {
  pasta__lock();
  for (size_t i = 0; i < pasta__registry.num_device; ++i)
    pasta__carry_device_module(&pasta__registry.device[i]);
  pasta__unlock();
  pasta__activity_before_reset();
  __atomic_store_n(&pasta__exit_armed, 0, __ATOMIC_RELEASE);
}
