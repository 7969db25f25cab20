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
 * registered kernel, else `fn` itself (a kernel PASTA did not build). An
 * occupancy query (`occupancy`) marks the kernel: its launches may be
 * persistent grids sized by the answer (launch.c, resident_choice). */
static const void *plain_of(const void *fn, int occupancy, ops_t *ops) {
  pasta__state_lock();
  pasta__note_call(ops);
  struct kernel *k = fn ? pasta__find_kernel(fn) : NULL;
  const void *plain = k && k->plain ? k->plain : fn;
  if (k && k->plain && occupancy)
    k->occupancy_asked = 1;
  pasta__state_unlock();
  return plain;
}

typedef int (*occupancy_blocks_fn)(int *, const void *, int, uint64_t);

PASTA_ABI int __pasta_occupancy_max_active_blocks(int *blocks, const void *fn,
                                                  int block_size,
                                                  uint64_t shmem,
                                                  occupancy_blocks_fn real,
                                                  ops_t *ops) {
  return real(blocks, plain_of(fn, 1, ops), block_size, shmem);
}

typedef int (*occupancy_blocks_flags_fn)(int *, const void *, int, uint64_t,
                                         unsigned);

PASTA_ABI int __pasta_occupancy_max_active_blocks_flags(
    int *blocks, const void *fn, int block_size, uint64_t shmem, unsigned flags,
    occupancy_blocks_flags_fn real, ops_t *ops) {
  return real(blocks, plain_of(fn, 1, ops), block_size, shmem, flags);
}

typedef int (*occupancy_shared_fn)(uint64_t *, const void *, int, int);

PASTA_ABI int __pasta_occupancy_available_shared_memory(
    uint64_t *shmem, const void *fn, int blocks, int block_size,
    occupancy_shared_fn real, ops_t *ops) {
  return real(shmem, plain_of(fn, 1, ops), blocks, block_size);
}

typedef int (*occupancy_block_size_fn)(int *, int *, const void *, uint64_t,
                                       int);

/* hipOccupancyMaxPotentialBlockSize: a function of HIP's runtime (CUDA's is
 * a template over the two calls above). */
PASTA_ABI int __pasta_occupancy_max_potential_block_size(
    int *grid, int *block, const void *fn, uint64_t shmem, int limit,
    occupancy_block_size_fn real, ops_t *ops) {
  return real(grid, block, plain_of(fn, 1, ops), shmem, limit);
}

typedef int (*func_get_attributes_fn)(void *, const void *);

PASTA_ABI int __pasta_func_get_attributes(void *attributes, const void *fn,
                                          func_get_attributes_fn real,
                                          ops_t *ops) {
  return real(attributes, plain_of(fn, 0, ops));
}

/* A registered kernel's copies other than its plain one, and the kernel
 * itself, in `out`; how many. *plain: its plain copy, else `fn`. */
enum { MAX_COPIES = 6 };
static size_t copies_of(const void *fn, const void **plain,
                        const void *out[MAX_COPIES]) {
  size_t n = 0;
  *plain = fn;
  pasta__state_lock();
  const struct kernel *k = fn ? pasta__find_kernel(fn) : NULL;
  if (k && k->plain) {
    *plain = k->plain;
    const void *all[MAX_COPIES] = {fn,     k->ws,           k->trace,
                                   k->div, k->div_uncapped, k->capped};
    for (size_t i = 0; i < MAX_COPIES; ++i)
      if (all[i] && all[i] != k->plain)
        out[n++] = all[i];
  }
  pasta__state_unlock();
  return n;
}

typedef int (*func_set_attribute_fn)(const void *, int, int);

/* cudaFuncSetAttribute (hipFuncSetAttribute): on the plain copy first, the
 * kernel the program would have without PASTA, whose answer is the
 * program's (as the occupancy queries are); then the same on the counting
 * kernel and each other copy, whose refusal (a stub in a copy's place, a
 * counting kernel whose own shared memory leaves less room) is PASTA's and
 * cleared: such a copy is refused at its launch and falls back. */
PASTA_ABI int __pasta_func_set_attribute(const void *fn, int attribute,
                                         int value, func_set_attribute_fn real,
                                         ops_t *ops) {
  const void *plain, *copies[MAX_COPIES];
  size_t n = copies_of(fn, &plain, copies);
  int err = real(plain, attribute, value);
  if (err)
    return err;
  for (size_t i = 0; i < n; ++i)
    if (real(copies[i], attribute, value))
      ops->get_last_error();
  return 0;
}
