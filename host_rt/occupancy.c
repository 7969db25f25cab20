/*===- occupancy.c - What a program asks about its own kernels ------------===*
 *
 * cudaOccupancy*, cudaFuncGetAttributes and their HIP forms, asked about a
 * kernel of the program, answer for its plain copy: the kernel nvcc or
 * clang would have built. The registered name is the counting kernel's,
 * whose registers fit fewer blocks; a program that sizes its launches by
 * the answer would otherwise launch another shape under PASTA than
 * without it (docs/design.md, "Occupancy queries answer for the plain
 * copy"). cudaFuncSetAttribute reaches every copy, so that the plain
 * copy's answers and every copy's launches see what the program set.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "intercept_internal.h"
#include "wrapper.h"

/* The copy a query about `fn` is answered for: the plain copy of a
 * registered kernel, else `fn` itself (a kernel PASTA did not build). */
static const void *plain_of(const void *fn, ops_t *ops) {
  pasta__state_lock();
  pasta__note_call(ops);
  const struct kernel *k = fn ? pasta__find_kernel(fn) : NULL;
  const void *plain = k && k->plain ? k->plain : fn;
  pasta__state_unlock();
  return plain;
}

typedef int (*occupancy_blocks_fn)(int *, const void *, int, uint64_t);

PASTA_ABI int __pasta_occupancy_max_active_blocks(int *blocks, const void *fn,
                                                  int block_size,
                                                  uint64_t shmem,
                                                  occupancy_blocks_fn real,
                                                  ops_t *ops) {
  return real(blocks, plain_of(fn, ops), block_size, shmem);
}

typedef int (*occupancy_blocks_flags_fn)(int *, const void *, int, uint64_t,
                                         unsigned);

PASTA_ABI int __pasta_occupancy_max_active_blocks_flags(
    int *blocks, const void *fn, int block_size, uint64_t shmem, unsigned flags,
    occupancy_blocks_flags_fn real, ops_t *ops) {
  return real(blocks, plain_of(fn, ops), block_size, shmem, flags);
}

typedef int (*occupancy_shared_fn)(uint64_t *, const void *, int, int);

PASTA_ABI int __pasta_occupancy_available_shared_memory(
    uint64_t *shmem, const void *fn, int blocks, int block_size,
    occupancy_shared_fn real, ops_t *ops) {
  return real(shmem, plain_of(fn, ops), blocks, block_size);
}

typedef int (*occupancy_block_size_fn)(int *, int *, const void *, uint64_t,
                                       int);

/* hipOccupancyMaxPotentialBlockSize: a function of HIP's runtime (CUDA's is
 * a template over the two calls above). */
PASTA_ABI int __pasta_occupancy_max_potential_block_size(
    int *grid, int *block, const void *fn, uint64_t shmem, int limit,
    occupancy_block_size_fn real, ops_t *ops) {
  return real(grid, block, plain_of(fn, ops), shmem, limit);
}

typedef int (*func_get_attributes_fn)(void *, const void *);

PASTA_ABI int __pasta_func_get_attributes(void *attributes, const void *fn,
                                          func_get_attributes_fn real,
                                          ops_t *ops) {
  return real(attributes, plain_of(fn, ops));
}

/* A registered kernel's copies, in `out`; how many. */
enum { MAX_COPIES = 6 };
static size_t copies_of(const void *fn, const void *out[MAX_COPIES]) {
  size_t n = 0;
  pasta__state_lock();
  const struct kernel *k = fn ? pasta__find_kernel(fn) : NULL;
  if (k) {
    const void *all[MAX_COPIES] = {k->plain, k->ws,           k->trace,
                                   k->div,   k->div_uncapped, k->capped};
    for (size_t i = 0; i < MAX_COPIES; ++i)
      if (all[i] && all[i] != fn)
        out[n++] = all[i];
  }
  pasta__state_unlock();
  return n;
}

typedef int (*func_set_attribute_fn)(const void *, int, int);

/* cudaFuncSetAttribute (hipFuncSetAttribute): the program's call first,
 * its answer the program's; then the same on each copy, whose refusal
 * (a stub in a copy's place, say) is PASTA's and cleared. */
PASTA_ABI int __pasta_func_set_attribute(const void *fn, int attribute,
                                         int value, func_set_attribute_fn real,
                                         ops_t *ops) {
  int err = real(fn, attribute, value);
  if (err)
    return err;
  const void *copies[MAX_COPIES];
  size_t n = copies_of(fn, copies);
  for (size_t i = 0; i < n; ++i)
    if (real(copies[i], attribute, value))
      ops->get_last_error();
  return 0;
}
