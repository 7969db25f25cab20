/*===- memory.c - The memory wrappers --------------------------------------===*
 *
 * The allocations, frees, copies and sets of CUDA and HIP (ABI entry
 * points): each calls the program's function, then records the allocation
 * (the live table, allocations.c), the copy or set, and tells the live
 * analyzers and trace mode.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "intercept_internal.h"
#include "profile/vec.h"
#include "trace.h"
#include "wrapper.h"

#include <string.h>

static void note_alloc(ops_t *ops, void *ptr, uint64_t size, unsigned kind,
                       const void *site) {
  if (!ptr)
    return;
  uint64_t t = pasta__trace_now();
  int device = kind == PASTA_ALLOC_HOST ? -1 : pasta__vendor_device(ops);
  pasta_allocation_event e = {0, kind, (uint64_t)(uintptr_t)ptr, size, device};
  pasta__notify_allocation(&e);
  pasta__state_lock();
  pasta__note_call(ops);
  ++pasta__st.memory.allocs[kind];
  pasta__st.memory.alloc_bytes[kind] += size;
  if (!GROW(pasta__st.live, pasta__st.cap_live, pasta__st.num_live)) {
    uint64_t base = (uint64_t)(uintptr_t)ptr;
    size_t i = pasta__live_upper_bound(base);
    memmove(&pasta__st.live[i + 1], &pasta__st.live[i],
            (pasta__st.num_live - i) * sizeof *pasta__st.live);
    uint64_t id = pasta__st.next_alloc_id++;
    pasta__st.live[i] = (struct allocation){base, size ? size : 1, (uint32_t)id,
                                            (uint8_t)kind, device};
    pasta__trace_alloc(id, size, pasta__alloc_kind_name(kind), site, t);
    ++pasta__st.num_live;
    pasta__st.live_bytes += size;
    if (pasta__st.live_bytes > pasta__st.memory.peak_bytes)
      pasta__st.memory.peak_bytes = pasta__st.live_bytes;
    ++pasta__st.generation;
  }
  pasta__state_unlock();
}

static void note_free(ops_t *ops, void *ptr, const void *site) {
  if (!ptr)
    return;
  uint64_t t = pasta__trace_now();
  pasta_allocation_event e = {1, 0, (uint64_t)(uintptr_t)ptr, 0, -1};
  pasta__notify_allocation(&e);
  uint64_t base = (uint64_t)(uintptr_t)ptr;
  pasta__state_lock();
  pasta__note_call(ops);
  ++pasta__st.memory.frees;
  size_t i = pasta__live_upper_bound(base);
  if (i > 0 && pasta__st.live[i - 1].base == base) {
    pasta__trace_free(pasta__st.live[i - 1].id, site, t);
    pasta__drop_live(i - 1);
  } else
    ++pasta__st.memory.unknown_frees;
  pasta__state_unlock();
}

/* A copy's direction when the program let the runtime infer it. */
static unsigned copy_kind(int kind, const void *dst, const void *src) {
  if (kind >= 0 && kind < 4)
    return (unsigned)kind; /* cudaMemcpyKind: H2H, H2D, D2H, D2D */
  const struct allocation *d = pasta__allocation_at((uint64_t)(uintptr_t)dst);
  const struct allocation *s = pasta__allocation_at((uint64_t)(uintptr_t)src);
  int dd = d && d->kind != PASTA_ALLOC_HOST,
      sd = s && s->kind != PASTA_ALLOC_HOST;
  if (!d && !s)
    return PASTA_COPY_DEFAULT; /* pageable host memory, or memory we missed */
  return sd ? (dd ? PASTA_COPY_D2D : PASTA_COPY_D2H)
            : (dd ? PASTA_COPY_H2D : PASTA_COPY_H2H);
}

/* Whether the host side of a copy is pinned memory the program allocated
 * through the runtime (cudaMallocHost / cudaHostAlloc). Lock held. */
static int host_side_pinned(unsigned kind, void *dst, const void *src) {
  const void *host = kind == PASTA_COPY_H2D   ? src
                     : kind == PASTA_COPY_D2H ? dst
                                              : NULL;
  const struct allocation *a =
      host ? pasta__allocation_at((uint64_t)(uintptr_t)host) : NULL;
  return a && a->kind == PASTA_ALLOC_HOST;
}

/* Trace mode: a copy reads its source and writes its destination, where
 * they are allocations the runtime knows. Lock held. */
static void trace_copy(const void *dst, const void *src, uint64_t n,
                       const void *site, uint64_t t) {
  const struct allocation *d =
      dst ? pasta__allocation_at((uint64_t)(uintptr_t)dst) : NULL;
  const struct allocation *s =
      src ? pasta__allocation_at((uint64_t)(uintptr_t)src) : NULL;
  if (!d && !s)
    return;
  pasta__trace_copy(d ? d->id : UINT64_MAX,
                    d ? (uint64_t)(uintptr_t)dst - d->base : 0,
                    s ? s->id : UINT64_MAX,
                    s ? (uint64_t)(uintptr_t)src - s->base : 0, n, site, t);
}

static void note_copy(ops_t *ops, int err, void *dst, const void *src,
                      uint64_t n, int kind, int async, uint64_t ns,
                      const void *site, uint64_t t) {
  if (err)
    return;
  pasta__state_lock();
  trace_copy(dst, src, n, site, t);
  pasta__note_call(ops);
  unsigned k = copy_kind(kind, dst, src);
  ++pasta__st.memory.copies[k];
  pasta__st.memory.copy_bytes[k] += n;
  pasta__st.memory.async_copies += (uint64_t)async;
  pasta__st.memory.copy_ns[k] += ns;
  pasta__st.memory.copies_pinned[k] += (uint64_t)host_side_pinned(k, dst, src);
  pasta__state_unlock();
}

static void note_memset(ops_t *ops, int err, void *p, uint64_t n,
                        const void *site, uint64_t t) {
  if (err)
    return;
  pasta__state_lock();
  trace_copy(p, NULL, n, site, t);
  pasta__note_call(ops);
  ++pasta__st.memory.memsets;
  pasta__st.memory.memset_bytes += n;
  pasta__state_unlock();
}

static int allocated(ops_t *ops, int err, void **p, uint64_t size,
                     unsigned kind, const void *site, uint64_t t0,
                     const char *api) {
  pasta__trace_api(api, t0, pasta__trace_now(), 0);
  if (!err && p)
    note_alloc(ops, *p, size, kind, site);
  return err;
}

PASTA_ABI int __pasta_malloc(void **p, uint64_t size,
                             int (*real)(void **, uint64_t), ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  return allocated(ops, real(p, size), p, size, PASTA_ALLOC_DEVICE, PASTA__SITE,
                   t0, "malloc");
}

PASTA_ABI int __pasta_malloc_managed(void **p, uint64_t size, uint32_t flags,
                                     int (*real)(void **, uint64_t, uint32_t),
                                     ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  return allocated(ops, real(p, size, flags), p, size, PASTA_ALLOC_MANAGED,
                   PASTA__SITE, t0, "malloc managed");
}

PASTA_ABI int __pasta_malloc_host(void **p, uint64_t size,
                                  int (*real)(void **, uint64_t), ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  return allocated(ops, real(p, size), p, size, PASTA_ALLOC_HOST, PASTA__SITE,
                   t0, "malloc host");
}

PASTA_ABI int __pasta_host_alloc(void **p, uint64_t size, uint32_t flags,
                                 int (*real)(void **, uint64_t, uint32_t),
                                 ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  return allocated(ops, real(p, size, flags), p, size, PASTA_ALLOC_HOST,
                   PASTA__SITE, t0, "host alloc");
}

PASTA_ABI int
__pasta_malloc_pitch(void **p, uint64_t *pitch, uint64_t width, uint64_t height,
                     int (*real)(void **, uint64_t *, uint64_t, uint64_t),
                     ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  int err = real(p, pitch, width, height);
  pasta__trace_api("malloc pitch", t0, pasta__trace_now(), 0);
  if (!err && p && pitch)
    note_alloc(ops, *p, *pitch * height, PASTA_ALLOC_PITCH, PASTA__SITE);
  return err;
}

PASTA_ABI int __pasta_malloc_async(void **p, uint64_t size, void *stream,
                                   int (*real)(void **, uint64_t, void *),
                                   ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  return allocated(ops, real(p, size, stream), p, size, PASTA_ALLOC_ASYNC,
                   PASTA__SITE, t0, "malloc async");
}

static int freed(ops_t *ops, int err, void *p, const void *site, uint64_t t0) {
  pasta__trace_api("free", t0, pasta__trace_now(), 0);
  if (!err)
    note_free(ops, p, site);
  return err;
}

PASTA_ABI int __pasta_free(void *p, int (*real)(void *), ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  return freed(ops, real(p), p, PASTA__SITE, t0);
}

PASTA_ABI int __pasta_free_host(void *p, int (*real)(void *), ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  return freed(ops, real(p), p, PASTA__SITE, t0);
}

PASTA_ABI int __pasta_free_async(void *p, void *stream,
                                 int (*real)(void *, void *), ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  return freed(ops, real(p, stream), p, PASTA__SITE, t0);
}

PASTA_ABI int __pasta_memcpy(void *dst, const void *src, uint64_t n, int kind,
                             int (*real)(void *, const void *, uint64_t, int),
                             ops_t *ops) {
  /* One clock for the copy's duration and its trace span. */
  uint64_t t0 = pasta__trace_now();
  int err = real(dst, src, n, kind);
  uint64_t t1 = pasta__trace_now();
  pasta__trace_api("memcpy", t0, t1, 0);
  note_copy(ops, err, dst, src, n, kind, 0, t1 - t0, PASTA__SITE, t0);
  return err;
}

PASTA_ABI int __pasta_memcpy_async(
    void *dst, const void *src, uint64_t n, int kind, void *stream,
    int (*real)(void *, const void *, uint64_t, int, void *), ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  int err = real(dst, src, n, kind, stream);
  pasta__trace_api("memcpy async", t0, pasta__trace_now(), 0);
  note_copy(ops, err, dst, src, n, kind, 1, 0, PASTA__SITE, t0);
  return err;
}

PASTA_ABI int __pasta_memset(void *p, int value, uint64_t n,
                             int (*real)(void *, int, uint64_t), ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  int err = real(p, value, n);
  pasta__trace_api("memset", t0, pasta__trace_now(), 0);
  note_memset(ops, err, p, n, PASTA__SITE, t0);
  return err;
}

PASTA_ABI int __pasta_memset_async(void *p, int value, uint64_t n, void *stream,
                                   int (*real)(void *, int, uint64_t, void *),
                                   ops_t *ops) {
  uint64_t t0 = pasta__trace_now();
  int err = real(p, value, n, stream);
  pasta__trace_api("memset async", t0, pasta__trace_now(), 0);
  note_memset(ops, err, p, n, PASTA__SITE, t0);
  return err;
}
