/*===- device_rt.c - PASTA's __device__ runtime ---------------------------===*
 *
 * Freestanding C compiled to bitcode once per GPU target and linked into
 * every instrumented device module by the pass. Threads keep their counts in
 * registers while they run; at exit each thread hands its counts to
 * __pasta_flush, which sums them over the active lanes of the warp and lets
 * one lane add the sum to the counter bank of its thread block. That is one
 * atomic per warp and counter, spread over PASTA_DEVICE_BANKS addresses.
 *
 * Functions marked always_inline are inlined by the pass at their call
 * sites; __pasta_flush stays a call (it runs once per thread).
 *===----------------------------------------------------------------------===*/
#include <gpuintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "pasta/abi.h"

#define PASTA_GLOBAL __attribute__((address_space(1)))
#define PASTA_INLINE __attribute__((always_inline))
#define PASTA_ENTRY __attribute__((noinline))

static uint32_t pasta_linear_block_id(void) {
  return __gpu_block_id_x() +
         __gpu_num_blocks_x() *
             (__gpu_block_id_y() + __gpu_num_blocks_y() * __gpu_block_id_z());
}

/* 1 for the first thread of the grid, 0 for all others: kernels add it to
 * their launch counter, so a launch is counted exactly once. */
PASTA_INLINE uint64_t __pasta_first_thread_of_grid(void) {
  return (__gpu_thread_id_x() | __gpu_thread_id_y() | __gpu_thread_id_z() |
          __gpu_block_id_x() | __gpu_block_id_y() | __gpu_block_id_z()) == 0;
}

/* Run-time classification of generic (flat) pointers. */
PASTA_INLINE uint64_t __pasta_is_shared(void *ptr) {
  return __gpu_is_ptr_local(ptr);
}

PASTA_INLINE uint64_t __pasta_is_local(void *ptr) {
  return __gpu_is_ptr_private(ptr);
}

/* Adds this thread's `values[0..n)` to counters [first, first + n) of the
 * bank of this thread block. Called by every thread that leaves an
 * instrumented function, converged or not: the reduction covers exactly the
 * lanes that are active here. */
PASTA_ENTRY void __pasta_flush(PASTA_GLOBAL uint64_t *counters,
                               uint32_t num_counters, uint32_t first,
                               const uint64_t *values, uint32_t n) {
  uint64_t lanes = __gpu_lane_mask();
  uint32_t bank = pasta_linear_block_id() % PASTA_DEVICE_BANKS;
  PASTA_GLOBAL uint64_t *row = counters + (size_t)bank * num_counters + first;
  int leader = __gpu_is_first_in_lane(lanes);
  for (uint32_t i = 0; i < n; ++i) {
    uint64_t v = values[i];
    if (__gpu_ballot(lanes, v != 0) == 0)
      continue;
    uint64_t sum = __gpu_lane_sum_u64(lanes, v);
    if (leader)
      __scoped_atomic_fetch_add(&row[i], sum, __ATOMIC_RELAXED,
                                __MEMORY_SCOPE_DEVICE);
  }
}
