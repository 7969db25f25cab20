/*===- kernels.c - The kernel registry and the variant of each launch ------===*
 *
 * Kernels by handle (an open-addressing table of indices into
 * pasta__st.kernels), named when the program registers them
 * (__pasta_register_kernel); driver handles that stand for them; and which
 * copy a launch runs: counting inside the launch window, plain outside,
 * working-set, trace or divergence copy in those modes.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "intercept_internal.h"
#include "profile/demangle.h"
#include "profile/diag.h"
#include "profile/hash.h"
#include "profile/vec.h"
#include "trace.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t hash_ptr(const void *p, size_t cap) {
  return (size_t)pasta__hash_u64((uint64_t)(uintptr_t)p) & (cap - 1);
}

static int rehash(void) {
  size_t cap = pasta__st.hash_cap ? pasta__st.hash_cap * 2 : 64;
  uint32_t *h = calloc(cap, sizeof *h);
  if (!h)
    return -1;
  for (size_t i = 0; i < pasta__st.num_kernels; ++i) {
    size_t j = hash_ptr(pasta__st.kernels[i].handle, cap);
    while (h[j])
      j = (j + 1) & (cap - 1);
    h[j] = (uint32_t)i + 1;
  }
  free(pasta__st.kernel_hash);
  pasta__st.kernel_hash = h;
  pasta__st.hash_cap = cap;
  return 0;
}

struct kernel *pasta__find_kernel(const void *handle) {
  if (!pasta__st.hash_cap)
    return NULL;
  for (size_t j = hash_ptr(handle, pasta__st.hash_cap);
       pasta__st.kernel_hash[j]; j = (j + 1) & (pasta__st.hash_cap - 1))
    if (pasta__st.kernels[pasta__st.kernel_hash[j] - 1].handle == handle)
      return &pasta__st.kernels[pasta__st.kernel_hash[j] - 1];
  return NULL;
}

struct driver_handle *pasta__driver_handle(const void *handle) {
  for (size_t i = 0; i < pasta__st.num_handles; ++i)
    if (pasta__st.handles[i].handle == handle)
      return &pasta__st.handles[i];
  return NULL;
}

/* The registered kernel a driver handle (a CUfunction or CUkernel the
 * program took from it) stands for; NULL for any other handle. Lock held. */
struct kernel *pasta__handle_kernel(const void *handle) {
  const struct driver_handle *h = pasta__driver_handle(handle);
  return h ? &pasta__st.kernels[h->kernel] : NULL;
}

/* The kernel of `handle`, added (unnamed) when it was never registered.
 * Called with the lock held; NULL when out of memory. */
struct kernel *pasta__kernel_of(const void *handle) {
  struct kernel *k = pasta__find_kernel(handle);
  if (k)
    return k;
  if (GROW(pasta__st.kernels, pasta__st.cap_kernels, pasta__st.num_kernels))
    return NULL;
  if ((pasta__st.num_kernels + 1) * 2 > pasta__st.hash_cap) {
    if (rehash())
      return NULL;
  }
  k = &pasta__st.kernels[pasta__st.num_kernels++];
  memset(k, 0, sizeof *k);
  k->handle = handle;
  k->nparams = -1;
  k->selected = -1;
  size_t j = hash_ptr(handle, pasta__st.hash_cap);
  while (pasta__st.kernel_hash[j])
    j = (j + 1) & (pasta__st.hash_cap - 1);
  pasta__st.kernel_hash[j] = (uint32_t)pasta__st.num_kernels;
  return k;
}

PASTA_ABI void __pasta_register_kernel(const void *handle, const char *name,
                                       const void *plain, const void *ws,
                                       const void *trace, int nparams,
                                       uint64_t pointer_params,
                                       const void *module) {
  if (!handle)
    return;
  if (trace)
    pasta__trace_code_seen();
  pasta__state_lock();
  struct kernel *k = pasta__kernel_of(handle);
  if (k) {
    /* A copy: the name may live in a library the program closes. */
    if (name && (!k->mangled || strcmp(k->mangled, name) != 0)) {
      char *copy = strdup(name);
      if (copy) {
        free((void *)k->mangled);
        k->mangled = copy;
      }
    }
    k->plain = plain;
    k->ws = ws;
    k->trace = trace;
    k->nparams = nparams;
    k->pointer_params = pointer_params;
    k->num_ws_fields = 0; /* until __pasta_register_kernel_fields */
    k->module = module;
  }
  pasta__state_unlock();
}

/* The pointer fields of a kernel's by-value aggregate parameters, after its
 * __pasta_register_kernel: `pairs` holds (parameter, byte offset) for each,
 * in the order the working-set copy numbers them (abi.h,
 * PASTA_WS_MAX_FIELDS). Its launches look each field's allocation up as
 * they look up pointer parameters'. */
PASTA_ABI void __pasta_register_kernel_fields(const void *handle,
                                              const uint32_t *pairs,
                                              uint32_t count) {
  if (!handle || !pairs)
    return;
  pasta__state_lock();
  struct kernel *k = pasta__kernel_of(handle);
  if (k) {
    k->num_ws_fields = 0;
    for (uint32_t i = 0; i < count && i < PASTA_WS_MAX_FIELDS; ++i) {
      uint32_t param = pairs[2 * i], offset = pairs[2 * i + 1];
      if (param > UINT16_MAX || offset > UINT16_MAX - 8)
        break; /* no kernel has such parameters: numbering stops here */
      k->ws_fields[k->num_ws_fields++] =
          (struct ws_field){(uint16_t)param, (uint16_t)offset};
    }
  }
  pasta__state_unlock();
}

/* A registered kernel's copies other than its counting kernel and plain
 * copy, as the registration calls below hand them over. */
enum copy_kind {
  DIV_COPY,
  DIV_UNCAPPED,
  DIV_GENERAL,
  DIV_ONE_LANE,
  CAPPED,
  WS_CAPPED
};

static const void **copy_slot(struct kernel *k, enum copy_kind which) {
  switch (which) {
  case DIV_UNCAPPED:
    return &k->div_uncapped;
  case DIV_GENERAL:
    return &k->div_general;
  case DIV_ONE_LANE:
    return &k->div_one_lane;
  case CAPPED:
    return &k->capped;
  case WS_CAPPED:
    return &k->ws_capped;
  case DIV_COPY:
    break;
  }
  return &k->div;
}

static void register_copy(const void *handle, const void *copy,
                          enum copy_kind which) {
  if (!handle)
    return;
  pasta__state_lock();
  struct kernel *k = pasta__kernel_of(handle);
  if (k) {
    *copy_slot(k, which) = copy;
    k->had_div |= which == DIV_COPY && copy;
  }
  pasta__state_unlock();
}

/* The divergence copy of a kernel, from a host module built with
 * PASTA_DIVERGENCE=1 (after its __pasta_register_kernel). */
PASTA_ABI void __pasta_register_divergence_kernel(const void *handle,
                                                  const void *div) {
  register_copy(handle, div, DIV_COPY);
}

/* Its divergence copy without a register cap (NVIDIA builds, after
 * __pasta_register_divergence_kernel). */
PASTA_ABI void __pasta_register_divergence_uncapped(const void *handle,
                                                    const void *copy) {
  register_copy(handle, copy, DIV_UNCAPPED);
}

/* Its divergence copy for every block shape, or a stub (NVIDIA builds,
 * after __pasta_register_divergence_uncapped; abi.h,
 * PASTA_DIV_GENERAL_SUFFIX). */
PASTA_ABI void __pasta_register_divergence_general(const void *handle,
                                                   const void *copy) {
  register_copy(handle, copy, DIV_GENERAL);
}

/* Its divergence copy for blocks of one thread, or a stub (NVIDIA builds,
 * after __pasta_register_divergence_general; abi.h,
 * PASTA_DIV_ONE_LANE_SUFFIX). */
PASTA_ABI void __pasta_register_divergence_one_lane(const void *handle,
                                                    const void *copy) {
  register_copy(handle, copy, DIV_ONE_LANE);
}

/* Its counting code under a register cap (NVIDIA builds, after its
 * __pasta_register_kernel; a stub the runtime never launches where the
 * kernel's own bounds fit its blocks). */
PASTA_ABI void __pasta_register_capped_kernel(const void *handle,
                                              const void *copy) {
  register_copy(handle, copy, CAPPED);
}

/* Its working-set copy under a register cap (NVIDIA builds with
 * working-set copies, after its __pasta_register_kernel; abi.h,
 * PASTA_WS_CAPPED_SUFFIX: a stub the runtime never launches where the pass
 * built none). */
PASTA_ABI void __pasta_register_ws_capped_kernel(const void *handle,
                                                 const void *copy) {
  register_copy(handle, copy, WS_CAPPED);
}

static int kernel_selected(struct kernel *k) {
  if (!pasta__opt.have_kernels_re)
    return 1;
  if (k->selected < 0) {
    const char *m = k->mangled ? k->mangled : "";
    char *display = pasta_demangle(m); /* NULL: not C++, or no demangler */
    k->selected =
        regexec(&pasta__opt.kernels_re, m, 0, NULL, 0) == 0 ||
        (display && regexec(&pasta__opt.kernels_re, display, 0, NULL, 0) == 0);
    free(display);
  }
  return k->selected;
}

void pasta__note_counting_only(const struct kernel *k, const char *how) {
  if (!pasta__opt.divergence || !k || !k->div || pasta__st.warned_div_counting)
    return;
  pasta__st.warned_div_counting = 1;
  PASTA_WARN("PASTA_DIVERGENCE=1 but kernel '%s' is launched %s, "
             "which runs its counting copy: those launches have no divergence "
             "figures\n",
             k->mangled ? k->mangled : "?", how);
}

void pasta__count_div_unmeasured(struct kernel *k, enum div_unmeasured why,
                                 uint64_t threads) {
  if (!pasta__opt.divergence || !k->had_div)
    return;
  switch (why) {
#define PASTA_X(name, key)                                                     \
  case DIV_UNMEASURED_##name:                                                  \
    ++k->stats.name;                                                           \
    break;
    PASTA_ACTIVITY_DIV_REASONS(PASTA_X)
#undef PASTA_X
  }
  if (why == DIV_UNMEASURED_div_by_block && !k->stats.div_block_threads)
    k->stats.div_block_threads = threads;
}

/* Which variant launch `id` of k runs. Called with the lock held. */
enum variant pasta__choose_variant(struct kernel *k, uint64_t id) {
  uint64_t nth = k->seq++;
  int in_window = id >= pasta__opt.start && id <= pasta__opt.end &&
                  kernel_selected(k) &&
                  (pasta__opt.sample < 2 || nth % pasta__opt.sample == 0);
  if (!in_window) {
    if (k->plain)
      return RUN_PLAIN;
    if (!pasta__st.warned_no_plain && k->mangled) {
      pasta__st.warned_no_plain = 1;
      PASTA_WARN("kernel '%s' has no uninstrumented variant "
                 "(compiled with PASTA_VARIANTS=0 or ws, or not "
                 "instrumented); its "
                 "launches outside the launch window are counted\n",
                 k->mangled);
    }
    return RUN_COUNTING;
  }
  /* The first launches of each kernel are traced (C.A.T.S. records an event
   * once per control-flow stack: later launches would add nothing). */
  if (k->trace && k->nparams >= 0 && !pasta__opt.ws && pasta__trace_on() &&
      k->traced < pasta__trace_launches()) {
    ++k->traced;
    return RUN_TRACE;
  }
  if (pasta__opt.ws) {
    if (k->ws && k->nparams >= 0)
      return RUN_WS;
    ++pasta__st.ws_skipped;
    /* A copy given up after the vendor refused it was said then. */
    if (!k->ws && k->mangled && !k->gave_up_copy && !pasta__st.warned_no_ws) {
      pasta__st.warned_no_ws = 1;
      PASTA_WARN("PASTA_WORKING_SET=1 but kernel '%s' has no working-set "
                 "copy (compiled with PASTA_VARIANTS=0 or plain, or "
                 "PASTA_DIVERGENCE=1, or not instrumented); its launches are "
                 "counted without a working set\n",
                 k->mangled);
    }
  }
  if (pasta__opt.divergence) {
    if (k->div)
      return RUN_DIV;
    if (!k->gave_up_copy && !pasta__st.warned_no_div) {
      pasta__st.warned_no_div = 1;
      PASTA_WARN("PASTA_DIVERGENCE=1 but kernel '%s' has no "
                 "divergence copy: set PASTA_DIVERGENCE=1 while compiling too; "
                 "its launches are counted without divergence figures\n",
                 k->mangled ? k->mangled : "?");
    }
  }
  return RUN_COUNTING;
}
