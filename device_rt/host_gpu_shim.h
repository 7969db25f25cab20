/*===- host_gpu_shim.h - <gpuintrin.h> for the device runtime's unit test -===*
 *
 * The functions device_rt.c uses from clang's <gpuintrin.h>, for the CPU. By
 * default the calling thread is one lane of a one-lane warp, in the block
 * and at the thread position the test sets in pasta_shim. pasta_shim_warp
 * runs a function on a warp of up to 64 lanes instead: one fiber per
 * active lane, in lockstep at every collective operation (ballot, shuffle,
 * match): each lane posts its value, all wait at a lockstep point, read
 * every lane's, and wait again. That is exact for code whose active lanes call
 *the same collectives in the same order, which the warp-level arithmetic of the
 * divergence mode does. In a warp, generic pointers inside
 * [shared_lo, shared_hi) are shared memory.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_DEVICE_RT_HOST_GPU_SHIM_H
#define PASTA_DEVICE_RT_HOST_GPU_SHIM_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <ucontext.h>

struct pasta_gpu_shim {
  uint32_t block[3], blocks[3], thread[3], threads[3];
  int local, private_;
};
extern struct pasta_gpu_shim pasta_shim;

/* One warp on the CPU: each active lane is a fiber (ucontext) of the
 * calling thread, run in turn. A lane runs until it reaches a lockstep
 * point or returns; so the lanes interleave only at collectives, and a
 * test runs the same on any machine. Threads per lane, as before, spent
 * minutes of futex waits on a 2-core machine and more under the
 * sanitizers. */
struct pasta_shim_warp {
  uint32_t width;  /* lanes in the warp: 32 or 64 */
  uint64_t active; /* the lanes that run */
  uint64_t shared_lo, shared_hi;
  uint64_t posted[2][64]; /* by the parity of the lockstep point */
  uint64_t finished;      /* lanes whose body returned */
  uint32_t arrived;       /* lanes waiting at the current lockstep point */
  uint32_t generation;    /* lockstep points passed */
};
static struct pasta_shim_warp *pasta_shim_in_warp;
static uint32_t pasta_shim_lane;

enum { PASTA_SHIM_BALLOT, PASTA_SHIM_SHUFFLE, PASTA_SHIM_MATCH };
static uint64_t pasta_shim_collectives[3];
static inline void pasta_shim_count(int kind) {
  struct pasta_shim_warp *w = pasta_shim_in_warp;
  if (w && pasta_shim_lane == (uint32_t)__builtin_ctzll(w->active))
    __atomic_fetch_add(&pasta_shim_collectives[kind], 1, __ATOMIC_RELAXED);
}

static void pasta_shim_lockstep(void);

/* Every lane's value of x, in seen[] (lockstep point of the active lanes).
 * The posts alternate between two rows: a lane can post its next value
 * only after every lane reached this point again, so after every lane
 * read this row: one lockstep point per exchange. */
static inline void pasta_shim_exchange(uint64_t x, uint64_t seen[64]) {
  struct pasta_shim_warp *w = pasta_shim_in_warp;
  uint64_t *row = w->posted[w->generation & 1];
  row[pasta_shim_lane] = x;
  pasta_shim_lockstep();
  for (int i = 0; i < 64; ++i)
    seen[i] = row[i];
}

static inline uint32_t __gpu_num_lanes(void) {
  return pasta_shim_in_warp ? pasta_shim_in_warp->width : 1;
}
static inline uint32_t __gpu_lane_id(void) {
  return pasta_shim_in_warp ? pasta_shim_lane : 0;
}
static inline uint64_t __gpu_lane_mask(void) {
  return pasta_shim_in_warp ? pasta_shim_in_warp->active : 1;
}
static inline int __gpu_is_first_in_lane(uint64_t mask) {
  return mask && (uint32_t)__builtin_ctzll(mask) == __gpu_lane_id();
}
static inline uint64_t __gpu_ballot(uint64_t mask, int x) {
  if (!pasta_shim_in_warp)
    return mask & (x != 0);
  uint64_t seen[64], bits = 0;
  pasta_shim_count(PASTA_SHIM_BALLOT);
  pasta_shim_exchange(x != 0, seen);
  for (int i = 0; i < 64; ++i)
    bits |= (uint64_t)(seen[i] != 0) << i;
  return bits & mask;
}
/* The warp's sync: a lockstep point of the active lanes, which orders
 * their memory operations before it before theirs after it. */
static inline void __gpu_sync_lane(uint64_t mask) {
  (void)mask;
  if (pasta_shim_in_warp)
    pasta_shim_lockstep();
}
static inline uint64_t __gpu_shuffle_idx_u64(uint64_t mask, uint32_t idx,
                                             uint64_t x, uint32_t width) {
  (void)mask, (void)width;
  if (!pasta_shim_in_warp)
    return x;
  uint64_t seen[64];
  pasta_shim_count(PASTA_SHIM_SHUFFLE);
  pasta_shim_exchange(x, seen);
  return seen[idx & 63];
}
static inline uint32_t __gpu_shuffle_idx_u32(uint64_t mask, uint32_t idx,
                                             uint32_t x, uint32_t width) {
  return (uint32_t)__gpu_shuffle_idx_u64(mask, idx, x, width);
}
static inline uint32_t __gpu_read_first_lane_u32(uint64_t mask, uint32_t x) {
  return __gpu_shuffle_idx_u32(mask, mask ? __builtin_ctzll(mask) : 0, x, 64);
}
static inline uint64_t __gpu_match_any_u64(uint64_t mask, uint64_t x) {
  if (!pasta_shim_in_warp)
    return mask & 1;
  uint64_t seen[64], same = 0;
  pasta_shim_count(PASTA_SHIM_MATCH);
  pasta_shim_exchange(x, seen);
  for (int i = 0; i < 64; ++i)
    same |= (uint64_t)(seen[i] == x) << i;
  return same & mask;
}
static inline uint64_t __gpu_match_any_u32(uint64_t mask, uint32_t x) {
  return __gpu_match_any_u64(mask, x); /* every lane passes 32 bits */
}
#define PASTA_SHIM_DIM(name, field, i)                                         \
  static inline uint32_t name(void) { return pasta_shim.field[i]; }
PASTA_SHIM_DIM(__gpu_block_id_x, block, 0)
PASTA_SHIM_DIM(__gpu_block_id_y, block, 1)
PASTA_SHIM_DIM(__gpu_block_id_z, block, 2)
PASTA_SHIM_DIM(__gpu_num_blocks_x, blocks, 0)
PASTA_SHIM_DIM(__gpu_num_blocks_y, blocks, 1)
PASTA_SHIM_DIM(__gpu_num_blocks_z, blocks, 2)
PASTA_SHIM_DIM(__gpu_thread_id_x, thread, 0)
PASTA_SHIM_DIM(__gpu_thread_id_y, thread, 1)
PASTA_SHIM_DIM(__gpu_thread_id_z, thread, 2)
PASTA_SHIM_DIM(__gpu_num_threads_x, threads, 0)
PASTA_SHIM_DIM(__gpu_num_threads_y, threads, 1)
PASTA_SHIM_DIM(__gpu_num_threads_z, threads, 2)
#undef PASTA_SHIM_DIM
static inline int __gpu_is_ptr_local(void *p) {
  struct pasta_shim_warp *w = pasta_shim_in_warp;
  if (!w)
    return pasta_shim.local;
  uint64_t a = (uint64_t)(uintptr_t)p;
  return a >= w->shared_lo && a < w->shared_hi;
}
static inline int __gpu_is_ptr_private(void *p) {
  (void)p;
  return pasta_shim_in_warp ? 0 : pasta_shim.private_;
}

/* The fibers: one per lane, made on the lane's first warp and kept, so
 * that each later warp only switches to it (a new fiber costs ASan a fake
 * stack). The switches are announced to AddressSanitizer, which otherwise
 * takes a lane's stack for a corrupt one. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PASTA_SHIM_ASAN 1
#endif
#endif
#ifdef PASTA_SHIM_ASAN
void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom,
                                    size_t size);
void __sanitizer_finish_switch_fiber(void *fake_stack_save,
                                     const void **bottom_old, size_t *size_old);
#define PASTA_SHIM_STACK (256u << 10)
#else
#define PASTA_SHIM_STACK (128u << 10)
#endif
#define PASTA_SHIM_MAIN 64u /* the calling thread's context */

static struct pasta_shim_fibers {
  ucontext_t context[65];
  char *stack[64];         /* a lane's stack, once its fiber is made */
  const void *main_bottom; /* the calling thread's stack, for ASan */
  size_t main_size;
  uint32_t running; /* the context now running */
  void (*body)(uint32_t lane, void *arg);
  void *arg;
} pasta_shim_fibers;

static noreturn void pasta_shim_stuck(const char *what) {
  fprintf(stderr, "host_gpu_shim: %s\n", what);
  abort();
}

/* Leaves the running context for context `to`; returns when it is resumed. */
static void pasta_shim_switch(uint32_t to) {
  struct pasta_shim_fibers *f = &pasta_shim_fibers;
  uint32_t from = f->running;
  f->running = to;
  if (to != PASTA_SHIM_MAIN)
    pasta_shim_lane = to;
#ifdef PASTA_SHIM_ASAN
  void *fake = NULL;
  const void *bottom = to == PASTA_SHIM_MAIN ? f->main_bottom : f->stack[to];
  size_t size = to == PASTA_SHIM_MAIN ? f->main_size : PASTA_SHIM_STACK;
  __sanitizer_start_switch_fiber(&fake, bottom, size);
#endif
  swapcontext(&f->context[from], &f->context[to]);
#ifdef PASTA_SHIM_ASAN
  __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
}

/* The next lane after the running one that has not finished, or the
 * calling thread's context when every lane has. */
static uint32_t pasta_shim_next_lane(void) {
  struct pasta_shim_warp *w = pasta_shim_in_warp;
  uint64_t left = w->active & ~w->finished;
  if (!left)
    return PASTA_SHIM_MAIN;
  uint32_t from = pasta_shim_fibers.running;
  uint64_t after = from >= 63 ? 0 : left & (~0ull << (from + 1));
  return (uint32_t)__builtin_ctzll(after ? after : left);
}

/* A lockstep point: returns once every active lane has reached it. The
 * last lane to arrive opens it; the others run the other lanes meanwhile. */
static void pasta_shim_lockstep(void) {
  struct pasta_shim_warp *w = pasta_shim_in_warp;
  if (w->finished)
    pasta_shim_stuck("a lockstep point after a lane of the warp returned");
  uint32_t generation = w->generation;
  if (++w->arrived == (uint32_t)__builtin_popcountll(w->active)) {
    w->arrived = 0;
    ++w->generation;
    return;
  }
  while (w->generation == generation)
    pasta_shim_switch(pasta_shim_next_lane());
}

/* A lane's fiber: runs the body of each warp the lane is active in. */
static void pasta_shim_lane_main(void) {
  struct pasta_shim_fibers *f = &pasta_shim_fibers;
#ifdef PASTA_SHIM_ASAN
  /* A fiber is first entered from the calling thread: its stack. */
  const void *bottom;
  size_t size;
  __sanitizer_finish_switch_fiber(NULL, &bottom, &size);
  if (!f->main_bottom) {
    f->main_bottom = bottom;
    f->main_size = size;
  }
#endif
  for (;;) {
    struct pasta_shim_warp *w = pasta_shim_in_warp;
    f->body(pasta_shim_lane, f->arg);
    if (w->arrived)
      pasta_shim_stuck("a lane returned while others wait at a lockstep point");
    w->finished |= 1ull << pasta_shim_lane;
    pasta_shim_switch(pasta_shim_next_lane());
  }
}

static void pasta_shim_make_fiber(uint32_t lane) {
  struct pasta_shim_fibers *f = &pasta_shim_fibers;
  if (!(f->stack[lane] = malloc(PASTA_SHIM_STACK)))
    pasta_shim_stuck("no memory for a lane's stack");
  getcontext(&f->context[lane]);
  f->context[lane].uc_stack.ss_sp = f->stack[lane];
  f->context[lane].uc_stack.ss_size = PASTA_SHIM_STACK;
  f->context[lane].uc_link = NULL;
  makecontext(&f->context[lane], pasta_shim_lane_main, 0);
  /* The stack is set up now. Left in the context, ASan's swapcontext
   * wrapper would clear its shadow at every switch to the lane (a system
   * call each): the switches are announced to it instead. */
  f->context[lane].uc_stack.ss_sp = NULL;
  f->context[lane].uc_stack.ss_size = 0;
}

/* Runs body(lane, arg) on each active lane of a warp of `width` lanes, one
 * fiber per lane; returns when all are done. */
static inline void pasta_shim_warp(uint32_t width, uint64_t active,
                                   uint64_t shared_lo, uint64_t shared_hi,
                                   void (*body)(uint32_t lane, void *arg),
                                   void *arg) {
  static struct pasta_shim_warp w;
  struct pasta_shim_fibers *f = &pasta_shim_fibers;
  active &= width >= 64 ? ~0ull : (1ull << width) - 1;
  if (!active)
    return;
  w = (struct pasta_shim_warp){.width = width,
                               .active = active,
                               .shared_lo = shared_lo,
                               .shared_hi = shared_hi};
  f->body = body;
  f->arg = arg;
  for (uint32_t l = 0; l < 64; ++l)
    if (active >> l & 1 && !f->stack[l])
      pasta_shim_make_fiber(l);
  pasta_shim_in_warp = &w;
  f->running = PASTA_SHIM_MAIN;
  pasta_shim_switch((uint32_t)__builtin_ctzll(active));
  pasta_shim_in_warp = NULL;
}

#endif
