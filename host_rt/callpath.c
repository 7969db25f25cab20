/*===- callpath.c - Host call paths and launch shapes ----------------------===*
 *
 * Interned call paths (PASTA_CALL_DEPTH frames above the wrapper), where
 * their frames lie (module, build id, ELF address: recorded while the
 * modules are loaded), and per kernel the launches of each path and shape.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "intercept_internal.h"
#include "profile/hash.h"
#include "profile/vec.h"
#include "symbolize.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unwind.h>

uint32_t pasta__path_id(void *const *frames, uint32_t depth) {
  for (size_t i = 0; i < pasta__st.num_paths; ++i)
    if (pasta__st.paths[i].depth == depth &&
        memcmp(pasta__st.paths[i].frames, frames, depth * sizeof *frames) == 0)
      return (uint32_t)i;
  if (GROW(pasta__st.paths, pasta__st.cap_paths, pasta__st.num_paths))
    return UINT32_MAX;
  struct call_path *p = &pasta__st.paths[pasta__st.num_paths];
  p->depth = depth;
  memcpy(p->frames, frames, depth * sizeof *frames);
  p->located = 0;
  p->cached = 0;
  return (uint32_t)pasta__st.num_paths++;
}

/* Records where the frames of a new path lie (pasta__locate). Called
 * without the lock: dladdr takes the dynamic loader's lock, which a thread
 * launching from a library constructor holds while it waits for ours. */
void pasta__locate_path(uint32_t path, void *const *frames, uint32_t depth) {
  pasta_frame_loc locs[MAX_DEPTH + 1];
  for (uint32_t d = 0; d < depth; ++d)
    pasta__locate((uint64_t)(uintptr_t)frames[d], &locs[d]);
  pasta__state_lock();
  if (path < pasta__st.num_paths && pasta__st.paths[path].depth == depth) {
    memcpy(pasta__st.paths[path].locs, locs, depth * sizeof *locs);
    pasta__st.paths[path].located = 1;
  }
  pasta__state_unlock();
}

/* Frames above the wrapper that called this, one more than
 * PASTA_CALL_DEPTH: the first is often the kernel's stub, which the report
 * drops. `skip` counts this function and the runtime's frames above it, the
 * wrapper included (pasta__launch is noinline so that the count holds).
 * Taken outside the lock: backtrace() may load libgcc_s. */
uint32_t pasta__capture_frames(void **frames, int skip) {
  if (!pasta__opt.depth)
    return 0;
  void *buf[MAX_DEPTH + 4];
  int n = backtrace(buf, (int)pasta__opt.depth + 1 + skip);
  if (n <= skip)
    return 0;
  memcpy(frames, buf + skip, (size_t)(n - skip) * sizeof *frames);
  return (uint32_t)(n - skip);
}

/*===-- The launch cache
 * ----------------------------------------------------===*
 *
 * A backtrace costs about 1 us (libgcc's DWARF unwinder, 8 frames); a
 * program launches from few distinct paths. A path is cached with where
 * each of its return addresses lay on the stack, relative to the wrapper's
 * own return address slot. A later launch whose wrapper returns to the same
 * address reads those slots: if each holds the cached frame, the path is
 * the cached one. That is exact when every frame of the path has a fixed
 * size at its call (its CFA is the stack pointer plus a constant): then
 * frame d + 1's slot is where frame d's code puts it, and d + 1 is checked
 * only once d matched, so only real slots are read. A frame whose size can
 * vary (alloca, realignment) needs a frame pointer, which points into the
 * frame; such frames, signal frames and paths shorter than asked for are
 * not cached: their launches take the full backtrace, as before.
 *===----------------------------------------------------------------------===*/

/* libgcc's unwinder, loaded as glibc's backtrace() loads it (the runtime
 * links libc only). */
typedef _Unwind_Reason_Code (*unwind_backtrace_fn)(_Unwind_Trace_Fn, void *);
typedef uintptr_t (*unwind_get_fn)(struct _Unwind_Context *);
typedef uintptr_t (*unwind_get_ip_info_fn)(struct _Unwind_Context *, int *);
typedef uintptr_t (*unwind_get_gr_fn)(struct _Unwind_Context *, int);

static struct {
  unwind_backtrace_fn backtrace;
  unwind_get_fn get_cfa;
  unwind_get_ip_info_fn get_ip_info;
  unwind_get_gr_fn get_gr;
} unw;

static pthread_once_t unw_once = PTHREAD_ONCE_INIT;

static void load_unwinder(void) {
#if defined(__x86_64__)
  void *h = dlopen("libgcc_s.so.1", RTLD_LAZY);
  if (!h)
    return;
  unw.get_cfa = (unwind_get_fn)dlsym(h, "_Unwind_GetCFA");
  unw.get_ip_info = (unwind_get_ip_info_fn)dlsym(h, "_Unwind_GetIPInfo");
  unw.get_gr = (unwind_get_gr_fn)dlsym(h, "_Unwind_GetGR");
  if (unw.get_cfa && unw.get_ip_info && unw.get_gr)
    unw.backtrace = (unwind_backtrace_fn)dlsym(h, "_Unwind_Backtrace");
#endif
}

enum { DWARF_RBP = 6, MAX_RUNTIME_FRAMES = 16 };

struct walk {
  uintptr_t wrapper_cfa; /* the wrapper's CFA: ra_slot + 8 */
  uint32_t want, n, seen;
  int cacheable;
  uintptr_t sp, bp; /* of the last frame recorded */
  void **frames;
  int32_t *offs;
};

/* One frame, as glibc's backtrace() would record it (it stops where the
 * unwinder makes no progress). libgcc's CFA of a frame is its stack
 * pointer at the call: the callee's CFA, 8 bytes above its return slot. */
static _Unwind_Reason_Code walk_frame(struct _Unwind_Context *ctx, void *arg) {
  struct walk *w = arg;
  int signal_frame = 0;
  uintptr_t ip = unw.get_ip_info(ctx, &signal_frame);
  uintptr_t sp = unw.get_cfa(ctx);
  if (!w->n && sp != w->wrapper_cfa) /* the runtime's frames */
    return ++w->seen < MAX_RUNTIME_FRAMES ? _URC_NO_REASON : _URC_END_OF_STACK;
  if (w->n && w->frames[w->n - 1] == (void *)ip && sp == w->sp)
    return _URC_END_OF_STACK;
  /* The previous frame spans [its sp, this sp): a frame pointer in it means
   * its size may vary. */
  if (w->n && (sp <= w->sp || (w->bp >= w->sp && w->bp < sp)))
    w->cacheable = 0;
  if (signal_frame || sp - w->wrapper_cfa > INT32_MAX)
    w->cacheable = 0;
  w->frames[w->n] = (void *)ip;
  w->offs[w->n] = (int32_t)(sp - w->wrapper_cfa);
  w->sp = sp;
  w->bp = unw.get_gr(ctx, DWARF_RBP);
  return ++w->n == w->want ? _URC_END_OF_STACK : _URC_NO_REASON;
}

/* The frames above the wrapper whose return address is at *ra_slot (as
 * pasta__capture_frames gives them), each with its slot's offset from
 * ra_slot, and whether the path may be cached. -1 when the unwinder is
 * missing or did not find the wrapper: the caller takes a backtrace.
 * Outside the lock (the first call loads libgcc_s). */
int pasta__walk_frames(void *const *ra_slot, void **frames, int32_t *offs,
                       int *cacheable) {
  *cacheable = 0;
  if (!pasta__opt.depth || !ra_slot)
    return ra_slot ? 0 : -1;
  pthread_once(&unw_once, load_unwinder);
  if (!unw.backtrace)
    return -1;
  struct walk w = {.wrapper_cfa = (uintptr_t)ra_slot + 8,
                   .want = pasta__opt.depth + 1,
                   .cacheable = 1,
                   .frames = frames,
                   .offs = offs};
  unw.backtrace(walk_frame, &w);
  if (!w.n || frames[0] != *ra_slot)
    return -1;
  if (w.n > 1 && frames[w.n - 1] == NULL)
    --w.n; /* as backtrace() */
  *cacheable = w.cacheable && w.n == w.want;
  return (int)w.n;
}

static size_t frame_hash(const void *frame, size_t cap) {
  return (size_t)pasta__hash_u64((uint64_t)(uintptr_t)frame) & (cap - 1);
}

static void hash_insert(uint32_t *h, size_t cap, uint32_t path) {
  size_t j = frame_hash(pasta__st.paths[path].frames[0], cap);
  while (h[j])
    j = (j + 1) & (cap - 1);
  h[j] = path + 1;
}

/* Whether the stack above ra_slot holds path p's return addresses, each
 * read only once the frames below it matched. */
__attribute__((no_sanitize("address"))) static int
path_matches(const struct call_path *p, void *const *ra_slot) {
  for (uint32_t d = 1; d < p->depth; ++d)
    if (*(void *const *)((const char *)ra_slot + p->slot_off[d]) !=
        p->frames[d])
      return 0;
  return 1;
}

/* The cached path of a launch whose wrapper's return address is at
 * ra_slot, or UINT32_MAX. Lock held. */
uint32_t pasta__cached_path(void *const *ra_slot) {
  if (!ra_slot || !pasta__st.path_hash_cap)
    return UINT32_MAX;
  void *site = *ra_slot;
  size_t cap = pasta__st.path_hash_cap;
  for (size_t j = frame_hash(site, cap); pasta__st.path_hash[j];
       j = (j + 1) & (cap - 1)) {
    const struct call_path *p = &pasta__st.paths[pasta__st.path_hash[j] - 1];
    if (p->frames[0] == site && path_matches(p, ra_slot)) {
      ++pasta__st.path_cache_hits;
      return pasta__st.path_hash[j] - 1;
    }
  }
  return UINT32_MAX;
}

/* Caches path `path` with its slots' offsets (pasta__walk_frames). Out of
 * memory: it stays uncached. Lock held. */
void pasta__cache_path(uint32_t path, const int32_t *offs) {
  struct call_path *p = &pasta__st.paths[path];
  if (p->cached || !p->depth)
    return;
  if ((pasta__st.num_cached + 1) * 2 > pasta__st.path_hash_cap) {
    size_t cap = pasta__st.path_hash_cap ? pasta__st.path_hash_cap * 2 : 64;
    uint32_t *h = calloc(cap, sizeof *h);
    if (!h)
      return;
    for (size_t i = 0; i < pasta__st.num_paths; ++i)
      if (pasta__st.paths[i].cached)
        hash_insert(h, cap, (uint32_t)i);
    free(pasta__st.path_hash);
    pasta__st.path_hash = h;
    pasta__st.path_hash_cap = cap;
  }
  memcpy(p->slot_off, offs, p->depth * sizeof *offs);
  p->cached = 1;
  ++pasta__st.num_cached;
  hash_insert(pasta__st.path_hash, pasta__st.path_hash_cap, path);
}

void pasta__count_path(struct kernel *k, uint32_t path) {
  if (path == UINT32_MAX)
    return;
  for (size_t i = 0; i < k->num_paths; ++i)
    if (k->paths[i].path == path) {
      ++k->paths[i].launches;
      return;
    }
  if (GROW(k->paths, k->cap_paths, k->num_paths))
    return;
  k->paths[k->num_paths++] = (struct kernel_path){path, 1};
}

void pasta__count_shape(struct kernel *k, const uint32_t grid[3],
                        const uint32_t block[3], uint64_t shmem) {
  for (size_t i = 0; i < k->num_shapes; ++i) {
    pasta_activity_shape *s = &k->shapes[i];
    if (!memcmp(s->grid, grid, sizeof s->grid) &&
        !memcmp(s->block, block, sizeof s->block) && s->shared_bytes == shmem) {
      ++s->launches;
      return;
    }
  }
  if (k->num_shapes == SHAPES_MAX ||
      GROW(k->shapes, k->cap_shapes, k->num_shapes))
    return;
  pasta_activity_shape *s = &k->shapes[k->num_shapes++];
  memcpy(s->grid, grid, sizeof s->grid);
  memcpy(s->block, block, sizeof s->block);
  s->shared_bytes = shmem;
  s->launches = 1;
}
