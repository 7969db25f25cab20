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
#include "symbolize/symbolize.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
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

/*===-- The launch cache ---------------------------------------------------===*
 *
 * A backtrace costs about 1 us (libgcc's DWARF unwinder, 8 frames); a
 * program launches from few distinct paths. A path is cached with how to go
 * from each frame to the next on the stack, starting at the wrapper's own
 * return address slot. A later launch whose wrapper returns to the same
 * address follows those steps, reading each frame's return address, and
 * the path is the cached one when each holds the cached frame.
 *
 * A step is what the unwinder would do for that frame, so the path found is
 * the one a backtrace would give:
 * - a frame without a frame pointer has a fixed size at its call (its CFA
 *   is the stack pointer plus a constant): the next frame starts that many
 *   bytes above;
 * - a frame with a frame pointer (rbp = CFA - 16, as `push rbp; mov rbp,
 *   rsp` leaves it: -O0 code, alloca or VLAs, realignment, and everything
 *   built with -fno-omit-frame-pointer, as some distributions build their C
 *   library) may vary in size: the next frame starts at its rbp + 16, and
 *   its rbp is followed as the unwinder follows it: in the register (the
 *   frames below did not change it), saved by the frame below's prologue
 *   (rbp = CFA - 16 there too), or saved inside the frame below at a fixed
 *   place. The wrapper has a frame pointer, so the program's rbp at the
 *   launch is saved just below its return address.
 * Each frame's return address is read only once the frames below it
 * matched, and only inside this thread's stack. Paths through a signal
 * frame or a frame whose rbp is followed in no way above, and paths shorter
 * than PASTA_CALL_DEPTH + 1 that do not end at the process's or a thread's
 * entry (stack_entry), are not cached: their launches take the full
 * backtrace, as before.
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

/* The top of this thread's stack (0: unknown), read once per thread. */
static __thread uintptr_t stack_top;

static uintptr_t this_stack_top(void) {
  if (stack_top)
    return stack_top;
  pthread_attr_t attr;
  void *lo;
  size_t size;
  if (pthread_getattr_np(pthread_self(), &attr))
    return 0;
  if (!pthread_attr_getstack(&attr, &lo, &size))
    stack_top = (uintptr_t)lo + size;
  pthread_attr_destroy(&attr);
  return stack_top;
}

enum { DWARF_RBP = 6, MAX_RUNTIME_FRAMES = 16 };

struct walk {
  uintptr_t wrapper_cfa; /* the wrapper's CFA: ra_slot + 8 */
  uintptr_t launch_rbp;  /* the program's rbp at the launch */
  uint32_t want, n, seen;
  int cacheable;
  int stopped;     /* by this walk, not by the unwinder at the stack's end */
  const char *why; /* not cacheable: the first reason */
  uint32_t why_frame;
  int rbp_known;    /* the last frame's rbp can be followed from the launch */
  uintptr_t sp, bp; /* of the last frame recorded: CFA of its callee, rbp */
  void **frames;
  struct frame_step *steps;
};

/* Where frame n + 1's rbp `bp` is, seen from frame n (its stack from `sp`
 * to `next_sp`, rbp `prev_bp`, `frame_pointer` when it has one). */
__attribute__((no_sanitize("address"))) static int32_t
find_rbp(uintptr_t sp, uintptr_t next_sp, uintptr_t prev_bp, uintptr_t bp,
         int frame_pointer) {
  if (frame_pointer)
    return *(const uintptr_t *)(next_sp - 16) == bp ? RBP_SAVED_BY_PROLOGUE
                                                    : RBP_UNKNOWN;
  if (bp == prev_bp)
    return RBP_UNCHANGED;
  int32_t at = RBP_UNKNOWN;
  for (uintptr_t a = sp; a + 8 <= next_sp; a += 8)
    if (*(const uintptr_t *)a == bp) {
      if (at != RBP_UNKNOWN)
        return RBP_UNKNOWN; /* two copies: which one the unwinder read? */
      at = (int32_t)(a - sp);
    }
  return at;
}

static void not_cacheable(struct walk *w, const char *why) {
  if (!w->why) {
    w->why = why;
    w->why_frame = w->n;
  }
  w->cacheable = 0;
}

/* The step from the last recorded frame to the one at `sp` with rbp `bp`. */
static void record_step(struct walk *w, uintptr_t sp, uintptr_t bp) {
  struct frame_step *s = &w->steps[w->n - 1];
  /* x86-64 compilers set a frame pointer only with `push rbp; mov rbp,
   * rsp`; any other rbp is one of the frame's values (its CFA is then the
   * stack pointer plus a constant). */
  int frame_pointer = w->bp == sp - 16;
  if (sp <= w->sp || sp - w->sp > INT32_MAX)
    not_cacheable(w, "a frame of no or too large a size");
  else if (frame_pointer && !w->rbp_known)
    not_cacheable(w, "a frame pointer whose rbp cannot be followed");
  s->size = frame_pointer ? FRAME_FROM_RBP : (int32_t)(sp - w->sp);
  s->rbp = w->rbp_known ? find_rbp(w->sp, sp, w->bp, bp, frame_pointer)
                        : RBP_UNKNOWN;
  w->rbp_known = s->rbp != RBP_UNKNOWN;
}

/* Ends the walk before the unwinder reached the stack's end. */
static _Unwind_Reason_Code stop_walk(struct walk *w) {
  w->stopped = 1;
  return _URC_END_OF_STACK;
}

/* One frame, as glibc's backtrace() would record it (it stops where the
 * unwinder makes no progress). libgcc's CFA of a frame is its stack
 * pointer at the call: the callee's CFA, 8 bytes above its return slot. */
static _Unwind_Reason_Code walk_frame(struct _Unwind_Context *ctx, void *arg) {
  struct walk *w = arg;
  int signal_frame = 0;
  uintptr_t ip = unw.get_ip_info(ctx, &signal_frame);
  uintptr_t sp = unw.get_cfa(ctx);
  uintptr_t bp = unw.get_gr(ctx, DWARF_RBP);
  if (!w->n && sp != w->wrapper_cfa) { /* the runtime's frames */
    return ++w->seen < MAX_RUNTIME_FRAMES ? _URC_NO_REASON : stop_walk(w);
  }
  if (w->n && !ip)
    return _URC_END_OF_STACK; /* the unwinder's end: backtrace() drops it */
  if (w->n && w->frames[w->n - 1] == (void *)ip && sp == w->sp)
    return stop_walk(w);
  if (w->n)
    record_step(w, sp, bp);
  else
    w->rbp_known = bp == w->launch_rbp;
  if (signal_frame)
    not_cacheable(w, "a signal frame");
  w->frames[w->n] = (void *)ip;
  w->sp = sp;
  w->bp = bp;
  return ++w->n < w->want ? _URC_NO_REASON : stop_walk(w);
}

/* Whether `ip`, where the unwinder found the end of the stack, is the
 * process's entry (_start, just after AT_ENTRY) or a thread's (clone):
 * their unwind tables end the stack there, whatever the stack holds, so a
 * path that matches up to them is the whole path. Elsewhere the end may
 * come from a caller without unwind tables, whose address the stack holds
 * and may change: such paths are not cached. */
static int stack_entry(const void *ip) {
  uintptr_t entry = (uintptr_t)getauxval(AT_ENTRY);
  if (entry && (uintptr_t)ip > entry && (uintptr_t)ip - entry < 64)
    return 1;
  Dl_info info;
  if (!dladdr(ip, &info) || !info.dli_sname)
    return 0;
  static const char *const names[] = {"clone", "__clone", "clone3", "__clone3"};
  for (size_t i = 0; i < sizeof names / sizeof *names; ++i)
    if (!strcmp(info.dli_sname, names[i]))
      return 1;
  return 0;
}

/* PASTA_DEBUG_CALLPATH=1: why the first few uncached paths were not cached,
 * on stderr, with their steps. */
static void debug_walk(const struct walk *w, const struct frame_step *steps) {
  static int printed;
  if (__atomic_fetch_add(&printed, 1, __ATOMIC_RELAXED) >= 4)
    return;
  fprintf(stderr, "pasta: call path not cached: %s (frame %u of %u)\n", w->why,
          w->why_frame, w->n);
  for (uint32_t d = 0; d < w->n; ++d)
    fprintf(stderr, "pasta:   frame %u ip %p size %d rbp %d\n", d, w->frames[d],
            d + 1 < w->n ? steps[d].size : 0, d + 1 < w->n ? steps[d].rbp : 0);
}

/* The frames above the wrapper whose return address is at *ra_slot (as
 * pasta__capture_frames gives them), the steps between them, and whether
 * the path may be cached. -1 when the unwinder is missing or did not find
 * the wrapper: the caller takes a backtrace. Outside the lock (the first
 * call loads libgcc_s). */
int pasta__walk_frames(void *const *ra_slot, void **frames,
                       struct frame_step *steps, int *cacheable) {
  *cacheable = 0;
  if (!pasta__opt.depth || !ra_slot)
    return ra_slot ? 0 : -1;
  pthread_once(&unw_once, load_unwinder);
  if (!unw.backtrace)
    return -1;
  struct walk w = {.wrapper_cfa = (uintptr_t)ra_slot + 8,
                   .launch_rbp = (uintptr_t)ra_slot[-1],
                   .want = pasta__opt.depth + 1,
                   .cacheable = 1,
                   .frames = frames,
                   .steps = steps};
  if (!this_stack_top())
    not_cacheable(&w, "no stack bounds for this thread");
  unw.backtrace(walk_frame, &w);
  if (!w.n || frames[0] != *ra_slot)
    return -1;
  if (w.n > 1 && frames[w.n - 1] == NULL)
    --w.n; /* as backtrace() */
  if (w.n != w.want && (w.stopped || !stack_entry(frames[w.n - 1])))
    not_cacheable(&w, "fewer frames than PASTA_CALL_DEPTH + 1, not ending "
                      "at the process's or a thread's entry");
  if (!w.cacheable && pasta__opt.debug_callpath)
    debug_walk(&w, steps);
  *cacheable = w.cacheable;
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
 * read only once the frames below it matched, and only below `top`. */
__attribute__((no_sanitize("address"))) static int
path_matches(const struct call_path *p, void *const *ra_slot, uintptr_t top) {
  uintptr_t sp = (uintptr_t)ra_slot + 8, bp = (uintptr_t)ra_slot[-1];
  for (uint32_t d = 0; d + 1 < p->depth; ++d) {
    const struct frame_step *s = &p->steps[d];
    uintptr_t next =
        s->size == FRAME_FROM_RBP ? bp + 16 : sp + (uintptr_t)s->size;
    if (next <= sp || next > top)
      return 0;
    if (s->rbp == RBP_SAVED_BY_PROLOGUE)
      bp = *(const uintptr_t *)(next - 16);
    else if (s->rbp >= 0)
      bp = *(const uintptr_t *)(sp + (uintptr_t)s->rbp);
    sp = next;
    if (*(void *const *)(sp - 8) != p->frames[d + 1])
      return 0;
  }
  return 1;
}

/* The cached path of a launch whose wrapper's return address is at
 * ra_slot, or UINT32_MAX. Lock held. */
uint32_t pasta__cached_path(void *const *ra_slot) {
  if (!ra_slot || !pasta__st.path_hash_cap)
    return UINT32_MAX;
  uintptr_t top = this_stack_top();
  void *site = *ra_slot;
  size_t cap = pasta__st.path_hash_cap;
  for (size_t j = frame_hash(site, cap); pasta__st.path_hash[j];
       j = (j + 1) & (cap - 1)) {
    const struct call_path *p = &pasta__st.paths[pasta__st.path_hash[j] - 1];
    if (p->frames[0] == site && path_matches(p, ra_slot, top)) {
      ++pasta__st.path_cache_hits;
      return pasta__st.path_hash[j] - 1;
    }
  }
  return UINT32_MAX;
}

/* Caches path `path` with its steps (pasta__walk_frames). Out of memory: it
 * stays uncached. Lock held. */
void pasta__cache_path(uint32_t path, const struct frame_step *steps) {
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
  memcpy(p->steps, steps, p->depth * sizeof *steps);
  p->cached = 1;
  ++pasta__st.num_cached;
  hash_insert(pasta__st.path_hash, pasta__st.path_hash_cap, path);
}

__attribute__((noinline)) uint32_t pasta__uncached_path(void *const *ra_slot,
                                                        int skip) {
  void *frames[MAX_DEPTH + 1];
  struct frame_step steps[MAX_DEPTH + 1];
  int cacheable;
  int n = pasta__walk_frames(ra_slot, frames, steps, &cacheable);
  uint32_t depth = n >= 0 ? (uint32_t)n : pasta__capture_frames(frames, skip);
  pasta__state_lock();
  size_t paths_before = pasta__st.num_paths;
  uint32_t path = pasta__path_id(frames, depth);
  int new_path = pasta__st.num_paths > paths_before;
  if (cacheable && path != UINT32_MAX)
    pasta__cache_path(path, steps);
  pasta__state_unlock();
  if (new_path)
    pasta__locate_path(path, frames, depth);
  return path;
}

__attribute__((noinline)) uint32_t pasta__launch_path(void *const *ra_slot,
                                                      int skip) {
  pasta__state_lock();
  uint32_t path = pasta__cached_path(ra_slot);
  pasta__state_unlock();
  return path != UINT32_MAX ? path : pasta__uncached_path(ra_slot, skip + 2);
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
