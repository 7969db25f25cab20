/*===- host_gpu_shim.h - <gpuintrin.h> for the device runtime's unit test -===*
 *
 * The functions device_rt.c uses from clang's <gpuintrin.h>, for the CPU: the
 * calling thread is one lane of a one-lane warp, in the block and at the
 * thread position the test sets in pasta_shim. Collective operations
 * (ballot, shuffle, first lane) are exact for a warp of one.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_DEVICE_RT_HOST_GPU_SHIM_H
#define PASTA_DEVICE_RT_HOST_GPU_SHIM_H

#include <stdint.h>

struct pasta_gpu_shim {
  uint32_t block[3], blocks[3], thread[3], threads[3];
  int local, private_;
};
extern struct pasta_gpu_shim pasta_shim;

static inline uint32_t __gpu_num_lanes(void) { return 1; }
static inline uint32_t __gpu_lane_id(void) { return 0; }
static inline uint64_t __gpu_lane_mask(void) { return 1; }
static inline int __gpu_is_first_in_lane(uint64_t mask) { return mask & 1; }
static inline uint64_t __gpu_ballot(uint64_t mask, int x) {
  return mask & (x != 0);
}
static inline uint32_t __gpu_read_first_lane_u32(uint64_t mask, uint32_t x) {
  (void)mask;
  return x;
}
static inline uint32_t __gpu_shuffle_idx_u32(uint64_t mask, uint32_t idx,
                                             uint32_t x, uint32_t width) {
  (void)mask, (void)idx, (void)width;
  return x;
}
static inline uint64_t __gpu_shuffle_idx_u64(uint64_t mask, uint32_t idx,
                                             uint64_t x, uint32_t width) {
  (void)mask, (void)idx, (void)width;
  return x;
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
  (void)p;
  return pasta_shim.local;
}
static inline int __gpu_is_ptr_private(void *p) {
  (void)p;
  return pasta_shim.private_;
}

#endif
