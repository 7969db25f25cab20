/*===- occupancy.c - What a program asks about its own kernels ------------===*
 *
 * cudaOccupancy*, cudaFuncGetAttributes, their HIP forms and the driver
 * API's (cuOccupancy*, cuFuncGetAttribute on a CUfunction the program took
 * from its kernel), asked about a kernel of the program, answer for its
 * plain copy: the kernel nvcc or clang would have built. The registered
 * name is the counting kernel's, whose registers fit fewer blocks; a
 * program that sizes its launches by the answer would otherwise launch
 * another shape under PASTA than without it (docs/design.md, "Occupancy
 * queries answer for the plain copy"). cudaFuncSetAttribute,
 * cudaFuncSetCacheConfig, cudaFuncSetSharedMemConfig and their driver
 * forms (and the CUkernel ones, per device) reach every copy, so that the
 * plain copy's answers and every copy's launches see what the program set.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "intercept_internal.h"
#include "wrapper.h"

#include <string.h>

/* The copy a query about `fn` is answered for: the plain copy of a
 * registered kernel, or the handle of the plain copy of a driver handle
 * taken from one (driver_handles.c), else `fn` itself (a kernel PASTA did
 * not build, or a handle whose plain copy's is unknown). An occupancy
 * query (`occupancy`) marks the kernel: its launches may be persistent
 * grids sized by the answer (launch.c, resident_choice). */
static const void *plain_of(const void *fn, int occupancy, ops_t *ops) {
  pasta__state_lock();
  pasta__note_call(ops);
  struct kernel *k = fn ? pasta__find_kernel(fn) : NULL;
  const void *plain = k ? k->plain : NULL;
  const struct driver_handle *h = fn && !k ? pasta__driver_handle(fn) : NULL;
  if (h) {
    k = &pasta__st.kernels[h->kernel];
    plain = h->plain;
  }
  if (plain && occupancy)
    k->occupancy_asked = 1;
  pasta__state_unlock();
  return plain ? plain : fn;
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

typedef int (*occupancy_block_size_b2d_fn)(int *, int *, const void *,
                                           const void *, uint64_t, int);

/* cuOccupancyMaxPotentialBlockSize(&grid, &block, f, blockSizeToSMem,
 * shmem, limit): a function of the driver (the runtime's is a template). */
PASTA_ABI int __pasta_cu_occupancy_max_potential_block_size(
    int *grid, int *block, const void *f, const void *to_shmem, uint64_t shmem,
    int limit, occupancy_block_size_b2d_fn real, ops_t *ops) {
  return real(grid, block, plain_of(f, 1, ops), to_shmem, shmem, limit);
}

typedef int (*occupancy_block_size_b2d_flags_fn)(int *, int *, const void *,
                                                 const void *, uint64_t, int,
                                                 unsigned);

PASTA_ABI int __pasta_cu_occupancy_max_potential_block_size_flags(
    int *grid, int *block, const void *f, const void *to_shmem, uint64_t shmem,
    int limit, unsigned flags, occupancy_block_size_b2d_flags_fn real,
    ops_t *ops) {
  return real(grid, block, plain_of(f, 1, ops), to_shmem, shmem, limit, flags);
}

typedef int (*occupancy_clusters_fn)(int *, const void *, const void *);

/* cudaOccupancyMaxActiveClusters, cudaOccupancyMaxPotentialClusterSize and
 * their driver forms (value, func, launch configuration): the cluster
 * shape and count the plain copy allows. */
PASTA_ABI int __pasta_occupancy_clusters(int *value, const void *fn,
                                         const void *config,
                                         occupancy_clusters_fn real,
                                         ops_t *ops) {
  return real(value, plain_of(fn, 1, ops), config);
}

typedef int (*cu_func_get_attribute_fn)(int *, int, const void *);

/* cuFuncGetAttribute(&value, attribute, f). */
PASTA_ABI int __pasta_cu_func_get_attribute(int *value, int attribute,
                                            const void *f,
                                            cu_func_get_attribute_fn real,
                                            ops_t *ops) {
  return real(value, attribute, plain_of(f, 0, ops));
}

/* The copies of a registered kernel, or of the kernel a driver handle was
 * taken from (its copies' handles), other than the plain one, the kernel
 * (handle) itself among them, in `out`; how many. *plain: the plain copy,
 * else `fn`. Lock held. */
enum { MAX_COPIES = 9 };
static size_t copies_of(const void *fn, const void **plain,
                        const void *out[MAX_COPIES]) {
  size_t n = 0;
  *plain = fn;
  const struct kernel *k = fn ? pasta__find_kernel(fn) : NULL;
  const struct driver_handle *h = fn && !k ? pasta__driver_handle(fn) : NULL;
  const void *all[MAX_COPIES] = {fn};
  if (k && k->plain) {
    *plain = k->plain;
    const void *mine[MAX_COPIES] = {
        fn,       k->ws,           k->ws_capped,   k->trace,
        k->div,   k->div_uncapped, k->div_general, k->div_one_lane,
        k->capped};
    for (size_t i = 0; i < MAX_COPIES; ++i)
      all[i] = mine[i];
  } else if (h && h->plain) {
    *plain = h->plain;
    all[1] = h->capped;
  } else {
    return 0;
  }
  for (size_t i = 0; i < MAX_COPIES; ++i)
    if (all[i] && all[i] != *plain)
      out[n++] = all[i];
  return n;
}

/* Setting `s` made on `copy`. A refusal (a stub in a copy's place, a
 * counting kernel whose own shared memory leaves less room) is PASTA's:
 * such a copy is refused at its launch and falls back. The runtime API's
 * (`runtime`) is read back unless the program had an error `pending`; the
 * driver API keeps no last error. */
static void make_on_copy(ops_t *ops, const struct copy_setting *s,
                         const void *copy, int runtime, int pending) {
  int err = s->set_attribute ? s->set_attribute(copy, s->attribute, s->value)
                             : s->set_config(copy, s->value);
  if (err && runtime)
    pasta__clear_own_error(ops, pending);
}

/* Keeps `s` on kernel `fn` until its next launch (pasta__make_unset),
 * which makes it on the copies; with no room left, it is made now (a
 * refusal then replaces the program's pending error). */
static void keep_for_launch(ops_t *ops, const void *fn,
                            const struct copy_setting *s) {
  pasta__state_lock();
  struct kernel *k = pasta__find_kernel(fn);
  int kept = k && k->num_unset < sizeof k->unset / sizeof k->unset[0];
  if (kept)
    k->unset[k->num_unset++] = *s;
  pasta__state_unlock();
  if (kept)
    return;
  const void *plain, *copies[MAX_COPIES];
  pasta__state_lock();
  size_t n = copies_of(fn, &plain, copies);
  pasta__state_unlock();
  for (size_t i = 0; i < n; ++i)
    make_on_copy(ops, s, copies[i], 1, 1);
}

/* The program's setting `s` of `fn`: on the plain copy first, the kernel
 * the program would have without PASTA, whose answer is the program's (as
 * the occupancy queries are); then on the counting kernel and each other
 * copy. A runtime API setting made while the program has an error pending
 * waits for the kernel's next launch (pasta__make_unset): a copy's refusal
 * now would replace the program's error. */
static int set_everywhere(const void *fn, const struct copy_setting *s,
                          int runtime, ops_t *ops) {
  int pending = runtime && pasta__error_pending(ops);
  const void *plain, *copies[MAX_COPIES];
  pasta__state_lock();
  pasta__note_call(ops);
  size_t n = copies_of(fn, &plain, copies);
  pasta__state_unlock();
  int err = s->set_attribute ? s->set_attribute(plain, s->attribute, s->value)
                             : s->set_config(plain, s->value);
  if (err || !n)
    return err;
  if (pending) {
    keep_for_launch(ops, fn, s);
    return 0;
  }
  for (size_t i = 0; i < n; ++i)
    make_on_copy(ops, s, copies[i], runtime, 0);
  return 0;
}

void pasta__make_unset(ops_t *ops, uint32_t kernel) {
  pasta__state_lock();
  struct kernel *k = &pasta__st.kernels[kernel];
  struct copy_setting unset[sizeof k->unset / sizeof k->unset[0]];
  unsigned num = k->num_unset;
  memcpy(unset, k->unset, sizeof unset);
  k->num_unset = 0;
  const void *plain, *copies[MAX_COPIES];
  size_t n = copies_of(k->handle, &plain, copies);
  pasta__state_unlock();
  int pending = pasta__error_pending(ops);
  for (unsigned j = 0; j < num; ++j)
    for (size_t i = 0; i < n; ++i)
      make_on_copy(ops, &unset[j], copies[i], 1, pending);
}

typedef int (*func_set_attribute_fn)(const void *, int, int);

/* cudaFuncSetAttribute (hipFuncSetAttribute). */
PASTA_ABI int __pasta_func_set_attribute(const void *fn, int attribute,
                                         int value, func_set_attribute_fn real,
                                         ops_t *ops) {
  struct copy_setting s = {real, NULL, attribute, value};
  return set_everywhere(fn, &s, 1, ops);
}

/* cuFuncSetAttribute(f, attribute, value) on a driver handle. */
PASTA_ABI int __pasta_cu_func_set_attribute(const void *f, int attribute,
                                            int value,
                                            func_set_attribute_fn real,
                                            ops_t *ops) {
  struct copy_setting s = {real, NULL, attribute, value};
  return set_everywhere(f, &s, 0, ops);
}

typedef int (*func_set_config_fn)(const void *, int);

/* cudaFuncSetCacheConfig and cudaFuncSetSharedMemConfig (hipFuncSet...):
 * a preference the program gives its kernel, which the copies that run in
 * its place should have too. */
PASTA_ABI int __pasta_func_set_config(const void *fn, int config,
                                      func_set_config_fn real, ops_t *ops) {
  struct copy_setting s = {NULL, real, 0, config};
  return set_everywhere(fn, &s, 1, ops);
}

/* cuFuncSetCacheConfig and cuFuncSetSharedMemConfig on a driver handle. */
PASTA_ABI int __pasta_cu_func_set_config(const void *f, int config,
                                         func_set_config_fn real, ops_t *ops) {
  struct copy_setting s = {NULL, real, 0, config};
  return set_everywhere(f, &s, 0, ops);
}

/* The CUkernel forms, per device (cuKernelGetAttribute, cuKernelSetAttribute,
 * cuKernelSetCacheConfig), on a CUkernel the program took from its kernel
 * (cudaGetKernel): the plain copy's CUkernel answers, settings reach every
 * copy's. The driver keeps no last error, so a setting is made at once
 * and never kept for a launch: the device travels in thread-local state
 * to the adapters set_everywhere calls. */
typedef int (*cu_kernel_get_attribute_fn)(int *, int, const void *, int);

PASTA_ABI int __pasta_cu_kernel_get_attribute(int *value, int attribute,
                                              const void *kernel, int device,
                                              cu_kernel_get_attribute_fn real,
                                              ops_t *ops) {
  return real(value, attribute, plain_of(kernel, 0, ops), device);
}

typedef int (*cu_kernel_set_attribute_fn)(int, int, const void *, int);
typedef int (*cu_kernel_set_config_fn)(const void *, int, int);

static __thread struct {
  cu_kernel_set_attribute_fn set_attribute;
  cu_kernel_set_config_fn set_config;
  int device;
} kernel_setting;

static int kernel_set_attribute(const void *kernel, int attribute, int value) {
  return kernel_setting.set_attribute(attribute, value, kernel,
                                      kernel_setting.device);
}

static int kernel_set_config(const void *kernel, int config) {
  return kernel_setting.set_config(kernel, config, kernel_setting.device);
}

PASTA_ABI int __pasta_cu_kernel_set_attribute(int attribute, int value,
                                              const void *kernel, int device,
                                              cu_kernel_set_attribute_fn real,
                                              ops_t *ops) {
  kernel_setting.set_attribute = real;
  kernel_setting.device = device;
  struct copy_setting s = {kernel_set_attribute, NULL, attribute, value};
  return set_everywhere(kernel, &s, 0, ops);
}

PASTA_ABI int __pasta_cu_kernel_set_cache_config(const void *kernel, int config,
                                                 int device,
                                                 cu_kernel_set_config_fn real,
                                                 ops_t *ops) {
  kernel_setting.set_config = real;
  kernel_setting.device = device;
  struct copy_setting s = {NULL, kernel_set_config, 0, config};
  return set_everywhere(kernel, &s, 0, ops);
}
