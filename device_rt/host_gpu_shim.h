/*===- host_gpu_shim.h - <gpuintrin.h> for the device runtime's unit test -===*
 *
 * The functions device_rt.c uses from clang's <gpuintrin.h>, for the CPU. By
 * default the calling thread is one lane of a one-lane warp, in the block
 * and at the thread position the test sets in pasta_shim. pasta_shim_warp
 * runs a function on a warp of up to 64 lanes instead: one host thread per
 * active lane, in lockstep at every collective operation (ballot, shuffle,
 * match): each lane posts its value, all wait at a barrier, read every
 * lane's, and wait again. That is exact for code whose active lanes call the
 * same collectives in the same order, which the warp-level arithmetic of the
 * divergence mode does. In a warp, generic pointers inside
 * [shared_lo, shared_hi) are shared memory.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_DEVICE_RT_HOST_GPU_SHIM_H
#define PASTA_DEVICE_RT_HOST_GPU_SHIM_H

#include <pthread.h>
#include <stdint.h>

struct pasta_gpu_shim {
  uint32_t block[3], blocks[3], thread[3], threads[3];
  int local, private_;
};
extern struct pasta_gpu_shim pasta_shim;

/* One warp on the CPU. */
struct pasta_shim_warp {
  uint32_t width;  /* lanes in the warp: 32 or 64 */
  uint64_t active; /* the lanes that run */
  uint64_t shared_lo, shared_hi;
  pthread_barrier_t barrier; /* the active lanes */
  uint64_t posted[64];
};
static _Thread_local struct pasta_shim_warp *pasta_shim_in_warp;
static _Thread_local uint32_t pasta_shim_lane;

/* Collective operations a warp ran (counted once per warp, by its lowest
 * active lane), by kind: what a helper's path costs in votes, shuffles and
 * matches, for the unit test's measurements. */
enum { PASTA_SHIM_BALLOT, PASTA_SHIM_SHUFFLE, PASTA_SHIM_MATCH };
static uint64_t pasta_shim_collectives[3];
static inline void pasta_shim_count(int kind) {
  struct pasta_shim_warp *w = pasta_shim_in_warp;
  if (w && pasta_shim_lane == (uint32_t)__builtin_ctzll(w->active))
    __atomic_fetch_add(&pasta_shim_collectives[kind], 1, __ATOMIC_RELAXED);
}

/* Every lane's value of x, in seen[] (lockstep point of the active lanes). */
static inline void pasta_shim_exchange(uint64_t x, uint64_t seen[64]) {
  struct pasta_shim_warp *w = pasta_shim_in_warp;
  w->posted[pasta_shim_lane] = x;
  pthread_barrier_wait(&w->barrier);
  for (int i = 0; i < 64; ++i)
    seen[i] = w->posted[i];
  pthread_barrier_wait(&w->barrier);
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
    pthread_barrier_wait(&pasta_shim_in_warp->barrier);
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

/* Runs body(lane, arg) on each active lane of a warp of `width` lanes, one
 * thread per lane; returns when all are done. */
struct pasta_shim_lane_start {
  struct pasta_shim_warp *warp;
  uint32_t lane;
  void (*body)(uint32_t lane, void *arg);
  void *arg;
};
static inline void *pasta_shim_lane_main(void *p) {
  struct pasta_shim_lane_start *s = p;
  pasta_shim_in_warp = s->warp;
  pasta_shim_lane = s->lane;
  s->body(s->lane, s->arg);
  return NULL;
}
static inline void pasta_shim_warp(uint32_t width, uint64_t active,
                                   uint64_t shared_lo, uint64_t shared_hi,
                                   void (*body)(uint32_t lane, void *arg),
                                   void *arg) {
  static struct pasta_shim_warp w;
  w.width = width;
  w.active = active;
  w.shared_lo = shared_lo;
  w.shared_hi = shared_hi;
  pthread_barrier_init(&w.barrier, NULL,
                       (unsigned)__builtin_popcountll(active));
  pthread_t threads[64];
  struct pasta_shim_lane_start starts[64];
  for (uint32_t l = 0; l < width; ++l)
    if (active >> l & 1) {
      starts[l] = (struct pasta_shim_lane_start){&w, l, body, arg};
      pthread_create(&threads[l], NULL, pasta_shim_lane_main, &starts[l]);
    }
  for (uint32_t l = 0; l < width; ++l)
    if (active >> l & 1)
      pthread_join(threads[l], NULL);
  pthread_barrier_destroy(&w.barrier);
}

#endif
